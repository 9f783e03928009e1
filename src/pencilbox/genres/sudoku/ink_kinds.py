"""A second look at the glyphs a sudoku picture's colour split left as givens: are they of
two kinds (the puzzle's print and the player's entries)?

The colour split (genres/sudoku/picture.py) decides by colour alone, and a small JPEG washes a
player's blue out to within the spread of slate print. Taken for givens, the entries make a
sound puzzle with one solution (they fit it), so the rules cannot catch them. But colour is
not all that tells two kinds of ink apart: a screen draws its givens in one face, and every
copy of one digit in that face looks the same; the player's entries come in another face, or
at least another weight or size. Two tests, each asking for more than one look to agree:

- **Two groups** (`mixed_groups`): the glyphs are split in two by their tint, however weakly
  the tint alone tells them apart; if the copies of one digit that fall in different groups
  differ in shape clearly more than the copies in one group do, the split is real (shape and
  tint agree, where print of one face under a shadow or a colour cast differs in tint only).
- **One glyph out** (`odd_glyphs`): a glyph whose tint lies far outside the givens' and that
  also differs from them in two of shape (against its digit's other copies), height and ink
  strength. A single entry among the givens makes no group of its own.

The glyphs these tests pick are doubted, not moved: the rules still settle a doubt where no
other value would do (a given whose cell left empty lets the puzzle have several solutions).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

KMEANS_SEED = 12345

APART = 1e-3
"""How unlikely (one-sided rank test) the shapes of copies across the two tint groups must
make it that they are drawn as alike as the copies within a group, for the groups to be two
kinds of ink."""
LEAST_PAIRS = 3
"""The fewest pairs of copies of one digit within the groups, and across them, to compare."""

FAR_TINT = 6.0
"""How far (in the spreads of the givens' own tints) a glyph's tint must lie from theirs to
be one glyph out (`odd_glyphs`)."""
ODD_SHAPE = 1.8
"""A glyph's shape differs from its digit's other copies when it lies this many times the
picture's typical distance between copies from them."""
ODD_HEIGHT = 0.1
"""A glyph's height differs when it is off the glyphs' median by this share."""
ODD_STRENGTH = 3.0
"""A glyph's ink strength differs when it is this many (robust) spreads off the median."""


@dataclass
class Glyphs:
    """The glyphs taken for givens, one row each."""

    tint: npt.NDArray[Any]
    """How coloured each one's ink is for how dark (picture.py `_tint`), shape (n, 2)."""
    strength: npt.NDArray[Any]
    """How strong its ink is against the ground, shape (n,)."""
    height: npt.NDArray[Any]
    """Its box's height in the straightened grid, shape (n,)."""
    digit: list[str]
    """What the recogniser read it as (copies of one digit are compared)."""
    crops: npt.NDArray[Any]
    """The recogniser's crops, shape (n, h, w): size and place taken out."""
    plainness: npt.NDArray[Any]
    """How unlike plain print its colour is (picture.py `_plainness`: lower is plainer)."""


def two_means(features: npt.NDArray[Any]) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
    """Labels 0/1 of the rows of `features` split in two by k-means, and the two centres.
    k-means++ seeds from OpenCV's one random generator: seeded here, the split of a picture
    does not depend on what was split before it (the same picture read twice in one process
    would otherwise be read two ways where the kinds barely stand apart)."""
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.1)
    start = np.zeros((len(features), 1), np.int32)
    cv2.setRNGSeed(KMEANS_SEED)
    data = np.ascontiguousarray(features, np.float32)
    _, found, centres = cv2.kmeans(data, 2, start, criteria, 4, cv2.KMEANS_PP_CENTERS)
    return np.asarray(found, np.int32).ravel(), np.asarray(centres)


def second_kind(glyphs: Glyphs) -> set[int]:
    """The rows of `glyphs` that may be another kind of ink than the givens."""
    if len(glyphs.digit) < 8:
        return set()  # too few copies of any digit to compare
    distances = _shape_distances(glyphs.crops, glyphs.digit)
    return mixed_groups(glyphs, distances) | odd_glyphs(glyphs, distances)


def _shape_distances(crops: npt.NDArray[Any], digit: list[str]) -> npt.NDArray[Any]:
    """The mean absolute difference (ink 0-1 a pixel) between every two crops read as the
    same digit; 0 between crops of different digits, which are never compared (measured
    digit by digit, a 16x16 board's hundred glyphs cost no more than its copies)."""
    flat = crops.reshape(len(crops), -1).astype(np.float32)
    distances: npt.NDArray[Any] = np.zeros((len(digit), len(digit)))
    for symbol in set(digit):
        rows = np.flatnonzero(np.array(digit) == symbol)
        block = flat[rows]
        distances[np.ix_(rows, rows)] = np.abs(block[:, None, :] - block[None, :, :]).mean(axis=2)
    return distances


def _copies(digit: list[str]) -> npt.NDArray[Any]:
    """True for each pair of distinct glyphs read as the same digit."""
    read = np.array(digit)
    same: npt.NDArray[Any] = (read[:, None] == read[None, :]) & ~np.eye(len(read), dtype=bool)
    copies: npt.NDArray[Any] = same & (read[:, None] != "none")
    return copies


def mixed_groups(glyphs: Glyphs, distances: npt.NDArray[Any]) -> set[int]:
    """The less plain of the two tint groups, when copies of a digit across the groups
    differ in shape more than copies within one do (see the module's note); else none."""
    labels, _ = two_means(glyphs.tint)
    if min(np.bincount(labels, minlength=2)) < 1:
        return set()
    copies = np.triu(_copies(glyphs.digit), 1)
    together = labels[:, None] == labels[None, :]
    within, across = distances[copies & together], distances[copies & ~together]
    if min(len(within), len(across)) < LEAST_PAIRS:
        return set()
    if _larger_p(across, within) >= APART:
        return set()
    plain = int(np.argmin([glyphs.plainness[labels == k].mean() for k in (0, 1)]))
    return {int(i) for i in np.flatnonzero(labels != plain)}


def _larger_p(x: npt.NDArray[Any], y: npt.NDArray[Any]) -> float:
    """How likely values drawn like `y` come out at least as large as `x` do: the one-sided
    rank-sum (Mann-Whitney) test, by its normal approximation, ties ranked in turn (the
    distances are continuous)."""
    ranks = np.concatenate([x, y]).argsort(kind="stable").argsort() + 1.0
    n, m = len(x), len(y)
    u = float(ranks[:n].sum()) - n * (n + 1) / 2
    z = (u - n * m / 2) / math.sqrt(n * m * (n + m + 1) / 12)
    return 0.5 * math.erfc(z / math.sqrt(2))


def odd_glyphs(glyphs: Glyphs, distances: npt.NDArray[Any]) -> set[int]:
    """The glyphs whose tint lies far from the givens' and that differ from them in two of
    shape, height and ink strength as well (see the module's note)."""
    far = _off_core(glyphs.tint) >= FAR_TINT
    unlike = (
        _off_copies(distances, _copies(glyphs.digit)) >= ODD_SHAPE,
        np.abs(glyphs.height / np.median(glyphs.height) - 1) >= ODD_HEIGHT,
        np.abs(_robust_z(glyphs.strength)) >= ODD_STRENGTH,
    )
    votes = np.sum(unlike, axis=0)
    return {int(i) for i in np.flatnonzero(far & (votes >= 2))}


def _off_core(points: npt.NDArray[Any], rounds: int = 3) -> npt.NDArray[Any]:
    """How far each point lies from the core of the points (the half nearest their middle),
    in the core's own spread (Mahalanobis distance): a few far points do not widen the
    spread they are measured by. The spread is kept at least half a unit each way, so
    that points drawn alike to the pixel do not make a speck of noise far."""
    centre = np.median(points, axis=0)
    scale = 1.4826 * np.median(np.abs(points - centre), axis=0) + 1e-3
    distance: npt.NDArray[Any] = np.linalg.norm((points - centre) / scale, axis=1)
    for _ in range(rounds):
        core = points[distance <= np.median(distance)]
        centre = core.mean(axis=0)
        spread = np.cov(core.T).reshape(points.shape[1], points.shape[1])
        inverse = np.linalg.inv(spread + 0.25 * np.eye(points.shape[1]))
        off = points - centre
        distance = np.sqrt(np.einsum("ij,jk,ik->i", off, inverse, off))
    return distance


def _off_copies(distances: npt.NDArray[Any], copies: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """For each glyph, its median distance to its digit's other copies against the typical
    distance between copies (0 for a glyph with no other copy)."""
    if not copies.any():
        return np.zeros(len(distances))
    typical = max(float(np.median(distances[copies])), 1e-6)
    ratio = np.zeros(len(distances))
    for i, row in enumerate(copies):
        if row.any():
            ratio[i] = float(np.median(distances[i][row])) / typical
    return ratio


def _robust_z(values: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """How many (robust) spreads each value lies from the values' median."""
    middle = float(np.median(values))
    spread = max(1.4826 * float(np.median(np.abs(values - middle))), 1e-3)
    z: npt.NDArray[Any] = (values - middle) / spread
    return z


UNLIKE_INK = 2.0
"""A glyph's ink strength differs from the givens' (`unlike_votes`) when it is this many
times as strong as their median, or as weak: light falling unevenly on a page changes the
print's strength by a share, so it is measured by a share and not in the spread of the
givens (which, in one light, is tight)."""


def unlike_votes(glyphs: Glyphs, rows: list[int], reference: list[int]) -> list[int]:
    """For each glyph of `rows`, in how many of shape (against its digit's copies among
    `reference`; a glyph with no such copy counts as unlike), height and ink strength it
    differs from the glyphs of `reference` (the thresholds of `odd_glyphs`, the ink's
    strength by `UNLIKE_INK`)."""
    crops = glyphs.crops.reshape(len(glyphs.digit), -1).astype(np.float32)
    pairs = [
        float(np.abs(crops[a] - crops[b]).mean())
        for k, a in enumerate(reference)
        for b in reference[k + 1 :]
        if glyphs.digit[a] == glyphs.digit[b]
    ]
    typical = max(float(np.median(pairs)), 1e-6) if pairs else 0.0
    height = float(np.median(glyphs.height[reference]))
    strength = max(float(np.median(glyphs.strength[reference])), 1e-6)
    votes = []
    for i in rows:
        copies = [j for j in reference if j != i and glyphs.digit[j] == glyphs.digit[i]]
        if copies and typical:
            shape = float(np.median([np.abs(crops[i] - crops[j]).mean() for j in copies]))
            unlike_shape = shape >= ODD_SHAPE * typical
        else:
            unlike_shape = True
        ratio = float(glyphs.strength[i]) / strength
        votes.append(
            int(unlike_shape)
            + int(abs(float(glyphs.height[i]) / height - 1) >= ODD_HEIGHT)
            + int(not 1 / UNLIKE_INK < ratio < UNLIKE_INK)
        )
    return votes
