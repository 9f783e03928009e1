"""The exact line solver: every colour each cell can take in some placement of a clue.

A line is a tuple of colour masks (bit 0 the background, bit c colour c; a black-and-white
puzzle is the case of one colour: 1 empty, 2 filled, 3 unknown) and a clue a tuple of runs
(length, colour). Instead of listing placements (exponential on long lines), it answers two
questions for every boundary i between cells: can runs 0..j-1 fit in the cells before i
("forward"), and can runs j.. fit in the cells from i on ("backward")? A run may start at s
when both halves fit around it; a cell may be background when some split of the runs leaves it
in a gap. After run j-1, run j may start at once when its colour differs, and only after a
background cell when it is the same. That is the classic O(length x runs) dynamic programme;
here each table row is one Python integer used as a bit set, so a whole row is computed with a
handful of shifts, ANDs and one addition (the carry of an addition walks across a stretch of
cells that may stay background, which is exactly "slide the end of the previous run to the
right"). Long lines (512 cells, 100 runs) cost microseconds instead of milliseconds.

Solving a line for propagation goes to the compiled engine (_engine.c: the same programme, bit
by bit for one colour, cell by cell for more) when it is built; this module is its fallback and
the oracle the tests compare it with. `placements`, which the explanations need, is always this
one. Bit i of a cell mask is cell i; bit i of a boundary mask is the boundary before cell i
(boundary n is the end of the line).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from pencilbox.core import compiled
from pencilbox.genres.nonogram.cells import EMPTY, FILLED, UNKNOWN, Clue
from pencilbox.genres.nonogram.colour.cells import BACKGROUND, ColourClue

Line = tuple[int, ...]


Starts = Callable[[ColourClue, Line], "Sequence[list[int]] | None"]


KERNEL = compiled.load("pencilbox.genres.nonogram._engine")
"""The compiled engine (_engine.c): the same line answers, and logic.py's loops; None without
a C compiler at install."""
_compiled: Callable[[ColourClue, Line], Line | None] | None = (
    None if KERNEL is None else KERNEL.solve_line
)
_compiled_starts: Starts | None = None if KERNEL is None else KERNEL.run_starts


@dataclass(frozen=True)
class ColourPlacements:
    """Where each run may start, and where each colour may go (one cell bit set per colour)."""

    start_masks: tuple[int, ...]
    possible: tuple[int, ...]
    """possible[c]: bit i set when cell i may be colour c (c = 0 is the background)."""
    length: int

    def cell_masks(self) -> Line:
        """The colour mask of each cell."""
        masks = [0] * self.length
        for colour, cells in enumerate(self.possible):
            bit = 1 << colour
            while cells:
                low = cells & -cells
                masks[low.bit_length() - 1] |= bit
                cells ^= low
        return tuple(masks)

    def runs_covering(self, clue: ColourClue, cell: int) -> list[int]:
        """Indices of the runs that cover `cell` in at least one placement."""
        return [
            j
            for j, ((length, _), mask) in enumerate(zip(clue, self.start_masks))
            if _spread(mask, length) >> cell & 1
        ]


def solve_line(clue: ColourClue, line: Line) -> Line | None:
    """The line with every cell narrowed to its possible colours; None when no placement fits."""
    return _solve_cached(clue, line)


@lru_cache(maxsize=200_000)
def _solve_cached(clue: ColourClue, line: Line) -> Line | None:
    if _compiled is not None:
        try:
            return _compiled(clue, line)
        except (ValueError, OverflowError):  # more colours than 64 bits hold
            pass
    return solve_line_python(clue, line)


def solve_line_python(clue: ColourClue, line: Line) -> Line | None:
    """solve_line on bit sets in Python: the fallback without the compiled solver, and the
    other half of the test that the two agree."""
    colours = _colour_count(clue, line)
    allowed = colour_bits(line, colours)
    mirrored = colour_bits(line[::-1], colours)
    found = _placements(clue, allowed, mirrored, len(line))
    if found is None:
        return None
    result: list[int] | None = None
    for colour, cells in enumerate(found.possible):
        gone = allowed[colour] & ~cells
        if not gone:
            continue
        result = result or list(line)
        keep = ~(1 << colour)
        while gone:  # only the cells that lose this colour are touched
            low = gone & -gone
            result[low.bit_length() - 1] &= keep
            gone ^= low
    return line if result is None else tuple(result)


def run_starts(clue: ColourClue, line: Line) -> Sequence[list[int]] | None:
    """The starts each run may take, ascending; None when no placement fits the line."""
    if _compiled_starts is not None:
        try:
            return _compiled_starts(clue, line)
        except (ValueError, OverflowError):  # more colours than 64 bits hold
            pass
    found = placements(clue, line)
    return None if found is None else tuple(_bits(mask) for mask in found.start_masks)


def _bits(mask: int) -> list[int]:
    positions = []
    while mask:
        low = mask & -mask
        positions.append(low.bit_length() - 1)
        mask ^= low
    return positions


def _colour_count(clue: ColourClue, line: Line) -> int:
    return max(max(line, default=1).bit_length(), max((c for _, c in clue), default=0) + 1)


TABLE_COLOURS = 8
"""Up to this many colours (background included) colour_bits uses translate tables."""


@lru_cache(maxsize=16)
def _translations(colours: int) -> tuple[dict[int, str], ...]:
    """Per colour c, a str.translate table: the character chr(mask) -> '1' if the mask holds
    c, else '0' (masks are below 2**colours)."""
    return tuple(
        {mask: "1" if mask >> colour & 1 else "0" for mask in range(1 << colours)}
        for colour in range(colours)
    )


def colour_bits(line: Line, colours: int) -> list[int]:
    """allowed[c]: the cells (as bits) whose mask still holds colour c. Up to TABLE_COLOURS
    colours, the line is written as one character per cell (last cell first, so it is the
    most significant bit) and each colour read off with one str.translate, at C speed."""
    if colours > TABLE_COLOURS:
        return _colour_bits_by_cell(line, colours)
    text = "".join(map(chr, reversed(line))) or "0"
    return [int(text.translate(table), 2) for table in _translations(colours)]


def _colour_bits_by_cell(line: Line, colours: int) -> list[int]:
    allowed = [0] * colours
    for i, mask in enumerate(line):
        for colour in range(mask.bit_length()):
            if mask >> colour & 1:
                allowed[colour] |= 1 << i
    return allowed


def placements(clue: ColourClue, line: Line) -> ColourPlacements | None:
    colours = _colour_count(clue, line)
    mirrored = colour_bits(line[::-1], colours)
    return _placements(clue, colour_bits(line, colours), mirrored, len(line))


def _placements(
    clue: ColourClue, allowed: list[int], mirrored: list[int], n: int
) -> ColourPlacements | None:
    colours = len(allowed)
    background = allowed[BACKGROUND]
    if not clue:
        if background != (1 << n) - 1:
            return None
        return ColourPlacements((), (background,) + (0,) * (colours - 1), n)
    forward = _forward(clue, allowed)
    if not forward[-1] >> n & 1:
        return None
    backward = _backward(clue, mirrored, n)
    k = len(clue)
    possible = [0] * colours
    start_masks = []
    for j, (length, colour) in enumerate(clue):
        prefix = _next_starts(clue, j, forward[j], background)
        if j == k - 1:
            suffix = backward[k] >> length
        elif clue[j + 1][1] == colour:
            suffix = ((backward[j + 1] >> 1) & background) >> length
        else:
            suffix = backward[j + 1] >> length
        starts = _windows(allowed[colour], length) & prefix & suffix
        start_masks.append(starts)
        possible[colour] |= _spread(starts, length)
    empty = 0
    for j in range(k + 1):
        empty |= forward[j] & (backward[j] >> 1)
    possible[BACKGROUND] = empty & background
    return ColourPlacements(tuple(start_masks), tuple(possible), n)


def _next_starts(clue: ColourClue, j: int, reach: int, background: int) -> int:
    """Where run j may start given `reach`, the boundaries where runs 0..j-1 may have ended
    (followed by background): at once after a run of another colour, after a gap otherwise."""
    if j == 0 or clue[j - 1][1] != clue[j][1]:
        return reach
    return (reach & background) << 1


def _forward(clue: ColourClue, allowed: list[int]) -> list[int]:
    """forward[j]: boundaries i such that runs 0..j-1 fit in the cells before i."""
    background = allowed[BACKGROUND]
    reach = [_slide(1, background)]
    for j, (length, colour) in enumerate(clue):
        starts = _next_starts(clue, j, reach[j], background)
        ends = (starts & _windows(allowed[colour], length)) << length
        reach.append(_slide(ends, background))
    return reach


def _backward(clue: ColourClue, mirrored: list[int], n: int) -> list[int]:
    """backward[j]: boundaries i such that runs j.. fit in the cells from i on: the forward
    table of the mirrored line (`mirrored`: its colour bits) and clue, read back to front."""
    table = _forward(clue[::-1], mirrored)
    return [_reverse_bits(mask, n + 1) for mask in reversed(table)]


def _slide(seeds: int, passable: int) -> int:
    """Boundaries reachable from `seeds` by stepping right over cells in `passable`.

    Adding the seeds to the passable mask makes the carry run through each stretch of
    passable cells that holds a seed and stop just after it; the XOR shows every bit it
    touched, which is every boundary reached.
    """
    return seeds | ((passable + (seeds & passable)) ^ passable)


def _windows(mask: int, length: int) -> int:
    """Bits s such that bits s..s+length-1 of `mask` are all set."""
    result, span = mask, 1
    while span * 2 <= length:
        result &= result >> span
        span *= 2
    if span < length:
        result &= result >> (length - span)
    return result


def _spread(starts: int, length: int) -> int:
    """Cells covered by a run of `length` starting at any bit of `starts`."""
    result, span = starts, 1
    while span * 2 <= length:
        result |= result << span
        span *= 2
    if span < length:
        result |= result << (length - span)
    return result


_BYTE_REVERSED = bytes(int(f"{b:08b}"[::-1], 2) for b in range(256))


def _reverse_bits(mask: int, width: int) -> int:
    """The lowest `width` bits of `mask` in reverse order: the bytes reversed, the bits of
    each byte reversed by a table, then the padding of the last byte shifted out."""
    size = (width + 7) >> 3
    flipped = mask.to_bytes(size, "little").translate(_BYTE_REVERSED)
    return int.from_bytes(flipped, "big") >> (size * 8 - width)


# -- black-and-white lines (UNKNOWN, FILLED, EMPTY) ------------------------------------------
MASK_OF_VALUE = (3, 2, 1)
"""A black-and-white cell value (UNKNOWN 0, FILLED 1, EMPTY 2) as the one-colour mask."""
VALUE_OF_MASK = (UNKNOWN, EMPTY, FILLED, UNKNOWN)
"""A one-colour mask (0 is never a cell's) as the black-and-white cell value."""


def plain_clue(clue: Clue) -> ColourClue:
    """A black-and-white clue as runs of the one colour."""
    return tuple((length, 1) for length in clue)


def solve_plain_line(clue: Clue, line: tuple[int, ...]) -> tuple[int, ...] | None:
    """solve_line on a black-and-white line (cell values) and clue (run lengths)."""
    solved = solve_line(plain_clue(clue), tuple(MASK_OF_VALUE[v] for v in line))
    return None if solved is None else tuple(VALUE_OF_MASK[m] for m in solved)
