"""What the command lines read: paths (files, folders, URLs) to puzzles, list files to their
numbered entries, and generator options. Shared by `pencilbox solve/grade/...` (cli.py) and
`pencilbox batch` (batch/), so both read the same inputs the same way.

Every reader here turns what a parser might still let slip into a PuzzleError that names the
input: bad input is one sentence, never a traceback.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pencilbox
from pencilbox.errors import PuzzleError, quote, shorten
from pencilbox.genres import base

PARSE_ERRORS = (ValueError, OSError, RecursionError)
"""What a parser bug could still raise instead of a PuzzleError: reported as bad input."""


# -- option values ----------------------------------------------------------------------------
def at_least(minimum: int) -> Callable[[str], int]:
    """An argparse type: a whole number >= minimum (one check for every count option)."""

    def whole(text: str) -> int:
        digits = text[1:] if text.startswith("-") else text
        if not (digits.isascii() and digits.isdigit() and len(digits) <= 9):
            raise argparse.ArgumentTypeError(f"{shorten(text, 40)!r} is not a whole number")
        if int(text) < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {text}")
        return int(text)

    return whole


def seconds(text: str) -> float:
    """An argparse type: a time limit, a finite number of seconds >= 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{shorten(text, 40)!r} is not a number") from None
    if not (math.isfinite(value) and value >= 0):
        raise argparse.ArgumentTypeError(f"must be a number of seconds >= 0, got {text}")
    return value


def describe(error: BaseException) -> str:
    """An unforeseen error in one line, with its kind."""
    return shorten(f"{type(error).__name__}: {error}", 120)


def is_url(text: str) -> bool:
    return "://" in text or text.startswith(("p?", "pzv.jp", "puzz.link"))


def kind(item: str) -> str | None:
    """What exists at `item`: a "dir", a "file", or None (nothing, or a string no file system
    accepts as a name, such as a 40 KB URL)."""
    try:
        path = Path(item)
        return "dir" if path.is_dir() else "file" if path.exists() else None
    except (OSError, ValueError):
        return None


def puzzle_suffixes() -> tuple[str, ...]:
    """The file endings a folder is searched for: every notation of every genre."""
    return tuple(dict.fromkeys(s for genre in base.all_genres() for s in genre.extensions))


def expand(paths: Sequence[str]) -> Iterator[str]:
    """Files and URLs in the order given; folders become their puzzle files, sorted."""
    suffixes = puzzle_suffixes()
    for item in paths:
        if kind(item) == "dir":
            for found in sorted(Path(item).rglob("*")):
                if found.is_file() and found.name.lower().endswith(suffixes):
                    yield str(found)
        else:
            yield item  # a file, a URL, or a missing path that `load` reports


@contextmanager
def reading(item: str) -> Iterator[None]:
    """The safety net under the parsers: they raise PuzzleError, and anything else one might
    still let slip (the fuzz test looks for such bugs) is reported as bad input all the same,
    in one line that names the input, never as a traceback."""
    try:
        yield
    except PuzzleError:
        raise
    except PARSE_ERRORS as error:
        raise PuzzleError(f"{shorten(item, 80)}: cannot read it ({describe(error)})") from None


def load(item: str, format: str | None, max_size: int | None) -> Any:
    """The puzzle of a file or URL."""
    with reading(item):
        if kind(item) is None:
            if is_url(item):
                return pencilbox.load(item, format=format, max_size=max_size)
            raise PuzzleError(f"{shorten(item, 80)}: no such file")
        # A genre that reads lists decides by content, before extension-based guesses
        # (some notations claim every `.txt`).
        batch = list_genre(item)
        genre = batch[0].name if batch else None
        return pencilbox.load(Path(item), genre=genre, format=format, max_size=max_size)


def list_genre(item: str) -> tuple[Any, str] | None:
    """(genre, text) when a genre that reads many puzzles a file claims this file."""
    if kind(item) != "file":
        return None
    path = Path(item)
    try:
        text = pencilbox.read_text(path)
    except PuzzleError:
        return None
    for genre in base.all_genres():
        if genre.parse_many is not None and genre.sniff(text, str(path)):
            return genre, text
    return None


def entries(
    genre: Any, text: str, item: str, format: str | None, **options: Any
) -> list[tuple[int, Any]]:
    """(line, puzzle or PuzzleError) for each puzzle of a list file."""
    try:
        with reading(item):
            return list(genre.parse_many(text, format, filename=item, **options))
    except PuzzleError as error:
        return [(1, error)]


def generator_options(genre: base.Genre, tokens: list[str]) -> tuple[dict[str, Any], bool]:
    """The `--name value` (or `--name=value`) pairs for the generator, and whether --json was
    given. Values stay text: each generator checks and converts its own options (one
    whole-number check, core/notation.whole_value), as it does for the web app's; an option
    its schema does not list reaches it too, and it says which options it knows."""
    options: dict[str, Any] = {}
    as_json = False
    tokens = list(tokens)
    schema = {option.flag[2:].replace("-", "_"): option for option in genre.options()}
    while tokens:
        token = tokens.pop(0)
        if not token.startswith("--") or token == "--":
            raise PuzzleError(f"generate {genre.name}: expected --OPTION VALUE, found {token!r}")
        name, _, value = token[2:].partition("=")
        if name == "json" and not value:
            as_json = True
            continue
        if not value:
            if not tokens or tokens[0].startswith("--"):
                raise PuzzleError(f"generate {genre.name}: --{name} needs a value")
            value = tokens.pop(0)
        key = name.replace("-", "_")
        option = schema.get(key)
        if option is not None and option.kind == "file":
            options[option.name] = _file_bytes(value, option.flag)
        else:
            options[option.name if option is not None else key] = value
    return options, as_json


def _file_bytes(path: str, flag: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as error:
        raise PuzzleError(
            f"{flag} {quote(path)}: cannot read the file ({error.strerror})"
        ) from None
