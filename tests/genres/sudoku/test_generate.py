"""The generator: unique puzzles, the requested symmetry, reproducible from the seed."""

from __future__ import annotations

import pytest

from pencilbox.errors import PuzzleError
from pencilbox.genres import base
from pencilbox.genres.sudoku.generate import generate, orbits
from pencilbox.genres.sudoku.model import Sudoku


@pytest.mark.parametrize("symmetry", ["none", "rotational", "mirror"])
def test_generated_puzzles_are_unique_and_keep_the_symmetry(symmetry: str) -> None:
    for seed in range(3):
        made = generate(size=9, symmetry=symmetry, seed=seed)
        puzzle: Sudoku = made["puzzle"]
        result = puzzle.solve()
        assert result.status == "unique"
        assert puzzle.solution is not None and result.solutions[0] == puzzle.solution
        assert made["givens"] == puzzle.given_count == sum(1 for ch in made["line"] if ch != ".")
        for orbit in orbits(9, symmetry):
            assert len({bool(puzzle.givens.cells[c]) for c in orbit}) == 1


def test_reproducible_from_the_seed() -> None:
    first = generate(seed=42, symmetry="rotational")
    again = generate(seed=42, symmetry="rotational")
    other = generate(seed=43, symmetry="rotational")
    assert first["line"] == again["line"] and first["seed"] == 42
    assert first["line"] != other["line"]
    assert set(first) >= {"puzzle", "line", "givens", "time_s", "seed"}


def test_minimal_nine_by_nine() -> None:
    puzzle = generate(seed=5)["puzzle"]
    values = puzzle.values()
    for cell, value in enumerate(values):
        if value:
            values[cell] = 0
            assert Sudoku.solve(_with(puzzle, values)).status == "multiple"
            values[cell] = value


def _with(puzzle: Sudoku, values: list[int]) -> Sudoku:
    from pencilbox.genres.sudoku.model import make_sudoku

    return make_sudoku(values)


def test_bigger_boards() -> None:
    made = generate(size=16, seed=1, symmetry="rotational")
    assert made["puzzle"].size == 16 and len(made["line"]) == 256
    assert made["puzzle"].solve().status == "unique"


def test_grade_targeting_with_a_grader() -> None:
    calls: list[int] = []

    def grader(puzzle: Sudoku) -> str:
        calls.append(puzzle.given_count)
        return "wanted" if len(calls) == 3 else "other"

    made = generate(seed=1, grade="wanted", grader=grader)
    assert made["attempts"] == 3 and made["grade"] == "wanted"
    with pytest.raises(PuzzleError, match="no impossible puzzle in 2 attempts"):
        generate(seed=1, grade="impossible", grader=lambda p: "x", max_attempts=2)


def test_bad_options() -> None:
    with pytest.raises(PuzzleError, match="not a Sudoku size"):
        generate(size=10)
    with pytest.raises(PuzzleError, match="unknown symmetry"):
        generate(symmetry="diagonal")
    genre = base.get("sudoku")
    assert genre.generate is not None
    with pytest.raises(PuzzleError, match="unknown option --colour"):
        genre.generate(colour="red")
