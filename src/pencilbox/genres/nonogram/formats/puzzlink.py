"""puzz.link (pzprjs) `nonogram` URLs: `https://puzz.link/p?nonogram/{cols}/{rows}/{body}`.

Also read: `pzv.jp/p.html?...`, the `nonogram_edit` and `nonogram_play` genre names, and the
bare `p?nonogram/...` and `nonogram/...` forms, alone or inside other text (a `.url` file).

The body fills clue slots in the Number16 code. Each column has ceil(rows/2) slots above the
grid and each row ceil(cols/2) slots left of it, as many as the longest possible clue needs.
All column slots come first, column by column, then the row slots, row by row; within a line
the first slot is the one nearest the grid, so a line's runs are listed last run first.
pzprjs packs each line's numbers into its nearest slots, as `write` does.

Number16: `0`-`f` is one slot holding 0-15, `-` and 2 hex digits 16-255, `+` and 3 hex digits
256-4095, `.` a `?` clue (not supported), `g`-`z` skip 1-20 empty slots. The body may stop
early; the remaining slots are empty.

puzz.link has no colour nonogram: pzprjs's nonogram family (`nonogram`, `coral`, `cts`, one
variety file) has shaded and unshaded cells and plain numbers only, so a colour puzzle is
refused here with a pointer to the notations that hold colours.
"""

from __future__ import annotations

import re

from pencilbox.core.notation import error_at, number_at
from pencilbox.errors import FormatError, LimitExceeded, quote
from pencilbox.genres.nonogram.formats._lines import split_at
from pencilbox.genres.nonogram.model import DEFAULT_MAX_SIZE, Clue, Nonogram, make_puzzle

_URL = re.compile(r"(?:https?://[^\s?]*\?|p(?:\.html)?\?)?nonogram(?:_edit|_play)?/(?P<rest>\S*)")
_START = re.compile(r"\s*(?:\[InternetShortcut\]\s*URL=)?" + _URL.pattern)
_OTHER_GENRE = re.compile(r"p(?:\.html)?\?([A-Za-z0-9]+)")
_HEX = "0123456789abcdef"
_WIDE = {"-": 2, "+": 3}
"""Number16 prefixes and how many hex digits follow them."""
_SKIPS = "ghijklmnopqrstuvwxyz"
"""`_SKIPS[n - 1]` skips n empty slots."""


def looks_like(text: str) -> bool:
    return _START.match(text) is not None


def parse(text: str, *, max_size: int | None = DEFAULT_MAX_SIZE) -> Nonogram:
    url = _URL.search(text)
    if url is None:
        raise _not_a_nonogram_url(text)
    parts = split_at(text, url.start("rest"), url.end(), "/")
    if len(parts) < 2:
        raise error_at(text, url.end(), "the URL ends before the number of columns and rows")
    if any(piece for _, piece in parts[3:]):
        raise error_at(text, parts[3][0] - 1, "unexpected '/' after the clues")
    cols = number_at(text, *parts[0], "the number of columns")
    rows = number_at(text, *parts[1], "the number of rows")
    _check_size(cols, rows, max_size)
    body_start, body = parts[2] if len(parts) > 2 else (url.end(), "")
    slots = _decode(text, body_start, body, _slot_count(cols, rows))
    return make_puzzle(
        _row_clues(slots, cols, rows), _column_clues(slots, cols, rows), max_size=max_size
    )


def _not_a_nonogram_url(text: str) -> FormatError:
    other = _OTHER_GENRE.search(text)
    if other:
        return error_at(
            text, other.start(1), f"this puzz.link URL is for {quote(other.group(1))}, not nonogram"
        )
    return error_at(
        text,
        len(text) - len(text.lstrip()),
        "no puzz.link nonogram URL (p?nonogram/COLS/ROWS/BODY) was found",
    )


def _check_size(cols: int, rows: int, max_size: int | None) -> None:
    # Checked before decoding: a few characters of body can describe a huge empty grid.
    if max_size is not None and (cols > max_size or rows > max_size):
        raise LimitExceeded(
            f"the puzzle is {cols}x{rows}, above the size limit of {max_size}x{max_size} "
            "(raise it with --max-size)"
        )


def _slots_per_column(rows: int) -> int:
    return (rows + 1) // 2


def _slots_per_row(cols: int) -> int:
    return (cols + 1) // 2


def _slot_count(cols: int, rows: int) -> int:
    return cols * _slots_per_column(rows) + rows * _slots_per_row(cols)


def _decode(text: str, start: int, body: str, total: int) -> dict[int, int]:
    """The filled slots of a Number16 body: slot index -> number."""
    slots: dict[int, int] = {}
    slot = index = 0
    while index < len(body):
        char = body[index]
        if slot >= total:
            left = body[index:] if len(body) - index <= 20 else body[index : index + 20] + "..."
            raise error_at(
                text, start + index, f"{left!r} is left over after the last of the {total} slots"
            )
        if char in _SKIPS:
            slot += _SKIPS.index(char) + 1
            index += 1
            continue
        slots[slot] = _number(text, start + index, body[index : index + 1 + _WIDE.get(char, 0)])
        slot += 1
        index += 1 + _WIDE.get(char, 0)
    return slots


def _number(text: str, index: int, code: str) -> int:
    """The value of one Number16 code: a hex digit, or `-` or `+` and 2 or 3 hex digits."""
    char = code[0]
    digits = code[1:] if char in _WIDE else char
    if char == ".":
        raise error_at(text, index, "unknown '?' clues are not supported")
    if char in _WIDE:
        if len(digits) != _WIDE[char] or any(d not in _HEX for d in digits):
            message = f"{char!r} must be followed by {_WIDE[char]} hex digits (0-9, a-f)"
            raise error_at(text, index, message)
    elif char not in _HEX:
        raise error_at(text, index, f"{char!r} is not a clue character (0-9 a-z - + .)")
    return int(digits, 16)


def _runs(slots: dict[int, int], first: int, count: int) -> list[int]:
    """The runs of one line, whose slots are first..first+count-1, nearest the grid first."""
    return [slots[slot] for slot in range(first + count - 1, first - 1, -1) if slot in slots]


def _column_clues(slots: dict[int, int], cols: int, rows: int) -> list[list[int]]:
    per_column = _slots_per_column(rows)
    return [_runs(slots, col * per_column, per_column) for col in range(cols)]


def _row_clues(slots: dict[int, int], cols: int, rows: int) -> list[list[int]]:
    first = cols * _slots_per_column(rows)
    per_row = _slots_per_row(cols)
    return [_runs(slots, first + row * per_row, per_row) for row in range(rows)]


def write(puzzle: Nonogram) -> str:
    slots: list[int | None] = []
    for kind, clues, count in (
        ("column", puzzle.cols, _slots_per_column(puzzle.height)),
        ("row", puzzle.rows, _slots_per_row(puzzle.width)),
    ):
        for index, clue in enumerate(clues, 1):
            slots += _line_slots(clue, count, f"{kind} {index}")
    return f"https://puzz.link/p?nonogram/{puzzle.width}/{puzzle.height}/{_encode(slots)}\n"


def _line_slots(clue: Clue, count: int, where: str) -> list[int | None]:
    if len(clue) > count:
        raise FormatError(f"{where} has {len(clue)} runs; puzz.link has room for {count}")
    nearest_first: list[int | None] = list(reversed(clue))
    return nearest_first + [None] * (count - len(clue))


def _encode(slots: list[int | None]) -> str:
    out = []
    empty = 0
    for value in slots:
        if value is None:
            empty += 1
            if empty == len(_SKIPS):
                out.append(_SKIPS[-1])
                empty = 0
            continue
        if empty:
            out.append(_SKIPS[empty - 1])
            empty = 0
        out.append(_number16(value))
    if empty:
        out.append(_SKIPS[empty - 1])
    return "".join(out)


def _number16(value: int) -> str:
    if value < 16:
        return f"{value:x}"
    if value < 256:
        return f"-{value:02x}"
    if value < 4096:
        return f"+{value:03x}"
    raise FormatError(f"a run of {value} is too long for a puzz.link URL (at most 4095)")
