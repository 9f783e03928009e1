"""Grades stay put: a faster ladder must give every puzzle the same level, score, hardest
technique, logic verdict and step count as the record made before (tests/data/
sudoku_grades.tsv, written by bench/sudoku_grades.py from the test samples; the benchmark compares
every shared puzzle the same way)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pencilbox.errors import PuzzleError
from pencilbox.genres.sudoku.formats import parse_many
from pencilbox.genres.sudoku.logic import grade
from tests.conftest import TEST_DATA

RECORD = TEST_DATA / "sudoku_grades.tsv"
EVERY = {
    "magictour_top1465.txt": 8,
    "forum_hardest_1106.txt": 4,
    "norvig_top95.txt": 8,
    "norvig_hardest.txt": 1,
    "17clue_2000.txt": 5,
    "kaggle_1000.csv": 20,
}
"""Puzzles graded per set: every k-th one of the sample (4 when not named), to stay fast."""


def _record() -> dict[str, list[str]]:
    by_set: dict[str, list[str]] = {}
    for line in RECORD.read_text().splitlines():
        by_set.setdefault(line.split("\t")[0], []).append(line)
    return by_set


def _nine_by_nine_sets() -> list[str]:
    return [name for name in _record() if name != "sudoku16_20.txt"]


def test_the_record_covers_every_sample() -> None:
    record = _record()
    for name, lines in record.items():
        path = TEST_DATA / "sudoku" / name
        assert len(lines) == len(list(parse_many(path.read_text(), filename=name))), name
    assert "sudoku16_20.txt" in record and "magictour_top1465.txt" in record


@pytest.mark.parametrize("name", _nine_by_nine_sets())
def test_grades_equal_the_record(name: str) -> None:
    path: Path = TEST_DATA / "sudoku" / name
    puzzles = [p for _, p in parse_many(path.read_text(), filename=name)]
    lines = _record()[name]
    checked = 0
    for index in range(0, len(puzzles), EVERY.get(name, 4)):
        puzzle = puzzles[index]
        assert not isinstance(puzzle, PuzzleError)
        g = grade(puzzle.n, puzzle.values())
        solved = "1" if g.solved_by_logic else "0"
        got = f"{name}\t{index}\t{g.level}\t{g.score}\t{g.hardest}\t{solved}\t{g.steps}"
        assert got == lines[index]
        checked += 1
    assert checked >= 5
