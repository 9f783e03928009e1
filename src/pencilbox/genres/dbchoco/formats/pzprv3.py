"""pzprv3 files: `pzprv3`, `dbchoco`, rows, cols, H lines of cell tokens (`-` prefix = gray,
then the number, `0` for `?`, `.` empty white, `-` alone empty gray), then optionally H lines
of W-1 wall tokens and H-1 lines of W wall tokens (`1`/`2` wall, `0`/`-1` none). The same file
travels in a URL as `p?pzprv3/dbchoco/...` with `/` for newline."""

from __future__ import annotations

import re

from pencilbox.core.notation import whole_number
from pencilbox.errors import FormatError, LimitExceeded, quote
from pencilbox.genres.dbchoco.model import (
    DEFAULT_MAX_SIZE,
    OPEN,
    QUESTION,
    WALL,
    DoubleChoco,
    EdgeGeometry,
    Walls,
    make_puzzle,
)

_URL = re.compile(r"^(?:https?://)?(?:[\w.-]+/)*(?:p(?:\.html)?)?\?(pzprv3/.*)$", re.DOTALL)


def _lines(text: str) -> list[str]:
    stripped = text.strip()
    match = _URL.match(stripped)
    if match is not None:
        return [line.strip() for line in match.group(1).split("/")]
    if "\n" not in stripped and stripped.startswith("pzprv3/"):
        return [line.strip() for line in stripped.split("/")]
    return [line.strip() for line in stripped.splitlines()]


def looks_like(text: str) -> bool:
    lines = _lines(text)
    return len(lines) >= 2 and lines[0] == "pzprv3" and lines[1].startswith("dbchoco")


def parse(text: str, *, max_size: int | None = DEFAULT_MAX_SIZE) -> DoubleChoco:
    lines = _lines(text)
    if len(lines) < 4 or lines[0] != "pzprv3":
        raise FormatError("a pzprv3 file starts with lines pzprv3, dbchoco, rows, cols", line=1)
    if not lines[1].startswith("dbchoco"):
        raise FormatError(f"the file is for {quote(lines[1])}, not dbchoco", line=2)
    sizes = []
    for index, what in ((2, "the number of rows"), (3, "the number of columns")):
        size = whole_number(lines[index], what, line=index + 1)
        if size == 0:
            raise FormatError(f"{what} is 0", line=index + 1)
        sizes.append(size)
    rows, cols = sizes
    if max_size is not None and (rows > max_size or cols > max_size):
        raise LimitExceeded(
            f"the puzzle is {cols}x{rows}, above the size limit of {max_size}x{max_size}"
        )
    if len(lines) < 4 + rows:
        raise FormatError(f"expected {rows} rows of cells", line=len(lines) + 1)
    gray: list[list[bool]] = []
    numbers: list[list[int | None]] = []
    for r in range(rows):
        line_no = 5 + r
        tokens = lines[4 + r].split()
        if len(tokens) != cols:
            raise FormatError(f"row {r + 1} has {len(tokens)} cells, expected {cols}", line=line_no)
        gray_row: list[bool] = []
        number_row: list[int | None] = []
        for c, token in enumerate(tokens):
            is_gray = token.startswith("-")
            rest = token[1:] if is_gray else token
            value: int | None
            if rest in ("", "."):
                if not is_gray and rest == "":
                    raise FormatError(f"empty cell token in column {c + 1}", line=line_no)
                value = None
            elif rest.isascii() and rest.isdigit():
                value = whole_number(rest, f"the number of cell {c + 1}", line=line_no) or QUESTION
            else:
                raise FormatError(
                    f"cell {c + 1}: {quote(token)} is not a cell token (., -, 5, -5, 0)",
                    line=line_no,
                )
            gray_row.append(is_gray)
            number_row.append(value)
        gray.append(gray_row)
        numbers.append(number_row)
    answer = _walls(lines, 4 + rows, rows, cols)
    return make_puzzle(gray, numbers, answer=answer, max_size=max_size)


def _walls(lines: list[str], start: int, rows: int, cols: int) -> Walls | None:
    rest = [line for line in lines[start:] if line]
    if not rest:
        return None
    needed = rows + rows - 1
    if len(rest) < needed:
        raise FormatError(f"expected {needed} lines of walls after the cells", line=start + 1)
    edges: list[str] = []
    for index in range(needed):
        line_no = start + index + 1
        length = cols - 1 if index < rows else cols
        tokens = rest[index].split()
        if len(tokens) != length:
            raise FormatError(f"expected {length} wall tokens, got {len(tokens)}", line=line_no)
        for token in tokens:
            if token in ("1", "2"):
                edges.append(WALL)
            elif token in ("0", "-1", "-2"):
                edges.append(OPEN)
            else:
                raise FormatError(f"{quote(token)} is not a wall token (0, 1, -1, 2)", line=line_no)
    if WALL not in edges:  # pzprjs writes an all-zero wall section for an unsolved puzzle
        return None
    return Walls(cols, rows, tuple(edges))


def write(puzzle: DoubleChoco, answer: Walls | None = None) -> str:
    answer = answer if answer is not None else puzzle.answer
    out = ["pzprv3", "dbchoco", str(puzzle.height), str(puzzle.width)]
    for r in range(puzzle.height):
        tokens = []
        for c in range(puzzle.width):
            token = "-" if puzzle.is_gray(r, c) else ""
            value = puzzle.number(r, c)
            if value == QUESTION:
                token += "0"
            elif value is not None:
                token += str(value)
            tokens.append(token or ".")
        out.append(" ".join(tokens) + " ")
    geo = EdgeGeometry(puzzle.width, puzzle.height)
    edges = answer.edges if answer is not None else (OPEN,) * geo.count

    def wall_token(e: int) -> str:
        return "1" if edges[e] == WALL else "0"

    for r in range(puzzle.height):
        out.append(" ".join(wall_token(geo.right(r, c)) for c in range(puzzle.width - 1)) + " ")
    for r in range(puzzle.height - 1):
        out.append(" ".join(wall_token(geo.down(r, c)) for c in range(puzzle.width)) + " ")
    return "\n".join(out) + "\n"
