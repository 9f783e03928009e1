"""Logic on a colour nonogram: line propagation to a fixpoint and probing.

Propagation is the black-and-white loop of logic.py with the colour line solver plugged in;
when nothing records the lines it solves, the same loop runs in C (_colourline.propagate,
same order of lines, same fixpoint, same contradiction), which takes the per-line Python work
(a tuple and a cache look-up per line) out of small puzzles and out of every probe.
A probe tries one colour of an undecided cell: when that breaks a line, the colour is struck
from the cell (a cell of two candidates is then decided).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pencilbox.core.timing import Deadline, Stats, TimeLimitReached
from pencilbox.genres.nonogram import logic
from pencilbox.genres.nonogram.colour.line import compiled_propagate, solve_line
from pencilbox.genres.nonogram.logic import Contradiction, ProbeMemo, Recorder

if TYPE_CHECKING:
    from pencilbox.genres.nonogram.colour.model import ColourNonogram


def decided(mask: int) -> bool:
    return mask & (mask - 1) == 0


def undecided(cells: Sequence[int]) -> bool:
    # over the distinct masks: a set of the cells is built at C speed, and holds a few values
    return any(mask & (mask - 1) for mask in set(cells))


def colours_of(mask: int) -> list[int]:
    return [c for c in range(mask.bit_length()) if mask >> c & 1]


PASSES_PER_CALL = 8
"""The compiled loop looks at no clock: it runs this many passes at most between two looks."""


def propagate(
    puzzle: ColourNonogram,
    cells: list[int],
    dirty_rows: set[int],
    dirty_cols: set[int],
    stats: Stats | None = None,
    record: Recorder | None = None,
    max_passes: int | None = None,
    deadline: Deadline | None = None,
) -> Contradiction | None:
    """logic.propagate with the colour line solver: None, or the broken line."""
    if record is not None or compiled_propagate is None or puzzle.full_mask >> 64:
        return logic.propagate(
            puzzle, cells, dirty_rows, dirty_cols, stats, record, max_passes, deadline, solve_line
        )
    rows, cols = list(dirty_rows), list(dirty_cols)
    passes = solves = 0
    broken: Contradiction | None = None
    while (rows or cols) and (max_passes is None or passes < max_passes):
        if deadline is not None and deadline.expired():
            raise TimeLimitReached
        chunk = PASSES_PER_CALL if max_passes is None else min(PASSES_PER_CALL, max_passes - passes)
        found, done, solved, rows, cols = compiled_propagate(
            puzzle.rows, puzzle.cols, puzzle.width, cells, rows, cols, chunk
        )
        passes, solves = passes + done, solves + solved
        if found is not None:
            broken = Contradiction(*found)
            break
    if stats is not None:
        stats.count("passes", passes)
        stats.count("line_solves", solves)
    return broken


def propagate_all(
    puzzle: ColourNonogram,
    cells: list[int],
    stats: Stats | None = None,
    record: Recorder | None = None,
    max_passes: int | None = None,
    deadline: Deadline | None = None,
) -> Contradiction | None:
    every_row, every_col = set(range(puzzle.height)), set(range(puzzle.width))
    return propagate(puzzle, cells, every_row, every_col, stats, record, max_passes, deadline)


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
    cells[cell] = mask
    row, col = divmod(cell, puzzle.width)
    return propagate(puzzle, cells, {row}, {col}, stats, record, deadline=deadline)


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
    open_cells = [i for i, mask in enumerate(cells) if mask & (mask - 1)]
    split = bisect_left(open_cells, start)
    order = open_cells[split:] + open_cells[:split]
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
