"""The seed tool's clue strings: two lines, rows then columns; `,` between lines, spaces
between runs (`3 3,5 7 5,2 12 2`). A file may say `rows: ...` and `columns: ...` instead."""

from __future__ import annotations

import re

from pencilbox.core.notation import MAX_DIGITS
from pencilbox.errors import FormatError, quote
from pencilbox.genres.nonogram.model import DEFAULT_MAX_SIZE, Nonogram, make_puzzle

_LABEL = re.compile(r"^\s*(rows?|cols?|columns?)\s*[:=]\s*", re.IGNORECASE)


def looks_like(text: str) -> bool:
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    # Separators must show up somewhere, or two lines of digits (a Sudoku list) would match.
    return (
        len(lines) == 2
        and all(re.fullmatch(r"[\w:=\s,]*", ln) for ln in lines)
        and any("," in ln or " " in ln.strip() or len(ln.strip()) <= 3 for ln in lines)
    )


def parse(text: str, *, max_size: int | None = DEFAULT_MAX_SIZE) -> Nonogram:
    lines = [
        (number, line)
        for number, line in enumerate(text.splitlines(), start=1)
        if line.strip() and not line.lstrip().startswith("#")
    ]
    if len(lines) != 2:
        raise FormatError(
            f"clue strings need exactly two lines (rows, then columns), found {len(lines)}"
        )
    labelled: dict[str, tuple[int, str, int]] = {}
    for position, (number, line) in enumerate(lines):
        match = _LABEL.match(line)
        kind = ("rows", "cols")[position]
        offset = 0
        if match:
            kind = "rows" if match.group(1).lower().startswith("row") else "cols"
            offset = match.end()
        labelled[kind] = (number, line[offset:], offset)
    if set(labelled) != {"rows", "cols"}:
        raise FormatError("one line must hold the rows and the other the columns")
    rows = parse_clue_list(*labelled["rows"], kind="row")
    cols = parse_clue_list(*labelled["cols"], kind="column")
    return make_puzzle(rows, cols, max_size=max_size)


def parse_clue_list(
    line_number: int, text: str, offset: int = 0, *, kind: str = "row"
) -> list[list[int]]:
    """`3 3,5 7 5` -> [[3, 3], [5, 7, 5]]; errors name the line of text, column and clue."""
    clues: list[list[int]] = []
    column = offset + 1
    for index, part in enumerate(text.split(","), start=1):
        runs = []
        for match in re.finditer(r"\S+", part):
            token = match.group()
            if not (token.isascii() and token.isdigit()) or len(token) > MAX_DIGITS:
                what = "negative" if re.fullmatch(r"-\d+", token) else "not a number"
                if token.isascii() and token.isdigit():
                    what = "far too large"
                raise FormatError(
                    f"{kind} {index}: {quote(token)} is {what}; runs are whole numbers >= 0",
                    line=line_number,
                    column=column + match.start(),
                )
            runs.append(int(token))
        clues.append(runs)
        column += len(part) + 1
    return clues


def write(puzzle: Nonogram) -> str:
    def line(clues: tuple[tuple[int, ...], ...]) -> str:
        return ",".join(" ".join(map(str, c)) if c else "0" for c in clues)

    return f"{line(puzzle.rows)}\n{line(puzzle.cols)}\n"
