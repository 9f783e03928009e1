"""The Double Choco game through the generic game endpoints (genres/dbchoco/play.py)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from tests.web.conftest import moves_of, puzzle_id

TITLE = "robx_pzprjs_01_6x6"
FILE = Path(__file__).resolve().parents[2] / "examples" / f"{TITLE}.json"


def _answer() -> dict[str, list[str]]:
    answer: dict[str, list[str]] = json.loads(FILE.read_text(encoding="utf-8"))["answer"]
    return {"vertical": answer["vertical"], "horizontal": answer["horizontal"]}


def _edges(answer: dict[str, list[str]]) -> str:
    return "".join(answer["vertical"]) + "".join(answer["horizontal"])


def test_bundled_dbchoco_opens_as_a_game(client: TestClient) -> None:
    pid = puzzle_id(client, TITLE)
    row = client.get(f"/api/puzzles/{pid}").json()
    assert row["genre"] == "dbchoco" and "pzprjs" in row["credit"] and "MIT" in row["credit"]
    puzzle = row["puzzle"]
    assert puzzle["width"] == 6 and puzzle["colors"][0] == "ggggww"
    assert puzzle["numbers"][0][1] == 4 and puzzle["edges"] == 60
    assert puzzle["url"].startswith("https://puzz.link/p?dbchoco/6/6/")
    game = client.get(f"/api/games/{pid}").json()
    assert game["state"] == "?" * 60 and game["progress"] == 0 and not game["solved"]


def test_wall_moves_undo_redo(client: TestClient) -> None:
    pid = puzzle_id(client, TITLE)
    played = client.post(f"/api/games/{pid}/move", json={"move": "v1,2=1"}).json()
    # v1,2 is the edge right of r1c2: edge 1 of the vertical ones
    assert played["changed"] and played["state"][1] == "1" and moves_of(client, pid) == ["v1,2=1"]
    below = client.post(f"/api/games/{pid}/move", json={"move": "h1,3=1 h1,4=2"}).json()
    # h1,3 is the edge below r1c3: horizontal edges start after the 6 * 5 vertical ones
    assert below["state"][30 + 2] == "1" and below["state"][30 + 3] == "0"
    erased = client.post(f"/api/games/{pid}/move", json={"move": "v1,2=0"}).json()
    assert erased["state"][1] == "?"
    assert client.post(f"/api/games/{pid}/undo").json()["state"][1] == "1"
    assert client.post(f"/api/games/{pid}/redo").json()["state"][1] == "?"
    assert client.post(f"/api/games/{pid}/reset").json()["state"] == "?" * 60
    # the saved game comes back as it was
    client.post(f"/api/games/{pid}/move", json={"move": "v2,2=1"})
    assert client.get(f"/api/games/{pid}").json()["state"][5 + 1] == "1"


def test_bad_moves_are_refused(client: TestClient) -> None:
    pid = puzzle_id(client, TITLE)
    for move, words in (
        ("v1,6=1", "no inner edge right of r1c6"),
        ("h6,1=1", "no inner edge below r6c1"),
        ("v0,1=1", "no inner edge"),
        ("r1c1=1", "cannot read"),
        ("v1,1=3", "cannot read"),
        ("grid 111", "60 edge characters"),
        ("", "empty"),
    ):
        answer = client.post(f"/api/games/{pid}/move", json={"move": move})
        assert answer.status_code == 422, move
        assert words in answer.json()["error"], (move, answer.json())
    assert moves_of(client, pid) == []


def test_check_hint_and_solve(client: TestClient) -> None:
    pid = puzzle_id(client, TITLE)
    checked = client.get(f"/api/games/{pid}/check").json()
    assert not checked["solved"] and checked["violations"]
    assert all(v["message"] and v["cells"] for v in checked["blocks"])
    hint = client.post(f"/api/games/{pid}/hint").json()
    assert hint["step"]["sentence"] and hint["move"]
    played = client.post(f"/api/games/{pid}/move", json={"move": hint["move"]}).json()
    assert played["changed"]
    # a wrong wall is named by the next hint
    answer = _edges(_answer())
    wrong = next(i for i, ch in enumerate(answer[:5]) if ch == "0")
    client.post(f"/api/games/{pid}/move", json={"move": f"v1,{wrong + 1}=1"})
    mistake = client.post(f"/api/games/{pid}/hint").json()["step"]
    assert mistake["technique"] == "mistake" and "wrong" in mistake["sentence"]
    solved = client.post(f"/api/games/{pid}/solve", json={}).json()
    assert solved["result"]["status"] == "unique"
    assert solved["result"]["solutions"][0] == _answer()
    assert solved["state"] == answer and solved["solved"] and solved["progress"] == 1
    after = client.get(f"/api/games/{pid}/check").json()
    assert after["solved"] and after["violations"] == [] and after["wrong"] == []
    assert client.post(f"/api/games/{pid}/hint").json()["step"] is None
    assert "<svg" in client.get(f"/api/puzzles/{pid}/thumbnail.svg").text
    assert client.post(f"/api/games/{pid}/undo").json()["state"] != answer


def test_url_import_and_generate(client: TestClient) -> None:
    url = json.loads(FILE.read_text(encoding="utf-8"))["url"]
    made = client.post("/api/puzzles", json={"text": url, "genre": "dbchoco"})
    assert made.status_code == 201, made.text
    pid = made.json()["id"]
    assert client.get(f"/api/puzzles/{pid}").json()["puzzle"]["url"] == url
    assert client.get(f"/api/games/{pid}").json()["state"] == "?" * 60
    generated = client.post(
        "/api/generate", json={"genre": "dbchoco", "options": {"width": 4, "height": 4, "seed": 2}}
    )
    assert generated.status_code == 201, generated.text
    gid = generated.json()["id"]
    puzzle = client.get(f"/api/puzzles/{gid}").json()["puzzle"]
    assert puzzle["width"] == 4 and puzzle["height"] == 4 and puzzle["edges"] == 24
    solved = client.post(f"/api/games/{gid}/solve", json={}).json()
    assert solved["solved"] and client.get(f"/api/games/{gid}/check").json()["solved"]
