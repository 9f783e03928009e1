"""Helpers shared by the nonogram text notations: numbered lines and run lists whose errors say
which line and column hold the bad token (whole numbers and positions: core/notation.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pencilbox.core.notation import lines_with_ends, whole_number
from pencilbox.errors import FormatError


@dataclass(frozen=True)
class Line:
    number: int
    """1-based line number in the input."""
    text: str

    @property
    def blank(self) -> bool:
        return not self.text.strip()


def numbered_lines(text: str) -> list[Line]:
    return [
        Line(number, line.rstrip("\r\n"))
        for number, line in enumerate(lines_with_ends(text), start=1)
    ]


def split_at(text: str, start: int, end: int, separator: str) -> list[tuple[int, str]]:
    """`text[start:end]` split at `separator`, each piece with its index in `text`."""
    pieces = []
    index = start
    for piece in text[start:end].split(separator):
        pieces.append((index, piece))
        index += len(piece) + len(separator)
    return pieces


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
