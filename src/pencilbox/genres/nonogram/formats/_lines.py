"""Helpers shared by the text notations: numbered lines, 1-based positions, and run lists whose
errors say which line and column hold the bad token."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pencilbox.errors import FormatError

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
"""One line and its break. Lines end where editors and expat end them; `str.splitlines` also
splits at form feeds and other separators, which would put errors on the wrong line."""

MAX_DIGITS = 6
"""No run or size a parser accepts needs more digits. Refusing longer numbers early keeps `int`
away from Python's limit on converting very long digit strings (a raw ValueError)."""


@dataclass(frozen=True)
class Line:
    number: int
    """1-based line number in the input."""
    text: str

    @property
    def blank(self) -> bool:
        return not self.text.strip()


def lines_with_ends(text: str) -> list[str]:
    return [match.group() for match in _LINE.finditer(text)]


def numbered_lines(text: str) -> list[Line]:
    return [
        Line(number, line.rstrip("\r\n"))
        for number, line in enumerate(lines_with_ends(text), start=1)
    ]


def position(text: str, index: int) -> tuple[int, int]:
    """The 1-based (line, column) of `text[index]`, for notations that are read as one string."""
    line, start = 1, 0
    for match in _LINE.finditer(text):
        if match.end() > index or match.group()[-1] not in "\r\n":
            break
        line, start = line + 1, match.end()
    return line, index - start + 1


def split_at(text: str, start: int, end: int, separator: str) -> list[tuple[int, str]]:
    """`text[start:end]` split at `separator`, each piece with its index in `text`."""
    pieces = []
    index = start
    for piece in text[start:end].split(separator):
        pieces.append((index, piece))
        index += len(piece) + len(separator)
    return pieces


def error_at(text: str, index: int, message: str) -> FormatError:
    """A FormatError at `text[index]`. The position is worked out only when there is an error:
    doing it for every token would make reading a long one-line notation quadratic."""
    line, column = position(text, index)
    return FormatError(message, line=line, column=column)


def number_at(text: str, index: int, token: str, what: str) -> int:
    """`whole_number` for a token found at `text[index]`."""
    if token.isascii() and token.isdigit() and len(token) <= MAX_DIGITS:
        return int(token)
    line, column = position(text, index)
    return whole_number(token, what, line=line, column=column)


def whole_number(
    token: str, what: str, *, line: int | None = None, column: int | None = None
) -> int:
    """`token` as an int, or a FormatError naming `what` and where it is."""
    # isdigit alone also accepts digits such as '²' that int() rejects.
    if not (token.isascii() and token.isdigit()):
        raise FormatError(f"{what} {token!r} is not a whole number", line=line, column=column)
    if len(token) > MAX_DIGITS:
        raise FormatError(f"{what} {token} is too large", line=line, column=column)
    return int(token)


def run_label(kind: str, index: int) -> str:
    """How errors name a run: `the clue of row 3: run`; "row 3:" alone could be read as a
    position after "line 4, column 2:"."""
    return f"the clue of {kind} {index}: run"


def spaced_runs(line: Line, kind: str, index: int) -> list[int]:
    """Runs separated by spaces or tabs (`3 1 2`); `0` or nothing is an empty line."""
    return [
        whole_number(
            match.group(), run_label(kind, index), line=line.number, column=match.start() + 1
        )
        for match in re.finditer(r"\S+", line.text)
    ]


def clue_block(lines: list[Line], expected: int, what: str, *, after: int) -> list[Line]:
    """The `expected` clue lines of a block of lines.

    Writers disagree about empty lines: most write `0` and their readers skip blank lines
    (jwilk's solver, Simpson's format), a few leave the line blank. So blank lines are skipped
    when the other lines are exactly enough, and count as empty lines when that makes the
    count right. `after` is the number of the line before the block, for an empty block.
    """
    body = list(lines)
    while body and body[-1].blank:
        body.pop()
    filled = [line for line in body if not line.blank]
    if len(filled) == expected:
        return filled
    if len(body) == expected:
        return body
    if len(filled) > expected:
        raise FormatError(
            f"expected {expected} {what} but there are more; this line is one too many",
            line=filled[expected].number,
        )
    last = filled[-1].number if filled else after
    raise FormatError(f"expected {expected} {what}, found only {len(filled)}", line=last)


def size_line(lines: list[Line], names: tuple[str, str]) -> tuple[int, int, int]:
    """The two sizes on the first non-blank line, in the order `names` gives, and the index of
    the line after it."""
    for index, line in enumerate(lines):
        if line.blank:
            continue
        tokens = list(re.finditer(r"\S+", line.text))
        if len(tokens) != 2:
            raise FormatError(
                f"the first line holds the {names[0]} and the {names[1]}, e.g. '10 15'",
                line=line.number,
                column=1,
            )
        first, second = (
            whole_number(token.group(), f"the {name}", line=line.number, column=token.start() + 1)
            for token, name in zip(tokens, names, strict=True)
        )
        return first, second, index + 1
    raise FormatError(
        f"the text is empty; the first line should hold the {names[0]} and the {names[1]}"
    )
