"""Validation-mode solving of colour nonograms, with the verdicts and grades of solve.py:
`unique` (proved), `multiple` (two solutions shown), `none` (proved), `timeout`; graded
`line`, `probe` or `search`. Every reported grid is re-checked against every clue."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pencilbox.core.grid import Grid
from pencilbox.core.sat import SatSolver
from pencilbox.core.timing import Deadline, Stats, TimeLimitReached
from pencilbox.genres.base import SolveResult
from pencilbox.genres.nonogram.colour.cells import BACKGROUND
from pencilbox.genres.nonogram.colour.check import violations
from pencilbox.genres.nonogram.colour.logic import propagate_all, solve_by_logic, undecided
from pencilbox.genres.nonogram.colour.search import encode
from pencilbox.genres.nonogram.search import Unsatisfiable

if TYPE_CHECKING:
    from pencilbox.genres.nonogram.colour.model import ColourNonogram


def solve(
    puzzle: ColourNonogram,
    limit: int = 2,
    time_limit: float | None = None,
    with_grade: bool = True,
) -> SolveResult:
    """The verdict; with `with_grade=False` a unique puzzle that needs the search is not
    graded further (the probing that tells `probe` from `search` is left out)."""
    started = time.perf_counter()
    stats = Stats()
    deadline = Deadline(time_limit)
    cells = [puzzle.full_mask] * (puzzle.width * puzzle.height)
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
    puzzle: ColourNonogram,
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
    if not undecided(cells):
        return SolveResult("unique", [_verified(puzzle, cells)], "line")
    probed = None
    if with_grade and _many_open(cells):
        probed = _probe_first(puzzle, cells, stats, deadline)
        if probed is not None and not undecided(probed):
            return SolveResult("unique", [_verified(puzzle, probed)], "probe")
        if probed is not None:
            cells = probed  # the same solutions, fewer open cells for the search
    logic_state = cells.copy()
    with stats.phase("search"):
        solutions = _search(puzzle, cells, limit, stats, deadline)
    if not solutions:
        return SolveResult("none", [], "search")
    if len(solutions) > 1:
        return SolveResult("multiple", solutions[: max(limit, 2)], "search")
    if not with_grade or probed is not None:  # probing came first and got stuck
        return SolveResult("unique", solutions, "search")
    grade = _probe_grade(puzzle, logic_state, solutions[0], stats, deadline)
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
    puzzle: ColourNonogram, cells: list[int], stats: Stats, deadline: Deadline
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
            broken = solve_by_logic(puzzle, probed, stats, deadline=own)
    except TimeLimitReached:
        return None
    return probed if broken is None else None


def _probe_grade(
    puzzle: ColourNonogram,
    logic_state: list[int],
    solution: Grid,
    stats: Stats,
    deadline: Deadline,
) -> str | None:
    """`probe` when lines plus probes solve it, else `search`; None if time ran out."""
    try:
        with stats.phase("probe"):
            probed = logic_state.copy()
            broken = solve_by_logic(
                puzzle, probed, stats, deadline=deadline, solution=solution.cells
            )
    except TimeLimitReached:
        return None
    return "probe" if broken is None and not undecided(probed) else "search"


def _search(
    puzzle: ColourNonogram, cells: list[int], limit: int, stats: Stats, deadline: Deadline
) -> list[Grid]:
    with SatSolver() as solver:
        try:
            cell_vars = encode(puzzle, cells, solver)
        except Unsatisfiable:
            return []
        open_cells = [i for i, mask in enumerate(cells) if mask & (mask - 1)]
        keys = [(i, colour) for i in open_cells for colour in cell_vars[i]]
        variables = [cell_vars[i][colour] for i, colour in keys]
        # Always look for two, even when fewer are wanted: the verdict needs the proof.
        found = solver.enumerate(variables, max(limit, 2), deadline)
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
        grids.append(_verified(puzzle, solved))
    return grids


def _verified(puzzle: ColourNonogram, cells: list[int]) -> Grid:
    grid = Grid(puzzle.width, puzzle.height, tuple(cells))
    problems = violations(puzzle, grid)
    if problems:  # a bug, never a user error: refuse to report a wrong grid
        raise AssertionError(f"solver produced a grid that breaks the clues: {problems[0]}")
    return grid


def grade(puzzle: ColourNonogram) -> str:
    return solve(puzzle, limit=2).grade or "search"
