"""Pictures of a Sudoku board: SVG for files and the web, PNG (the same picture drawn with
Pillow) for sharing. Givens are black and other digits blue, so a picture of a game in
progress shows what the player entered; 16x16 and 25x25 boards show their alphabet's symbols.
The text picture is the `.ss` layout (formats/ss.py writes it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pencilbox.genres.sudoku.model import Sudoku

GIVEN, ENTERED = "black", "#1f5fbf"
MARGIN = 2
"""SVG units around the board, so the thick outer border is not cut in half."""
THIN, THICK = 0.8, 2.5
"""Line widths in SVG units: cell lines and box lines."""


def picture(values: list[int], n: int, alphabet: str) -> str:
    """The `.ss` picture of a board (also the text rendering)."""
    size = n * n
    border = "*" + "-" * (size + n - 1) + "*"
    middle = "|" + "+".join("-" * n for _ in range(n)) + "|"
    lines = [border]
    for r in range(size):
        if r and r % n == 0:
            lines.append(middle)
        row = values[r * size : (r + 1) * size]
        chunks = [
            "".join(alphabet[v - 1] if v else "." for v in row[b * n : (b + 1) * n])
            for b in range(n)
        ]
        lines.append("|" + "|".join(chunks) + "|")
    lines.append(border)
    return "\n".join(lines) + "\n"


def _colour(puzzle: Sudoku, index: int) -> str:
    return GIVEN if puzzle.givens.cells[index] else ENTERED


def svg(puzzle: Sudoku, values: list[int], cell: int = 32) -> str:
    """A plain SVG picture: givens black, other digits blue, thick box borders."""
    size = puzzle.size
    side = size * cell
    full = side + 2 * MARGIN
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{full}" height="{full}" '
        f'viewBox="-{MARGIN} -{MARGIN} {full} {full}" font-family="sans-serif">',
        f'<rect x="0" y="0" width="{side}" height="{side}" fill="white"/>',
    ]
    for i in range(size + 1):
        width = THICK if i % puzzle.n == 0 else THIN
        at = i * cell
        parts.append(
            f'<line x1="{at}" y1="0" x2="{at}" y2="{side}" stroke="black" stroke-width="{width}"/>'
        )
        parts.append(
            f'<line x1="0" y1="{at}" x2="{side}" y2="{at}" stroke="black" stroke-width="{width}"/>'
        )
    for index, value in enumerate(values):
        if not value:
            continue
        r, c = divmod(index, size)
        parts.append(
            f'<text x="{c * cell + cell / 2}" y="{r * cell + cell * 0.72}" '
            f'font-size="{cell * 0.6:.0f}" text-anchor="middle" fill="{_colour(puzzle, index)}">'
            f"{puzzle.alphabet[value - 1]}</text>"
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def png(puzzle: Sudoku, values: list[int], *, scale: int = 2, cell: int = 32) -> bytes:
    """The SVG's picture as PNG bytes, `scale` pixels per SVG unit (less for huge boards)."""
    from pencilbox.core import raster

    scale = raster.fit_scale(scale, puzzle.size * cell + 2 * MARGIN)
    size, margin = cell * scale, MARGIN * scale
    full = puzzle.size * size + 2 * margin
    image, draw = raster.canvas(full, full)
    shape = (puzzle.size, puzzle.size)
    thin, thick = raster.px(THIN, scale), raster.px(THICK, scale)
    raster.grid_lines(
        draw, (margin, margin), shape, size, fill="black", thin=thin, thick=thick, every=puzzle.n
    )
    face = raster.font(round(size * 0.6))
    for index, value in enumerate(values):
        if value:
            r, c = divmod(index, puzzle.size)
            centre = (margin + (c + 0.5) * size, margin + (r + 0.5) * size)
            label = puzzle.alphabet[value - 1]
            raster.centred_text(draw, centre, label, face, _colour(puzzle, index))
    return raster.encode(image)
