"""puzz.link (pzprjs) `sudoku` URLs: `https://puzz.link/p?sudoku/{cols}/{rows}/{body}`.

Also read: `pzv.jp/p.html?...`, `sudoku_edit` / `sudoku_play`, and the bare `p?sudoku/...`
and `sudoku/...` forms. The body is Number16 over the cells, row-major: `0`-`f` one cell with
that value, `-` + 2 hex digits 16-255, `+` + 3 hex digits, `.` a `?` clue (not a Sudoku digit,
refused), `g`-`z` skip 1-20 empty cells. The body may stop early; the rest is empty.
"""

from __future__ import annotations

import re

from pencilbox.core.notation import whole_number
from pencilbox.errors import FormatError, InvalidPuzzle, quote
from pencilbox.genres.sudoku.model import Sudoku, box_size, make_sudoku

_URL = re.compile(
    r"(?:https?://[^\s?]*\?|p(?:\.html)?\?)?sudoku(?:_edit|_play)?/"
    r"(?P<cols>[^/\s]*)/(?P<rows>[^/\s]*)(?:/(?P<body>[^\s/]*))?"
)
_HEX = "0123456789abcdef"
_WIDE = {"-": 2, "+": 3}
_SKIPS = "ghijklmnopqrstuvwxyz"


def looks_like(text: str) -> bool:
    return re.match(r"\s*(?:\S*\?)?sudoku(?:_edit|_play)?/\d", text) is not None


def parse(text: str, *, alphabet: str | None = None) -> Sudoku:
    match = _URL.search(text)
    if match is None:
        raise FormatError("not a puzz.link sudoku URL (expected p?sudoku/9/9/...)", column=1)
    cols, rows = (
        whole_number(match.group(name), what, column=match.start(name) + 1)
        for name, what in (("cols", "the number of columns"), ("rows", "the number of rows"))
    )
    if cols != rows:
        raise FormatError(f"a sudoku is square; this URL says {cols}x{rows}", column=1)
    try:
        box_size(cols)
    except InvalidPuzzle as error:
        raise FormatError(str(error), column=match.start("cols") + 1) from None
    body = match.group("body") or ""
    start = match.start("body") + 1 if match.group("body") is not None else len(text)
    values = [0] * (cols * rows)
    cell = 0
    i = 0
    while i < len(body):
        ch = body[i]
        column = start + i
        if cell >= len(values):
            raise FormatError("the body holds more than the grid's cells", column=column)
        if ch in _HEX:
            value, i = int(ch, 16), i + 1
        elif ch in _WIDE:
            width = _WIDE[ch]
            digits = body[i + 1 : i + 1 + width]
            if len(digits) != width or any(d not in _HEX for d in digits):
                raise FormatError(
                    f"{quote(ch)} must be followed by {width} hex digits", column=column
                )
            value, i = int(digits, 16), i + 1 + width
        elif ch in _SKIPS:
            cell += _SKIPS.index(ch) + 1
            i += 1
            continue
        elif ch == ".":
            raise FormatError("a '?' clue is not a sudoku digit", column=column)
        else:
            raise FormatError(f"{quote(ch)} is not a Number16 code", column=column)
        if not 1 <= value <= cols:
            raise FormatError(f"{value} is not a digit of a {cols}x{cols} sudoku", column=column)
        values[cell] = value
        cell += 1
    if cell > len(values):
        raise FormatError("the body skips past the end of the grid", column=start + len(body))
    try:
        return make_sudoku(values, size=cols, alphabet=alphabet)
    except InvalidPuzzle as error:
        raise FormatError(str(error), column=1) from None


def write(puzzle: Sudoku) -> str:
    out: list[str] = []
    skip = 0
    for value in puzzle.values():
        if not value:
            skip += 1
            if skip == 20:
                out.append(_SKIPS[19])
                skip = 0
            continue
        if skip:
            out.append(_SKIPS[skip - 1])
            skip = 0
        out.append(_HEX[value] if value < 16 else f"-{value:02x}")
    if skip:
        out.append(_SKIPS[skip - 1])
    size = puzzle.size
    return f"https://puzz.link/p?sudoku/{size}/{size}/{''.join(out)}\n"
