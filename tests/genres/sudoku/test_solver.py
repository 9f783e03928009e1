"""The validating solver on samples of every Sudoku file of tests/data, every size."""

from __future__ import annotations

import random

import pytest

from pencilbox.core.grid import Grid
from pencilbox.errors import PuzzleError
from pencilbox.genres.sudoku.formats import parse_many, read
from pencilbox.genres.sudoku.model import Sudoku
from pencilbox.genres.sudoku.solver import (
    KERNEL,
    accept_singles,
    candidates,
    hidden_singles,
    is_valid_solution,
    naked_singles,
    solve_values,
)
from tests.conftest import TEST_DATA

DATA = TEST_DATA / "sudoku"
KINDS = ("auto", "bitboard", "sat", *(("kernel",) if KERNEL is not None else ()))
HARD = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"


def sample(name: str, count: int, seed: int = 3) -> list[Sudoku]:
    path = DATA / name
    found = [p for _, p in parse_many(path.read_text(), filename=path.name)]
    puzzles = [p for p in found if not isinstance(p, PuzzleError)]
    assert len(puzzles) == len(found), name
    rng = random.Random(seed)
    return rng.sample(puzzles, min(count, len(puzzles)))


def check_unique(puzzle: Sudoku) -> Grid:
    result = puzzle.solve()
    assert result.status == "unique", puzzle.line()
    grid: Grid = result.solutions[0]
    assert is_valid_solution(grid.cells, puzzle.n, puzzle.values())
    assert puzzle.check(grid) == []
    return grid


@pytest.mark.parametrize(
    ("name", "count"),
    [
        ("17clue_2000.txt", 60),
        ("magictour_top1465.txt", 25),
        ("forum_hardest_1106.txt", 8),
        ("norvig_easy50.txt", 10),
        ("norvig_hardest.txt", 11),
        ("norvig_top95.txt", 10),
        ("qqwing_simple.sdm", 10),
        ("qqwing_easy.sdm", 10),
        ("qqwing_intermediate.sdm", 10),
        ("qqwing_expert.sdm", 10),
        ("sudocue_learningcurve.sdm", 10),
    ],
)
def test_samples_are_unique_and_valid(name: str, count: int) -> None:
    for puzzle in sample(name, count):
        check_unique(puzzle)


def test_kaggle_solutions_match() -> None:
    for puzzle in sample("kaggle_1000.csv", 60):
        assert puzzle.solution is not None
        assert check_unique(puzzle) == puzzle.solution


def test_hodoku_library_states_solve() -> None:
    for puzzle in sample("hodoku_reglib-1.3.txt", 20):
        check_unique(puzzle)


def test_every_engine_agrees() -> None:
    for puzzle in sample("magictour_top1465.txt", 5, seed=9):
        answers = [solve_values(puzzle.values(), 3, 2, kind=k) for k in KINDS]
        assert all(a == answers[0] for a in answers)
        assert len(answers[0]) == 1


def test_sixteen_by_sixteen() -> None:
    for puzzle in sample("sudoku16_20.txt", 6):
        assert puzzle.size == 16
        grid = check_unique(puzzle)
        assert len(puzzle.solution_json(grid)) == 256


def test_twenty_five_by_twenty_five() -> None:
    for puzzle in sample("sudoku25_5.txt", 5):
        assert puzzle.size == 25
        check_unique(puzzle)


def test_multiple_and_none() -> None:
    empty = read("." * 81)
    result = empty.solve()
    assert result.status == "multiple" and len(result.solutions) == 2
    assert result.solutions[0] != result.solutions[1]
    for grid in result.solutions:
        assert is_valid_solution(grid.cells, 3)
    # Two 1s forced into the same... : r1c1..r1c8 hold 1-8 and r2c9 = 9 leaves r1c9 no digit.
    none = read("12345678." + "." * 8 + "9" + "." * 63)
    assert none.solve().status == "none"
    small = read("1..." + ".2.." + "..3." + "...4")
    assert small.size == 4
    assert small.solve().status in ("unique", "multiple")
    for kind in KINDS:
        assert solve_values(none.values(), 3, 2, kind=kind) == []
        assert len(solve_values(empty.values(), 3, 2, kind=kind)) == 2


def test_solution_json_uses_the_alphabet() -> None:
    puzzle = sample("sudoku16_20.txt", 1)[0]
    grid = puzzle.solve().solutions[0]
    text = puzzle.solution_json(grid)
    assert set(text) == set("123456789ABCDEFG")


def test_time_limit_gives_timeout_or_an_answer() -> None:
    puzzle = read(HARD)
    result = puzzle.solve(time_limit=0.0)
    assert result.status in ("timeout", "unique")


def test_original_tool_helpers() -> None:
    puzzle = read(HARD)
    values = puzzle.values()
    masks = candidates(values, 3)
    assert masks[0] == 0  # a given
    assert all(m for m, v in zip(masks, values) if not v)
    solution = puzzle.solve().solutions[0].cells
    for cell, digit in naked_singles(values, 3) + hidden_singles(values, 3):
        assert solution[cell] == digit
    board = accept_singles(values, 3)
    assert all(b == s for b, s in zip(board, solution) if b)
    easy = sample("qqwing_simple.sdm", 1)[0]
    stepped = easy.accept_singles()
    assert stepped.givens == easy.givens
    assert stepped.placed is not None and any(stepped.placed.cells)
    assert easy.grade() == "easy"  # singles alone: the easiest HoDoKu level


def test_logic_grid_and_pictures() -> None:
    puzzle = sample("qqwing_simple.sdm", 1, seed=4)[0]
    solution = puzzle.solve().solutions[0]
    assert puzzle.logic_grid() == solution  # singles solve the simple class
    one_pass = puzzle.logic_grid(max_passes=1)
    assert all(v in (0, s) for v, s in zip(one_pass.cells, solution.cells))
    assert puzzle.render(fmt="svg").startswith("<svg") and puzzle.render().startswith("*---")
    assert puzzle.render(solution).count(".") == 0
