"""HoDoKu library lines: `:<technique>:<digits>:<grid>:<deleted>:<eliminations>:<placements>:`.

The grid has N*N cells, `.` blank, with `+` before a digit that was placed (not a given).
Deleted candidates, eliminations and placements are space-separated triples; in the HoDoKu
regression library they are written digit, row, column (`612` = digit 6 at r1c2: the first
character always equals one of the technique's digits), which is how they are read here.
An optional further field (e.g. a count) is kept in `extra`. `HodokuLine` exposes every field
for the technique tests; `parse` gives the Sudoku (givens; placed digits kept apart).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pencilbox.errors import FormatError, InvalidPuzzle, quote
from pencilbox.genres.sudoku.formats._common import strip_comment
from pencilbox.genres.sudoku.model import Sudoku, make_sudoku, symbols_to_values

Candidate = tuple[int, int, int]
"""(row, column, digit), all 1-based."""

_START = re.compile(r"\s*:[0-9]{4,5}(-[0-9A-Za-z]+)?:")


@dataclass(frozen=True)
class HodokuLine:
    technique: str
    """The technique code, e.g. "0100" or "0601-1"."""
    digits: str
    """The technique's digit(s), as written (e.g. "17")."""
    givens: list[int]
    placed: list[int]
    """Digits written with `+` (entered, not given); 0 elsewhere."""
    deleted: list[Candidate]
    """Candidates already removed before the step."""
    eliminations: list[Candidate]
    placements: list[Candidate]
    extra: str
    line: int
    puzzle: Sudoku


def looks_like(text: str) -> bool:
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    return bool(lines) and all(_START.match(ln) for ln in lines[:5])


def _triples(field: str, number: int) -> list[Candidate]:
    found: list[Candidate] = []
    for token in field.split():
        if not re.fullmatch(r"[1-9]{3}", token):
            raise FormatError(
                f"{quote(token)} is not a candidate (digit, row, column)", line=number
            )
        digit, row, col = (int(ch) for ch in token)
        found.append((row, col, digit))
    return found


def parse_line(text: str, number: int = 1) -> HodokuLine:
    line = strip_comment(text)
    if not _START.match(line):
        raise FormatError("a HoDoKu line starts with `:<4-digit technique>:`", line=number)
    fields = line.strip().split(":")[1:]
    if len(fields) < 6:
        raise FormatError(
            f"{len(fields)} fields; a HoDoKu line needs technique, digits, grid, deleted, "
            "eliminations and placements",
            line=number,
        )
    technique, digits, grid = fields[0], fields[1], fields[2]
    givens: list[int] = []
    placed: list[int] = []
    plus = False
    column = line.index(grid) + 1 if grid else 1
    for offset, ch in enumerate(grid):
        if ch == "+":
            plus = True
            continue
        value = symbols_to_values(ch, "123456789", line=number, column=column + offset)[0]
        givens.append(0 if plus else value)
        placed.append(value if plus else 0)
        plus = False
    if len(givens) != 81:
        raise FormatError(f"{len(givens)} cells, a 9x9 sudoku needs 81", line=number)
    try:
        puzzle = make_sudoku(givens, size=9, placed=placed, title=f"HoDoKu {technique}")
    except InvalidPuzzle as error:
        raise FormatError(str(error), line=number) from None
    return HodokuLine(
        technique=technique,
        digits=digits,
        givens=givens,
        placed=placed,
        deleted=_triples(fields[3], number),
        eliminations=_triples(fields[4], number),
        placements=_triples(fields[5], number),
        extra=":".join(f for f in fields[6:] if f),
        line=number,
        puzzle=puzzle,
    )


def parse(text: str, *, alphabet: str | None = None) -> Sudoku:
    lines = [
        (n, ln)
        for n, ln in enumerate(text.splitlines(), start=1)
        if ln.strip() and not ln.lstrip().startswith("#")
    ]
    if not lines:
        raise FormatError("no HoDoKu line found")
    if len(lines) > 1:
        raise FormatError(
            f"this text holds {len(lines)} HoDoKu lines; read it as a list (parse_many)",
            line=lines[1][0],
        )
    return parse_line(lines[0][1], lines[0][0]).puzzle


def _candidates(items: list[Candidate]) -> str:
    return " ".join(f"{d}{r}{c}" for r, c, d in items)


def write_line(item: HodokuLine) -> str:
    grid = "".join(
        f"+{p}" if p else (str(g) if g else ".") for g, p in zip(item.givens, item.placed)
    )
    fields = [
        item.technique,
        item.digits,
        grid,
        _candidates(item.deleted),
        _candidates(item.eliminations),
        _candidates(item.placements),
    ]
    if item.extra:
        fields.append(item.extra)
    return ":" + ":".join(fields) + ":"


def write(puzzle: Sudoku) -> str:
    """The puzzle as a HoDoKu line with no technique data (technique 0000, empty fields)."""
    if puzzle.size != 9:
        raise FormatError("HoDoKu lines hold 9x9 puzzles only")
    placed = puzzle.placed.cells if puzzle.placed is not None else (0,) * 81
    grid = "".join(
        f"+{p}" if p else (str(g) if g else ".") for g, p in zip(puzzle.givens.cells, placed)
    )
    return f":0000:x:{grid}::::\n"
