"""Errors a user can meet. Every one says what is wrong and where, in one sentence.

`PuzzleError` subclasses `ValueError`, so library callers can catch either. Front ends print
`str(error)` and exit with status 2; they never show a traceback for these.
"""

from __future__ import annotations


class PuzzleError(ValueError):
    """Base class: bad input or an impossible request, with a message that says where."""


class FormatError(PuzzleError):
    """The text cannot be read in the expected notation.

    `line` and `column` are 1-based positions in the input text when known.
    """

    def __init__(
        self,
        message: str,
        *,
        line: int | None = None,
        column: int | None = None,
        source: str | None = None,
    ) -> None:
        self.line = line
        self.column = column
        self.source = source
        where = []
        if source:
            where.append(source)
        if line is not None:
            where.append(f"line {line}")
        if column is not None:
            where.append(f"column {column}")
        prefix = ", ".join(where)
        super().__init__(f"{prefix}: {message}" if prefix else message)
        self.reason = message


class InvalidPuzzle(PuzzleError):
    """The text was read, but the puzzle itself is malformed (a clue that cannot fit, ...).

    `where` names the part of the puzzle, e.g. "row 7" or "column 3".
    """

    def __init__(self, message: str, *, where: str | None = None) -> None:
        self.where = where
        self.reason = message
        super().__init__(f"{where}: {message}" if where else message)


class LimitExceeded(PuzzleError):
    """The puzzle is larger than the configured limit."""


class UnknownFormat(PuzzleError):
    """No reader for the requested or detected notation."""
