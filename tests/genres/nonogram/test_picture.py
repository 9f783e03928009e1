"""Reading nonograms from pictures: each corpus style, the totals check, the errors."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont
from tools.fonts import held_out_fonts
from tools.picture_corpus import make_picture

from pencilbox import pictures
from pencilbox.core.vision.glyphs import blobs, glyph_image, ink_map, recogniser
from pencilbox.core.vision.picture import decode
from pencilbox.errors import FormatError
from pencilbox.genres.nonogram import picture as picture_module
from tests.pictures import draw, matches, never_silently_wrong

CLEAN = [
    "nonogram-boxed",
    "nonogram-plain",
    "nonogram-app",
    "nonogram-dark",
    "nonogram-strike",
    "nonogram-render",
]


@pytest.mark.parametrize("seed", [1, 2])
def test_our_own_pictures_are_read_exactly(tmp_path, seed):
    path, truth = draw("nonogram-render", seed, tmp_path)
    reading = pictures.read(path)
    assert reading.genre == "nonogram"
    assert matches(reading, truth), pictures.puzzle_text(reading)
    assert reading.status == "ok"


@pytest.mark.parametrize("style", CLEAN)
def test_clean_screenshots_are_read_right_or_flagged(tmp_path, style):
    path, truth = draw(style, 3, tmp_path)
    reading = pictures.read(path)
    assert reading.genre == "nonogram"
    assert (reading.width, reading.height) == (len(truth["cols"]), len(truth["rows"]))
    never_silently_wrong(reading, truth)


@pytest.mark.parametrize("style", ["nonogram-jpeg", "nonogram-photo"])
@pytest.mark.parametrize("seed", [1, 2])
def test_damaged_pictures_are_right_or_flagged(tmp_path, style, seed):
    path, truth = draw(style, seed, tmp_path)
    try:
        reading = pictures.read(path, genre="nonogram")
    except FormatError:
        return  # refused with a reason: not silently wrong
    never_silently_wrong(reading, truth)


def test_a_misread_number_breaks_the_totals_and_is_named(tmp_path):
    path, truth = draw("nonogram-render", 2, tmp_path)
    read = pictures.read(path)
    assert matches(read, truth)
    # the user confirms every number (so the verdict alone decides the status), then errs
    reading = read.edited({i: n.value for i, n in enumerate(read.numbers)})
    assert pictures.recheck(reading).status == "ok"
    at = next(i for i, n in enumerate(reading.numbers) if n.kind == "row")
    wrong = pictures.recheck(reading.edited({at: reading.numbers[at].value + 1}))
    assert wrong.status == "uncertain"
    assert wrong.verdict is not None and wrong.verdict.checks["totals_agree"] is False
    assert any("add up to" in p for p in wrong.verdict.problems)
    right = pictures.recheck(wrong.edited({at: reading.numbers[at].value}))
    assert right.status == "ok"
    assert right.verdict is not None and right.verdict.checks["totals_agree"] is True


def test_clues_that_do_not_line_up_with_the_grid_are_an_error(tmp_path):
    path, truth = draw("nonogram-plain", 3, tmp_path)
    image = cv2.imread(str(path))
    reading = pictures.read(path)
    (x0, y0), (x1, _), _, _ = reading.grid
    pitch = (x1 - x0) / reading.width
    # an extra stack of clue numbers right of the grid, above it
    for k in range(2):
        at = (int(x1 + pitch * 0.3), int(y0 - pitch * (0.4 + k)))
        cv2.putText(image, "7", at, cv2.FONT_HERSHEY_SIMPLEX, pitch / 40, (0, 0, 0), 2)
    cv2.imwrite(str(path), image)
    columns = len(truth["cols"])
    with pytest.raises(FormatError, match=f"the grid has {columns} columns but "):
        pictures.read(path, genre="nonogram")


def test_a_grid_without_clues_is_an_error(tmp_path):
    image = np.full((400, 400, 3), 255, np.uint8)
    for k in range(11):
        cv2.line(image, (50 + 30 * k, 50), (50 + 30 * k, 350), (0, 0, 0), 1)
        cv2.line(image, (50, 50 + 30 * k), (350, 50 + 30 * k), (0, 0, 0), 1)
    path = tmp_path / "empty-grid.png"
    cv2.imwrite(str(path), image)
    with pytest.raises(FormatError, match="no clue numbers"):
        pictures.read(path, genre="nonogram")


@pytest.mark.parametrize("seed", [1, 4, 6, 7, 9])
def test_a_photographed_grid_has_its_own_size_not_the_pages(seed):
    # the page's edge and the table's texture continue the lattice by chance; the page's
    # blurred corners leave the grid askew; a faint rise hid the border from the line finder
    data, _, truth = make_picture("nonogram-photo", seed)
    _, _, layout, _ = picture_module._find(decode(data))
    assert (layout.width, layout.height) == (len(truth["cols"]), len(truth["rows"]))


def _struck_number(text: str, slash: bool) -> tuple[np.ndarray, np.ndarray]:
    """A clue number drawn in a held-out face and struck out the way apps mark a solved
    clue: a level line through its middle or a slash corner to corner. Its ink and mask."""
    face = next(p for p in held_out_fonts() if "Regular" in p.name)
    image = Image.new("L", (120, 80), 255)
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(str(face), 36)
    draw.text((60, 40), text, font=font, fill=0, anchor="mm")
    x0, y0, x1, y1 = draw.textbbox((60, 40), text, font=font, anchor="mm")
    if slash:
        draw.line([(x0 - 6, y1 + 2), (x1 + 6, y0 - 2)], fill=0, width=3)
    else:
        draw.line([(x0 - 3, (y0 + y1) / 2), (x1 + 3, (y0 + y1) / 2)], fill=0, width=3)
    ink = ink_map(np.asarray(image), window=31)
    return ink, ((ink > 0.3) * 255).astype(np.uint8)


@pytest.mark.parametrize(("text", "slash"), [("10", False), ("3", True), ("7", True)])
def test_a_struck_out_clue_is_read_without_its_strike(text, slash):
    ink, mask = _struck_number(text, slash)
    found, _ = blobs(mask, min_area=4)
    height = 26.0  # the clue digits' height in this drawing
    chars, cleaned = picture_module._unstruck(found, mask, ink, height)
    keep = cv2.dilate(cleaned, np.ones((3, 3), np.uint8)) > 0
    crops = np.stack([glyph_image(ink, b, keep) for b in sorted(chars, key=lambda b: b.x0)])
    read = "".join(g.best for g in recogniser().guess(crops, "0123456789"))
    assert read == text


def test_filled_cells_in_the_grids_corner_are_grid_not_a_clue_corner():
    # a part-solved grid whose top-left cells are filled hides their lines, like the empty
    # corner left of boxed column clues; the filled cells are still the grid's
    pitch = 20
    image = np.full((260, 260), 255, np.uint8)
    lines = [30.0 + pitch * k for k in range(11)]
    for at in lines:
        cv2.line(image, (int(at), 30), (int(at), 230), 0, 1)
        cv2.line(image, (30, int(at)), (230, int(at)), 0, 1)
    image[30 : 30 + 2 * pitch, 30 : 30 + 3 * pitch] = 20
    ink = ink_map(image, window=11)
    layout = picture_module._grid_block(lines, lines, ink, float(pitch), image)
    assert (layout.width, layout.height) == (10, 10)
