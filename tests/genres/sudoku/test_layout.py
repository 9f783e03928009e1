"""The puzzle's symmetric layout as a witness for givens doubted for their ink alone
(genres/sudoku/layout, picture._settled_by_layout)."""

from __future__ import annotations

import numpy as np

from pencilbox import pictures
from pencilbox.core.vision.glyphs import Blob, Guess
from pencilbox.genres.sudoku import ink_kinds, layout, picture
from tests.pictures import draw, never_silently_wrong

# a symmetric layout of 20 givens: each cell with its partner turned half round the centre
HALF = [(0, 1), (0, 3), (0, 7), (1, 2), (1, 6), (2, 0), (2, 4), (3, 3), (3, 8), (4, 1)]
GIVENS = sorted(set(HALF) | {layout.partner(cell, 9) for cell in HALF})


def test_a_glyph_whose_partner_is_a_given_is_witnessed_in_a_symmetric_grid():
    doubted = {(0, 1), (4, 4)}  # (4, 4) is the centre, its own partner
    sure = set(GIVENS) - doubted
    assert layout.symmetric(sure, doubted, 9, 17)
    assert layout.givens_by_layout(sure, doubted, 9, 17) == {(0, 1)}


def test_an_entry_in_an_empty_cells_partner_or_an_asymmetric_grid_has_no_witness():
    sure = set(GIVENS)
    # a player's entry: in a symmetric puzzle the partner of an empty cell is empty
    assert layout.givens_by_layout(sure, {(5, 4)}, 9, 17) == set()
    # one given without its partner makes the grid asymmetric: no cell is witnessed
    lopsided = sure - {(8, 7)}
    assert not layout.symmetric(lopsided, {(0, 1)}, 9, 17)
    assert layout.givens_by_layout(lopsided - {(0, 1)}, {(0, 1)}, 9, 17) == set()
    # too few givens to say
    assert layout.givens_by_layout({(0, 1)}, {(8, 7)}, 9, 17) == set()


def test_a_grid_filled_with_doubted_entries_is_not_taken_for_symmetric():
    """A player's grid mostly filled with entries close to the givens' ink: every cell is
    held, but the sure givens of an asymmetric puzzle pair up only by chance."""
    sure = {(0, 0), (0, 5), (1, 3), (2, 7), (3, 1), (4, 6), (5, 2), (6, 8), (7, 4), (8, 3)}
    sure |= {(1, 8), (2, 2), (3, 5), (5, 7), (6, 0), (7, 6), (8, 1)}
    every = {(r, c) for r in range(9) for c in range(9)}
    doubted = every - sure
    assert all(layout.partner(cell, 9) in sure | doubted for cell in sure)
    assert not layout.symmetric(sure, doubted, 9, 17)
    assert layout.givens_by_layout(sure, doubted, 9, 17) == set()


def _reading_parts(
    odd: dict[int, str],
) -> tuple[list[str], list[tuple[int, int]], picture._Looks, list[Blob], list[Guess], np.ndarray]:
    """Roles, places, looks, boxes, guesses and crops of GIVENS (one face, one ink), the
    glyphs of `odd` doubted and drawn as told: "same" (like the givens), "other" (another
    shape, fainter and taller, as a player's pencil is)."""
    rng = np.random.default_rng(3)
    faces = rng.random((9, 28, 28)) < 0.3
    other = rng.random((9, 28, 28)) < 0.3
    n = len(GIVENS)
    digits = [str(1 + k % 9) for k in range(n)]
    crops = np.array(
        [faces[int(d) - 1] + rng.normal(0, 0.05, (28, 28)) for d in digits], np.float32
    )
    strength = np.full((n, 1), 60.0, np.float32)
    heights = [20] * n
    roles = [picture.GIVEN] * n
    for i, kind in odd.items():
        roles[i] = picture.UNSURE
        if kind == "other":
            crops[i] = other[int(digits[i]) - 1]
            strength[i] = 25.0
            heights[i] = 26
    looks = picture._Looks(
        np.zeros((n, 3), np.float32),
        np.zeros((n, 2), np.float32),
        np.full((n, 1), 10.0, np.float32),
        strength,
    )
    boxes = [Blob(0, 0, 10, h, 100) for h in heights]
    guesses = [Guess(((d, 0.99),)) for d in digits]
    return roles, list(GIVENS), looks, boxes, guesses, crops


def test_a_given_doubted_for_its_ink_alone_is_settled_and_an_unlike_glyph_is_not():
    same, unlike = 0, 5
    roles, places, looks, boxes, guesses, crops = _reading_parts({same: "same", unlike: "other"})
    settled = picture._settled_by_layout(roles, places, looks, boxes, guesses, crops, 9)
    assert settled[same] == picture.GIVEN  # only its colour was unlike: the layout decides
    assert settled[unlike] == picture.UNSURE  # another shape, size and ink: still doubted
    assert all(settled[i] == roles[i] for i in range(len(roles)) if i not in (same, unlike))


def test_unlike_votes_count_shape_height_and_ink_strength():
    roles, _, looks, boxes, guesses, crops = _reading_parts({4: "other"})
    glyphs = ink_kinds.Glyphs(
        looks.tint,
        looks.strength[:, 0],
        np.array([b.y1 - b.y0 for b in boxes], np.float64),
        [g.best for g in guesses],
        crops,
        np.zeros(len(boxes)),
    )
    reference = [i for i in range(len(roles)) if i != 4]
    assert ink_kinds.unlike_votes(glyphs, [4, 7], reference) == [3, 0]


def test_a_played_screenshots_entries_stay_doubted(tmp_path):
    # sudoku-jpeg 1023: seven blue entries washed out to near the givens' slate, doubted for
    # their colour; the puzzle is not laid out symmetrically, so no layout settles them
    path, truth = draw("sudoku-jpeg", 1023, tmp_path)
    reading = pictures.read(path, genre="sudoku")
    never_silently_wrong(reading, truth)
    doubted = {(n.line, n.index) for n in reading.numbers if not n.confident}
    read = pictures.record(reading, "x")["puzzle"]["givens"]
    wrong = {divmod(i, 9) for i, (a, b) in enumerate(zip(read, truth["givens"])) if a != b}
    assert wrong and wrong <= doubted
