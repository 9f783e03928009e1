"""Reading nonograms from pictures: each corpus style, the totals check, the errors."""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont
from tools.fonts import held_out_fonts
from tools.picture_corpus import make_picture

from pencilbox import pictures
from pencilbox.cli import main
from pencilbox.core.vision.glyphs import (
    MODELS,
    Blob,
    Guess,
    Recogniser,
    blobs,
    glyph_image,
    ink_map,
    recogniser,
)
from pencilbox.core.vision.picture import decode
from pencilbox.errors import FormatError
from pencilbox.genres.nonogram import picture as picture_module
from tests.pictures import DATA, draw, matches, never_silently_wrong, real_nonogram

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
    with pytest.raises(FormatError) as raised:
        pictures.read(path, genre="nonogram")
    assert raised.value.reason == (
        f"the grid has {columns} columns but clue numbers were found beside 1 more line left "
        f"or right of it (and beside {columns} of its columns)"
    )


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


def _struck_number(
    text: str,
    slash: bool,
    face: str = "Regular",
    size: int = 36,
    width: int = 3,
    inset: int = 0,
) -> tuple[np.ndarray, np.ndarray]:
    """A clue number drawn in a held-out face and struck out the way apps mark a solved
    clue: a level line through its middle or a slash corner to corner. Its ink and mask."""
    path = next(p for p in held_out_fonts() if p.name.endswith(f"-{face}.ttf"))
    image = Image.new("L", (120, 80), 255)
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(str(path), size)
    draw.text((60, 40), text, font=font, fill=0, anchor="mm")
    x0, y0, x1, y1 = draw.textbbox((60, 40), text, font=font, anchor="mm")
    if slash:
        over = max(2, size // 6)
        # an inset slash is steeper: it ends within the digits' width, further past their
        # height
        over -= inset
        ends = [(x0 - over, y1 + 2 + inset // 2), (x1 + over, y0 - 2 - inset // 2)]
        draw.line(ends, fill=0, width=width)
    else:
        draw.line([(x0 - 3, (y0 + y1) / 2), (x1 + 3, (y0 + y1) / 2)], fill=0, width=width)
    ink = ink_map(np.asarray(image), window=31)
    return ink, ((ink > 0.3) * 255).astype(np.uint8)


def _read_struck(
    text: str, slash: bool, height: float | None = None, **drawing: Any
) -> tuple[str, int]:
    """What the reader makes of a struck number, and how many of its digits stay doubted.
    `height`: the clue digits' height (else the struck number's)."""
    ink, mask = _struck_number(text, slash, **drawing)
    found, _ = blobs(mask, min_area=4)
    height = height or float(max(b.height for b in found))
    chars, cleaned, ink, struck, named = picture_module._unstruck(found, mask, ink, height)
    keep = cv2.dilate(cleaned, np.ones((3, 3), np.uint8)) > 0
    read = ""
    for b in sorted(chars, key=lambda b: b.x0):
        guess = named.get(b) or recogniser().guess(glyph_image(ink, b, keep)[None], "0123456789")[0]
        read += guess.best
    return read, len(struck)


@pytest.mark.parametrize(("text", "slash"), [("10", False), ("3", True), ("7", True)])
def test_a_struck_out_clue_is_read_without_its_strike(text, slash):
    assert _read_struck(text, slash)[0] == text


@pytest.mark.parametrize("text", ["2", "1", "6"])
def test_a_bold_digit_under_a_heavy_slash_keeps_its_shape(text):
    # a slash as thick as a bold face's strokes runs along a 2's own slanted stroke and cuts
    # a 1's stem: what is left is read three ways, and stays in doubt
    read, doubted = _read_struck(text, True, face="Bold", size=30, width=4)
    assert (read, doubted) == (text, 1)


@pytest.mark.parametrize(("text", "size"), [("2", 9), ("3", 9), ("7", 10), ("13", 11)])
def test_tiny_struck_digits_lose_their_strike(text, size):
    # 7-8 px digits under a 1 px strike, as thick as their strokes: only the strike's own
    # pixels are taken out (a 3's middle bar beside it stays), and what is read stays in doubt
    read, doubted = _read_struck(text, False, size=size, width=1)
    assert (read, doubted) == (text, len(text))


@pytest.mark.parametrize("text", ["12", "14", "13"])
def test_a_slash_across_two_digits_need_not_reach_the_corners(text):
    # a slash across a two-digit number (26 px digits) sticks out above and below it, but
    # the digits reach past its ends sideways: it is found from the box's bottom to its top
    _, mask = _struck_number(text, True, inset=10)
    (blob,) = blobs(mask, min_area=4)[0]
    patch = mask[blob.y0 : blob.y1, blob.x0 : blob.x1] > 0
    assert picture_module._corner_slash(patch, 26.0) is None
    assert picture_module._strike_through(patch, 26.0) is not None
    assert _read_struck(text, True, height=26.0, inset=10) == (text, 2)


def _ruled_10x10(pitch: int = 20) -> tuple[np.ndarray, list[float]]:
    """A white picture with a 10x10 grid ruled in black from (30, 30), and its lines."""
    image = np.full((60 + 10 * pitch, 60 + 10 * pitch), 255, np.uint8)
    lines = [30.0 + pitch * k for k in range(11)]
    end = 30 + 10 * pitch
    for at in lines:
        cv2.line(image, (int(at), 30), (int(at), end), 0, 1)
        cv2.line(image, (30, int(at)), (end, int(at)), 0, 1)
    return image, lines


def _grid_size(image: np.ndarray, lines: list[float], pitch: int = 20) -> tuple[int, int]:
    ink = ink_map(image, window=11)
    layout = picture_module._grid_block(lines, lines, ink, float(pitch), image)
    return layout.width, layout.height


def test_filled_cells_in_the_grids_corner_are_grid_not_a_clue_corner():
    # a part-solved grid whose top-left cells are filled hides their lines, like the empty
    # corner left of boxed column clues; the filled cells are still the grid's
    pitch = 20
    image, lines = _ruled_10x10(pitch)
    image[30 : 30 + 2 * pitch, 30 : 30 + 3 * pitch] = 20
    assert _grid_size(image, lines) == (10, 10)


def test_lines_hidden_by_filled_columns_are_judged_against_the_grids_rows():
    # a 5x10 grid whose three middle columns are filled all the way down: their lines are
    # not seen; the row lattice runs 8 lines on into the clue area above (clue numbers a
    # cell apart), where the middle columns' cells are neither filled nor ruled, so judged
    # against every row line they look like no grid; against the grid's own rows they do
    pitch, left, top = 40, 100, 400
    dark = np.zeros((900, 400), bool)
    strokes = np.zeros((900, 400), bool)
    dark[top : top + 10 * pitch, left + pitch : left + 4 * pitch] = True
    cols = [float(left + pitch * k) for k in range(6)]
    rows = [float(top + pitch * k) for k in range(-8, 11)]
    for x in (cols[0], cols[1], cols[4], cols[5]):
        strokes[top : top + 10 * pitch + 1, int(x)] = True
    for y in rows[8:]:
        for a, b in ((cols[0], cols[1]), (cols[4], cols[5])):
            strokes[int(y), int(a) : int(b) + 1] = True
    found = ({cols[0], cols[1], cols[4], cols[5]}, set(rows))
    kept = picture_module._where_hidden((cols, rows), found, dark, strokes)
    assert kept == (cols, rows[8:])


def test_a_filled_first_row_and_column_leave_no_clue_corner():
    # a part-played grid (Nonny's skull) whose first row and column are filled but for the
    # corner cell: the filled cells hide the lines around that cell, which looks like the
    # empty corner of clue cells one deep; clue cells hold numbers, never filled cells
    pitch = 20
    image, lines = _ruled_10x10(pitch)
    image[30 : 30 + pitch, 30 + pitch : 30 + 9 * pitch] = 20  # row 1, columns 2-9
    image[30 + pitch : 30 + 10 * pitch, 30 : 30 + pitch] = 20  # column 1, rows 2-10
    image[31 : 30 + pitch, 31 : 30 + pitch] = 200  # the corner cell, tinted as a cursor's
    assert _grid_size(image, lines) == (10, 10)


@pytest.mark.parametrize("style", ["nonogram-large", "nonogram-bands"])
def test_new_layouts_are_read_right_or_flagged(tmp_path, style):
    # tight column stacks, thick guides every 5 cells, bold faces on tinted bands with a
    # highlighted cursor row and column: right, or every wrong number among the doubts
    path, truth = draw(style, 2, tmp_path)
    reading = pictures.read(path)
    assert (reading.width, reading.height) == (len(truth["cols"]), len(truth["rows"]))
    never_silently_wrong(reading, truth)


def _row_of(widths: list[int], spaces: list[int], height: int = 20) -> list[Blob]:
    """Character boxes side by side on one row: their widths and the spaces between them."""
    boxes, x = [], 10
    for k, width in enumerate(widths):
        boxes.append(Blob(x, 5, x + width, 5 + height, width * height))
        x += width + (spaces[k] if k < len(spaces) else 0)
    return boxes


def test_digits_of_a_wide_face_are_one_number_when_they_stand_close():
    # a wide face's "13" stands its side bearings apart (3 px) though its middles are almost a
    # height apart; numbers stand a word space apart (9-12 px)
    layout = picture_module.Layout(tuple(200.0 + 40 * k for k in range(6)), (0.0, 40.0), 40.0)
    line = _row_of([15, 19, 16, 16, 14, 15], [3, 10, 12, 3, 9])
    height = 20.0
    spacing = picture_module._spacing(line, layout, height)
    groups = picture_module._numbers_in_line(line, spacing.reach)
    assert [len(g) for g in groups] == [2, 1, 2, 1]
    assert not picture_module._crowded([groups], spacing, height)


def test_a_space_between_a_digits_and_a_numbers_is_doubted():
    layout = picture_module.Layout(tuple(200.0 + 40 * k for k in range(6)), (0.0, 40.0), 40.0)
    line = _row_of([8, 8, 8, 8, 8], [3, 4, 5, 5], height=12)
    spacing = picture_module._spacing(line, layout, 12.0)
    groups = picture_module._numbers_in_line(line, spacing.reach)
    # spaces of 3 to 5 px with no clear jump between them: "1 2" or "12"?
    assert picture_module._crowded([groups], spacing, 12.0)


def test_a_tight_eleven_is_cut_into_two_ones():
    face = next(p for p in held_out_fonts() if "Regular" in p.name)
    image = Image.new("L", (80, 60), 255)
    font = ImageFont.truetype(str(face), 30)
    draw = ImageDraw.Draw(image)
    draw.text((30, 30), "1", font=font, fill=0, anchor="mm")
    x0, _, x1, _ = draw.textbbox((30, 30), "1", font=font, anchor="mm")
    draw.text((30 + (x1 - x0) - 1, 30), "1", font=font, fill=0, anchor="mm")  # touching
    ink = ink_map(np.asarray(image), window=31)
    mask = ((ink > 0.3) * 255).astype(np.uint8)
    found, _ = blobs(mask, min_area=4)
    assert len(found) == 1
    pieces = picture_module._split_fused(found, ink, mask)
    keep = cv2.dilate(mask, np.ones((3, 3), np.uint8)) > 0
    crops = np.stack([glyph_image(ink, b, keep) for b in pieces])
    assert "".join(g.best for g in recogniser().guess(crops, "0123456789")) == "11"


def test_thick_guides_every_five_cells_do_not_hide_the_cells():
    # black guides 4 px wide every 5 cells outweigh faint 1 px lines between them
    image = np.full((420, 420), 255, np.uint8)
    for k in range(21):
        at = 10 + 20 * k
        thick = k % 5 == 0
        cv2.line(image, (at, 10), (at, 410), 0 if thick else 200, 4 if thick else 1)
        cv2.line(image, (10, at), (410, at), 0 if thick else 200, 4 if thick else 1)
    cols, rows, pitch, _ = picture_module._lattice(image)
    assert abs(pitch - 20) < 1
    assert (len(cols), len(rows)) == (21, 21)


def test_a_pages_edge_beside_the_grid_is_no_line_of_it():
    # the grid's lines 30 px apart, then the page's edge 36 px on and the table's texture
    lines = [100.0 + 30 * k for k in range(8)] + [346.0, 411.0]
    chained = [*lines[:-1], 378.5, 411.0]
    assert picture_module._even_ends(chained, lines, 30.0) == lines[:8]


def test_a_line_without_numbers_stands_as_a_doubted_blank(tmp_path):
    path, _ = draw("nonogram-render", 1, tmp_path)
    image = cv2.imread(str(path))
    reading = pictures.read(path)
    assert reading.status == "ok"
    # white out the clue of the first column that has one: the totals no longer agree
    first = next(n for n in reading.numbers if n.kind == "col")
    x0, y0, x1, y1 = (
        min(n.box[0] for n in reading.numbers if n.kind == "col" and n.line == first.line),
        min(n.box[1] for n in reading.numbers if n.kind == "col" and n.line == first.line),
        max(n.box[2] for n in reading.numbers if n.kind == "col" and n.line == first.line),
        max(n.box[3] for n in reading.numbers if n.kind == "col" and n.line == first.line),
    )
    image[y0 - 1 : y1 + 1, x0 - 1 : x1 + 1] = 255
    cv2.imwrite(str(path), image)
    damaged = pictures.read(path, genre="nonogram")
    assert damaged.status == "uncertain"
    blank = [
        item
        for item in pictures.record(damaged, "x")["uncertain"]
        if item["clue"] == f"column {first.line + 1}"
    ]
    assert blank and blank[0]["read"] is None
    assert "no clue number" in blank[0]["reason"]


@pytest.mark.parametrize(
    ("face", "size"), [("RobotoCondensed-Regular.ttf", 14), ("RobotoCondensed-Bold.ttf", 16)]
)
def test_a_pair_set_so_tight_that_it_touches_is_two_digits(face, size):
    # a narrow face's "22" at a large puzzle's small print: one piece a little wider than
    # tall, which the recogniser half believes is one "2"
    path = next(p for p in held_out_fonts() if p.name == face)
    image = Image.new("L", (80, 60), 255)
    font = ImageFont.truetype(str(path), size)
    draw = ImageDraw.Draw(image)
    draw.text((30, 30), "2", font=font, fill=0, anchor="mm")
    x0, _, x1, _ = draw.textbbox((30, 30), "2", font=font, anchor="mm")
    draw.text((30 + (x1 - x0) - 1, 30), "2", font=font, fill=0, anchor="mm")
    ink = ink_map(np.asarray(image), window=31)
    mask = ((ink > 0.3) * 255).astype(np.uint8)
    found, _ = blobs(mask, min_area=4)
    assert len(found) == 1 and found[0].width >= found[0].height
    pieces = picture_module._split_fused(found, ink, mask)
    keep = cv2.dilate(mask, np.ones((3, 3), np.uint8)) > 0
    crops = np.stack([glyph_image(ink, b, keep) for b in pieces])
    assert "".join(g.best for g in recogniser().guess(crops, "0123456789")) == "22"


def _thick_bordered_grid() -> tuple[np.ndarray, picture_module.Layout]:
    """A 10x10 grid, 30 px cells, a 6 px black border, its first column filled."""
    image = np.full((420, 420), 255, np.uint8)
    lines = [100.0 + 30 * k for k in range(11)]
    for at in lines[1:-1]:
        cv2.line(image, (int(at), 100), (int(at), 400), 170, 1)
        cv2.line(image, (100, int(at)), (400, int(at)), 170, 1)
    image[100:400, 130 - 30 : 130 - 1] = 20  # the first column filled
    cv2.rectangle(image, (97, 97), (403, 403), 0, 6)
    return image, picture_module.Layout(tuple(lines), tuple(lines), 30.0)


def test_a_sliver_of_a_thick_border_is_no_clue():
    image, layout = _thick_bordered_grid()
    dark = picture_module._filled(image)
    sliver = Blob(94, 160, 97, 178, 50)  # the border's outer edge, cut short
    digit = Blob(70, 160, 80, 178, 90)  # a "1" a third of a cell off the grid
    close = Blob(84, 190, 93, 208, 90)  # a digit set a pixel short of the border's ink
    column_digit = Blob(160, 70, 170, 88, 90)
    kept = picture_module._off_the_border([sliver, digit, close, column_digit], layout, dark)
    assert kept == [digit, close, column_digit]


def test_a_screenshots_border_is_square_though_filled_cells_bend_its_outline():
    image, _ = _thick_bordered_grid()
    # the outline a contour finder fits is pulled 4 px in at one corner by the filled cells
    bent = np.array([[94, 94], [406, 94], [406, 406], [98, 406]], np.float32)
    assert picture_module._plumb(image, bent)
    # the same grid photographed at an angle is not
    target = np.array([[94, 94], [406, 100], [400, 406], [90, 400]], np.float32)
    warp = cv2.getPerspectiveTransform(bent, target)
    tilted = cv2.warpPerspective(image, warp, (420, 420), borderValue=255)
    assert not picture_module._plumb(tilted, target)


def test_a_space_beside_a_struck_number_is_doubted():
    # a strike left in widens its number's box by a pixel or two each side: the next
    # number stands little further than a digit of its own would
    line = _row_of([9, 9, 9], [2, 6], height=8)
    groups = [[b] for b in line]
    spacing = picture_module.Spacing(reach=10.0, margin=1.0, gap=1.5)
    assert not picture_module._crowded([groups], spacing, 8.0)
    assert picture_module._crowded([groups], spacing, 8.0, frozenset(line[:1])) == set(line[:2])


def test_two_tiny_digits_that_touch_are_no_slash():
    # a "12" 6 px tall whose 1's foot and 2's top sit in opposite corners of its box, as a
    # slash's ends would (from a 15 px boxed screenshot): its ink does not run along a line
    rows = [".###.###", "..#.#.##", ".##...##", ".##..##.", ".##.##.#", "###.###."]
    patch = np.array([[ch == "#" for ch in row] for row in rows])
    assert picture_module._strike_through(patch, 7.0) is None
    # a 1 px slash across a tiny digit is one
    slashed = np.zeros((9, 9), bool)
    slashed[1:8, 4] = True
    for k in range(9):
        slashed[8 - k, k] = True
    assert picture_module._strike_through(slashed, 7.0) is not None


def test_small_digits_make_numbers_by_their_middles_not_their_spaces():
    # 9 px print in a face whose "1" stands in a wide advance: within "13" the boxes stand
    # 4 px apart, between the numbers of "2 2" 5 px; middle to middle 8 px against 11 px
    rows = [([3, 5], [4]), ([3, 5], [9]), ([6, 6], [5]), ([6, 3, 6], [6, 4]), ([6, 6], [1])]
    layout = picture_module.Layout((200.0, 220.0), tuple(20.0 * k for k in range(6)), 20.0)
    line: list[Blob] = []
    for r, (widths, spaces) in enumerate(rows):
        line += [
            Blob(b.x0, 20 * r + 5, b.x1, 20 * r + 14, b.area) for b in _row_of(widths, spaces, 9)
        ]
    spacing = picture_module._spacing(line, layout, 9.0)
    groups = [
        picture_module._numbers_in_line(
            [b for b in line if r * 20 <= b.cy < r * 20 + 20], spacing.reach
        )
        for r in range(len(rows))
    ]
    assert [[len(n) for n in g] for g in groups] == [[2], [1, 1], [1, 1], [1, 2], [2]]
    # "1 9" is clearly two numbers; in "13" the spaces between the boxes say otherwise
    # than the middles (4 px is wider than the touching "22"'s 1 px by far): a doubt
    assert not picture_module._crowded(groups[1:2], spacing, 9.0)
    assert picture_module._crowded(groups[:1], spacing, 9.0) == set(groups[0][0])


def test_a_faint_digit_broken_into_a_top_and_a_foot_is_one_character():
    # a greyed-out "2" 6 px tall whose thin diagonal fell below the ink threshold: its top
    # (2 rows) and its foot (1 row) stand 3 rows apart, beside whole digits of its size
    mask = np.zeros((40, 60), np.uint8)
    mask[10:16, 10:12] = 255  # a "1"
    mask[10:12, 20:23] = 255  # the 2's top
    mask[15:16, 19:23] = 255  # and its foot
    mask[10:16, 30:33] = 255  # a whole digit
    layout = picture_module.Layout((50.0, 64.0, 78.0, 92.0, 106.0, 120.0), (0.0, 14.0), 14.0)
    found = picture_module._characters(mask, layout)
    assert sorted((b.x0, b.y0, b.x1, b.y1) for b in found) == [
        (10, 10, 12, 16),
        (19, 10, 23, 16),
        (30, 10, 33, 16),
    ]


def test_tinted_bands_across_clues_and_grid_are_read_as_a_nonogram(tmp_path):
    # every other block of five lines tinted: the cells come in two shades, as a Double
    # Choco board's do, and that genre scores about as high; its reading has doubts, the
    # nonogram's passes the rules
    path, truth = draw("nonogram-bands", 5004, tmp_path)
    reading = pictures.read(path)
    assert reading.genre == "nonogram"
    assert matches(reading, truth)


def test_the_table_beside_a_photographed_page_is_not_filled_cells(tmp_path):
    # a dark table a few cells right of the grid (the page's margin between) looks like
    # a column of filled cells, but it goes on above and below the grid
    path, truth = draw("nonogram-photo", 7004, tmp_path)
    reading = pictures.read(path, genre="nonogram")
    assert (reading.width, reading.height) == (len(truth["cols"]), len(truth["rows"]))
    never_silently_wrong(reading, truth)


def _read_jsonl(capsys: Any, path: Any) -> tuple[int, dict[str, Any]]:
    """`pencilbox read PICTURE --jsonl` as a user runs it: the exit status and the record."""
    code = main(["read", str(path), "--jsonl"])
    (line,) = capsys.readouterr().out.splitlines()
    return code, json.loads(line)


def _read_right(capsys: Any, path: Any, truth: dict[str, Any]) -> dict[str, Any]:
    """`pencilbox read PICTURE --jsonl` gives the truth's nonogram with status ok (exit 0);
    the record."""
    code, record = _read_jsonl(capsys, path)
    assert record["genre"] == "nonogram"
    assert record["puzzle"] == {"rows": truth["rows"], "cols": truth["cols"]}
    assert code == 0 and record["status"] == "ok"
    return record


def _wrong_lines(record: dict[str, Any], truth: dict[str, Any]) -> set[str]:
    puzzle = record["puzzle"]
    wrong = {
        f"row {i + 1}" for i, (a, b) in enumerate(zip(puzzle["rows"], truth["rows"])) if a != b
    }
    wrong |= {
        f"column {i + 1}" for i, (a, b) in enumerate(zip(puzzle["cols"], truth["cols"])) if a != b
    }
    return wrong


def test_struck_out_clues_through_the_command_line(capsys, tmp_path):
    # solved clues struck through (a level line in the rows, a slash in the columns): read
    # as the digits under the strikes, each doubted as read through a stroke, and those
    # doubts settled by the rules (no other numbers give the one picture), so: ok
    path, truth = draw("nonogram-strike", 15, tmp_path)
    record = _read_right(capsys, path, truth)
    assert not record["uncertain"]
    # the doubts themselves, before the rules weigh them: every one a struck number
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(picture_module, "_confirmed_by_rules", lambda reading: reading)
        code, record = _read_jsonl(capsys, path)
    assert code == 1 and record["status"] == "uncertain"
    assert record["uncertain"]
    assert all(u["reason"] == picture_module.STRUCK for u in record["uncertain"])
    # where a slash hides too much of a digit, the line is among the doubts
    path, truth = draw("nonogram-strike", 1102, tmp_path)
    code, record = _read_jsonl(capsys, path)
    wrong = _wrong_lines(record, truth)
    assert wrong and code == 1
    assert wrong <= {u["clue"] for u in record["uncertain"]}


def test_a_filled_first_column_through_the_command_line(capsys, tmp_path):
    # the first column solved: 22 of its 26 cells filled hide the grid's left border and,
    # beside filled neighbours, the lines between the rows
    path, truth = draw("nonogram-edge", 37, tmp_path)
    assert truth["cols"][0] == [22]
    code, record = _read_jsonl(capsys, path)
    assert code == 0 and record["status"] == "ok"
    assert record["puzzle"] == {"rows": truth["rows"], "cols": truth["cols"]}


def test_a_thin_piece_next_to_a_photographed_border_is_no_clue():
    # the border's edge, left by the line removal a pixel from the line: 1 px wide and a
    # digit tall, it reads as a "1"; the clue's own "1" stands a few pixels off
    layout = picture_module.Layout(
        tuple(182.5 + 28 * k for k in range(6)), tuple(172.5 + 28 * k for k in range(6)), 28.0
    )
    dark = np.zeros((400, 400), bool)
    digit = Blob(163, 179, 171, 194, 84)
    sliver = Blob(180, 192, 181, 203, 11)
    assert picture_module._off_the_border([digit, sliver], layout, dark) == [digit]


def test_a_mark_read_as_no_digit_does_not_join_a_number():
    # a smudge beside a "1", as close as the digits of one number stand: the "1" is read
    # on its own, the smudge stands apart as a mark to doubt
    digit, mark = Blob(100, 10, 106, 24, 60), Blob(110, 10, 114, 24, 20)
    assert picture_module._numbers_in_line([digit, mark], 14.0) == [[digit, mark]]
    assert picture_module._numbers_in_line([digit, mark], 14.0, frozenset([mark])) == [
        [digit],
        [mark],
    ]


def _clue_number(kind: str, line: int, index: int, value: int, reason: str | None = None) -> Any:
    from pencilbox.core.vision.reading import ReadNumber

    return ReadNumber(kind, line, index, value, 0.95, ((value + 1, 0.03),), reason=reason)


def test_digits_grouped_in_doubt_are_regrouped_when_the_totals_need_it():
    # a 5x5 whose first row is "1 2" (#.##.) and the rest empty: the reader grouped the
    # crowded "1" and "2" as 12, which needs 12 cells; as two numbers the clues agree
    from pencilbox.core.vision.reading import Reading

    crowded = picture_module.CROWDED
    numbers = [_clue_number("row", 0, 0, 12, crowded)]
    numbers += [_clue_number("row", r, 0, 0) for r in range(1, 5)]
    numbers += [_clue_number("col", k, 0, v) for k, v in enumerate([1, 0, 1, 1, 0])]
    reading = Reading("nonogram", 5, 5, tuple(numbers))
    repaired = picture_module.judge(reading, repair=True)
    assert picture_module.clues_of(repaired)[0][0] == [1, 2]
    assert repaired.status == "uncertain"
    changed = [n for n in repaired.numbers if n.changed]
    assert [(n.index, n.value, n.read_as) for n in changed] == [(0, 1, 12), (1, 2, 12)]
    assert "as two numbers" in repaired.repairs[0]
    # and back: read as two numbers where the totals need one
    numbers[0:1] = [_clue_number("row", 0, 0, 1, crowded), _clue_number("row", 0, 1, 2, crowded)]
    numbers[-5:] = [_clue_number("col", k, 0, 12 if k == 0 else 0) for k in range(5)]
    wide = Reading("nonogram", 13, 5, tuple(numbers))
    assert picture_module._toggles(wide) == [("join", 0)]
    joined = picture_module._regroup(wide, (("join", 0),), "the totals differ")
    assert [(n.kind, n.line, n.index, n.value) for n in joined.numbers[:2]] == [
        ("row", 0, 0, 12),
        ("row", 1, 0, 0),
    ]


def test_a_sliver_of_the_border_beside_an_empty_row_is_no_clue(tmp_path):
    # the first row has no clue; the second look for faint clues beside it finds the
    # photographed border's edge (a "1" to the recogniser): no clue all the same
    path, truth = draw("nonogram-photo", 9003, tmp_path)
    assert truth["rows"][0] == []
    reading = pictures.read(path, genre="nonogram")
    assert matches(reading, truth)


@pytest.mark.parametrize("seed", [3, 6])
def test_row_clues_written_with_commas_through_the_command_line(capsys, tmp_path, seed):
    # "3,1,2" in one text: the commas are no characters, and the numbers stand a comma's
    # width further apart than the digits of a number
    path, truth = draw("nonogram-commas", seed, tmp_path)
    assert any(len(r) > 1 for r in truth["rows"])
    _read_right(capsys, path, truth)


@pytest.mark.parametrize(("seed", "doubted"), [(1103, False), (1131, True)])
def test_a_slash_through_both_digits_of_a_number_is_read_through(capsys, tmp_path, seed, doubted):
    # a slash across a two-digit column clue joins its digits into one piece that reads as
    # no digit (a "15" as an 8): the digits are read once the slash is out (in a bold "15"
    # they still touch, and are cut apart as any touching pair). In 1131 it is read as 16
    # and made 15 by the totals, and stays in doubt; in 1103 it is read 15 but doubted, and
    # no other reading keeps the totals and a solution, so the rules settle the doubt
    path, truth = draw("nonogram-strike", seed, tmp_path)
    code, record = _read_jsonl(capsys, path)
    assert record["puzzle"] == {"rows": truth["rows"], "cols": truth["cols"]}
    assert ("column 1" in {u["clue"] for u in record["uncertain"]}) == doubted
    assert (code == 0 and record["status"] == "ok") == (not doubted)


def test_a_zero_beside_other_numbers_is_its_next_best_reading():
    # a 0 is a clue only alone (an empty line): beside other numbers it is a misread (a
    # struck 6 whose join the strike took away reads as a sure 0)
    def number(index: int, value: int, confidence: float, *others: tuple[int, float]) -> Any:
        return picture_module.ReadNumber("row", 4, index, value, confidence, others)

    found = [number(0, 5, 0.99), number(1, 0, 0.96, (6, 0.03), (8, 0.01))]
    five, six = picture_module._no_zero_beside_others(found)
    assert five == found[0]
    assert (six.value, six.read_as, six.changed) == (6, 0, True)
    assert six.confidence == pytest.approx(0.75)
    assert six.alternatives == ((8, pytest.approx(0.25)),)
    assert six.reason == picture_module.ZERO and not six.confident
    alone = [number(0, 0, 0.96, (6, 0.03))]
    assert picture_module._no_zero_beside_others(alone) == alone


@pytest.mark.parametrize("seed", [20, 25])
def test_commas_part_the_numbers_of_a_row_clue(capsys, tmp_path, seed):
    # "3,4" and "2,2" in faces whose comma is narrow: the numbers stand barely further
    # apart than the digits of "10", and were read as 34 and 22 (seed 20, the commas
    # standing free); in small or bold print the comma touches a digit, which read as
    # another ("1," as a 4; seed 25). The commas themselves part the numbers now.
    path, truth = draw("nonogram-commas", seed, tmp_path)
    _read_right(capsys, path, truth)


def test_a_greyed_digit_on_a_tinted_band_is_read_whole(capsys, tmp_path):
    # a solved clue greyed out on the darker band: the first look keeps only the thickest
    # strokes of its 5 (read as a 3, or a 4 as no character and lost); the fainter second
    # look makes the character whole
    path, truth = draw("nonogram-bands", 1047, tmp_path)
    _, record = _read_jsonl(capsys, path)
    assert record["puzzle"] == {"rows": truth["rows"], "cols": truth["cols"]}


@functools.cache
def _first_network() -> Recogniser:
    """The recogniser with the first of its two networks alone (the one the readers had
    before the second was trained): on some faces it misreads one digit throughout."""
    model = resources.files("pencilbox.core.vision").joinpath(MODELS[0]).read_bytes()
    return Recogniser(model)


@pytest.mark.parametrize(
    ("style", "seed", "networks"),
    [
        ("nonogram-app", 1024, "both"),  # every 8 of the face read as a 3, in four looks
        ("nonogram-render", 1023, "first"),  # every 8 read as a 9
        ("nonogram-bands", 1010, "first"),  # every 1 read as a 7 (five looks), two 5s as none
    ],
)
def test_a_digit_misread_throughout_the_picture_is_mended_in_every_copy(
    capsys, tmp_path, monkeypatch, style, seed, networks
):
    # a face whose 8 the recogniser takes for another digit makes every 8 of the picture
    # wrong: too many numbers for a change of one or two to make the clues agree. Copies of
    # a character are drawn alike, and changing them together does.
    if networks == "first":
        monkeypatch.setattr(picture_module, "recogniser", _first_network)
    path, truth = draw(style, seed, tmp_path)
    code, record = _read_jsonl(capsys, path)
    assert record["puzzle"] == {"rows": truth["rows"], "cols": truth["cols"]}
    changed = [u for u in record["uncertain"] if "read_as" in u]
    assert len(changed) >= 4
    assert all("every character drawn alike changed with it" in u["reason"] for u in changed)
    assert code == 1 and record["status"] == "uncertain"


def test_a_zero_set_as_loosely_as_a_next_number_is_the_units_of_the_digit_before_it(
    capsys, tmp_path
):
    # "10" in a row clue whose digits stand as far apart as the numbers of "2,2" (about a
    # pixel between digit middles tells them apart): read as 1 and 0, the 0 was made its
    # next-best value (a 0 is a clue only alone), a 6, and the row read 1 6
    path, truth = draw("nonogram-commas", 1001, tmp_path)
    _, record = _read_jsonl(capsys, path)
    assert record["puzzle"] == {"rows": truth["rows"], "cols": truth["cols"]}
    assert [10] in truth["rows"]


def test_only_a_crowded_zero_after_a_digit_joins_it():
    one, zero, two, far = (Blob(x, 0, x + 4, 7, 20) for x in (0, 6, 12, 30))
    named = {b: Guess(((v, 0.9), ("none", 0.1))) for b, v in zip((one, zero, two, far), "1020")}
    rows = [[[one], [zero], [two]], [[two], [far]]]
    joined = picture_module._zeros_joined(rows, named, {one, zero, two})
    assert joined == [[[one, zero], [two]], [[two], [far]]]  # the far 0 is not crowded
    assert picture_module._zeros_joined(rows, named, set()) == rows


@pytest.mark.parametrize(
    ("style", "seed"),
    [
        ("nonogram-edge", 1025),  # greyed 4s of a serif face, 7 px tall, read as 1s
        ("nonogram-bands", 1017),  # 6 px greyed 3s read as 5s, a 7 as a 1
    ],
)
def test_the_two_networks_together_read_what_the_first_alone_misread(
    capsys, tmp_path, monkeypatch, style, seed
):
    path, truth = draw(style, seed, tmp_path)
    _, record = _read_jsonl(capsys, path)
    assert record["puzzle"] == {"rows": truth["rows"], "cols": truth["cols"]}
    monkeypatch.setattr(picture_module, "recogniser", _first_network)
    _, alone = _read_jsonl(capsys, path)
    assert alone["puzzle"] != record["puzzle"] and alone["status"] == "uncertain"


@pytest.mark.parametrize(
    "style, seed",
    [("nonogram-site", 1), ("nonogram-site", 2), ("nonogram-phone", 1), ("nonogram-phone", 2)],
)
def test_clue_areas_ruled_one_way_are_read_exactly_through_the_command_line(
    capsys, tmp_path, style, seed
):
    # puzzle-nonograms.com's light board on a dark page (seed 2: a small board, most of the
    # picture page), and a phone app's striped bands with a numbered button in the corner:
    # the page's corner is no filled grid, the button's price no column clue
    path, truth = draw(style, seed, tmp_path)
    code = main(["read", str(path), "--jsonl"])
    record = json.loads(capsys.readouterr().out)
    assert record["puzzle"] == {"rows": truth["rows"], "cols": truth["cols"]}
    assert (record["status"], code) == ("ok", 0)


@pytest.mark.parametrize("seed", [2, 3])
def test_a_printed_crossword_with_boxed_clues_in_a_framed_corner_is_read(tmp_path, seed):
    # every clue number in its own cell and a border around the empty corner as well: the
    # grid is the lattice right of and below the corner, the clue cells' short lines are
    # no 1s
    path, truth = draw("nonogram-print", seed, tmp_path)
    reading = pictures.read(path)
    assert (reading.width, reading.height) == (len(truth["cols"]), len(truth["rows"]))
    assert matches(reading, truth), pictures.puzzle_text(reading)


def test_a_dark_page_in_the_corner_is_not_filled_cells():
    # a 4-cell clue band above and beside a 6x6 grid, the corner the page's grey: the lattice
    # (10x10) is cut at the corner, though filled cells would count as grid
    pitch, size = 20, 10
    image = np.full((size * pitch + 40, size * pitch + 40), 60, np.uint8)
    board = (20 + 4 * pitch, 20)
    cv2.rectangle(image, (20, 20 + 4 * pitch), (20 + size * pitch, 20 + size * pitch), 235, -1)
    cv2.rectangle(image, board, (20 + size * pitch, 20 + size * pitch), 235, -1)
    lines = [20.0 + pitch * k for k in range(size + 1)]
    for k, at in enumerate(lines):
        top = 20 if k >= 4 else 20 + 4 * pitch
        cv2.line(image, (int(at), top), (int(at), 20 + size * pitch), 0, 1)
        cv2.line(image, (top, int(at)), (20 + size * pitch, int(at)), 0, 1)
    ink = ink_map(image, window=11)
    layout = picture_module._grid_block(lines, lines, ink, float(pitch), image)
    assert (layout.width, layout.height) == (6, 6)
    assert (layout.xs[0], layout.ys[0]) == (lines[4], lines[4])
    assert not layout.boxed and layout.clue_top == lines[0]


def test_doubts_the_rules_settle_leave_a_screenshot_ok(tmp_path, capsys, monkeypatch):
    # a 16x15 dark-theme screenshot: the recogniser doubts some clue numbers, and no other
    # reading of them keeps the row and column totals equal with a solvable puzzle
    path, truth = draw("nonogram-dark", 1024, tmp_path)
    assert main(["read", str(path), "--jsonl"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "ok" and record["uncertain"] == []
    assert matches(pictures.read(path), truth)
    # without the rules' confirmation the same picture is uncertain
    monkeypatch.setattr(picture_module, "confirmed", lambda reading, doubtful, sound: reading)
    assert main(["read", str(path), "--jsonl"]) == 1
    assert json.loads(capsys.readouterr().out)["uncertain"]


@pytest.mark.parametrize("name", ["dragonfly", "be-serious", "griddler", "cocktail-glass"])
def test_a_puzzlink_page_through_the_command_line(capsys, name):
    # whole pages of puzz.link's own player and editor (drawn by pzprjs, not by us): the
    # page's patterned margin beside the frame bent the frame's outline into a warped quad
    # ("no puzzle grid found"), and its marks beside the row clues read as more numbers,
    # or as clues of a line beyond the grid's last column; a 7x10 board's thick border,
    # 7 faint-ruled cells apart, was taken for the lattice's period ("no puzzle grid found");
    # a 12x14 board's lines gave a period of two thirds of a cell (read as an empty sudoku)
    path = DATA / f"puzzlink-nonogram-{name}.png"
    truth = json.loads(path.with_name(path.name + ".truth.json").read_text())
    _read_right(capsys, path, truth)


@pytest.mark.parametrize(
    "name",
    [
        # blue filled cells in a light theme: the darkest channel makes them as black as
        # the lines between them, so the lattice is found in the luminance
        "jaredforrest-nonocross-screenshot.png",
        # a dark theme: white numbers, black lines between dark blue and grey cells; the
        # ink picture (inverted) makes the lines light. Its struck clues leave 50 numbers
        # in doubt until the rules confirm them: 5,733 checks, more than 2 s used to allow
        "jeremypw-gnonograms-solving-dark.png",
    ],
)
def test_lines_drawn_unlike_the_clues_still_give_the_grid(capsys, name):
    # real screenshots published by other programs (bench/data/real-pictures, GPL-3.0)
    path, truth = real_nonogram(name)
    _read_right(capsys, path, truth)


@pytest.mark.parametrize(
    "name",
    [
        # an empty grey strip a cell wide between the grid and its clues, 2.3 cells between
        # the grid and the column clues' nearest numbers (refused: no column clues found)
        "prometheus42-FreeNono-web-screenshot01.png",
        # a pointer to the line played, a triangle on the strip beside the grid: the
        # nearest mark of its row and column, on another ground than the clues beyond it
        # (which were dropped as past a change of ground; doubted before)
        "prometheus42-FreeNono-0.7-gameplay.png",
        # light numbers on the dark page around a large grey board: the picture is judged
        # light on its middle, so the clues are turned over where their ground is dark
        # (read before as the dark ground's pieces: 46 lines wrong)
        "jeremypw-gnonograms-designing-dark.png",
        # the solved numbers greyed out in pale yellow on a pale green band, among the
        # black ones, as light as their ground in the ink picture: found in the darkest
        # channel (refused before: 'no puzzle grid found')
        "prometheus42-FreeNono-0.9-while.png",
    ],
)
def test_clues_drawn_their_own_way_beside_the_grid(capsys, name):
    # real screenshots of FreeNono and gnonograms (bench/data/real-pictures, its README
    # gives the licences)
    path, truth = real_nonogram(name)
    _read_right(capsys, path, truth)


def test_a_strip_a_pointer_and_pale_solved_clues_are_read(tmp_path, capsys):
    # tools/picture_corpus's nonogram-strip, drawn at random on every axis of it: seed 1009
    # has a strip 1.4 cells wide, a pointer on it at a row and a column, and its solved
    # clues greyed in pale yellow (refused before these: no clue numbers above the columns)
    path, truth = draw("nonogram-strip", 1009, tmp_path)
    _read_right(capsys, path, truth)


def test_the_confirmations_clues_with_changes_are_the_readings_clues():
    # `_clue_editor` remakes only the changed lines: the same clues as the whole reading
    # changed and read again (numbers out of order, blanks and zeros among them)
    from pencilbox.core.vision.reading import Reading, ReadNumber

    def number(kind: str, line: int, index: int, value: int | None) -> ReadNumber:
        return ReadNumber(kind, line, index, value, 0.6, ((1, 0.3),))

    numbers = (
        number("row", 1, 1, 2),
        number("col", 0, 0, 3),
        number("row", 1, 0, 1),
        number("row", 0, 0, None),
        number("col", 2, 1, 1),
        number("col", 2, 0, 0),
        number("row", 2, 0, 4),
    )
    reading = Reading("nonogram", 3, 3, numbers)
    clues_with = picture_module._clue_editor(reading)
    for changes in ({}, {0: 3}, {2: None, 4: 2}, {3: 1, 5: 2}, {1: None, 6: 1}):
        changed = picture_module._changed(reading, changes)
        assert clues_with(changes) == picture_module.clues_of(changed)
    assert clues_with({}) == ([[], [1, 2], [4]], [[3], [], [1]])
