"""GET /api/library (search, filters, sort, pages) and GET /api/library/export (the whole
library as a zip), on a library of 2,000 made nonograms plus the bundled examples."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pencilbox.web import create_app
from tests.web import many_puzzles
from tests.web.conftest import TestClient, app_client

MADE = 2000
BUNDLED = many_puzzles.BUNDLED


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("catalogue") / "library.sqlite3"
    many_puzzles.fill(db, MADE)
    with app_client(create_app(db)) as client:
        yield client


def find(client: TestClient, **query: Any) -> dict[str, Any]:
    answer = client.get("/api/library", params=query)
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def test_pages_cover_the_library_once(big: TestClient) -> None:
    first = find(big, limit=200)
    assert first["total"] == first["library"] == MADE + BUNDLED
    assert len(first["puzzles"]) == 200 and first["offset"] == 0
    seen: list[int] = []
    for offset in range(0, MADE + BUNDLED, 200):
        seen += [p["id"] for p in find(big, offset=offset, limit=200)["puzzles"]]
    assert sorted(seen) == sorted(set(seen)) and len(seen) == MADE + BUNDLED
    assert find(big, offset=MADE + BUNDLED)["puzzles"] == []
    # a row is a summary: no puzzle text, its size class and play state
    row = first["puzzles"][0]
    assert "source" not in row and {"size", "state", "grade", "title"} <= set(row)
    # shelf order: by genre, the bundled first, small before large
    genres = [p["genre"] for p in first["puzzles"]]
    assert genres == sorted(genres)


def test_search_and_filters(big: TestClient) -> None:
    assert [p["title"] for p in find(big, q="0040 HERON")["puzzles"]] == ["heron 0040"]
    assert find(big, q="heron")["total"] == MADE // 10
    assert find(big, q="qqwing")["total"] == 2  # the bundled ones, by title
    assert find(big, q="shared data sudoku")["total"] == 2  # by their credit
    assert find(big, q="no such words")["total"] == 0
    assert find(big, genre="sudoku")["total"] == 2
    assert find(big, genre="double-choco")["total"] == 1  # an alias of dbchoco
    large = find(big, size="large", limit=200)
    assert large["total"] == MADE // 4 + 2  # and the bundled seed-a and seed-b, 30x30
    assert all(p["width"] in (25, 30) for p in large["puzzles"])
    huge = find(big, size="huge")
    assert huge["total"] == 0
    medium = find(big, size="medium", genre="nonogram", limit=200)["puzzles"]
    assert {max(p["width"], p["height"]) for p in medium} <= set(range(11, 21))
    assert find(big, grade="search")["total"] == MADE // 10
    assert find(big, grade="none")["total"] == BUNDLED  # not graded yet
    assert find(big, state="solved")["total"] == many_puzzles.SOLVED
    assert find(big, state="started")["total"] == many_puzzles.STARTED
    assert find(big, state="new")["total"] == MADE + BUNDLED - many_puzzles.SOLVED - 30
    both = find(big, q="otter", size="large", grade="line")
    assert both["total"] > 0
    assert all(
        p["title"].startswith("otter") and p["width"] == 25 and p["grade"] == "line"
        for p in both["puzzles"]
    )
    counts = find(big)["counts"]
    assert counts["genre"] == {"dbchoco": 1, "nonogram": MADE + BUNDLED - 3, "sudoku": 2}
    assert counts["state"]["solved"] == many_puzzles.SOLVED
    assert sum(counts["size"].values()) == MADE + BUNDLED


def test_sorts(big: TestClient) -> None:
    by_title = [p["title"] for p in find(big, sort="title", limit=100)["puzzles"]]
    assert by_title == sorted(by_title, key=str.casefold) and by_title[0] == "badger 0005"
    backwards = [p["title"] for p in find(big, sort="title", order="desc", limit=5)["puzzles"]]
    assert backwards[0].startswith("wren 1998")
    sizes = [p["width"] * p["height"] for p in find(big, sort="size", limit=200)["puzzles"]]
    assert sizes == sorted(sizes)
    largest = find(big, sort="size", order="desc", limit=2)["puzzles"]
    assert [p["title"] for p in largest] == ["seed-b", "seed-a"]
    graded = find(big, sort="grade", genre="nonogram", limit=200, offset=1000)["puzzles"]
    ranks = [("line", "probe", "search", None).index(p["grade"]) for p in graded]
    assert ranks == sorted(ranks)
    last = find(big, sort="grade", genre="nonogram", offset=MADE + 6)["puzzles"]
    assert last[0]["grade"] is None  # the not graded after every grade
    # the most advanced first: solved, then in progress
    advanced = find(big, sort="progress", limit=many_puzzles.SOLVED + 1)["puzzles"]
    assert all(p["solved"] for p in advanced[:-1]) and advanced[-1]["state"] == "started"
    played = find(big, sort="played", limit=1)["puzzles"][0]
    assert played["updated"] is not None


@pytest.mark.parametrize(
    ("query", "word"),
    [
        ({"size": "tiny"}, "size"),
        ({"state": "done"}, "state"),
        ({"sort": "colour"}, "sort"),
        ({"order": "up"}, "order"),
        ({"limit": 0}, "limit"),
        ({"limit": 500}, "limit"),
        ({"offset": -1}, "offset"),
        ({"q": "x" * 201}, "q"),
    ],
)
def test_bad_queries_say_which_parameter(big: TestClient, query: dict[str, Any], word: str) -> None:
    answer = big.get("/api/library", params=query)
    assert answer.status_code == 422
    assert word in answer.json()["error"]


def test_export_holds_every_puzzle_and_game(client: TestClient, tmp_path: Path) -> None:
    made = client.post(
        "/api/puzzles", json={"text": "1 1,1\n1,1,1\n", "filename": "small one.clues"}
    ).json()
    pid = made["id"]
    assert client.post(f"/api/games/{pid}/move", json={"move": "r1c1=1"}).status_code == 200
    answer = client.get("/api/library/export")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "application/zip"
    assert 'filename="pencilbox-library-' in answer.headers["content-disposition"]
    archive = zipfile.ZipFile(io.BytesIO(answer.content))
    index = json.loads(archive.read("index.json"))
    assert index["pencilbox"] == "library" and index["version"] == 1
    rows = client.get("/api/puzzles").json()
    assert len(index["puzzles"]) == len(rows) == BUNDLED + 1
    assert len(archive.namelist()) == len(rows) + 1
    mine = next(entry for entry in index["puzzles"] if entry["id"] == pid)
    assert mine["file"] == f"nonogram/{pid:05d}-small-one.clues"
    assert archive.read(mine["file"]).decode() == "1 1,1\n1,1,1\n"
    assert mine["game"]["moves"] and mine["game"]["position"] == 1
    sudoku = next(entry for entry in index["puzzles"] if entry["title"] == "qqwing-easy")
    assert sudoku["file"].endswith(".sdk") and sudoku["credit"]
    # every file imports back as the puzzle it was (the library says: already there)
    for entry in index["puzzles"]:
        text = archive.read(entry["file"]).decode()
        again = client.post(
            "/api/puzzles", json={"text": text, "filename": entry["file"].split("/")[-1]}
        )
        assert again.status_code == 201, (entry["file"], again.text)
        assert again.json()["id"] == entry["id"] and again.json()["new"] is False
