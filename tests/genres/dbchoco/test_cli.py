"""The command line with Double Choco: solve --jsonl, check --answer, generate."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pencilbox.genres.dbchoco.model import Walls
from tests.genres.dbchoco._data import DATA, load

SMALL = DATA / "robx_pzprjs_01_6x6.json"


def pencilbox(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pencilbox.cli", *args], capture_output=True, text=True, timeout=120
    )


def test_solve_jsonl_file_and_url() -> None:
    data = load(SMALL)
    run = pencilbox("solve", str(SMALL), data["url"], "--jsonl")
    assert run.returncode == 0, run.stderr
    records = [json.loads(line) for line in run.stdout.splitlines()]
    expected = {key: data["answer"][key] for key in ("vertical", "horizontal")}
    assert [r["status"] for r in records] == ["unique", "unique"]
    assert all(r["solutions"] == [expected] for r in records)


def test_solve_grades_only_when_asked() -> None:
    """Grading by logic costs many times the search: `solve` leaves it out (grade null),
    `solve --grade`, `check` and `grade` give it."""
    tenth = DATA / "semiexp_cspuz_core_03_10x10.json"
    plain = pencilbox("solve", str(tenth), "--jsonl")
    graded = pencilbox("solve", str(tenth), "--jsonl", "--grade")
    assert plain.returncode == graded.returncode == 0, plain.stderr + graded.stderr
    fast, slow = json.loads(plain.stdout), json.loads(graded.stdout)
    assert list(fast) == list(slow)  # the same fields
    assert fast["status"] == slow["status"] == "unique"
    assert fast["solutions"] == slow["solutions"]
    assert fast["grade"] is None and "logic" not in fast["stats"]["time_s"]
    assert "logic" in slow["stats"]["time_s"]
    assert slow["grade"] in ("local", "placement", "contradiction", "search")
    checked = pencilbox("check", str(tenth))
    assert checked.stdout.strip() == f"unique (grade: {slow['grade']})"
    assert "grade:" not in pencilbox("solve", str(tenth)).stdout.splitlines()[0]


def test_solve_prints_the_walls() -> None:
    run = pencilbox("solve", str(SMALL))
    assert run.returncode == 0, run.stderr
    assert "unique solution" in run.stdout and "|" in run.stdout


def test_check_answer_accepts_the_shared_answer() -> None:
    run = pencilbox("check", str(SMALL), "--answer", str(SMALL))
    assert run.returncode == 0, run.stderr
    assert "correct" in run.stdout


def test_check_answer_prints_every_violation(tmp_path: Path) -> None:
    data = load(SMALL)
    wrong = dict(data)
    wrong["answer"] = {
        "vertical": ["0" * 5] * 6,
        "horizontal": ["0" * 6] * 5,
    }
    answer = tmp_path / "wrong.json"
    answer.write_text(json.dumps(wrong))
    run = pencilbox("check", data["url"], "--answer", str(answer))
    assert run.returncode == 1
    assert "three or more" in run.stdout
    pzprv3 = tmp_path / "answer.pzpr"
    pzprv3.write_text(data["pzprv3_answer_file"])
    run = pencilbox("check", str(SMALL), "--answer", str(pzprv3))
    assert run.returncode == 0 and "correct" in run.stdout


def test_generate_json() -> None:
    run = pencilbox("generate", "dbchoco", "--size", "4x4", "--seed", "3", "--json")
    assert run.returncode == 0, run.stderr
    made = json.loads(run.stdout)
    assert made["url"].startswith("https://puzz.link/p?dbchoco/4/4/")
    assert set(made["answer"]) == {"vertical", "horizontal"}
    assert {"clues", "grade", "time_s"} <= set(made)


def test_hint_at_three_levels() -> None:
    answers = [pencilbox("hint", str(SMALL), "--level", level) for level in ("1", "2", "3")]
    assert all(run.returncode == 0 and not run.stderr for run in answers)
    technique, where, full = (run.stdout.strip() for run in answers)
    assert technique == "Use numbers logic."
    assert where.startswith("Look at r1c2")
    assert "different numbers cannot share a block" in full


def test_grade_jsonl_record() -> None:
    run = pencilbox("grade", str(SMALL), "--jsonl")
    assert run.returncode == 0, run.stderr
    record = json.loads(run.stdout)
    assert record["line"] == 1
    assert record["level"] == record["hardest"] == "placement"
    assert record["solved_by_logic"] is True and record["score"] is None


def test_explain_finishes_the_shared_16x16_by_logic() -> None:
    """The shared 16x16 (asSqr/puzz_sqr, MIT OR Apache-2.0) needs 48 trials, ~20 s of them:
    explain used to stop them after 10 s in all and end in a last-resort step; now it waits
    only for trials that find nothing, so logic explains it to the end."""
    big = DATA / "asSqr_puzz_sqr_02_16x16.json"
    run = pencilbox("explain", str(big), "--json")
    assert run.returncode == 0, run.stderr
    techniques = [step["technique"] for step in json.loads(run.stdout)]
    assert "backbone" not in techniques
    assert techniques.count("contradiction") >= 40
    edges = {edge for step in json.loads(run.stdout) for edge, _ in step["extra"]["edges"]}
    assert len(edges) == 16 * 15 * 2  # every inner edge decided by a logic step


def test_hint_on_a_real_10x10_names_a_logic_step() -> None:
    tenth = DATA / "semiexp_cspuz_core_03_10x10.json"
    run = pencilbox("hint", str(tenth), "--level", "3")
    assert run.returncode == 0 and not run.stderr, run.stderr
    assert run.stdout.strip() and "last resort" not in run.stdout
    assert not run.stdout.startswith("No logical step applies")


def _no_trace(*args: object, **kwargs: object) -> None:
    raise AssertionError("the hint traced the puzzle from the empty grid")


def test_a_hint_midway_is_a_trial_from_the_players_edges(monkeypatch: pytest.MonkeyPatch) -> None:
    """On the shared 16x16, where the local and placement rules stop (the board as the
    trace has it just before its first trial), a hint is a trial from those edges, sound
    against the answer, not the trace's next step (it traces from the empty grid: ~20 s)."""
    import pencilbox as library
    from pencilbox.core.grid import Grid
    from pencilbox.genres.dbchoco.logic import deduce
    from pencilbox.genres.dbchoco.model import DoubleChoco
    from pencilbox.genres.dbchoco.play import DbchocoPlay

    big = library.load(str(DATA / "asSqr_puzz_sqr_02_16x16.json"))
    assert isinstance(big, DoubleChoco) and big.answer is not None
    stuck = deduce(big, probes=False).edges  # where the rules stop, as the trace has it
    play = DbchocoPlay()
    grid = Grid(len(stuck), 1, tuple(play.symbols.index(value) for value in stuck))
    assert play.walls(big, grid).edges.count("?") > 0
    monkeypatch.setattr(DoubleChoco, "steps", _no_trace)  # ~20 s from the empty grid
    hint = play.hint(big, grid, big.answer)
    assert hint is not None and hint.technique == "contradiction"
    for edge, value in hint.extra["edges"]:
        assert big.answer.edges[edge] == value


def test_generate_keeps_blocks_within_max_block() -> None:
    run = pencilbox(
        "generate", "dbchoco", "--size", "6x6", "--seed", "3", "--max-block", "4", "--json"
    )
    assert run.returncode == 0, run.stderr
    made = json.loads(run.stdout)
    answer = Walls.from_strings(6, 6, made["answer"]["vertical"], made["answer"]["horizontal"])
    sizes = [len(block) for block in answer.blocks()]
    assert max(sizes) <= 4 and sum(sizes) == 36
    solved = json.loads(pencilbox("solve", made["url"], "--jsonl").stdout)
    assert solved["status"] == "unique"
    assert solved["solutions"] == [made["answer"]]


def test_generate_refuses_a_max_block_below_two() -> None:
    run = pencilbox("generate", "dbchoco", "--size", "6x6", "--max-block", "1")
    assert run.returncode == 2
    assert "--max-block must be at least 2, got 1" in run.stderr
    assert "Traceback" not in run.stderr
