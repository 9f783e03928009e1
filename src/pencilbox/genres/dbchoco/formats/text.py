"""A plain text picture: one line per row, one token per cell separated by spaces:
`.` white, `#` gray, `5` white with 5, `#5` gray with 5, `?` / `#?` a `?` clue.
Lines starting with `;` are comments. Every row must have the same number of tokens."""

from __future__ import annotations

from pencilbox.core.notation import whole_number
from pencilbox.errors import FormatError, quote
from pencilbox.genres.dbchoco.model import DEFAULT_MAX_SIZE, QUESTION, DoubleChoco, make_puzzle


def looks_like(text: str) -> bool:
    rows = [line.split() for line in text.splitlines() if line.strip() and not line.startswith(";")]
    if len(rows) < 2:
        return False
    allowed = set(".#?0123456789")
    return all(token and set(token) <= allowed for row in rows for token in row) and any(
        "#" in token for row in rows for token in row
    )


def parse(text: str, *, max_size: int | None = DEFAULT_MAX_SIZE) -> DoubleChoco:
    gray: list[list[bool]] = []
    numbers: list[list[int | None]] = []
    width = None
    for line_no, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith(";"):
            continue
        tokens = line.split()
        if width is None:
            width = len(tokens)
        elif len(tokens) != width:
            raise FormatError(
                f"this row has {len(tokens)} cells, the first row has {width} "
                "(the picture must be rectangular)",
                line=line_no,
            )
        gray_row: list[bool] = []
        number_row: list[int | None] = []
        column = 1
        for token in tokens:
            column = line.index(token, column - 1) + 1
            is_gray = token.startswith("#")
            rest = token[1:] if is_gray else token
            value: int | None
            if rest in ("", ".") and (is_gray or rest == "."):
                value = None
            elif rest == "?":
                value = QUESTION
            elif rest.isascii() and rest.isdigit():
                value = whole_number(rest, "the number", line=line_no, column=column)
            else:
                raise FormatError(
                    f"{quote(token)} is not a cell (., #, 5, #5, ?, #?)",
                    line=line_no,
                    column=column,
                )
            gray_row.append(is_gray)
            number_row.append(value)
            column += len(token)
        gray.append(gray_row)
        numbers.append(number_row)
    if not gray:
        raise FormatError("the picture is empty", line=1)
    return make_puzzle(gray, numbers, max_size=max_size)


def write(puzzle: DoubleChoco) -> str:
    lines = []
    for r in range(puzzle.height):
        tokens = []
        for c in range(puzzle.width):
            value = puzzle.number(r, c)
            token = "#" if puzzle.is_gray(r, c) else ""
            if value == QUESTION:
                token += "?"
            elif value is not None:
                token += str(value)
            tokens.append(token or ".")
        width = max(len(t) for t in tokens)
        lines.append(" ".join(t.ljust(width) for t in tokens).rstrip())
    return "\n".join(lines) + "\n"
