"""Simon Tatham's "Pattern" game id: `WxH:`, then the column clues, then the row clues.

Runs are separated by `.` and lines by `/`: `4x4:2/1/2/1/1.1/2/1/1`. Pattern writes an empty
line as nothing (`3x2:1//1/1/1`); `0` is accepted too. A square size may be given once (`5:`).
Pattern's picture generator may add `,` and the squares it gives away as extra clues; they are
checked and then ignored, since the clues alone define the puzzle.
"""

from __future__ import annotations

import re

from pencilbox.core.notation import error_at, number_at
from pencilbox.genres.nonogram.formats._lines import run_label, split_at
from pencilbox.genres.nonogram.model import DEFAULT_MAX_SIZE, Clue, Nonogram, make_puzzle

_HEADER = re.compile(r"\s*(\d+)(?:x(\d+))?:")


def looks_like(text: str) -> bool:
    return re.match(r"\s*\d+x\d+:", text) is not None


def parse(text: str, *, max_size: int | None = DEFAULT_MAX_SIZE) -> Nonogram:
    header = _HEADER.match(text)
    if header is None:
        where = len(text) - len(text.lstrip())
        raise error_at(text, where, "a Pattern game id starts with its size, e.g. '10x10:'")
    width = number_at(text, header.start(1), header.group(1), "the size")
    height = (
        number_at(text, header.start(2), header.group(2), "the size") if header.group(2) else width
    )
    start, end = header.end(), len(text.rstrip())
    comma = text.find(",", start, end)
    if comma >= 0:
        _check_given_squares(text, comma + 1, end)
        end = comma
    parts = split_at(text, start, end, "/")
    if len(parts) != width + height:
        raise error_at(
            text,
            start,
            f"a {width}x{height} game id lists {width} column clues and then {height} row "
            f"clues, separated by '/'; this one has {len(parts)}",
        )
    clues = [
        _runs(text, offset, part, *_name(index, width))
        for index, (offset, part) in enumerate(parts)
    ]
    return make_puzzle(clues[width:], clues[:width], max_size=max_size)


def _name(index: int, width: int) -> tuple[str, int]:
    """The kind and 1-based number of the line at `index` in the id (columns come first)."""
    return ("column", index + 1) if index < width else ("row", index - width + 1)


def _runs(text: str, start: int, part: str, kind: str, index: int) -> list[int]:
    if part == "":
        return []
    return [
        number_at(text, offset, token, run_label(kind, index))
        for offset, token in split_at(text, start, start + len(part), ".")
    ]


def _check_given_squares(text: str, start: int, end: int) -> None:
    # Each letter is a run of unknown squares then one given square (upper case: filled).
    for index in range(start, end):
        if not (text[index].isascii() and text[index].isalpha()):
            raise error_at(
                text,
                index,
                f"{text[index]!r} cannot be in the given-squares part after ','; only letters can",
            )


def write(puzzle: Nonogram) -> str:
    def line(clue: Clue) -> str:
        return ".".join(map(str, clue))

    lines = "/".join(line(clue) for clue in puzzle.cols + puzzle.rows)
    return f"{puzzle.width}x{puzzle.height}:{lines}\n"
