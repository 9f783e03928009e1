"""The Double Choco PNG picture: size, white and gray cells, numbers, and walls when given."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import pencilbox
from pencilbox.genres.dbchoco.model import WALL, DoubleChoco, Walls
from pencilbox.store import EXAMPLES_DIR

Image = pytest.importorskip("PIL.Image")

CELL, MARGIN, SCALE = 32, 2, 2  # SVG units, and pixels per unit
GRAY = (204, 204, 204)


def example() -> DoubleChoco:
    puzzle: DoubleChoco = pencilbox.load(Path(str(EXAMPLES_DIR / "robx_pzprjs_01_6x6.json")))
    return puzzle


def picture(puzzle: DoubleChoco, walls: Walls | None) -> Image.Image:
    data = puzzle.render_png(walls, scale=SCALE)
    assert data.startswith(b"\x89PNG")
    return Image.open(io.BytesIO(data)).convert("RGB")


def at(r: float, c: float) -> tuple[int, int]:
    """The pixel at row r, column c in cell units (r=1.0 is the line under row 1)."""
    return (round((MARGIN + c * CELL) * SCALE), round((MARGIN + r * CELL) * SCALE))


def test_size_is_the_grid_plus_margin_times_the_scale() -> None:
    side = (6 * CELL + 2 * MARGIN) * SCALE
    assert picture(example(), None).size == (side, side)


def test_cells_are_white_or_gray_and_numbers_dark() -> None:
    puzzle = example()
    image = picture(puzzle, None)
    assert puzzle.is_gray(0, 0) and puzzle.number(0, 0) is None
    assert not puzzle.is_gray(0, 4) and puzzle.number(0, 4) is None
    assert image.getpixel(at(0.5, 0.5)) == GRAY
    assert image.getpixel(at(0.5, 4.5)) == (255, 255, 255)
    assert puzzle.number(0, 1) == 4
    x, y = at(0, 1)
    digit = image.crop((x + 8, y + 8, x + CELL * SCALE - 8, y + CELL * SCALE - 8))
    assert digit.convert("L").getextrema()[0] < 60


def test_walls_are_thick_and_dark_only_in_a_state_that_has_them() -> None:
    puzzle = example()
    solved = puzzle.solve(limit=1).solutions[0]
    geo = puzzle.geometry
    walls = [e for e in range(geo.count) if solved.edges[e] == WALL]
    opens = [e for e in range(geo.count) if solved.edges[e] != WALL]
    assert walls and opens
    with_walls, without = picture(puzzle, solved), picture(puzzle, None)
    for edge, dark_in_solved in ((walls[0], True), (opens[0], False)):
        (r1, c1), (r2, c2) = geo.cells(edge)
        middle = at((r1 + r2 + 1) / 2, c2) if r1 == r2 else at(r2, (c1 + c2 + 1) / 2)
        assert (max(with_walls.getpixel(middle)) < 60) is dark_in_solved, geo.edge_name(edge)
        x, y = middle
        beside = (x + 2, y) if r1 == r2 else (x, y + 2)  # a thick line, not a hairline
        assert (max(with_walls.getpixel(beside)) < 60) is dark_in_solved, geo.edge_name(edge)
        assert max(without.getpixel(middle)) > 120  # only the thin gray cell line
