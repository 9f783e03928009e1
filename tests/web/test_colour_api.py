"""Colour nonograms through the web API: imported, solved, graded, explained step by step (the
same trace the animation streams), drawn in their colours as thumbnails and exports."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from pencilbox.web import create_app
from tests.conftest import TEST_DATA
from tests.web.conftest import COLOUR_EXAMPLE, app_client, known_solution, puzzle_id

APPLES = TEST_DATA / "nonogram-colour" / "pynogram-apples.txt"


def _imported(client: TestClient) -> int:
    answer = client.post(
        "/api/puzzles", json={"text": APPLES.read_text(), "filename": "apples.txt"}
    )
    assert answer.status_code == 201, answer.text
    pid: int = answer.json()["id"]
    return pid


def test_a_colour_puzzle_solves_grades_and_explains(client: TestClient) -> None:
    pid = _imported(client)
    solved = client.get(f"/api/puzzles/{pid}/solve").json()
    assert solved["status"] == "unique" and solved["grade"] == "line"
    rows = solved["solutions"][0]
    assert len(rows) == 15 and set("".join(rows)) <= {".", "#", "g", "r"} and "r" in "".join(rows)
    trace = client.get(f"/api/puzzles/{pid}/steps").json()
    assert trace["complete"] and trace["count"] == len(trace["steps"]) > 0
    sentences = " ".join(step["sentence"] for step in trace["steps"])
    assert " g" in sentences or "green" in sentences or " r" in sentences


def test_colour_thumbnails_and_exports_are_in_colour(client: TestClient) -> None:
    pid = _imported(client)
    thumbnail = client.get(f"/api/puzzles/{pid}/thumbnail.svg")
    assert thumbnail.status_code == 200 and thumbnail.text.startswith("<svg")
    solved = client.get(f"/api/puzzles/{pid}/export?format=svg&state=solution").text
    assert "#00cc00" in solved.lower() and "#ff0000" in solved.lower()
    picture = client.get(f"/api/puzzles/{pid}/export?format=png&state=solution")
    assert picture.content.startswith(b"\x89PNG")
    assert '"colors"' in client.get(f"/api/puzzles/{pid}/export?format=json").text


# -- playing a colour game -----------------------------------------------------------------
# The game's values: 0 unknown, 1 the first colour, 2 crossed, 3.. the second colour on.
VALUE = {"#": 1, ".": 2, "o": 3}  # Take two: black, then orange


def _solution_moves(rows: list[str]) -> list[str]:
    return [
        " ".join(f"r{r + 1}c{c + 1}={VALUE[ch]}" for c, ch in enumerate(row))
        for r, row in enumerate(rows)
    ]


def test_the_bundled_colour_puzzle_is_played_cell_by_cell_to_solved(client: TestClient) -> None:
    pid = puzzle_id(client, COLOUR_EXAMPLE)
    puzzle = client.get(f"/api/puzzles/{pid}").json()["puzzle"]
    assert [(c["name"], c["value"]) for c in puzzle["colors"]] == [
        ("white", 2),
        ("black", 1),
        ("orange", 3),
    ]
    assert puzzle["symbols"] == "?#.3" and puzzle["rows"][2] == [[1, 1], [1, 2], [4, 1], [1, 2]]
    game = client.get(f"/api/games/{pid}").json()
    assert game["state"] == "/".join(["?" * 15] * 15) and not game["solved"]
    rows = known_solution(COLOUR_EXAMPLE)
    for move in _solution_moves(rows)[:-1]:
        answer = client.post(f"/api/games/{pid}/move", json={"move": move}).json()
        assert not answer["solved"]
    last = _solution_moves(rows)[-1]
    answer = client.post(f"/api/games/{pid}/move", json={"move": last}).json()
    assert answer["solved"] and answer["progress"] == 1.0
    assert answer["state"].split("/")[7] == rows[7].replace("o", "3")
    undone = client.post(f"/api/games/{pid}/undo").json()
    assert not undone["solved"] and undone["can_redo"]
    bad = client.post(f"/api/games/{pid}/move", json={"move": "r1c1=4"})
    assert bad.status_code in (400, 422) and "0 to 3" in bad.text


def test_a_wrong_colour_is_checked_hinted_and_kept_after_a_restart(db_path: Any) -> None:
    rows = known_solution(COLOUR_EXAMPLE)
    with app_client(create_app(db_path)) as client:
        pid = puzzle_id(client, COLOUR_EXAMPLE)
        # r3c9 is orange: black there is a mistake, and the checker names the cell
        assert rows[2][8] == "o"
        client.post(f"/api/games/{pid}/move", json={"move": "r3c9=1 r1c1=2"})
        check = client.get(f"/api/games/{pid}/check").json()
        assert check["wrong"] == [[2, 8]] and check["unknown"] == 223 and not check["solved"]
        hint = client.post(f"/api/games/{pid}/hint").json()
        assert hint["step"]["technique"] == "mistake" and "r3c9" in hint["step"]["sentence"]
        assert hint["move"] == "r3c9=0"
        client.post(f"/api/games/{pid}/move", json={"move": hint["move"]})
        state = client.get(f"/api/games/{pid}").json()["state"]
    with app_client(create_app(db_path)) as client:  # a new server on the same library
        game = client.get(f"/api/games/{pid}").json()
        assert game["state"] == state and game["state"][0] == "." and game["can_undo"]


def test_hints_in_colour_solve_the_puzzle_and_say_their_colours(client: TestClient) -> None:
    pid = puzzle_id(client, COLOUR_EXAMPLE)
    rows = known_solution(COLOUR_EXAMPLE)
    sentences = []
    for _ in range(225):
        hint = client.post(f"/api/games/{pid}/hint").json()
        if hint["step"] is None:
            break
        sentences.append(hint["step"]["sentence"])
        assert hint["step"]["changes"] and hint["move"]
        client.post(f"/api/games/{pid}/move", json={"move": hint["move"]})
    game = client.get(f"/api/games/{pid}").json()
    assert game["solved"] and game["state"] == "/".join(rows).replace("o", "3")
    assert any(" orange" in s for s in sentences) and any(" black" in s for s in sentences)


def test_a_pass_and_solve_as_a_move_in_colour(client: TestClient) -> None:
    pid = puzzle_id(client, COLOUR_EXAMPLE)
    answer = client.post(f"/api/games/{pid}/pass").json()
    assert answer["steps"] and answer["before"] == "/".join(["?" * 15] * 15)
    assert "3" in answer["state"] and "#" in answer["state"] and "." in answer["state"]
    solved = client.post(f"/api/games/{pid}/solve", json={"apply": True}).json()
    assert solved["solved"] and solved["result"]["status"] == "unique"
    assert solved["state"] == "/".join(known_solution(COLOUR_EXAMPLE)).replace("o", "3")
    thumbnail = client.get(f"/api/puzzles/{pid}/thumbnail.svg").text
    assert "#f78900" in thumbnail.lower()  # the game drawn in its colours
