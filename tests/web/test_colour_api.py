"""Colour nonograms through the web API: imported, solved, graded, explained step by step (the
same trace the animation streams), drawn in their colours as thumbnails and exports."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.conftest import TEST_DATA

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
