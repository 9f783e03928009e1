"""Simple Sudoku `.ss` pictures and pencil-mark (candidate) grids.

Picture: border lines of `-` (with `*`, `+`, `|`), rows like `|.3.|4..|...|`.
Pencil-mark grid: each row holds N groups of digits separated by spaces (and `|`), e.g.
`| 1567   3  1567 | ...`; a group of one digit is a filled cell, longer groups are candidates.
`parse_candidates` gives the candidate bitmasks too (bit k = digit k+1).
"""

from __future__ import annotations

import re

from pencilbox.errors import FormatError
from pencilbox.genres.sudoku.formats._common import parse_grid_rows
from pencilbox.genres.sudoku.model import (
    Sudoku,
    box_size,
    default_alphabet,
    make_sudoku,
    symbols_to_values,
)
from pencilbox.genres.sudoku.render import picture

_BORDER = re.compile(r"[\s\-+*|=.:']*")


def _is_border(line: str) -> bool:
    return "--" in line and _BORDER.fullmatch(line) is not None


def _rows(text: str) -> list[tuple[int, str]]:
    return [
        (number, line)
        for number, line in enumerate(text.splitlines(), start=1)
        if line.strip() and not _is_border(line.strip()) and not line.lstrip().startswith("#")
    ]


def looks_like(text: str) -> bool:
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    rows = _rows(text)
    return (
        any(_is_border(ln) for ln in lines)
        and len(rows) in (4, 9, 16, 25)
        and all("|" in row for _, row in rows)
    )


def _is_pencilmark(rows: list[tuple[int, str]]) -> bool:
    size = len(rows)
    return all(len(row.replace("|", " ").split()) == size for _, row in rows) and any(
        len(group) > 1 for _, row in rows for group in row.replace("|", " ").split()
    )


def parse(text: str, *, alphabet: str | None = None) -> Sudoku:
    rows = _rows(text)
    if not rows:
        raise FormatError("no grid rows found in the picture")
    if _is_pencilmark(rows):
        return parse_candidates(text, alphabet=alphabet)[0]
    cleaned = []
    for number, row in rows:
        start = len(row) - len(row.lstrip())
        cleaned.append((number, start + 1, row.replace("|", "").replace(" ", "")))
    return parse_grid_rows(cleaned, alphabet=alphabet)


def parse_candidates(text: str, *, alphabet: str | None = None) -> tuple[Sudoku, list[int]]:
    """A pencil-mark grid: the puzzle (one-candidate cells filled) and every cell's mask."""
    rows = _rows(text)
    size = len(rows)
    box_size(size)
    alphabet = alphabet or default_alphabet(size)
    values: list[int] = []
    masks: list[int] = []
    for number, row in rows:
        groups = list(re.finditer(r"[^\s|]+", row))
        if len(groups) != size:
            raise FormatError(
                f"this row has {len(groups)} cells, a {size}x{size} sudoku needs {size}",
                line=number,
            )
        for group in groups:
            digits = symbols_to_values(
                group.group(), alphabet, line=number, column=group.start() + 1, blanks=""
            )
            mask = 0
            for d in digits:
                mask |= 1 << (d - 1)
            masks.append(mask)
            values.append(digits[0] if len(digits) == 1 else 0)
    return make_sudoku(values, size=size, alphabet=alphabet), masks


def write(puzzle: Sudoku) -> str:
    return picture(puzzle.values(), puzzle.n, puzzle.alphabet)
