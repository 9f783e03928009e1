"""A sudoku as printed (`Genre.draw`): fine cell lines, box lines as heavy as the border, givens
in black and what a player entered in dark blue; 16x16 and 25x25 boards print their alphabet's
symbols."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pencilbox.core.drawing import FINE, HEAVY, INK, Drawing, PrintStyle
from pencilbox.core.grid import Grid

if TYPE_CHECKING:
    from pencilbox.genres.sudoku.model import Sudoku

DIGIT_SIZE = 0.62
"""Digits' font size in cells (a 9 mm cell: 16 pt)."""


def draw(puzzle: Sudoku, state: Grid | None, style: PrintStyle) -> Drawing:
    """The printed board; `state` None: the givens alone."""
    size, n = puzzle.size, puzzle.n
    drawing = Drawing(size, size)
    values = (state or puzzle.givens).cells
    for index, value in enumerate(values):
        if value:
            r, c = divmod(index, size)
            colour = "#000000" if puzzle.givens.cells[index] else INK
            symbol = puzzle.alphabet[value - 1]
            drawing.text(c + 0.5, r + 0.5, symbol, DIGIT_SIZE, colour, fit=0.85)
    for i in range(1, size):
        width = HEAVY if i % n == 0 else FINE  # box lines as heavy as the border
        drawing.line(i, 0, i, size, width)
        drawing.line(0, i, size, i, width)
    drawing.border(0, 0, size, size)
    return drawing
