"""Pictures of a nonogram: plain text for terminals and SVG (clues + grid) for files and
the web. Both draw any state: empty, partly solved or solved."""

from __future__ import annotations

from xml.sax.saxutils import escape

from pencilbox.core.grid import Cell, Grid
from pencilbox.genres.nonogram.model import EMPTY, FILLED, UNKNOWN, Nonogram

TEXT_SYMBOLS = {UNKNOWN: "?", FILLED: "#", EMPTY: "."}


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
    clue_cols = max((len(c) for c in puzzle.rows), default=1) or 1
    clue_rows = max((len(c) for c in puzzle.cols), default=1) or 1
    left, top = clue_cols * size, clue_rows * size
    width, height = left + puzzle.width * size + 1, top + puzzle.height * size + 1
    font = size * 0.7
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="{font:.1f}">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
    ]
    if puzzle.title:
        out.append(f"<title>{escape(puzzle.title)}</title>")
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
