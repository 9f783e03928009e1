"""Logical deduction on a whole nonogram: line propagation to a fixpoint, and probing.

The state is a flat mutable list of cell values (row-major). Propagation works in *passes* like
a careful player: all dirty rows top to bottom, then all dirty columns left to right; a row
changed by a column goes to the next pass. The first pass has every line dirty, so a single
pass is exactly "all rows, then all columns".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from pencilbox.core.timing import Deadline, Stats, TimeLimitReached
from pencilbox.genres.nonogram.cells import EMPTY, FILLED, UNKNOWN
from pencilbox.genres.nonogram.line import Line, solve_line

if TYPE_CHECKING:
    from pencilbox.genres.nonogram.model import Nonogram

# Called with (kind, index, line before, line after) for every line solve that changed cells.
Recorder = Callable[[str, int, Line, Line], None]

LineId = tuple[str, int]

LineSolver = Callable[[Any, Line], "Line | None"]
"""solve_line(clue, line): the black-and-white one by default, the colour one for colours."""


class LinePuzzle(Protocol):
    """What propagation needs of a puzzle: its size and its clues (plain or coloured)."""

    @property
    def width(self) -> int: ...

    @property
    def height(self) -> int: ...

    @property
    def rows(self) -> Sequence[Any]: ...

    @property
    def cols(self) -> Sequence[Any]: ...


@dataclass
class Contradiction:
    """Propagation found a line with no placement: `kind` `index` cannot be satisfied."""

    kind: str
    index: int

    def describe(self) -> str:
        return f"{self.kind} {self.index + 1}"


def read_line(puzzle: LinePuzzle, cells: list[int], kind: str, index: int) -> Line:
    width = puzzle.width
    if kind == "row":
        return tuple(cells[index * width : (index + 1) * width])
    return tuple(cells[index::width])


def propagate(
    puzzle: LinePuzzle,
    cells: list[int],
    dirty_rows: set[int],
    dirty_cols: set[int],
    stats: Stats | None = None,
    record: Recorder | None = None,
    max_passes: int | None = None,
    deadline: Deadline | None = None,
    line_solver: LineSolver = solve_line,
) -> Contradiction | None:
    """Solve dirty lines until nothing changes (or `max_passes`); None, or the broken line.

    This is the hot loop of the whole solver (probing runs it thousands of times), hence the
    local variables and the counters kept out of the loop.
    """
    passes = solves = 0
    width = puzzle.width
    row_clues, col_clues = puzzle.rows, puzzle.cols
    broken: Contradiction | None = None
    while (dirty_rows or dirty_cols) and broken is None:
        if max_passes is not None and passes >= max_passes:
            break
        if deadline is not None and deadline.expired():
            raise TimeLimitReached
        passes += 1
        rows, dirty_rows = sorted(dirty_rows), set()
        for r in rows:
            solves += 1
            start = r * width
            before = tuple(cells[start : start + width])
            after = line_solver(row_clues[r], before)
            if after is None:
                broken = Contradiction("row", r)
                break
            if after != before:
                for i, (a, b) in enumerate(zip(before, after)):
                    if a != b:
                        cells[start + i] = b
                        dirty_cols.add(i)
                if record is not None:
                    record("row", r, before, after)
        if broken is not None:
            break
        cols, dirty_cols = sorted(dirty_cols), set()
        for c in cols:
            solves += 1
            before = tuple(cells[c::width])
            after = line_solver(col_clues[c], before)
            if after is None:
                broken = Contradiction("column", c)
                break
            if after != before:
                for i, (a, b) in enumerate(zip(before, after)):
                    if a != b:
                        cells[i * width + c] = b
                        dirty_rows.add(i)
                if record is not None:
                    record("column", c, before, after)
    if stats is not None:
        stats.count("passes", passes)
        stats.count("line_solves", solves)
    return broken


def propagate_all(
    puzzle: LinePuzzle,
    cells: list[int],
    stats: Stats | None = None,
    record: Recorder | None = None,
    max_passes: int | None = None,
    deadline: Deadline | None = None,
    line_solver: LineSolver = solve_line,
) -> Contradiction | None:
    return propagate(
        puzzle,
        cells,
        set(range(puzzle.height)),
        set(range(puzzle.width)),
        stats,
        record,
        max_passes,
        deadline,
        line_solver,
    )


def assume(
    puzzle: LinePuzzle,
    cells: list[int],
    cell: int,
    value: int,
    stats: Stats | None = None,
    record: Recorder | None = None,
    deadline: Deadline | None = None,
    line_solver: LineSolver = solve_line,
) -> Contradiction | None:
    """Set one cell and propagate from its row and column."""
    cells[cell] = value
    row, col = divmod(cell, puzzle.width)
    return propagate(
        puzzle, cells, {row}, {col}, stats, record, deadline=deadline, line_solver=line_solver
    )


@dataclass
class ProbeResult:
    cell: int
    tried: int
    """The value that led to a contradiction."""
    broken: Contradiction


class ProbeMemo:
    """Probes that ended without a contradiction, with the fixpoint each one reached.

    Propagation is monotone: from a state that agrees with such a fixpoint, the same probe
    can only end inside it again, with no contradiction. So while every cell learned since
    (the `log`) agrees with the stored fixpoint, the probe is skipped. On hard puzzles this
    removes most of the repeated work of scanning every cell after each success.
    """

    def __init__(self) -> None:
        self.log: list[tuple[int, int]] = []
        self._outcomes: dict[tuple[int, int], tuple[list[int], int]] = {}

    def record_changes(self, before: Sequence[int], after: Sequence[int]) -> None:
        self.log.extend((i, b) for i, (a, b) in enumerate(zip(before, after)) if a != b)

    def remember(self, cell: int, value: int, fixpoint: list[int]) -> None:
        self._outcomes[cell, value] = (fixpoint, len(self.log))

    def known_safe(self, cell: int, value: int) -> bool:
        entry = self._outcomes.get((cell, value))
        if entry is None:
            return False
        fixpoint, seen = entry
        for i, learned in self.log[seen:]:
            if fixpoint[i] != learned:
                del self._outcomes[cell, value]
                return False
        self._outcomes[cell, value] = (fixpoint, len(self.log))
        return True


def find_probe(
    puzzle: Nonogram,
    cells: list[int],
    start: int = 0,
    stats: Stats | None = None,
    deadline: Deadline | None = None,
    solution: Sequence[int] | None = None,
    memo: ProbeMemo | None = None,
) -> ProbeResult | None:
    """The first unknown cell (from `start`, wrapping) that one value makes contradictory.

    Trying a value means setting it on a copy and propagating lines; if that breaks a line,
    the cell must hold the other value. When the (unique) solution is already known, only the
    wrong value of each cell can break a line, so only that one is tried: half the work, same
    answer (grading uses this).
    """
    total = len(cells)
    order = [i for i in range(start, total) if cells[i] == UNKNOWN]
    order += [i for i in range(start) if cells[i] == UNKNOWN]
    for cell in order:
        values = (other(solution[cell]),) if solution is not None else (FILLED, EMPTY)
        for value in values:
            if deadline is not None and deadline.expired():
                raise TimeLimitReached
            if memo is not None and memo.known_safe(cell, value):
                continue
            trial = cells.copy()
            if stats is not None:
                stats.count("probes")
            broken = assume(puzzle, trial, cell, value, stats)
            if broken is not None:
                return ProbeResult(cell, value, broken)
            if memo is not None:
                memo.remember(cell, value, trial)
    return None


def other(value: int) -> int:
    return EMPTY if value == FILLED else FILLED


def solve_by_logic(
    puzzle: Nonogram,
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
    while broken is None and use_probes and UNKNOWN in cells:
        found = find_probe(puzzle, cells, start, stats, deadline, solution, memo)
        if found is None:
            break
        start = found.cell
        before = cells.copy()
        broken = assume(puzzle, cells, found.cell, other(found.tried), stats, deadline=deadline)
        memo.record_changes(before, cells)
    return broken
