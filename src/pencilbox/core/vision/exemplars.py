"""The picture's own sure characters as a second opinion on its doubtful ones.

A printed puzzle draws every copy of a digit in one face: in a newspaper photo the copies are
not pixel for pixel the same (blur, grain, a page that bends), but a doubtful 1 still looks
far more like the picture's sure 1s than like its sure 7s, whatever face the recogniser was
trained on. So each doubtful guess is weighed again by how near its crop lies to the sure
crops of each class, measured against how near the sure crops of one class lie to each other
(the picture's own spread).

The weighing only lowers a class the picture's sure crops speak against: a class with no
sure crop, or a crop as near a class's sure copies as they lie to each other, keeps its
probability. And it is used only where the picture's sure crops tell their classes apart
clearly (each lies much nearer its own class than any other): a picture in two faces, or
with too few sure crops, is left as the recogniser read it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from pencilbox.core.vision.glyphs import Guess

SURE = 0.97
"""How sure the recogniser must be of a crop for it to be an exemplar."""
LEAST = 6
"""The fewest exemplars (of two classes at least) that say anything about a face."""
APART = 2.0
"""How much farther a sure crop must lie from the other classes than from its own, at the
median over the exemplars, for the picture's face to be trusted."""
SHIFT = 1
"""Crops are compared shifted by up to this many pixels each way (a cut off by one)."""
DOUBTFUL = 0.8
"""Only guesses less sure than this are weighed again: the exemplars settle the
recogniser's real doubts. A fairly sure guess far from its class's sure copies is more
often a copy drawn apart (a blot, a fold) than a misreading, and lowering it would turn a
right reading doubtful."""
FLOOR = 0.2
"""The most the picture's face may lower a class: to a fifth. Crushing a digit the
recogniser half saw would let the rules confirm an empty cell in its place (both fit the
rules, and the empty cell would be all the recogniser's belief left), silently wrong."""

FloatArray = npt.NDArray[np.float32]


def distances(a: FloatArray, b: FloatArray) -> FloatArray:
    """The mean difference of ink between each crop of `a` (N, G, G) and each of `b`
    (M, G, G), at the best shift of one against the other: (N, M)."""
    best = np.full((len(a), len(b)), np.inf, np.float32)
    size = a.shape[1]
    for dy in range(-SHIFT, SHIFT + 1):
        for dx in range(-SHIFT, SHIFT + 1):
            ya, yb, xa, xb = max(0, dy), max(0, -dy), max(0, dx), max(0, -dx)
            h, w = size - abs(dy), size - abs(dx)
            left = a[:, None, ya : ya + h, xa : xa + w]
            right = b[None, :, yb : yb + h, xb : xb + w]
            best = np.minimum(best, np.abs(left - right).mean(axis=(2, 3)))
    return best


def _spread(crops: FloatArray, names: list[str]) -> float | None:
    """How near a sure crop lies to its own class (the median over the exemplars of the
    nearest other copy), or None when the classes do not stand clearly apart."""
    apart = distances(crops, crops)
    np.fill_diagonal(apart, np.inf)
    same = np.array([[a == b for b in names] for a in names])
    own = np.where(same, apart, np.inf).min(axis=1)
    across = np.where(same, np.inf, apart).min(axis=1)
    own = own[np.isfinite(own)]
    if len(own) < 3:
        return None
    spread = max(float(np.median(own)), 1e-3)
    return spread if float(np.median(across)) >= APART * spread else None


def reweighed(crops: FloatArray, guesses: Sequence[Guess]) -> list[Guess]:
    """The guesses with each doubtful one weighed again against the picture's sure crops
    (the module's doc); sure guesses, and every guess where the picture's face says
    nothing, as they were."""
    chosen = [i for i, g in enumerate(guesses) if g.confidence >= SURE and g.best != "none"]
    names = [guesses[i].best for i in chosen]
    doubtful = [i for i, g in enumerate(guesses) if g.confidence < DOUBTFUL]
    if len(chosen) < LEAST or len(set(names)) < 2 or not doubtful:
        return list(guesses)
    sure = np.asarray(crops[chosen], np.float32)
    spread = _spread(sure, names)
    if spread is None:
        return list(guesses)
    near = distances(np.asarray(crops[doubtful], np.float32), sure)
    columns = {n: [k for k, m in enumerate(names) if m == n] for n in set(names)}
    out = list(guesses)
    for row, i in zip(near, doubtful, strict=True):
        nearest = {n: float(row[at].min()) for n, at in columns.items()}
        out[i] = _weighed(guesses[i], nearest, spread)
    return out


def _weighed(guess: Guess, nearest: dict[str, float], spread: float) -> Guess:
    """One guess weighed again: a class's probability falls by e for each spread its
    nearest sure copy (`nearest`, by class) lies beyond one spread, to FLOOR of it at most
    (never rises), and the ranking is made again. The probability the guess leaves to
    classes it does not rank keeps its weight."""
    left = max(0.0, 1.0 - sum(p for _, p in guess.ranked))
    weighed = []
    for name, probability in guess.ranked:
        if name in nearest:
            probability *= max(FLOOR, math.exp(-max(0.0, nearest[name] / spread - 1.0)))
        weighed.append((name, probability))
    total = sum(p for _, p in weighed) + left
    ranked = sorted(((name, p / total) for name, p in weighed), key=lambda item: -item[1])
    return Guess(tuple(ranked))
