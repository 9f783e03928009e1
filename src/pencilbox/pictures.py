"""Puzzles from pictures: the one place front ends go to read a screenshot or a photo.

    from pencilbox import pictures
    reading = pictures.read("screenshot.png")          # genre detected; or genre="nonogram"
    reading.status                                      # "ok" or "uncertain"
    for at in reading.doubtful(): print(reading.numbers[at].where())
    fixed = pictures.recheck(reading.edited({12: 3}))   # the user's correction, a new verdict
    puzzle = pictures.to_puzzle(fixed)                  # a genre Puzzle, to solve or explain

Everything here goes through the genre interface (Genre.picture_reader); the readers and
their value types live in core/vision and in each genre's picture module.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pencilbox.core.vision.reading import PictureReader, Reading
from pencilbox.errors import FormatError, PuzzleError
from pencilbox.genres import base

DETECT_FLOOR = 5.0
"""A genre must score at least this (of 10) for a picture to be taken as its puzzle."""
DETECT_CLOSE = 1.0
"""A genre scoring this close to the best one also reads a picture the best one reads with
doubts; its reading is taken when it passes its genre's rules with no doubt."""


def readers() -> dict[str, PictureReader]:
    return {g.name: g.picture_reader for g in base.all_genres() if g.picture_reader is not None}


def _reader(genre: str) -> PictureReader:
    chosen = base.get(genre)
    if chosen.picture_reader is None:
        raise PuzzleError(f"there is no picture reader for {chosen.name}")
    reader: PictureReader = chosen.picture_reader
    return reader


def read(source: str | Path | bytes, genre: str | None = None, **options: Any) -> Reading:
    """Read the puzzle in a picture file (or its bytes). With no genre, each genre scores the
    picture and the best one reads it. FormatError when the picture cannot be read."""
    from pencilbox.core.vision import picture

    started = time.perf_counter()
    image = picture.load(source)
    if genre is not None:
        return _timed(_read_as(base.get(genre).name, image, options), started)
    scores = {name: _guarded(image, reader.score, image) for name, reader in readers().items()}
    ranked = sorted(scores.items(), key=lambda item: -item[1])
    name, best = ranked[0]
    if best < DETECT_FLOOR:
        raise FormatError("no puzzle grid found in the picture", source=image.source)
    try:
        reading = _read_as(name, image, options)
    except FormatError:
        second = _close_second(image, ranked, options)
        if second is None:
            raise
        return _timed(second, started)
    if reading.status != "ok":
        reading = _close_second(image, ranked, options, _solvable(reading)) or reading
    return _timed(reading, started)


def _solvable(reading: Reading) -> bool:
    """Whether the numbers read make a puzzle with a solution, as the genre's rules found."""
    return reading.verdict is not None and reading.verdict.checks.get("solvable") is True


def _read_as(genre: str, image: Any, options: Mapping[str, Any]) -> Reading:
    reader = _reader(genre)
    reading: Reading = _guarded(image, reader.read, image, **options)
    return reading


def _guarded(image: Any, step: Any, *args: Any, **options: Any) -> Any:
    """A reader's step, with a failure it did not foresee (a bug met on an unusual picture)
    turned into the picture's error: the user learns this picture cannot be read, and a
    batch goes on with the next one."""
    try:
        return step(*args, **options)
    except (PuzzleError, KeyboardInterrupt, MemoryError):
        raise
    except Exception as error:
        kind = type(error).__name__
        raise FormatError(
            f"the picture could not be read (an unforeseen {kind} in the reader: {error})",
            source=image.source,
        ) from error


def _close_second(
    image: Any,
    ranked: list[tuple[str, float]],
    options: Mapping[str, Any],
    solvable: bool = True,
) -> Reading | None:
    """The reading of a genre scoring close to the best one, when it passes its genre's rules
    with no doubt (the best one's reading did not): a nonogram's tinted bands can look like
    a board of two shades of cells. Unless the best one's reading was `solvable`, also one
    in doubt whose numbers make a puzzle with a solution (a nonogram drawing with several
    solutions whose grey and white cells look like a Double Choco board with no numbers).
    None when there is no such genre."""
    best = ranked[0][1]
    doubted = None
    for other, score in ranked[1:]:
        if score < max(DETECT_FLOOR, best - DETECT_CLOSE):
            break
        try:
            second = _read_as(other, image, options)
        except FormatError:
            continue
        if second.status == "ok":
            return second
        if not solvable and doubted is None and _solvable(second):
            doubted = second
    return doubted


def _timed(reading: Reading, started: float) -> Reading:
    from dataclasses import replace

    return replace(reading, time_s=time.perf_counter() - started)


def recheck(reading: Reading) -> Reading:
    """The verdict, status and confidence of a reading after the user's edits."""
    return _reader(reading.genre).recheck(reading)


def puzzle_text(reading: Reading) -> str:
    """The puzzle read, in the genre's usual notation."""
    return _reader(reading.genre).puzzle_text(reading)


def to_puzzle(reading: Reading) -> Any:
    """The genre's Puzzle for a reading (InvalidPuzzle when the numbers cannot make one)."""
    return base.get(reading.genre).parse(puzzle_text(reading), None)


def record(
    reading: Reading | None, file: str, error: str | None = None, genre: str | None = None
) -> dict[str, Any]:
    """The CLI's --jsonl object for one picture (`genre`: the one asked for, when a picture
    could not be read)."""
    if reading is None:
        return {
            "file": file,
            "genre": genre,
            "status": "error",
            "puzzle": None,
            "confidence": 0.0,
            "uncertain": [],
            "time_s": 0.0,
            "error": error,
        }
    return {
        "file": file,
        "genre": reading.genre,
        "status": reading.status,
        "puzzle": _reader(reading.genre).puzzle_json(reading),
        "confidence": round(reading.confidence, 4),
        "uncertain": reading.uncertain_json(),
        "time_s": round(reading.time_s, 4),
        "error": None,
    }


def details(reading: Reading) -> dict[str, Any]:
    """Everything a review screen draws: numbers with boxes, the grid, verdict, repairs (the
    CLI's --json adds these to the --jsonl fields)."""
    document = reading.to_json()
    for key in ("genre", "status", "confidence", "time_s"):
        del document[key]
    return document


def review(source: str | Path | bytes, genre: str | None = None) -> dict[str, Any]:
    """The document a review screen starts from: the --jsonl fields (file, genre, status,
    puzzle, confidence, uncertain, time_s, error) and the details (every number with its
    box, value, confidence and alternatives; the verdict). A picture that cannot be read
    gives status "error" and the sentence that says why, never an exception."""
    name = source if isinstance(source, str) else str(source) if isinstance(source, Path) else ""
    try:
        reading = read(source, genre=genre)
    except PuzzleError as error:
        return record(None, name, str(error))
    return record(reading, name) | details(reading)


def review_edits(document: Mapping[str, Any], edits: Mapping[int, int | None]) -> dict[str, Any]:
    """A review document after the user's corrections: `edits` maps positions in
    document["numbers"] to the values the user set (None: no number there). The answer is a
    new document with a fresh verdict and status; the edited numbers count as certain."""
    reading = Reading.from_json(document).edited(edits)
    checked = recheck(reading)
    return record(checked, str(document.get("file") or "")) | details(checked)
