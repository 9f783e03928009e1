"""Logic on a colour nonogram: line propagation to a fixpoint and probing.

Propagation is the black-and-white loop of logic.py with the colour line solver plugged in.
A probe tries one colour of an undecided cell: when that breaks a line, the colour is struck
from the cell (a cell of two candidates is then decided).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pencilbox.core.timing import Deadline, Stats, TimeLimitReached
from pencilbox.genres.nonogram import logic
from pencilbox.genres.nonogram.colour.line import solve_line
from pencilbox.genres.nonogram.logic import Contradiction, ProbeMemo, Recorder

if TYPE_CHECKING:
    from pencilbox.genres.nonogram.colour.model import ColourNonogram


def decided(mask: int) -> bool:
    return mask & (mask - 1) == 0


def undecided(cells: Sequence[int]) -> bool:
    return not all(mask & (mask - 1) == 0 for mask in cells)


def colours_of(mask: int) -> list[int]:
    return [c for c in range(mask.bit_length()) if mask >> c & 1]


def propagate_all(
    puzzle: ColourNonogram,
    cells: list[int],
    stats: Stats | None = None,
    record: Recorder | None = None,
    max_passes: int | None = None,
    deadline: Deadline | None = None,
) -> Contradiction | None:
    return logic.propagate_all(
        puzzle, cells, stats, record, max_passes, deadline, line_solver=solve_line
    )


def assume(
    puzzle: ColourNonogram,
    cells: list[int],
    cell: int,
    mask: int,
    stats: Stats | None = None,
    record: Recorder | None = None,
    deadline: Deadline | None = None,
) -> Contradiction | None:
    """Narrow one cell to `mask` and propagate from its row and column."""
    return logic.assume(
        puzzle, cells, cell, mask, stats, record, deadline=deadline, line_solver=solve_line
    )


@dataclass
class ColourProbe:
    cell: int
    tried: int
    """The colour index that led to a contradiction."""
    broken: Contradiction


def find_probe(
    puzzle: ColourNonogram,
    cells: list[int],
    start: int = 0,
    stats: Stats | None = None,
    deadline: Deadline | None = None,
    solution: Sequence[int] | None = None,
    memo: ProbeMemo | None = None,
) -> ColourProbe | None:
    """The first undecided cell (from `start`, wrapping) with a colour that breaks a line.

    With the solution known (grading), only the wrong colours of each cell are tried.
    """
    total = len(cells)
    order = [i for i in range(start, total) if not decided(cells[i])]
    order += [i for i in range(start) if not decided(cells[i])]
    for cell in order:
        for colour in colours_of(cells[cell]):
            if solution is not None and solution[cell] == 1 << colour:
                continue
            if deadline is not None and deadline.expired():
                raise TimeLimitReached
            if memo is not None and memo.known_safe(cell, colour):
                continue
            trial = cells.copy()
            if stats is not None:
                stats.count("probes")
            broken = assume(puzzle, trial, cell, 1 << colour, stats)
            if broken is not None:
                return ColourProbe(cell, colour, broken)
            if memo is not None:
                memo.remember(cell, colour, trial)
    return None


def solve_by_logic(
    puzzle: ColourNonogram,
    cells: list[int],
    stats: Stats | None = None,
    use_probes: bool = True,
    deadline: Deadline | None = None,
    solution: Sequence[int] | None = None,
) -> Contradiction | None:
    """Lines to a fixpoint, then probes, until solved or stuck; None or a contradiction."""
    broken = propagate_all(puzzle, cells, stats, deadline=deadline)
    start = 0
    memo = ProbeMemo()
    while broken is None and use_probes and undecided(cells):
        found = find_probe(puzzle, cells, start, stats, deadline, solution, memo)
        if found is None:
            break
        start = found.cell
        before = cells.copy()
        narrowed = cells[found.cell] & ~(1 << found.tried)
        broken = assume(puzzle, cells, found.cell, narrowed, stats, deadline=deadline)
        memo.record_changes(before, cells)
    return broken
