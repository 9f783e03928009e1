"""Pictures of a nonogram: plain text for terminals, SVG (clues + grid) for files and the web,
and PNG (the SVG's picture drawn with Pillow). All draw any state: empty, partly solved or
solved."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol
from xml.sax.saxutils import escape

from pencilbox.core.grid import Cell, Grid
from pencilbox.genres.nonogram.cells import EMPTY, FILLED, UNKNOWN

if TYPE_CHECKING:
    from PIL.Image import Image
    from PIL.ImageDraw import ImageDraw

    from pencilbox.genres.nonogram.model import Nonogram

TEXT_SYMBOLS = {UNKNOWN: "?", FILLED: "#", EMPTY: "."}


class Drawn(Protocol):
    """What the frame of a picture needs of a puzzle, black-and-white or colour."""

    @property
    def rows(self) -> Sequence[Sequence[object]]: ...
    @property
    def cols(self) -> Sequence[Sequence[object]]: ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def title(self) -> str | None: ...


def text(grid: Grid) -> str:
    return "\n".join("".join(TEXT_SYMBOLS[v] for v in row) for row in grid.rows()) + "\n"


def svg(
    puzzle: Nonogram,
    grid: Grid | None = None,
    *,
    cell_size: int = 16,
    highlight: tuple[Cell, ...] = (),
) -> str:
    """An SVG picture: column clues on top, row clues on the left, thick lines every 5."""
    grid = grid or puzzle.empty_grid()
    size = cell_size
    left, top, out = svg_start(puzzle, size)
    for r, clue in enumerate(puzzle.rows):
        for k, run in enumerate(reversed(clue or (0,))):
            x = left - (k + 0.5) * size
            y = top + (r + 0.75) * size
            out.append(f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="middle">{run}</text>')
    for c, clue in enumerate(puzzle.cols):
        for k, run in enumerate(reversed(clue or (0,))):
            x = left + (c + 0.5) * size
            y = top - (k + 0.25) * size
            out.append(f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="middle">{run}</text>')
    marked = set(highlight)
    for r in range(puzzle.height):
        for c in range(puzzle.width):
            x, y = left + c * size, top + r * size
            value = grid[r, c]
            if (r, c) in marked:
                out.append(f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="#ffd54f"/>')
            if value == FILLED:
                out.append(f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="#222"/>')
            elif value == EMPTY:
                d = size * 0.3
                out.append(
                    f'<path d="M{x + d:.1f} {y + d:.1f}L{x + size - d:.1f} '
                    f"{y + size - d:.1f}M{x + size - d:.1f} {y + d:.1f}L{x + d:.1f} "
                    f'{y + size - d:.1f}" stroke="#999" stroke-width="1"/>'
                )
    return svg_end(puzzle, size, out)


def clue_depth(puzzle: Drawn) -> tuple[int, int]:
    """How many clue numbers fit left of the grid and above it (at least one each)."""
    clue_cols = max((len(c) for c in puzzle.rows), default=1) or 1
    clue_rows = max((len(c) for c in puzzle.cols), default=1) or 1
    return clue_cols, clue_rows


def _svg_frame(puzzle: Drawn, size: int) -> tuple[int, int, int, int]:
    """The grid's top-left corner past the clues' room, and the picture's width and height."""
    clue_cols, clue_rows = clue_depth(puzzle)
    left, top = clue_cols * size, clue_rows * size
    return left, top, left + puzzle.width * size + 1, top + puzzle.height * size + 1


def svg_start(puzzle: Drawn, size: int) -> tuple[int, int, list[str]]:
    """The grid's top-left corner and the SVG's opening elements (the clues' room included)."""
    left, top, width, height = _svg_frame(puzzle, size)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="{size * 0.7:.1f}">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
    ]
    if puzzle.title:
        out.append(f"<title>{escape(puzzle.title)}</title>")
    return left, top, out


def svg_end(puzzle: Drawn, size: int, out: list[str]) -> str:
    """The grid lines over the cells (thick every five) and the closing tag."""
    left, top, width, height = _svg_frame(puzzle, size)
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
    puzzle: Nonogram, grid: Grid | None = None, *, scale: int = 2, cell_size: int = 16
) -> bytes:
    """The SVG's picture as PNG bytes, `scale` pixels per SVG unit (less for huge puzzles)."""
    from pencilbox.core import raster

    grid = grid or puzzle.empty_grid()
    image, draw, (left, top), size, scale = png_start(puzzle, scale, cell_size)
    _png_clues(draw, puzzle, (left, top), size)
    _png_cells(draw, grid, (left, top), size, raster.px(1, scale))
    return png_end(puzzle, image, draw, (left, top), size, scale)


def png_start(
    puzzle: Drawn, scale: int, cell_size: int
) -> tuple[Image, ImageDraw, tuple[int, int], int, int]:
    """A white canvas with room for the clues: (image, draw, the grid's top-left corner, pixels
    per cell, the scale used: less than asked for a huge puzzle)."""
    from pencilbox.core import raster

    clue_cols, clue_rows = clue_depth(puzzle)
    units = max(clue_cols + puzzle.width, clue_rows + puzzle.height) * cell_size + 1
    scale = raster.fit_scale(scale, units)
    size = cell_size * scale
    left, top = clue_cols * size, clue_rows * size
    image, draw = raster.canvas(
        left + puzzle.width * size + scale, top + puzzle.height * size + scale
    )
    return image, draw, (left, top), size, scale


def png_end(
    puzzle: Drawn, image: Image, draw: ImageDraw, origin: tuple[int, int], size: int, scale: int
) -> bytes:
    """The grid lines over the cells (thick every five), and the picture as PNG bytes."""
    from pencilbox.core import raster

    shape = (puzzle.width, puzzle.height)
    raster.grid_lines(
        draw, origin, shape, size, fill="#333333", thin=scale, thick=2 * scale, every=5
    )
    return raster.encode(image)


def _png_clues(draw: ImageDraw, puzzle: Nonogram, origin: tuple[int, int], size: int) -> None:
    """Row clues right-aligned left of the grid, column clues bottom-aligned above it."""
    from pencilbox.core import raster

    left, top = origin
    face = raster.font(round(size * 0.7))
    for r, clue in enumerate(puzzle.rows):
        for k, run in enumerate(reversed(clue or (0,))):
            centre = (left - (k + 0.5) * size, top + (r + 0.5) * size)
            raster.centred_text(draw, centre, str(run), face, "black")
    for c, clue in enumerate(puzzle.cols):
        for k, run in enumerate(reversed(clue or (0,))):
            centre = (left + (c + 0.5) * size, top - (k + 0.5) * size)
            raster.centred_text(draw, centre, str(run), face, "black")


def _png_cells(
    draw: ImageDraw, grid: Grid, origin: tuple[int, int], size: int, stroke: int
) -> None:
    """Filled cells dark, crossed-out cells with a gray X, as in the SVG."""
    left, top = origin
    d = size * 0.3
    for r in range(grid.height):
        for c in range(grid.width):
            x, y = left + c * size, top + r * size
            if grid[r, c] == FILLED:
                draw.rectangle((x, y, x + size - 1, y + size - 1), fill="#222222")
            elif grid[r, c] == EMPTY:
                draw.line((x + d, y + d, x + size - d, y + size - d), fill="#999999", width=stroke)
                draw.line((x + size - d, y + d, x + d, y + size - d), fill="#999999", width=stroke)
