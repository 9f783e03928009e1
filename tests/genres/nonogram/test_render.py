"""The nonogram PNG picture: size, clues, filled cells and crosses, read back from its pixels."""

from __future__ import annotations

import io

import pytest

import pencilbox
from pencilbox.core.grid import Grid
from pencilbox.genres.nonogram.model import EMPTY, FILLED, UNKNOWN

Image = pytest.importorskip("PIL.Image")

SMALL = "1 1,1\n1,1,1\n"  # 3 wide, 2 high: #.# / .#.
# Clues: two numbers left of the grid, one above it; 16 SVG units a cell.
CLUE_COLS, CLUE_ROWS, CELL = 2, 1, 16


def picture(state: Grid | None, scale: int = 2) -> Image.Image:
    data = pencilbox.load(SMALL).render_png(state, scale=scale)
    assert data.startswith(b"\x89PNG")
    return Image.open(io.BytesIO(data)).convert("RGB")


def pixel(image: Image.Image, r: int, c: int, scale: int, dx: float = 0.5) -> int:
    """The brightness at (dx, 1/2) across cell (r, c): dx=0.5 is the centre."""
    size = CELL * scale
    x = CLUE_COLS * size + int((c + dx) * size)
    y = CLUE_ROWS * size + int((r + 0.5) * size)
    return min(image.getpixel((x, y)))


def darkest(image: Image.Image) -> int:
    low: int = image.convert("L").getextrema()[0]
    return low


def test_size_follows_the_svg_geometry_times_the_scale() -> None:
    for scale in (1, 2, 3):
        size = CELL * scale
        expected = ((CLUE_COLS + 3) * size + scale, (CLUE_ROWS + 2) * size + scale)
        assert picture(None, scale).size == expected


def test_solved_cells_are_dark_and_crosses_gray() -> None:
    solved = pencilbox.load(SMALL).solve(limit=1).solutions[0]
    assert solved[0, 0] == FILLED and solved[0, 1] == EMPTY
    image = picture(solved)
    assert pixel(image, 0, 0, 2) < 60 and pixel(image, 1, 1, 2) < 60
    # A crossed cell: gray where the X's strokes meet, white beside them.
    assert 100 < pixel(image, 0, 1, 2) < 200
    assert pixel(image, 0, 1, 2, dx=0.15) > 240


def test_the_empty_state_has_white_cells_and_dark_clues() -> None:
    image = picture(None)
    assert all(pixel(image, r, c, 2) > 240 for r in range(2) for c in range(3))
    size = CELL * 2
    clue_box = image.crop((0, CLUE_ROWS * size, CLUE_COLS * size, CLUE_ROWS * size + size))
    assert darkest(clue_box) < 80  # row 1's clue "1 1" is drawn


def test_unknown_cells_of_a_partial_grid_stay_white() -> None:
    partial = Grid(3, 2, (FILLED, UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN, EMPTY))
    image = picture(partial)
    assert pixel(image, 0, 0, 2) < 60 and pixel(image, 0, 1, 2) > 240
    assert 100 < pixel(image, 1, 2, 2) < 200
