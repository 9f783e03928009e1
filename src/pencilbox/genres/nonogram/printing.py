"""A nonogram as printed puzzle books set it (`Genre.draw`): every clue number in its own cell
of the grid's lattice, row clues right-aligned to the grid's left, column clues stacked up from
its top, a heavy border around clues and grid, and a bold line every 5 cells that runs through
the clues too, so a solver's eye finds row 23 and its clue at once. Colour puzzles print each
number on a chip of its colour. Any state prints: empty, part-played (crossed cells get a small
grey cross) or solved."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pencilbox.core.drawing import BOLD, FINE, GREY_TEXT, HEAVY, Drawing, PrintStyle
from pencilbox.core.grid import Grid
from pencilbox.genres.nonogram.cells import EMPTY, FILLED, UNKNOWN

if TYPE_CHECKING:
    from pencilbox.genres.nonogram.colour.model import ColourNonogram
    from pencilbox.genres.nonogram.model import Nonogram

CLUE_SIZE = 0.74
"""Clue numbers' font size in cells: 7 pt at 3.4 mm cells (a 50x50 puzzle with
8 clues a line on A4); a number of two digits is set narrower to fit its cell."""
FILL = "#1a1a1a"
EVERY = 5


def draw(puzzle: Any, state: Grid | None, style: PrintStyle) -> Drawing:
    """The printed puzzle; `state` None: empty."""
    if hasattr(puzzle, "colours"):
        return _colour(puzzle, state)
    return _plain(puzzle, state)


def _depths(rows: Any, cols: Any) -> tuple[int, int]:
    """Clue cells left of the grid and above it (at least one each, for the 0 of a blank line)."""
    return max((len(c) for c in rows), default=1) or 1, max((len(c) for c in cols), default=1) or 1


def _lattice(drawing: Drawing, left: int, top: int, width: int, height: int) -> None:
    """The lines of clue areas and grid: the grid's own and, through the clue areas, the
    continuations of its lines (bold every 5) and the clue cells' separators."""
    for c in range(1, width):
        bold = c % EVERY == 0
        drawing.line(left + c, 0, left + c, top, BOLD if bold else FINE)
        drawing.line(left + c, top, left + c, top + height, BOLD if bold else FINE)
    for r in range(1, height):
        bold = r % EVERY == 0
        drawing.line(0, top + r, left, top + r, BOLD if bold else FINE)
        drawing.line(left, top + r, left + width, top + r, BOLD if bold else FINE)
    for k in range(1, top):  # between stacked column clues
        drawing.line(left, k, left + width, k, FINE)
    for k in range(1, left):  # between row clues
        drawing.line(k, top, k, top + height, FINE)
    drawing.border(left, 0, width, top)  # the clue areas, framed
    drawing.border(0, top, left, height)
    drawing.border(left, top, width, height, HEAVY)


def _plain(puzzle: Nonogram, state: Grid | None) -> Drawing:
    left, top = _depths(puzzle.rows, puzzle.cols)
    drawing = Drawing(left + puzzle.width, top + puzzle.height)
    for r, clue in enumerate(puzzle.rows):
        for k, run in enumerate(reversed(clue or (0,))):
            drawing.text(left - k - 0.5, top + r + 0.5, str(run), CLUE_SIZE, fit=0.72)
    for c, clue in enumerate(puzzle.cols):
        for k, run in enumerate(reversed(clue or (0,))):
            drawing.text(left + c + 0.5, top - k - 0.5, str(run), CLUE_SIZE, fit=0.72)
    if state is not None:
        _cells(drawing, state, left, top)
    _lattice(drawing, left, top, puzzle.width, puzzle.height)
    return drawing


def _cells(drawing: Drawing, state: Grid, left: int, top: int) -> None:
    """Filled cells black; crossed-out cells with a small grey cross, unless every cell is
    known (a solution: the crosses would only clutter it)."""
    crosses = UNKNOWN in state.cells
    for r in range(state.height):
        for c in range(state.width):
            x, y = left + c, top + r
            if state[r, c] == FILLED:
                drawing.box(x, y, fill=FILL)
            elif state[r, c] == EMPTY and crosses:
                drawing.grey_line(x + 0.35, y + 0.35, x + 0.65, y + 0.65)
                drawing.grey_line(x + 0.65, y + 0.35, x + 0.35, y + 0.65)


def _colour(puzzle: ColourNonogram, state: Grid | None) -> Drawing:
    from pencilbox.genres.nonogram.colour.cells import BACKGROUND
    from pencilbox.genres.nonogram.colour.render import ink

    left, top = _depths(puzzle.rows, puzzle.cols)
    drawing = Drawing(left + puzzle.width, top + puzzle.height)
    chips = [
        (left - k - 1, top + r, run)
        for r, clue in enumerate(puzzle.rows)
        for k, run in enumerate(reversed(clue))
    ]
    chips += [
        (left + c, top - k - 1, run)
        for c, clue in enumerate(puzzle.cols)
        for k, run in enumerate(reversed(clue))
    ]
    for x, y, (length, colour) in chips:
        hex_colour = puzzle.colours[colour].hex
        drawing.box(x + 0.08, y + 0.08, 0.84, 0.84, fill=hex_colour)
        drawing.text(x + 0.5, y + 0.5, str(length), CLUE_SIZE, ink(hex_colour), fit=0.8)
    for r in range(puzzle.height if state is not None else 0):
        for c in range(puzzle.width):
            mask = state[r, c] if state is not None else 0
            if mask == 1 << BACKGROUND:
                drawing.text(left + c + 0.5, top + r + 0.5, "·", CLUE_SIZE, GREY_TEXT)
            elif mask and not mask & (mask - 1):
                drawing.box(left + c, top + r, fill=puzzle.colours[mask.bit_length() - 1].hex)
    _lattice(drawing, left, top, puzzle.width, puzzle.height)
    return drawing
