"""Nonogram notations: one module per notation, each with `parse(text, ...)` and `write(puzzle)`.

`read(text, format=None, filename=None)` detects the notation from the file name or the content
when `format` is not given. Every parser is total: a Nonogram or a FormatError with a position.
"""

from __future__ import annotations

from pencilbox.core.notation import Notation, check_text, lookup, unknown
from pencilbox.genres.nonogram.formats import (
    clues,
    jsonfile,
    mk,
    nin,
    non,
    puzzlink,
    tatham,
    webpbn,
)
from pencilbox.genres.nonogram.model import DEFAULT_MAX_SIZE, Nonogram

# Content detection tries these in order, so the most distinctive come first and the loose
# clue strings last; mk comes before nin, since a .nin reads like a .mk without its '#' line.
NOTATIONS: dict[str, Notation[Nonogram]] = {
    n.name: n
    for n in (
        Notation("json", (".json",), jsonfile.parse, jsonfile.write, jsonfile.looks_like),
        Notation("webpbn", (".xml",), webpbn.parse, webpbn.write, webpbn.looks_like),
        Notation(
            "puzzlink", (".puzzlink", ".url"), puzzlink.parse, puzzlink.write, puzzlink.looks_like
        ),
        Notation("tatham", (".pattern",), tatham.parse, tatham.write, tatham.looks_like),
        Notation("non", (".non",), non.parse, non.write, non.looks_like),
        Notation("mk", (".mk",), mk.parse, mk.write, mk.looks_like),
        Notation("nin", (".nin",), nin.parse, nin.write, nin.looks_like),
        Notation("clues", (".clues", ".txt"), clues.parse, clues.write, clues.looks_like),
    )
}


def detect(text: str, filename: str | None = None) -> Notation[Nonogram]:
    if filename:
        lowered = filename.lower()
        for notation in NOTATIONS.values():
            if lowered.endswith(notation.extensions):
                return notation
    for notation in NOTATIONS.values():
        if notation.looks_like(text):
            return notation
    raise unknown("nonogram", NOTATIONS, filename)


def get(name: str) -> Notation[Nonogram]:
    return lookup(NOTATIONS, name, "nonogram")


def read(
    text: str,
    format: str | None = None,
    *,
    filename: str | None = None,
    max_size: int | None = DEFAULT_MAX_SIZE,
) -> Nonogram:
    check_text(text)
    notation = get(format) if format else detect(text, filename)
    return notation.parse(text, max_size=max_size)


def write(puzzle: Nonogram, format: str) -> str:
    return get(format).write(puzzle)
