"""Validation-mode solving: logic first, then a complete SAT search, then the verdict.

Verdicts: `unique` (a proof: the search found one solution and showed there is no other),
`multiple` (two different solutions, shown), `none` (a proof that no grid fits the clues), or
`timeout`. A returned grid is always re-checked against every clue before it is reported.
Grades: `line` (line logic alone solves it), `probe` (line logic plus probing), `search`.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from pencilbox.core.grid import Grid
from pencilbox.core.sat import SatSolver
from pencilbox.core.timing import Deadline, Stats, TimeLimitReached
from pencilbox.genres.base import SolveResult
from pencilbox.genres.nonogram.cells import EMPTY, FILLED, UNKNOWN
from pencilbox.genres.nonogram.check import violations
from pencilbox.genres.nonogram.logic import propagate_all, solve_by_logic
from pencilbox.genres.nonogram.search import Unsatisfiable, encode

if TYPE_CHECKING:
    from pencilbox.genres.nonogram.model import Nonogram

GRADES = ("line", "probe", "search")


def solve(
    puzzle: Nonogram,
    limit: int = 2,
    time_limit: float | None = None,
    with_grade: bool = True,
) -> SolveResult:
    started = time.perf_counter()
    stats = Stats()
    deadline = Deadline(time_limit)
    cells = [UNKNOWN] * (puzzle.width * puzzle.height)
    try:
        result = _solve(puzzle, cells, limit, stats, deadline, with_grade)
    except (TimeLimitReached, KeyboardInterrupt) as stop:
        if isinstance(stop, KeyboardInterrupt):
            stats.count("interrupted")
        result = SolveResult(
            "timeout", [], None, partial=Grid(puzzle.width, puzzle.height, tuple(cells))
        )
    result.stats = stats.to_json()
    result.time_s = time.perf_counter() - started
    return result


def _solve(
    puzzle: Nonogram,
    cells: list[int],
    limit: int,
    stats: Stats,
    deadline: Deadline,
    with_grade: bool,
) -> SolveResult:
    with stats.phase("line"):
        broken = propagate_all(puzzle, cells, stats, deadline=deadline)
    if broken is not None:
        return SolveResult("none", [], "line")
    if UNKNOWN not in cells:
        return SolveResult("unique", [_verified(puzzle, cells)], "line")

    logic_state = cells.copy()
    with stats.phase("search"):
        solutions = _search(puzzle, cells, limit, stats, deadline)
    status = "none" if not solutions else "unique" if len(solutions) == 1 else "multiple"
    grade: str | None = "search"
    if with_grade and status == "unique":
        grade = _probe_grade(puzzle, logic_state, solutions[0], stats, deadline)
    return SolveResult(status, solutions[: max(limit, 1)], grade)  # type: ignore[arg-type]


def _probe_grade(
    puzzle: Nonogram, logic_state: list[int], solution: Grid, stats: Stats, deadline: Deadline
) -> str | None:
    """`probe` if line logic plus probing solves the puzzle, else `search`; None when the
    time limit ends the grading (the verdict found before it still stands)."""
    try:
        with stats.phase("probe"):
            probed = logic_state.copy()
            broken = solve_by_logic(
                puzzle, probed, stats, deadline=deadline, solution=solution.cells
            )
    except TimeLimitReached:
        return None
    return "probe" if broken is None and UNKNOWN not in probed else "search"


def _search(
    puzzle: Nonogram, cells: list[int], limit: int, stats: Stats, deadline: Deadline
) -> list[Grid]:
    with SatSolver() as solver:
        try:
            cell_vars = encode(puzzle, cells, solver)
        except Unsatisfiable:
            return []
        unknown = [i for i, v in enumerate(cells) if v == UNKNOWN]
        # Always look for two, even when fewer are wanted: the verdict needs the proof.
        found = solver.enumerate([cell_vars[i] for i in unknown], max(limit, 2), deadline)
        for key, value in solver.statistics().items():
            stats.count(key, value)
    grids = []
    for values in found:
        solved = cells.copy()
        for i, filled in zip(unknown, values):
            solved[i] = FILLED if filled else EMPTY
        grids.append(_verified(puzzle, solved))
    return grids


def _verified(puzzle: Nonogram, cells: list[int]) -> Grid:
    grid = Grid(puzzle.width, puzzle.height, tuple(cells))
    problems = violations(puzzle, grid)
    if problems:  # a bug, never a user error: refuse to report a wrong grid
        raise AssertionError(f"solver produced a grid that breaks the clues: {problems[0]}")
    return grid


def grade(puzzle: Nonogram) -> str:
    result = solve(puzzle, limit=2)
    return result.grade or "search"
