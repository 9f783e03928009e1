"""What every genre's notation table is made of: a `Notation` per text format, looked up by
name (with aliases) with one error message. Each genre keeps its own detection order, since
what counts as clear evidence of a format differs from genre to genre."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pencilbox.errors import FormatError, UnknownFormat

P = TypeVar("P")


@dataclass(frozen=True)
class Notation(Generic[P]):
    name: str
    extensions: tuple[str, ...]
    parse: Callable[..., P]
    """parse(text, **options) -> puzzle; FormatError/InvalidPuzzle with a position."""
    write: Callable[[P], str]
    looks_like: Callable[[str], bool]
    """A cheap content test used when the file name does not decide."""
    line_parser: Callable[..., P] | None = None
    """For files of one puzzle a line: parse(line number, text, **options) -> puzzle."""


def lookup(
    table: Mapping[str, Notation[P]],
    name: str,
    genre: str,
    aliases: Mapping[str, str] | None = None,
) -> Notation[P]:
    """The notation called `name` (or an alias of it), or UnknownFormat listing the known."""
    try:
        return table[(aliases or {}).get(name, name)]
    except KeyError:
        known = ", ".join(table)
        raise UnknownFormat(f"unknown {genre} format {name!r}; known: {known}") from None


def unknown(genre: str, table: Mapping[str, object], filename: str | None) -> UnknownFormat:
    """The error for a text no notation of the genre recognises."""
    where = f"{filename}: " if filename else ""
    return UnknownFormat(
        f"{where}cannot tell which {genre} format this is (known: {', '.join(table)})"
    )


def json_object(text: str, expected: str) -> dict[str, Any]:
    """The JSON object in `text`; a syntax error names its line and column, and anything
    but an object is refused with `expected` (what such a file should hold)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise FormatError(
            f"not valid JSON: {error.msg}", line=error.lineno, column=error.colno
        ) from None
    if not isinstance(data, dict):
        raise FormatError(expected)
    return data
