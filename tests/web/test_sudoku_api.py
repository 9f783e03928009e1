"""The sudoku game through the generic game endpoints (genres/sudoku/play.py)."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from pencilbox.web import create_app
from tests.web.conftest import app_client, moves_of, puzzle_id

EASY = "qqwing-easy"


def _rows(line: str) -> str:
    return "/".join(line[i : i + 9] for i in range(0, 81, 9))


def _solution(client: TestClient, pid: int) -> str:
    solved: str = client.get(f"/api/puzzles/{pid}/solve").json()["solutions"][0]
    return solved


def test_bundled_sudoku_opens_as_a_game(client: TestClient) -> None:
    pid = puzzle_id(client, EASY)
    row = client.get(f"/api/puzzles/{pid}").json()
    assert row["genre"] == "sudoku" and "QQWing" in row["credit"]
    puzzle = row["puzzle"]
    assert puzzle["size"] == 9 and puzzle["n"] == 3 and puzzle["symbols"] == ".123456789"
    game = client.get(f"/api/games/{pid}").json()
    assert game["state"].replace("/", "") == puzzle["givens"]
    assert game["progress"] == 0 and not game["solved"]


def test_moves_undo_redo_and_givens(client: TestClient) -> None:
    pid = puzzle_id(client, EASY)
    solution = _solution(client, pid)
    played = client.post(f"/api/games/{pid}/move", json={"move": f"r1c1={solution[0]}"}).json()
    assert played["changed"] and played["state"][0] == solution[0]
    assert client.post(f"/api/games/{pid}/move", json={"move": "r1c1=0"}).json()["state"][0] == "."
    assert client.post(f"/api/games/{pid}/undo").json()["state"][0] == solution[0]
    assert client.post(f"/api/games/{pid}/redo").json()["state"][0] == "."
    given = client.post(f"/api/games/{pid}/move", json={"move": "r1c2=1"})
    assert given.status_code == 422 and "given" in given.json()["error"]
    too_big = client.post(f"/api/games/{pid}/move", json={"move": "r1c1=10"})
    assert too_big.status_code == 422 and "0 to 9" in too_big.json()["error"]
    bad_grid = client.post(f"/api/games/{pid}/move", json={"move": "grid " + "1" * 81})
    assert bad_grid.status_code == 422 and "given" in bad_grid.json()["error"]
    short = client.post(f"/api/games/{pid}/move", json={"move": "grid 123"})
    assert short.status_code == 422 and "81 in one word" in short.json()["error"]
    # a whole board in one word, as the serial text box has it ("." empty)
    line = client.get(f"/api/puzzles/{pid}").json()["puzzle"]["givens"]
    loaded = line.replace(".", solution[0], 1) if line[0] == "." else line
    played = client.post(f"/api/games/{pid}/move", json={"move": f"grid {loaded}"}).json()
    assert played["state"].replace("/", "") == loaded
    # saved as what it changed, the shorter spelling
    assert moves_of(client, pid)[-1] == f"r1c1={solution[0]}"


def test_hint_from_the_current_state_and_mistakes(client: TestClient) -> None:
    pid = puzzle_id(client, EASY)
    hint = client.post(f"/api/games/{pid}/hint").json()
    step = hint["step"]
    assert step["technique"] and step["sentence"] and (step["changes"] or step.get("extra"))
    # play the hint's placement: the next hint comes from the new state
    client.post(f"/api/games/{pid}/move", json={"move": hint["move"]})
    following = client.post(f"/api/games/{pid}/hint").json()["step"]
    assert following["changes"] != step["changes"]
    solution = _solution(client, pid)
    empty = client.get(f"/api/games/{pid}").json()["state"].replace("/", "").index(".")
    wrong = "1" if solution[empty] != "1" else "2"
    r, c = divmod(empty, 9)
    client.post(f"/api/games/{pid}/move", json={"move": f"r{r + 1}c{c + 1}={wrong}"})
    mistake = client.post(f"/api/games/{pid}/hint").json()["step"]
    assert mistake["technique"] == "mistake" and mistake["reasons"] == [[r, c]]
    check = client.get(f"/api/games/{pid}/check").json()
    assert check["wrong"] == [[r, c]] and not check["solved"]


def test_accept_singles_solve_and_check(client: TestClient) -> None:
    pid = puzzle_id(client, EASY)
    before = client.get(f"/api/games/{pid}").json()["state"].count(".")
    singles = client.post(f"/api/games/{pid}/pass").json()
    assert singles["changed"] and singles["steps"]
    assert singles["state"].count(".") < before
    solved = client.post(f"/api/games/{pid}/solve", json={"apply": True}).json()
    assert solved["solved"] and solved["result"]["status"] == "unique"
    assert solved["result"]["time_s"] >= 0
    assert solved["state"] == _rows(_solution(client, pid))
    assert client.get(f"/api/games/{pid}/check").json() == {
        "solved": True,
        "violations": [],
        "lines": [],
        "wrong": [],
        "unknown": 0,
    }
    assert client.post(f"/api/games/{pid}/hint").json()["step"] is None


def test_duplicates_are_violations(client: TestClient) -> None:
    pid = puzzle_id(client, EASY)
    # r1c1 and r1c2 (given 8): an 8 in r1c1 repeats the given in row 1
    client.post(f"/api/games/{pid}/move", json={"move": "r1c1=8"})
    check = client.get(f"/api/games/{pid}/check").json()
    assert check["violations"] and not check["solved"]
    assert client.post(f"/api/games/{pid}/hint").json()["step"]["technique"] in (
        "mistake",
        "contradiction",
    )


@pytest.mark.parametrize("grade", ["easy"])
def test_generate_at_a_grade_is_playable(client: TestClient, grade: str) -> None:
    made = client.post(
        "/api/generate", json={"genre": "sudoku", "options": {"seed": 5, "grade": grade}}
    )
    assert made.status_code == 201, made.text
    pid = made.json()["id"]
    assert client.get(f"/api/games/{pid}").status_code == 200


def test_a_16x16_game(client: TestClient, puzzle_data: Path) -> None:
    line = (puzzle_data / "sudoku" / "sudoku16_20.txt").read_text().split()[0]
    made = client.post("/api/puzzles", json={"text": line, "genre": "sudoku"})
    assert made.status_code == 201, made.text
    pid = made.json()["id"]
    puzzle = client.get(f"/api/puzzles/{pid}").json()["puzzle"]
    assert puzzle["size"] == 16 and puzzle["n"] == 4 and len(puzzle["symbols"]) == 17
    empty = puzzle["givens"].index(".")
    r, c = divmod(empty, 16)
    played = client.post(f"/api/games/{pid}/move", json={"move": f"r{r + 1}c{c + 1}=16"})
    assert played.status_code == 200
    assert played.json()["state"].replace("/", "")[empty] == "G"
    too_big = client.post(f"/api/games/{pid}/move", json={"move": f"r{r + 1}c{c + 1}=17"})
    assert too_big.status_code == 422
    hint = client.post(f"/api/games/{pid}/hint").json()["step"]
    assert hint is not None and hint["sentence"]


def test_pencil_marks_are_moves(client: TestClient, db_path: Path) -> None:
    pid = puzzle_id(client, EASY)
    url = f"/api/games/{pid}/move"
    assert client.get(f"/api/games/{pid}").json()["marks"] == []
    assert client.post(url, json={"move": "r1c1+5 r1c1+2"}).json()["marks"] == [[0, 0, [2, 5]]]
    removed = client.post(url, json={"move": "r1c1-5"}).json()
    assert removed["marks"] == [[0, 0, [2]]] and moves_of(client, pid)[-1] == "r1c1-5"
    # an entry and the marks it removes from its peers are one move
    both = client.post(url, json={"move": "r1c3=2 r1c1-2"}).json()
    assert both["marks"] == [] and both["state"][2] == "2"
    assert moves_of(client, pid)[-1] == "r1c3=2 r1c1-2"
    assert client.post(f"/api/games/{pid}/undo").json()["marks"] == [[0, 0, [2]]]
    assert client.post(f"/api/games/{pid}/redo").json()["marks"] == []
    client.post(f"/api/games/{pid}/undo")
    for bad in ("r1c2+3", "r1c1+10", "clear r1c1+3", "r1c1*3"):
        answer = client.post(url, json={"move": bad})
        assert answer.status_code == 422, bad
    cleared = client.post(url, json={"move": "clear"}).json()
    assert cleared["marks"] == [] and cleared["state"][2] == "."
    client.post(f"/api/games/{pid}/undo")
    # saved with the game: a new app on the same library finds the marks
    client.app.state.library.store.close()  # (one server per library: this one stops)
    with app_client(create_app(db_path)) as again:
        assert again.get(f"/api/games/{pid}").json()["marks"] == [[0, 0, [2]]]
