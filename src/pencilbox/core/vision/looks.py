"""Characters drawn alike: the copies of one digit in a screenshot.

A screen draws every copy of a digit of one face and size the same, pixel for pixel, or, where
the copies start at different fractions of a pixel, all but the same. Copies are one
character: when a face's 8 is read as a 9, every 8 of the picture is, and too many numbers are
wrong for a repair that changes one or two numbers to make the rules hold. A repair that
changes a look (every copy at once) mends them together.

A look is one distinct crop the recogniser read (copies that are pixel for pixel the same get
the very same scores, so a reader tells looks by the recogniser's `Guess`); looks whose crops
differ by a trace (`ALIKE`) are kin, one character, and are changed together.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from pencilbox.core.vision.glyphs import Guess
from pencilbox.core.vision.reading import Value
from pencilbox.core.vision.repair import Suspect

DIGITS = "0123456789"
ALIKE = 0.012
"""The most two crops of one character may differ (mean per pixel, ink 0-1) to be kin: on
the corpus's screenshots copies of one digit differ by 0.005 at most, crops of two different
digits by 0.026 at least."""
SUSPECTS = 12
"""How many of the least certain kin a repair of looks tries to change."""


@dataclass(frozen=True)
class Looks:
    of_number: tuple[tuple[int, ...], ...]
    """Per number of a reading, the look of each of its characters (none for a stand-in)."""
    guesses: tuple[Guess, ...]
    """Per look, what the recogniser made of it."""
    kin: tuple[int, ...]
    """Per look, its kin (the least look it is kin to)."""


def kin_of(crops: Sequence[npt.NDArray[Any] | None]) -> tuple[int, ...]:
    """Each crop's kin: the least index of the crops joined to it by steps of crops drawn
    alike; a missing crop is its own. Crops are first compared shrunk to 4x4-pixel blocks (a
    block's mean differs by no more than its pixels do, so no pair drawn alike is missed),
    then pixel by pixel where the blocks allow: a photo's hundreds of crops cost little."""
    parent = list(range(len(crops)))

    def root(at: int) -> int:
        while parent[at] != at:
            parent[at] = parent[parent[at]]
            at = parent[at]
        return at

    present = [i for i, crop in enumerate(crops) if crop is not None]
    kept = [crop for crop in crops if crop is not None]
    if not kept:
        return tuple(parent)
    stack = np.stack(kept).astype(np.float32)
    side = stack.shape[1] // 4
    blocks = stack[:, : side * 4, : side * 4].reshape(len(stack), side, 4, side, 4)
    coarse = blocks.mean(axis=(2, 4)).reshape(len(stack), -1)
    for start in range(0, len(stack), 128):
        gaps = np.abs(coarse[start : start + 128, None, :] - coarse[None, :, :]).mean(axis=2)
        for a, b in zip(*np.nonzero(gaps <= ALIKE), strict=True):
            a, b = int(a) + start, int(b)
            first, second = root(present[a]), root(present[b])
            if b > a and first != second and float(np.abs(stack[a] - stack[b]).mean()) <= ALIKE:
                parent[max(first, second)] = min(first, second)
    return tuple(root(i) for i in range(len(crops)))


def look_value(looks: Looks, at: int, changes: Mapping[int, Value]) -> Value:
    """Number `at`'s value with the kin in `changes` read as their new digits (None when one
    of its characters is no digit, or it has none)."""
    symbols = [
        str(changes[looks.kin[look]]) if looks.kin[look] in changes else looks.guesses[look].best
        for look in looks.of_number[at]
    ]
    if not symbols or any(s not in DIGITS for s in symbols):
        return None
    return int("".join(symbols))


def kin_suspects(looks: Looks, used: set[int]) -> tuple[list[Suspect], dict[int, Value]]:
    """The least certain kin among the looks in `used`, each with the other digits its looks
    may all be (the recogniser's scores of its looks averaged); and the kin whose looks were
    read as different digits, settled on the digit best on average."""
    members: dict[int, list[Guess]] = {}
    for look in sorted(used):
        members.setdefault(looks.kin[look], []).append(looks.guesses[look])
    suspects = []
    settled: dict[int, Value] = {}
    for kin, guesses in members.items():
        scores: Counter[str] = Counter()
        for guess in guesses:
            scores.update({s: p / len(guesses) for s, p in guess.ranked})
        ranked = scores.most_common()
        best, probability = ranked[0]
        if probability >= 0.995 and all(g.best == best for g in guesses):
            continue
        if best in DIGITS and any(g.best != best for g in guesses):
            settled[kin] = int(best)
        options = tuple((int(s), p) for s, p in ranked if s in DIGITS and s != best)
        suspects.append(Suspect(kin, probability, options))
    return sorted(suspects, key=lambda s: s.probability)[:SUSPECTS], settled
