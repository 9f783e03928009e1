"""Pictures of a Double Choco grid with any wall state: text for terminals, SVG for files.

Text: each cell is two characters (`  ` white, `░░` gray, or its number) between wall
characters; `|` and `---` are walls, `:` and `...` undecided edges, blanks open edges.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from pencilbox.genres.dbchoco.model import QUESTION, UNDECIDED, WALL, DoubleChoco, Walls


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
    width, height = puzzle.width * size + 4, puzzle.height * size + 4
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="-2 -2 {width} {height}" font-family="sans-serif" '
        f'font-size="{size * 0.6:.1f}">',
    ]
    if puzzle.title:
        out.append(f"<title>{escape(puzzle.title)}</title>")
    for r in range(puzzle.height):
        for c in range(puzzle.width):
            fill = "#cccccc" if puzzle.is_gray(r, c) else "white"
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
