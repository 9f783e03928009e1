"""The JSON API: every endpoint, with good input, bad input and limits."""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path

import pytest

import pencilbox
from pencilbox.genres import base
from pencilbox.web import create_app, jobs
from pencilbox.web.app import MAX_BODY
from tests.web.conftest import TestClient, app_client, known_solution, moves_of, puzzle_id

SMALL = "1 1,1\n1,1,1\n"  # 3 wide, 2 high: #.# / .#.


# -- pages and meta ---------------------------------------------------------------------------
def test_pages_and_schema(client: TestClient) -> None:
    assert client.get("/api/health").json()["ok"] is True
    assert "text/html" in client.get("/").headers["content-type"]
    assert "Full solve" in client.get("/nonogram").text
    assert client.get("/no-such-page").status_code == 404
    assert client.get("/index").status_code == 404
    assert client.get("/static/nonogram.js").status_code == 200
    schema = client.get("/openapi.json").json()
    assert "/api/games/{puzzle_id}/move" in schema["paths"]
    nonogram = next(g for g in client.get("/api/genres").json() if g["name"] == "nonogram")
    assert nonogram["playable"] and nonogram["page"] == "/nonogram"
    assert "clues" in nonogram["formats"]
    pid = puzzle_id(client, "data148")
    answer = client.get(f"/play/{pid}", follow_redirects=False)
    assert answer.status_code == 307 and answer.headers["location"] == f"/nonogram?id={pid}"


# -- the library --------------------------------------------------------------------------------
def test_bundled_puzzles_with_credit(client: TestClient) -> None:
    rows = client.get("/api/puzzles").json()
    titles = {row["title"] for row in rows}
    assert {"seed-a", "seed-b", "data148", "data000", "data001"} <= titles
    assert all(row["bundled"] and "source" not in row for row in rows)
    jwilk = next(row for row in rows if row["title"] == "data148")
    assert "MIT" in jwilk["credit"] and jwilk["width"] == 8 and jwilk["height"] == 9


def test_import_get_delete(client: TestClient) -> None:
    made = client.post("/api/puzzles", json={"text": SMALL, "title": "tiny"})
    assert made.status_code == 201
    body = made.json()
    assert body["new"] and body["title"] == "tiny" and (body["width"], body["height"]) == (3, 2)
    again = client.post("/api/puzzles", json={"text": SMALL}).json()
    assert again["id"] == body["id"] and not again["new"]
    got = client.get(f"/api/puzzles/{body['id']}").json()
    assert got["puzzle"]["rows"] == [[1, 1], [1]] and got["puzzle"]["cols_text"] == "1,1,1"
    assert client.delete(f"/api/puzzles/{body['id']}").json() == {"deleted": body["id"]}
    assert client.get(f"/api/puzzles/{body['id']}").status_code == 404
    assert client.delete(f"/api/puzzles/{body['id']}").status_code == 404


def test_import_other_formats(client: TestClient) -> None:
    url = "https://puzz.link/p?nonogram/8/9/21i13i51i17i5j3j4j3j3i12h23h22h6i51h6i1i2i"
    made = client.post("/api/puzzles", json={"text": url}).json()
    assert (made["width"], made["height"]) == (8, 9)
    assert client.get(f"/api/games/{made['id']}").status_code == 200
    upload = client.post(
        "/api/puzzles", json={"text": "rows: 1\ncolumns: 1\n", "filename": "one.clues"}
    ).json()
    assert upload["title"] == "one"


@pytest.mark.parametrize(
    ("body", "status", "fragment"),
    [
        ({"text": "1 1,1 x\n1,1,1\n"}, 422, "'x' is not a number"),
        ({"text": "5,1\n1,1,1\n"}, 422, "needs 5 cells"),
        ({"text": "   "}, 422, "empty"),
        ({"text": "<<<>>> what"}, 422, "cannot tell"),
        ({"text": SMALL, "format": "nope"}, 422, "unknown nonogram format"),
        ({"text": SMALL, "genre": "chess"}, 422, "unknown genre"),
        ({"text": 5}, 422, "text"),
        ({}, 422, ""),
        ({"text": "http://127.0.0.1:9/puzzle.non"}, 422, "does not fetch URLs"),
    ],
)
def test_import_bad_input(client: TestClient, body: object, status: int, fragment: str) -> None:
    answer = client.post("/api/puzzles", json=body)
    assert answer.status_code == status
    assert fragment in answer.json()["error"]


def test_errors_carry_positions(client: TestClient) -> None:
    error = client.post("/api/parse", json={"text": "1 1,1 x\n1,1,1\n"}).json()
    assert (error["line"], error["column"]) == (1, 7) and error["kind"] == "FormatError"
    invalid = client.post("/api/parse", json={"text": "5,1\n1,1,1\n"}).json()
    assert invalid["where"] == "row 1" and invalid["kind"] == "InvalidPuzzle"


def test_limits(client: TestClient) -> None:
    wide = ",".join(["1"] * 201)
    answer = client.post("/api/parse", json={"text": f"{wide}\n{wide}\n"})
    assert answer.status_code == 413 and "size limit" in answer.json()["error"]
    huge = client.post(
        "/api/parse",
        content=b'{"text": "' + b"1" * (MAX_BODY + 10) + b'"}',
        headers={"content-type": "application/json"},
    )
    assert huge.status_code == 413
    chunks = iter([b'{"text": "', b"1" * MAX_BODY, b'"}'])  # no content-length: streamed
    streamed = client.post(
        "/api/parse", content=chunks, headers={"content-type": "application/json"}
    )
    assert streamed.status_code == 413 and "larger than" in streamed.json()["error"]
    pid = puzzle_id(client, "data148")
    long_move = client.post(f"/api/games/{pid}/move", json={"move": "r1c1=1 " * 40_000})
    assert long_move.status_code == 422 and "characters long" in long_move.json()["error"]


def test_job_limit(client: TestClient) -> None:
    library = client.app.state.library  # type: ignore[attr-defined]
    library._jobs = threading.BoundedSemaphore(1)
    library._jobs.acquire()
    answer = client.get(f"/api/puzzles/{puzzle_id(client, 'data000')}/solve")
    assert answer.status_code == 429 and "jobs" in answer.json()["error"]
    library._jobs.release()
    assert client.get(f"/api/puzzles/{puzzle_id(client, 'data000')}/solve").status_code == 200


# -- parse, convert, clue validation ------------------------------------------------------------
def test_parse_and_convert(client: TestClient) -> None:
    parsed = client.post("/api/parse", json={"text": SMALL}).json()["puzzle"]
    assert parsed["width"] == 3 and parsed["rows_text"] == "1 1,1"
    converted = client.post("/api/convert", json={"text": SMALL, "to": "non"}).json()
    assert converted["format"] == "non" and "rows" in converted["text"]
    svg = client.post("/api/convert", json={"text": SMALL, "to": "svg"})
    assert svg.headers["content-type"].startswith("image/svg") and "<svg" in svg.text
    png = client.post("/api/convert", json={"text": SMALL, "to": "png"})
    assert png.content.startswith(b"\x89PNG")
    bad = client.post("/api/convert", json={"text": SMALL, "to": "docx"})
    assert bad.status_code == 422


def test_clue_validation(client: TestClient) -> None:
    def check(rows: str, cols: str) -> dict[str, object]:
        answer = client.post("/api/nonogram/clues", json={"rows": rows, "cols": cols})
        assert answer.status_code == 200
        result: dict[str, object] = answer.json()
        return result

    twelve = ",".join(["1"] * 12)
    seven = ",".join(["1"] * 6 + ["5 4 3"] + ["1"] * 5)
    result = check(seven, twelve)
    assert not result["ok"]
    assert result["errors"] == [
        {
            "box": "rows",
            "index": 6,
            "message": "row 7: clue 5 4 3 needs 14 cells, the row has 12",
        }
    ]
    typo = check("1,2 a", "1")
    assert typo["errors"] == [
        {
            "box": "rows",
            "message": "row 2: 'a' is not a number; runs are whole numbers >= 0",
            "column": 5,
        }
    ]
    sums = check("1,1", "1,0")
    assert not sums["ok"] and "fill 2 cells" in str(sums["errors"])
    good = check("1 1,1", "1,1,1")
    assert good["ok"] and good["puzzle"]["width"] == 3  # type: ignore[index]
    too_many = check(",".join(["0"] * 201), "0")
    assert not too_many["ok"]


# -- pictures and exports -----------------------------------------------------------------------
def test_thumbnail_and_exports(client: TestClient) -> None:
    pid = puzzle_id(client, "data148")
    client.post(f"/api/games/{pid}/move", json={"move": "r1c2=1"})
    thumb = client.get(f"/api/puzzles/{pid}/thumbnail.svg")
    assert thumb.headers["content-type"].startswith("image/svg") and 'fill="#222"' in thumb.text
    assert client.get(f"/api/puzzles/{pid}/export?format=png").content.startswith(b"\x89PNG")
    solved = client.get(f"/api/puzzles/{pid}/export?format=svg&state=solution").text
    assert solved.count('fill="#222"') == sum(r.count("#") for r in known_solution("data148"))
    assert "3" in client.get(f"/api/puzzles/{pid}/export?format=clues").text
    assert client.get(f"/api/puzzles/{pid}/export?format=doc").status_code == 422
    assert client.get(f"/api/puzzles/{pid}/export?state=odd").status_code == 422
    assert client.get("/api/puzzles/9999/export").status_code == 404


@pytest.mark.parametrize(
    ("title", "notation"), [("qqwing-easy", "line"), ("robx_pzprjs_01_6x6", "json")]
)
def test_png_export_for_every_genre(client: TestClient, title: str, notation: str) -> None:
    """PNG comes from the genre's own `render_png`, for each state the SVG export offers;
    the solved picture differs from the empty one (digits or walls were drawn)."""
    pid = puzzle_id(client, title)
    pictures = {}
    for state in ("empty", "game", "solution"):
        answer = client.get(f"/api/puzzles/{pid}/export?format=png&state={state}")
        assert answer.status_code == 200, answer.text
        assert answer.headers["content-type"] == "image/png"
        assert answer.content.startswith(b"\x89PNG")
        pictures[state] = answer.content
    assert pictures["game"] == pictures["empty"]  # a fresh game: nothing entered yet
    assert pictures["solution"] != pictures["empty"]
    text = client.get(f"/api/puzzles/{pid}/export?format={notation}").text
    converted = client.post("/api/convert", json={"text": text, "to": "png"})
    assert converted.headers["content-type"] == "image/png", converted.text


# -- solving ------------------------------------------------------------------------------------
def test_solve_grade_steps(client: TestClient) -> None:
    pid = puzzle_id(client, "data148")
    verdict = client.get(f"/api/puzzles/{pid}/solve").json()
    assert verdict["status"] == "unique" and verdict["solutions"] == [known_solution("data148")]
    graded = client.get(f"/api/puzzles/{pid}/grade").json()
    assert graded == {"status": "unique", "grade": "line", "level": "line", "hardest": "line"}
    listed = next(r for r in client.get("/api/puzzles").json() if r["id"] == pid)
    assert listed["grade"] == "line" and listed["status"] == "unique"
    trace = client.get(f"/api/puzzles/{pid}/steps").json()
    assert trace["count"] == len(trace["steps"]) > 0 and trace["complete"]
    assert {"technique", "changes", "reasons", "sentence"} <= set(trace["steps"][0])
    two = client.get(f"/api/puzzles/{puzzle_id(client, 'data001')}/solve").json()
    assert two["status"] == "multiple" and len(two["solutions"]) == 2 and two["differences"]
    assert client.get("/api/puzzles/4242/solve").status_code == 404
    assert client.get(f"/api/puzzles/{pid}/solve?time_limit=abc").status_code == 422


# -- games --------------------------------------------------------------------------------------
def test_moves_undo_redo_reset(client: TestClient) -> None:
    pid = puzzle_id(client, "data148")
    game = client.get(f"/api/games/{pid}").json()
    assert game["state"] == "/".join(["?" * 8] * 9) and not game["can_undo"]
    game = client.post(f"/api/games/{pid}/move", json={"move": "r1c3=1 r1c2=1"}).json()
    assert moves_of(client, pid) == ["r1c2=1 r1c3=1"] and game["state"].startswith("?##?")
    assert game["history"] == 1 and game["position"] == 1
    game = client.post(f"/api/games/{pid}/move", json={"move": "r1c1=2"}).json()
    assert game["state"].startswith(".##?") and game["position"] == 2
    game = client.post(f"/api/games/{pid}/undo").json()
    assert game["state"].startswith("?##?") and game["can_redo"]
    game = client.post(f"/api/games/{pid}/redo").json()
    assert game["state"].startswith(".##?") and not game["can_redo"]
    assert client.post(f"/api/games/{pid}/redo").json()["changed"] is False
    client.post(f"/api/games/{pid}/undo")
    game = client.post(f"/api/games/{pid}/move", json={"move": "r9c8=1"}).json()
    assert moves_of(client, pid) == ["r1c2=1 r1c3=1", "r9c8=1"]  # the redo tail is gone
    game = client.post(f"/api/games/{pid}/move", json={"move": "clear"}).json()
    assert set(game["state"]) == {"?", "/"} and game["can_undo"]
    game = client.post(f"/api/games/{pid}/reset").json()
    assert game["history"] == 0 and game["position"] == 0 and moves_of(client, pid) == []
    same = client.post(f"/api/games/{pid}/move", json={"move": "clear"}).json()
    assert same["changed"] is False and same["history"] == 0


@pytest.mark.parametrize(
    ("move", "fragment"),
    [
        ("", "empty move"),
        ("fill everything", "cannot read 'fill'"),
        ("r0c1=1", "the grid has 9 rows"),
        ("r10c1=1", "the grid has 9 rows"),
        ("r1c1=7", "values go from 0 to 2"),
        ("grid ###", "needs 9 rows of 8"),
        ("grid " + "/".join(["abcdefgh"] * 9), "'a' is not one of"),
        ("grid a b", "one word"),
    ],
)
def test_bad_moves(client: TestClient, move: str, fragment: str) -> None:
    pid = puzzle_id(client, "data148")
    answer = client.post(f"/api/games/{pid}/move", json={"move": move})
    assert answer.status_code == 422
    assert fragment in answer.json()["error"]
    assert moves_of(client, pid) == []


def test_missing_game_and_body(client: TestClient) -> None:
    assert client.get("/api/games/777").status_code == 404
    assert client.post("/api/games/777/move", json={"move": "clear"}).status_code == 404
    pid = puzzle_id(client, "data148")
    assert client.post(f"/api/games/{pid}/move", json={}).status_code == 422
    assert client.post(f"/api/games/{pid}/move", content=b"{not json").status_code == 422
    assert client.get("/api/games/abc").status_code == 422


def test_hint_pass_check_solve(client: TestClient) -> None:
    pid = puzzle_id(client, "data148")
    hint = client.post(f"/api/games/{pid}/hint").json()
    assert hint["step"]["technique"] == "line"
    assert hint["step"]["sentence"].startswith("Row 3 (3 2)")
    assert hint["move"] == "r3c3=1"
    client.post(f"/api/games/{pid}/move", json={"move": hint["move"]})
    passed = client.post(f"/api/games/{pid}/pass").json()
    assert passed["changed"] and passed["steps"] and passed["before"] != passed["state"]
    check = client.get(f"/api/games/{pid}/check").json()
    assert not check["solved"] and check["wrong"] == [] and check["unknown"] > 0
    client.post(f"/api/games/{pid}/move", json={"move": "r1c1=1"})  # wrong: r1c1 is empty
    check = client.get(f"/api/games/{pid}/check").json()
    assert check["wrong"] == [[0, 0]]
    mistake = client.post(f"/api/games/{pid}/hint").json()["step"]
    assert mistake["technique"] == "mistake" and mistake["changes"] == [[0, 0, 0]]
    solved = client.post(f"/api/games/{pid}/solve", json={"apply": True}).json()
    assert solved["result"]["status"] == "unique"
    assert solved["state"].split("/") == known_solution("data148")
    assert solved["solved"] and solved["progress"] == 1.0
    check = client.get(f"/api/games/{pid}/check").json()
    assert check["solved"] and check["violations"] == []
    assert client.post(f"/api/games/{pid}/hint").json()["step"] is None
    assert client.post(f"/api/games/{pid}/undo").json()["state"] != solved["state"]
    listed = next(r for r in client.get("/api/puzzles").json() if r["id"] == pid)
    assert 0 < listed["progress"] < 1 and not listed["solved"]


def test_check_names_broken_lines(client: TestClient) -> None:
    made = client.post("/api/puzzles", json={"text": SMALL}).json()
    client.post(f"/api/games/{made['id']}/move", json={"move": "grid ###/.#."})
    check = client.get(f"/api/games/{made['id']}/check").json()
    assert not check["solved"]
    assert "row 1: has 3, the clue is 1 1" in check["violations"]
    assert {"kind": "row", "index": 0} in check["lines"]


def test_games_survive_a_new_app(db_path: Path) -> None:
    with app_client(create_app(db_path)) as first:
        pid = puzzle_id(first, "data000")
        first.post(f"/api/games/{pid}/move", json={"move": "r2c2=1"})
        first.post(f"/api/games/{pid}/move", json={"move": "r3c3=2"})
        first.post(f"/api/games/{pid}/undo")
        first.delete(f"/api/puzzles/{puzzle_id(first, 'seed-b')}")
    with app_client(create_app(db_path)) as second:
        game = second.get(f"/api/games/{pid}").json()
        assert moves_of(second, pid) == ["r2c2=1", "r3c3=2"] and game["position"] == 1
        assert game["can_redo"]
        titles = {row["title"] for row in second.get("/api/puzzles").json()}
        assert "seed-b" not in titles  # a deleted example is not seeded again


def test_generate(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    # Every real genre has a generator now: a copy without one stands for a genre that has not.
    plain = dataclasses.replace(base.get("nonogram"), name="plain", aliases=(), generate=None)
    monkeypatch.setitem(base._REGISTRY, "plain", plain)
    missing = client.post("/api/generate", json={"genre": "plain"})
    assert missing.status_code == 422 and "no generator" in missing.json()["error"]
    job = client.post("/api/jobs", json={"kind": "generate", "genre": "plain"})
    assert job.status_code == 422 and "no generator" in job.json()["error"]
    assert client.post("/api/generate", json={"genre": "nope"}).status_code == 422
    assert client.post("/api/generate", json={}).status_code == 422

    def fake(**options: object) -> dict[str, object]:
        return {"puzzle": pencilbox.load(SMALL), "time_s": 0.0, "seed": options.get("seed")}

    # A genre with a generator, registered in this process only (so run in this process too).
    genre = dataclasses.replace(base.get("nonogram"), name="fakegen", aliases=(), generate=fake)
    monkeypatch.setitem(base._REGISTRY, "fakegen", genre)
    monkeypatch.setattr(
        jobs,
        "generate",
        lambda name, options, deadline, cancel=None: jobs._generate(name, options, 1),
    )
    listed = next(g for g in client.get("/api/genres").json() if g["name"] == "fakegen")
    assert listed["generator"]
    made = client.post("/api/generate", json={"genre": "fakegen", "options": {"seed": 7}})
    assert made.status_code == 201
    body = made.json()
    assert body["title"] == "generated nonogram (seed 7)" and body["generator"]["seed"] == 7
    assert client.get(f"/api/games/{body['id']}").json()["state"] == "???/???"


def test_generate_a_nonogram(client: TestClient) -> None:
    options = {"size": "10x8", "seed": 5, "grade": "line", "density": 0.4}
    made = client.post("/api/generate", json={"genre": "nonogram", "options": options})
    assert made.status_code == 201, made.text
    body = made.json()
    assert body["genre"] == "nonogram" and (body["width"], body["height"]) == (10, 8)
    assert body["generator"]["grade"] == "line" and body["generator"]["size"] == "10x8"
    assert body["title"] == f"generated nonogram (seed {body['generator']['seed']})"
    pid = body["id"]
    # The puzzle opens as a game, and the library's copy is the one generated.
    assert client.get(f"/api/games/{pid}").json()["state"] == "/".join(["?" * 10] * 8)
    stored = pencilbox.load(body["generator"]["text"])
    puzzle = client.get(f"/api/puzzles/{pid}").json()["puzzle"]
    assert puzzle["rows"] == [list(c) for c in stored.rows]
    assert client.get(f"/api/puzzles/{pid}/solve").json()["status"] == "unique"
    bad = client.post("/api/generate", json={"genre": "nonogram", "options": {"density": 2}})
    assert bad.status_code == 422 and "--density" in bad.json()["error"]


SUDOKU = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"


@pytest.mark.parametrize("genre", ["sudoku", "dbchoco"])
def test_other_genres_through_the_same_api(
    client: TestClient, genre: str, puzzle_data: Path
) -> None:
    """The library, solve, steps, grade and generate endpoints work for every registered genre;
    games need the genre's session rules (every registered genre has them now)."""
    if genre not in {g["name"] for g in client.get("/api/genres").json()}:
        pytest.skip(f"the {genre} genre is not registered")
    if genre == "sudoku":
        generated = client.post("/api/generate", json={"genre": genre, "options": {"seed": 3}})
        assert generated.status_code == 201 and generated.json()["genre"] == genre
        made = client.post("/api/puzzles", json={"text": SUDOKU})
    else:
        text = (puzzle_data / "dbchoco" / "robx_pzprjs_01_6x6.json").read_text()
        made = client.post("/api/puzzles", json={"text": text})
    assert made.status_code == 201, made.text
    body = made.json()
    assert body["genre"] == genre and body["width"]
    pid = body["id"]
    assert client.get(f"/api/puzzles/{pid}").json()["puzzle"]["genre"] == genre
    assert client.get(f"/api/puzzles/{pid}/solve").json()["status"] == "unique"
    assert client.get(f"/api/puzzles/{pid}/steps").json()["count"] > 0
    assert "<svg" in client.get(f"/api/puzzles/{pid}/thumbnail.svg").text
    assert client.get(f"/api/games/{pid}").status_code == 200
    png = client.get(f"/api/puzzles/{pid}/export?format=png")
    assert png.status_code == 200 and png.content.startswith(b"\x89PNG")


def test_engine_time_limits_are_answers(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pencilbox.core.timing import TimeLimitReached

    def too_slow(*args: object) -> object:
        raise TimeLimitReached

    monkeypatch.setattr(jobs, "trace", too_slow)
    monkeypatch.setattr(jobs, "solve", too_slow)
    pid = puzzle_id(client, "data000")
    answer = client.get(f"/api/puzzles/{pid}/steps?time_limit=0.5")
    assert answer.status_code == 504 and "0.5 s" in answer.json()["error"]
    assert client.get(f"/api/puzzles/{pid}/solve").json()["status"] == "timeout"


def test_grade_adds_the_logical_grade(client: TestClient) -> None:
    """Sudoku: the HoDoKu-style level, score and hardest technique beside the solver's grade."""
    expert = client.get(f"/api/puzzles/{puzzle_id(client, 'qqwing-expert')}/grade").json()
    assert expert["status"] == "unique" and expert["grade"] in ("singles", "search")
    assert expert["level"] in ("easy", "medium", "hard", "unfair", "extreme")
    assert isinstance(expert["score"], int) and expert["score"] > 0 and expert["hardest"]
    easy = client.get(f"/api/puzzles/{puzzle_id(client, 'qqwing-easy')}/grade").json()
    assert easy["score"] < expert["score"]
    choco = client.get(f"/api/puzzles/{puzzle_id(client, 'robx_pzprjs_01_6x6')}/grade").json()
    assert choco["status"] == "unique" and "score" not in choco  # the genre has no score
    assert client.get("/api/puzzles/4242/grade").status_code == 404


def test_a_logical_grade_past_its_time_limit_is_left_out(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pencilbox.core.timing import TimeLimitReached

    def too_slow(*args: object) -> object:
        raise TimeLimitReached

    monkeypatch.setattr(jobs, "grade_report", too_slow)
    graded = client.get(f"/api/puzzles/{puzzle_id(client, 'qqwing-expert')}/grade").json()
    assert graded["status"] == "unique" and "level" not in graded


def test_genres_carry_their_generator_options(client: TestClient) -> None:
    listed = {g["name"]: g for g in client.get("/api/genres").json()}
    assert {o["name"] for o in listed["sudoku"]["options"]} >= {"size", "symmetry", "seed"}
    symmetry = next(o for o in listed["sudoku"]["options"] if o["name"] == "symmetry")
    assert symmetry["kind"] == "choice" and "mirror" in symmetry["choices"]
