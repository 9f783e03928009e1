"""The checker: one failing case per rule, in puzz.link's order, and the shared answers pass."""

from __future__ import annotations

from pathlib import Path

import pytest

import pencilbox
from pencilbox.genres.dbchoco.check import KINDS, violations
from pencilbox.genres.dbchoco.formats import read
from pencilbox.genres.dbchoco.model import OPEN, WALL, DoubleChoco, Walls
from tests.genres.dbchoco._data import files

COLUMNS = ". # . #\n. # . #\n"
"""Two blocks of two columns each: a white and a gray vertical domino."""
COLUMN_BLOCKS = [[0, 0, 1, 1], [0, 0, 1, 1]]


def kinds(puzzle: DoubleChoco, answer: Walls) -> list[str]:
    return [v.kind for v in violations(puzzle, answer)]


@pytest.mark.parametrize("path", files(), ids=lambda p: p.stem)
def test_shared_answers_pass(path: Path) -> None:
    puzzle = pencilbox.load(path)
    if puzzle.answer is not None:
        assert violations(puzzle, puzzle.answer) == []


def test_correct_small_answer() -> None:
    puzzle = read("2 # . #\n. # . #\n", "text")
    assert violations(puzzle, Walls.from_blocks(COLUMN_BLOCKS)) == []


def test_single_colour() -> None:
    puzzle = read(". .\n# #\n", "text")
    found = violations(puzzle, Walls.from_blocks([[0, 0], [1, 1]]))
    assert [v.kind for v in found] == ["single_colour", "single_colour"]
    assert found[0].message.startswith("a block contains a single colour")
    assert found[0].cells == ((0, 0), (0, 1))


def test_number_bigger_than_its_area() -> None:
    puzzle = read("3 # . #\n. # . #\n", "text")
    found = violations(puzzle, Walls.from_blocks(COLUMN_BLOCKS))
    assert [v.kind for v in found] == ["number_bigger"]
    assert "bigger than its area" in found[0].message
    assert found[0].cells == ((0, 0), (1, 0))


def test_number_smaller_than_its_area() -> None:
    puzzle = read(". # 1 #\n. # . #\n", "text")
    assert kinds(puzzle, Walls.from_blocks(COLUMN_BLOCKS)) == ["number_smaller"]


def test_three_or_more_areas() -> None:
    puzzle = read(". # .\n# . #\n", "text")
    found = violations(puzzle, Walls.from_blocks([[0, 0, 0], [0, 0, 0]]))
    assert [v.kind for v in found] == ["three_areas"]
    assert "three or more" in found[0].message


def test_different_shapes() -> None:
    puzzle = read(". . . #\n# # # #\n", "text")
    found = violations(puzzle, Walls.from_blocks([[0, 0, 0, 0], [0, 0, 0, 0]]))
    assert [v.kind for v in found] == ["different_shapes"]
    assert "differ in shape" in found[0].message


def test_dead_end() -> None:
    puzzle = read(COLUMNS, "text")
    base = Walls.from_blocks(COLUMN_BLOCKS)
    edges = list(base.edges)
    edges[base.geometry.right(0, 0)] = WALL  # between the halves of the left block
    found = violations(puzzle, Walls(4, 2, tuple(edges)))
    assert [v.kind for v in found] == ["dead_end"]
    assert "dead end" in found[0].message


def test_wall_inside_a_block() -> None:
    # two walled-in cells joined by a wall through the surrounding block: no dead end
    puzzle = read("# . # . #\n. # . # .\n# . # . #\n", "text")
    geo = puzzle.geometry
    edges = [OPEN] * geo.count
    for r, c in ((1, 1), (1, 3)):
        for _, e in geo.neighbours(r, c):
            edges[e] = WALL
    edges[geo.down(0, 2)] = WALL
    found = kinds(puzzle, Walls(5, 3, tuple(edges)))
    assert "wall_inside" in found and "dead_end" not in found


def test_incomplete_answer_says_what_is_missing() -> None:
    puzzle = read(COLUMNS, "text")
    found = violations(puzzle, Walls.undecided(4, 2))
    assert found[0].kind == "incomplete"
    assert "10 edges are undecided" in found[0].message


def test_violations_come_in_rule_order() -> None:
    puzzle = read("2 . . #\n# # # #\n. # . #\n. # . #\n", "text")
    blocks = [[0, 0, 0, 0], [0, 0, 0, 0], [1, 1, 2, 2], [1, 1, 2, 2]]
    found = kinds(puzzle, Walls.from_blocks(blocks))
    assert found == sorted(found, key=KINDS.index)
    assert set(found) >= {"number_smaller", "different_shapes"}
