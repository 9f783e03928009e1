"""Laid-out pages (core/pages.py) to a PDF file: vector lines, filled boxes, and numbers as text
in an embedded TrueType font, so a 50x50 nonogram prints sharp at any size and its file stays
small (about 30 KB a page).

Why ReportLab: measured against fpdf2 and pycairo on this job (a 50x50 nonogram page and 100
sudoku pages, vector text in an embedded font; bench/results/print.md has the table), all three
are fast enough by far (0.05-0.45 s for the 101 pages, against a budget of minutes that
generating the puzzles takes) and small enough by far (7-26 KB for the nonogram page, the
target being 200 KB). What tells them apart is what a fresh machine needs: ReportLab is one
pure-Python wheel that ships its own fonts (Bitstream Vera, the face DejaVu grew from, which the
picture reader's digit model knows), so a PDF looks the same from any machine; fpdf2 embeds
only a TrueType file found on the system or carried in the repository; pycairo has no wheel for
Linux, so installing it builds C against libcairo's headers, and its fonts come from fontconfig.
"""

from __future__ import annotations

import functools
import io
import math
from collections import defaultdict
from pathlib import Path
from typing import Any

from pencilbox.core.drawing import SHADE, SHADE_GREY, Drawing, PrintStyle
from pencilbox.core.pages import (
    CAPTION_LIFT,
    CAPTION_PT,
    MIN_CELL,
    MIN_TEXT_PT,
    Placed,
    Sheet,
    Words,
)

FONT, BOLD_FONT = "PencilboxSans", "PencilboxSans-Bold"
BASELINE = 0.364
"""Of the font size, how far below a text box's centre the baseline of a digit sits (half
Vera's digit height), so numbers sit in the middle of their cells."""
Point = tuple[float, float]
HATCH_STEP = 0.25
"""Cells between the lines of a hatched cell."""


@functools.lru_cache(maxsize=1)
def _fonts() -> None:
    """Register ReportLab's own Vera under our names (once a process)."""
    import reportlab
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    folder = Path(reportlab.__file__).parent / "fonts"
    pdfmetrics.registerFont(TTFont(FONT, str(folder / "Vera.ttf")))
    pdfmetrics.registerFont(TTFont(BOLD_FONT, str(folder / "VeraBd.ttf")))


def render(sheets: list[Sheet], size: tuple[float, float], style: PrintStyle, title: str) -> bytes:
    """The PDF file of the sheets, on paper of `size` points."""
    from reportlab.pdfgen import canvas

    _fonts()
    out = io.BytesIO()
    pdf = canvas.Canvas(out, pagesize=size, pageCompression=1, invariant=1)
    pdf.setTitle(title)
    pdf.setCreator("pencilbox")
    for sheet in sheets:
        for item in sheet.placed:
            _figure(pdf, item, size[1], style)
        for words in sheet.words:
            _words(pdf, words, size[1])
        pdf.showPage()
    pdf.save()
    return out.getvalue()


def _words(pdf: Any, words: Words, page_height: float) -> None:
    pdf.setFillColor("#000000")
    pdf.setFont(BOLD_FONT if words.bold else FONT, words.size)
    y = page_height - words.y
    if words.align == "centre":
        pdf.drawCentredString(words.x, y, words.text)
    elif words.align == "right":
        pdf.drawRightString(words.x, y, words.text)
    else:
        pdf.drawString(words.x, y, words.text)


def _figure(pdf: Any, item: Placed, page_height: float, style: PrintStyle) -> None:
    """One drawing: its units become cells of `item.cell` points, y down, turned half a
    turn when it is printed upside down; its caption above it (below it, turned)."""
    drawing = item.figure.drawing
    pdf.saveState()
    pdf.translate(item.x, page_height - item.y)
    pdf.scale(item.cell, -item.cell)
    if item.upside_down:
        pdf.translate(drawing.width, drawing.height)
        pdf.rotate(180)
    thinner = min(1.0, math.sqrt(item.cell / MIN_CELL))  # tiny solutions: lighter lines
    _boxes(pdf, drawing, style, item.cell / thinner)
    _lines(pdf, drawing, item.cell / thinner)
    _texts(pdf, drawing)
    _caption(pdf, item)
    pdf.restoreState()


def _caption(pdf: Any, item: Placed) -> None:
    """Above the drawing, its baseline CAPTION_LIFT points over the grid's top edge; set
    smaller (down to MIN_TEXT_PT) and then cut short to fit its slot."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    caption, room = item.figure.caption, item.room or item.figure.drawing.width * item.cell
    size = max(
        MIN_TEXT_PT, min(CAPTION_PT, CAPTION_PT * room / stringWidth(caption, FONT, CAPTION_PT))
    )
    while len(caption) > 4 and stringWidth(caption, FONT, size) > room:
        caption = caption[:-2].rstrip() + "\u2026"
    text = pdf.beginText()
    text.setFont(FONT, size / item.cell)
    text.setFillColor("#000000")
    text.setTextTransform(1, 0, 0, -1, 0, -CAPTION_LIFT / item.cell)
    text.textOut(caption)
    pdf.drawText(text)


def _boxes(pdf: Any, drawing: Drawing, style: PrintStyle, cell: float) -> None:
    hatched = []
    for box in drawing.boxes:
        if box.fill == SHADE and style.hatch:
            hatched.append(box)
            continue
        pdf.setFillColor(SHADE_GREY if box.fill == SHADE else box.fill)
        pdf.rect(box.x, box.y, box.w, box.h, stroke=0, fill=1)
    if hatched:
        path = pdf.beginPath()
        for box in hatched:
            for (x1, y1), (x2, y2) in _hatch(box.x, box.y, box.w, box.h):
                path.moveTo(x1, y1)
                path.lineTo(x2, y2)
        pdf.setStrokeColor("#000000")
        pdf.setLineWidth(0.5 / cell)
        pdf.drawPath(path, stroke=1, fill=0)


def _hatch(x: float, y: float, w: float, h: float) -> list[tuple[Point, Point]]:
    """Diagonal strokes across a box (lower left to upper right), HATCH_STEP apart."""
    strokes = []
    steps = int((w + h) / HATCH_STEP)
    for k in range(1, steps):
        t = k * HATCH_STEP
        start = (x + min(t, w), y + max(0.0, t - w))
        end = (x + max(0.0, t - h), y + min(t, h))
        strokes.append((start, end))
    return strokes


def _lines(pdf: Any, drawing: Drawing, cell: float) -> None:
    """All lines of one width and colour as one path (a small file, and one stroke each)."""
    groups: dict[tuple[float, str], list[Any]] = defaultdict(list)
    for line in drawing.lines:
        groups[(line.width, line.colour)].append(line)
    pdf.setLineCap(2)  # square ends: borders close at their corners
    for (width, colour), lines in sorted(groups.items()):
        path = pdf.beginPath()
        for line in lines:
            path.moveTo(line.x1, line.y1)
            path.lineTo(line.x2, line.y2)
        pdf.setStrokeColor(colour)
        pdf.setLineWidth(width / cell)
        pdf.drawPath(path, stroke=1, fill=0)


def _texts(pdf: Any, drawing: Drawing) -> None:
    """Every number centred on its point, in one text object (units: cells). A number wider
    than its `fit` is set condensed (narrower, as tall), as printed books set a clue of two
    digits in one cell."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    if not drawing.texts:
        return
    text = pdf.beginText()
    current: tuple[str, float, str, float] | None = None
    for item in drawing.texts:
        font = BOLD_FONT if item.bold else FONT
        width = stringWidth(item.text, font, item.size)
        squeeze = 100.0
        if item.fit is not None and width > item.fit:
            squeeze, width = 100.0 * item.fit / width, item.fit
        if current != (font, item.size, item.colour, squeeze):
            text.setFont(font, item.size)
            text.setFillColor(item.colour)
            text.setHorizScale(squeeze)
            current = (font, item.size, item.colour, squeeze)
        text.setTextTransform(1, 0, 0, -1, item.x - width / 2, item.y + BASELINE * item.size)
        text.textOut(item.text)
    pdf.drawText(text)
