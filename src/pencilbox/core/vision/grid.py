"""Finding grids: the quadrilateral of a boxed grid (sudoku, Double Choco), straightening it,
and the ruled lines of a lattice (their positions along one axis).

All functions take the working copy of a Picture (see picture.py) or a part of it; positions
are in its pixels.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from pencilbox.core.vision.glyphs import ByteImage, FloatImage

Quad = npt.NDArray[Any]
"""Four corners, (4, 2) float32: top-left, top-right, bottom-right, bottom-left."""


def brightness(colour: npt.NDArray[Any], middle: bool = False) -> tuple[ByteImage, bool]:
    """A one-channel picture in which ink is dark, and whether the picture was a dark theme.

    On a light ground the darkest channel is used, so coloured ink (blue entries, red
    newspaper print) stands out as strongly as black; on a dark ground (dark themes) the
    brightest channel is used and inverted. `middle`: the ground is judged on the middle of
    the picture only, where the puzzle stands (a small light board on a wide dark page is
    no dark theme).
    """
    h, w = colour.shape[:2]
    judged = colour[h // 4 : h - h // 4, w // 4 : w - w // 4] if middle else colour
    if colour.ndim == 2:
        gray = colour
        dark = float(np.median(judged)) < 100
        return (cv2.bitwise_not(gray) if dark else gray), dark
    small = judged[:: max(1, judged.shape[0] // 200), :: max(1, judged.shape[1] // 200)]
    dark = float(np.median(cv2.cvtColor(np.ascontiguousarray(small), cv2.COLOR_BGR2GRAY))) < 100
    b, g, r = cv2.split(colour)
    if dark:
        return cv2.bitwise_not(cv2.max(cv2.max(b, g), r)), True
    return cv2.min(cv2.min(b, g), r), False


def order_corners(points: npt.NDArray[Any]) -> Quad:
    """Four points in the order top-left, top-right, bottom-right, bottom-left."""
    pts = points.reshape(4, 2).astype(np.float32)
    total = pts.sum(axis=1)
    diff = pts[:, 1] - pts[:, 0]
    return np.array(
        [pts[np.argmin(total)], pts[np.argmin(diff)], pts[np.argmax(total)], pts[np.argmax(diff)]],
        np.float32,
    )


def line_mask(gray: ByteImage, block: int) -> ByteImage:
    """Dark strokes as 255 on 0, by a threshold that follows the local light."""
    block = max(3, block | 1)
    mask: ByteImage = cv2.adaptiveThreshold(
        gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block, 10
    )
    return mask


def quads(mask: ByteImage, min_area: float) -> list[Quad]:
    """Convex four-cornered outlines in a stroke mask, largest first."""
    contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    found: list[tuple[float, Quad]] = []
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < min_area:
            continue
        hull = cv2.convexHull(contour)
        perimeter = cv2.arcLength(hull, True)
        for eps in (0.02, 0.04, 0.06):
            approx = cv2.approxPolyDP(hull, eps * perimeter, True)
            if len(approx) == 4:
                quad = order_corners(approx.astype(np.float32))
                found.append((float(cv2.contourArea(quad)), quad))
                break
    found.sort(key=lambda item: -item[0])
    unique: list[Quad] = []
    for _, quad in found:
        if all(np.abs(quad - other).max() > 4 for other in unique):
            unique.append(quad)
    return unique


def refine_quad(mask: ByteImage, quad: Quad, band: float = 4.0) -> Quad:
    """The quad's corners made exact: a straight line is fitted to the stroke pixels along
    each side (within `band` pixels of it, the ends left out) and neighbouring sides are
    intersected. A polygon fitted to an outline puts its corners on outline pixels, which
    a blurred photo rounds off; the sides' lines are not rounded. Sides with too few
    pixels keep their corners."""
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return quad
    points = np.stack([xs, ys], axis=1).astype(np.float32)
    lines: list[tuple[npt.NDArray[Any], npt.NDArray[Any]] | None] = []
    for k in range(4):
        a, b = quad[k], quad[(k + 1) % 4]
        length = float(np.linalg.norm(b - a))
        if length < 8:
            return quad
        along = (b - a) / length
        normal = np.array([-along[1], along[0]], np.float32)
        rel = points - a
        t = rel @ along
        d = rel @ normal
        near = (np.abs(d) <= band) & (t > 0.1 * length) & (t < 0.9 * length)
        if int(near.sum()) < 0.3 * length:
            lines.append(None)
            continue
        vx, vy, x0, y0 = cv2.fitLine(points[near], cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0], np.float32), np.array([vx, vy], np.float32)))
    refined = quad.copy()
    for k in range(4):
        before, after = lines[k - 1], lines[k]
        if before is None or after is None:
            continue
        (p, u), (q, v) = before, after
        cross = float(u[0] * v[1] - u[1] * v[0])
        if abs(cross) < 1e-3:
            continue
        s = float((q[0] - p[0]) * v[1] - (q[1] - p[1]) * v[0]) / cross
        corner = p + s * u
        if float(np.linalg.norm(corner - quad[k])) <= 3 * band:
            refined[k] = corner
    return refined.astype(np.float32)


def square_warp(quad: Quad, side: int) -> npt.NDArray[Any]:
    """The perspective matrix that maps `quad` onto a side x side square."""
    target = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
    matrix: npt.NDArray[Any] = cv2.getPerspectiveTransform(quad, target)
    return matrix


def rect_warp(quad: Quad, width: int, height: int) -> npt.NDArray[Any]:
    target = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    matrix: npt.NDArray[Any] = cv2.getPerspectiveTransform(quad, target)
    return matrix


def map_points(matrix: npt.NDArray[Any], points: npt.NDArray[Any]) -> FloatImage:
    """Points (N, 2) through a perspective matrix."""
    mapped = cv2.perspectiveTransform(points.reshape(-1, 1, 2).astype(np.float32), matrix)
    result: FloatImage = mapped.reshape(-1, 2).astype(np.float32)
    return result


def ruled_profile(ink: FloatImage, axis: int, length: int) -> FloatImage:
    """How much straight line runs through each column (axis=0: vertical lines) or each row
    (axis=1: horizontal lines): the ink that continues for `length` pixels (a grey erosion
    along the line, so faint lines count, a little), summed along the line. Ink is widened by
    a pixel across the line first, so a line that leans by a pixel still counts."""
    across = (3, 1) if axis == 0 else (1, 3)  # (width, height)
    widened = cv2.dilate(ink, np.ones(across[::-1], np.uint8))
    shape = (1, max(3, length)) if axis == 0 else (max(3, length), 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, shape)
    lines = cv2.erode(widened, kernel)
    profile: FloatImage = lines.sum(axis=axis).astype(np.float32)
    return profile


@dataclass(frozen=True)
class Lattice:
    """Line positions of an even lattice along one axis: `positions[k]` for k = 0..count."""

    positions: tuple[float, ...]
    score: float

    @property
    def count(self) -> int:
        return len(self.positions) - 1


def fit_lattice(profile: FloatImage, count: int, span: tuple[float, float]) -> Lattice:
    """Snap the `count`+1 evenly spaced lines between span[0] and span[1] to the nearest peaks
    of a ruled profile. The score (0-10) is the share of inner lines that are really there:
    well above the profile's level between lines and a fair part of the strongest line."""
    start, end = span
    pitch = (end - start) / count
    reach = max(1, int(pitch * 0.18))
    positions = []
    strengths = []
    size = len(profile)
    for k in range(count + 1):
        expected = start + k * pitch
        lo, hi = max(0, int(expected) - reach), min(size, int(expected) + reach + 1)
        if lo >= hi:
            positions.append(expected)
            strengths.append(0.0)
            continue
        window = profile[lo:hi]
        best = int(np.argmax(window))
        strength = float(window[best])
        positions.append(float(lo + best) if strength > 0 else expected)
        strengths.append(strength)
    between = []
    for k in range(count):
        a, b = int(start + (k + 0.3) * pitch), int(start + (k + 0.7) * pitch)
        if 0 <= a < b <= size:
            between.append(float(profile[a:b].mean()))
    floor = float(np.median(between)) if between else 0.0
    extent = float(profile.max()) if size else 0.0
    inner = strengths[1:-1] or strengths
    present = [s > max(3 * floor, 0.1 * extent, 0.5) for s in inner]
    score = 10.0 * sum(present) / len(present)
    return Lattice(tuple(positions), score)


# -- lattices of unknown size (nonograms) --------------------------------------------------------
@dataclass(frozen=True)
class Peak:
    position: float
    strength: float
    width: int


def peaks(profile: FloatImage, share: float = 0.3) -> list[Peak]:
    """The runs of a profile above `share` of its maximum (and well above its median), each
    as its centre of mass, strength and width."""
    if len(profile) == 0:
        return []
    top = float(profile.max())
    if top <= 0:
        return []
    level = max(share * top, 3.0 * float(np.median(profile)))
    above = profile > level
    found = []
    start = None
    for at, on in enumerate([*above.tolist(), False]):
        if on and start is None:
            start = at
        elif not on and start is not None:
            span = profile[start:at]
            centre = float((span * np.arange(start, at)).sum() / max(float(span.sum()), 1e-6))
            found.append(Peak(centre, float(span.max()), at - start))
            start = None
    return found


def pitch_of(positions: list[float]) -> float | None:
    """The most common spacing of neighbouring positions (within 8%), or None."""
    gaps = [b - a for a, b in itertools.pairwise(positions) if b - a >= 4]
    if len(gaps) < 2:
        return None
    best, votes = None, 0
    for gap in gaps:
        agree = [g for g in gaps if abs(g - gap) <= max(1.5, 0.08 * gap)]
        if len(agree) > votes or (len(agree) == votes and best is not None and gap < best):
            best, votes = float(np.median(agree)), len(agree)
    return best


def chain(positions: list[float], pitch: float, bridge: int = 3) -> list[float]:
    """The longest run of lines spaced `pitch` apart (up to `bridge` - 1 missing lines in a
    row, e.g. between filled cells, are put back where they must be), as positions."""
    tolerance = max(3.0, 0.25 * pitch)
    best: list[float] = []
    for start in range(len(positions)):
        run = [positions[start]]
        at = start + 1
        while at < len(positions):
            step = positions[at] - run[-1]
            count = round(step / pitch)
            if count < 1:
                at += 1
                continue
            if count <= bridge and abs(step - count * pitch) <= tolerance * count:
                for _k in range(1, count):
                    run.append(run[-1] + step / count)
                run.append(positions[at])
                at += 1
            else:
                break
        if len(run) > len(best):
            best = run
    return best


def deskew_angle(mask: ByteImage) -> float:
    """The small angle (degrees) by which the picture's long straight lines lean (measured
    on a copy at most 700 pixels wide, to be quick)."""
    factor = min(1.0, 700 / max(mask.shape))
    if factor < 1.0:
        mask = cv2.resize(mask, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
        mask = ((mask > 60) * 255).astype(np.uint8)
    side = max(mask.shape)
    segments = cv2.HoughLinesP(
        mask, 1, np.pi / 720, threshold=60, minLineLength=side // 5, maxLineGap=3
    )
    if segments is None:
        return 0.0
    angles, weights = [], []
    for x0, y0, x1, y1 in np.asarray(segments).reshape(-1, 4):
        dx, dy = float(x1 - x0), float(y1 - y0)
        angle = np.degrees(np.arctan2(dy, dx))
        if abs(angle) > 45:  # vertical: measure its lean from the vertical
            angle = angle - 90 if angle > 0 else angle + 90
        if abs(angle) <= 15:
            angles.append(angle)
            weights.append(np.hypot(dx, dy))
    if not angles:
        return 0.0
    order = np.argsort(angles)
    cumulative = np.cumsum(np.array(weights)[order])
    middle = int(np.searchsorted(cumulative, cumulative[-1] / 2))
    return float(np.array(angles)[order][middle])


def period(profile: FloatImage, shortest: int = 5) -> float | None:
    """The spacing at which a profile repeats (the cell size of a ruled lattice), from its
    autocorrelation: the strongest repeat, or a whole fraction of it that repeats nearly as
    well (every fifth line may be bold: the lattice is the thin lines' spacing)."""
    signal = profile.astype(np.float64) - float(profile.mean())
    n = len(signal)
    if n < 4 * shortest:
        return None
    spectrum = np.fft.rfft(signal, 2 * n)
    auto = np.fft.irfft(spectrum * np.conj(spectrum))[:n]
    if auto[0] <= 0:
        return None
    auto = auto / auto[0]
    longest = n // 3
    lags = range(shortest, longest)
    local = [
        lag
        for lag in lags
        if auto[lag] >= auto[lag - 1] and auto[lag] >= auto[lag + 1] and auto[lag] > 0.05
    ]
    if not local:
        return None
    best = max(local, key=lambda lag: auto[lag])
    for divisor in (5, 4, 3, 2):
        lag = best / divisor
        if lag < shortest:
            continue
        near = [k for k in local if abs(k - lag) <= max(1.0, 0.06 * lag)]
        if near and max(auto[k] for k in near) > 0.15 * auto[best]:
            best = max(near, key=lambda k: auto[k])
            break
    # refine to a fraction of a pixel by the parabola through the peak
    a, b, c = auto[best - 1], auto[best], auto[best + 1]
    shift = 0.5 * (a - c) / (a - 2 * b + c) if (a - 2 * b + c) != 0 else 0.0
    return float(best + max(-0.5, min(0.5, shift)))


def lattice_peaks(profile: FloatImage, pitch: float) -> list[Peak]:
    """The lines of a ruled profile whose spacing is known: local maxima standing well above
    the lowest level within half a cell, narrow (a line, not a filled cell's width)."""
    n = len(profile)
    half = max(1, int(pitch * 0.35))
    reach = max(2, int(pitch * 0.5))
    found: list[Peak] = []
    last = -n  # the index of the last maximum taken (a peak's centre may lie past it)
    for i in range(n):
        value = float(profile[i])
        if value <= 0:
            continue
        lo, hi = max(0, i - half), min(n, i + half + 1)
        window = profile[lo:hi]
        if value < float(window.max()) or i - last < half:
            continue
        last = i
        floor = float(profile[max(0, i - reach) : min(n, i + reach + 1)].min())
        strength = value - floor
        level = floor + strength / 2
        left = i
        while left > 0 and profile[left - 1] > level:
            left -= 1
        right = i
        while right < n - 1 and profile[right + 1] > level:
            right += 1
        span = profile[left : right + 1] - floor
        centre = float((span * np.arange(left, right + 1)).sum() / max(float(span.sum()), 1e-6))
        found.append(Peak(centre, strength, right - left + 1))
    if not found:
        return []
    typical = float(np.median(sorted(p.strength for p in found)[len(found) // 2 :]))
    return [p for p in found if p.strength > 0.2 * typical and p.width <= max(4, 0.45 * pitch)]
