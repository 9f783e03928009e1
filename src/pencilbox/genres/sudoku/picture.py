"""Reading a Sudoku from a screenshot or a photo.

1. Find the grid: the four-cornered outlines in a stroke mask of the picture, each tried by
   straightening it and looking for the 9 (or 16) evenly ruled rows and columns inside; the
   best-ruled one wins, so a page edge, a cartoon or yesterday's small solution grid lose.
   An outline that takes in more than the grid (a panel with a caption) is cut back to it.
2. Straighten it to a square and snap each ruled line to where it really is.
3. In each cell, the ink that is big enough to be a given (pencil marks are small and sit in
   corners) and near the middle is cut out; the recogniser names all of them in one batch.
   A player's stroke through a cell is taken out without cutting the given under it, and
   what is read through it is doubted.
4. Givens and the player's entries are told apart by colour (or hue alone, or how coloured
   the ink is for how dark), or else by stroke weight, when the picture shows a clear
   difference; a smaller difference, or fainter ink, makes the glyphs unlike the givens
   doubted. A glyph far fainter than the givens (pencil marks stacked as tall as a given)
   is read as empty, and doubted. Where colour cannot tell, the glyphs left as givens get
   a second look (genres/sudoku/ink_kinds): shape, size and ink strength, agreeing with a
   weak tint difference, may still show the player's entries among them, doubted. A glyph
   doubted for its ink alone is taken for a given when a symmetric layout of the givens
   puts a given in its partner cell (genres/sudoku/layout): uneven light on a photographed
   page makes print look a little unlike print.
5. The rules read again: givens must not clash and must have exactly one solution. When they
   do not, the recogniser's next-best values are tried for the least certain cells
   (core.vision.repair).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from pencilbox.core.vision import grid as gridlib
from pencilbox.core.vision.confirm import rules_posterior
from pencilbox.core.vision.exemplars import reweighed
from pencilbox.core.vision.glyphs import (
    Blob,
    Guess,
    blobs,
    glyph_image,
    ink_map,
    ink_mask,
    recogniser,
)
from pencilbox.core.vision.picture import Picture
from pencilbox.core.vision.reading import CONFIDENT, Reading, ReadNumber, Status, Verdict
from pencilbox.core.vision.repair import Suspect, search
from pencilbox.errors import FormatError
from pencilbox.genres.sudoku import ink_kinds, layout, light
from pencilbox.genres.sudoku.ink_kinds import two_means

SIZES = (9, 16)
CELL = {9: 48, 16: 40}
"""Pixels per cell of the straightened grid."""
DETECT_SIDE = 900
MIN_LATTICE = 6.0
"""A grid whose ruled lines score below this is not taken for a sudoku grid."""
ALPHABETS = {9: ("123456789",), 16: ("123456789ABCDEFG", "0123456789ABCDEF")}
MIN_GIVENS = {9: 17, 16: 55}
"""The fewest givens of a sound puzzle (9x9: proven; 16x16: the fewest known)."""


# -- finding the grid ------------------------------------------------------------------------
def _candidates(gray: npt.NDArray[Any]) -> tuple[list[gridlib.Quad], float]:
    """Quadrilaterals that may be the grid, in a copy at most DETECT_SIDE pixels, mapped back
    to `gray`'s pixels."""
    factor = min(1.0, DETECT_SIDE / max(gray.shape))
    small = cv2.resize(gray, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    block = max(small.shape) // 30
    mask = gridlib.line_mask(small, block)
    mask = cv2.dilate(mask, np.ones((2, 2), np.uint8))
    area = small.shape[0] * small.shape[1]
    found = gridlib.quads(mask, min_area=0.02 * area)
    return [q / factor for q in found[:12]], factor


def _lattice(ink: npt.NDArray[Any], size: int) -> tuple[gridlib.Lattice, gridlib.Lattice]:
    side = ink.shape[0]
    length = int(side / size * 0.5)
    cols = _fit(gridlib.ruled_profile(ink, 0, length), size, side)
    rows = _fit(gridlib.ruled_profile(ink, 1, length), size, side)
    return cols, rows


def _fit(profile: npt.NDArray[Any], size: int, side: int) -> gridlib.Lattice:
    """The grid's lines along one axis. Apps often rule the cells in a grey so light (and
    broken by highlighted rows) that beside the bold box lines they hardly count: when the
    box lines are all there, the cell lines are looked for again with the box lines taken
    out of the profile, so that they are measured against each other."""
    span = (0.0, float(side - 1))
    whole = gridlib.fit_lattice(profile, size, span)
    n = 4 if size == 16 else 3
    if whole.score >= 9:
        return whole
    boxes = gridlib.fit_lattice(profile, n, span)
    if boxes.score < 9:
        return whole
    per_box = size // n
    reach = max(2, int(side / size * 0.25))
    thin = profile.copy()
    for at in boxes.positions:
        thin[max(0, int(at) - reach) : int(at) + reach + 1] = 0
    cells = gridlib.fit_lattice(thin, size, span)
    inner = size - 1
    thin_found = round(cells.score * inner / 10)  # the box lines, wiped, are not among them
    positions = tuple(
        boxes.positions[k // per_box] if k % per_box == 0 else cells.positions[k]
        for k in range(size + 1)
    )
    score = 10.0 * min(inner, thin_found + n - 1) / inner
    return gridlib.Lattice(positions, score) if score > whole.score else whole


def _boxed(ink: npt.NDArray[Any], size: int) -> bool:
    """True when the lines between boxes are bolder than those between cells."""
    side = ink.shape[0]
    n = 4 if size == 16 else 3
    across = ink.sum(axis=0) + ink.sum(axis=1)
    reach = max(1, int(side / size * 0.15))

    def strength(k: int) -> float:
        at = round(k * side / size)
        return float(across[max(0, at - reach) : at + reach + 1].sum())

    box = [strength(k) for k in range(n, size, n)]
    cell = [strength(k) for k in range(1, size) if k % n]
    return float(np.median(box)) > 1.25 * float(np.median(cell))


def _shape_ok(quad: gridlib.Quad) -> bool:
    top = float(np.linalg.norm(quad[1] - quad[0]))
    bottom = float(np.linalg.norm(quad[2] - quad[3]))
    left = float(np.linalg.norm(quad[3] - quad[0]))
    right = float(np.linalg.norm(quad[2] - quad[1]))
    width, height = (top + bottom) / 2, (left + right) / 2
    return bool(min(width, height) > 40 and 0.6 < width / max(height, 1) < 1.65)


def find_grid(
    dark_ink: npt.NDArray[Any], sizes: tuple[int, ...] = SIZES
) -> tuple[gridlib.Quad, int, float] | None:
    """The best-ruled square grid: (corners in `dark_ink`'s pixels, N, score), or None. The
    outlines are taken as found first; only when none of them is well ruled are they tried
    again cut back to the grid inside (`_trimmed`), as a page's outline cut back could
    pass for a grid before the grid's own outline is tried."""
    quads, _ = _candidates(dark_ink)
    best: tuple[gridlib.Quad, int, float] | None = None
    for trim in (False, True):
        for quad in quads:
            if not _shape_ok(quad):
                continue
            for size in sizes:
                outline = _trimmed(dark_ink, quad, size) if trim else quad
                score = _ruling(dark_ink, outline, size)
                if best is None or score > best[2]:
                    best = (outline, size, score)
            if best is not None and best[2] >= 9:
                # The quads come largest first: a well-ruled big one is the puzzle; smaller
                # well-ruled ones inside it are its boxes.
                break
        if best is not None and best[2] >= 9:
            break
    if best is None or best[2] < MIN_LATTICE:
        return None
    quad, size, score = best
    return _trimmed(dark_ink, quad, size), size, score


def _ruling(dark_ink: npt.NDArray[Any], quad: gridlib.Quad, size: int) -> float:
    """How well the outline `quad` holds a sudoku grid of `size` (0-10)."""
    side = 288
    warped = cv2.warpPerspective(dark_ink, gridlib.square_warp(quad, side), (side, side))
    ink = ink_map(warped, window=9)
    cols, rows = _lattice(ink, size)
    score = min(cols.score, rows.score)
    if not _boxed(ink, size):
        score *= 0.6  # sudoku boxes are ruled bolder than cells; other grids' are not
    return score


def _grounds(colour: npt.NDArray[Any]) -> list[tuple[npt.NDArray[Any], bool]]:
    """The picture with its ink dark, and whether the ground is dark: first as the picture
    looks overall (gridlib.brightness), then the other way round (a light page photographed
    on a dark table looks dark overall; a dark app's board may sit on a light page)."""
    first, dark = gridlib.brightness(colour)
    if colour.ndim == 2:
        return [(first, dark), (cv2.bitwise_not(first), not dark)]
    b, g, r = cv2.split(colour)
    other = cv2.min(cv2.min(b, g), r) if dark else cv2.bitwise_not(cv2.max(cv2.max(b, g), r))
    return [(first, dark), (other, not dark)]


def find_grid_either_way(
    colour: npt.NDArray[Any], sizes: tuple[int, ...] = SIZES
) -> tuple[tuple[gridlib.Quad, int, float], npt.NDArray[Any], bool] | None:
    """The best-ruled grid with the picture read dark ink on light or light on dark (the
    other way tried only when the first finds no well-ruled grid): (the grid, the picture
    with its ink dark, whether the ground is dark)."""
    best = None
    for dark_ink, dark in _grounds(colour):
        found = find_grid(dark_ink, sizes)
        if found is None or not _light_inside(dark_ink, found[0]):
            continue
        if best is None or found[2] > best[0][2]:
            best = (found, dark_ink, dark)
        if best is not None and best[0][2] >= 9:
            break
    return best


def _trimmed(dark_ink: npt.NDArray[Any], quad: gridlib.Quad, size: int) -> gridlib.Quad:
    """The grid's outline with any strip outside the grid cut off: the outline found may be
    a panel printed around the grid, taking in its caption or title. Along each axis the
    grid's lines are fitted again from a strong line near either end instead of the
    outline's edge; the strip is cut off when that fits more of the grid's inner lines (a
    grid whose outline is right fits best from its edges)."""
    side = 288
    matrix = gridlib.square_warp(quad, side)
    ink = ink_map(cv2.warpPerspective(dark_ink, matrix, (side, side)), window=9)
    length = int(side / size * 0.5)
    spans = []
    for axis in (0, 1):
        profile = gridlib.ruled_profile(ink, axis, length)
        whole = (0.0, float(side - 1))
        best, score = whole, gridlib.fit_lattice(profile, size, whole).score
        strong = 0.5 * float(profile.max())
        low, high = int(side * 0.03), int(side * 0.2)
        starts = [0.0]
        ends = [float(side - 1)]
        head = profile[low:high]
        tail = profile[side - high : side - low]
        if len(head) and float(head.max()) >= strong:
            starts.append(float(low + int(np.argmax(head))))
        if len(tail) and float(tail.max()) >= strong:
            ends.append(float(side - high + int(np.argmax(tail))))
        for span in ((a, b) for a in starts for b in ends):
            fitted = gridlib.fit_lattice(profile, size, span).score
            if fitted > score + 1.0:
                best, score = span, fitted
        spans.append(best)
    if spans == [(0.0, side - 1.0)] * 2:
        return quad
    (x0, x1), (y0, y1) = ((a, side if b == side - 1 else b) for a, b in spans)
    corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
    return gridlib.map_points(np.linalg.inv(matrix), corners)


def _light_inside(dark_ink: npt.NDArray[Any], quad: gridlib.Quad) -> bool:
    """True when the grid's inside is light ground with dark ink in `dark_ink`: its dark
    details (lines, givens: darker than the ground around them) outweigh its light ones
    (taken the wrong way round, a grid's lines are light details on dark cells). Measured
    against the ground nearby, not the picture's range, so uneven light on a photographed
    page does not tip it; and on the grid averaged down, not sampled, so the thin lines and
    few givens of a large clean grid count (sampled, they fell between the samples)."""
    side = int(min(512.0, max(128.0, float(np.linalg.norm(quad[1] - quad[0])))))
    full = cv2.warpPerspective(dark_ink, gridlib.square_warp(quad, side), (side, side))
    small = cv2.resize(full, (128, 128), interpolation=cv2.INTER_AREA)
    kernel = np.ones((5, 5), np.uint8)
    dark = cv2.morphologyEx(small, cv2.MORPH_BLACKHAT, kernel).astype(np.float64).sum()
    light = cv2.morphologyEx(small, cv2.MORPH_TOPHAT, kernel).astype(np.float64).sum()
    return bool(dark > light)


# -- reading the cells -------------------------------------------------------------------------
def _cell_glyph(
    mask: npt.NDArray[Any], x0: int, y0: int, x1: int, y1: int, turned: bool = False
) -> Blob | None:
    """The character in one cell: the ink near the middle that is tall enough to be a given,
    not a pencil mark and not a piece of ruled line (`turned`: tall or wide enough, as a
    given lying on its side is)."""
    width, height = x1 - x0, y1 - y0
    margin_x, margin_y = max(1, int(width * 0.07)), max(1, int(height * 0.07))
    sub = mask[y0 + margin_y : y1 - margin_y, x0 + margin_x : x1 - margin_x]
    found, _ = blobs(sub, min_area=max(3, int(width * height * 0.004)))
    sw, sh = sub.shape[1], sub.shape[0]
    parts = []
    for blob in found:
        touches = blob.x0 == 0 or blob.y0 == 0 or blob.x1 == sw or blob.y1 == sh
        line_like = blob.width > 0.8 * sw or blob.height > 0.92 * sh
        if line_like or (touches and blob.height < 0.3 * height):
            continue
        parts.append(blob)
    if not parts:
        return None
    # merge pieces that overlap side by side and nearly touch (a broken stroke) into
    # characters; pencil marks stacked in a column stay apart
    parts.sort(key=lambda b: b.x0)
    merged: list[Blob] = []
    for blob in parts:
        last = merged[-1] if merged else None
        apart = last and max(blob.y0 - last.y1, last.y0 - blob.y1) > 0.06 * height
        if last and blob.x0 < last.x1 - 1 and not apart:
            merged[-1] = last.union(blob)
        else:
            merged.append(blob)
    tall = [b for b in merged if b.height >= 0.3 * height or (turned and b.width >= 0.3 * width)]
    if not tall:
        return None
    cx, cy = sw / 2, sh / 2
    best = min(tall, key=lambda b: (b.cx - cx) ** 2 + (b.cy - cy) ** 2)
    if abs(best.cx - cx) > 0.3 * width or abs(best.cy - cy) > 0.3 * height:
        return None
    return Blob(
        best.x0 + x0 + margin_x,
        best.y0 + y0 + margin_y,
        best.x1 + x0 + margin_x,
        best.y1 + y0 + margin_y,
        best.area,
    )


def _two_kinds(features: npt.NDArray[Any], least: float) -> tuple[npt.NDArray[Any], bool] | None:
    """Labels 0/1 when the rows of `features` fall into two groups, and whether the groups
    stand clearly apart (centres at least `least` apart and far apart against the spread
    within each). None when nothing suggests two kinds; False for "maybe": the difference
    is there but too small to decide by."""
    if not np.isfinite(features).all():
        return None  # a measure that overflowed (a glyph's stroke weight) tells nothing
    labels, centres = two_means(features)
    if min(np.bincount(labels, minlength=2)) < 1:
        return None
    axis = centres[1] - centres[0]
    gap = float(np.linalg.norm(axis))
    if gap < 0.4 * least:
        return None
    # the spread of each group along the line between the centres: the groups must stand
    # well apart there (the spread across it says nothing about telling them apart)
    along = (features - centres[0]) @ (axis / gap)
    spread = math.hypot(*(float(along[labels == k].std()) for k in (0, 1)))
    separation = gap / (spread + 0.5)
    if gap >= least and separation > 5.0:
        return labels, True
    if separation > 3.0 or (gap >= least and separation > 2.0):
        return labels, False
    return None


GIVEN, ENTRY, UNSURE, MARK = "given", "entry", "unsure", "mark"


def _roles(labels: npt.NDArray[Any], clear: bool, given: int) -> list[str]:
    other = ENTRY if clear else UNSURE
    return [GIVEN if int(label) == given else other for label in labels]


def _stroke_weight(part: npt.NDArray[Any]) -> float:
    """How thick a glyph's strokes are against its height: twice the largest distance from
    an ink pixel of `part` (its box, True where inked) to the nearest background pixel. The
    box gets a background rim first: a glyph that fills its box wholly has no background
    pixel, and the transform would measure to nothing (float32's largest value)."""
    padded = np.pad(part.astype(np.uint8), 1)
    distance = cv2.distanceTransform(padded, cv2.DIST_L2, 3)
    return float(distance.max()) * 2 / max(int(part.shape[0]), 1)


@dataclass
class _Looks:
    """How each glyph is drawn, one row a glyph: what tells givens from the player's marks."""

    colour: npt.NDArray[Any]
    """The LAB colour of its strokes' cores (where its ink is strongest), so the ground
    around it does not tint it."""
    tint: npt.NDArray[Any]
    """How coloured its ink is for how dark it is (`_tint`)."""
    weight: npt.NDArray[Any]
    """Its stroke weight (`_stroke_weight`) times 100."""
    strength: npt.NDArray[Any]
    """How strong its ink is: the mean over the glyph, 0-100, against the ground around it."""

    def subset(self, rows: list[int]) -> _Looks:
        return _Looks(self.colour[rows], self.tint[rows], self.weight[rows], self.strength[rows])


def _looks(
    colour: npt.NDArray[Any], ink: npt.NDArray[Any], mask: npt.NDArray[Any], boxes: list[Blob]
) -> _Looks:
    """The looks of the glyphs in `boxes` (their ink where `mask` is set)."""
    lab = cv2.cvtColor(colour, cv2.COLOR_BGR2LAB).astype(np.float32)
    ground = cv2.dilate(mask, np.ones((3, 3), np.uint8)) == 0
    cores, shifts, weights, strengths = [], [], [], []
    for box in boxes:
        part = mask[box.y0 : box.y1, box.x0 : box.x1] > 0
        strength = ink[box.y0 : box.y1, box.x0 : box.x1]
        core = part & (strength >= 0.7 * float(strength[part].max() if part.any() else 1.0))
        pixels = lab[box.y0 : box.y1, box.x0 : box.x1][core]
        cores.append(pixels.mean(axis=0) if len(pixels) else np.zeros(3, np.float32))
        shifts.append(_shift_from_ground(lab, ground, part, box))
        weights.append(_stroke_weight(part) * 100)
        strengths.append(float(strength[part].mean()) * 100 if part.any() else 0.0)
    return _Looks(
        np.array(cores, np.float32),
        _tint(np.array(shifts, np.float32)),
        np.array(weights, np.float32).reshape(-1, 1),
        np.array(strengths, np.float32).reshape(-1, 1),
    )


def _shift_from_ground(
    lab: npt.NDArray[Any], ground: npt.NDArray[Any], part: npt.NDArray[Any], box: Blob
) -> npt.NDArray[Any]:
    """How far a glyph's pixels lie from the ground around it, in LAB (their mean): the
    ground is the median of the pixels next to the glyph that hold no ink."""
    rim = 2
    near = np.s_[max(0, box.y0 - rim) : box.y1 + rim, max(0, box.x0 - rim) : box.x1 + rim]
    around = lab[near][ground[near]]
    pixels = lab[box.y0 : box.y1, box.x0 : box.x1][part]
    if not len(around) or not len(pixels):
        return np.zeros(3, np.float32)
    shift: npt.NDArray[Any] = pixels.mean(axis=0) - np.median(around, axis=0)
    return shift


def _tint(shifts: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """How far each glyph's ink moves its ground's hue (a, b) for each step it darkens it
    (lightens, on a dark ground), times 100. A thin or small glyph blends its ink with the
    ground: its colour comes out lighter and less coloured than its ink, the more so the
    thinner it is, but both by the same share, so their ratio is the ink's own. A glyph that
    darkens its ground less than half as much as most do is measured as if it darkened it
    that much, so that faint pixels (a photo's grey print) do not make up a colour out of
    noise."""
    if not len(shifts):
        return np.zeros((0, 2), np.float32)
    darkening = np.abs(shifts[:, :1])
    floor = max(0.5 * float(np.median(darkening)), 1e-3)
    tint: npt.NDArray[Any] = (100 * shifts[:, 1:] / np.maximum(darkening, floor)).astype(np.float32)
    return tint


def _colour_groups(cells: _Cells, guesses: list[Guess], dark: bool, size: int = 9) -> list[str]:
    """For each glyph of `cells` (read as `guesses`), GIVEN, ENTRY when it clearly looks
    like a player's entry (another colour, or a much lighter stroke), UNSURE when it differs
    from the givens a little: perhaps an entry, and the reading cannot be sure (a misread
    that the rules cannot catch, since entries fit the solution), or MARK when it is far
    fainter than the givens (pencil marks, stacked as tall as a given). All GIVEN when no
    difference shows."""
    boxes = [b for _, _, b in cells.boxes]
    if len(boxes) < 4:
        return [GIVEN] * len(boxes)
    looks = _looks(cells.colour, cells.ink, cells.mask, boxes)
    roles = _roles_by_looks(looks, dark, MIN_GIVENS.get(size, 0))
    lines = _lines_tint(cells, size)
    roles = _second_kind_doubted(roles, looks, boxes, guesses, cells.crops, dark, lines)
    places = [(r, c) for r, c, _ in cells.boxes]
    return _settled_by_layout(roles, places, looks, boxes, guesses, cells.crops, size)


def _roles_by_looks(looks: _Looks, dark: bool, least: int) -> list[str]:
    """The roles of `_colour_groups`. A picture may hold three kinds of ink: the givens, the
    player's entries, and pencil marks the size of a given (a few stacked in a tiny cell).
    A split into two kinds takes the most unlike apart, which may be the marks: so once a
    kind is clearly apart, the glyphs left as givens are split by colour once more
    (`_split_again`). Then each of them is measured against the givens for the marks left
    among them."""
    roles = _split(looks, dark, least)
    if ENTRY in roles:
        kept = [i for i, role in enumerate(roles) if role == GIVEN]
        again = _split_again(looks.subset(kept), dark, least)
        if again is not None:
            for i, role in zip(kept, again, strict=True):
                roles[i] = role
    return _faint_marks(roles, looks, dark, least)


def _split_again(looks: _Looks, dark: bool, least: int) -> list[str] | None:
    """The roles of the glyphs left as givens once one kind stood clearly apart: by colour
    when it splits them clearly, else with the glyphs of a split too small to decide by
    doubted (with pencil marks taken apart, the player's entries may still be among them,
    a little unlike the givens); None when their colour shows no difference."""
    roles, doubts = _colour_split(looks, dark, least)
    if roles is not None or not doubts:
        return roles
    return _doubted([GIVEN] * len(looks.colour), doubts)


def _doubted(roles: list[str], doubts: list[Doubt]) -> list[str]:
    """`roles` with the glyphs outside the givens' group of each doubtful split UNSURE."""
    for labels, given in doubts:
        roles = [
            UNSURE if int(label) != given else role
            for role, label in zip(roles, labels, strict=True)
        ]
    return roles


def _second_kind_doubted(
    roles: list[str],
    looks: _Looks,
    boxes: list[Blob],
    guesses: list[Guess],
    crops: npt.NDArray[Any],
    dark: bool,
    lines: npt.NDArray[Any],
) -> list[str]:
    """`roles` with the glyphs taken for givens that may be a second kind of ink UNSURE:
    where colour alone could not tell, shape, size and ink strength join in (see
    genres/sudoku/ink_kinds), their tints taken in the light where each stands (`lines`,
    the ruled lines' tint at each glyph: genres/sudoku/light). Glyphs read as no digit are
    left out: they are no givens."""
    taken = [i for i, role in enumerate(roles) if role == GIVEN and guesses[i].best != "none"]
    glyphs = ink_kinds.Glyphs(
        light.in_local_light(looks.tint[taken], lines[taken]),
        looks.strength[taken, 0],
        np.array([boxes[i].y1 - boxes[i].y0 for i in taken], np.float64),
        [guesses[i].best for i in taken],
        crops[taken],
        np.array([_plainness(looks.colour[i], dark) for i in taken], np.float64),
    )
    suspects = {taken[k] for k in ink_kinds.second_kind(glyphs)}
    return [UNSURE if i in suspects else role for i, role in enumerate(roles)]


def _lines_tint(cells: _Cells, size: int) -> npt.NDArray[Any]:
    """The ruled lines' tint (`_tint`) at each glyph's cell, from a smooth surface fitted
    over the board (genres/sudoku/light); the same everywhere when too few cells have lines
    to measure."""
    glyphs = [box for _, _, box in cells.boxes]
    shifts, measured = light.line_shifts(cells.colour, cells.mask, glyphs, CELL[size], size)
    if np.count_nonzero(measured) < size * size // 2:
        return np.zeros((len(glyphs), 2), np.float32)
    tints = np.zeros((size * size, 2), np.float32)
    tints[measured] = _tint(shifts[measured])
    surface = light.smooth_surface(tints, measured, size)
    return surface[[r * size + c for r, c, _ in cells.boxes]]


def _settled_by_layout(
    roles: list[str],
    places: list[tuple[int, int]],
    looks: _Looks,
    boxes: list[Blob],
    guesses: list[Guess],
    crops: npt.NDArray[Any],
    size: int,
) -> list[str]:
    """`roles` with the UNSURE glyphs that the puzzle's symmetric layout shows to be givens
    GIVEN (genres/sudoku/layout), unless they also look another kind than the sure givens
    in two of shape, height and ink strength (ink_kinds.unlike_votes): a doubt from the
    colour alone, which uneven light on a photographed page gives print too, is settled by
    evidence of another kind."""
    numbered = [i for i, guess in enumerate(guesses) if guess.best != "none"]
    sure = [i for i in numbered if roles[i] == GIVEN]
    doubted = [i for i in numbered if roles[i] == UNSURE]
    witnessed = layout.givens_by_layout(
        {places[i] for i in sure}, {places[i] for i in doubted}, size, MIN_GIVENS.get(size, 0)
    )
    rows = [i for i in doubted if places[i] in witnessed]
    if not rows:
        return roles
    glyphs = ink_kinds.Glyphs(
        looks.tint,
        looks.strength[:, 0],
        np.array([box.y1 - box.y0 for box in boxes], np.float64),
        [guess.best for guess in guesses],
        crops,
        np.zeros(len(boxes)),
    )
    votes = ink_kinds.unlike_votes(glyphs, rows, sure)
    settled = {i for i, vote in zip(rows, votes, strict=True) if vote < 2}
    return [GIVEN if i in settled else role for i, role in enumerate(roles)]


Doubt = tuple[npt.NDArray[Any], int]
"""Two groups the glyphs fall into, too little apart to decide by: (labels, the givens')."""


def _plainness(colour: npt.NDArray[Any], dark: bool) -> float:
    """How unlike plain print a LAB colour is: givens are the plainer ink, darkest on a light
    ground (brightest on a dark one) and least coloured."""
    chroma = float(np.hypot(colour[1] - 128, colour[2] - 128))
    light = float(colour[0]) if not dark else 255 - float(colour[0])
    return light + 1.5 * chroma


def _colour_split(looks: _Looks, dark: bool, least: int) -> tuple[list[str] | None, list[Doubt]]:
    """The roles when the glyphs' colours fall clearly into two kinds (None if not), and the
    splits that are too small to decide by. A group too small to be a sudoku's givens
    (fewer than any sound puzzle has) is never taken for them: it is the odd glyphs out (a
    stray mark, a piece of ruled line), not the givens among the player's entries."""
    data = looks.colour
    doubts: list[Doubt] = []
    splits = [_two_kinds(data, 20.0)]
    if splits[0] is None or not splits[0][1]:
        # the lightness of small, thin glyphs varies with their size and the blur more
        # than their hue does: the hue (a, b) alone may tell a blue entry from slate print;
        # and where the blend with the ground spreads the hue too, the tint does
        splits.append(_two_kinds(np.ascontiguousarray(data[:, 1:]), 15.0))
        splits.append(_two_kinds(looks.tint, 15.0))
    for found in splits:
        if found is None:
            continue
        labels, clear = found
        given = int(np.argmin([_plainness(data[labels == k].mean(axis=0), dark) for k in (0, 1)]))
        if np.count_nonzero(labels == given) < least:
            continue
        if clear:
            return _roles(labels, clear, given), doubts
        doubts.append((labels, given))
    return None, doubts


def _split(looks: _Looks, dark: bool, least: int) -> list[str]:
    """The roles by the two kinds of ink the glyphs fall into, if any: by colour
    (`_colour_split`), or else by stroke weight, or else the fainter ink doubted."""
    roles, doubts = _colour_split(looks, dark, least)
    if roles is not None:
        return roles
    stroke = looks.weight
    found = _two_kinds(stroke, 4.0)
    if found is not None and min(np.bincount(found[0])) >= 3:
        labels, clear = found
        bold = int(np.argmax([stroke[labels == k].mean() for k in (0, 1)]))
        if clear and np.count_nonzero(labels == bold) >= least:
            return _roles(labels, clear, bold)
    roles = _doubted([GIVEN] * len(looks.colour), doubts)
    return _fainter_doubted(roles, looks.strength, least)


FAINT_INK = 0.75
"""A glyph with less than this share of the givens' typical ink strength, and lighter than
they are by FAINT_SPREADS times their spread in lightness, is no given (`_faint_marks`)."""
FAINT_SPREADS = 5.0


def _faint_marks(roles: list[str], looks: _Looks, dark: bool, least: int) -> list[str]:
    """`roles` with the glyphs taken for givens (GIVEN) that are far fainter than most of
    them MARK. Pencil marks are drawn lighter than the givens, and small: too small to be
    taken for a given one by one, but in a small cell a few stacked in a column touch and
    stand as tall as a given, and where the cells are tiny a mark still legible is nearly a
    given's size. A few such glyphs make no group of their own (`_split`), so each is
    measured against the givens: by its ink's strength against the ground around it and by
    its colour's lightness (against the givens' spread in it), as a given in a photo's
    shadow or glare is far fainter by one of them but not by both."""
    given = [i for i, role in enumerate(roles) if role == GIVEN]
    if len(given) < max(least, 4):
        return roles
    sign = -1.0 if dark else 1.0  # lighter on a light ground, darker on a dark one
    lightness = sign * looks.colour[given, 0]
    typical = float(np.median(lightness))
    spread = max(1.4826 * float(np.median(np.abs(lightness - typical))), 1.0)
    strength = float(np.median(looks.strength[given]))
    marks = set()
    for i, lit in zip(given, lightness, strict=True):
        fainter = float(looks.strength[i, 0]) < FAINT_INK * strength
        if fainter and (float(lit) - typical) / spread > FAINT_SPREADS:
            marks.add(i)
    return [MARK if i in marks else role for i, role in enumerate(roles)]


def _fainter_doubted(roles: list[str], inks: npt.NDArray[Any], least: int) -> list[str]:
    """`roles` with the glyphs of the fainter group UNSURE when the glyphs fall into two
    groups by how strong their ink is (`_Looks.strength`). A small JPEG blurs a player's thin
    coloured entries into strokes that never get as dark as the givens', while their colour
    and measured weight wash out."""
    found = _two_kinds(inks, 8.0)
    if found is None or min(np.bincount(found[0], minlength=2)) < 3:
        return roles
    labels, _ = found
    strong = int(np.argmax([inks[labels == k].mean() for k in (0, 1)]))
    if np.count_nonzero(labels == strong) < least:
        return roles
    return [
        UNSURE if role == GIVEN and int(label) != strong else role
        for role, label in zip(roles, labels, strict=True)
    ]


@dataclass
class _Cells:
    """What the straightened grid's cells hold: each glyph's cell and box, its crop for the
    recogniser, and the ink measures the rest of the reading needs."""

    matrix: npt.NDArray[Any]
    colour: npt.NDArray[Any]
    ink: npt.NDArray[Any]
    mask: npt.NDArray[Any]
    boxes: list[tuple[int, int, Blob]]
    crops: npt.NDArray[Any]
    inked: list[tuple[int, int, Blob]]
    """Cells read as empty that hold ink like a given's (a given the cutting lost)."""
    heavy: set[tuple[int, int]]
    """Cells whose middle holds ink like a given's (with a glyph or not)."""
    inked_crops: npt.NDArray[Any]
    turned_crops: npt.NDArray[Any]
    """The crops of the glyphs found tall or wide enough (for telling the page's upright)."""
    struck: set[tuple[int, int]]
    """Cells crossed by a stroke that is not one of the grid's ruled lines."""


def _cells(picture: Picture, dark_ink: npt.NDArray[Any], quad: gridlib.Quad, size: int) -> _Cells:
    """Straighten the grid whose corners are `quad` (its top-left first) and cut out the
    glyph of every cell that has one."""
    cell = CELL[size]
    side = cell * size
    matrix = gridlib.square_warp(quad, side)
    warped = cv2.warpPerspective(dark_ink, matrix, (side, side), flags=cv2.INTER_LINEAR)
    colour = cv2.warpPerspective(picture.work, matrix, (side, side), flags=cv2.INTER_LINEAR)
    ink = ink_map(warped, window=cell // 3)
    cols, rows = _lattice(ink, size)
    strong = float(np.percentile(ink, 99.5))
    mask = ink_mask(ink, max(0.08, 0.18 * strong), max(0.2, 0.4 * strong))
    cuts = _cuts(cols, rows, cell)
    mask, struck = _unstruck(mask, cols, rows, cuts, cell)
    clean, bare = _without_lines(mask, cell)
    boxes, from_clean = _glyphs(mask, clean, cuts)
    keep = cv2.dilate(mask, np.ones((3, 3), np.uint8)) > 0
    keep_clean = cv2.dilate(clean, np.ones((3, 3), np.uint8)) > 0
    crops = _crops(
        ink,
        [
            (b, keep_clean if lone else keep)
            for (_, _, b), lone in zip(boxes, from_clean, strict=True)
        ],
    )
    inked, heavy = _inked_blanks(ink, bare, clean, cuts, boxes, struck)
    inked_crops = _crops(ink, [(b, keep_clean) for _, _, b in inked])
    lying = [(b, keep) for _, _, b in _glyphs(mask, clean, cuts, turned=True)[0]]
    return _Cells(
        matrix,
        colour,
        ink,
        mask,
        boxes,
        crops,
        inked,
        heavy,
        inked_crops,
        _crops(ink, lying),
        struck,
    )


def _unstruck(
    mask: npt.NDArray[Any],
    cols: gridlib.Lattice,
    rows: gridlib.Lattice,
    cuts: list[Cut],
    cell: int,
) -> tuple[npt.NDArray[Any], set[tuple[int, int]]]:
    """The ink mask with the strokes that cross cells away from the ruled lines (a player's
    pen or marker struck through a cell or a whole row) taken out, and the cells they cross.
    Where a stroke ran through a character, the pixels between the character's strokes on
    either side of it are kept, so that the character stays in one piece (cut in two, each
    half is too small to be taken for a given, and the given would be lost)."""
    reach = max(3, round(cell * 0.25))  # a photographed page's bent lines wander off the lattice
    across, down = _long_runs(mask, cell)
    for lines, lattice, axis in ((across, rows, 0), (down, cols, 1)):
        for at in lattice.positions:
            low, high = max(0, round(at) - reach), round(at) + reach + 1
            if axis == 0:
                lines[low:high, :] = 0
            else:
                lines[:, low:high] = 0
    if not across.any() and not down.any():
        return mask, set()
    near = np.ones((3, 3), np.uint8)
    cut_across, cut_down = cv2.dilate(across, near), cv2.dilate(down, near)
    mended: npt.NDArray[Any] = cv2.bitwise_and(
        mask, cv2.bitwise_not(cv2.bitwise_or(cut_across, cut_down))
    )
    span = max(5, round(cell * 0.25))
    for cut, shape in ((cut_across, (1, span)), (cut_down, (span, 1))):
        joined = cv2.morphologyEx(
            mended, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, shape)
        )
        bridge = cv2.bitwise_and(cv2.bitwise_and(joined, cut), mask)
        mended = cv2.bitwise_or(mended, bridge)
    strokes = cv2.bitwise_or(across, down)
    struck = {
        (r, c)
        for r, c, x0, y0, x1, y1 in cuts
        if np.count_nonzero(strokes[y0:y1, x0:x1]) >= 0.5 * cell
    }
    return mended, struck


def _legibility(guesses: list[Guess]) -> float:
    """How well the glyphs read as characters: the summed probability of each one's best
    character (not "none")."""
    return sum(max((p for s, p in g.ranked if s != "none"), default=0.0) for g in guesses)


def _upright_turn(crops: npt.NDArray[Any], allowed: str) -> int:
    """How many quarter turns counter-clockwise make the glyphs upright: 0 unless another
    turn reads clearly better. Phones often save a photo of a page lying flat turned by a
    quarter or a half (their orientation sensor cannot tell), so the picture's own upright
    is not the page's."""
    if len(crops) < 4:
        return 0
    scores = []
    for k in range(4):
        turned = np.ascontiguousarray(np.rot90(crops, k, axes=(1, 2)))
        scores.append(_legibility(recogniser().guess(turned, allowed)))
    best = int(np.argmax(scores))
    if best and scores[best] > 1.25 * scores[0] and scores[best] - scores[0] > 0.1 * len(crops):
        return best
    return 0


def read_image(picture: Picture, *, size: int | None = None) -> Reading:
    started = time.perf_counter()
    either = find_grid_either_way(picture.work, (size,) if size else SIZES)
    if either is None:
        raise FormatError("no sudoku grid found", source=picture.source)
    (quad, n_size, _), dark_ink, dark = either
    allowed = "".join(sorted(set("".join(ALPHABETS[n_size]))))
    cells = _cells(picture, dark_ink, quad, n_size)
    turn = _upright_turn(cells.turned_crops, allowed)
    if turn:
        # the page's top-left corner is the picture's corner `turn` steps round the quad
        cells = _cells(picture, dark_ink, np.roll(quad, -turn, axis=0), n_size)
    guesses = reweighed(cells.crops, recogniser().guess(cells.crops, allowed))
    alphabet = ALPHABETS[n_size][0]
    if n_size == 16 and any(g.best == "0" for g in guesses):
        alphabet = ALPHABETS[16][1]
    roles = _colour_groups(cells, guesses, dark, n_size)
    inverse = np.linalg.inv(cells.matrix)
    numbers, entries = _named(
        cells.boxes, guesses, roles, alphabet, inverse, picture, cells.heavy, cells.struck
    )
    numbers += _inked_numbers(cells, allowed, alphabet, inverse, picture)
    side = CELL[n_size] * n_size
    corners = (
        gridlib.map_points(
            inverse, np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
        )
        / picture.scale
    )
    reading = Reading(
        "sudoku",
        n_size,
        n_size,
        tuple(n for n in numbers if n.value is not None or n.confidence < CONFIDENT),
        grid=tuple((float(x), float(y)) for x, y in corners),
        genre_data={
            "alphabet": alphabet,
            "entries": [
                {"row": r + 1, "col": c + 1, **data} for (r, c), data in sorted(entries.items())
            ],
        },
        picture_size=(picture.width, picture.height),
        source=picture.source,
    )
    reading = judge(replace(reading, read_s=time.perf_counter() - started), repair=True)
    return replace(reading, time_s=time.perf_counter() - started)


Cut = tuple[int, int, int, int, int, int]
"""A cell of the straightened grid: row, column, and its box x0, y0, x1, y1."""


def _cuts(cols: gridlib.Lattice, rows: gridlib.Lattice, cell: int) -> list[Cut]:
    """Every cell's box, by the ruled lines found (by the even split where they are lost)."""
    size = cols.count
    cuts = []
    for r in range(size):
        for c in range(size):
            x0, x1 = round(cols.positions[c]), round(cols.positions[c + 1])
            y0, y1 = round(rows.positions[r]), round(rows.positions[r + 1])
            if x1 - x0 < 6 or y1 - y0 < 6:
                x0, x1 = c * cell, (c + 1) * cell
                y0, y1 = r * cell, (r + 1) * cell
            cuts.append((r, c, x0, y0, x1, y1))
    return cuts


def _long_runs(mask: npt.NDArray[Any], cell: int) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
    """The ink of `mask` in runs straight across, and straight down, for most of a cell's
    length: longer than any character's stroke, so ruled lines and a player's strokes."""
    length = max(5, int(cell * 0.85))
    across = cv2.morphologyEx(
        mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (length, 1))
    )
    down = cv2.morphologyEx(
        mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (1, length))
    )
    return across, down


def _without_lines(mask: npt.NDArray[Any], cell: int) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
    """The ink mask with the ruled lines (its long runs) taken out: with the pixel beside
    them too, so that a given the print, the paper's grain or a blur joined to a line stands
    alone again; and with the lines' own pixels only."""
    lines = cv2.bitwise_or(*_long_runs(mask, cell))
    beside = cv2.dilate(lines, np.ones((3, 3), np.uint8))
    clean: npt.NDArray[Any] = cv2.bitwise_and(mask, cv2.bitwise_not(beside))
    bare: npt.NDArray[Any] = cv2.bitwise_and(mask, cv2.bitwise_not(lines))
    return clean, bare


def _glyphs(
    mask: npt.NDArray[Any], clean: npt.NDArray[Any], cuts: list[Cut], turned: bool = False
) -> tuple[list[tuple[int, int, Blob]], list[bool]]:
    """The character in each cell that has one: (row, column, its box), and for each
    whether it was found only once the ruled lines were taken out of the mask."""
    boxes: list[tuple[int, int, Blob]] = []
    from_clean = []
    for r, c, x0, y0, x1, y1 in cuts:
        glyph = _cell_glyph(mask, x0, y0, x1, y1, turned)
        lone = glyph is None
        if glyph is None:
            glyph = _cell_glyph(clean, x0, y0, x1, y1, turned)
        if glyph is not None:
            boxes.append((r, c, glyph))
            from_clean.append(lone)
    return boxes, from_clean


def _crops(ink: npt.NDArray[Any], boxes: list[tuple[Blob, npt.NDArray[Any]]]) -> npt.NDArray[Any]:
    """The recogniser's crops of the glyphs in `boxes`, each with the mask of its own ink."""
    if not boxes:
        return np.zeros((0, 28, 28), np.float32)
    return np.stack([glyph_image(ink, box, keep) for box, keep in boxes])


INKED = 0.45
"""A cell read as empty whose middle holds at least this share of the ink in a given's
middle (the median over the picture's givens), in a piece at least TALL times as tall as
the givens, is doubted: a given may be there. Givens lost by the cutting come above 1 on
the newspaper photos; pencil marks reach 0.56 (four in the middle of a 16x16 cell) but are
small pieces."""
TALL = 0.6
STRUCK_LEFT = 0.1
"""In a cell crossed by a stroke, the share of a given's ink (beside the stroke) that makes
the cell doubted when nothing was read there."""


def _middle(cut: Cut) -> tuple[int, int, int, int]:
    _, _, x0, y0, x1, y1 = cut
    w, h = x1 - x0, y1 - y0
    return x0 + w // 4, y0 + h // 4, x1 - w // 4, y1 - h // 4


def _inked_blanks(
    ink: npt.NDArray[Any],
    mask: npt.NDArray[Any],
    clean: npt.NDArray[Any],
    cuts: list[Cut],
    boxes: list[tuple[int, int, Blob]],
    struck: set[tuple[int, int]],
) -> tuple[list[tuple[int, int, Blob]], set[tuple[int, int]]]:
    """Cells without a glyph whose middle holds ink like the givens' middles (measured in
    this picture: print, light and blur differ from one to the next), each with the box of
    that ink; and every cell whose middle holds that much ink, glyph or not."""
    weight = ink * (mask > 0)

    def mass(cut: Cut) -> float:
        x0, y0, x1, y1 = _middle(cut)
        return float(weight[y0:y1, x0:x1].sum())

    having = {(r, c) for r, c, _ in boxes}
    given = [mass(cut) for cut in cuts if (cut[0], cut[1]) in having]
    if len(given) < 4:
        return [], set()
    typical = float(np.median(given))
    tall = TALL * float(np.median([b.height for _, _, b in boxes]))
    found = []
    heavy = set()
    for cut in cuts:
        r, c, x0, y0, x1, y1 = cut
        crossed = (r, c) in struck
        if mass(cut) < (STRUCK_LEFT if crossed else INKED) * typical:
            continue
        mx0, my0, mx1, my1 = _middle(cut)
        pieces, _ = blobs(mask[y0:y1, x0:x1], min_area=2)
        near = [
            b
            for b in pieces
            if b.x1 + x0 > mx0 and b.x0 + x0 < mx1 and b.y1 + y0 > my0 and b.y0 + y0 < my1
        ]
        # small marks only (pencil marks), however many, are no given; but a stroke across
        # the cell may have cut a given into small pieces, or hide most of it (a 1 under a
        # stroke down the cell): what is left of it beside the stroke is enough to doubt
        if not crossed and (not near or max(b.height for b in near) < tall):
            continue
        heavy.add((r, c))
        if (r, c) in having:
            continue
        box = near[0] if near else Blob(mx0 - x0, my0 - y0, mx1 - x0, my1 - y0, 0)
        for piece in near[1:]:
            box = box.union(piece)
        found.append((r, c, Blob(box.x0 + x0, box.y0 + y0, box.x1 + x0, box.y1 + y0, box.area)))
    return found, heavy


def _named(
    boxes: list[tuple[int, int, Blob]],
    guesses: list[Guess],
    roles: list[str],
    alphabet: str,
    inverse: npt.NDArray[Any],
    picture: Picture,
    heavy: set[tuple[int, int]],
    struck: set[tuple[int, int]],
) -> tuple[list[ReadNumber], dict[tuple[int, int], Any]]:
    """The givens as numbers (boxes in the original picture), and the player's entries."""
    numbers: list[ReadNumber] = []
    entries: dict[tuple[int, int], Any] = {}
    for (r, c, box), guess, role in zip(boxes, guesses, roles, strict=True):
        ranked = [(_value(symbol, alphabet), p) for symbol, p in guess.ranked]
        ranked = [(v, p) for v, p in ranked if v != -1]
        value, confidence = ranked[0] if ranked else (None, 0.0)
        original = _original_box(inverse, box, picture)
        reason = None if value is not None else "a mark that is not a digit"
        if value is None and (r, c) in heavy:
            # as much ink as a given: a given the recogniser did not know, never dropped
            reason = "ink like a given's that was not read as a digit: a given may be here"
            confidence = min(confidence, 0.5)
            ranked = [(None, confidence), *((v, p) for v, p in ranked if v)]
        if (r, c) in struck and value is not None:
            # a stroke crossed the character: what is left of it under the stroke is a guess
            reason = "read through a stroke that crosses the cell"
            confidence = min(confidence, 0.5)
            ranked = [(value, confidence), *ranked[1:]]
        if role == UNSURE and value is not None:
            # the colour or weight hints at a player's entry, too weakly to decide
            reason = "drawn a little unlike most givens: a given, or the player's entry?"
            confidence = min(confidence, 0.5)
            ranked = [(value, confidence), (None, 0.5), *((v, p) for v, p in ranked[1:] if v)]
        if role == MARK and value is not None:
            # far fainter than the givens: read as empty, with what it reads as in doubt
            # (should the rules need it, the repair may still take it for a given)
            reason = "much fainter than the givens: pencil marks, or a given?"
            ranked = [(None, 0.5), *((v, p) for v, p in ranked if v)]
            value, confidence = None, 0.5
        if role == ENTRY:
            entries[(r, c)] = {
                "value": value,
                "confidence": round(confidence, 4),
                "box": list(original),
            }
            continue
        numbers.append(
            ReadNumber(
                "cell",
                r,
                c,
                value,
                confidence,
                tuple(ranked[1:]),
                original,
                reason=reason,
            )
        )
    return numbers, entries


def _inked_numbers(
    cells: _Cells, allowed: str, alphabet: str, inverse: npt.NDArray[Any], picture: Picture
) -> list[ReadNumber]:
    """The cells read as empty that hold a given's worth of ink, as doubts: read as empty,
    with the characters the ink may be as alternatives (a misread that the rules may not
    catch: a given lost leaves a sound puzzle with several solutions, or even one)."""
    numbers = []
    guesses = recogniser().guess(cells.inked_crops, allowed) if cells.inked else []
    for (r, c, box), guess in zip(cells.inked, guesses, strict=True):
        ranked = [(_value(symbol, alphabet), p) for symbol, p in guess.ranked]
        options = tuple((v, p) for v, p in ranked if v is not None and v != -1)
        numbers.append(
            ReadNumber(
                "cell",
                r,
                c,
                None,
                min(0.5, dict(ranked).get(None, 0.0)),
                options,
                _original_box(inverse, box, picture),
                reason="ink in this cell was not read as a digit: a given may be here",
            )
        )
    return numbers


def _value(symbol: str, alphabet: str) -> int | None:
    """The digit (1..N) a recogniser class stands for in `alphabet`; None for "none"; -1 for
    a symbol outside the alphabet."""
    if symbol == "none":
        return None
    at = alphabet.find(symbol)
    return at + 1 if at >= 0 else -1


def _original_box(
    inverse: npt.NDArray[Any], box: Blob, picture: Picture
) -> tuple[int, int, int, int]:
    corners = np.array(
        [[box.x0, box.y0], [box.x1, box.y0], [box.x1, box.y1], [box.x0, box.y1]], np.float32
    )
    mapped = gridlib.map_points(inverse, corners) / picture.scale
    x0, y0 = np.floor(mapped.min(axis=0)).astype(int)
    x1, y1 = np.ceil(mapped.max(axis=0)).astype(int)
    return (
        int(max(0, x0)),
        int(max(0, y0)),
        int(min(picture.width, x1)),
        int(min(picture.height, y1)),
    )


# -- the rules as a second reader ----------------------------------------------------------------
def givens_of(reading: Reading) -> list[int]:
    size = reading.width
    values = [0] * (size * size)
    for number in reading.numbers:
        if number.value:
            values[number.line * size + number.index] = number.value
    return values


def _verdict(reading: Reading, values: list[int]) -> Verdict:
    from pencilbox.genres.sudoku.model import box_size, duplicate_messages
    from pencilbox.genres.sudoku.solver import conflicts, solve_values

    size = reading.width
    n = box_size(size)
    alphabet = str(reading.genre_data.get("alphabet", ALPHABETS[size][0]))
    clashes = conflicts(values, n)
    if clashes:
        at = {(number.line * size + number.index): i for i, number in enumerate(reading.numbers)}
        suspects = sorted({at[c] for _, _, a, b in clashes for c in (a, b) if c in at})
        return Verdict(
            False,
            "none",
            tuple(duplicate_messages(values, n, alphabet)[:5]),
            tuple(suspects),
            {"no_clash": False, "solvable": False, "unique": False},
        )
    given = sum(1 for v in values if v)
    solutions = solve_values(values, n, 2)
    if not solutions:
        return Verdict(
            False,
            "none",
            ("the givens have no solution",),
            (),
            {"no_clash": True, "solvable": False, "unique": False},
        )
    if len(solutions) > 1:
        return Verdict(
            False,
            "multiple",
            (f"the {given} givens read have more than one solution: a given may be missing",),
            (),
            {"no_clash": True, "solvable": True, "unique": False},
        )
    return Verdict(True, "unique", (), (), {"no_clash": True, "solvable": True, "unique": True})


def judge(reading: Reading, repair: bool = False) -> Reading:
    """The reading with its verdict, status and confidence; with `repair`, misread numbers
    replaced by alternatives when that alone makes the givens sound."""
    values = givens_of(reading)
    verdict = _verdict(reading, values)
    repairs: list[str] = []
    if not verdict.consistent and repair:
        reading, verdict, repairs = _repair(reading, values, verdict)
    if verdict.consistent:
        reading = _confirmed_by_rules(reading)
    confident = all(n.confident for n in reading.numbers) and not _crowded(reading)
    status: Status = (
        "ok"
        if verdict.consistent and confident and not any(n.changed for n in reading.numbers)
        else "uncertain"
    )
    confidence = min([n.confidence for n in reading.numbers] + [1.0])
    if not verdict.consistent or _crowded(reading):
        confidence *= 0.5
    return replace(
        reading,
        verdict=verdict,
        status=status,
        confidence=confidence,
        repairs=tuple(reading.repairs) + tuple(repairs),
    )


def _crowded(reading: Reading) -> bool:
    """More givens than half the cells: no published sudoku we know of has that many (the
    most in ../shared/data's 13,000 puzzles and photos is 39 of 81), but a grid part played
    has, when the player's entries are taken for givens: the rules cannot tell, since the
    entries fit the solution, so such a reading is never ok."""
    given = sum(1 for n in reading.numbers if n.value)
    return given > reading.width * reading.height // 2


def _confirmed_by_rules(reading: Reading) -> Reading:
    """A sound reading whose doubts the rules settle, all of them, with those numbers sure:
    a value that only looked unlike a digit is confirmed when every other value would break
    the puzzle (see core/vision/confirm). Else the reading as it was, every doubt kept: the
    rules weigh each number with the others taken as read, which a reading with a number
    the repair changed or a doubt left does not warrant."""
    values = givens_of(reading)
    size = reading.width
    universe: list[int | None] = [None, *range(1, size + 1)]
    numbers = list(reading.numbers)
    if any(number.changed for number in numbers):
        return reading
    for i, number in enumerate(numbers):
        if number.confident:
            continue
        at = number.line * size + number.index

        def allowed(value: int | None, at: int = at) -> bool:
            trial = list(values)
            trial[at] = value or 0
            return _verdict(reading, trial).consistent

        sure = rules_posterior(number, universe, allowed)
        if sure < CONFIDENT:
            return reading
        numbers[i] = replace(number, confidence=sure)
    return replace(reading, numbers=tuple(numbers))


def _repair(
    reading: Reading, values: list[int], verdict: Verdict
) -> tuple[Reading, Verdict, list[str]]:
    size = reading.width
    order = sorted(range(len(reading.numbers)), key=lambda i: reading.numbers[i].confidence)
    picked = [i for i in order if reading.numbers[i].confidence < 0.999][:10]
    for i in verdict.suspects:
        if i not in picked:
            picked.append(i)
    suspects = [
        Suspect(
            i,
            reading.numbers[i].confidence,
            tuple(
                (v, p) for v, p in reading.numbers[i].alternatives if v != reading.numbers[i].value
            ),
        )
        for i in picked[:14]
    ]

    def passes(changes: dict[int, int | None] | Any) -> bool:
        trial = list(values)
        for i, value in changes.items():
            number = reading.numbers[i]
            trial[number.line * size + number.index] = value or 0
        return _verdict(reading, trial).consistent

    found = search(suspects, passes, max_changes=2, time_limit=0.5)
    if found.changes is None:
        return reading, verdict, []
    numbers = list(reading.numbers)
    notes = []
    why = verdict.problems[0] if verdict.problems else "the givens had no single solution"
    for i, value in found.changes.items():
        number = numbers[i]
        probability = dict(number.alternatives).get(value, 0.0)
        reason = f"read as {number.value} but {why}; {value} makes the givens sound"
        if found.ambiguous:
            reason += " (another change would too)"
        numbers[i] = replace(
            number,
            value=value,
            changed=True,
            read_as=number.value,
            confidence=probability,
            reason=reason,
        )
        notes.append(f"{number.where()['cell']}: {reason}")
    repaired = replace(reading, numbers=tuple(numbers))
    return repaired, _verdict(repaired, givens_of(repaired)), notes


def recheck(reading: Reading) -> Reading:
    """A fresh verdict and status for a reading the user edited (no repair)."""
    return judge(reading, repair=False)


def puzzle_json(reading: Reading) -> dict[str, Any]:
    alphabet = str(reading.genre_data.get("alphabet", ALPHABETS[reading.width][0]))
    givens = "".join(alphabet[v - 1] if v else "." for v in givens_of(reading))
    data: dict[str, Any] = {"givens": givens}
    entries = reading.genre_data.get("entries") or []
    if entries:
        line = ["."] * (reading.width * reading.height)
        for entry in entries:
            if entry.get("value"):
                line[(entry["row"] - 1) * reading.width + entry["col"] - 1] = alphabet[
                    entry["value"] - 1
                ]
        data["entries"] = "".join(line)
    if reading.width != 9:
        data["alphabet"] = alphabet
    return data


def puzzle_text(reading: Reading) -> str:
    return str(puzzle_json(reading)["givens"]) + "\n"


def score_image(picture: Picture) -> float:
    """How much the picture looks like a sudoku: the ruling score of its best square grid."""
    either = find_grid_either_way(picture.work)
    return either[0][2] if either else 0.0
