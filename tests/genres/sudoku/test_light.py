"""The photo's light measured on the ruled lines (genres/sudoku/light), and a glyph's tint
taken in the light where it stands."""

from __future__ import annotations

import numpy as np

from pencilbox import pictures
from pencilbox.genres.sudoku import light
from tests.pictures import DATA

SIZE = 9


def _cast(places: np.ndarray) -> np.ndarray:
    """A colour cast growing toward the lower left corner, as a lamp beside the page gives."""
    row, col = places[:, 0] / (SIZE - 1), places[:, 1] / (SIZE - 1)
    strength = 20 * row * (1 - col)
    return np.column_stack([-0.4 * strength, strength])


def _every_cell() -> np.ndarray:
    return np.array([(r, c) for r in range(SIZE) for c in range(SIZE)], np.float64)


def test_the_surface_follows_the_light_and_not_a_few_odd_cells():
    rng = np.random.default_rng(3)
    cells = _every_cell()
    truth = _cast(cells)
    measured = truth + rng.normal(0, 0.5, truth.shape)
    measured[[10, 40, 70]] += (0.0, -30.0)  # three highlighted cells' lines
    known = np.ones(len(cells), bool)
    known[[5, 6]] = False  # two cells with no lines to measure
    surface = light.smooth_surface(measured, known, SIZE)
    assert np.abs(surface - truth).max() < 1.5
    assert np.abs(surface[[10, 40, 70]] - truth[[10, 40, 70]]).max() < 1.5


def test_print_in_a_cast_is_steadied_and_an_entry_still_stands_apart():
    rng = np.random.default_rng(5)
    places = _every_cell()[rng.choice(SIZE * SIZE, 28, replace=False)]
    lines = _cast(places)
    tints = np.array([0.0, 20.0]) + lines + rng.normal(0, 1.0, lines.shape)
    tints[0] = (8.0, -5.0)  # a blue entry among the givens
    local = light.in_local_light(tints, lines)
    print_only = np.arange(1, len(tints))
    assert local[print_only].std(axis=0).sum() < 0.5 * tints[print_only].std(axis=0).sum()
    assert np.linalg.norm(local[0] - np.median(local, axis=0)) > 20


def test_evenly_lit_tints_are_left_as_measured():
    # a screenshot: the lines' surface is its own noise, and taking it out would only blur
    rng = np.random.default_rng(9)
    tints = rng.normal(0, 1.0, (25, 2))
    noise = rng.normal(0, 1.0, (25, 2))
    assert light.in_local_light(tints, noise) is tints


def test_givens_in_a_greener_corner_of_a_photo_are_not_doubted_as_entries():
    # the 7 at r9c2 is greener and bolder than the other givens, as are the lines around it:
    # measured against the whole board it looked like a player's entry
    reading = pictures.read(DATA / "newspaper-sudoku-196.jpg")
    assert reading.genre == "sudoku"
    reasons = [n.reason or "" for n in reading.numbers]
    assert not [r for r in reasons if "unlike most givens" in r]
