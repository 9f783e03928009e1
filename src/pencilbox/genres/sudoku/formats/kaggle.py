"""Kaggle-style CSV: a header `quizzes,solutions`, then `puzzle,solution` rows (`0` blank).

The solution column is optional; a given solution is kept on the puzzle (`Sudoku.solution`)
so tests can compare it with the solver's answer.
"""

from __future__ import annotations

from collections.abc import Iterator

from pencilbox.errors import FormatError, PuzzleError
from pencilbox.genres.sudoku.formats._common import parse_symbols, write_symbols
from pencilbox.genres.sudoku.model import Sudoku

HEADER = "quizzes,solutions"


def looks_like(text: str) -> bool:
    first = text.lstrip().split("\n", 1)[0].strip().lower()
    return first.replace(" ", "") in (HEADER, "quizzes", "puzzle,solution", "puzzles,solutions")


def parse_rows(
    text: str, *, alphabet: str | None = None
) -> Iterator[tuple[int, Sudoku | PuzzleError]]:
    header_seen = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if not header_seen:
            header_seen = True
            if any(ch.isalpha() for ch in line.split(",")[0]) and not line[:1].isdigit():
                continue
        fields = [f.strip() for f in line.split(",")]
        if len(fields) > 2:
            yield (
                number,
                FormatError(
                    f"{len(fields)} fields; a row holds a puzzle and optionally its solution",
                    line=number,
                ),
            )
            continue
        solution = fields[1] if len(fields) == 2 and fields[1] else None
        try:
            yield (
                number,
                parse_symbols(fields[0], line=number, alphabet=alphabet, solution=solution),
            )
        except PuzzleError as error:
            yield number, error


def parse(text: str, *, alphabet: str | None = None) -> Sudoku:
    rows = list(parse_rows(text, alphabet=alphabet))
    if not rows:
        raise FormatError("the CSV holds no puzzle rows")
    if len(rows) > 1:
        raise FormatError(
            f"this CSV holds {len(rows)} puzzles; read it as a list "
            "(`pencilbox solve FILE --jsonl`, or parse_many)",
            line=rows[1][0],
        )
    found = rows[0][1]
    if isinstance(found, PuzzleError):
        raise found
    return found


def write(puzzle: Sudoku) -> str:
    solution = ""
    if puzzle.solution is not None:
        solution = "".join(puzzle.alphabet[v - 1] for v in puzzle.solution.cells)
    return f"{HEADER}\n{write_symbols(puzzle, '0')},{solution}\n"
