"""The two engines (compiled propagator, lazy loop) agree; the propagator's clauses are
consequences of the rules (the known answer satisfies each of them), and it stops cleanly on
its deadline and budget."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import pencilbox
from pencilbox.core.sat import SatSolver
from pencilbox.core.timing import Deadline, Stats, TimeLimitReached
from pencilbox.genres.dbchoco.check import violations
from pencilbox.genres.dbchoco.encoding import encode, known
from pencilbox.genres.dbchoco.formats import read
from pencilbox.genres.dbchoco.generate import generate
from pencilbox.genres.dbchoco.model import DoubleChoco, Walls
from pencilbox.genres.dbchoco.search import (
    COMPILED,
    BudgetExceeded,
    answers,
    other_answer,
)
from tests.genres.dbchoco._data import files, load

pytestmark = pytest.mark.skipif(COMPILED is None, reason="the C extension is not built")

LOOP_TOO_SLOW = {"semiexp_cspuz_core_03_10x10"}
"""8 s CPU in the lazy loop (see search.py): over the test budget."""


def _answers(puzzle: DoubleChoco, engine: str) -> list[str]:
    return [str(a.to_json()) for a in answers(puzzle, 2, Stats(), engine=engine)]


@pytest.mark.parametrize("path", files(), ids=lambda p: p.stem)
def test_the_compiled_engine_finds_the_known_answers(path: Path) -> None:
    data = load(path)
    puzzle = pencilbox.load(path)
    found = list(answers(puzzle, 2, Stats(), engine="compiled"))
    assert len(found) == (1 if data["solver_status"] == "unique" else 2)
    if len(found) == 1:
        assert found[0] == puzzle.answer
    if path.stem not in LOOP_TOO_SLOW:
        loop = _answers(puzzle, "loop")
        assert len(loop) == len(found)
        if len(found) == 1:  # a unique answer is the same answer; two may be other pairs
            assert loop == [str(found[0].to_json())]


@pytest.mark.parametrize(("size", "seed"), [("6x6", 1), ("6x6", 2), ("8x8", 1)])
def test_the_engines_agree_on_generated_puzzles(size: str, seed: int) -> None:
    puzzle = read(generate(size, seed)["url"])
    compiled = _answers(puzzle, "compiled")
    assert compiled == _answers(puzzle, "loop") and len(compiled) == 1


def _engine(puzzle: DoubleChoco) -> tuple[object, list[int]]:
    assert COMPILED is not None
    with SatSolver() as solver:
        wall = encode(puzzle, solver).wall
    gray = [int(g) for g in puzzle.gray]
    numbers = [known(n) or 0 for n in puzzle.numbers]
    return COMPILED(puzzle.width, puzzle.height, gray, numbers, wall, 2, 0, 0.0), wall


def _truths(path: Path, puzzle: DoubleChoco) -> list[Walls]:
    """The answers no clause may cut off: the known one, or both answers of a puzzle that has
    two (found by the lazy loop, which does not use the propagator under test)."""
    if load(path)["solver_status"] == "unique":
        assert puzzle.answer is not None
        return [puzzle.answer]
    found = list(answers(puzzle, 2, Stats(), engine="loop"))
    assert len(found) == 2 and found[0] != found[1]
    return found


def _signs(puzzle: DoubleChoco, walls: Walls) -> list[int]:
    return [1 if walls.is_wall(e) else -1 for e in range(puzzle.geometry.count)]


@pytest.mark.parametrize("path", files()[:10], ids=lambda p: p.stem)
def test_every_clause_of_the_propagator_holds_for_the_answer(path: Path) -> None:
    """Partial assignments, most of them wrong somewhere: each clause the checks give must be
    true in every real answer (a clause false there would cut that answer off), and a clause
    is only given when the assignment breaks a rule. A puzzle with two answers is tried from
    both, and each clause must keep both."""
    puzzle = pencilbox.load(path)
    truths = [_signs(puzzle, walls) for walls in _truths(path, puzzle)]
    engine, wall = _engine(puzzle)
    rng = random.Random(path.stem)
    given = 0
    for truth in truths:
        for trial in range(300):
            keep = rng.random()
            values = [v if rng.random() < keep else 0 for v in truth]
            for _ in range(trial % 4):  # a few wrong edges
                e = rng.randrange(len(values))
                values[e] = -truth[e]
            found = engine.conflict(values)  # type: ignore[attr-defined]
            if found is None:
                continue
            kind, clause = found
            assert 0 <= kind < 8
            given += 1
            for answer in truths:
                holds = [(lit > 0) == (answer[wall.index(abs(lit))] > 0) for lit in clause]
                assert any(holds), f"the clause {clause} cuts off an answer"
            falsified = [values[wall.index(abs(lit))] == (-1 if lit > 0 else 1) for lit in clause]
            assert all(falsified), "a clause is given only when the assignment breaks it"
        assert engine.conflict(truth) is None  # type: ignore[attr-defined]
    assert given > 0


def test_the_propagator_keeps_the_excluded_answer_out() -> None:
    puzzle = pencilbox.load(next(p for p in files() if p.stem == "robx_pzprjs_01_6x6"))
    assert puzzle.answer is not None
    found = list(answers(puzzle, 2, Stats(), exclude=puzzle.answer, engine="compiled"))
    assert found == [] and other_answer(puzzle, puzzle.answer) is None


def test_the_propagator_stops_on_deadline_and_budget() -> None:
    puzzle = pencilbox.load(next(p for p in files() if p.stem == "semiexp_cspuz_core_03_10x10"))
    with pytest.raises(TimeLimitReached):
        list(answers(puzzle, 2, Stats(), Deadline(0.02), engine="compiled"))
    many = pencilbox.load(next(p for p in files() if p.stem == "asSqr_puzz_sqr_06_11x10"))
    with pytest.raises(BudgetExceeded):
        list(answers(many, 2, Stats(), max_rounds=1, engine="compiled"))


def test_answers_are_checked_and_counted() -> None:
    puzzle = pencilbox.load(
        next(p for p in files() if p.stem == "kevinychen_nikoli-puzzle-solver_02_8x8")
    )
    stats = Stats()
    (answer,) = answers(puzzle, 2, stats, engine="compiled")
    assert violations(puzzle, answer) == [] and isinstance(answer, Walls)
    counts = stats.to_json()
    assert counts["looks"] > 0 and counts["models"] == 1
    with pytest.raises(ValueError, match="unknown engine"):
        list(answers(puzzle, 1, Stats(), engine="magic"))


CTRL_C_CHILD = """
import sys, time
import pencilbox
from pencilbox.core.timing import Stats
from pencilbox.genres.dbchoco.search import answers
puzzle = pencilbox.load(sys.argv[1], genre="dbchoco", format="text")
started = time.perf_counter()
print("searching", flush=True)
try:
    for _ in answers(puzzle, 10**9, Stats(), engine="compiled"):
        pass
except KeyboardInterrupt:
    print(f"interrupted {time.perf_counter() - started:.2f}", flush=True)
"""


def test_ctrl_c_ends_a_compiled_search(tmp_path: Path) -> None:
    """A 12x12 checkerboard without clues has answers beyond counting: the search is still
    going when Ctrl-C comes, and ends at once with KeyboardInterrupt."""
    rows = [" ".join(["#", "."] * 6 if r % 2 == 0 else [".", "#"] * 6) for r in range(12)]
    board = tmp_path / "checkerboard.txt"
    board.write_text("\n".join(rows) + "\n")
    child = subprocess.Popen(
        [sys.executable, "-c", CTRL_C_CHILD, str(board)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "searching"
        time.sleep(1.0)
        child.send_signal(signal.SIGINT)
        out, _ = child.communicate(timeout=300)  # a missed Ctrl-C would search for ever
    finally:
        child.kill()  # never left running (and growing) after a failure
    assert child.returncode == 0 and out.startswith("interrupted"), out
