"""Helpers for the picture tests: draw a corpus picture into a file, compare with the truth."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tools.picture_corpus import make_picture

from pencilbox import pictures
from pencilbox.core.vision.reading import Reading

DATA = Path(__file__).resolve().parent / "data" / "pictures"
REAL_NONOGRAMS = (
    Path(__file__).resolve().parents[1] / "bench" / "data" / "real-pictures" / "nonogram"
)
"""Screenshots published by other nonogram programs, each with its truth (see its README)."""


def real_nonogram(name: str) -> tuple[Path, dict[str, Any]]:
    """A stored third-party screenshot and its truth (`rows`, `cols`, source, licence)."""
    path = REAL_NONOGRAMS / name
    return path, json.loads(path.with_name(name + ".truth.json").read_text())


def draw(style: str, seed: int, folder: Path) -> tuple[Path, dict[str, Any]]:
    data, kind, truth = make_picture(style, seed)
    path = folder / f"{style}-{seed}.{'jpg' if kind == 'jpeg' else 'png'}"
    path.write_bytes(data)
    return path, truth


def matches(reading: Reading, truth: dict[str, Any]) -> bool:
    """True when every number of the reading is the truth's."""
    puzzle = pictures.record(reading, "x")["puzzle"]
    if truth["genre"] == "sudoku":
        return bool(puzzle["givens"] == truth["givens"])
    if truth["genre"] == "nonogram":
        return bool(puzzle == {"rows": truth["rows"], "cols": truth["cols"]})
    from pencilbox.genres.dbchoco.model import make_puzzle

    gray = [[ch == "g" for ch in row] for row in truth["colors"]]
    expected = make_puzzle(gray, truth["numbers"], max_size=None).to("url").strip()
    return bool(puzzle["url"] == expected)


def never_silently_wrong(reading: Reading, truth: dict[str, Any]) -> None:
    """The promise of the reader: a reading that is not right is never "ok"."""
    if reading.status == "ok":
        assert matches(reading, truth), f"read as ok but wrong: {pictures.puzzle_text(reading)}"
