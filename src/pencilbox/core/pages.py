"""Printed pages: paper sizes, the legibility rules of printed puzzle books, and the layout of
puzzles (genre `Drawing`s with a caption) N to a page, their solutions upside down below them,
on the following page or at the back. No PDF here: core/pdf.py draws the pages this lays out.

The rules (sizes in mm on paper):
- a cell at least MIN_CELL (5 mm, the smallest box a pencil digit fits in), where the page allows:
  a puzzle too big for the sheet at 5 mm shrinks to fit and a `Notice` suggests a larger sheet;
- numbers at least MIN_TEXT_PT (7 pt): a 50x50 nonogram with its clues on A4 fits at about
  3.5 mm, where its clue numbers are just 7 pt; smaller still, a notice says they are not;
- as many puzzles a page as fit at COMFORT_CELL (6 mm) or more, unless the user says how many.

Coordinates are points (1/72 inch) from the page's top-left corner, y down.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from pencilbox.core.drawing import Drawing

MM = 72 / 25.4
PAPER_MM = {
    "a4": (210.0, 297.0),
    "a3": (297.0, 420.0),
    "letter": (215.9, 279.4),
    "tabloid": (279.4, 431.8),
}
LARGER = {"a4": "a3", "letter": "tabloid"}
"""The sheet to suggest when a puzzle does not fit legibly."""
MARGIN = 10 * MM
MIN_CELL, COMFORT_CELL, MAX_CELL = 5 * MM, 6 * MM, 11 * MM
SOLUTION_CELL, SOLUTION_MAX = 2.5 * MM, 5 * MM
"""Solutions are for checking, not writing in: smaller, more to a page."""
MIN_TEXT_PT = 7.0
MOST_A_PAGE, MOST_SOLUTIONS_A_PAGE = 6, 12
CAPTION_PT, HEADER_PT, FOOTER_PT = 9.0, 12.0, 8.0
CAPTION_BAND = 2.6 * CAPTION_PT
"""The caption's line above a drawing and the gap under it (wide enough that no reader takes
the caption for part of the puzzle)."""
CAPTION_LIFT = CAPTION_BAND - 1.2 * CAPTION_PT
"""The caption's baseline this far above its drawing."""
GUTTER = 7 * MM
"""Between two puzzles side by side or one above the other."""
UPSIDE_DOWN_SHARE = 0.24
"""Of the page's height, kept at its foot for the solutions printed upside down."""


@dataclass(frozen=True)
class Figure:
    """One puzzle (or solution) to place: its drawing and the caption printed above it."""

    drawing: Drawing
    caption: str


@dataclass(frozen=True)
class Placed:
    figure: Figure
    x: float
    y: float
    """The drawing's top-left corner (points from the page's top-left)."""
    cell: float
    """Points a cell."""
    upside_down: bool = False
    room: float = 0.0
    """Points from x to the slot's far edge, the widest the caption may be."""


@dataclass(frozen=True)
class Words:
    """A line of text on a page: `y` its baseline, `align` left, centre or right of x."""

    x: float
    y: float
    text: str
    size: float
    bold: bool = False
    align: str = "left"


@dataclass
class Sheet:
    placed: list[Placed] = field(default_factory=list)
    words: list[Words] = field(default_factory=list)


@dataclass(frozen=True)
class Notice:
    """What the layout could not do as the rules ask (printed by the CLI on stderr)."""

    caption: str
    message: str


@dataclass(frozen=True)
class Area:
    x: float
    y: float
    width: float
    height: float


def paper(name: str) -> tuple[float, float]:
    """The sheet's width and height in points (a4, a3, letter, tabloid)."""
    width, height = PAPER_MM[name]
    return width * MM, height * MM


def body(name: str, header: bool) -> Area:
    """The part of a page puzzles go in: inside the margins, below a header line if any,
    above the page number."""
    width, height = paper(name)
    top = MARGIN + (2 * HEADER_PT if header else 0)
    return Area(MARGIN, top, width - 2 * MARGIN, height - top - MARGIN - 2 * FOOTER_PT)


def cell_in(drawing: Drawing, width: float, height: float, largest: float) -> float:
    """The largest cell (points) at which the drawing and its caption fit in width x height."""
    room = height - CAPTION_BAND
    if room <= 0 or width <= 0:
        return 0.0
    return min(width / drawing.width, room / drawing.height, largest)


def arrangement(figures: list[Figure], area: Area, largest: float) -> tuple[int, int, float]:
    """(columns, rows, cell) for these figures in the area: the grid of slots that gives the
    smallest of them the largest cell."""
    best = (1, len(figures), 0.0)
    for columns in range(1, len(figures) + 1):
        rows = math.ceil(len(figures) / columns)
        slot_w = (area.width - (columns - 1) * GUTTER) / columns
        slot_h = (area.height - (rows - 1) * GUTTER) / rows
        cell = min(cell_in(f.drawing, slot_w, slot_h, largest) for f in figures)
        if cell > best[2]:
            best = (columns, rows, cell)
    return best


def place(
    figures: list[Figure], area: Area, largest: float, upside_down: bool = False
) -> list[Placed]:
    """The figures in a grid of slots over the area, each centred in its slot at one cell
    size (the page looks even), its caption above it."""
    columns, rows, cell = arrangement(figures, area, largest)
    slot_w = (area.width - (columns - 1) * GUTTER) / columns
    slot_h = (area.height - (rows - 1) * GUTTER) / rows
    placed = []
    for index, figure in enumerate(figures):
        row, column = divmod(index, columns)
        if upside_down:  # read with the page turned: the first solution at the far corner
            row, column = rows - 1 - row, columns - 1 - column
        w, h = figure.drawing.width * cell, figure.drawing.height * cell
        x = area.x + column * (slot_w + GUTTER) + (slot_w - w) / 2
        y = area.y + row * (slot_h + GUTTER) + CAPTION_BAND + (slot_h - CAPTION_BAND - h) / 2
        if upside_down:
            y -= CAPTION_BAND
        room = area.x + column * (slot_w + GUTTER) + slot_w - x
        placed.append(Placed(figure, x, y, cell, upside_down, room))
    return placed


def paginate(
    figures: list[Figure],
    area: Area,
    per_page: int | None,
    *,
    target: float = COMFORT_CELL,
    largest: float = MAX_CELL,
    most: int = MOST_A_PAGE,
) -> list[list[Figure]]:
    """The figures cut into pages: `per_page` each, or as many as fit at `target` or more
    (at least one)."""
    pages: list[list[Figure]] = []
    start = 0
    while start < len(figures):
        count = per_page or _fitting(figures[start : start + most], area, target, largest)
        pages.append(figures[start : start + count])
        start += count
    return pages


def _fitting(candidates: list[Figure], area: Area, target: float, largest: float) -> int:
    for count in range(len(candidates), 1, -1):
        if arrangement(candidates[:count], area, largest)[2] >= target:
            return count
    return 1


def notices(placed: list[Placed], page: str) -> list[Notice]:
    """Where a placed figure breaks the legibility rules, and what would mend it."""
    found = []
    larger = LARGER.get(page)
    suggestion = f"; --page {larger} prints it larger" if larger else ""
    for item in placed:
        if item.upside_down:
            continue
        mm = item.cell / MM
        smallest = item.figure.drawing.smallest_text
        text_pt = smallest * item.cell if smallest is not None else None
        if text_pt is not None and text_pt < MIN_TEXT_PT - 0.05:
            message = f"numbers {text_pt:.1f} pt (under {MIN_TEXT_PT:g} pt), cells {mm:.1f} mm"
            found.append(Notice(item.figure.caption, message + suggestion))
        elif item.cell < MIN_CELL - 0.01:
            message = f"cells {mm:.1f} mm (under {MIN_CELL / MM:g} mm)"
            found.append(Notice(item.figure.caption, message + suggestion))
    return found
