"""Generated puzzles have the grade asked for, are unique, and the ladder at that level
solves them."""

from __future__ import annotations

import pytest

from pencilbox.genres.sudoku.generate import generate, solvable_within


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_generated_puzzle_has_the_requested_grade(level: str) -> None:
    made = generate(size=9, seed=7, grade=level)
    puzzle = made["puzzle"]
    assert made["grade"] == level
    assert puzzle.grade() == level
    assert puzzle.solve().status == "unique"
    assert solvable_within(list(puzzle.values()), 3, level)
    again = generate(size=9, seed=7, grade=level)
    assert again["line"] == made["line"]  # reproducible from the seed
