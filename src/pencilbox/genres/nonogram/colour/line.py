"""The exact colour line solver: every colour each cell can take in some placement of a clue.

The same dynamic programme as the black-and-white solver (line.py), with the colour rule in
the step from one run to the next: after run j-1, run j may start at once when its colour
differs, and only after at least one background cell when it is the same. Each table row is a
Python integer used as a bit set over the boundaries of the line, so one row costs a few
shifts, ANDs and an addition; the whole solve is O(runs x colours) such operations, that is
O(length x runs x colours) bit work, with no placement ever listed.

A line is a tuple of masks (bit 0 background, bit c colour c). A cell may be colour c when a
run of colour c that can start somewhere covers it; it may be background when the runs before
it fit to its left and the runs after it fit to its right.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from pencilbox.genres.nonogram.colour.model import BACKGROUND, ColourClue
from pencilbox.genres.nonogram.line import _reverse_bits, _slide, _spread, _windows

Line = tuple[int, ...]


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
    found = placements(clue, line)
    if found is None:
        return None
    narrowed = found.cell_masks()
    return tuple(old & new for old, new in zip(line, narrowed))


def colour_bits(line: Line, colours: int) -> list[int]:
    """allowed[c]: the cells (as bits) whose mask still holds colour c."""
    allowed = [0] * colours
    for i, mask in enumerate(line):
        bit = 1 << i
        colour = 0
        while mask:
            if mask & 1:
                allowed[colour] |= bit
            mask >>= 1
            colour += 1
    return allowed


def placements(clue: ColourClue, line: Line) -> ColourPlacements | None:
    n = len(line)
    colours = max((mask.bit_length() for mask in line), default=1)
    colours = max(colours, max((c + 1 for _, c in clue), default=1))
    allowed = colour_bits(line, colours)
    background = allowed[BACKGROUND]
    if not clue:
        if background != (1 << n) - 1:
            return None
        return ColourPlacements((), (background,) + (0,) * (colours - 1), n)
    forward = _forward(clue, allowed)
    if not forward[-1] >> n & 1:
        return None
    backward = _backward(clue, allowed, n)
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


def _backward(clue: ColourClue, allowed: list[int], n: int) -> list[int]:
    """backward[j]: boundaries i such that runs j.. fit in the cells from i on: the forward
    table of the mirrored line and clue, read back to front."""
    mirrored = _forward(clue[::-1], [_reverse_bits(mask, n) for mask in allowed])
    return [_reverse_bits(mask, n + 1) for mask in reversed(mirrored)]
