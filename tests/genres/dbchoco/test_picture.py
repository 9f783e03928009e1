"""Reading Double Choco boards from puzz.link-style screenshots."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from pencilbox import pictures
from tests.pictures import draw, matches, never_silently_wrong

DATA = Path(__file__).resolve().parents[2] / "data" / "dbchoco"


@pytest.mark.parametrize("style", ["dbchoco-puzzlink", "dbchoco-walls", "dbchoco-render"])
def test_boards_are_read_into_the_url(tmp_path, style):
    path, truth = draw(style, 3, tmp_path)
    reading = pictures.read(path)
    assert reading.genre == "dbchoco"
    assert matches(reading, truth), pictures.puzzle_text(reading)
    assert reading.status == "ok"
    assert pictures.puzzle_text(reading).startswith("https://puzz.link/p?dbchoco/")


def test_a_small_jpeg_board_is_right_or_flagged(tmp_path):
    path, truth = draw("dbchoco-jpeg", 1, tmp_path)
    never_silently_wrong(pictures.read(path, genre="dbchoco"), truth)


@pytest.mark.parametrize(
    ("style", "seed"),
    [
        ("dbchoco-puzzlink", 1006),  # digits halfway between the lines: counted 16x8 before
        ("dbchoco-render", 1000),  # thin gray lines: counted 24x12 before
        ("dbchoco-walls", 1001),  # digits that come near a line were dropped as line ink
    ],
)
def test_boards_whose_cells_or_digits_were_lost_are_read(tmp_path, style, seed):
    path, truth = draw(style, seed, tmp_path)
    reading = pictures.read(path)
    assert reading.genre == "dbchoco"
    assert matches(reading, truth), pictures.puzzle_text(reading)


def test_a_16x16_board_in_a_small_jpeg_is_not_taken_for_a_sudoku(tmp_path):
    path, _ = draw("dbchoco-jpeg", 1008, tmp_path)
    reading = pictures.read(path)
    assert reading.genre == "dbchoco"


def _board(cols: int, rows: int, cell_w: int, cell_h: int) -> np.ndarray:
    """A plain board: white and gray cells in a checkered pattern of 2x2 blocks, thin
    lines, a black border."""
    margin = 20
    image = np.full((rows * cell_h + 2 * margin, cols * cell_w + 2 * margin, 3), 255, np.uint8)
    for r in range(rows):
        for c in range(cols):
            if (r // 2 + c // 2) % 2:
                y, x = margin + r * cell_h, margin + c * cell_w
                image[y : y + cell_h, x : x + cell_w] = 200
    for c in range(1, cols):
        image[margin : margin + rows * cell_h, margin + c * cell_w] = 90
    for r in range(1, rows):
        image[margin + r * cell_h, margin : margin + cols * cell_w] = 90
    cv2.rectangle(
        image, (margin, margin), (margin + cols * cell_w, margin + rows * cell_h), (0, 0, 0), 3
    )
    return image


def test_cells_that_are_not_square_are_an_error_not_a_made_up_board(tmp_path):
    from pencilbox.errors import FormatError

    path = tmp_path / "tall.png"
    cv2.imwrite(str(path), _board(6, 3, 40, 80))
    with pytest.raises(FormatError, match="are not square"):
        pictures.read(path, genre="dbchoco")


def test_ink_that_is_no_digit_is_doubted_not_dropped(tmp_path):
    image = _board(6, 6, 40, 40)
    path = tmp_path / "clean.png"
    cv2.imwrite(str(path), image)
    clean = pictures.read(path, genre="dbchoco")
    assert (clean.width, clean.height) == (6, 6)
    assert not [n for n in clean.numbers if n.value is not None]
    # a blot in the middle of r2c3 (row 1, column 2 counted from 0): too small for a digit
    cv2.circle(image, (20 + 2 * 40 + 20, 20 + 40 + 20), 4, (0, 0, 0), -1)
    cv2.imwrite(str(path), image)
    record = pictures.record(pictures.read(path, genre="dbchoco"), "blot")
    assert record["status"] == "uncertain"
    assert {"cell": "r2c3", "read": None} in [
        {"cell": item["cell"], "read": item["read"]} for item in record["uncertain"]
    ]


def test_an_app_board_with_solid_lines_and_tinted_cells_is_read(tmp_path):
    # lines drawn lighter than the tinted cells vanish on them: steps between cells count
    path, truth = draw("dbchoco-app", 1004, tmp_path)
    reading = pictures.read(path)
    assert reading.genre == "dbchoco"
    assert matches(reading, truth), pictures.puzzle_text(reading)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_photographed_board_is_right_or_flagged(tmp_path, seed):
    path, truth = draw("dbchoco-photo", seed, tmp_path)
    never_silently_wrong(pictures.read(path, genre="dbchoco"), truth)


def test_a_board_lit_from_one_side_is_read(tmp_path):
    # the light falls off across the page: white cells at the dim end are darker than gray
    # cells at the bright end, yet each is told by its own neighbourhood
    path, truth = draw("dbchoco-puzzlink", 3, tmp_path)
    image = cv2.imread(str(path)).astype(np.float32)
    height, width = image.shape[:2]
    light = np.linspace(1.0, 0.62, width, dtype=np.float32)[None, :, None]
    light = light * np.linspace(1.0, 0.9, height, dtype=np.float32)[:, None, None]
    dim = tmp_path / "dim.png"
    cv2.imwrite(str(dim), np.clip(image * light, 0, 255).astype(np.uint8))
    reading = pictures.read(dim)
    assert reading.genre == "dbchoco"
    assert matches(reading, truth), pictures.puzzle_text(reading)


@pytest.mark.parametrize("seed", [5005, 7001])
def test_the_board_on_a_photographed_page_is_not_the_page(tmp_path, seed):
    # the page's edge is an outline too, and an even split of it meets some board lines
    # (7001: a margin of about one cell, so that the page splits into the board's cells and
    # one more all round, with the paper's grain marking every split): the board's lines run
    # into its outer cells, the page's margin has none. (7000 was such a picture too; since
    # the generator makes sparser boards its board holds 4 numbers, and the reader takes the
    # margin for a ring of cells: 10x10 for 8x8. Left to the reader's rewrite, issue 31.)
    path, truth = draw("dbchoco-photo", seed, tmp_path)
    reading = pictures.read(path)
    assert reading.genre == "dbchoco"
    assert (reading.width, reading.height) == (len(truth["colors"][0]), len(truth["colors"]))
    never_silently_wrong(reading, truth)


def test_a_board_with_two_solutions_keeps_the_numbers_it_shows(tmp_path, capsys):
    # a published challenge board with two solutions, drawn as an app draws it: a 3 read
    # 98% sure was made a 2 (0.4%) that makes the board unique; it is kept, and the board
    # is flagged as not unique
    from pencilbox.cli import main
    from pencilbox.genres.dbchoco.model import make_puzzle

    source = json.loads((DATA / "asSqr_puzz_sqr_06_11x10.json").read_text())
    gray = [[ch == "g" for ch in row] for row in source["colors"]]
    assert make_puzzle(gray, source["numbers"], max_size=None).solve(limit=2).status == "multiple"
    path, truth = draw("dbchoco-app", 28, tmp_path)
    assert truth["numbers"] == source["numbers"]
    assert main(["read", str(path), "--jsonl"]) == 1
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "uncertain"
    assert record["puzzle"]["url"].endswith(source["url"].split("dbchoco/", 1)[1])
    assert not any(u.get("read_as") is not None for u in record["uncertain"])


def test_a_border_standing_a_pixel_in_from_the_side_is_no_column_of_ones(tmp_path, capsys):
    # `pencilbox render --png` of a 16x16 board at 22 px cells, 3x: once the board is cut
    # out and warped, its thick border stands a pixel in from the side, and its inner edge
    # (2 px wide, a cell tall between the lines) was read as a sure "1" in all 16 cells
    from pencilbox.cli import main
    from pencilbox.genres.dbchoco.model import make_puzzle
    from pencilbox.genres.dbchoco.render import png

    source = json.loads((DATA / "asSqr_puzz_sqr_02_16x16.json").read_text())
    gray = [[ch == "g" for ch in row] for row in source["colors"]]
    puzzle = make_puzzle(gray, source["numbers"], max_size=None)
    path = tmp_path / "board.png"
    path.write_bytes(png(puzzle, scale=3, cell_size=22))
    assert main(["read", str(path), "--jsonl"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "ok"
    assert record["puzzle"]["url"].endswith(source["url"].split("dbchoco/", 1)[1])


def test_a_photo_whose_lines_were_missed_is_refused_not_read_as_a_tiny_board(tmp_path, capsys):
    # a photographed 8x8 board whose faint lines were counted as a 2x2 grid: each "cell"
    # held several numbers, read as one (a 7 among them), and the board came out uncertain
    # with its size, the real error, never doubted
    from pencilbox.cli import main

    path, _ = draw("dbchoco-photo", 1023, tmp_path)
    assert main(["read", str(path), "--jsonl"]) == 2
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "error"
    assert record["error"].endswith("more than half of them: lines of the grid were missed")


def test_light_cells_bunched_at_one_side_do_not_tilt_the_light_to_black():
    # white cells in the top rows and grey ones in the bottom rows made the plane fitted to
    # the lighter cells fall to nothing at the top: top cells came out 20x the paper's
    # brightness, no cell counted as white and the board was no board ("no puzzle grid
    # found" on a clean 8x8 picture)
    from pencilbox.genres.dbchoco.picture import _even_light

    pattern = [
        "ggwwwwgg", "wwwwwggg", "wgggwwwg", "wwwggwwg",
        "gwwgggww", "gggggwwg", "wwgwwggg", "wggwwwgg",
    ]  # fmt: skip
    levels = np.array([[255.0 if c == "w" else 187.0 for c in row] for row in pattern])
    flat = _even_light(levels.astype(np.float32))
    assert float(flat.max()) < 300
    white = flat[levels == 255.0]
    grey = flat[levels == 187.0]
    assert float(white.min()) > float(grey.max())
