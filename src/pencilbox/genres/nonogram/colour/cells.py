"""The values of a colour nonogram, below the puzzle class: the background, a run (length,
colour) and a clue, the runs of a line, and a grid as text. The colour engines work on these;
they know the puzzle class (`model.ColourNonogram`) only as a type."""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import TYPE_CHECKING

from pencilbox.core.grid import Grid

if TYPE_CHECKING:
    from pencilbox.genres.nonogram.colour.model import ColourNonogram

BACKGROUND = 0
BACKGROUND_CHAR = "."
UNKNOWN_CHAR = "?"

Run = tuple[int, int]
"""(length, colour index)"""
ColourClue = tuple[Run, ...]

# A few CSS names that files use for colours, so that formats which need hex (webpbn) can
# write them; other names are kept as they are (SVG and Pillow know every CSS name).


def grid_to_strings(puzzle: ColourNonogram, grid: Grid) -> list[str]:
    return ["".join(puzzle.char_of(v) for v in row) for row in grid.rows()]


def runs_of(puzzle_line: Iterable[int]) -> ColourClue:
    """The coloured runs of a decided line of masks. (A plain loop: every solution is checked
    with it, and it is several times faster than grouping with itertools.)"""
    runs: list[Run] = []
    background = 1 << BACKGROUND
    current, count = background, 0
    for mask in puzzle_line:
        if mask == current:
            count += 1
            continue
        if current != background:
            runs.append((count, current.bit_length() - 1))
        current, count = mask, 1
    if current != background:
        runs.append((count, current.bit_length() - 1))
    return tuple(runs)


def clues_of(grid: Grid) -> tuple[tuple[ColourClue, ...], tuple[ColourClue, ...]]:
    """The row and column clues of a decided grid of masks."""
    rows = tuple(runs_of(grid.row(r)) for r in range(grid.height))
    cols = tuple(runs_of(grid.column(c)) for c in range(grid.width))
    return rows, cols


def needed_cells(clue: ColourClue) -> int:
    """The shortest line that holds the clue: its runs, plus a gap between same colours."""
    gaps = sum(1 for a, b in itertools.pairwise(clue) if a[1] == b[1])
    return sum(n for n, _ in clue) + gaps
