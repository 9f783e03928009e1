"""Sudoku notations: one module per notation, each with `parse(text, *, alphabet)` and `write`.

`read(text, format=None, filename=None)` detects the notation from the file name or the
content. `parse_many` reads files of many puzzles (one a line: plain lines, `.sdm`, Kaggle CSV,
HoDoKu lines, URLs) and yields (1-based line number, Sudoku or PuzzleError), so one bad line
does not stop a batch. Every parser is total: a Sudoku or a PuzzleError with a position.
"""

from __future__ import annotations

from collections.abc import Iterator

from pencilbox.core.notation import Notation, check_text, lookup, unknown
from pencilbox.errors import FormatError, PuzzleError
from pencilbox.genres.sudoku.formats import hodoku, kaggle, line, puzzlink, sdk, ss
from pencilbox.genres.sudoku.formats._common import puzzle_lines
from pencilbox.genres.sudoku.model import Sudoku


def _hodoku_line(number: int, text: str, *, alphabet: str | None = None) -> Sudoku:
    return hodoku.parse_line(text, number).puzzle


def _url_line(number: int, text: str, *, alphabet: str | None = None) -> Sudoku:
    try:
        return puzzlink.parse(text, alphabet=alphabet)
    except FormatError as error:
        raise FormatError(error.reason, line=number, column=error.column) from None


NOTATIONS: dict[str, Notation[Sudoku]] = {
    n.name: n
    for n in (
        Notation("kaggle", (".csv",), kaggle.parse, kaggle.write, kaggle.looks_like),
        Notation("sdk", (".sdk",), sdk.parse, sdk.write, sdk.looks_like),
        Notation("ss", (".ss",), ss.parse, ss.write, ss.looks_like),
        Notation("hodoku", (), hodoku.parse, hodoku.write, hodoku.looks_like, _hodoku_line),
        Notation(
            "puzzlink", (".url",), puzzlink.parse, puzzlink.write, puzzlink.looks_like, _url_line
        ),
        Notation(
            "line", (".txt", ".sudoku"), line.parse, line.write, line.looks_like, line.parse_line
        ),
        Notation("sdm", (".sdm",), line.parse, line.write_sdm, line.looks_like, line.parse_line),
    )
}
ALIASES = {
    "csv": "kaggle",
    "81": "line",
    "url": "puzzlink",
    "picture": "ss",
    "hodoku-line": "hodoku",
}


def detect(text: str, filename: str | None = None) -> Notation[Sudoku]:
    """The notation by file extension (only when the content agrees), else by content."""
    if filename:
        lowered = filename.lower()
        for notation in NOTATIONS.values():
            by_name = bool(notation.extensions) and lowered.endswith(notation.extensions)
            if by_name and (notation.looks_like(text) or lowered.endswith((".sdk", ".ss", ".sdm"))):
                return notation
    for notation in NOTATIONS.values():
        if notation.looks_like(text):
            return notation
    raise unknown("sudoku", NOTATIONS, filename)


def get(name: str) -> Notation[Sudoku]:
    return lookup(NOTATIONS, name, "sudoku", ALIASES)


def read(
    text: str,
    format: str | None = None,
    *,
    filename: str | None = None,
    alphabet: str | None = None,
    max_size: int | None = None,
) -> Sudoku:
    """One puzzle (`max_size` is accepted for the genre interface; sudoku sizes are fixed)."""
    check_text(text)
    notation = get(format) if format else detect(text, filename)
    return notation.parse(text, alphabet=alphabet)


def parse_many(
    text: str,
    format: str | None = None,
    *,
    filename: str | None = None,
    alphabet: str | None = None,
) -> Iterator[tuple[int, Sudoku | PuzzleError]]:
    """(1-based line number, Sudoku or PuzzleError) for every puzzle in the text."""
    try:
        check_text(text)
        notation = get(format) if format else detect(text, filename)
    except PuzzleError as error:
        yield 1, error
        return
    if notation.name == "kaggle":
        yield from kaggle.parse_rows(text, alphabet=alphabet)
        return
    if notation.line_parser is None:
        first = puzzle_lines(text)
        number = first[0][0] if first else 1
        try:
            yield number, notation.parse(text, alphabet=alphabet)
        except PuzzleError as error:
            yield number, error
        return
    for number, text_line in puzzle_lines(text):
        try:
            yield number, notation.line_parser(number, text_line, alphabet=alphabet)
        except PuzzleError as error:
            yield number, error


def write(puzzle: Sudoku, format: str) -> str:
    return get(format).write(puzzle)
