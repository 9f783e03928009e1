"""The `.mk` files of Mirek and Petr Olšák's griddler solver: a first line `height width`, one
line per row, a line `#`, then one line per column.

Runs are separated by spaces (`3 1 2`); an empty line is written `0`. Blank lines are skipped
unless they are needed to make up the count of a section.
"""

from __future__ import annotations

import re

from pencilbox.errors import FormatError
from pencilbox.genres.nonogram.formats._lines import (
    clue_block,
    numbered_lines,
    size_line,
    spaced_runs,
)
from pencilbox.genres.nonogram.model import DEFAULT_MAX_SIZE, Nonogram, format_clue, make_puzzle

_SEPARATOR = re.compile(r"\s*#\s*")


def looks_like(text: str) -> bool:
    lines = [line for line in text.splitlines() if line.strip()]
    return (
        len(lines) > 1
        and re.fullmatch(r"\s*\d+\s+\d+\s*", lines[0]) is not None
        and any(_SEPARATOR.fullmatch(line) for line in lines)
        and all(re.fullmatch(r"[\d \t]*|\s*#\s*", line) for line in lines[1:])
    )


def parse(text: str, *, max_size: int | None = DEFAULT_MAX_SIZE) -> Nonogram:
    lines = numbered_lines(text)
    height, width, start = size_line(lines, ("height", "width"))
    separator = next(
        (index for index in range(start, len(lines)) if _SEPARATOR.fullmatch(lines[index].text)),
        None,
    )
    if separator is None:
        raise FormatError(
            "there is no line '#' between the row clues and the column clues",
            line=lines[-1].number,
        )
    row_lines = clue_block(
        lines[start:separator], height, "row clue lines before '#'", after=lines[start - 1].number
    )
    col_lines = clue_block(
        lines[separator + 1 :], width, "column clue lines after '#'", after=lines[separator].number
    )
    rows = [spaced_runs(line, "row", index) for index, line in enumerate(row_lines, 1)]
    cols = [spaced_runs(line, "column", index) for index, line in enumerate(col_lines, 1)]
    return make_puzzle(rows, cols, max_size=max_size)


def write(puzzle: Nonogram) -> str:
    lines = [
        f"{puzzle.height} {puzzle.width}",
        *map(format_clue, puzzle.rows),
        "#",
        *map(format_clue, puzzle.cols),
    ]
    return "".join(f"{line}\n" for line in lines)
