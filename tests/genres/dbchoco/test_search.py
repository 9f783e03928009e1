"""The two search paths (lazy loop, external propagator) agree, and the propagator stops
cleanly on its deadline and budget."""

from __future__ import annotations

from pathlib import Path

import pytest

import pencilbox
from pencilbox.core.timing import Deadline, Stats, TimeLimitReached
from pencilbox.genres.dbchoco.check import violations
from pencilbox.genres.dbchoco.formats import read
from pencilbox.genres.dbchoco.generate import generate
from pencilbox.genres.dbchoco.model import DoubleChoco
from pencilbox.genres.dbchoco.search import BudgetExceeded, answers, other_answer
from tests.genres.dbchoco._data import files, load

PROPAGATOR_TOO_SLOW = {"semiexp_cspuz_core_03_10x10", "asSqr_puzz_sqr_02_16x16"}
"""14 s and 7 s CPU with the propagator (see search.py): over the test budget."""


def _both(puzzle: DoubleChoco) -> tuple[list[str], list[str]]:
    """The answers of both paths, as comparable strings."""
    loop = [str(a.to_json()) for a in answers(puzzle, 2, Stats())]
    engine = [str(a.to_json()) for a in answers(puzzle, 2, Stats(), propagator=True)]
    return loop, engine


@pytest.mark.parametrize(
    "path",
    [p for p in files() if p.stem not in PROPAGATOR_TOO_SLOW],
    ids=lambda p: p.stem,
)
def test_propagator_agrees_with_the_loop_on_shared_puzzles(path: Path) -> None:
    data = load(path)
    puzzle = pencilbox.load(path)
    loop, engine = _both(puzzle)
    assert len(engine) == len(loop) == (1 if data["solver_status"] == "unique" else 2)
    if len(loop) == 1:  # a unique answer is the same answer; two answers may be other pairs
        assert engine == loop


@pytest.mark.parametrize(("size", "seed"), [("6x6", 1), ("6x6", 2), ("8x8", 1)])
def test_propagator_agrees_with_the_loop_on_generated_puzzles(size: str, seed: int) -> None:
    puzzle = read(generate(size, seed)["url"])
    loop, engine = _both(puzzle)
    assert engine == loop and len(loop) == 1
    for answer in answers(puzzle, 1, Stats(), propagator=True):
        assert violations(puzzle, answer) == []


def test_propagator_keeps_the_excluded_answer_out() -> None:
    path = next(p for p in files() if p.stem == "robx_pzprjs_01_6x6")
    puzzle = pencilbox.load(path)
    assert puzzle.answer is not None
    found = list(answers(puzzle, 2, Stats(), exclude=puzzle.answer, propagator=True))
    assert found == [] and other_answer(puzzle, puzzle.answer) is None


def test_propagator_stops_on_deadline_and_budget() -> None:
    path = next(p for p in files() if p.stem == "semiexp_cspuz_core_02_8x8")
    puzzle = pencilbox.load(path)
    with pytest.raises(TimeLimitReached):
        list(answers(puzzle, 2, Stats(), Deadline(0.05), propagator=True))
    with pytest.raises(BudgetExceeded):
        list(answers(puzzle, 2, Stats(), max_rounds=1, propagator=True))
