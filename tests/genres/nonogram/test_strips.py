"""The whole-line reader as a second reader of the nonogram's clue lines."""

from __future__ import annotations

import numpy as np

from pencilbox.core.vision.lines import LineReading
from pencilbox.core.vision.reading import ReadNumber
from pencilbox.genres.nonogram import strips


def _number(line: int, index: int, value: int | None, confidence: float = 0.99) -> ReadNumber:
    return ReadNumber("row", line, index, value, confidence, ())


def _line(*numbers: int, probability: float = 0.97) -> LineReading:
    return LineReading(tuple(numbers), probability, (probability,) * len(numbers))


def test_strips_reach_from_the_outermost_clue_to_short_of_the_grid():
    image = np.full((100, 120), 255, np.uint8)
    found = strips.clue_strips(image, [60, 70, 80], [50, 60, 70, 80], 10.0, (30.0, 20.0))
    assert [(s.kind, s.line) for s in found] == [
        ("row", 0),
        ("row", 1),
        ("row", 2),
        ("col", 0),
        ("col", 1),
    ]
    row, col = found[0], found[3]
    assert row.pixels.shape == (10, 59 - 26) and not row.vertical
    assert col.pixels.shape == (49 - 16, 10) and col.vertical
    # no clue found: one cell deep
    (first, *_) = strips.clue_strips(image, [60, 70, 80], [50, 60, 70], 10.0, (None, None))
    assert first.pixels.shape[1] == 59 - 50


def test_a_doubt_the_line_reader_agrees_with_is_settled():
    numbers = [_number(0, 0, 3, 0.6), _number(0, 1, 3), _number(1, 0, 5, 0.6)]
    settled = strips.second_opinion(numbers, {("row", 0): [_line(3, 3, probability=0.995)]})
    assert settled[0].confident and settled[1].confident
    assert not settled[2].confident  # no opinion on row 2: its doubt stays
    # agreeing, but not sure enough to settle a doubt: left as it was
    fairly = strips.second_opinion(numbers, {("row", 0): [_line(3, 3, probability=0.97)]})
    assert fairly == numbers


def test_a_line_read_otherwise_is_doubted_whole():
    numbers = [_number(0, 0, 3), _number(0, 1, 34), _number(1, 0, 5)]
    doubted = strips.second_opinion(numbers, {("row", 0): [_line(3, 3, 3, 4)]})
    assert not doubted[0].confident and not doubted[1].confident
    assert (doubted[0].reason or "").startswith(strips.DISAGREE)
    assert "3 3 3 4" in (doubted[1].reason or "")
    assert doubted[2].confident
    # an unsure line reader neither settles nor doubts
    unsure = strips.second_opinion(numbers, {("row", 0): [_line(3, 3, 3, 4, probability=0.5)]})
    assert unsure == numbers


def test_a_doubted_line_is_replaced_by_the_line_readers_reading_for_the_repair():
    numbers = [_number(0, 0, 3), _number(0, 1, 34), _number(1, 0, 5)]
    opinions = {("row", 0): [_line(3, 3, 3, 4), _line(3, 3, 34)]}
    doubted = strips.second_opinion(numbers, opinions)
    (first, second) = strips.line_repairs(doubted, opinions)
    assert first[("row", 0)].numbers == (3, 3, 3, 4)
    assert second[("row", 0)].numbers == (3, 3, 34)
    relined = strips.with_lines(doubted, first)
    assert [(n.line, n.index, n.value) for n in relined] == [
        (0, 0, 3),
        (0, 1, 3),
        (0, 2, 3),
        (0, 3, 4),
        (1, 0, 5),
    ]
    assert all(n.changed for n in relined[:4]) and not relined[4].changed
    assert relined[1].read_as == 34 and relined[3].read_as is None
