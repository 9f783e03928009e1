"""Pictures of a Double Choco grid with any wall state: text for terminals, SVG for files,
PNG (the SVG's picture drawn with Pillow) for sharing.

Text: each cell is two characters (`  ` white, `░░` gray, or its number) between wall
characters; `|` and `---` are walls, `:` and `...` undecided edges, blanks open edges.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from pencilbox.genres.dbchoco.board import QUESTION, UNDECIDED, WALL, Walls

if TYPE_CHECKING:
    from PIL.ImageDraw import ImageDraw

    from pencilbox.genres.dbchoco.model import DoubleChoco

GRAY = "#cccccc"
MARGIN = 2
"""SVG units around the grid, so the thick outer border is not cut in half."""


def _label(value: int | None) -> str:
    if value is None:
        return ""
    return "?" if value == QUESTION else str(value)


def text(puzzle: DoubleChoco, walls: Walls | None = None) -> str:
    geo = puzzle.geometry
    edges = walls.edges if walls is not None else (UNDECIDED,) * geo.count

    def mark(e: int, wall: str, unknown: str, open_: str) -> str:
        return wall if edges[e] == WALL else unknown if edges[e] == UNDECIDED else open_

    lines = ["+" + "---+" * puzzle.width]
    for r in range(puzzle.height):
        row = "|"
        for c in range(puzzle.width):
            label = _label(puzzle.number(r, c))
            fill = "░" if puzzle.is_gray(r, c) else " "
            row += (label.rjust(2, fill) + fill)[:3] if label else fill * 3
            row += "|" if c == puzzle.width - 1 else mark(geo.right(r, c), "|", ":", " ")
        lines.append(row)
        if r < puzzle.height - 1:
            line = "+"
            for c in range(puzzle.width):
                line += mark(geo.down(r, c), "---", "...", "   ") + "+"
            lines.append(line)
    lines.append("+" + "---+" * puzzle.width)
    return "\n".join(lines) + "\n"


def svg(puzzle: DoubleChoco, walls: Walls | None = None, *, cell_size: int = 32) -> str:
    size = cell_size
    width, height = puzzle.width * size + 2 * MARGIN, puzzle.height * size + 2 * MARGIN
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="-{MARGIN} -{MARGIN} {width} {height}" font-family="sans-serif" '
        f'font-size="{size * 0.6:.1f}">',
    ]
    if puzzle.title:
        out.append(f"<title>{escape(puzzle.title)}</title>")
    for r in range(puzzle.height):
        for c in range(puzzle.width):
            fill = GRAY if puzzle.is_gray(r, c) else "white"
            out.append(
                f'<rect x="{c * size}" y="{r * size}" width="{size}" height="{size}" '
                f'fill="{fill}" stroke="#999" stroke-width="0.5"/>'
            )
            label = _label(puzzle.number(r, c))
            if label:
                out.append(
                    f'<text x="{c * size + size / 2}" y="{r * size + size * 0.72}" '
                    f'text-anchor="middle">{escape(label)}</text>'
                )
    geo = puzzle.geometry
    if walls is not None:
        for e in range(geo.count):
            if walls.edges[e] != WALL:
                continue
            (r1, c1), (r2, c2) = geo.cells(e)
            if r1 == r2:
                x = c2 * size
                out.append(
                    f'<line x1="{x}" y1="{r1 * size}" x2="{x}" y2="{(r1 + 1) * size}" '
                    'stroke="black" stroke-width="3"/>'
                )
            else:
                y = r2 * size
                out.append(
                    f'<line x1="{c1 * size}" y1="{y}" x2="{(c1 + 1) * size}" y2="{y}" '
                    'stroke="black" stroke-width="3"/>'
                )
    out.append(
        f'<rect x="0" y="0" width="{puzzle.width * size}" height="{puzzle.height * size}" '
        'fill="none" stroke="black" stroke-width="3"/>'
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def png(
    puzzle: DoubleChoco, walls: Walls | None = None, *, scale: int = 2, cell_size: int = 32
) -> bytes:
    """The SVG's picture as PNG bytes, `scale` pixels per SVG unit (less for huge puzzles)."""
    from pencilbox.core import raster

    scale = raster.fit_scale(scale, max(puzzle.width, puzzle.height) * cell_size + 2 * MARGIN)
    size, margin = cell_size * scale, MARGIN * scale
    image, draw = raster.canvas(puzzle.width * size + 2 * margin, puzzle.height * size + 2 * margin)
    _png_cells(draw, puzzle, margin, size)
    shape = (puzzle.width, puzzle.height)
    raster.grid_lines(
        draw, (margin, margin), shape, size, fill="#999999", thin=raster.px(0.5, scale)
    )
    thick = raster.px(3, scale)
    if walls is not None:
        _png_walls(draw, puzzle, walls, margin, size, thick)
    right, bottom = margin + puzzle.width * size, margin + puzzle.height * size
    corners = [(margin, margin), (right, margin), (right, bottom), (margin, bottom)]
    for a, b in zip(corners, corners[1:] + corners[:1]):
        raster.segment(draw, a, b, thick, "black")
    return raster.encode(image)


def _png_cells(draw: ImageDraw, puzzle: DoubleChoco, margin: int, size: int) -> None:
    from pencilbox.core import raster

    face = raster.font(round(size * 0.6))
    for r in range(puzzle.height):
        for c in range(puzzle.width):
            x, y = margin + c * size, margin + r * size
            if puzzle.is_gray(r, c):
                draw.rectangle((x, y, x + size - 1, y + size - 1), fill=GRAY)
            label = _label(puzzle.number(r, c))
            if label:
                raster.centred_text(draw, (x + size / 2, y + size / 2), label, face, "black")


def _png_walls(
    draw: ImageDraw, puzzle: DoubleChoco, walls: Walls, margin: int, size: int, thick: int
) -> None:
    """Each wall along the side its two cells share; undecided and open edges stay thin."""
    from pencilbox.core import raster

    geo = puzzle.geometry
    for e in range(geo.count):
        if walls.edges[e] != WALL:
            continue
        (r1, _), (r2, c2) = geo.cells(e)
        x, y = margin + c2 * size, margin + r2 * size
        end = (x, y + size) if r1 == r2 else (x + size, y)
        raster.segment(draw, (x, y), end, thick, "black")
