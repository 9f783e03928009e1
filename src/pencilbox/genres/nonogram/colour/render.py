"""Pictures of a colour nonogram: text (one character per colour, `.` background, `?` open),
SVG with each clue number drawn on a chip of its colour and cells painted, and PNG (the same
picture through Pillow). All draw any state: empty, partly solved or solved."""

from __future__ import annotations

from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from pencilbox.core.grid import Grid
from pencilbox.genres.nonogram.colour.cells import BACKGROUND, grid_to_strings

if TYPE_CHECKING:
    from PIL.ImageDraw import ImageDraw

    from pencilbox.genres.nonogram.colour.model import ColourNonogram

Origin = tuple[int, int]


def text(puzzle: ColourNonogram, grid: Grid) -> str:
    return "\n".join(grid_to_strings(puzzle, grid)) + "\n"


def ink(hex_colour: str) -> str:
    """Black or white, whichever reads better on `hex_colour` (by its luma)."""
    red, green, blue = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#000000" if 0.299 * red + 0.587 * green + 0.114 * blue > 140 else "#ffffff"


def _depth(puzzle: ColourNonogram) -> tuple[int, int]:
    clue_cols = max((len(c) for c in puzzle.rows), default=1) or 1
    clue_rows = max((len(c) for c in puzzle.cols), default=1) or 1
    return clue_cols, clue_rows


def _clue_boxes(
    puzzle: ColourNonogram, origin: Origin, size: int
) -> list[tuple[float, float, str, str]]:
    """(x, y of the box's corner, number, colour hex) for every clue number."""
    left, top = origin
    boxes: list[tuple[float, float, str, str]] = []
    for r, clue in enumerate(puzzle.rows):
        for k, (run, colour) in enumerate(reversed(clue)):
            boxes.append(
                (left - (k + 1) * size, top + r * size, str(run), puzzle.colours[colour].hex)
            )
    for c, clue in enumerate(puzzle.cols):
        for k, (run, colour) in enumerate(reversed(clue)):
            boxes.append(
                (left + c * size, top - (k + 1) * size, str(run), puzzle.colours[colour].hex)
            )
    return boxes


def svg(puzzle: ColourNonogram, grid: Grid | None = None, *, cell_size: int = 16) -> str:
    grid = grid or puzzle.empty_grid()
    size = cell_size
    clue_cols, clue_rows = _depth(puzzle)
    left, top = clue_cols * size, clue_rows * size
    width, height = left + puzzle.width * size + 1, top + puzzle.height * size + 1
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="{size * 0.7:.1f}">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
    ]
    if puzzle.title:
        out.append(f"<title>{escape(puzzle.title)}</title>")
    for x, y, number, colour in _clue_boxes(puzzle, (left, top), size):
        out.append(
            f'<rect x="{x + 1}" y="{y + 1}" width="{size - 2}" height="{size - 2}" rx="2" '
            f'fill="{colour}"/><text x="{x + size / 2:.1f}" y="{y + size * 0.75:.1f}" '
            f'text-anchor="middle" fill="{ink(colour)}">{number}</text>'
        )
    for r in range(puzzle.height):
        for c in range(puzzle.width):
            x, y, mask = left + c * size, top + r * size, grid[r, c]
            if mask == 1 << BACKGROUND:
                out.append(
                    f'<circle cx="{x + size / 2}" cy="{y + size / 2}" r="{size * 0.1:.1f}" '
                    'fill="#999"/>'
                )
            elif mask and not mask & (mask - 1):
                hex_colour = puzzle.colours[mask.bit_length() - 1].hex
                out.append(
                    f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="{hex_colour}"/>'
                )
    for c in range(puzzle.width + 1):
        x = left + c * size + 0.5
        weight = 2 if c % 5 == 0 or c == puzzle.width else 1
        out.append(
            f'<line x1="{x}" y1="{top}" x2="{x}" y2="{height - 1}" stroke="#333" '
            f'stroke-width="{weight}"/>'
        )
    for r in range(puzzle.height + 1):
        y = top + r * size + 0.5
        weight = 2 if r % 5 == 0 or r == puzzle.height else 1
        out.append(
            f'<line x1="{left}" y1="{y}" x2="{width - 1}" y2="{y}" stroke="#333" '
            f'stroke-width="{weight}"/>'
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def png(
    puzzle: ColourNonogram, grid: Grid | None = None, *, scale: int = 2, cell_size: int = 16
) -> bytes:
    """The SVG's picture as PNG bytes, `scale` pixels per SVG unit (less for huge puzzles)."""
    from pencilbox.core import raster

    grid = grid or puzzle.empty_grid()
    clue_cols, clue_rows = _depth(puzzle)
    units = max(clue_cols + puzzle.width, clue_rows + puzzle.height) * cell_size + 1
    scale = raster.fit_scale(scale, units)
    size = cell_size * scale
    left, top = clue_cols * size, clue_rows * size
    image, draw = raster.canvas(
        left + puzzle.width * size + scale, top + puzzle.height * size + scale
    )
    face = raster.font(round(size * 0.7))
    for x, y, number, colour in _clue_boxes(puzzle, (left, top), size):
        box = (round(x) + scale, round(y) + scale, round(x) + size - scale, round(y) + size - scale)
        draw.rounded_rectangle(box, radius=2 * scale, fill=colour)
        raster.centred_text(draw, (x + size / 2, y + size / 2), number, face, ink(colour))
    _png_cells(draw, puzzle, grid, (left, top), size)
    raster.grid_lines(
        draw,
        (left, top),
        (puzzle.width, puzzle.height),
        size,
        fill="#333333",
        thin=scale,
        thick=2 * scale,
        every=5,
    )
    return raster.encode(image)


def _png_cells(
    draw: ImageDraw, puzzle: ColourNonogram, grid: Grid, origin: Origin, size: int
) -> None:
    left, top = origin
    dot = max(1, size // 10)
    for r in range(grid.height):
        for c in range(grid.width):
            x, y, mask = left + c * size, top + r * size, grid[r, c]
            if mask == 1 << BACKGROUND:
                cx, cy = x + size // 2, y + size // 2
                draw.ellipse((cx - dot, cy - dot, cx + dot, cy + dot), fill="#999999")
            elif mask and not mask & (mask - 1):
                colour = puzzle.colours[mask.bit_length() - 1].hex
                draw.rectangle((x, y, x + size - 1, y + size - 1), fill=colour)
