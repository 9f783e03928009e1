"""A puzzle as it is printed: a list of lines, boxes and numbers in cell units.

A genre draws its puzzle (empty, played or solved) into a `Drawing` (`Genre.draw`); the page
layout (core/pages.py) decides how big a cell is on paper, and core/pdf.py puts the drawing on
a PDF page. So a genre says what a printed puzzle looks like (clue layout, thick lines, grey
cells) and never meets the PDF library, the page size or the number of puzzles a page.

Coordinates are in cells, x to the right and y down from the drawing's top-left corner. Line
widths are in points, as printers think of them (they do not grow with the cells: a 0.4 pt grid
line stays fine in a large sudoku). Text sizes are in cells (the font's size, its em), so the
layout can tell which cell size keeps the smallest number at 7 pt.
"""

from __future__ import annotations

from dataclasses import dataclass, field

FINE, BOLD, HEAVY = 0.45, 1.2, 1.8
"""Line widths in points: cell lines; every fifth line (nonograms) and box lines (sudoku);
the outer border and region walls."""
BLACK, INK, GREY_TEXT = "#000000", "#1f4f99", "#555555"
"""Clues and givens; what a player wrote (dark blue: it prints grey on a mono printer);
secondary text."""
SHADE = "shade"
"""The fill of a shaded cell (Double Choco's grey half): a mid grey that a laser printer
reproduces as an even halftone, or a hatch when the style asks for one (`PrintStyle.hatch`)."""
SHADE_GREY = "#a6a6a6"
"""35% black: light enough for a pencil line to show on it, dark enough that a laser printer's
halftone reads as grey and a scanner or camera tells it from white."""


@dataclass(frozen=True)
class PrintStyle:
    """How the user wants it printed."""

    hatch: bool = False
    """Shaded cells as diagonal hatching instead of grey (printers without halftones)."""


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    width: float = FINE
    colour: str = BLACK


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    w: float
    h: float
    fill: str = BLACK
    """A colour (#rrggbb) or SHADE."""


@dataclass(frozen=True)
class Text:
    x: float
    y: float
    """The centre of the text's box."""
    text: str
    size: float
    """The font size in cells."""
    colour: str = BLACK
    bold: bool = False
    fit: float | None = None
    """The widest it may be, in cells: a longer number is set smaller to fit (a 3-digit clue)."""


@dataclass
class Drawing:
    """What a genre gives for one printed puzzle: its extent in cells and what to draw."""

    width: float
    height: float
    lines: list[Line] = field(default_factory=list)
    boxes: list[Box] = field(default_factory=list)
    texts: list[Text] = field(default_factory=list)

    def line(self, x1: float, y1: float, x2: float, y2: float, width: float = FINE) -> None:
        self.lines.append(Line(x1, y1, x2, y2, width))

    def grey_line(self, x1: float, y1: float, x2: float, y2: float, width: float = FINE) -> None:
        self.lines.append(Line(x1, y1, x2, y2, width, GREY_TEXT))

    def box(self, x: float, y: float, w: float = 1.0, h: float = 1.0, fill: str = BLACK) -> None:
        self.boxes.append(Box(x, y, w, h, fill))

    def text(
        self,
        x: float,
        y: float,
        text: str,
        size: float,
        colour: str = BLACK,
        *,
        bold: bool = False,
        fit: float | None = None,
    ) -> None:
        self.texts.append(Text(x, y, text, size, colour, bold, fit))

    def border(self, x: float, y: float, w: float, h: float, width: float = HEAVY) -> None:
        """A closed rectangle of lines (the grid's outer border)."""
        self.line(x, y, x + w, y, width)
        self.line(x + w, y, x + w, y + h, width)
        self.line(x + w, y + h, x, y + h, width)
        self.line(x, y + h, x, y, width)

    def ruled(self, x: float, y: float, columns: int, rows: int, every: int = 0) -> None:
        """A grid of `columns` x `rows` cells at (x, y): fine lines, a BOLD one every `every`
        lines (0: none), and a HEAVY border."""
        for c in range(1, columns):
            bold = every and c % every == 0
            self.line(x + c, y, x + c, y + rows, BOLD if bold else FINE)
        for r in range(1, rows):
            bold = every and r % every == 0
            self.line(x, y + r, x + columns, y + r, BOLD if bold else FINE)
        self.border(x, y, columns, rows)

    @property
    def smallest_text(self) -> float | None:
        """The smallest font size in cells (None: no text), which the layout keeps legible."""
        return min((t.size for t in self.texts), default=None)
