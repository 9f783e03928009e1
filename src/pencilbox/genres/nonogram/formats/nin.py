"""Jakub Wilk's `.nin`, the input of his `nonogram` solver: a first line `width height`, then
one line per row, then one line per column, with no separator between rows and columns.

Runs are separated by spaces (`3 1 2`); an empty line is written `0`. Wilk's reader skips blank
lines, so they are skipped here too unless they are needed to make up the count.
"""

from __future__ import annotations

import re

from pencilbox.genres.nonogram.formats._lines import (
    clue_block,
    numbered_lines,
    size_line,
    spaced_runs,
)
from pencilbox.genres.nonogram.model import DEFAULT_MAX_SIZE, Nonogram, format_clue, make_puzzle


def looks_like(text: str) -> bool:
    lines = [line for line in text.splitlines() if line.strip()]
    return (
        len(lines) > 1
        and re.fullmatch(r"\s*\d+\s+\d+\s*", lines[0]) is not None
        and all(re.fullmatch(r"[\d \t]*", line) for line in lines[1:])
    )


def parse(text: str, *, max_size: int | None = DEFAULT_MAX_SIZE) -> Nonogram:
    lines = numbered_lines(text)
    width, height, start = size_line(lines, ("width", "height"))
    block = clue_block(
        lines[start:],
        height + width,
        f"clue lines ({height} rows, then {width} columns)",
        after=lines[start - 1].number,
    )
    rows = [spaced_runs(line, "row", index) for index, line in enumerate(block[:height], 1)]
    cols = [spaced_runs(line, "column", index) for index, line in enumerate(block[height:], 1)]
    return make_puzzle(rows, cols, max_size=max_size)


def write(puzzle: Nonogram) -> str:
    lines = [f"{puzzle.width} {puzzle.height}", *map(format_clue, puzzle.rows + puzzle.cols)]
    return "".join(f"{line}\n" for line in lines)
