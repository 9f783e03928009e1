"""The search with the line solver inside it (search.enumerate_with_lines, _engine.c's
LinePropagator) against the search on clauses alone: the same verdicts, right solutions, and
a time limit that holds on a puzzle neither can finish."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pencilbox.core.grid import Grid
from pencilbox.core.sat import SatSolver
from pencilbox.core.timing import Deadline, Stats, TimeLimitReached
from pencilbox.genres.nonogram import line
from pencilbox.genres.nonogram import search as search_module
from pencilbox.genres.nonogram.colour.model import NAMED_HEX, Colour, clues_of, make_colour_puzzle
from pencilbox.genres.nonogram.logic import Board, propagate_board
from pencilbox.genres.nonogram.model import EMPTY, FILLED, make_puzzle
from pencilbox.genres.nonogram.model import clues_of as plain_clues
from pencilbox.genres.nonogram.search import branch_search, encode, enumerate_with_lines
from pencilbox.genres.nonogram.solve import first_violation, python_first_violation

pytestmark = pytest.mark.skipif(line.KERNEL is None, reason="built without C: no propagator")


def random_board(rnd: random.Random, colours: int, size: int, ink: float) -> Board:
    width, height = rnd.randint(size - 3, size), rnd.randint(size - 3, size)
    if colours == 1:
        cells = tuple(FILLED if rnd.random() < ink else EMPTY for _ in range(width * height))
        return make_puzzle(*plain_clues(Grid(width, height, cells))).board
    palette = [Colour(name, name[0], NAMED_HEX[name]) for name in ("red", "blue", "green")]
    masks = tuple(
        1 << (rnd.randint(1, colours) if rnd.random() < ink else 0) for _ in range(width * height)
    )
    rows, cols = clues_of(Grid(width, height, masks))

    def named(clue: tuple[tuple[int, int], ...]) -> list[tuple[int, str]]:
        return [(n, palette[c - 1].name) for n, c in clue]

    puzzle = make_colour_puzzle(
        palette[:colours], [named(c) for c in rows], [named(c) for c in cols]
    )
    return puzzle.board


def search(
    board: Board, with_lines: bool, deadline: Deadline | None = None, stats: Stats | None = None
) -> list[list[int]]:
    """Up to two solutions (masks) from the line fixpoint, with or without the propagator."""
    cells = [board.full_mask] * (board.width * board.height)
    assert propagate_board(board, cells) is None
    stats = Stats() if stats is None else stats
    with SatSolver() as solver:
        cell_vars = encode(board, cells, solver)
        keys = [(i, c) for i, variables in enumerate(cell_vars) for c in variables]
        if with_lines:
            found = enumerate_with_lines(board, cells, cell_vars, solver, 2, stats, deadline)
            assert found is not None
        else:
            found = solver.enumerate([cell_vars[i][c] for i, c in keys], 2, deadline)
    grids = []
    for values in found:
        grid = list(cells)
        for i, variables in enumerate(cell_vars):
            if variables:
                grid[i] = 1
        for (i, colour), true in zip(keys, values):
            if true:
                grid[i] = 1 << colour
        grids.append(grid)
    return grids


@pytest.mark.parametrize("colours", [1, 2, 3])
def test_lines_inside_the_search_give_the_verdicts_of_the_clauses_alone(
    colours: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # every search with the lines from its start (no first try with the clauses alone)
    monkeypatch.setattr(SatSolver, "solve_briefly", lambda self, conflicts: None)
    rnd = random.Random(colours)
    verdicts = set()
    stats = Stats()
    for _ in range(30):
        board = random_board(rnd, colours, 14, ink=0.5)
        with_lines, alone = search(board, True, stats=stats), search(board, False)
        assert len(with_lines) == len(alone)
        for grid in with_lines:
            assert first_violation(board, grid) is None
        if len(with_lines) == 2:
            assert with_lines[0] != with_lines[1]
        verdicts.add(len(with_lines))
    assert verdicts == {1, 2}  # both verdicts were compared
    assert stats.to_json()["searches_with_lines"] >= 30  # each with the propagator


def test_the_propagator_does_the_line_work() -> None:
    """On a puzzle with hundreds of cells open it forces cells and finds broken lines."""
    board = random_board(random.Random(7), 1, 30, ink=0.4)
    cells = [board.full_mask] * (board.width * board.height)
    propagate_board(board, cells)
    stats = Stats()
    with SatSolver() as solver:
        cell_vars = encode(board, cells, solver)
        found = enumerate_with_lines(board, cells, cell_vars, solver, 2, stats)
    assert found
    counts = stats.to_json()
    assert counts["searches_with_lines"] >= 1
    assert counts["line_propagated"] > 100
    assert counts["line_conflicts"] > 0


def hard_puzzle() -> Board:
    """A random 35x35 (ink 0.4): about 1,200 cells open after lines and probes, beyond a
    second of search for either kind."""
    return random_board(random.Random(35), 1, 35, ink=0.4)


def test_a_search_with_lines_stops_at_its_time_limit() -> None:
    board = hard_puzzle()
    started = time.perf_counter()
    with pytest.raises(TimeLimitReached):
        search(board, True, Deadline(0.3))
    assert time.perf_counter() - started < 5


def test_solve_on_the_command_line_reports_a_timeout(tmp_path: Path) -> None:
    board = hard_puzzle()
    path = tmp_path / "hard.json"
    rows = [[n for n, _ in clue] for clue in board.rows]
    cols = [[n for n, _ in clue] for clue in board.cols]
    path.write_text(json.dumps({"rows": rows, "cols": cols}), encoding="utf-8")
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pencilbox.cli", "solve", str(path), "--time-limit", "1", "--jsonl"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    record = json.loads(done.stdout.splitlines()[-1])
    assert record["status"] == "timeout", done.stdout + done.stderr
    assert time.perf_counter() - started < 30


def line_fixpoint(board: Board) -> list[int]:
    cells = [board.full_mask] * (board.width * board.height)
    assert propagate_board(board, cells) is None
    return cells


@pytest.mark.parametrize("colours", [1, 2, 3])
def test_guessing_gives_the_verdicts_of_the_clauses_alone(
    colours: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(search_module, "BRANCH_NODES", 100_000)  # always to the end
    rnd = random.Random(100 + colours)
    verdicts = set()
    for _ in range(40):
        board = random_board(rnd, colours, 10, ink=0.5)
        guessed = branch_search(board, line_fixpoint(board), 2)
        assert guessed is not None
        alone = search(board, False)
        assert len(guessed) == len(alone)
        for grid in guessed:
            assert python_first_violation(board, grid) is None
        if len(guessed) == 1:
            assert guessed == alone  # the one solution
        if len(guessed) == 2:
            assert guessed[0] != guessed[1]
        verdicts.add(len(guessed))
    assert verdicts == {1, 2}


def test_guessing_hands_a_hard_puzzle_back_to_the_sat_search() -> None:
    board = hard_puzzle()
    assert branch_search(board, line_fixpoint(board), 2) is None


def test_a_few_open_cells_are_settled_by_guessing_through_the_solve() -> None:
    """A puzzle of two solutions whose lines leave 4 cells open: solve says `multiple`, with
    two right grids, without building the SAT encoding."""
    grid = Grid.from_rows([[FILLED, EMPTY, EMPTY], [EMPTY, FILLED, EMPTY], [EMPTY, EMPTY, EMPTY]])
    puzzle = make_puzzle(*plain_clues(grid))
    result = puzzle.solve()
    assert result.status == "multiple"
    assert result.stats["branch_searches"] == 1
    assert len({tuple(g.cells) for g in result.solutions}) == 2
    assert all(puzzle.check(g) == [] for g in result.solutions)


@pytest.mark.parametrize("colours", [1, 3])
def test_the_compiled_recheck_agrees_with_the_python_one(colours: int) -> None:
    rnd = random.Random(200 + colours)
    for _ in range(30):
        board = random_board(rnd, colours, 9, ink=0.5)
        solution = branch_search(board, line_fixpoint(board), 1)
        assert solution
        grid = solution[0]
        assert first_violation(board, grid) is None
        cell = rnd.randrange(len(grid))
        others = [c for c in range(board.colours) if 1 << c != grid[cell]]
        grid[cell] = 1 << rnd.choice(others)  # one cell changed: its row breaks
        assert first_violation(board, grid) == python_first_violation(board, grid)
        assert first_violation(board, grid) == f"row {cell // board.width + 1}"
        grid[cell] = board.full_mask  # undecided: the compiled check counts it as broken
        assert first_violation(board, grid) == f"row {cell // board.width + 1}"
