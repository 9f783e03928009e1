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
    alike; a missing crop is its own."""
    kin = list(range(len(crops)))
    for a, first in enumerate(crops):
        for b in range(a + 1, len(crops)):
            second = crops[b]
            if first is None or second is None or kin[a] == kin[b]:
                continue
            if float(np.abs(first - second).mean()) <= ALIKE:
                old, new = max(kin[a], kin[b]), min(kin[a], kin[b])
                kin = [new if k == old else k for k in kin]
    return tuple(kin)


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
