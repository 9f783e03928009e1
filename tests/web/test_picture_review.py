"""The review screen's API: a picture's bytes in, what was read out; corrections in, a fresh
verdict out; the text it gives imports into the library."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.pictures import draw


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("pictures")


def read(client: Any, path: Path, **query: str) -> dict[str, Any]:
    answer = client.post(
        "/api/pictures/read",
        content=path.read_bytes(),
        params={"name": path.name, **query},
        headers={"Content-Type": "image/png"},
    )
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def test_the_genres_that_read_pictures(client: Any) -> None:
    names = {g["name"] for g in client.get("/api/pictures").json()["genres"]}
    assert names == {"nonogram", "sudoku", "dbchoco"}


def test_a_screenshot_is_read_corrected_and_imported(client: Any, folder: Path) -> None:
    path, truth = draw("sudoku-print", 3, folder)
    document = read(client, path)
    assert document["status"] == "ok" and document["file"] == path.name
    assert document["text"].strip() == truth["givens"]
    at = next(i for i, n in enumerate(document["numbers"]) if n["row"] == 1)
    first = document["numbers"][at]
    clash = next(
        n["read"]
        for n in document["numbers"]
        if n["row"] == 1 and n["read"] != first["read"]  # the same digit twice in row 1
    )
    wrong = client.post("/api/pictures/check", json={"document": document, "edits": {at: clash}})
    assert wrong.status_code == 200
    body = wrong.json()
    assert body["status"] == "uncertain" and body["verdict"]["checks"]["no_clash"] is False
    assert body["numbers"][at]["edited"] and body["numbers"][at]["read"] == clash
    mended = client.post(
        "/api/pictures/check", json={"document": body, "edits": {str(at): first["read"]}}
    ).json()
    assert mended["verdict"]["consistent"] and mended["text"] == document["text"]
    made = client.post("/api/puzzles", json={"text": mended["text"], "genre": mended["genre"]})
    assert made.status_code == 201 and made.json()["genre"] == "sudoku"


def test_a_nonogram_is_read_as_the_page_genre_and_a_clue_added(client: Any, folder: Path) -> None:
    path, truth = draw("nonogram-render", 1, folder)
    document = read(client, path, genre="nonogram")
    assert document["genre"] == "nonogram" and document["puzzle"]["rows"] == truth["rows"]
    document["numbers"].append(
        {"clue": "row 1", "index": 99, "read": 1, "confidence": 1, "edited": True}
    )
    answer = client.post("/api/pictures/check", json={"document": document, "edits": {}}).json()
    assert answer["puzzle"]["rows"][0] == [*truth["rows"][0], 1]
    assert answer["verdict"]["checks"]["totals_agree"] is False
    assert "the row clues add up to" in answer["verdict"]["problems"][0]


def test_what_cannot_be_read_says_why(client: Any, tmp_path: Path) -> None:
    empty = client.post("/api/pictures/read", content=b"")
    assert empty.status_code == 422 and "no picture" in empty.json()["error"]
    notes = tmp_path / "notes.png"
    notes.write_text("a shopping list")
    document = read(client, notes)
    assert document["status"] == "error" and document["text"] is None
    assert "not a PNG, JPEG or WebP picture" in document["error"]
    bad = client.post("/api/pictures/check", json={"document": {"genre": "sudoku"}, "edits": {}})
    assert bad.status_code == 422 and "cannot be read" in bad.json()["error"]
    unknown = client.post(
        "/api/pictures/check", json={"document": {"genre": "chess", "width": 1, "height": 1}}
    )
    assert unknown.status_code == 422 and "chess" in unknown.json()["error"]


def test_another_site_cannot_make_the_server_read(db_path: Path, folder: Path) -> None:
    from fastapi.testclient import TestClient

    from pencilbox.web import create_app
    from tests.web.conftest import BASE_URL

    path, _ = draw("sudoku-print", 3, folder)
    with TestClient(create_app(db_path), base_url=BASE_URL) as plain:  # no X-Pencilbox header
        answer = plain.post("/api/pictures/read", content=path.read_bytes())
    assert answer.status_code == 403
