"""Print through the HTTP API: one puzzle (as far as played or empty, with or without its
solution) and a library selection, each a PDF to download."""

from __future__ import annotations

import subprocess
import warnings
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from tests.web.conftest import puzzle_id

EASY = "qqwing-easy"


def _saved(tmp_path: Path, data: bytes) -> Path:
    assert data.startswith(b"%PDF-")
    path = tmp_path / "printed.pdf"
    path.write_bytes(data)
    return path


def _text(pdf: Path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout  # fmt: skip


def _pages(pdf: Path) -> int:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout
    return int(info.split("Pages:")[1].split()[0])


def test_a_game_prints_as_far_as_played_with_its_solution_upside_down(
    client: TestClient, tmp_path: Path
) -> None:
    pid = puzzle_id(client, EASY)
    givens = client.get(f"/api/puzzles/{pid}").json()["puzzle"]["givens"]
    solution = client.get(f"/api/puzzles/{pid}/solve").json()["solutions"][0].replace("/", "")
    empty = givens.index(".")
    r, c = divmod(empty, 9)
    assert client.post(
        f"/api/games/{pid}/move", json={"move": f"r{r + 1}c{c + 1}={solution[empty]}"}
    ).is_success
    answer = client.get(f"/api/puzzles/{pid}/print?state=game&solution=upside-down")
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/pdf"
    assert "attachment" in answer.headers["content-disposition"]
    pdf = _saved(tmp_path, answer.content)
    text = _text(pdf)
    assert f"Sudoku 9×9 · easy — {EASY} (as played)" in text
    assert "solution" in text and _pages(pdf) == 1
    empty_print = client.get(f"/api/puzzles/{pid}/print?state=empty&solution=after")
    pdf = _saved(tmp_path, empty_print.content)
    assert "as played" not in _text(pdf) and _pages(pdf) == 2


def test_a_selection_prints_in_one_pdf(client: TestClient, tmp_path: Path) -> None:
    rows = client.get("/api/puzzles").json()[:4]
    body = {"ids": [row["id"] for row in rows], "solutions": "back", "title": "Selected"}
    answer = client.post("/api/print", json=body)
    assert answer.status_code == 200, answer.text
    text = _text(_saved(tmp_path, answer.content))
    assert "Selected" in text and "Solutions" in text
    for number, row in enumerate(rows, start=1):
        assert f"{number}. " in text and row["title"][:10] in text  # (long ones cut short)


@pytest.mark.parametrize("query", ["state=solved", "solution=back", "page=a9", "solution=sideways"])
def test_bad_print_options_are_422(client: TestClient, query: str) -> None:
    pid = puzzle_id(client, EASY)
    answer = client.get(f"/api/puzzles/{pid}/print?{query}")
    assert answer.status_code == 422 and answer.json()["error"]


def test_a_selection_of_nothing_or_a_missing_puzzle_is_refused(client: TestClient) -> None:
    assert client.post("/api/print", json={"ids": []}).status_code == 422
    assert client.post("/api/print", json={"ids": [987654]}).status_code == 404
