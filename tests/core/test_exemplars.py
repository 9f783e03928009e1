"""The picture's own sure characters as a second opinion (core/vision/exemplars.py)."""

from __future__ import annotations

import numpy as np

from pencilbox.core.vision.exemplars import DOUBTFUL, FLOOR, reweighed
from pencilbox.core.vision.glyphs import Guess

SIZE = 16


def bar(vertical: bool, seed: int) -> np.ndarray:
    """A crop of one bar across the middle, with a little grain of its own."""
    crop = np.random.default_rng(seed).uniform(0.0, 0.05, (SIZE, SIZE)).astype(np.float32)
    if vertical:
        crop[2:-2, 7:9] = 1.0
    else:
        crop[7:9, 2:-2] = 1.0
    return crop


def sure(name: str) -> Guess:
    return Guess(((name, 0.99), ("none", 0.01)))


def page(*extra: np.ndarray) -> np.ndarray:
    """Four sure 1s (vertical bars) and four sure 7s (horizontal), then `extra`."""
    crops = [bar(True, s) for s in range(4)] + [bar(False, 10 + s) for s in range(4)]
    return np.stack([*crops, *extra])


SURE_GUESSES = [sure("1")] * 4 + [sure("7")] * 4


def test_a_doubtful_crop_goes_to_the_class_it_looks_like_on_the_page() -> None:
    doubtful = Guess((("7", 0.5), ("1", 0.4), ("none", 0.1)))
    out = reweighed(page(bar(True, 99)), [*SURE_GUESSES, doubtful])
    assert out[:8] == SURE_GUESSES
    assert out[8].best == "1"


def test_a_mark_unlike_every_digit_loses_its_digit_but_only_to_a_fifth() -> None:
    blank = np.zeros((SIZE, SIZE), np.float32)
    blank[3:6, 3:6] = 1.0  # a smudge, neither bar
    doubtful = Guess((("1", 0.6), ("none", 0.3), ("7", 0.1)))
    out = reweighed(page(blank), [*SURE_GUESSES, doubtful])
    weighed = dict(out[8].ranked)
    assert out[8].best == "none"
    # the digits fell, never below a fifth of what they had before the new ranking
    assert weighed["1"] / weighed["none"] >= FLOOR * 0.6 / 0.3 - 1e-6
    assert weighed["1"] < 0.6


def test_a_fairly_sure_guess_is_left_alone() -> None:
    blank = np.zeros((SIZE, SIZE), np.float32)
    fairly = Guess((("1", DOUBTFUL + 0.05), ("none", 0.1)))
    out = reweighed(page(blank), [*SURE_GUESSES, fairly])
    assert out[8] == fairly


def test_too_few_sure_crops_or_classes_say_nothing() -> None:
    doubtful = Guess((("7", 0.5), ("1", 0.4), ("none", 0.1)))
    crops = page(bar(True, 99))
    few = [*SURE_GUESSES[:3], *[Guess((("1", 0.5), ("7", 0.5)))] * 5, doubtful]
    assert reweighed(crops, few)[8] == doubtful
    one_class = [sure("1")] * 8 + [doubtful]
    assert reweighed(crops, one_class)[8] == doubtful


def test_a_page_whose_classes_do_not_stand_apart_is_read_as_the_recogniser_read_it() -> None:
    # the sure "1"s and "7"s are drawn alike: the face tells nothing
    crops = np.stack([bar(True, s) for s in range(8)] + [bar(True, 99)])
    doubtful = Guess((("7", 0.5), ("1", 0.4), ("none", 0.1)))
    assert reweighed(crops, [*SURE_GUESSES, doubtful])[8] == doubtful
