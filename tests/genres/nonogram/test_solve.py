"""The solver on every test puzzle up to 100x100, the seed puzzles, and random grids."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pencilbox
from pencilbox.core.grid import Grid
from pencilbox.errors import InvalidPuzzle
from pencilbox.genres.nonogram.model import EMPTY, FILLED, clues_of, make_puzzle
from tests.conftest import TEST_DATA

NONOGRAMS = TEST_DATA / "nonogram"
# A puzzle whose verdict nobody has published and that takes minutes: benchmark only.
BENCHMARK_ONLY = {"frans_faase.json"}


def small_puzzles() -> list[Path]:
    found = []
    for path in sorted(NONOGRAMS.glob("*/*.json")):
        data = json.loads(path.read_text())
        if data["width"] <= 100 and data["height"] <= 100 and path.name not in BENCHMARK_ONLY:
            found.append(path)
    return found


def expected_status(data: dict[str, object]) -> str | None:
    if data.get("unique") is True:
        return "unique"
    if data.get("unique") is False:
        return "none" if data.get("n_solutions_found") == 0 else "multiple"
    return None  # malformed input: must be refused with a clear error


@pytest.mark.parametrize("path", small_puzzles(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_shared_puzzle_verdict(path: Path) -> None:
    data = json.loads(path.read_text())
    expected = expected_status(data)
    try:
        puzzle = pencilbox.load(path)
    except InvalidPuzzle as error:
        # Inputs that break the clue rules (sums, fit) are input errors, never "no solution"
        # nor a crash; the data marks them as unknown or as having no solution.
        assert expected in (None, "none"), f"refused a valid puzzle: {error}"
        return
    assert expected is not None, "a malformed puzzle was accepted"
    result = puzzle.solve(time_limit=120)
    assert result.status == expected
    for grid in result.solutions:
        assert clues_of(grid) == (puzzle.rows, puzzle.cols)
    if expected == "multiple":
        assert len(result.solutions) == 2 and result.solutions[0] != result.solutions[1]
    if expected == "unique" and puzzle.goal is not None:
        assert result.solutions[0] == puzzle.goal
    if data.get("line_solvable") is True:
        assert result.grade == "line"


def test_seed_a_is_unique_and_matches_its_solution() -> None:
    puzzle = pencilbox.load(TEST_DATA / "nonogram/seed/seed-a.json")
    result = puzzle.solve()
    assert result.status == "unique"
    assert result.solutions[0] == puzzle.goal


def test_seed_b_has_two_solutions_and_names_where_they_differ() -> None:
    puzzle = pencilbox.load(TEST_DATA / "nonogram/seed/seed-b.json")
    result = puzzle.solve()
    assert result.status == "multiple"
    assert len(result.differences()) > 0
    for grid in result.solutions:
        assert clues_of(grid) == (puzzle.rows, puzzle.cols)


def test_limit_finds_more_solutions() -> None:
    # an empty 2x2 with one cell per row and column: exactly two solutions
    puzzle = make_puzzle([[1], [1]], [[1], [1]])
    assert len(puzzle.solve(limit=5).solutions) == 2
    assert puzzle.solve(limit=1).status == "multiple"


grids = st.integers(1, 12).flatmap(
    lambda w: st.lists(st.lists(st.booleans(), min_size=w, max_size=w), min_size=1, max_size=12)
)


@settings(max_examples=150, deadline=None)
@given(rows=grids)
def test_random_grids_solve_back_to_their_clues(rows: list[list[bool]]) -> None:
    grid = Grid.from_rows([[FILLED if v else EMPTY for v in row] for row in rows])
    row_clues, col_clues = clues_of(grid)
    puzzle = make_puzzle(row_clues, col_clues)
    result = puzzle.solve()
    assert result.status in ("unique", "multiple")
    assert all(clues_of(g) == (row_clues, col_clues) for g in result.solutions)
    if result.status == "unique":
        assert result.solutions[0] == grid
    else:
        assert len(result.solutions) == 2 and result.solutions[0] != result.solutions[1]
