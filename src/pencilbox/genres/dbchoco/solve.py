"""Validation-mode solving: verdict `unique` / `multiple` / `none` (or `timeout`).

The complete search is `search.answers` (SAT + lazy clauses); every answer it returns has
passed the checker. `multiple` comes with two answers; `SolveResult.differences()` then gives
the cells beside the edges where they differ (`Walls.differences`), and `differing_edges`
names those edges. The grade is the hardest logic step the puzzle needs (see logic.py), or
`search` when the logic steps alone do not finish it.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from pencilbox.core.step import Step
from pencilbox.core.timing import Deadline, Stats, TimeLimitReached
from pencilbox.genres.base import SolveResult
from pencilbox.genres.dbchoco.board import Walls
from pencilbox.genres.dbchoco.logic import GRADE_OF, PROBE_SECONDS, deduce
from pencilbox.genres.dbchoco.search import answers

if TYPE_CHECKING:
    from pencilbox.genres.dbchoco.model import DoubleChoco


def solve(
    puzzle: DoubleChoco,
    limit: int = 2,
    time_limit: float | None = None,
    with_grade: bool = True,
) -> SolveResult:
    started = time.perf_counter()
    stats = Stats()
    deadline = Deadline(time_limit)
    found: list[Walls] = []
    try:
        with stats.phase("search"):
            for answer in answers(puzzle, max(limit, 2), stats, deadline):
                found.append(answer)
    except (TimeLimitReached, KeyboardInterrupt) as stop:
        if isinstance(stop, KeyboardInterrupt):
            stats.count("interrupted")
        result = SolveResult("timeout", found[:limit], None, partial=found[0] if found else None)
        result.stats = stats.to_json()
        result.time_s = time.perf_counter() - started
        return result
    status = "none" if not found else "unique" if len(found) == 1 else "multiple"
    grade: str | None = "search" if with_grade else None
    if with_grade and status == "unique":
        grade = _grade(puzzle, found[0], stats, deadline)
    result = SolveResult(status, found[: max(limit, 1)], grade)  # type: ignore[arg-type]
    if len(found) >= 2:
        result.stats["differing_edges"] = [
            found[0].geometry.edge_name(e) for e in found[0].different_edges(found[1])
        ]
    result.stats.update(stats.to_json())
    result.time_s = time.perf_counter() - started
    return result


def _grade(
    puzzle: DoubleChoco, answer: Walls, stats: Stats, deadline: Deadline, probes: bool = False
) -> str | None:
    """The level of the hardest logic step needed. Inside `solve` the contradiction probes
    are left out (they cost seconds in Python on 12x12 and up), so a puzzle that needs them
    grades as `search` there; `grade()` runs them."""
    found = _hardest(puzzle, answer, stats, deadline, probes)
    return None if found is None else GRADE_OF[found]


def _hardest(
    puzzle: DoubleChoco, answer: Walls, stats: Stats, deadline: Deadline, probes: bool
) -> str | None:
    """The hardest technique logic uses (`backbone` when it stops short), None on time out."""
    try:
        with stats.phase("logic"):
            state = deduce(puzzle, probes=probes, deadline=deadline, solution=answer)
    except TimeLimitReached:
        return None
    return state.hardest() if state.solved() else "backbone"


def grade(puzzle: DoubleChoco, time_limit: float | None = None) -> str:
    return GRADE_OF[hardest(puzzle, time_limit)]


def hardest(puzzle: DoubleChoco, time_limit: float | None = None) -> str:
    """The hardest technique the puzzle needs, trials included (`backbone`: logic stops
    short, or there is not exactly one answer)."""
    result = solve(puzzle, limit=2, time_limit=time_limit, with_grade=False)
    if result.status != "unique":
        return "backbone"
    stats = Stats()
    deadline = Deadline(time_limit)
    return _hardest(puzzle, result.solutions[0], stats, deadline, probes=True) or "backbone"


def trace(puzzle: DoubleChoco, time_limit: float | None = None) -> list[Step]:
    """The steps from the empty grid to the answer (when it is unique): logic as far as it
    goes (trials until PROBE_SECONDS pass without a find), then the labelled last resort."""
    deadline = Deadline(time_limit)
    result = solve(puzzle, limit=2, time_limit=deadline.remaining(), with_grade=False)
    solution = result.solutions[0] if result.status == "unique" else None
    state = deduce(
        puzzle,
        deadline=deadline,
        solution=solution,
        backbone=solution is not None,
        patience=PROBE_SECONDS,
    )
    return state.steps
