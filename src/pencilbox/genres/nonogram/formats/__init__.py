"""Nonogram notations: one module per notation, each with `parse(text, ...)` and `write(puzzle)`.

`read(text, format=None, filename=None)` detects the notation from the file name or the content
when `format` is not given. Every parser is total: a Nonogram or a FormatError with a position.
"""

from __future__ import annotations

from typing import Any

from pencilbox.core.notation import Notation, check_text, lookup, unknown
from pencilbox.errors import FormatError
from pencilbox.genres.nonogram.colour.model import ColourNonogram
from pencilbox.genres.nonogram.formats import (
    clues,
    jsonfile,
    mk,
    nin,
    non,
    puzzlink,
    pynogram,
    tatham,
    webpbn,
)
from pencilbox.genres.nonogram.model import DEFAULT_MAX_SIZE, Nonogram

AnyNonogram = Nonogram | ColourNonogram

# Content detection tries these in order, so the most distinctive come first and the loose
# clue strings last; mk comes before nin, since a .nin reads like a .mk without its '#' line.
# The black-and-white notations' writers take a Nonogram only; `write` below keeps colour
# puzzles away from them, hence Notation[Any] here.
_ALL: tuple[Notation[Any], ...] = (
    Notation("json", (".json",), jsonfile.parse, jsonfile.write, jsonfile.looks_like),
    Notation("webpbn", (".xml",), webpbn.parse, webpbn.write, webpbn.looks_like),
    Notation(
        "puzzlink", (".puzzlink", ".url"), puzzlink.parse, puzzlink.write, puzzlink.looks_like
    ),
    Notation("tatham", (".pattern",), tatham.parse, tatham.write, tatham.looks_like),
    Notation("pynogram", (".toml",), pynogram.parse, pynogram.write, pynogram.looks_like),
    Notation("non", (".non",), non.parse, non.write, non.looks_like),
    Notation("mk", (".mk",), mk.parse, mk.write, mk.looks_like),
    Notation("nin", (".nin",), nin.parse, nin.write, nin.looks_like),
    Notation("clues", (".clues", ".txt"), clues.parse, clues.write, clues.looks_like),
)
NOTATIONS: dict[str, Notation[AnyNonogram]] = {n.name: n for n in _ALL}


COLOUR_NOTATIONS = ("json", "webpbn", "pynogram")
"""The notations that can hold a colour puzzle."""


def detect(text: str, filename: str | None = None) -> Notation[AnyNonogram]:
    if filename:
        lowered = filename.lower()
        # pynogram's examples are .txt files, which the loose clue notation claims.
        if lowered.endswith(".txt") and pynogram.looks_like(text):
            return NOTATIONS["pynogram"]
        for notation in NOTATIONS.values():
            if lowered.endswith(notation.extensions):
                return notation
    for notation in NOTATIONS.values():
        if notation.looks_like(text):
            return notation
    raise unknown("nonogram", NOTATIONS, filename)


def get(name: str) -> Notation[AnyNonogram]:
    return lookup(NOTATIONS, name, "nonogram")


def read(
    text: str,
    format: str | None = None,
    *,
    filename: str | None = None,
    max_size: int | None = DEFAULT_MAX_SIZE,
) -> AnyNonogram:
    check_text(text)
    notation = get(format) if format else detect(text, filename)
    return notation.parse(text, max_size=max_size)


def write(puzzle: AnyNonogram, format: str) -> str:
    notation = get(format)
    if isinstance(puzzle, ColourNonogram) and notation.name not in COLOUR_NOTATIONS:
        raise FormatError(
            f"the {notation.name} notation has no colours; write this colour puzzle as "
            + ", ".join(COLOUR_NOTATIONS)
        )
    return notation.write(puzzle)
