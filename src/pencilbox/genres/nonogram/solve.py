"""Validation-mode solving, for black-and-white and colour puzzles alike: logic first, then a
complete SAT search, then the verdict.

Verdicts: `unique` (a proof: the search found one solution and showed there is no other),
`multiple` (two different solutions, shown), `none` (a proof that no grid fits the clues), or
`timeout`. A returned grid is always re-checked against every clue before it is reported.
Grades: `line` (line logic alone solves it), `probe` (line logic plus probing), `search`.
The engine works on the puzzle's board in colour masks; the grids it reports are in the
puzzle's own values (UNKNOWN/FILLED/EMPTY for black-and-white).
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from pencilbox.core.grid import Grid
from pencilbox.core.sat import SatSolver
from pencilbox.core.timing import Deadline, Stats, TimeLimitReached
from pencilbox.genres.base import SolveResult
from pencilbox.genres.nonogram.colour.cells import BACKGROUND, runs_of
from pencilbox.genres.nonogram.line import MASK_OF_VALUE
from pencilbox.genres.nonogram.logic import (
    Board,
    LinePuzzle,
    propagate_board,
    solve_board_by_logic,
    undecided,
    values_of,
)
from pencilbox.genres.nonogram.search import (
    BRANCH_OPEN,
    Unsatisfiable,
    branch_search,
    encode,
    enumerate_with_lines,
)

GRADES = ("line", "probe", "search")


def solve(
    puzzle: LinePuzzle,
    limit: int = 2,
    time_limit: float | None = None,
    with_grade: bool = True,
) -> SolveResult:
    """The verdict; with `with_grade=False` a unique puzzle that needs the search is not
    graded further (the probing that tells `probe` from `search` is left out)."""
    started = time.perf_counter()
    stats = Stats()
    deadline = Deadline(time_limit)
    board = puzzle.board
    cells = [board.full_mask] * (board.width * board.height)
    try:
        result = _solve(board, cells, limit, stats, deadline, with_grade)
    except (TimeLimitReached, KeyboardInterrupt) as stop:
        if isinstance(stop, KeyboardInterrupt):
            stats.count("interrupted")
        result = SolveResult("timeout", [], None, partial=grid_of(board, cells))
    result.stats = stats.to_json()
    result.time_s = time.perf_counter() - started
    return result


def _solve(
    board: Board,
    cells: list[int],
    limit: int,
    stats: Stats,
    deadline: Deadline,
    with_grade: bool,
) -> SolveResult:
    with stats.phase("line"):
        broken = propagate_board(board, cells, stats, deadline=deadline)
    if broken is not None:
        return SolveResult("none", [], "line")
    if not undecided(cells):
        return SolveResult("unique", [_verified(board, cells)], "line")
    probed = None
    if with_grade and _many_open(cells):
        probed = _probe_first(board, cells, stats, deadline)
        if probed is not None and not undecided(probed):
            return SolveResult("unique", [_verified(board, probed)], "probe")
        if probed is not None:
            cells = probed  # the same solutions, fewer open cells for the search
    logic_state = cells.copy()
    with stats.phase("search"):
        solutions = _search(board, cells, limit, stats, deadline)
    if not solutions:
        return SolveResult("none", [], "search")
    if len(solutions) > 1:
        return SolveResult("multiple", solutions[: max(limit, 2)], "search")
    if not with_grade or probed is not None:  # probing came first and got stuck
        return SolveResult("unique", solutions, "search")
    grade = _probe_grade(board, logic_state, solutions[0], stats, deadline)
    return SolveResult("unique", solutions, grade)


PROBE_FIRST_SHARE = 8
"""Probing comes before the search when more than 1/8 of the cells are open after the lines."""


def _many_open(cells: Sequence[int]) -> bool:
    """Whether lines left enough open cells for probing first to pay. Grading probes a
    unique puzzle anyway; probing first can spare the search, whose encoding grows with the
    open lines (236 of 300 cells open: 10 ms of clauses, where probes solve it in 4). With a
    few cells open (a speckled 30x30 with two solutions: 4-25 of 900) the search answers at
    once, and probes that cannot succeed would only add to it."""
    return sum(1 for mask in cells if mask & (mask - 1)) * PROBE_FIRST_SHARE > len(cells)


def _probe_first(
    board: Board, cells: list[int], stats: Stats, deadline: Deadline
) -> list[int] | None:
    """Lines and probes from the line fixpoint, before any search: when they decide every
    cell, that is the only solution (each colour struck out broke a line) and the grade is
    `probe`, with no SAT encoding to build; when they get stuck, the search starts from
    what they decided. None when probing finds a contradiction (the search then proves there
    is no solution) or runs out of its time, half of what is left, so that the search keeps
    the other half for the verdict (the grade is then left to _probe_grade)."""
    left = deadline.remaining()
    own = Deadline(None if left is None else left / 2)
    probed = cells.copy()
    try:
        with stats.phase("probe"):
            broken = solve_board_by_logic(board, probed, stats, deadline=own)
    except TimeLimitReached:
        return None
    return probed if broken is None else None


def _probe_grade(
    board: Board, logic_state: list[int], solution: Grid, stats: Stats, deadline: Deadline
) -> str | None:
    """`probe` when lines plus probes solve it, else `search`; None if time ran out (the
    verdict found before it still stands)."""
    masks = list(board_cells(board, solution))
    try:
        with stats.phase("probe"):
            probed = logic_state.copy()
            broken = solve_board_by_logic(board, probed, stats, deadline=deadline, solution=masks)
    except TimeLimitReached:
        return None
    return "probe" if broken is None and not undecided(probed) else "search"


def _search(
    board: Board, cells: list[int], limit: int, stats: Stats, deadline: Deadline
) -> list[Grid]:
    # Always look for two, even when fewer are wanted: the verdict needs the proof.
    wanted = max(limit, 2)
    open_cells = [i for i, mask in enumerate(cells) if mask & (mask - 1)]
    if len(open_cells) <= BRANCH_OPEN:
        guessed = branch_search(board, cells, wanted, deadline)
        if guessed is not None:
            stats.count("branch_searches")
            return [_verified(board, grid) for grid in guessed]
    with SatSolver() as solver:
        try:
            cell_vars = encode(board, cells, solver)
        except Unsatisfiable:
            return []
        keys = [(i, colour) for i in open_cells for colour in cell_vars[i]]
        variables = [cell_vars[i][colour] for i, colour in keys]
        found = enumerate_with_lines(board, cells, cell_vars, solver, wanted, stats, deadline)
        if found is None:  # no compiled engine: the clauses alone
            found = solver.enumerate(variables, wanted, deadline)
        for key, value in solver.statistics().items():
            stats.count(key, value)
    grids = []
    for values in found:
        solved = cells.copy()
        for i in open_cells:
            solved[i] = 1 << BACKGROUND  # unless one of its colours is true, below
        for (i, colour), true in zip(keys, values):
            if true:
                solved[i] = 1 << colour
        grids.append(_verified(board, solved))
    return grids


def grid_of(board: Board, cells: Sequence[int]) -> Grid:
    """Masks as a grid in the puzzle's own values."""
    values = values_of(cells) if board.plain else tuple(cells)
    return Grid(board.width, board.height, values)


def board_cells(board: Board, grid: Grid) -> Sequence[int]:
    """A grid in the puzzle's own values as masks."""
    if not board.plain:
        return grid.cells
    return [MASK_OF_VALUE[v] for v in grid.cells]


def _verified(board: Board, cells: list[int]) -> Grid:
    problem = first_violation(board, cells)
    if problem:  # a bug, never a user error: refuse to report a wrong grid
        raise AssertionError(f"solver produced a grid that breaks the clues: {problem}")
    return grid_of(board, cells)


def first_violation(board: Board, cells: Sequence[int]) -> str | None:
    """The first line of a decided grid of masks whose runs differ from its clue (in C when
    the engine is compiled: on an easy puzzle the re-check in Python cost as much as the
    solve; it shares nothing with the line solver but the clues)."""
    if board.kernel is not None and isinstance(cells, list):
        found = board.kernel.violation(cells)
        return None if found is None else f"{found[0]} {found[1] + 1}"
    return python_first_violation(board, cells)


def python_first_violation(board: Board, cells: Sequence[int]) -> str | None:
    """first_violation in Python: the fallback, and the test oracle of the compiled one."""
    width = board.width
    for index, clue in enumerate(board.rows):
        if runs_of(cells[index * width : (index + 1) * width]) != clue:
            return f"row {index + 1}"
    for index, clue in enumerate(board.cols):
        if runs_of(cells[index::width]) != clue:
            return f"column {index + 1}"
    return None


def grade(puzzle: LinePuzzle) -> str:
    return solve(puzzle, limit=2).grade or "search"
