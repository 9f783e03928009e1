"""Pictures of a colour nonogram: text (one character per colour, `.` background, `?` open),
SVG with each clue number drawn on a chip of its colour and cells painted, and PNG (the same
picture through Pillow). All draw any state: empty, partly solved or solved."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pencilbox.core.grid import Grid
from pencilbox.genres.nonogram.colour.cells import BACKGROUND, grid_to_strings
from pencilbox.genres.nonogram.render import png_end, png_start, svg_end, svg_start

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
    left, top, out = svg_start(puzzle, size)
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
    return svg_end(puzzle, size, out)


def png(
    puzzle: ColourNonogram, grid: Grid | None = None, *, scale: int = 2, cell_size: int = 16
) -> bytes:
    """The SVG's picture as PNG bytes, `scale` pixels per SVG unit (less for huge puzzles)."""
    from pencilbox.core import raster

    grid = grid or puzzle.empty_grid()
    image, draw, (left, top), size, scale = png_start(puzzle, scale, cell_size)
    face = raster.font(round(size * 0.7))
    for x, y, number, colour in _clue_boxes(puzzle, (left, top), size):
        box = (round(x) + scale, round(y) + scale, round(x) + size - scale, round(y) + size - scale)
        draw.rounded_rectangle(box, radius=2 * scale, fill=colour)
        raster.centred_text(draw, (x + size / 2, y + size / 2), number, face, ink(colour))
    _png_cells(draw, puzzle, grid, (left, top), size)
    return png_end(puzzle, image, draw, (left, top), size, scale)


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
