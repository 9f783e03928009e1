"""A Double Choco board as printed (`Genre.draw`): grey cells shaded (grey, or hatched for
printers without halftones: the page layout decides from the style), fine cell lines, numbers
centred, the walls of a played or solved board and the outer border heavy."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pencilbox.core.drawing import FINE, HEAVY, SHADE, Drawing, PrintStyle
from pencilbox.genres.dbchoco.board import QUESTION, WALL, Walls

if TYPE_CHECKING:
    from pencilbox.genres.dbchoco.model import DoubleChoco

NUMBER_SIZE = 0.6
"""Numbers' font size in cells."""


def draw(puzzle: DoubleChoco, state: Walls | None, style: PrintStyle) -> Drawing:
    """The printed board; `state` None: no walls drawn."""
    drawing = Drawing(puzzle.width, puzzle.height)
    for r in range(puzzle.height):
        for c in range(puzzle.width):
            if puzzle.is_gray(r, c):
                drawing.box(c, r, fill=SHADE)
            value = puzzle.number(r, c)
            if value is not None:
                label = "?" if value == QUESTION else str(value)
                drawing.text(c + 0.5, r + 0.5, label, NUMBER_SIZE, fit=0.85)
    for c in range(1, puzzle.width):
        drawing.line(c, 0, c, puzzle.height, FINE)
    for r in range(1, puzzle.height):
        drawing.line(0, r, puzzle.width, r, FINE)
    if state is not None:
        _walls(drawing, puzzle, state)
    drawing.border(0, 0, puzzle.width, puzzle.height)
    return drawing


def _walls(drawing: Drawing, puzzle: DoubleChoco, walls: Walls) -> None:
    geo = puzzle.geometry
    for e in range(geo.count):
        if walls.edges[e] != WALL:
            continue
        (r1, _), (r2, c2) = geo.cells(e)
        if r1 == r2:  # a wall between two cells of a row: vertical
            drawing.line(c2, r2, c2, r2 + 1, HEAVY)
        else:
            drawing.line(c2, r2, c2 + 1, r2, HEAVY)
