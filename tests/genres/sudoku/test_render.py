"""The Sudoku PNG picture: size, box lines, givens dark, entered digits blue, alphabets."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import pencilbox
from pencilbox.core.grid import Grid
from pencilbox.genres.sudoku.model import Sudoku, make_sudoku
from pencilbox.store import EXAMPLES_DIR

Image = pytest.importorskip("PIL.Image")

CELL, MARGIN = 32, 2  # SVG units


def easy() -> Sudoku:
    puzzle: Sudoku = pencilbox.load(Path(str(EXAMPLES_DIR / "qqwing-easy.sdk")))
    return puzzle


def picture(puzzle: Sudoku, state: Grid | None = None, scale: int = 1) -> Image.Image:
    data = puzzle.render_png(state, scale=scale)
    assert data.startswith(b"\x89PNG")
    return Image.open(io.BytesIO(data)).convert("RGB")


def inside(image: Image.Image, index: int, size: int, scale: int = 1) -> Image.Image:
    """A cell's inside, a few pixels clear of its lines."""
    r, c = divmod(index, size)
    cell, pad = CELL * scale, 4 * scale
    x, y = MARGIN * scale + c * cell, MARGIN * scale + r * cell
    return image.crop((x + pad, y + pad, x + cell - pad, y + cell - pad))


def darkest(image: Image.Image) -> int:
    low: int = image.convert("L").getextrema()[0]
    return low


def bluish(image: Image.Image) -> bool:
    data = image.tobytes()
    return any(b > r + 60 and b > g + 30 for r, g, b in zip(data[0::3], data[1::3], data[2::3]))


def test_size_is_the_board_plus_margin_times_the_scale() -> None:
    assert picture(easy()).size == (9 * CELL + 2 * MARGIN,) * 2
    assert picture(easy(), scale=2).size == (2 * (9 * CELL + 2 * MARGIN),) * 2


def test_givens_are_dark_and_empty_cells_blank() -> None:
    puzzle = easy()
    image = picture(puzzle)
    cells = puzzle.givens.cells
    given, blank = cells.index(next(v for v in cells if v)), cells.index(0)
    assert darkest(inside(image, given, 9)) < 60
    assert not bluish(inside(image, given, 9))
    assert darkest(inside(image, blank, 9)) > 240


def test_entered_digits_are_blue_and_box_lines_thick() -> None:
    puzzle = easy()
    solved = puzzle.solve(limit=1).solutions[0]
    image = picture(puzzle, solved)
    blank = puzzle.givens.cells.index(0)
    assert bluish(inside(image, blank, 9))
    # Between rows 3 and 4 (a box line) the line is ~2.5 px thick, between rows 1 and 2 one.
    x = MARGIN + CELL // 4
    thick = range(MARGIN + 3 * CELL - 4, MARGIN + 3 * CELL + 5)
    thin = range(MARGIN + CELL - 4, MARGIN + CELL + 5)
    assert sum(min(image.getpixel((x, y))) < 80 for y in thick) >= 2
    assert sum(min(image.getpixel((x, y))) < 80 for y in thin) == 1


def test_sixteen_by_sixteen_boards_draw_their_alphabet() -> None:
    values = [16, 10] + [0] * 254  # symbols G and A in the default alphabet
    default = make_sudoku(values, size=16)
    zero_based = make_sudoku(values, size=16, alphabet="0123456789ABCDEF")
    assert picture(default).size == (16 * CELL + 2 * MARGIN,) * 2
    first, second = picture(default), picture(zero_based)
    assert darkest(inside(first, 0, 16)) < 60 and darkest(inside(first, 1, 16)) < 60
    # The same digits in another alphabet are other symbols ("G"/"A" vs "F"/"9").
    for index in (0, 1):
        assert inside(first, index, 16).tobytes() != inside(second, index, 16).tobytes()
    assert inside(first, 2, 16).tobytes() == inside(second, 2, 16).tobytes()
