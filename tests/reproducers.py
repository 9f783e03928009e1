"""The audit's bad inputs (issue 10), one list shared by the command line's tests and the web
app's: each must be one short sentence there (exit status 2, a 4xx answer), never a
traceback or a 500. tests/test_bad_input.py checks the library's side of each, in detail."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Reproducer:
    name: str
    data: bytes
    """What a user would have in a file, or paste into the import box."""
    filename: str
    """The file's name (its suffix is a hint, as on a user's disk)."""
    argument: bool = False
    """A URL a user would type on the command line instead of a file."""

    @property
    def text(self) -> str:
        """The data as the import box sends it (a lone surrogate stays one, as in JSON)."""
        return self.data.decode("utf-8", "surrogatepass")


def _text(name: str, text: str, filename: str) -> Reproducer:
    return Reproducer(name, text.encode("utf-8", "surrogatepass"), filename)


def _url(name: str, url: str) -> Reproducer:
    return Reproducer(name, url.encode(), "puzzle.url", argument=True)


DEEP = "[" * 1000 + "]" * 1000
WEBPBN = (
    "<puzzleset><puzzle><title>A \ud800 title</title>"
    '<clues type="rows"><line><count>1</count></line></clues>'
    '<clues type="columns"><line><count>1</count></line></clues></puzzle></puzzleset>'
)

REPRODUCERS = [
    _text("a one-line text longer than a file name", "~" * 300, "long.txt"),
    _url("a 40 KB puzz.link URL", "https://puzz.link/p?nonogram/5/5/" + "g" * 40_000),
    _text("deeply nested JSON (nonogram)", '{"rows": ' + DEEP + ', "cols": [[1]]}', "deep.json"),
    _text(
        "deeply nested JSON (Double Choco)",
        '{"colors": ["wg"], "numbers": ' + DEEP + "}",
        "deep-choco.json",
    ),
    _text("a 5000-digit number", '{"rows": [[' + "9" * 5000 + ']], "cols": [[1]]}', "n.json"),
    _text(
        "solution rows of the wrong length",
        '{"rows": [[1], [1]], "cols": [[1], [1]], "solution": ["#.", "."]}',
        "solution.json",
    ),
    _url("a superscript size in a Double Choco puzz.link URL", "https://puzz.link/p?dbchoco/²/4/0"),
    _url("a circled size in a Sudoku puzz.link URL", "https://puzz.link/p?sudoku/①/9/"),
    _url("a 5000-digit Sudoku puzz.link size", "https://puzz.link/p?sudoku/" + "9" * 5000 + "/9/"),
    _text("a circled number in pzprv3", "pzprv3\ndbchoco\n2\n2\n-① .\n. .\n", "choco.txt"),
    _text("a 5000-digit size in pzprv3", "pzprv3\ndbchoco\n" + "9" * 5000 + "\n2\n. .\n", "c.txt"),
    _text("a superscript number in Double Choco text", "#² .\n. #\n", "choco.txt"),
    _text("a lone surrogate in a webpbn title", WEBPBN, "title.xml"),
    _text("a 1.8 MB clue line", "1 " * 900_000 + "\n1\n", "huge.non"),
]
