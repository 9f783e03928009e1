"""Logical deduction on a whole nonogram: line propagation to a fixpoint, and probing.

One engine for black-and-white and colour puzzles: it sees a puzzle as a `Board` (each line's
runs of (length, colour), the palette size) and its state as a flat list of colour masks
(row-major; bit 0 the background, bit c colour c). A black-and-white puzzle is the one-colour
board; the functions taking a puzzle take and give its own cell values (UNKNOWN, FILLED,
EMPTY for black-and-white), so callers never see the masks.

Propagation works in *passes* like a careful player: all dirty rows top to bottom, then all
dirty columns left to right; a row changed by a column goes to the next pass. The first pass
has every line dirty, so a single pass is exactly "all rows, then all columns". A probe tries
one colour of an undecided cell: when that breaks a line, the colour is struck from the cell
(a cell of two candidates is then decided). When nothing records the lines it solves, all of
this runs in C (_engine.c: same order of lines, same fixpoint, same contradiction, same probe
found first); the Python loops here are the fallback and the oracle of the tests.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Protocol

from pencilbox.core.timing import Deadline, Stats, TimeLimitReached
from pencilbox.genres.nonogram.cells import EMPTY, FILLED
from pencilbox.genres.nonogram.colour.cells import BACKGROUND, ColourClue
from pencilbox.genres.nonogram.line import KERNEL, MASK_OF_VALUE, VALUE_OF_MASK, Line, solve_line

# Called with (kind, index, line before, line after) for every line solve that changed cells.
Recorder = Callable[[str, int, Line, Line], None]

LineSolver = Callable[[Any, Line], "Line | None"]
"""solve_line(clue, line) on masks (line.solve_line by default)."""

PASSES_PER_CALL = 8
"""The compiled loop looks at no clock: it runs this many passes at most between two looks."""

PROBE_SLICE_S = 0.05
"""Compiled probing looks at Python's deadline this often (it keeps its own clock between)."""


@dataclass(frozen=True)
class Board:
    """What the engine sees of a puzzle: its size, each line's runs, the palette size."""

    width: int
    height: int
    rows: tuple[ColourClue, ...]
    cols: tuple[ColourClue, ...]
    colours: int
    """Palette size, the background included (2 for black-and-white)."""
    plain: bool = False
    """Black-and-white: outside the engine its cells are UNKNOWN/FILLED/EMPTY, and probes and
    guesses try the ink before the background (as that solver always did)."""

    @property
    def full_mask(self) -> int:
        return (1 << self.colours) - 1

    @cached_property
    def kernel(self) -> Any:
        """The compiled engine for this board (it keeps the probe memo), or None."""
        if KERNEL is None or self.colours > 64:
            return None
        return KERNEL.Engine(self.rows, self.cols, self.width, self.height, self.colours)

    def colour_order(self, mask: int) -> list[int]:
        """The colours of `mask` in the order probes and guesses try them."""
        found = colours_of(mask)
        if self.plain and found and found[0] == BACKGROUND:
            found = [*found[1:], BACKGROUND]
        return found

    def line_clue(self, kind: str, index: int) -> ColourClue:
        return self.rows[index] if kind == "row" else self.cols[index]


class LinePuzzle(Protocol):
    """A puzzle the engine can work on: it has a board."""

    @property
    def board(self) -> Board: ...


@dataclass
class Contradiction:
    """Propagation found a line with no placement: `kind` `index` cannot be satisfied."""

    kind: str
    index: int

    def describe(self) -> str:
        return f"{self.kind} {self.index + 1}"


def decided(mask: int) -> bool:
    return mask & (mask - 1) == 0


def undecided(cells: Sequence[int]) -> bool:
    # over the distinct masks: a set of the cells is built at C speed, and holds a few values
    return any(mask & (mask - 1) for mask in set(cells))


def colours_of(mask: int) -> list[int]:
    return [c for c in range(mask.bit_length()) if mask >> c & 1]


def read_line(board: Any, cells: Sequence[int], kind: str, index: int) -> Line:
    width = board.width
    if kind == "row":
        return tuple(cells[index * width : (index + 1) * width])
    return tuple(cells[index::width])


# -- propagation --------------------------------------------------------------------------------
def propagate(
    board: Board,
    cells: list[int],
    dirty_rows: set[int],
    dirty_cols: set[int],
    stats: Stats | None = None,
    record: Recorder | None = None,
    max_passes: int | None = None,
    deadline: Deadline | None = None,
    line_solver: LineSolver | None = None,
) -> Contradiction | None:
    """Solve dirty lines until nothing changes (or `max_passes`); None, or the broken line.
    `cells` are masks, narrowed in place. In C unless a recorder or another line solver is
    given (or the compiled engine is missing)."""
    if record is None and line_solver is None and board.kernel is not None:
        return _propagate_compiled(
            board, cells, dirty_rows, dirty_cols, stats, max_passes, deadline
        )
    return propagate_python(
        board, cells, dirty_rows, dirty_cols, stats, record, max_passes, deadline, line_solver
    )


def _propagate_compiled(
    board: Board,
    cells: list[int],
    dirty_rows: set[int],
    dirty_cols: set[int],
    stats: Stats | None,
    max_passes: int | None,
    deadline: Deadline | None,
) -> Contradiction | None:
    rows, cols = list(dirty_rows), list(dirty_cols)
    passes = solves = 0
    broken: Contradiction | None = None
    while (rows or cols) and (max_passes is None or passes < max_passes):
        if deadline is not None and deadline.expired():
            raise TimeLimitReached
        chunk = PASSES_PER_CALL if max_passes is None else min(PASSES_PER_CALL, max_passes - passes)
        found, done, solved, rows, cols = board.kernel.propagate(cells, rows, cols, chunk)
        passes, solves = passes + done, solves + solved
        if found is not None:
            broken = Contradiction(*found)
            break
    if stats is not None:
        stats.count("passes", passes)
        stats.count("line_solves", solves)
    return broken


def propagate_python(
    board: Board,
    cells: list[int],
    dirty_rows: set[int],
    dirty_cols: set[int],
    stats: Stats | None = None,
    record: Recorder | None = None,
    max_passes: int | None = None,
    deadline: Deadline | None = None,
    line_solver: LineSolver | None = None,
) -> Contradiction | None:
    """The propagation loop in Python (the hot loop when the C engine is missing, hence the
    local variables and the counters kept out of the loop)."""
    solver = line_solver or solve_line
    passes = solves = 0
    width = board.width
    row_clues, col_clues = board.rows, board.cols
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
            after = solver(row_clues[r], before)
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
            after = solver(col_clues[c], before)
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


def propagate_board(
    board: Board,
    cells: list[int],
    stats: Stats | None = None,
    record: Recorder | None = None,
    max_passes: int | None = None,
    deadline: Deadline | None = None,
) -> Contradiction | None:
    """Propagation from every line (masks)."""
    every_row, every_col = set(range(board.height)), set(range(board.width))
    return propagate(board, cells, every_row, every_col, stats, record, max_passes, deadline)


def assume(
    board: Board,
    cells: list[int],
    cell: int,
    mask: int,
    stats: Stats | None = None,
    record: Recorder | None = None,
    deadline: Deadline | None = None,
) -> Contradiction | None:
    """Narrow one cell to `mask` and propagate from its row and column."""
    cells[cell] = mask
    row, col = divmod(cell, board.width)
    return propagate(board, cells, {row}, {col}, stats, record, deadline=deadline)


# -- probing ------------------------------------------------------------------------------------
@dataclass
class ProbeResult:
    cell: int
    tried: int
    """The colour (a value, for a black-and-white puzzle's callers) that broke a line."""
    broken: Contradiction


class ProbeMemo:
    """Probes that ended without a contradiction, with the fixpoint each one reached.

    Propagation is monotone: from a state that agrees with such a fixpoint, the same probe
    can only end inside it again, with no contradiction. So while every cell learned since
    (the `log`) agrees with the stored fixpoint, the probe is skipped. On hard puzzles this
    removes most of the repeated work of scanning every cell after each success. (The C
    engine keeps its own memo, the same idea with the changed cells only.)
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


def find_probe_board(
    board: Board,
    cells: list[int],
    start: int = 0,
    stats: Stats | None = None,
    deadline: Deadline | None = None,
    solution: Sequence[int] | None = None,
    memo: ProbeMemo | None = None,
) -> ProbeResult | None:
    """The first undecided cell (from `start`, wrapping) with a colour that breaks a line
    (masks; `tried` is the colour). With the solution known (grading), only the wrong colours
    of each cell are tried: only those can break a line, so half the work, same answer."""
    if board.kernel is not None:
        return _find_probe_compiled(board, cells, start, stats, deadline, solution, memo)
    open_cells = [i for i, mask in enumerate(cells) if mask & (mask - 1)]
    split = bisect_left(open_cells, start)
    for cell in open_cells[split:] + open_cells[:split]:
        for colour in board.colour_order(cells[cell]):
            if solution is not None and solution[cell] == 1 << colour:
                continue
            if deadline is not None and deadline.expired():
                raise TimeLimitReached
            if memo is not None and memo.known_safe(cell, colour):
                continue
            trial = cells.copy()
            if stats is not None:
                stats.count("probes")
            broken = assume(board, trial, cell, 1 << colour, stats)
            if broken is not None:
                return ProbeResult(cell, colour, broken)
            if memo is not None:
                memo.remember(cell, colour, trial)
    return None


def _find_probe_compiled(
    board: Board,
    cells: list[int],
    start: int,
    stats: Stats | None,
    deadline: Deadline | None,
    solution: Sequence[int] | None,
    memo: ProbeMemo | None,
) -> ProbeResult | None:
    """find_probe in C, in slices of PROBE_SLICE_S between looks at the deadline (the kernel's
    memo lets each slice skip what the last one tried)."""
    if memo is None:
        board.kernel.forget()
    wanted = None if solution is None else list(solution)
    while True:
        seconds = -1.0 if deadline is None or deadline.end is None else PROBE_SLICE_S
        status, cell, colour, broken, counts = board.kernel.find_probe(
            cells, start, wanted, board.plain, seconds
        )
        _count(stats, counts)
        if status == 1:
            return ProbeResult(cell, colour, Contradiction(*broken))
        if status == 0:
            return None
        if deadline is not None and deadline.expired():
            raise TimeLimitReached


def _count(stats: Stats | None, counts: tuple[int, int, int]) -> None:
    if stats is not None:
        probes, passes, solves = counts
        if probes:
            stats.count("probes", probes)
        stats.count("passes", passes)
        stats.count("line_solves", solves)


def solve_board_by_logic(
    board: Board,
    cells: list[int],
    stats: Stats | None = None,
    use_probes: bool = True,
    deadline: Deadline | None = None,
    solution: Sequence[int] | None = None,
) -> Contradiction | None:
    """Lines to a fixpoint, then probes, until solved or stuck; None or a contradiction."""
    if use_probes and board.kernel is not None:
        return _solve_compiled(board, cells, stats, deadline, solution)
    broken = propagate_board(board, cells, stats, deadline=deadline)
    start = 0
    memo = ProbeMemo()
    while broken is None and use_probes and undecided(cells):
        found = find_probe_board(board, cells, start, stats, deadline, solution, memo)
        if found is None:
            break
        start = found.cell
        before = cells.copy()
        narrowed = cells[found.cell] & ~(1 << found.tried)
        broken = assume(board, cells, found.cell, narrowed, stats, deadline=deadline)
        memo.record_changes(before, cells)
    return broken


def _solve_compiled(
    board: Board,
    cells: list[int],
    stats: Stats | None,
    deadline: Deadline | None,
    solution: Sequence[int] | None,
) -> Contradiction | None:
    if deadline is not None and deadline.expired():
        raise TimeLimitReached
    left = None if deadline is None else deadline.remaining()
    wanted = None if solution is None else list(solution)
    status, broken, counts = board.kernel.solve_by_logic(
        cells, wanted, board.plain, -1.0 if left is None else left
    )
    _count(stats, counts)
    if status == 2:
        raise TimeLimitReached
    return None if broken is None else Contradiction(*broken)


# -- the same on a puzzle, in its own cell values -------------------------------------------------
@contextmanager
def as_masks(board: Board, cells: list[int]) -> Iterator[list[int]]:
    """The cells as masks: the list itself for a colour puzzle; for black-and-white a list of
    masks, written back into `cells` as values afterwards (also when a time limit ends it)."""
    if not board.plain:
        yield cells
        return
    masks = [MASK_OF_VALUE[v] for v in cells]
    try:
        yield masks
    finally:
        cells[:] = [VALUE_OF_MASK[m] for m in masks]


def _recorder_in_values(board: Board, record: Recorder | None) -> Recorder | None:
    if record is None or not board.plain:
        return record

    def in_values(kind: str, index: int, before: Line, after: Line) -> None:
        record(kind, index, values_of(before), values_of(after))

    return in_values


def solution_masks(board: Board, solution: Sequence[int] | None) -> Sequence[int] | None:
    """A known solution in the puzzle's values as masks."""
    if solution is None or not board.plain:
        return solution
    return [MASK_OF_VALUE[v] for v in solution]


def values_of(masks: Sequence[int]) -> tuple[int, ...]:
    """One-colour masks as black-and-white cell values."""
    return tuple(VALUE_OF_MASK[m] for m in masks)


def propagate_all(
    puzzle: LinePuzzle,
    cells: list[int],
    stats: Stats | None = None,
    record: Recorder | None = None,
    max_passes: int | None = None,
    deadline: Deadline | None = None,
) -> Contradiction | None:
    """Propagation from every line of the puzzle, on cells in its own values."""
    board = puzzle.board
    with as_masks(board, cells) as masks:
        in_values = _recorder_in_values(board, record)
        return propagate_board(board, masks, stats, in_values, max_passes, deadline)


def find_probe(
    puzzle: LinePuzzle,
    cells: list[int],
    start: int = 0,
    stats: Stats | None = None,
    deadline: Deadline | None = None,
    solution: Sequence[int] | None = None,
    memo: ProbeMemo | None = None,
) -> ProbeResult | None:
    """find_probe_board on cells in the puzzle's values; `tried` is a value (FILLED, EMPTY)
    for black-and-white, a colour for colour puzzles."""
    board = puzzle.board
    with as_masks(board, cells) as masks:
        wanted = solution_masks(board, solution)
        found = find_probe_board(board, masks, start, stats, deadline, wanted, memo)
    if found is not None and board.plain:
        found.tried = FILLED if found.tried else EMPTY
    return found


def solve_by_logic(
    puzzle: LinePuzzle,
    cells: list[int],
    stats: Stats | None = None,
    use_probes: bool = True,
    deadline: Deadline | None = None,
    solution: Sequence[int] | None = None,
) -> Contradiction | None:
    """solve_board_by_logic on cells in the puzzle's values."""
    board = puzzle.board
    with as_masks(board, cells) as masks:
        wanted = solution_masks(board, solution)
        return solve_board_by_logic(board, masks, stats, use_probes, deadline, wanted)


def other(value: int) -> int:
    """The other black-and-white value."""
    return EMPTY if value == FILLED else FILLED
