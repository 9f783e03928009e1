"""Errors a user can meet. Every one says what is wrong and where, in one sentence.

`PuzzleError` subclasses `ValueError`, so library callers can catch either. Front ends print
`str(error)` and exit with status 2; they never show a traceback for these.

A message quotes at most a short excerpt of the input (`quote`), and every message is cut to
`MAX_MESSAGE` characters: a 2 MB clue line must not come back as a 2 MB error.
"""

from __future__ import annotations

MAX_MESSAGE = 160
"""The longest message an error carries; longer ones lose their middle."""
QUOTE_LIMIT = 40
"""How much of a piece of input `quote` shows."""


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """`repr(text)`, or for a long text its two ends and its length: 'ab…yz' (5000 characters)."""
    if len(text) <= limit:
        return repr(text)
    half = (limit - 1) // 2
    return f"{text[:half] + '…' + text[-half:]!r} ({len(text)} characters)"


def shorten(message: str, limit: int = MAX_MESSAGE) -> str:
    """`message` cut to `limit` characters by dropping its middle (its end often says why)."""
    if len(message) <= limit:
        return message
    tail = limit // 3
    return f"{message[: limit - tail - 3]} … {message[-tail:]}"


PATH_LIMIT = 80
"""The longest file name (or other source) that a message's "where" shows; a longer one loses
its middle, so its end, the file's own name, stays."""


class PuzzleError(ValueError):
    """Base class: bad input or an impossible request, with a message that says where.

    `where` (a file, line and column, or a part of the puzzle) goes before the message and is
    not cut with it: a long folder name must not cost the message the words that say why."""

    def __init__(self, message: object = "", *, where: str = "") -> None:
        reason = shorten(str(message))
        super().__init__(f"{where}: {reason}" if where else reason)


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
            where.append(shorten(source, PATH_LIMIT))
        if line is not None:
            where.append(f"line {line}")
        if column is not None:
            where.append(f"column {column}")
        self.reason = shorten(message)
        super().__init__(self.reason, where=", ".join(where))


class InvalidPuzzle(PuzzleError):
    """The text was read, but the puzzle itself is malformed (a clue that cannot fit, ...).

    `where` names the part of the puzzle, e.g. "row 7" or "column 3".
    """

    def __init__(self, message: str, *, where: str | None = None) -> None:
        self.where = where
        self.reason = shorten(message)
        super().__init__(self.reason, where=where or "")


class LimitExceeded(PuzzleError):
    """The puzzle is larger than the configured limit."""


class UnknownFormat(PuzzleError):
    """No reader for the requested or detected notation."""


class MoveError(PuzzleError):
    """A move of a game (see `pencilbox.session`) that cannot be applied; the message quotes
    the bad part."""
