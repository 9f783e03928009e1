"""The one engine: the compiled path (_engine.c) and the pure-Python fallback give the same
verdicts, grades, solutions, probes and explanations, on black-and-white and colour puzzles.
The Python path is the oracle: it is the engine as it was before the C one, step for step."""

from __future__ import annotations

import random

import pytest

import pencilbox
from pencilbox.core.grid import Grid
from pencilbox.genres.nonogram import line, logic
from pencilbox.genres.nonogram.colour.model import NAMED_HEX, Colour, clues_of, make_colour_puzzle
from pencilbox.genres.nonogram.model import EMPTY, FILLED, UNKNOWN, make_puzzle
from pencilbox.genres.nonogram.model import clues_of as plain_clues
from tests.conftest import TEST_DATA

NONOGRAMS = TEST_DATA / "nonogram"
HARD = (
    "survey/webpbn-00023.json",
    "survey/webpbn-00027.json",
    "seed/seed-a.json",
    "seed/seed-b.json",
)
"""Puzzles that need probes or the search (and one with two solutions)."""

pytestmark = pytest.mark.skipif(
    line.KERNEL is None, reason="built without C: only the Python path runs"
)


def random_plain(rnd: random.Random) -> object:
    width, height = rnd.randint(3, 12), rnd.randint(3, 12)
    cells = tuple(rnd.choice((FILLED, EMPTY, EMPTY)) for _ in range(width * height))
    rows, cols = plain_clues(Grid(width, height, cells))
    return make_puzzle(rows, cols)


def random_colour(rnd: random.Random) -> object:
    palette = [Colour(name, name[0], NAMED_HEX[name]) for name in ("red", "blue", "green")]
    width, height = rnd.randint(3, 9), rnd.randint(3, 9)
    masks = tuple(1 << rnd.choice((0, 0, 1, 2, 3)) for _ in range(width * height))
    rows, cols = clues_of(Grid(width, height, masks))

    def named(clue: tuple[tuple[int, int], ...]) -> list[tuple[int, str]]:
        return [(n, palette[c - 1].name) for n, c in clue]

    return make_colour_puzzle(palette, [named(c) for c in rows], [named(c) for c in cols])


def puzzles(seed: int) -> list[object]:
    rnd = random.Random(seed)
    found = [pencilbox.load(NONOGRAMS / name) for name in HARD]
    found += [random_plain(rnd) for _ in range(25)] + [random_colour(rnd) for _ in range(25)]
    return found


def outcome(puzzle: object) -> tuple[object, ...]:
    """What a user sees of a puzzle: verdict, grade, solutions, every step, a hint and the
    logic grid with probes."""
    result = puzzle.solve()  # type: ignore[attr-defined]
    steps = [step.to_json() for step in puzzle.steps()]  # type: ignore[attr-defined]
    probed = puzzle.logic_grid(probes=True)  # type: ignore[attr-defined]
    solutions: list[object] = [grid.cells for grid in result.solutions]
    if result.status == "multiple":
        # Which two solutions a search meets first is its own: the compiled one carries the
        # line solver inside (search.enumerate_with_lines). Both must be two right grids.
        assert len(set(solutions)) == 2
        assert all(puzzle.check(grid) == [] for grid in result.solutions)  # type: ignore[attr-defined]
        solutions = ["two solutions"]
    return (
        result.status,
        result.grade,
        solutions,
        steps,
        puzzle.hint(3),  # type: ignore[attr-defined]
        probed.cells,
    )


@pytest.mark.parametrize("seed", range(2))
def test_the_compiled_engine_and_the_python_fallback_agree(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    compiled = [outcome(puzzle) for puzzle in puzzles(seed)]
    monkeypatch.setattr(logic.Board, "kernel", property(lambda self: None))
    fresh = puzzles(seed)  # fresh puzzles, fresh boards
    assert all(puzzle.board.kernel is None for puzzle in fresh)  # type: ignore[attr-defined]
    python = [outcome(puzzle) for puzzle in fresh]
    assert compiled == python
    kinds = {step["technique"] for _, _, _, steps, _, _ in compiled for step in steps}
    assert {"line", "probe", "decision"} <= kinds  # every kind of step was compared
    assert {"unique", "multiple"} <= {status for status, *_ in compiled}


def test_probing_with_the_solution_known_reaches_the_same_cells(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Grading probes only the wrong colour of each cell, from the line fixpoint: both paths
    decide the same cells (#803 is solved by lines and probes; #6574 needs the search)."""
    for name in ("survey/webpbn-00803.json", "survey/webpbn-06574.json"):
        solution = list(pencilbox.load(NONOGRAMS / name).solve().solutions[0].cells)
        states = []
        for patch in (False, True):
            if patch:
                monkeypatch.setattr(logic.Board, "kernel", property(lambda self: None))
            cells = [UNKNOWN] * len(solution)
            assert (
                logic.solve_by_logic(pencilbox.load(NONOGRAMS / name), cells, solution=solution)
                is None
            )
            states.append(cells)
        assert states[0] == states[1]
        assert all(v in (UNKNOWN, s) for v, s in zip(states[0], solution))
    assert states[0].count(UNKNOWN) > 0  # #6574: probes leave cells to the search


def test_remembered_line_answers_change_nothing() -> None:
    """The engine keeps each line state's answer across calls: probing with the answers
    remembered, and again after they are dropped, narrows the same cells, within the lines'
    fixpoint as the Python fallback (which remembers none) finds it."""
    rnd = random.Random(5)
    for index in range(40):
        puzzle = random_colour(rnd) if index % 2 else random_plain(rnd)
        board = puzzle.board  # type: ignore[attr-defined]
        empty = [board.full_mask] * (board.width * board.height)
        cold, warm, dropped, python = list(empty), list(empty), list(empty), list(empty)
        assert board.kernel is not None
        board.kernel.forget_lines()
        first = logic.solve_board_by_logic(board, cold)
        assert logic.solve_board_by_logic(board, warm) == first  # every line answer remembered
        board.kernel.forget_lines()
        assert logic.solve_board_by_logic(board, dropped) == first
        logic.propagate_python(board, python, set(range(board.height)), set(range(board.width)))
        assert cold == warm == dropped
        for fixpoint, probed in zip(python, cold):
            assert probed & ~fixpoint == 0  # probing narrows the lines' fixpoint, never widens
