"""SadMan `.sdk`: optional `#A` author, `#D` description, `#C` comment, `#S` source, `#L`
level lines, then N lines of N symbols (`.` blank)."""

from __future__ import annotations

import re

from pencilbox.errors import FormatError
from pencilbox.genres.sudoku.formats._common import parse_grid_rows, write_symbols
from pencilbox.genres.sudoku.model import Sudoku

KEYS = {"A": "author", "D": "description", "C": "comment", "S": "source", "L": "level"}


def looks_like(text: str) -> bool:
    """N rows of N cell symbols (N = 4, 9, 16, 25), after optional `#` header lines."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    grid = [ln for ln in lines if not ln.startswith("#")]
    return len(grid) in (4, 9, 16, 25) and all(
        len(ln) == len(grid) and re.fullmatch(r"[0-9A-Za-z.*_]+", ln) for ln in grid
    )


def parse(text: str, *, alphabet: str | None = None) -> Sudoku:
    meta: dict[str, str] = {}
    rows: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if rows:
                raise FormatError("header lines must come before the grid", line=number)
            key = line[1:2]
            meta[KEYS.get(key, key)] = line[2:].strip()
            continue
        rows.append((number, line))
    if not rows:
        raise FormatError("no grid rows found")
    title = meta.get("description") or None
    return parse_grid_rows(
        [(number, 1, row) for number, row in rows], alphabet=alphabet, title=title, meta=meta
    )


def write(puzzle: Sudoku) -> str:
    lines = []
    meta = dict(puzzle.meta)
    if puzzle.title and "description" not in meta:
        meta["description"] = puzzle.title
    for key, name in KEYS.items():
        if meta.get(name):
            lines.append(f"#{key}{meta[name]}")
    symbols = write_symbols(puzzle)
    size = puzzle.size
    lines += [symbols[r * size : (r + 1) * size] for r in range(size)]
    return "\n".join(lines) + "\n"
