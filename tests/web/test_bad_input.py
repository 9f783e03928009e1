"""Issue 10's web reproducers: no input is a 500. Ids beyond SQLite's range on every {id}
route and in jobs, generator options of the wrong type, lone surrogates in text fields, a
parser bug's stray ValueError or OSError (422 in one sentence), and a file's content, not its
name, deciding its genre."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from pencilbox.genres import base
from tests.reproducers import REPRODUCERS, Reproducer
from tests.web.conftest import TestClient, app_routes, puzzle_id
from tests.web.test_jobs import finished, start

JSON = {"content-type": "application/json"}
TOO_BIG = (2**63, 2**64 + 5, 10**30, -(2**63) - 1)
SUDOKU_LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def id_routes(client: TestClient) -> list[tuple[str, str]]:
    """(method, path) of every route of the app with an id in its path."""
    return [(method, path) for method, path in app_routes(client.app) if "_id}" in path]


def test_every_id_route_is_covered(client: TestClient) -> None:
    paths = {path for _, path in id_routes(client)}
    assert "/api/games/{puzzle_id}/move" in paths and "/api/jobs/{job_id}" in paths
    assert len(paths) >= 19


@pytest.mark.parametrize("number", TOO_BIG)
def test_ids_beyond_sqlite_are_4xx_on_every_route(client: TestClient, number: int) -> None:
    for method, path in id_routes(client):
        url = path.replace("{puzzle_id}", str(number)).replace("{job_id}", str(number))
        body = {"move": "r1c1=1"} if path.endswith("/move") else None
        answer = client.request(method, url, json=body)
        assert 400 <= answer.status_code < 500, f"{method} {url}: {answer.status_code}"
        assert "error" in answer.json()


@pytest.mark.parametrize("number", TOO_BIG)
def test_ids_beyond_sqlite_in_jobs(client: TestClient, number: int) -> None:
    for kind in ("solve", "steps"):
        answer = client.post("/api/jobs", json={"kind": kind, "puzzle_id": number})
        assert answer.status_code == 422 and "puzzle_id" in answer.json()["error"]


@pytest.mark.parametrize(
    ("genre", "options", "fragment"),
    [
        ("sudoku", {"size": "abc"}, "--size must be a whole number"),
        ("sudoku", {"seed": "abc"}, "--seed must be a whole number"),
        ("sudoku", {"seed": 1.5}, "--seed must be a whole number"),
        ("sudoku", {"size": True}, "--size must be a whole number"),
        ("nonogram", {"size": "abc"}, "--size must be WxH"),
        ("nonogram", {"seed": "abc"}, "--seed must be a whole number"),
        ("nonogram", {"attempts": "x"}, "--attempts must be a whole number"),
        ("dbchoco", {"size": "abc"}, "--size must be WxH"),
        ("dbchoco", {"seed": "²"}, "--seed must be a whole number"),
        ("dbchoco", {"attempts": "x"}, "--attempts must be a whole number"),
    ],
)
def test_generator_options_of_the_wrong_type(
    client: TestClient, genre: str, options: dict[str, Any], fragment: str
) -> None:
    answer = client.post("/api/generate", json={"genre": genre, "options": options})
    assert answer.status_code == 422 and fragment in answer.json()["error"], answer.text
    job = finished(client, start(client, kind="generate", genre=genre, options=options))
    assert job["state"] == "failed" and fragment in job["error"]


@pytest.mark.parametrize("genre", ["sudoku", "nonogram", "dbchoco"])
def test_an_infinite_seed(client: TestClient, genre: str) -> None:
    """`Infinity` is not JSON, but Python's reader takes it."""
    body = f'{{"genre": "{genre}", "options": {{"seed": Infinity}}}}'
    answer = client.post("/api/generate", content=body, headers=JSON)
    assert answer.status_code == 422 and "--seed must be a whole number" in answer.json()["error"]


@pytest.mark.parametrize(
    ("url", "body"),
    [
        ("/api/puzzles", '{"text": "1\\n1\\n", "title": "a\\ud800b"}'),
        ("/api/puzzles", '{"text": "1\\n1\\n", "filename": "\\udcff.txt"}'),
        ("/api/puzzles", '{"text": "1\\n1\\ud800\\n"}'),
        ("/api/parse", '{"text": "1\\n1\\n", "genre": "\\ud800"}'),
        ("/api/generate", '{"genre": "sudoku", "title": "\\ud83d"}'),
        ("/api/generate", '{"genre": "sudoku", "options": {"grade": "\\ud800"}}'),
        ("/api/jobs", '{"kind": "generate", "genre": "sudoku", "title": "x\\udfff"}'),
        ("/api/nonogram/clues", '{"rows": "1\\ud800", "cols": "1"}'),
    ],
)
def test_a_lone_surrogate_is_422(client: TestClient, url: str, body: str) -> None:
    answer = client.post(url, content=body, headers=JSON)
    assert answer.status_code == 422
    assert "not valid Unicode (a lone surrogate at character" in answer.json()["error"]


def test_a_lone_surrogate_in_a_move(client: TestClient) -> None:
    pid = puzzle_id(client, "data148")
    body = '{"move": "r1c1=\\ud800"}'
    answer = client.post(f"/api/games/{pid}/move", content=body, headers=JSON)
    assert answer.status_code == 422 and "lone surrogate" in answer.json()["error"]
    assert client.get(f"/api/games/{pid}").json()["history"] == 0


@pytest.mark.parametrize(
    "error",
    [
        ValueError("invalid literal for int() with base 10: '" + "9" * 5000 + "'"),
        OSError(36, "File name too long"),
        RecursionError("maximum recursion depth exceeded"),
        UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"),
    ],
)
def test_a_parser_bug_is_a_422_in_one_sentence(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, error: Exception
) -> None:
    """A parser that raises something other than a PuzzleError (a bug, but the input's doing)
    answers 422 with one short sentence, on every way in: import, parse, convert."""

    def broken(*args: object, **kwargs: object) -> object:
        raise error

    nonogram = base.get("nonogram")
    buggy = dataclasses.replace(nonogram, name="buggy", aliases=(), parse=broken)
    monkeypatch.setitem(base._REGISTRY, "buggy", buggy)
    for url, extra in (("/api/puzzles", {}), ("/api/parse", {}), ("/api/convert", {"to": "svg"})):
        answer = client.post(url, json={"text": "1\n1\n", "genre": "buggy", **extra})
        assert answer.status_code == 422, answer.text
        message = answer.json()["error"]
        assert message.startswith("cannot read this puzzle (") and type(error).__name__ in message
        assert len(message) <= 160 and "\n" not in message


@pytest.mark.parametrize("name", ["puzzle.txt", "list.txt", "sudoku.clues"])
def test_a_file_is_read_by_its_content(client: TestClient, name: str) -> None:
    """A Sudoku line in a file named .txt (which the Nonogram notations also claim) is a
    Sudoku, as `pencilbox.load` reads it."""
    made = client.post("/api/puzzles", json={"text": SUDOKU_LINE + "\n", "filename": name})
    assert made.status_code == 201, made.text
    assert made.json()["genre"] == "sudoku" and made.json()["width"] == 9
    nonogram = client.post("/api/puzzles", json={"text": "1 1,1\n1,1,1\n", "filename": name})
    assert nonogram.status_code == 201 and nonogram.json()["genre"] == "nonogram"


def test_a_16x16_line_in_a_txt_file(client: TestClient, puzzle_data: Path) -> None:
    line = (puzzle_data / "sudoku" / "sudoku16_20.txt").read_text().split()[0]
    made = client.post("/api/puzzles", json={"text": line, "filename": "big.txt"})
    assert made.status_code == 201, made.text
    assert made.json()["genre"] == "sudoku" and made.json()["width"] == 16


def test_deep_json_and_long_numbers_are_4xx(client: TestClient) -> None:
    """The audit's JSON reproducers, pasted into the import box."""
    deep = '{"rows": ' + "[" * 1000 + "]" * 1000 + ', "cols": []}'
    long_number = json.dumps({"rows": [[int("9" * 40)]], "cols": [[1]]})
    for text in (deep, long_number):
        answer = client.post("/api/puzzles", json={"text": text, "filename": "x.json"})
        assert 400 <= answer.status_code < 500, answer.text
        assert len(answer.json()["error"]) <= 200


@pytest.mark.parametrize("case", REPRODUCERS, ids=lambda case: case.name)
def test_the_audits_inputs_are_4xx_in_one_sentence(client: TestClient, case: Reproducer) -> None:
    """Each bad input of the audit, pasted into the import box (or uploaded as a file of its
    name), answers 4xx with one short sentence and adds nothing to the library."""
    before = len(client.get("/api/puzzles").json())
    for body in ({"text": case.text}, {"text": case.text, "filename": case.filename}):
        for url in ("/api/puzzles", "/api/parse"):
            answer = client.post(url, content=json.dumps(body), headers=JSON)
            assert 400 <= answer.status_code < 500, (url, answer.status_code, answer.text[:300])
            message = answer.json()["error"]
            assert isinstance(message, str) and "\n" not in message, message[:300]
            assert len(message) <= 200, message[:300]
    assert len(client.get("/api/puzzles").json()) == before
