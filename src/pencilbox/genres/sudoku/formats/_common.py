"""Helpers shared by the Sudoku notations: one line of symbols, comments, sizes."""

from __future__ import annotations

from pencilbox.errors import FormatError, InvalidPuzzle
from pencilbox.genres.sudoku.model import (
    BLANKS,
    Sudoku,
    box_size,
    default_alphabet,
    make_sudoku,
    size_for_length,
    symbols_to_values,
)


def strip_comment(line: str) -> str:
    """The puzzle part of a line: before a `#` comment, without surrounding spaces."""
    return line.split("#", 1)[0].strip()


def puzzle_lines(text: str) -> list[tuple[int, str]]:
    """(1-based line number, text) of the lines that are neither blank nor `#` comments."""
    return [
        (number, line)
        for number, line in enumerate(text.splitlines(), start=1)
        if line.strip() and not line.lstrip().startswith("#")
    ]


def parse_symbols(
    symbols: str,
    *,
    line: int | None = None,
    column: int = 1,
    alphabet: str | None = None,
    size: int | None = None,
    title: str | None = None,
    solution: str | None = None,
    meta: dict[str, str] | None = None,
) -> Sudoku:
    """One puzzle from a string of N*N symbols; errors carry the line (and column)."""
    try:
        if size is None:
            size = size_for_length(len(symbols))
        box_size(size)
        if len(symbols) != size * size:
            raise InvalidPuzzle(f"{len(symbols)} cells, a {size}x{size} sudoku needs {size * size}")
        alphabet = alphabet or default_alphabet(size)
        values = symbols_to_values(symbols, alphabet, line=line, column=column)
        solved = None
        if solution is not None:
            if len(solution) != size * size:
                raise InvalidPuzzle(
                    f"the solution has {len(solution)} cells, a {size}x{size} sudoku needs "
                    f"{size * size}"
                )
            solved = symbols_to_values(solution, alphabet, line=line, blanks="")
        return make_sudoku(
            values, size=size, alphabet=alphabet, title=title, solution=solved, meta=meta
        )
    except InvalidPuzzle as error:
        if line is None:
            raise
        raise FormatError(str(error), line=line) from None


def write_symbols(puzzle: Sudoku, blank: str = ".") -> str:
    """The board as N*N symbols; `blank` must not be one of the alphabet's symbols."""
    if blank in puzzle.alphabet:
        blank = next(b for b in BLANKS if b not in puzzle.alphabet)
    return puzzle.line(blank)


def parse_grid_rows(
    rows: list[tuple[int, int, str]],
    *,
    alphabet: str | None = None,
    title: str | None = None,
    meta: dict[str, str] | None = None,
) -> Sudoku:
    """A puzzle from N rows of N symbols, each given as (line, first column, symbols)."""
    size = len(rows)
    box_size(size)
    alphabet = alphabet or default_alphabet(size)
    values: list[int] = []
    for number, column, row in rows:
        if len(row) != size:
            raise FormatError(
                f"this row has {len(row)} cells, a {size}x{size} sudoku needs {size}",
                line=number,
            )
        values += symbols_to_values(row, alphabet, line=number, column=column)
    return make_sudoku(values, size=size, alphabet=alphabet, title=title, meta=meta)
