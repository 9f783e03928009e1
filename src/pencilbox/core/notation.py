"""What every genre's notation table is made of: a `Notation` per text format, looked up by
name (with aliases) with one error message. Each genre keeps its own detection order, since
what counts as clear evidence of a format differs from genre to genre.

Also the pieces every parser shares, so that each is written (and made total) once: whole
numbers (`whole_number`: ASCII digits only, a length cap, an error with the position), the
1-based position of an index in a text, the check that a text is valid Unicode, and the JSON
reader (`json_object`: depth, number length and lone surrogates refused with a FormatError).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pencilbox.errors import FormatError, PuzzleError, UnknownFormat, quote

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


# -- positions ----------------------------------------------------------------------------------
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
"""One line and its break. Lines end where editors and expat end them; `str.splitlines` also
splits at form feeds and other separators, which would put errors on the wrong line."""


def lines_with_ends(text: str) -> list[str]:
    return [match.group() for match in _LINE.finditer(text)]


def position(text: str, index: int) -> tuple[int, int]:
    """The 1-based (line, column) of `text[index]`, for notations that are read as one string."""
    line, start = 1, 0
    for match in _LINE.finditer(text):
        if match.end() > index or match.group()[-1] not in "\r\n":
            break
        line, start = line + 1, match.end()
    return line, index - start + 1


def error_at(text: str, index: int, message: str) -> FormatError:
    """A FormatError at `text[index]`. The position is worked out only when there is an error:
    doing it for every token would make reading a long one-line notation quadratic."""
    line, column = position(text, index)
    return FormatError(message, line=line, column=column)


# -- whole numbers ----------------------------------------------------------------------------
MAX_DIGITS = 6
"""No size, run or clue number of a puzzle needs more digits. Refusing longer numbers before
`int` keeps it away from Python's limit on converting long digit strings (a raw ValueError),
and from the work of converting them."""


def whole_number(
    token: str,
    what: str,
    *,
    line: int | None = None,
    column: int | None = None,
    max_digits: int = MAX_DIGITS,
) -> int:
    """`token` as an int >= 0, or a FormatError naming `what` and where it is.

    Only ASCII digits count: `str.isdigit` also accepts '²' or '①', which `int` refuses."""
    if not (token.isascii() and token.isdigit()):
        raise FormatError(f"{what} {quote(token)} is not a whole number", line=line, column=column)
    if len(token) > max_digits:
        raise FormatError(
            f"{what} has {len(token)} digits, more than any puzzle needs ({max_digits})",
            line=line,
            column=column,
        )
    return int(token)


def whole_value(
    value: object,
    what: str,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    max_digits: int = 18,
) -> int:
    """An option's value as an int: an int, or a string of ASCII digits (a leading `-` allowed),
    as the command line and JSON requests give them; anything else (a bool, a fraction,
    infinity, 'abc', '²') is a PuzzleError naming `what` (e.g. "--size")."""
    number: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str):
        text = value.strip()
        digits = text[1:] if text.startswith("-") else text
        if digits.isascii() and digits.isdigit() and len(digits) <= max_digits:
            number = int(text)
    if number is None or abs(number) >= 10**max_digits:
        shown = quote(value) if isinstance(value, str) else type(value).__name__
        raise PuzzleError(f"{what} must be a whole number, got {shown}")
    if minimum is not None and number < minimum:
        raise PuzzleError(f"{what} must be at least {minimum}, got {number}")
    if maximum is not None and number > maximum:
        raise PuzzleError(f"{what} must be at most {maximum}, got {number}")
    return number


def number_at(text: str, index: int, token: str, what: str) -> int:
    """`whole_number` for a token found at `text[index]` (the position is worked out only for
    an error)."""
    if token.isascii() and token.isdigit() and len(token) <= MAX_DIGITS:
        return int(token)
    line, column = position(text, index)
    return whole_number(token, what, line=line, column=column)


# -- text -------------------------------------------------------------------------------------
_SURROGATE = re.compile("[\ud800-\udfff]")


def check_text(text: str) -> None:
    """Refuse a string that is not valid Unicode text: a lone surrogate (from a JSON escape
    such as \\ud800, or bytes decoded with surrogateescape) cannot be written anywhere."""
    if text.isascii():
        return
    found = _SURROGATE.search(text)
    if found is not None:
        raise error_at(
            text,
            found.start(),
            f"U+{ord(found.group()):04X} is a lone surrogate, not a character",
        )


# -- JSON -------------------------------------------------------------------------------------
MAX_JSON_DIGITS = 15
"""Longer JSON integers are refused; none in a puzzle file needs as many."""


def json_object(text: str, expected: str) -> dict[str, Any]:
    """The JSON object in `text`; anything but an object is refused with `expected` (what such
    a file should hold). Errors as for `json_value`."""
    data = json_value(text)
    if not isinstance(data, dict):
        raise FormatError(expected)
    return data


def json_value(text: str, *, line: int | None = None) -> Any:
    """The JSON value in `text` (which is line `line` of a larger input, if given). A syntax
    error names its line and column; nesting too deep for the decoder, integers over
    MAX_JSON_DIGITS digits and strings that are not valid text are FormatErrors too, so a JSON
    reader never raises anything else."""

    def bounded_int(token: str) -> int:
        if len(token.lstrip("-")) > MAX_JSON_DIGITS:
            raise _json_error(
                text,
                max(text.find(token), 0),
                f"this number has {len(token.lstrip('-'))} digits; a puzzle file needs at most "
                f"{MAX_JSON_DIGITS}",
                line,
            )
        return int(token)

    try:
        data = json.loads(text, parse_int=bounded_int)
    except json.JSONDecodeError as error:
        raise _json_error(text, error.pos, f"not valid JSON: {error.msg}", line) from None
    except RecursionError:
        raise FormatError("the JSON is nested too deeply to be a puzzle", line=line) from None
    _check_strings(data, line)
    return data


def _json_error(text: str, index: int, message: str, line: int | None) -> FormatError:
    if line is None:
        return error_at(text, index, message)
    return FormatError(message, line=line, column=index + 1)


def json_kind(value: object) -> str:
    """What a decoded JSON value is, for messages (never its repr, which may be huge)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return f"the number {value}"
    if isinstance(value, float):
        return "a number with a fraction"
    if isinstance(value, str):
        return f"the string {quote(value)}"
    return "a list" if isinstance(value, list) else "an object"


def _check_strings(data: object, line: int | None = None) -> None:
    """Every string in decoded JSON (keys too) is valid text; walked without recursion."""
    pending = [data]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                raise FormatError(
                    f"the JSON string {quote(item)} holds a lone surrogate, not a character",
                    line=line,
                )
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
