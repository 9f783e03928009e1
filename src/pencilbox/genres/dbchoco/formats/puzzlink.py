"""puzz.link / pzv.jp URLs: `https://puzz.link/p?dbchoco/<cols>/<rows>/<colours><numbers>`.

Colours: row-major, 5 cells per base-32 digit (first cell = 16s bit, 1 = gray), exactly
ceil(W*H/5) digits. Numbers (Number16) from cell 0: `0-9a-f` one value, `-` + 2 hex digits,
`+` + 3 hex digits, `.` a `?`, `g`-`z` skip 1-20 empty cells. The writer flushes a pending
skip before each clue, at 20 and at the end, like pzprjs, so URLs round-trip byte for byte.
A whole pzprv3 file may also travel in a URL (`p?pzprv3/dbchoco/...`): see pzprv3.py.
"""

from __future__ import annotations

import re

from pencilbox.core.notation import whole_number
from pencilbox.errors import FormatError, LimitExceeded, quote
from pencilbox.genres.dbchoco.model import DEFAULT_MAX_SIZE, QUESTION, DoubleChoco, make_puzzle

DIGITS32 = "0123456789abcdefghijklmnopqrstuv"
DIGITS36 = DIGITS32 + "wxyz"
_URL = re.compile(r"(?:https?://)?(?:[\w.-]+/)*(?:p(?:\.html)?)?\?(?P<rest>.*)$", re.DOTALL)
_GENRES = ("dbchoco", "dbchoco_edit", "dbchoco_play")


def looks_like(text: str) -> bool:
    stripped = text.strip()
    match = _URL.match(stripped)
    if match is None or "\n" in stripped:
        return False
    return match.group("rest").split("/", 1)[0] in _GENRES


def parse(text: str, *, max_size: int | None = DEFAULT_MAX_SIZE) -> DoubleChoco:
    stripped = text.strip()
    match = _URL.match(stripped)
    if match is None:
        raise FormatError("not a puzz.link URL (expected ...p?dbchoco/<cols>/<rows>/<body>)")
    start = match.start("rest")
    parts = match.group("rest").split("/")
    if parts[0] not in _GENRES:
        raise FormatError(f"the URL is for {quote(parts[0])}, not dbchoco", column=start + 1)
    if len(parts) < 4:
        raise FormatError("the URL needs <cols>/<rows>/<body> after dbchoco", column=len(stripped))
    offset = start + len(parts[0]) + 1
    sizes = []
    for part, what in zip(parts[1:3], ("the number of columns", "the number of rows")):
        size = whole_number(part, what, column=offset + 1)
        if size == 0:
            raise FormatError(f"{what} is 0", column=offset + 1)
        sizes.append(size)
        offset += len(part) + 1
    cols, rows = sizes
    # Checked before decoding: a few characters of body can describe a huge empty grid.
    if max_size is not None and (cols > max_size or rows > max_size):
        raise LimitExceeded(
            f"the puzzle is {cols}x{rows}, above the size limit of {max_size}x{max_size}"
        )
    body = "/".join(parts[3:])
    return decode_body(cols, rows, body, column_offset=offset, max_size=max_size)


def decode_body(
    cols: int,
    rows: int,
    body: str,
    *,
    column_offset: int = 0,
    max_size: int | None = DEFAULT_MAX_SIZE,
) -> DoubleChoco:
    cells = cols * rows
    colour_chars = (cells + 4) // 5
    if len(body) < colour_chars:
        raise FormatError(
            f"the body has {len(body)} characters; the colours alone need {colour_chars}",
            column=column_offset + len(body) + 1,
        )
    gray = [False] * cells
    for i, ch in enumerate(body[:colour_chars]):
        value = DIGITS32.find(ch)
        if value < 0:
            raise FormatError(
                f"{ch!r} is not a colour digit (0-9, a-v)", column=column_offset + i + 1
            )
        for bit in range(5):
            index = i * 5 + bit
            if value & (16 >> bit):
                if index >= cells:
                    raise FormatError(
                        f"{ch!r} sets a colour bit past the last cell",
                        column=column_offset + i + 1,
                    )
                gray[index] = True
    numbers: list[int | None] = [None] * cells
    position = colour_chars
    cell = 0
    while position < len(body):
        column = column_offset + position + 1
        ch = body[position]
        if cell >= cells:
            raise FormatError(f"{ch!r}: more numbers than cells", column=column)
        if ch in "0123456789abcdef":
            numbers[cell] = int(ch, 16)
            position += 1
            cell += 1
        elif ch in "-+":
            width = 2 if ch == "-" else 3
            digits = body[position + 1 : position + 1 + width]
            if len(digits) != width or any(d not in "0123456789abcdef" for d in digits):
                raise FormatError(f"{ch!r} must be followed by {width} hex digits", column=column)
            numbers[cell] = int(digits, 16)
            position += 1 + width
            cell += 1
        elif ch == ".":
            numbers[cell] = QUESTION
            position += 1
            cell += 1
        elif "g" <= ch <= "z":
            cell += int(ch, 36) - 15
            position += 1
        else:
            raise FormatError(f"{ch!r} is not a Number16 character", column=column)
    if cell > cells:
        raise FormatError("the numbers skip past the last cell", column=column_offset + len(body))
    gray_rows = [gray[r * cols : (r + 1) * cols] for r in range(rows)]
    number_rows = [numbers[r * cols : (r + 1) * cols] for r in range(rows)]
    return make_puzzle(gray_rows, number_rows, max_size=max_size)


def encode_body(puzzle: DoubleChoco) -> str:
    out = []
    cells = puzzle.width * puzzle.height
    for i in range(0, cells, 5):
        value = 0
        for bit in range(5):
            if i + bit < cells and puzzle.gray[i + bit]:
                value |= 16 >> bit
        out.append(DIGITS32[value])
    skip = 0
    for number in puzzle.numbers:
        if number is None:
            skip += 1
            if skip == 20:
                out.append("z")
                skip = 0
            continue
        if skip:
            out.append(DIGITS36[skip + 15])
            skip = 0
        value = number
        if value == QUESTION:
            out.append(".")
        elif value < 16:
            out.append(f"{value:x}")
        elif value < 256:
            out.append(f"-{value:02x}")
        else:
            out.append(f"+{value:03x}")
    if skip:
        out.append(DIGITS36[skip + 15])
    return "".join(out)


def write(puzzle: DoubleChoco) -> str:
    return f"https://puzz.link/p?dbchoco/{puzzle.width}/{puzzle.height}/{encode_body(puzzle)}"
