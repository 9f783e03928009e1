"""The line recogniser: whole clue strips drawn at test time in a font it never saw, read
exactly by the shipped model; the decoding on hand-made network outputs."""

from __future__ import annotations

import math

import numpy as np
import pytest
from tools.fonts import held_out_fonts
from tools.line_strips import Look, draw

from pencilbox.core.vision import lines
from pencilbox.core.vision.lines import BREAK, CLASSES, LineReading, read_strip, read_strips


def _font(name: str) -> Look:
    font = next(p for p in held_out_fonts() if p.name == name)
    return Look(font, False, 14.0, 1.8, "ruled", "grey", True, False)


def _strip(
    values: tuple[int, ...],
    vertical: bool,
    height: float,
    font: str = "Roboto-Regular.ttf",
    layout: str = "ruled",
    gap: float | None = None,
    seed: int = 3,
) -> np.ndarray:
    look = Look(_font(font).font, False, height, 1.8, layout, "grey", True, vertical)
    return draw(np.random.default_rng(seed), look, values, clean=True, gap=gap).image


CASES = [
    ((3, 3, 3, 3), False, 8.0, "Roboto-Regular.ttf", "spaces", None),
    ((12, 1, 7), False, 24.0, "NotoSerif-Regular.ttf", "ruled", None),
    ((5, 18, 2), True, 9.0, "NotoSans-Regular.ttf", "cells", None),
    ((1, 2, 10, 4), True, 30.0, "Roboto-Bold.ttf", "ruled", None),
    ((4, 4, 2, 1), False, 16.0, "NotoSans-Regular.ttf", "spaces", 0.2),
    ((0,), False, 12.0, "Roboto-Regular.ttf", "ruled", None),
]


@pytest.mark.parametrize(("values", "vertical", "height", "font", "layout", "gap"), CASES)
def test_the_shipped_model_reads_strips_in_an_unseen_font(
    values: tuple[int, ...],
    vertical: bool,
    height: float,
    font: str,
    layout: str,
    gap: float | None,
) -> None:
    readings = read_strip(_strip(values, vertical, height, font, layout, gap), vertical)
    assert readings[0].numbers == values
    assert readings[0].probability > 0.9


def test_an_empty_strip_reads_as_an_empty_line() -> None:
    blank = np.full((20, 160), 235, np.uint8)
    blank[0, :] = blank[-1, :] = 90  # the grid lines the crop touches
    best = read_strip(blank, vertical=False)[0]
    assert best.numbers == ()
    assert best.probability > 0.9


def test_read_strips_keeps_the_order_and_ranks_the_readings() -> None:
    strips = [
        (_strip((7, 2), False, 14.0), False),
        (_strip((11,), True, 20.0), True),
        (_strip((6, 6, 1), False, 10.0), False),
    ]
    found = read_strips(strips)
    assert [r[0].numbers for r in found] == [(7, 2), (11,), (6, 6, 1)]
    for readings in found:
        assert 1 <= len(readings) <= lines.KEPT
        chances = [r.probability for r in readings]
        assert chances == sorted(chances, reverse=True)
        for reading in readings:
            assert isinstance(reading, LineReading)
            assert len(reading.number_probabilities) == len(reading.numbers)
            assert all(reading.probability - 1e-9 <= p <= 1.0 for p in reading.number_probabilities)


def test_a_garbled_strip_is_read_with_less_confidence() -> None:
    clean = _strip((8, 3, 5), False, 12.0)
    garbled = clean.copy()
    rng = np.random.default_rng(1)
    height, width = garbled.shape
    for _ in range(12):  # scribbles across the digits
        x0, x1 = sorted(rng.integers(0, width, 2))
        y = int(rng.integers(2, height - 2))
        garbled[y - 1 : y + 1, x0:x1] = 40
        garbled[:, int(rng.integers(0, width))] = 60
    sure = read_strip(clean, False)[0].probability
    unsure = read_strip(garbled, False)[0].probability
    assert sure > 0.9
    assert unsure < sure - 0.2


def _frames(labels: list[int]) -> np.ndarray:
    """Log probabilities that name each label surely, one frame each, blanks between."""
    rows = []
    for label in labels:
        for c in (label, lines.BLANK):
            row = np.full(CLASSES, math.log(1e-6))
            row[c] = math.log(1 - 1e-6 * (CLASSES - 1))
            rows.append(row)
    return np.array(rows)


def test_beam_search_spells_numbers_and_breaks() -> None:
    readings = lines.readings(_frames([2, 3, BREAK, 5, BREAK, 5]))  # "12 4 4"
    assert readings[0].numbers == (12, 4, 4)
    assert readings[0].probability > 0.99


def test_sequences_that_spell_no_clue_line_are_dropped() -> None:
    assert lines.numbers_of((BREAK, 2)) is None
    assert lines.numbers_of((2, BREAK, BREAK, 2)) is None
    assert lines.numbers_of((1, 5)) is None  # "04"
    assert lines.numbers_of((1, BREAK, 3)) is None  # 0 beside another number
    assert lines.numbers_of((1,)) == (0,)
    assert lines.numbers_of(()) == ()


def test_a_strip_that_is_not_a_grey_picture_is_refused() -> None:
    with pytest.raises(ValueError, match="2-D grey picture"):
        lines.prepare(np.zeros((4, 4, 3), np.uint8), vertical=False)
