"""pencilbox: solve, explain, hint, grade, check and generate grid logic puzzles.

import pencilbox
puzzle = pencilbox.load("puzzle.non")        # a path, or the text itself
result = puzzle.solve()                      # result.status: unique / multiple / none
for step in puzzle.steps()[:5]:
    print(step.sentence)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pencilbox.core.notation import check_text
from pencilbox.core.vision import is_picture_file
from pencilbox.errors import FormatError, InvalidPuzzle, PuzzleError, UnknownFormat
from pencilbox.genres import base

base.discover()  # (every package in genres/ registers its genre)

__version__ = "0.1.0"

__all__ = ["FormatError", "InvalidPuzzle", "PuzzleError", "UnknownFormat", "load", "read_text"]


MAX_FILE_BYTES = 64 * 1024 * 1024
"""Larger files are refused before they are read: the longest puzzle lists are a few MB."""
MAX_PATH = 4096
"""Longer strings are never file names (Linux's PATH_MAX), so `load` reads them as text."""
MAX_NAME = 255
"""Nor are strings with a longer part between slashes (NAME_MAX)."""


def read_text(path: str | Path) -> str:
    """The text of a puzzle file, with a clear error when it cannot be read."""
    try:
        size = Path(path).stat().st_size
        if size > MAX_FILE_BYTES:
            raise FormatError(
                f"the file has {size:,} bytes; puzzle files have at most {MAX_FILE_BYTES:,}",
                source=str(path),
            )
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise FormatError(
            f"not a text file (byte {error.start} is not UTF-8)", source=str(path)
        ) from None
    except OSError as error:
        raise FormatError(f"cannot read the file: {error.strerror}", source=str(path)) from None


def load(
    text_or_path: str | Path,
    *,
    genre: str | None = None,
    format: str | None = None,
    max_size: int | None = 200,
) -> Any:
    """A puzzle from a file path or from the puzzle text itself (the genre is detected)."""
    filename = None
    text = str(text_or_path)
    if isinstance(text_or_path, Path) or _is_file(text):
        filename = str(text_or_path)
        if is_picture_file(filename):
            return _load_picture(filename, genre)
        text = read_text(text_or_path)
    check_text(text)
    chosen = base.get(genre) if genre else base.detect(text, filename)
    try:
        return chosen.parse(text, format, filename=filename, max_size=max_size)
    except FormatError as error:
        if filename and error.source is None:
            raise FormatError(
                error.reason, line=error.line, column=error.column, source=filename
            ) from None
        raise


def _is_file(text: str) -> bool:
    """Whether a string names an existing file. Strings that cannot be a path (too long, a
    part longer than a file name, several lines, a NUL) are puzzle text, and are never given
    to the file system: a long one-line puzzle would fail there with "File name too long"."""
    if not text or len(text) > MAX_PATH or any(ch in text for ch in "\n\r\0"):
        return False
    if any(len(part) > MAX_NAME for part in text.split("/")):
        return False
    try:
        return Path(text).is_file()
    except (OSError, ValueError):  # e.g. a name the file system cannot encode
        return False


def _load_picture(filename: str, genre: str | None) -> Any:
    """The puzzle in a screenshot or photo, when it was read with certainty; otherwise a
    PuzzleError that lists what to check (`pencilbox read` shows the whole reading)."""
    from pencilbox import pictures

    reading = pictures.read(filename, genre=genre)
    if reading.status != "ok":
        doubts = []
        for doubt in reading.uncertain_json()[:6]:
            where = doubt.get("cell") or f"{doubt['clue']} number {doubt['index']}"
            doubts.append(f"{where} read {doubt['read']}")
        problems = list(reading.verdict.problems[:2]) if reading.verdict else []
        said = "; ".join(problems + doubts) or "low confidence"
        raise PuzzleError(
            f"{filename}: the {reading.genre} in the picture was not read with certainty "
            f"({said}); run `pencilbox read {filename}` to see the reading, correct it and "
            "save it as text"
        )
    return pictures.to_puzzle(reading)
