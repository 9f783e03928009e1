"""The exact line solver: the cells fixed in every placement of a clue on a partly known line.

Instead of listing placements (exponential on long lines), it answers two questions for every
boundary i between cells: can runs 0..j-1 fit in the cells before i ("forward"), and can runs
j.. fit in the cells from i on ("backward")? A run may start at s when both halves fit around
it; a cell may be empty when some split of the runs leaves it in a gap. That is the classic
O(length x runs) dynamic programme; here each table row is one Python integer used as a bit
set, so a whole row is computed with a handful of shifts, ANDs and one addition (the carry of
an addition walks across a stretch of cells that may stay empty, which is exactly "slide the
end of the previous run to the right"). Long lines (512 cells, 100 runs) cost microseconds
instead of milliseconds.

Bit i of a cell mask is cell i; bit i of a boundary mask is the boundary before cell i
(boundary n is the end of the line).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from pencilbox.genres.nonogram.cells import EMPTY, FILLED, UNKNOWN, Clue

Line = tuple[int, ...]

# str.translate tables turning the digits of a line (0 unknown, 1 filled, 2 empty) into bits.
_NOT_FILLED = str.maketrans("012", "101")
_NOT_EMPTY = str.maketrans("012", "110")


@dataclass(frozen=True)
class Placements:
    """Where each run may start, and which cells may be filled / may be empty."""

    start_masks: tuple[int, ...]
    fill_mask: int
    empty_mask: int
    length: int

    @property
    def starts(self) -> tuple[tuple[int, ...], ...]:
        return tuple(_bits(mask) for mask in self.start_masks)

    @property
    def can_fill(self) -> tuple[bool, ...]:
        return tuple(bool(self.fill_mask >> i & 1) for i in range(self.length))

    @property
    def can_empty(self) -> tuple[bool, ...]:
        return tuple(bool(self.empty_mask >> i & 1) for i in range(self.length))


def solve_line(clue: Clue, line: Line) -> Line | None:
    """The line with every forced cell set; None when no placement agrees with the line."""
    return _solve_cached(clue, line)


@lru_cache(maxsize=200_000)
def _solve_cached(clue: Clue, line: Line) -> Line | None:
    found = placements(clue, line)
    if found is None:
        return None
    fill, empty = found.fill_mask, found.empty_mask
    if fill & empty == (1 << len(line)) - 1:
        return line  # nothing new: every cell can still go either way
    result = list(line)
    for i, value in enumerate(line):
        if value == UNKNOWN:
            if not fill >> i & 1:
                result[i] = EMPTY
            elif not empty >> i & 1:
                result[i] = FILLED
    return tuple(result)


def placements(clue: Clue, line: Line) -> Placements | None:
    n = len(line)
    digits = "".join(map(str, reversed(line)))  # most significant digit = last cell
    not_filled = int(digits.translate(_NOT_FILLED), 2) if n else 0
    not_empty = int(digits.translate(_NOT_EMPTY), 2) if n else 0
    if not clue:
        if not_filled != (1 << n) - 1:
            return None
        return Placements((), 0, not_filled, n)

    forward = _forward(clue, not_filled, not_empty)
    if not forward[-1] >> n & 1:
        return None
    backward = _backward(clue, line, n)

    k = len(clue)
    start_masks = []
    fill = 0
    for j, length in enumerate(clue):
        prefix = forward[0] if j == 0 else (forward[j] & not_filled) << 1
        if j == k - 1:
            suffix = backward[k] >> length
        else:
            suffix = ((backward[j + 1] >> 1) & not_filled) >> length
        starts = _windows(not_empty, length) & prefix & suffix
        start_masks.append(starts)
        fill |= _spread(starts, length)
    empty = 0
    for j in range(k + 1):
        empty |= forward[j] & (backward[j] >> 1)
    return Placements(tuple(start_masks), fill, empty & not_filled, n)


def _forward(clue: Clue, not_filled: int, not_empty: int) -> list[int]:
    """forward[j]: boundaries i such that runs 0..j-1 fit in the cells before i."""
    reach = [_slide(1, not_filled)]
    for j, length in enumerate(clue):
        starts = reach[j] if j == 0 else (reach[j] & not_filled) << 1
        ends = (starts & _windows(not_empty, length)) << length
        reach.append(_slide(ends, not_filled))
    return reach


def _backward(clue: Clue, line: Line, n: int) -> list[int]:
    """backward[j]: boundaries i such that runs j.. fit in the cells from i on.

    It is the forward table of the reversed line and clue, read back to front.
    """
    reverse_line = line[::-1]
    digits = "".join(map(str, reversed(reverse_line)))
    not_filled = int(digits.translate(_NOT_FILLED), 2)
    not_empty = int(digits.translate(_NOT_EMPTY), 2)
    mirrored = _forward(clue[::-1], not_filled, not_empty)
    width = n + 1
    return [_reverse_bits(mask, width) for mask in reversed(mirrored)]


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


def _bits(mask: int) -> tuple[int, ...]:
    positions = []
    while mask:
        low = mask & -mask
        positions.append(low.bit_length() - 1)
        mask ^= low
    return tuple(positions)


def runs_covering(clue: Clue, found: Placements, cell: int) -> list[int]:
    """Indices of the runs that cover `cell` in at least one placement."""
    return [
        j
        for j, (length, mask) in enumerate(zip(clue, found.start_masks))
        if _spread(mask, length) >> cell & 1
    ]
