"""Reading a Nonogram from a screenshot or a photo.

1. Straighten: the long ruled lines give the picture's tilt; a photo's perspective is undone
   from the grid's four border lines (fitted to the ink, then the whole picture is warped so
   the grid is a rectangle and the clue areas keep their place beside it).
2. The lattice: the ruled lines' positions along each axis, their common spacing (the cell
   size), and the longest evenly spaced run of them. Filled cells hide lines; evenly spaced
   gaps are filled back in.
3. The grid within the lattice: where the clue areas are boxed too (clue cells on the same
   lattice), the grid is the block whose columns run up through the column clues and whose
   rows run left through the row clues.
4. Clues: the ink above each column (numbers stacked) and left of each row (numbers in a
   line), ruled lines removed, cut into characters; characters side by side and close make
   one number. The recogniser names every character in one batch.
5. The rules read again: row totals must equal column totals, each clue must fit its line,
   and the puzzle must have a solution. When not, the recogniser's next-best values are
   tried for the least certain numbers (core.vision.repair).
"""

from __future__ import annotations

import functools
import itertools
import math
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from pencilbox.core.timing import work_seconds
from pencilbox.core.vision import grid as gridlib
from pencilbox.core.vision import lines as lines_model
from pencilbox.core.vision.glyphs import (
    Blob,
    Guess,
    blobs,
    glyph_image,
    ink_map,
    ink_mask,
    recogniser,
)
from pencilbox.core.vision.lines import LineReading
from pencilbox.core.vision.looks import Looks, kin_of, kin_suspects, look_value
from pencilbox.core.vision.picture import Picture
from pencilbox.core.vision.reading import Reading, ReadNumber, Status, Value, Verdict
from pencilbox.core.vision.repair import REAL_DOUBT, Suspect, search
from pencilbox.errors import FormatError
from pencilbox.genres.nonogram import strips as line_reader
from pencilbox.genres.nonogram.picture_confirm import confirmed

Matrix = npt.NDArray[Any]
MIN_CELLS = 4
DIGITS = "0123456789"
CLEAR = 0.05
"""How far (in cells) a clue stands off the grid's outer line at least (the line's own ink
reaches about this far)."""
CROWDED = "the space beside it could part two numbers as well as two digits of one"
STRUCK = "read through the stroke that strikes it out"
SPECK = 0.5
"""A mark shorter than this share of the clue digits' height is no character."""
GROUND_STEP = 24
"""Grey levels by which the ground around a number may differ from its line's others'."""
BAND_GAP = 3.0
"""How far (in cells) the clues may stand off the grid where every line's stand off alike."""
CLUE_GROUND_CELLS = 4
"""How far beside the grid (in cells) the clues' ground is judged."""
DARK_CLUE_GROUND = 90
"""Below this grey level the clues' ground is dark: their ink is the light."""
TINY = 10
"""Struck characters shorter than this (pixels): the strike is as thick as their own
strokes, and what is read once it is out stays in doubt."""
ZERO = "read as 0, but a 0 stands only alone in a clue"
BLANK = "no clue number was found beside this line"
UNREAD = "a mark here could not be read as a number"
"""The reason given for a line without numbers: it stands in the reading as one number with
no value (so a review screen can show the place and take a number for it), doubted when the
clues read do not make a sound puzzle (a clue was missed, or the line is empty)."""
SOLVE_SECONDS = 2.0
HIDDEN = 12
"""Lines the lattice may put back in a row (filled cells hide them, a solved line hides
them along its length)."""


@dataclass(frozen=True)
class Layout:
    """Where the grid is in the straightened picture: line positions of its columns and
    rows (len = width + 1, height + 1) and the cell size."""

    xs: tuple[float, ...]
    ys: tuple[float, ...]
    pitch: float
    ruling: tuple[tuple[float, ...], tuple[float, ...]] | None = None
    """The whole lattice's lines (columns, rows) where it rules the clue areas too."""
    boxed: bool = False
    """Every clue number in a ruled cell (else the clue areas are ruled one way only:
    lines down the column clues, across the row clues)."""

    @property
    def width(self) -> int:
        return len(self.xs) - 1

    @property
    def height(self) -> int:
        return len(self.ys) - 1

    @property
    def clue_top(self) -> float | None:
        """The top of clue areas ruled as part of the lattice: no clue stands above it, nor
        beside the grid outside its columns. None where the clues stand on the open page."""
        return self.ruling[1][0] if self.ruling else None

    @property
    def clue_left(self) -> float | None:
        """The left side of ruled clue areas (as `clue_top`)."""
        return self.ruling[0][0] if self.ruling else None


@dataclass(frozen=True)
class Glyphs:
    """Characters cut from the clue areas: boxes in the straightened picture."""

    boxes: list[Blob]


# -- straightening ---------------------------------------------------------------------------------
def _straighten(dark_ink: npt.NDArray[Any]) -> tuple[npt.NDArray[Any], Matrix]:
    """The picture turned so its ruled lines are level, and the 3x3 matrix that maps the
    working picture's points to the turned one's."""
    mask = gridlib.line_mask(dark_ink, max(15, max(dark_ink.shape) // 40))
    angle = gridlib.deskew_angle(mask)
    identity = np.eye(3)
    if abs(angle) < 0.15:
        return dark_ink, identity
    h, w = dark_ink.shape
    rotation = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    turned = cv2.warpAffine(
        dark_ink, rotation, (w, h), flags=cv2.INTER_LINEAR, **_plain_border(dark_ink)
    )
    return turned, np.vstack([rotation, [0, 0, 1]])


def _plain_border(image: npt.NDArray[Any]) -> dict[str, Any]:
    """Where a turn or a warp reaches past the picture, an even tone (the median of the
    picture's edge, so the fill meets it without a step): a replicated border would draw
    the edge pixels' noise out into straight streaks, which look like ruled lines."""
    edge = np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]])
    return {"borderMode": cv2.BORDER_CONSTANT, "borderValue": int(np.median(edge))}


def _rectangular(quad: gridlib.Quad) -> bool:
    """True when the four corners could be a rectangle seen at a moderate angle."""
    for k in range(4):
        a, b, c = quad[k - 1], quad[k], quad[(k + 1) % 4]
        u, v = a - b, c - b
        cosine = float(np.dot(u, v) / (np.linalg.norm(u) * np.linalg.norm(v) + 1e-9))
        if abs(cosine) > 0.3:  # more than ~17 degrees from square
            return False
    return True


def _ruled_edges(mask: npt.NDArray[Any], quad: gridlib.Quad) -> bool:
    """True when ink runs along all four sides of the quad (a ruled border, not the outline
    of an L-shaped area cut across its empty corner)."""
    wide = cv2.dilate(mask, np.ones((5, 5), np.uint8))
    for k in range(4):
        a, b = quad[k], quad[(k + 1) % 4]
        steps = max(8, int(np.linalg.norm(b - a) / 2))
        ts = np.linspace(0.05, 0.95, steps)
        points = a[None, :] + (b - a)[None, :] * ts[:, None]
        xs = np.clip(points[:, 0].astype(int), 0, mask.shape[1] - 1)
        ys = np.clip(points[:, 1].astype(int), 0, mask.shape[0] - 1)
        if float((wide[ys, xs] > 0).mean()) < 0.85:
            return False
    return True


def _parallel_sides(quad: gridlib.Quad, degrees: float = 4.0) -> bool:
    """True when each side of the quad runs within `degrees` of the side facing it (a
    rectangle seen in perspective)."""

    def angle(a: Any, b: Any) -> float:
        return math.degrees(math.atan2(float(b[1] - a[1]), float(b[0] - a[0])))

    top, bottom = angle(quad[0], quad[1]), angle(quad[3], quad[2])
    left, right = angle(quad[0], quad[3]), angle(quad[1], quad[2])
    return abs(top - bottom) <= degrees and abs(left - right) <= degrees


def _unwarp(dark_ink: npt.NDArray[Any]) -> tuple[npt.NDArray[Any], Matrix] | None:
    """A photo's perspective undone, in two passes: the largest ruled rectangle (the page's,
    the boxed clue area's or the grid's border) is mapped to an upright rectangle, and the
    rest of the picture with it; then a ruled rectangle inside that one (the grid's border)
    which is still not upright is mapped again: a page's corners, rounded by blur and shadow,
    leave the grid a little askew, and the grid is what must come out square. None when no
    such rectangle is seen, or all are upright already."""
    first = _unwarp_once(dark_ink, None)
    if first is None:
        return None
    image, matrix, inside = first
    second = _unwarp_once(image, inside)
    if second is None:
        return image, matrix
    return second[0], second[1] @ matrix


def _upright(quad: gridlib.Quad, tolerance: float) -> bool:
    """True when the quad's sides are level and plumb within `tolerance` pixels. (A quad is
    judged on its polygon's corners and on the corners fitted to its sides' strokes: thick
    lines round the first off, a striped clue area beside a side tilts the second.)"""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = quad
    return bool(max(abs(y1 - y0), abs(y2 - y3), abs(x3 - x0), abs(x2 - x1)) <= tolerance)


def _plumb(dark_ink: npt.NDArray[Any], quad: gridlib.Quad) -> bool:
    """True when each side of the quad (in `dark_ink`'s pixels) has a perfectly straight
    outer edge along a pixel row or column: a screenshot's border. (Filled cells inside
    the border can bend the outline the quad was fitted to by a few pixels, and a square
    grid must not be warped for that; the edge facing out has the ground beside it.)"""
    h, w = dark_ink.shape
    size = int(max(h, w))
    reach = max(8, size // 100)
    for k in range(4):
        a, b = quad[k], quad[(k + 1) % 4]
        level = k in (0, 2)
        outward = -1 if k in (0, 3) else 1
        edges = []
        for t in np.linspace(0.1, 0.9, 24):
            x, y = a + (b - a) * t
            along, across = (int(x), y) if level else (int(y), x)
            start = int(across) + outward * reach  # outside, then inwards
            limit = h if level else w
            start = min(max(start, 0), limit - 1)
            steps = range(start, start - outward * 2 * reach, -outward)
            if not 0 <= along < (w if level else h):
                return False
            line = dark_ink[:, along] if level else dark_ink[along]
            values = [line[at] for at in steps if 0 <= at < limit]
            if len(values) < reach:
                return False
            ground = float(np.median(values[:3]))
            darker = [i for i, v in enumerate(values) if v < ground - 60]
            if darker:  # none where a clue or a filled cell stands at the start
                edges.append(start - outward * darker[0])
        if not _straight(edges):
            return False
    return True


def _straight(edges: list[int]) -> bool:
    """True when positions found along a side (in order) are one straight edge along a
    pixel row or column: most of them within a pixel of the commonest (a clue standing
    close outside gives a few others), and no drift from the first third to the last."""
    if len(edges) < 12:
        return False
    values, counts = np.unique(edges, return_counts=True)
    common = int(values[np.argmax(counts)])
    near = [e for e in edges if abs(e - common) <= 1]
    third = len(edges) // 3
    drift = abs(float(np.median(edges[:third])) - float(np.median(edges[-third:])))
    return len(near) >= 0.6 * len(edges) and drift <= 1


def _unwarp_once(
    dark_ink: npt.NDArray[Any], within: npt.NDArray[Any] | None
) -> tuple[npt.NDArray[Any], Matrix, npt.NDArray[Any]] | None:
    """One pass of `_unwarp`: the warped picture, its matrix and the rectangle the quad went
    to (x0, y0, x1, y1). `within`: only quads inside this rectangle count."""
    h, w = dark_ink.shape
    factor = min(1.0, 900 / max(h, w))
    small = cv2.resize(dark_ink, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    mask = gridlib.line_mask(small, max(small.shape) // 30)
    found = gridlib.quads(mask, min_area=0.08 * small.shape[0] * small.shape[1])
    for quad in found[:4]:
        # the outline's corners, or the sides fitted to its strokes (a printed page's
        # border bends a little: a chord of it leaves the ink in places), these only when
        # opposite sides run alike (an L-shaped outline cut across its empty corner has
        # one side slanting away from the side facing it)
        if not _rectangular(quad) or not (
            _ruled_edges(mask, quad)
            or (_parallel_sides(quad) and _ruled_edges(mask, gridlib.refine_quad(mask, quad)))
        ):
            continue
        rough = quad / factor
        box_x0, box_y0 = rough.min(axis=0)
        box_x1, box_y1 = rough.max(axis=0)
        if within is not None:
            margin = 0.01 * max(h, w)
            if box_x0 < within[0] + margin or box_y0 < within[1] + margin:
                continue
            if box_x1 > within[2] - margin or box_y1 > within[3] - margin:
                continue
        quad = gridlib.refine_quad(mask, quad) / factor
        upright = _upright(rough, 1.5 / factor) or _upright(quad, 1.5 / factor)
        if upright or _plumb(dark_ink, rough) or _upright_twin(rough, found[:4], mask, factor):
            if within is None:
                return None  # the largest is upright: a screenshot, left as it is
            continue
        width = float(np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])) / 2
        height = float(np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2
        target = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
        matrix = cv2.getPerspectiveTransform(quad.astype(np.float32), target)
        corners = gridlib.map_points(matrix, np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32))
        lo, hi = corners.min(axis=0), corners.max(axis=0)
        shift = np.array([[1, 0, -lo[0]], [0, 1, -lo[1]], [0, 0, 1]])
        matrix = shift @ matrix
        size = (int(min(3000, hi[0] - lo[0])), int(min(3000, hi[1] - lo[1])))
        warped = cv2.warpPerspective(
            dark_ink, matrix, size, flags=cv2.INTER_LINEAR, **_plain_border(dark_ink)
        )
        placed = np.array([-lo[0], -lo[1], width - lo[0], height - lo[1]], np.float32)
        return warped, matrix, placed
    return None


def _upright_twin(
    rough: gridlib.Quad, found: list[gridlib.Quad], mask: npt.NDArray[Any], factor: float
) -> bool:
    """True when another outline found covers the same box as `rough` (nine tenths of their
    union) and is upright, as found or fitted to its strokes: one border seen twice, once
    bent by what stands beside it (a web page's patterned margin along a frame joins the
    frame's line in the mask)."""
    box = _box(rough)
    for other in found:
        twin = other / factor
        fitted = gridlib.refine_quad(mask, other) / factor
        upright = _upright(twin, 1.5 / factor) or _upright(fitted, 1.5 / factor)
        if upright and _box_overlap(box, _box(twin)) >= 0.9:
            return True
    return False


def _box(quad: gridlib.Quad) -> tuple[float, float, float, float]:
    (x0, y0), (x1, y1) = quad.min(axis=0), quad.max(axis=0)
    return float(x0), float(y0), float(x1), float(y1)


def _box_overlap(
    a: tuple[float, float, float, float], b: tuple[float, float, float, float]
) -> float:
    """The boxes' intersection over their union."""
    width = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    height = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = width * height
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def _lattice(dark_ink: npt.NDArray[Any]) -> tuple[list[float], list[float], float, Any]:
    """Vertical and horizontal line positions of the longest even lattice, the cell size,
    and the ink map made for it."""
    # the cell size, first measured on a copy at most 800 pixels wide
    factor = min(1.0, 800 / max(dark_ink.shape))
    small = cv2.resize(dark_ink, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    h, w = small.shape
    ink = ink_map(small, window=max(9, min(h, w) // 40))
    length = max(12, min(h, w) // 14)
    across = gridlib.ruled_profile(ink, 0, length)
    down = gridlib.ruled_profile(ink, 1, length)
    found = gridlib.period(across) or gridlib.period(down)
    if found is None:
        raise FormatError("no grid found (no evenly ruled lines)")
    profiles = [across, down]
    pitch = _as_measured(profiles, _finest(profiles, found)) / factor
    # again, with strokes measured against the cell size: filled cells are not lines, and a
    # line counts where it runs for most of a cell (filled cells may hide the rest)
    ink = ink_map(dark_ink, window=max(5, int(pitch * 0.5)))
    length = max(6, int(pitch * 0.8))
    xs = [p.position for p in gridlib.lattice_peaks(gridlib.ruled_profile(ink, 0, length), pitch)]
    ys = [p.position for p in gridlib.lattice_peaks(gridlib.ruled_profile(ink, 1, length), pitch)]
    pitch_x = _agreeing(gridlib.pitch_of(xs), pitch)
    pitch_y = _agreeing(gridlib.pitch_of(ys), pitch)
    # rows of filled cells hide the lines between them (the ink map sees no line beside a
    # filled area): a run of lines may miss many, put back only where filled cells or the
    # lines across justify it (`_bridged_where_hidden`)
    cols = _even_ends(gridlib.chain(xs, pitch_x, HIDDEN), xs, pitch_x)
    rows = _even_ends(gridlib.chain(ys, pitch_y, HIDDEN), ys, pitch_y)
    strokes = _strokes(ink)
    dark = _filled(dark_ink)
    cols, rows = _where_hidden((cols, rows), (set(xs), set(ys)), dark, strokes)
    if len(cols) < MIN_CELLS + 1 or len(rows) < MIN_CELLS + 1:
        raise FormatError("no grid found (fewer than 4 evenly ruled rows or columns)")
    cols, rows = _extend(cols, rows, dark, strokes)
    return cols, rows, (pitch_x + pitch_y) / 2, ink


def _finest(profiles: list[npt.NDArray[Any]], pitch: float) -> float:
    """The cell size, when the period found is that of thick guide lines every few cells
    (black lines 5 cells apart outweigh faint grey ones between them, and a small board's
    thick border, 7 cells apart say, outweighs its faint inner lines): the largest division
    of the period whose lines are there too, one after another a division apart. The
    `profiles` (across, down) count lines where they run straight for longer than a digit,
    so the stems of clue digits in the middle of cells are no lines."""
    for divisor in range(12, 1, -1):
        finer = pitch / divisor
        if finer >= 5 and _divides(profiles, finer, divisor):
            return finer
    return pitch


def _as_measured(profiles: list[npt.NDArray[Any]], pitch: float) -> float:
    """The cell size as the ruled lines measure it, when the period found is a fraction of
    it that no run of lines bears out (the autocorrelation of a board with every other
    line stronger can peak at two thirds of a cell): the lines' own spacing, if they stand
    at it one after another for longer runs than at the period."""
    found = [_lines_at(profile, pitch) for profile in profiles]
    spacing = gridlib.pitch_of(found[0]) or gridlib.pitch_of(found[1])
    if spacing is None or abs(spacing - pitch) <= 0.08 * pitch:
        return pitch
    at_period = max(_longest_run(lines, pitch) for lines in found)
    at_spacing = max(_longest_run(_lines_at(profile, spacing), spacing) for profile in profiles)
    return spacing if at_spacing >= 3 and at_spacing > 2 * at_period else pitch


def _lines_at(profile: npt.NDArray[Any], pitch: float) -> list[float]:
    return [p.position for p in gridlib.lattice_peaks(profile, pitch)]


def _longest_run(lines: list[float], pitch: float) -> int:
    """The longest run of `lines`, each a pitch from the next (none put back)."""
    run = longest = 0
    for a, b in itertools.pairwise(lines):
        run = run + 1 if abs(b - a - pitch) <= 0.12 * pitch else 0
        longest = max(longest, run)
    return longest


def _divides(profiles: list[npt.NDArray[Any]], finer: float, divisor: int) -> bool:
    """Whether lines a `finer` pitch apart stand between the period's: for guide lines every
    2-5 cells, over two blocks at least in one direction; for a larger division (a border,
    which no grid repeats), at that spacing in both directions, three in a row in one."""
    runs = []
    for profile in profiles:
        lines = _lines_at(profile, finer)
        spacing = gridlib.pitch_of(lines)
        off = spacing is None or abs(spacing - finer) > 0.08 * finer
        runs.append(-1 if off else _longest_run(lines, finer))
    if divisor <= 5:
        return max(runs) >= 2 * divisor
    return min(runs) >= 0 and max(runs) >= 3


def _even_ends(lines: list[float], found: list[float], pitch: float) -> list[float]:
    """The run of lines without outer lines that are off the lattice: a ruled grid's lines
    stand on an even lattice to a pixel or two (a photo's left-over perspective bends it
    only slowly), while a page's edge or a table's texture beside the grid may pass for a
    line or two more, a fifth of a cell off (and the lines put back between them look even).
    The lattice is fitted to the lines really found; an end line found off it by more than
    a tenth of a cell is dropped, and the fit made again."""
    tolerance = max(2.0, 0.1 * pitch)
    seen = set(found)
    while len(lines) > MIN_CELLS + 1:
        at = [k for k, x in enumerate(lines) if x in seen]
        if len(at) < 3:
            break
        slope, offset = np.polyfit(at, [lines[k] for k in at], 1)
        first, last = at[0], at[-1]
        off_first = abs(lines[first] - (offset + slope * first))
        off_last = abs(lines[last] - (offset + slope * last))
        if max(off_first, off_last) <= tolerance:
            break
        lines = lines[:last] if off_last >= off_first else lines[first + 1 :]
    return lines


def _strongest(ink: npt.NDArray[Any]) -> float:
    """The level of the strongest ink (its 99.5th percentile, on every other pixel of every
    other row: as good a measure, four times as quick)."""
    return float(np.percentile(ink[::2, ::2], 99.5))


def _strokes(ink: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """Where the ink is a stroke (a ruled line, a character), against the strongest ink."""
    strokes: npt.NDArray[Any] = ink > max(0.05, 0.12 * _strongest(ink))
    return strokes


def _filled(image: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """Where the picture is dark enough to be a filled cell (much darker than its median)."""
    dark: npt.NDArray[Any] = image < 0.55 * float(np.median(image))
    return dark


def _trimmed(
    cols: list[float],
    rows: list[float],
    dark: npt.NDArray[Any],
    strokes: npt.NDArray[Any],
) -> tuple[list[float], list[float]]:
    """The lattice without outer strips that are not part of a grid (no lines across them,
    no filled cells): evenly spaced lines can continue past the grid's border by chance
    (the page's edge, a table's texture). A strip of the grid hidden by filled cells is
    grid-like, and `_extend` would put it back anyway."""
    for _ in range(4):
        before = (len(cols), len(rows))
        while len(cols) > MIN_CELLS + 1 and not _grid_like(
            dark, strokes, rows, cols[-2], cols[-1], True
        ):
            cols = cols[:-1]
        while len(cols) > MIN_CELLS + 1 and not _grid_like(
            dark, strokes, rows, cols[0], cols[1], True
        ):
            cols = cols[1:]
        while len(rows) > MIN_CELLS + 1 and not _grid_like(
            dark, strokes, cols, rows[-2], rows[-1], False
        ):
            rows = rows[:-1]
        while len(rows) > MIN_CELLS + 1 and not _grid_like(
            dark, strokes, cols, rows[0], rows[1], False
        ):
            rows = rows[1:]
        if (len(cols), len(rows)) == before:
            break
    return cols, rows


def _where_hidden(
    chained: tuple[list[float], list[float]],
    found: tuple[set[float], set[float]],
    dark: npt.NDArray[Any],
    strokes: npt.NDArray[Any],
) -> tuple[list[float], list[float]]:
    """The columns' and rows' lines of the grid, from the runs of them `chained` (lines put
    back between those `found`): each direction's lines put back are judged against the
    other's (`_bridged_where_hidden`), and the lattice trimmed to the grid."""

    def judged(cols: list[float], rows: list[float]) -> tuple[list[float], list[float]]:
        return _trimmed(
            _bridged_where_hidden(chained[0], found[0], rows, dark, strokes, True),
            _bridged_where_hidden(chained[1], found[1], cols, dark, strokes, False),
            dark,
            strokes,
        )

    cols, rows = judged(*chained)
    if min(len(cols), len(rows)) < MIN_CELLS + 1 <= max(len(cols), len(rows)):
        # the lines across that vouched for a hidden line ran on into the clue areas, whose
        # cells are neither filled nor ruled: judged again against the lines kept across
        # (columns of filled and crossed cells hide most of their lines)
        cols, rows = judged(cols, rows)
    return cols, rows


def _bridged_where_hidden(
    lines: list[float],
    found: set[float],
    across: list[float],
    dark: npt.NDArray[Any],
    strokes: npt.NDArray[Any],
    vertical: bool,
) -> list[float]:
    """The lattice's lines kept only where a line put back between two found ones is
    justified: filled cells hid it, or the lines across run through its cells (the strip
    looks like part of the grid). Elsewhere (the blank paper between the grid's border
    and the page's edge, say) the run is cut, and the longest piece is kept."""
    pieces = [[lines[0]]]
    at = 1
    while at < len(lines):
        end = at
        while end < len(lines) - 1 and lines[end] not in found:
            end += 1
        hidden = all(
            _grid_like(dark, strokes, across, lines[k - 1], lines[k], vertical)
            for k in range(at, end + 1)
        )
        if end == at or hidden:
            pieces[-1].extend(lines[at : end + 1])
        else:
            pieces.append([lines[end]])
        at = end + 1
    return max(pieces, key=len)


def _grid_like(
    dark: npt.NDArray[Any],
    strokes: npt.NDArray[Any],
    lines: list[float],
    lo: float,
    hi: float,
    vertical_strip: bool,
) -> bool:
    """True when the strip between lo and hi across the lattice (a column strip when
    `vertical_strip`) looks like part of the grid: in most of its cells a filled square or
    a ruled line across it. An outer line hidden by filled cells is then put back.
    `dark`: the picture's filled pixels (`_filled`)."""
    hits = 0
    cells = len(lines) - 1
    if cells < 1 or hi - lo < 3:
        return False
    fill_counts = not _dark_beyond(dark, lines, lo, hi, vertical_strip)
    for k in range(cells):
        a, b = lines[k], lines[k + 1]
        inset_a, inset_b = a + 0.2 * (b - a), b - 0.2 * (b - a)
        inset_lo, inset_hi = lo + 0.2 * (hi - lo), hi - 0.2 * (hi - lo)
        if vertical_strip:
            patch = dark[int(inset_a) : int(inset_b), int(inset_lo) : int(inset_hi)]
        else:
            patch = dark[int(inset_lo) : int(inset_hi), int(inset_a) : int(inset_b)]
        filled = fill_counts and patch.size > 0 and float(patch.mean()) > 0.6
        ruled = _present(strokes, a, lo, hi, not vertical_strip) or _present(
            strokes, b, lo, hi, not vertical_strip
        )
        hits += filled or ruled
    return hits >= 0.6 * cells


def _dark_beyond(
    dark: npt.NDArray[Any], lines: list[float], lo: float, hi: float, vertical_strip: bool
) -> bool:
    """True when the strip between lo and hi is dark past both ends of the lattice too (half
    a cell beyond its first and last line, where they are in the picture): the table
    beside a photographed page, not filled cells, which end at the grid's border."""
    pitch = (lines[-1] - lines[0]) / max(1, len(lines) - 1)
    inset_lo, inset_hi = int(lo + 0.2 * (hi - lo)), int(hi - 0.2 * (hi - lo))
    limit = dark.shape[0] if vertical_strip else dark.shape[1]
    seen = []
    for a, b in (
        (lines[0] - 0.5 * pitch, lines[0] - 0.15 * pitch),
        (lines[-1] + 0.15 * pitch, lines[-1] + 0.5 * pitch),
    ):
        a, b = int(max(0, a)), int(min(limit, b))
        if b - a < 2:
            continue
        patch = dark[a:b, inset_lo:inset_hi] if vertical_strip else dark[inset_lo:inset_hi, a:b]
        if patch.size:
            seen.append(float(patch.mean()) > 0.6)
    return bool(seen) and all(seen)


def _extend(
    cols: list[float],
    rows: list[float],
    dark: npt.NDArray[Any],
    strokes: npt.NDArray[Any],
) -> tuple[list[float], list[float]]:
    """The lattice grown cell by cell at an edge whose outer lines filled cells hid (the
    first columns of a part-solved grid, say)."""
    h, w = dark.shape
    for _ in range(HIDDEN):
        grown = False
        px = (cols[-1] - cols[0]) / max(1, len(cols) - 1)
        py = (rows[-1] - rows[0]) / max(1, len(rows) - 1)
        if cols[0] - px >= 0 and _grid_like(dark, strokes, rows, cols[0] - px, cols[0], True):
            cols = [cols[0] - px, *cols]
            grown = True
        if cols[-1] + px < w and _grid_like(dark, strokes, rows, cols[-1], cols[-1] + px, True):
            cols = [*cols, cols[-1] + px]
            grown = True
        if rows[0] - py >= 0 and _grid_like(dark, strokes, cols, rows[0] - py, rows[0], False):
            rows = [rows[0] - py, *rows]
            grown = True
        if rows[-1] + py < h and _grid_like(dark, strokes, cols, rows[-1], rows[-1] + py, False):
            rows = [*rows, rows[-1] + py]
            grown = True
        if not grown:
            break
    return cols, rows


def _agreeing(measured: float | None, period: float) -> float:
    """The spacing of the lines found when it agrees with the lattice's period, else the
    period (rounding can make neighbouring gaps alternate between two values)."""
    if measured is None or abs(measured - period) > 0.06 * period:
        return period
    return measured


def _present(strokes: npt.NDArray[Any], at: float, lo: float, hi: float, vertical: bool) -> bool:
    """True when a ruled line runs along `at` from lo to hi (most of the way)."""
    a, b = round(lo) + 1, round(hi)
    if b <= a:
        return False
    x = round(at)
    if vertical:
        band = strokes[a:b, max(0, x - 1) : x + 2]
        return bool(band.any(axis=1).mean() > 0.7)
    band = strokes[max(0, x - 1) : x + 2, a:b]
    return bool(band.any(axis=0).mean() > 0.7)


def _grid_block(
    cols: list[float],
    rows: list[float],
    ink: npt.NDArray[Any],
    pitch: float,
    image: npt.NDArray[Any],
) -> Layout:
    """The grid within a lattice that may also box the clues. Boxed clue areas leave the
    lattice's top-left corner empty (no lines above the row clues and left of the column
    clues) while their own cells are ruled: the grid is what lies right of and below that
    corner. Without such a corner, the whole lattice is the grid. Filled cells hide their
    lines but are grid all the same (a part-solved grid's filled top-left is no corner)."""
    strokes = _strokes(ink)
    dark = _filled(image)
    nx, ny = len(cols) - 1, len(rows) - 1
    ruled = np.zeros((ny, nx), np.float32)
    darkness = _cell_means(cols, rows, dark)  # the share of each cell's middle that is dark
    filled = darkness > 0.6
    ground = _dark_ground(cols, rows, darkness, image)
    top, left = int(ground[:, 0].sum()), int(ground[0].sum())
    dark_corner = top and left and ground[:top, :left].all() and int(ground.sum()) == top * left
    if dark_corner and ny - top >= MIN_CELLS and nx - left >= MIN_CELLS:
        return _clue_lattice(cols, rows, top, left, pitch, boxed=False)
    top, left = _open_clue_bands(cols, rows, strokes, filled)
    if top or left:
        return _clue_lattice(cols, rows, top, left, pitch, boxed=False)
    framed = np.zeros((ny, nx), np.float32)
    for j in range(ny):
        for k in range(nx):
            if filled[j, k]:
                ruled[j, k] = framed[j, k] = 1.0
                continue
            # a cell's left and top sides: the corner's cells have neither, even those
            # whose right or bottom side is the clue areas' first line
            left_side = _present(strokes, cols[k], rows[j], rows[j + 1], True)
            top_side = _present(strokes, rows[j], cols[k], cols[k + 1], False)
            ruled[j, k] = (left_side + top_side) / 2
            # a printed page's border runs around the empty corner too: the lattice's own
            # outer sides tell nothing (the first cell is judged by its inner sides)
            if j and k:
                framed[j, k] = ruled[j, k]
            elif j or k:
                framed[j, k] = float(top_side if j else left_side)
            else:
                framed[j, k] = (
                    _present(strokes, cols[1], rows[0], rows[1], True)
                    + _present(strokes, rows[1], cols[0], cols[1], False)
                ) / 2
    found = _clue_corner(ruled) or _clue_corner(framed)
    if found is None or _filled_clue_cells(filled, *found):
        return Layout(tuple(cols), tuple(rows), pitch)
    top, left = found
    return _clue_lattice(cols, rows, top, left, pitch, boxed=True)


def _filled_clue_cells(filled: npt.NDArray[Any], top: int, left: int) -> bool:
    """True when the clue cells of a corner found `top` rows deep and `left` columns wide
    are `filled` in a quarter or more: clue cells hold numbers, filled cells are the grid's
    (a part-played grid's filled first row and column hide the lines around its corner
    cell, which then looks like an empty corner one cell wide)."""
    return bool(max(filled[:top, left:].mean(), filled[top:, :left].mean()) >= 0.25)


def _clue_corner(ruled: npt.NDArray[Any]) -> tuple[int, int] | None:
    """The empty corner of a lattice whose clue cells are ruled (how many rows and columns it
    takes), from how ruled each cell is (0 to 1); None when there is none."""
    ny, nx = ruled.shape
    corners: list[tuple[float, int, int]] = []
    for top in range(1, ny - MIN_CELLS + 1):
        for left in range(1, nx - MIN_CELLS + 1):
            corner = float(ruled[:top, :left].mean())
            above = float(ruled[:top, left:].mean())
            beside = float(ruled[top:, :left].mean())
            contrast = min(above, beside) - corner
            if corner < 0.15 and contrast > 0.3:
                corners.append((contrast, top, left))
    if not corners:
        return None
    # the sharpest corner wins: one more column or row of ruled cells taken into it lowers
    # the contrast, one fewer leaves empty cells in the clue areas. Near the sharpest, the
    # largest: a clue column whose lines a highlighted row hides in places (or a line
    # missed under a digit) lowers the contrast a little, and is clue area all the same.
    sharpest = max(c for c, _, _ in corners)
    near = [(top * left, contrast, top, left) for contrast, top, left in corners]
    _, _, top, left = max(item for item in near if item[1] >= sharpest - 0.05)
    return top, left


def _clue_lattice(
    cols: list[float], rows: list[float], top: int, left: int, pitch: float, boxed: bool
) -> Layout:
    """The grid of a lattice that rules its clue areas too: below its first `top` rows and
    right of its first `left` columns."""
    return Layout(
        tuple(cols[left:]),
        tuple(rows[top:]),
        pitch,
        ruling=(tuple(cols), tuple(rows)),
        boxed=boxed,
    )


def _open_clue_bands(
    cols: list[float], rows: list[float], strokes: npt.NDArray[Any], filled: npt.NDArray[Any]
) -> tuple[int, int]:
    """How many of the lattice's first rows and columns are clue bands ruled one way only
    (phone apps): the column clues stand in strips between vertical lines with no line
    across them, the row clues in strips between horizontal lines. Judged across the far
    third of the lattice (grid cells whatever the layout): the top band's lines across are
    missing there, each one from the second line on, every line after them is there, and
    the lines down the band are there. A line beside a filled cell is taken as there
    (filled cells hide their lines; `filled`: the lattice's filled cells). (0, 0) when
    there is no such band."""
    nx, ny = len(cols) - 1, len(rows) - 1

    def gaps(j: int, vertical: bool, span: range) -> float:
        """The share of cells in `span` along which line j is missing."""
        missing = 0
        for k in span:
            if vertical:
                hidden = 0 < j < nx and (filled[k, j - 1] or filled[k, j])
                there = _present(strokes, cols[j], rows[k], rows[k + 1], True)
            else:
                hidden = 0 < j < ny and (filled[j - 1, k] or filled[j, k])
                there = _present(strokes, rows[j], cols[k], cols[k + 1], False)
            missing += not (there or hidden)
        return missing / max(1, len(span))

    def across(j: int, vertical: bool, depth: int) -> bool:
        """True when line j runs across the first `depth` cells of the other band. The
        lattice's outer line beside a filled cell there is a button's edge, not a line."""
        beside = filled[:depth, 0] if vertical else filled[0, :depth]
        if j == 0 and beside.any():
            return False
        return gaps(j, vertical, range(depth)) <= 0.5

    def band(count: int, cross: int, vertical: bool) -> int:
        far = range(cross - max(1, cross // 3), cross)
        shares = [gaps(j, vertical, far) for j in range(1, count)]
        size = next((i for i, share in enumerate(shares) if share < 0.8), len(shares))
        if not size or size >= count // 2 or any(share > 0.2 for share in shares[size:]):
            return 0
        width = size + 1
        # the lines down the band (along the lines missing across it) are there
        down = [gaps(k, not vertical, range(width)) for k in far]
        return width if float(np.mean(down)) <= 0.5 else 0

    top, left = band(ny, nx, False), band(nx, ny, True)
    # a band one line deep has no line missing inside it: the other band tells where the
    # grid starts, at the first line that runs across it (the corner above it has none)
    if left and not top:
        top = next((j for j in range(ny // 2) if across(j, False, left)), 0)
    if top and not left:
        left = next((k for k in range(nx // 2) if across(k, True, top)), 0)
    if ny - top < MIN_CELLS or nx - left < MIN_CELLS:
        return 0, 0
    return top, left


def _cell_means(cols: list[float], rows: list[float], plane: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """The mean of `plane` in each cell of the lattice, its sides left out."""
    means = np.zeros((len(rows) - 1, len(cols) - 1), np.float64)
    for j in range(len(rows) - 1):
        for k in range(len(cols) - 1):
            inset_x, inset_y = 0.2 * (cols[k + 1] - cols[k]), 0.2 * (rows[j + 1] - rows[j])
            patch = plane[
                int(rows[j] + inset_y) : int(rows[j + 1] - inset_y),
                int(cols[k] + inset_x) : int(cols[k + 1] - inset_x),
            ]
            means[j, k] = float(patch.mean()) if patch.size else 0.0
    return means


def _dark_ground(
    cols: list[float], rows: list[float], darkness: npt.NDArray[Any], image: npt.NDArray[Any]
) -> npt.NDArray[Any]:
    """The lattice's cells that are the page's dark ground, not filled cells: a light board
    on a dark page (puzzle-nonograms.com) leaves its corner above the row clues unruled and
    as dark as the page around the board. Such cells join the ground above the lattice or
    left of it, through cells as dark and of the same shade (a filled cell is black, the
    ground a lighter grey or a colour; ruled, it is cut off by lines). A light page has no
    dark ground: none."""
    ground = np.zeros((len(rows) - 1, len(cols) - 1), bool)
    margin = int(0.6 * (cols[1] - cols[0]))
    top, left = int(rows[0]), int(cols[0])
    strips = [
        image[max(0, top - margin) : max(0, top - 2), left : int(cols[-1])],
        image[top : int(rows[-1]), max(0, left - margin) : max(0, left - 2)],
    ]
    strips = [strip for strip in strips if strip.size]
    if not strips or not all(
        float(np.mean(strip < 0.55 * float(np.median(image)))) > 0.9 for strip in strips
    ):
        return ground
    shade = float(np.median(np.concatenate([strip.ravel() for strip in strips])))
    filled = darkness > 0.9  # (`darkness`: the dark share of each cell, `_cell_means`)
    alike = np.abs(_cell_means(cols, rows, image) - shade) < 12
    candidates = filled & alike
    # grow from the lattice's top-left cell, along its first row and column
    if not candidates[0, 0]:
        return ground
    stack = [(0, 0)]
    while stack:
        j, k = stack.pop()
        if ground[j, k]:
            continue
        ground[j, k] = True
        for nj, nk in ((j + 1, k), (j, k + 1), (j - 1, k), (j, k - 1)):
            if 0 <= nj < ground.shape[0] and 0 <= nk < ground.shape[1] and candidates[nj, nk]:
                stack.append((nj, nk))
    return ground


# -- clues -----------------------------------------------------------------------------------------
def _clue_mask(ink: npt.NDArray[Any], pitch: float, faint: bool = False) -> npt.NDArray[Any]:
    """The clue ink, with ruled lines (long straight strokes) taken out. Two thresholds: a
    low one draws each character's outline, so greyed-out clues keep their shape, and a
    piece is kept only if some of it is clearly ink (noise and paper grain are not).
    `faint`: thresholds half as high, for a second look where nothing was found."""
    strong = _strongest(ink)
    share = 0.5 if faint else 1.0
    mask = ink_mask(ink, share * max(0.07, 0.12 * strong), share * max(0.14, 0.2 * strong))
    long = max(5, int(pitch * 0.95))
    horizontal = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((1, long), np.uint8))
    vertical = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((long, 1), np.uint8))
    lines = cv2.dilate(cv2.bitwise_or(horizontal, vertical), np.ones((2, 2), np.uint8))
    cleaned: npt.NDArray[Any] = cv2.bitwise_and(mask, cv2.bitwise_not(lines))
    return cleaned


def _without_ruling(mask: npt.NDArray[Any], layout: Layout) -> npt.NDArray[Any]:
    """The clue mask without the lines that rule clue cells (boxed: all four sides; bands
    ruled one way: the sides along the band). Each is a cell long, no longer than a digit is
    tall when photographed askew, so the line removal leaves pieces of them, 1s to the
    recogniser. Each side is erased where a line runs along it (`_erase_line`)."""
    if layout.ruling is None:
        return mask
    cols, rows = layout.ruling
    reach = max(3, int(0.15 * layout.pitch))  # a photo's lines stand a little off the lattice
    cleaned = mask.copy()
    grid_x, grid_y = (layout.xs[0], layout.xs[-1]), (layout.ys[0], layout.ys[-1])
    for j in range(len(rows) - 1):
        for k in range(len(cols) - 1):
            middle_x, middle_y = (cols[k] + cols[k + 1]) / 2, (rows[j] + rows[j + 1]) / 2
            if grid_x[0] < middle_x < grid_x[1] and grid_y[0] < middle_y < grid_y[1]:
                continue  # a cell of the grid: no clue there
            # clue bands ruled one way: lines down the column clues, across the row clues
            if layout.boxed or middle_y < grid_y[0]:
                for side in (cols[k], cols[k + 1]):
                    _erase_line(cleaned, rows[j], rows[j + 1], side, reach, vertical=True)
            if layout.boxed or middle_x < grid_x[0]:
                for side in (rows[j], rows[j + 1]):
                    _erase_line(cleaned, cols[k], cols[k + 1], side, reach, vertical=False)
    return cleaned


def _erase_line(
    mask: npt.NDArray[Any], lo: float, hi: float, at: float, reach: int, vertical: bool
) -> None:
    """Erase from `mask` (in place) the line along one side of a cell, from `lo` to `hi`,
    near `at` (within `reach` pixels): the columns (rows) inked over most of the side, with
    those beside them inked over a fifth of it (a line tilted a pixel or two)."""
    a, b = max(0, int(lo)), int(hi) + 1
    c0, c1 = max(0, round(at) - reach), round(at) + reach + 1
    view = mask[a:b, c0:c1] if vertical else mask[c0:c1, a:b].T
    if not view.size:
        return
    coverage = (view > 0).mean(axis=0)
    peak = int(np.argmax(coverage))
    if coverage[peak] < 0.3:
        return
    start, end = peak, peak + 1
    while start > 0 and coverage[start - 1] > 0.2:
        start -= 1
    while end < len(coverage) and coverage[end] > 0.2:
        end += 1
    # a line broken by noise (a photo) covers less of the side, but it is thinner than a
    # digit's stroke standing that close (a 1's stem beside the line is kept), and it runs
    # into both ends of the side, where no digit reaches (a 7's bar under the line)
    if coverage[peak] < 0.6:
        along: npt.NDArray[Any] = np.asarray((view[:, max(0, start - 1) : end + 1] > 0).any(axis=1))
        tip = max(1, len(along) // 7)
        if end - start > max(3, reach // 2) or not (along[:tip].any() and along[-tip:].any()):
            return
    view[:, max(0, start - 1) : end + 1] = 0


def _characters(mask: npt.NDArray[Any], layout: Layout) -> list[Blob]:
    """Pieces of ink the size of a clue character outside the grid (pieces of one broken
    character joined). The player's marks in the grid (dots, crosses) are left out: they
    are no clue, and small and many, they would pass for the characters' size."""
    pitch = layout.pitch
    found, _ = blobs(mask, min_area=max(2, int(pitch * pitch * 0.004)))
    parts = [
        b
        for b in found
        if b.height <= 1.1 * pitch
        and b.width <= 1.3 * pitch
        and not (layout.xs[0] < b.cx < layout.xs[-1] and layout.ys[0] < b.cy < layout.ys[-1])
    ]
    parts.sort(key=lambda b: (b.x0, b.y0))
    # pieces of one character stay within a character's height; two numbers stacked close
    # in a column clue (less than a tenth of a cell apart in tight layouts) are two
    whole = [b.height for b in parts if b.height >= 0.22 * pitch]
    tallest = 1.35 * float(np.median(whole)) if whole else 1.1 * pitch
    merged: list[Blob] = []
    # the merged pieces by the cell-sized square their top left corner stands in (a photo of
    # a big puzzle has tens of thousands of specks: each piece is compared only with those
    # near it; the merged pieces' left sides never decrease, as the pieces come sorted)
    band = max(1.0, pitch)
    by_band: dict[tuple[int, int], list[int]] = {}

    def square(b: Blob) -> tuple[int, int]:
        return int(b.x0 // band), int(b.y0 // band)

    for blob in parts:  # a piece inside another's column span and overlapping in height
        joined = False
        near_x = range(int((blob.x0 - 1.4 * pitch) // band), int(blob.x0 // band) + 1)
        near_y = range(int((blob.y0 - 2 * pitch) // band), int((blob.y1 + pitch) // band) + 1)
        near = sorted(
            (at for x in near_x for y in near_y for at in by_band.get((x, y), ())), reverse=True
        )
        for at in near:  # the latest first, as they stand in `merged`
            other = merged[at]
            if other.x0 < blob.x0 - 1.4 * pitch:
                continue
            overlap_x = min(blob.x1, other.x1) - max(blob.x0, other.x0)
            overlap_y = min(blob.y1, other.y1) - max(blob.y0, other.y0)
            joined_height = max(blob.y1, other.y1) - min(blob.y0, other.y0)
            if (
                overlap_x > 0.6 * min(blob.width, other.width)
                and overlap_y > -0.3 * pitch
                and joined_height <= tallest
            ):
                merged[at] = other.union(blob)
                by_band[square(other)].remove(at)
                by_band.setdefault(square(merged[at]), []).append(at)
                joined = True
                break
        if not joined:
            merged.append(blob)
            by_band.setdefault(square(blob), []).append(len(merged) - 1)
    tall = [b for b in merged if b.height >= 0.22 * pitch]
    if not tall:
        return []
    height = float(np.median([b.height for b in tall]))
    return [b for b in tall if b.height >= 0.55 * height]


# -- struck-through clues -------------------------------------------------------------------------
Point = tuple[float, float]
Segment = tuple[Point, Point, int]
"""A straight stroke in a character's box: its two ends (x, y) and its thickness."""


def _coverage(wide: npt.NDArray[Any], start: Point, end: Point) -> float:
    """The share of points along a segment that fall on ink."""
    steps = max(4, int(math.hypot(end[0] - start[0], end[1] - start[1])) + 1)
    xs = np.linspace(start[0], end[0], steps).round().astype(int)
    ys = np.linspace(start[1], end[1], steps).round().astype(int)
    return float(wide[ys, xs].mean())


def _strike_through(patch: npt.NDArray[Any], height: float) -> Segment | None:
    """A stroke right across a character's box, as apps strike out a solved clue: level
    through its middle from edge to edge, or slanted from corner to corner. None when
    there is none. (Some digits have such strokes too, a 4's bar, a 7's stem: the
    recogniser decides afterwards whether taking the stroke out helped.)"""
    h, w = patch.shape
    if h < 0.5 * height or h < 4:
        return None
    thickness = _thickness(patch, height)
    full: npt.NDArray[Any] = np.asarray(patch.all(axis=1))
    band = [y for y in range(int(0.25 * h), int(0.8 * h) + 1) if y < h and full[y]]
    one_band = bool(band) and band[-1] - band[0] + 1 == len(band) <= max(2, 0.2 * h)
    if one_band and w >= 0.5 * h:
        # the stroke sticks out of the digit: at both ends of the box, only the stroke
        # (a row of soft edge either side allowed, none in tiny print, where a digit's
        # own bar reaching the box's sides may be no more than a row away)
        edge = 0 if h < TINY else 1
        lo, hi = min(band) - edge, max(band) + 1 + edge
        ends = np.concatenate([patch[:, :1], patch[:, -1:]], axis=1)
        if ends[:lo].any() or ends[hi:].any():
            return None
        middle = float(np.median(band))
        return (0.0, middle), (w - 1.0, middle), max(thickness, len(band))
    return _corner_slash(patch, height) or _slash_across_digits(patch, height)


def _corner_slash(patch: npt.NDArray[Any], height: float) -> Segment | None:
    """A slash from one corner of a character's box to the opposite one (one digit struck:
    the slash is what reaches furthest every way)."""
    h, w = patch.shape
    # a slash's box is about square; in tiny print a slanted digit's nearly is too
    if w < (0.85 if h < TINY else 0.7) * h or math.hypot(w, h) < 0.9 * height:
        return None
    # a slash sticks out of the digit at two opposite corners
    edge = max(1, int(0.15 * w))
    left_rows = np.nonzero(patch[:, :edge].any(axis=1))[0]
    right_rows = np.nonzero(patch[:, w - edge :].any(axis=1))[0]
    if len(left_rows) == 0 or len(right_rows) == 0:
        return None
    # ink in two opposite corners and none in the other two (in small print a digit's
    # foot or flag may reach the box's side elsewhere)
    low, high = 0.75 * h, 0.25 * h
    top_left, bottom_left = left_rows.min() < high, left_rows.max() >= low
    top_right, bottom_right = right_rows.min() < high, right_rows.max() >= low
    rising = bottom_left and top_right and not top_left and not bottom_right
    falling = top_left and bottom_right and not bottom_left and not top_right
    if not (rising or falling):
        return None
    # (in tiny print the ink itself must run along it: a pixel's slack makes a slash of
    # the strokes of two small digits that touch)
    wide = _with_slack(patch)
    reach = max(1, int(0.25 * h))
    lefts, rights = [], []
    for low in range(h - 1, h - 1 - reach, -1):
        for high in range(reach):
            left_y, right_y = (low, high) if rising else (high, low)
            if _coverage(wide, (0.0, float(left_y)), (w - 1.0, float(right_y))) >= 0.95:
                lefts.append(left_y)
                rights.append(right_y)
    if not lefts:
        return None
    # the slash's middle: of the lines that run along it, the middle ones
    start: Point = (0.0, float(np.median(lefts)))
    end: Point = (w - 1.0, float(np.median(rights)))
    return start, end, _stroke_width(patch, start, end) or _thickness(patch, height)


def _slash_across_digits(patch: npt.NDArray[Any], height: float) -> Segment | None:
    """A rising slash through a number of two digits: it joins them into one piece and
    sticks out below the first and above the second, but the digits reach past its ends
    sideways, so it runs from the box's bottom to its top, not corner to corner: the
    longest line from the ink in its bottom rows to the ink in its top rows that runs
    along ink all the way. It must stick out of the digits: near its two ends, no ink
    but its own (a 7's stem in a "17" ends in the bar)."""
    h, w = patch.shape
    if w < 0.9 * height or h < 0.9 * height:  # as wide as two digits, and a slash past them
        return None
    # its ends: what ink there is in the box's bottom rows and in its top rows
    reach = max(2, int(0.08 * h))
    bottom = np.nonzero(patch[h - reach :].any(axis=0))[0]
    top = np.nonzero(patch[:reach].any(axis=0))[0]
    if len(bottom) == 0 or len(top) == 0 or top.min() - bottom.max() < 0.4 * h:
        return None
    wide = _with_slack(patch)
    fits = [
        ((float(x0), float(y0)), (float(x1), float(y1)))
        for x0 in range(int(bottom.min()), int(bottom.max()) + 1)
        for y0 in range(h - reach, h)
        for x1 in range(int(top.min()), int(top.max()) + 1)
        for y1 in range(reach)
        if _coverage(wide, (float(x0), float(y0)), (float(x1), float(y1))) >= 0.95
    ]
    if not fits:
        return None
    start, end = max(fits, key=lambda f: math.hypot(f[1][0] - f[0][0], f[1][1] - f[0][1]))
    rise = math.degrees(math.atan2(start[1] - end[1], end[0] - start[0]))
    if not 30 <= rise <= 70 or math.hypot(end[0] - start[0], end[1] - start[1]) < height:
        return None
    thickness = _stroke_width(patch, start, end) or _thickness(patch, height)
    if not _bare_ends(patch, start, end, thickness):
        return None
    return start, end, thickness


def _bare_ends(patch: npt.NDArray[Any], start: Point, end: Point, thickness: int) -> bool:
    """True when near both ends of a stroke (its first and last eighth) the only ink is the
    stroke's own."""
    length = math.hypot(end[0] - start[0], end[1] - start[1])
    ux, uy = (end[0] - start[0]) / length, (end[1] - start[1]) / length
    ys, xs = np.nonzero(patch)
    along = ((xs - start[0]) * ux + (ys - start[1]) * uy) / length
    across = np.abs((xs - start[0]) * -uy + (ys - start[1]) * ux)
    ends = (along < 0.125) | (along > 0.875)
    return not bool((ends & (across > thickness / 2 + 1.5)).any())


def _with_slack(patch: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """The patch a pixel wider, for testing whether a line runs along its ink (not in tiny
    print, where a pixel's slack makes a slash of two small digits' strokes that touch)."""
    if patch.shape[0] < TINY:
        return patch
    wide: npt.NDArray[Any] = cv2.dilate(patch.astype(np.uint8), np.ones((2, 2), np.uint8)) > 0
    return wide


def _thickness(patch: npt.NDArray[Any], height: float) -> int:
    """A strike's thickness when it cannot be measured: about a digit's stroke."""
    return max(1, round(0.09 * max(float(patch.shape[0]), height)))


def _stroke_width(patch: npt.NDArray[Any], start: Point, end: Point) -> int:
    """How thick a straight stroke is: the ink near its ends (where it sticks out of the
    character it strikes) per unit of its length. 0 when it cannot be measured."""
    h = patch.shape[0]
    length = math.hypot(end[0] - start[0], end[1] - start[1])
    if length < 4:
        return 0
    ux, uy = (end[0] - start[0]) / length, (end[1] - start[1]) / length
    ys, xs = np.nonzero(patch)
    along = ((xs - start[0]) * ux + (ys - start[1]) * uy) / length
    across = np.abs((xs - start[0]) * -uy + (ys - start[1]) * ux)
    near = across <= max(2.0, 0.15 * h)
    # each end apart, the thinner counts (the digit may reach into the other)
    first = near & (along >= 0.0) & (along < 0.18)
    last = near & (along > 0.82) & (along <= 1.0)
    if not first.any() or not last.any():
        return 0
    return max(1, round(min(float(first.sum()), float(last.sum())) / (0.18 * length)))


def _erase_bare(
    patch: npt.NDArray[Any], segment: Segment, margin: int = 1, square: bool = True
) -> npt.NDArray[Any]:
    """The patch without the stroke's bare stretches: a pixel of the stroke is kept where
    ink continues on both sides across it, just past the stroke's two edges (a digit's
    own stroke crossing it). `margin`: pixels taken beside the stroke too (its soft edge;
    none in tiny print, where a pixel beside it is the digit's). `square`: across a slash
    also down the columns and along the rows (a 1's stem crossing it at a slant stays
    whole, but so does much of a 2's slanted stroke along it)."""
    (x0, y0), (x1, y1), thickness = segment
    h, w = patch.shape
    zone = np.zeros((h, w), np.uint8)
    cv2.line(zone, (round(x0), round(y0)), (round(x1), round(y1)), 1, thickness + 2 * margin)
    length = max(1e-6, math.hypot(x1 - x0, y1 - y0))
    nx, ny = -(y1 - y0) / length, (x1 - x0) / length
    ys, xs = np.nonzero((zone > 0) & patch)
    # from each pixel, across the stroke to just past its two edges: straight across it,
    # down a column and along a row (a digit's stem or bar crossing a slash at a slant)
    offset = (xs - x0) * nx + (ys - y0) * ny
    beyond = thickness / 2 + margin + 0.5

    def inked(px: npt.NDArray[Any], py: npt.NDArray[Any]) -> npt.NDArray[Any]:
        cx, cy = np.round(px).astype(int), np.round(py).astype(int)
        inside = (cx >= 0) & (cx < w) & (cy >= 0) & (cy < h)
        found = np.zeros(len(cx), bool)
        found[inside] = patch[cy[inside], cx[inside]]
        return found

    crossing = np.zeros(len(xs), bool)
    ways = ((nx, ny), (0.0, 1.0), (1.0, 0.0)) if square else ((nx, ny),)
    for dx, dy in ways:
        rate = dx * nx + dy * ny  # how fast a step this way crosses the stroke
        if abs(rate) < 0.3:
            continue
        there = (beyond - offset) / rate
        back = (-beyond - offset) / rate
        crossing |= inked(xs + there * dx, ys + there * dy) & inked(xs + back * dx, ys + back * dy)
    out: npt.NDArray[Any] = patch.copy()
    out[ys[~crossing], xs[~crossing]] = False
    return out


def _pieces(patch: npt.NDArray[Any], blob: Blob, height: float) -> list[Blob]:
    """The characters left in a box once its strike is out: pieces of one character (a
    digit the stroke cut in two or three) joined when they stand one above the other, and
    small pieces (a bowl's end cut off by a slash) given to the character they overlap;
    what is left beside no character (the strike's stubs) is dropped."""
    found, _ = blobs((patch * 255).astype(np.uint8), min_area=max(2, int(0.03 * patch.size)))
    merged = sorted(found, key=lambda b: b.x0)
    joined = True
    while joined:
        joined = False
        for i, j in itertools.combinations(range(len(merged)), 2):
            a, b = merged[i], merged[j]
            overlap = min(a.x1, b.x1) - max(a.x0, b.x0)
            if overlap >= 0.5 * min(a.width, b.width):
                merged[i] = a.union(b)
                del merged[j]
                joined = True
                break
    kept = [b for b in merged if b.height >= 0.45 * height]
    for small in (b for b in merged if b.height < 0.45 * height):
        near = [
            k
            for k, b in enumerate(kept)
            if b.x0 - 0.15 * height <= small.cx <= b.x1 + 0.15 * height
        ]
        if near:
            k = min(near, key=lambda k: abs(kept[k].cx - small.cx))
            kept[k] = kept[k].union(small)
    return [
        Blob(blob.x0 + b.x0, blob.y0 + b.y0, blob.x0 + b.x1, blob.y0 + b.y1, b.area) for b in kept
    ]


Option = tuple[npt.NDArray[Any], list[Blob]]
"""A struck character's box once its strike is out: what is left, and its pieces."""


def _unstruck(
    chars: list[Blob], mask: npt.NDArray[Any], ink: npt.NDArray[Any], height: float
) -> tuple[list[Blob], npt.NDArray[Any], npt.NDArray[Any], set[Blob], dict[Blob, Guess]]:
    """Clue numbers struck through (solved, in some apps) with the strike taken out: where a
    stroke crosses a character's whole box, the bare stroke is erased and what is left is
    read again. The change is kept when what is left reads as digits more surely than the
    character as it was (a 4's bar or a 7's stem taken for a strike reads worse without
    it). Returns the characters, the clue mask and the ink map, both without the strikes
    (the ink's soft edges along an erased strike go too, so no crop shows them), and the
    characters read through a strike or with one still in them: what they read is a guess
    (a slash leaves a 2 looking much like a 1), and their boxes are the strike's, wider
    than the digits, so the space beside them says little. And what the recogniser made
    of the digits left by a slash, from three looks (`_struck_looks`), which they read."""
    options, slashes = _strike_options(chars, mask, height)
    if not options:
        return chars, mask, ink, set(), {}
    was, read = _struck_looks(options, slashes, mask, ink)
    cleaned = mask.copy()
    accepted: dict[Blob, list[Blob]] = {}
    named: dict[Blob, Guess] = {}
    struck: set[Blob] = set()
    for blob, guess in zip(options, was, strict=True):
        before_read = guess.confidence if guess.best != "none" else 0.0
        for way, (left, pieces) in enumerate(options[blob]):
            looks = read[blob, way]
            if blob in slashes and way == 0:
                # a slash's digits read by all the looks that cut them alike, the slash
                # left in counting twice (taking it out leaves a 2 much like a 1)
                same = [
                    read[blob, k] for k in (1, 2, 2) if len(read.get((blob, k), [])) == len(pieces)
                ]
                looks = [
                    _together([look, *(other[i] for other in same)]) for i, look in enumerate(looks)
                ]
            # one digit left is judged against what it read as before; two (a number cut
            # out of a strike) must each read well, as they will be grouped by spacing,
            # unless the character as it was read no better than a coin's toss
            least = 0.5 if len(pieces) == 1 or before_read < 0.5 else 0.8
            sure = [g.confidence for g in looks if g.best != "none"]
            if len(sure) == len(pieces) and min(sure) >= least and min(sure) > before_read:
                accepted[blob] = pieces
                named.update(zip(pieces, looks, strict=True))
                cleaned[blob.y0 : blob.y1, blob.x0 : blob.x1] = left * 255
                if blob in slashes or blob.height < TINY:
                    struck.update(pieces)  # what a slash or a tiny strike leaves is a guess
                break
        else:
            fused = _touching_digits(blob, options[blob], before_read, mask, ink)
            if fused is not None:
                # two digits that touch, left once the strike is out: cut apart as any
                # touching pair is, and still in doubt
                left, digits = fused
                accepted[blob] = digits
                cleaned[blob.y0 : blob.y1, blob.x0 : blob.x1] = left * 255
                struck.update(digits)
            # a strike still in it: doubted when no sure digit, and always under a slash,
            # however sure (a slash along a 2's own stroke reads as a sure 1 in some faces)
            elif blob in slashes or before_read < 0.9:
                struck.add(blob)
    out = [piece for blob in chars for piece in accepted.get(blob, [blob])]
    return out, cleaned, _without_erased(ink, mask, cleaned), struck, named


def _touching_digits(
    blob: Blob, ways: list[Option], before_read: float, mask: Matrix, ink: Matrix
) -> tuple[Matrix, list[Blob]] | None:
    """A struck character read badly with the strike in it, and left as one piece as wide as
    two digits once the strike is out, which cuts into two digits read well (a bold "10"
    set so tight that its digits touch): what is left and the two digits, or None."""
    if before_read >= 0.6:
        return None
    for left, pieces in ways:
        if len(pieces) != 1 or pieces[0].width < 0.8 * pieces[0].height:
            continue
        cleaned = mask.copy()
        cleaned[blob.y0 : blob.y1, blob.x0 : blob.x1] = left * 255
        digits = _split_fused(pieces, _without_erased(ink, mask, cleaned), cleaned)
        if len(digits) == 2:
            return left, digits
    return None


def _strike_options(
    chars: list[Blob], mask: npt.NDArray[Any], height: float
) -> tuple[dict[Blob, list[Option]], set[Blob]]:
    """The struck characters and what is left of each once its strike is out, one way or
    two: a slash is erased straight across only first (a 2's slanted stroke along it stays
    a 2), then also down the columns and along the rows (a bold 1's stem it cuts at a
    slant stays whole). And which of them are slashed."""
    options: dict[Blob, list[Option]] = {}
    slashes: set[Blob] = set()
    for blob in chars:
        patch = mask[blob.y0 : blob.y1, blob.x0 : blob.x1] > 0
        segment = _strike_through(patch, height)
        if segment is None:
            continue
        options[blob] = []
        slash = segment[0][1] != segment[1][1]
        if slash:
            slashes.add(blob)
        # in tiny print the strike is as thick as the digit's strokes: only its own pixels go
        margin = 0 if blob.height < TINY else 1
        for square in (False, True) if slash else (True,):
            left = _erase_bare(patch, segment, margin, square)
            pieces = _pieces(left, blob, height)
            if 1 <= len(pieces) <= 2:
                options[blob].append((left, pieces))
    return options, slashes


def _struck_looks(
    options: dict[Blob, list[Option]],
    slashes: set[Blob],
    mask: npt.NDArray[Any],
    ink: npt.NDArray[Any],
) -> tuple[list[Guess], dict[tuple[Blob, int], list[Guess]]]:
    """The recogniser's guesses, in one batch: for each struck character as it is, and for
    the pieces of each of its ways (keyed by character and way: 0 and 1 the ways erased,
    2 a slash left in with each digit cut to its own box, as the recogniser learnt struck
    digits)."""
    before = cv2.dilate(mask, np.ones((3, 3), np.uint8)) > 0
    originals = list(options)
    crops = [glyph_image(ink, b, before) for b in originals]
    for way in range(2):  # the crops of each blob's first way, then of its second
        cleaned = mask.copy()
        for blob in originals:
            if way < len(options[blob]):
                cleaned[blob.y0 : blob.y1, blob.x0 : blob.x1] = options[blob][way][0] * 255
        inked = _without_erased(ink, mask, cleaned)
        after = cv2.dilate(cleaned, np.ones((3, 3), np.uint8)) > 0
        crops += [
            glyph_image(inked, piece, after)
            for blob in originals
            if way < len(options[blob])
            for piece in options[blob][way][1]
        ]
    crops += [
        glyph_image(ink, piece, before)
        for blob in originals
        if blob in slashes and options[blob]
        for piece in options[blob][0][1]
    ]
    guesses = iter(recogniser().guess(np.stack(crops), DIGITS))
    was = [next(guesses) for _ in originals]
    read: dict[tuple[Blob, int], list[Guess]] = {}
    for way in range(3):
        for blob in originals:
            if way < 2 and way < len(options[blob]):
                read[blob, way] = [next(guesses) for _ in options[blob][way][1]]
            elif way == 2 and blob in slashes and options[blob]:
                read[blob, way] = [next(guesses) for _ in options[blob][0][1]]
    return was, read


def _together(guesses: list[Guess]) -> Guess:
    """One guess from several looks at a character: their probabilities averaged."""
    total: dict[str, float] = {}
    for guess in guesses:
        for name, probability in guess.ranked:
            total[name] = total.get(name, 0.0) + probability / len(guesses)
    ranked = sorted(total.items(), key=lambda item: -item[1])[:4]
    return Guess(tuple(ranked))


def _without_erased(
    ink: npt.NDArray[Any], mask: npt.NDArray[Any], cleaned: npt.NDArray[Any]
) -> npt.NDArray[Any]:
    """The ink map with the erased strokes gone: their pixels and the soft edge a pixel
    around them, except where a character's ink is kept."""
    erased = cv2.bitwise_and(mask, cv2.bitwise_not(cleaned))
    if not erased.any():
        return ink
    gone = (cv2.dilate(erased, np.ones((3, 3), np.uint8)) > 0) & (cleaned == 0)
    out: npt.NDArray[Any] = np.where(gone, 0.0, ink).astype(ink.dtype)
    return out


def _cuts(blob: Blob, mask: npt.NDArray[Any]) -> list[int]:
    """Where a piece may be cut in two (columns from its left): the thinnest column near the
    middle and a few evenly spaced ones (a slanted or tightly set pair touches along a
    slope, and its thinnest column need not be the right cut). A piece narrower than it is
    tall is cut only at a waist (a column with half the ink of a typical one: two digits
    touching by a serif, a fair share of the ink on each side), never through a digit's
    bars (a bold 5 is no 1 and 3) nor beside a serif (a 1's foot is no 1)."""
    part = mask[blob.y0 : blob.y1, blob.x0 : blob.x1] > 0
    columns = part.sum(axis=0)
    lo, hi = int(blob.width * 0.3), max(int(blob.width * 0.7), int(blob.width * 0.3) + 1)
    thinnest = lo + int(np.argmin(columns[lo:hi]))
    spaced = np.linspace(lo, hi, num=min(5, hi - lo + 1)).round().astype(int).tolist()
    cuts = sorted({thinnest, *(c for c in spaced if 0 < c < blob.width)})
    if blob.width < blob.height:
        # at a waist, with a fair share of the ink on each side (a 1's foot is no digit)
        waist = 0.5 * float(np.median(columns[columns > 0])) if columns.any() else 0.0
        total = float(columns.sum())
        cuts = [
            c
            for c in cuts
            if columns[c] <= waist
            and min(float(columns[:c].sum()), float(columns[c:].sum())) >= 0.3 * total
        ]
    return cuts


def _halves(blob: Blob, cut: int) -> tuple[Blob, Blob]:
    """A piece cut in two at a column."""
    return (
        Blob(blob.x0, blob.y0, blob.x0 + cut, blob.y1, blob.area // 2),
        Blob(blob.x0 + cut, blob.y0, blob.x1, blob.y1, blob.area // 2),
    )


def _inherited(struck: set[Blob], chars: list[Blob]) -> set[Blob]:
    """The struck characters once pieces are cut in two: a half of a struck piece is struck."""
    return {
        b
        for b in chars
        if any(s.x0 <= b.x0 and b.x1 <= s.x1 and s.y0 <= b.y0 and b.y1 <= s.y1 for s in struck)
    }


def _split_fused(chars: list[Blob], ink: npt.NDArray[Any], mask: npt.NDArray[Any]) -> list[Blob]:
    """Pieces about as wide as they are tall may be two digits that touch (small two-digit
    numbers squeezed into a clue cell, a tight "11" joined by its serifs): the recogniser
    reads each such piece whole and cut in two at a few places, and the more likely reading
    decides. A piece narrower than it is tall is tried only where it has a waist."""
    cuts = {
        at: _cuts(b, mask)
        for at, b in enumerate(chars)
        if b.width >= 0.6 * b.height and b.width >= 6
    }
    tried = [at for at, found in cuts.items() if found]
    if not tried:
        return chars
    keep = cv2.dilate(mask, np.ones((3, 3), np.uint8)) > 0
    reader = recogniser()
    whole = reader.guess(np.stack([glyph_image(ink, chars[at], keep) for at in tried]), DIGITS)
    options = [(at, _halves(chars[at], cut)) for at in tried for cut in cuts[at]]
    crops = [glyph_image(ink, half, keep) for _, pair in options for half in pair]
    parts = reader.guess(np.stack(crops), DIGITS)
    best: dict[int, tuple[float, tuple[Blob, Blob]]] = {}
    for k, (at, pair) in enumerate(options):
        left, right = parts[2 * k], parts[2 * k + 1]
        if "none" in (left.best, right.best):
            continue
        both = left.confidence * right.confidence
        if at not in best or both > best[at][0]:
            best[at] = (both, pair)
    split: dict[int, tuple[Blob, Blob]] = {}
    for at, guess in zip(tried, whole, strict=True):
        if at not in best:
            continue
        both, pair = best[at]
        alone = guess.confidence if guess.best != "none" else 0.0
        blob = chars[at]
        if blob.width >= 1.25 * blob.height:
            # far wider than any one digit: two, unless the halves read much worse
            if both > max(0.35, 0.8 * alone):
                split[at] = pair
        elif blob.width < blob.height:
            # narrow, with a waist: two when the halves read surely and better than the whole
            if both > max(0.8, alone):
                split[at] = pair
        elif alone < 0.6 and both > max(0.6, alone):
            split[at] = pair
        elif both > max(0.95, alone):
            # at least as wide as tall, read whole without much conviction, and as two
            # digits with near certainty: a pair set so tight that they touch ("22")
            split[at] = pair
    out: list[Blob] = []
    for at, blob in enumerate(chars):
        out.extend(split.get(at, (blob,)))
    return out


def _crowded(
    rows: list[list[list[Blob]]],
    spacing: Spacing,
    height: float,
    struck: frozenset[Blob] = frozenset(),
    commas: Sequence[Blob] = (),
) -> set[Blob]:
    """The digits of a row clue that may make one number as well as two: their middles
    stand about `spacing.reach` apart, or the space between their boxes says otherwise
    than their middles. Beside a struck character (its box the strike's, not its
    digits') any distance up to a few pixels more than the reach is in doubt. A comma
    between two digits parts them for sure; in a clue written with commas (one seen
    between two of its digits), two digits with none between them are in doubt when they
    stand about as far apart as two numbers or further (its numbers are parted by commas,
    not spaces: a comma missed, or two digits of one number set wide)."""
    doubtful: set[Blob] = set()
    for numbers in rows:
        line = [b for number in numbers for b in number]
        parted = [_comma_between(a, b, commas) for a, b in itertools.pairwise(line)]
        for (a, b), comma in zip(itertools.pairwise(line), parted, strict=True):
            if comma:
                continue
            apart = b.cx - a.cx
            if any(parted) and apart >= spacing.reach - spacing.margin:
                doubtful.update((a, b))
            near = abs(apart - spacing.reach) < spacing.margin
            other = (b.x0 - a.x1 < spacing.gap) != (apart < spacing.reach)
            near_strike = bool(struck.intersection((a, b))) and (
                apart < spacing.reach + 3 * max(1.0, 0.12 * height)
            )
            if near or other or near_strike:
                doubtful.update((a, b))
    return doubtful


def _numbers_in_line(
    items: list[Blob],
    reach: float,
    marks: frozenset[Blob] = frozenset(),
    commas: Sequence[Blob] = (),
) -> list[list[Blob]]:
    """Characters in reading order, grouped into numbers of at most two digits: a digit
    whose middle is less than `reach` right of the previous one's belongs to its number.
    `marks` (read as no digit: a sliver of a line, a smudge) stand alone, so that a digit
    beside one is still read. A comma between two digits parts them, however close (a
    comma's space is narrow in some faces: two numbers stand barely further apart than
    the digits of one)."""
    ordered = sorted(items, key=lambda b: b.x0)
    parted = [_comma_between(a, b, commas) for a, b in itertools.pairwise(ordered)]
    groups: list[list[Blob]] = []
    for at, blob in enumerate(ordered):
        joins = groups and blob not in marks and groups[-1][-1] not in marks
        close = bool(groups) and blob.cx - groups[-1][-1].cx < reach and not parted[at - 1]
        if joins and close and len(groups[-1]) < 2:
            groups[-1].append(blob)
        else:
            groups.append([blob])
    return groups


def _comma_between(a: Blob, b: Blob, commas: Sequence[Blob]) -> bool:
    """True when a comma stands between two characters of a row clue (a left of b)."""
    return any(a.cx < c.cx < b.cx and c.y0 < a.y1 and c.y1 > a.y0 for c in commas)


def _column_clues(
    chars: list[Blob], layout: Layout, dark: npt.NDArray[Any] | None = None
) -> tuple[list[list[list[Blob]]], int]:
    """For each column, its numbers top to bottom (each a list of characters); and how many
    stacks of numbers stand above the grid outside its columns."""
    top = layout.ys[0]
    pitch = layout.pitch
    above = [b for b in chars if b.y1 <= top - CLEAR * pitch and _within_clues(b, layout)]
    mines = [
        sorted((b for b in above if layout.xs[k] <= b.cx < layout.xs[k + 1]), key=lambda b: -b.y1)
        for k in range(layout.width)
    ]  # each column's marks from the grid upwards
    reach = max(1.6, _shared_gap([top - mine[0].y1 for mine in mines if mine], pitch) / pitch + 0.6)
    columns: list[list[list[Blob]]] = []
    for mine in mines:
        numbers: list[list[Blob]] = []
        edge = top
        for blob in mine:
            if edge - blob.y1 > (1.6 if numbers else reach) * pitch:
                break
            if numbers and min(blob.y1, numbers[-1][0].y1) - max(blob.y0, numbers[-1][0].y0) > (
                0.5 * min(blob.height, numbers[-1][0].height)
            ):
                numbers[-1].append(blob)
            else:
                numbers.append([blob])
            edge = min(edge, blob.y0)
        numbers.reverse()
        columns.append([sorted(n, key=lambda b: b.x0) for n in numbers])
    outside = [
        b
        for b in above
        if _next_to(b.cx, layout.xs[0], layout.xs[-1], pitch)
        and top - b.y1 < reach * pitch
        and (dark is None or _on_ground(b, dark, pitch))
    ]
    if layout.clue_top is not None:
        # ruled clue areas: left of the grid is their corner, and a missed column's numbers
        # stand in its middle (what hugs the border is a sliver of it, or a shadow)
        outside = [
            b for b in outside if b.cx > layout.xs[-1] + 0.35 * pitch and b.width >= 0.25 * b.height
        ]
    outside = _as_tall_as(outside, [b for column in columns for n in column for b in n])
    stacks = len({int((b.cx - layout.xs[0]) // pitch) for b in outside})
    return columns, stacks


def _shared_gap(gaps: list[float], pitch: float) -> float:
    """How far the lines' nearest clue numbers stand off the grid when they all stand off it
    alike, as past an empty strip between the grid and its clues (FreeNono's): the median of
    the lines' `gaps` where three in four lie within half a cell of it, up to BAND_GAP cells;
    else 0. One line's number far from the grid is no clue, but every line's alike is."""
    if len(gaps) < MIN_CELLS:
        return 0.0
    middle = float(np.median(gaps))
    alike = sum(abs(gap - middle) <= 0.5 * pitch for gap in gaps) >= 0.75 * len(gaps)
    return middle if alike and middle <= BAND_GAP * pitch else 0.0


def _as_tall_as(outside: list[Blob], inside: list[Blob]) -> list[Blob]:
    """The marks outside the grid's lines that could be a missed line's clue numbers: as tall
    as the numbers of its lines, near enough. A page's texture beside the board (a web page's
    patterned margin) is made of marks far smaller than the clues' digits."""
    if not inside:
        return outside
    typical = float(np.median([b.height for b in inside]))
    return [b for b in outside if b.height >= 0.6 * typical]


def _within_clues(blob: Blob, layout: Layout) -> bool:
    """False for a character beyond ruled clue areas (a button, a score above them, a
    sliver of the page's border)."""
    if layout.clue_top is not None and blob.cy < layout.clue_top:
        return False
    return layout.clue_left is None or blob.cx > layout.clue_left


def _on_ground(blob: Blob, dark: npt.NDArray[Any], pitch: float) -> bool:
    """True when a character has the picture's ground on both sides (a cell's width left and
    right of it is mostly not dark): a clue does, a piece of a page's edge has the table
    on one side."""
    rows = slice(blob.y0, blob.y1)
    for lo, hi in ((blob.x0 - pitch, blob.x0), (blob.x1, blob.x1 + pitch)):
        band = dark[rows, max(0, int(lo)) : max(0, int(hi))]
        if band.size and float(band.mean()) > 0.5:
            return False
    return True


def _next_to(middle: float, first: float, last: float, pitch: float) -> bool:
    """True when a character's middle lies in the cell just outside the grid's first or last
    line: where the clue of a line the lattice missed would stand (further out, marks are
    the page's edge or other print, no clue of this grid)."""
    return first - 1.2 * pitch < middle < first - 0.2 * pitch or (
        last + 0.2 * pitch < middle < last + 1.2 * pitch
    )


def _row_clues(
    chars: list[Blob],
    layout: Layout,
    reach: float,
    marks: frozenset[Blob] = frozenset(),
    commas: Sequence[Blob] = (),
) -> tuple[list[list[list[Blob]]], int]:
    """For each row, its numbers left to right (`marks`, read as no digit, each alone;
    `commas` part numbers); and how many lines of numbers stand left of the grid outside
    its rows."""
    left = layout.xs[0]
    pitch = layout.pitch
    beside = [b for b in chars if b.x1 <= left - CLEAR * pitch and _within_clues(b, layout)]
    rows: list[list[list[Blob]]] = []
    for r in range(layout.height):
        lo, hi = layout.ys[r], layout.ys[r + 1]
        mine = [b for b in beside if lo <= b.cy < hi]
        mine.sort(key=lambda b: -b.x1)  # from the grid leftwards
        kept: list[Blob] = []
        edge = left
        for blob in mine:
            # the first number may stand off the grid (clues set flush left); the numbers of
            # a clue stand closer together than anything else beside them (a page's edge)
            if edge - blob.x1 > (1.6 if kept else 2.6) * pitch:
                break
            kept.append(blob)
            edge = min(edge, blob.x0)
        rows.append(_numbers_in_line(kept, reach, marks, commas))
    outside = [
        b
        for b in beside
        if _next_to(b.cy, layout.ys[0], layout.ys[-1], pitch)
        and left - b.x1 < 2.6 * pitch
        and b.y0 > layout.ys[0] - 0.1 * pitch
    ]
    if layout.clue_left is not None:
        outside = [
            b for b in outside if b.cy > layout.ys[-1] + 0.35 * pitch and b.height >= 0.25 * b.width
        ]
    outside = _as_tall_as(outside, [b for row in rows for n in row for b in n])
    lines = len({int((b.cy - layout.ys[0]) // pitch) for b in outside})
    return rows, lines


@dataclass(frozen=True)
class Spacing:
    """How the digits of a row clue make numbers: two digits whose middles stand less than
    `reach` apart are one number, those within `margin` of it are in doubt; `gap` is the
    same split made on the spaces between their boxes (a second opinion)."""

    reach: float
    margin: float
    gap: float


def _spacing(chars: list[Blob], layout: Layout, height: float) -> Spacing:
    """How far apart two digits can stand and be one number, from the neighbours in the row
    clues. Middle to middle, the digits of a number stand one advance apart (about half
    their height to their height, whatever the font), numbers an advance and a word space
    or a clue cell apart: the widest jump among the sorted distances, from one no longer
    than the digits' height, splits the two (without one, no number has two digits:
    nine tenths of the digits' height). The space between the boxes says less (a "1"
    stands in its advance with wide bearings; in small print a pixel is much of the
    space) and only seconds the middles: its widest jump from a space up to half the
    digits' height, or two fifths of their height. A distance within a third of the jump
    of its middle (a pixel at least) is in doubt."""
    left = layout.xs[0]
    distances, spaces = [], []
    for r in range(layout.height):
        lo, hi = layout.ys[r], layout.ys[r + 1]
        line = sorted(
            (b for b in chars if b.x1 <= left - CLEAR * layout.pitch and lo <= b.cy < hi),
            key=lambda b: b.x0,
        )
        distances += [b.cx - a.cx for a, b in itertools.pairwise(line)]
        spaces += [b.x0 - a.x1 for a, b in itertools.pairwise(line)]
    reach, jump = _split(
        [d for d in distances if 0.3 * height < d < 2.5 * height],
        height,
        longest=1.1 * height,
        within=(0.3 * height, 2.0 * height),
        default=0.9 * height,
    )
    # a pixel more for small print, where a side bearing rounds up to a whole pixel
    gap, _ = _split(
        [d for d in spaces if -0.3 * height < d < 1.5 * height],
        height,
        longest=0.5 * height + 1,
        within=(0.05 * height, 0.8 * height),
        default=0.4 * height,
    )
    margin = max(1.0, min(0.12 * height, jump / 3)) if jump else max(1.0, 0.12 * height)
    return Spacing(reach, margin, gap)


def _split(
    values: list[float],
    height: float,
    longest: float,
    within: tuple[float, float],
    default: float,
) -> tuple[float, float]:
    """The middle of the widest jump between sorted values, from one up to `longest`, when
    it is wide (a pixel and a half and 15% of the digits' height at least) and its middle
    lies `within`; and the jump's size. Else `default` and 0."""
    ordered = sorted(values)
    jumps = [(b - a, (a + b) / 2) for a, b in itertools.pairwise(ordered) if a <= longest]
    if not jumps:
        return default, 0.0
    size, middle = max(jumps)
    if size >= max(1.5, 0.15 * height) and within[0] < middle < within[1]:
        return middle, size
    return default, 0.0


# -- commas between a row clue's numbers -----------------------------------------------------------
COMMAS_SEEN = 2
"""Rows with commas a picture must show before any is believed, and at least a third of
the rows with more than one digit: an app that writes its row clues as one text ("3,1,2")
does so in every row of more than one number, and a speck of noise or a blurred foot at
the side of a digit here and there is no comma."""


def _without_commas(
    mask: npt.NDArray[Any], ink: npt.NDArray[Any], layout: Layout, chars: list[Blob]
) -> tuple[npt.NDArray[Any], npt.NDArray[Any], list[Blob]]:
    """Row clues written as one text ("3,1,2"): the commas between their numbers, and the
    clue mask and ink map without those that touch a digit. A comma is too small to pass
    for a character, so the digits would be grouped by spacing alone, and a comma's space
    is narrow in some faces; in small or bold print it touches the digits beside it, and
    the digit and comma are cut and read as one character ("1," reads as a 4). `chars`:
    the mask's characters."""
    pitch = layout.pitch
    height = _digit_height(chars, layout)
    if height is None:
        return mask, ink, []
    pieces, labels = blobs(mask, min_area=2)
    beside = [p for p in pieces if p.x1 <= layout.xs[0] - CLEAR * pitch and p.height <= 1.1 * pitch]
    lines = [
        [p for p in beside if layout.ys[r] <= p.cy < layout.ys[r + 1]] for r in range(layout.height)
    ]
    cleaned = mask.copy()
    found = [_commas_in_line(line, labels, cleaned, height) for line in lines]
    with_commas = sum(1 for commas in found if commas)
    several = sum(1 for line in lines if len(_digit_pieces(line, height)) > 1)
    if with_commas < max(COMMAS_SEEN, several / 3):
        return mask, ink, []
    commas = [comma for line_commas in found for comma in line_commas]
    return cleaned, _without_erased(ink, mask, cleaned), commas


def _commas_in_line(
    line: list[Blob], labels: npt.NDArray[Any], cleaned: npt.NDArray[Any], height: float
) -> list[Blob]:
    """The commas among the pieces of ink beside one row (`labels`: the pieces' pixels),
    those that touch a digit taken out of `cleaned` (the clue mask)."""
    digits = _digit_pieces(line, height)
    base = _baseline(digits, height)
    if base is None:
        return []
    found = []
    for piece in digits:
        own = labels[piece.y0 : piece.y1, piece.x0 : piece.x1] == piece.label
        found += _touching_commas(cleaned, own, piece, base, height, digits)
    return found + [p for p in line if _loose_comma(p, digits, base, height)]


def _digit_pieces(line: list[Blob], height: float) -> list[Blob]:
    """The pieces of a row clue's ink with a digit's height (alone or with a comma)."""
    return [p for p in line if p.height >= 0.55 * height]


def _inner_height(chars: list[Blob], layout: Layout) -> float | None:
    """The height of the clue numbers nearest the grid (above its columns, left of its
    rows, within a cell and a half): of every picture's marks, surely clue digits."""
    xs, ys, reach = layout.xs, layout.ys, 1.5 * layout.pitch
    inner = [
        b.height
        for b in chars
        if (xs[0] <= b.cx <= xs[-1] and ys[0] - reach <= b.y1 <= ys[0])
        or (ys[0] <= b.cy <= ys[-1] and xs[0] - reach <= b.x1 <= xs[0])
    ]
    return float(np.median(inner)) if len(inner) >= 3 else None


def _digit_height(chars: list[Blob], layout: Layout) -> float | None:
    """The clue digits' height: taken from the column clues where there are some (digits
    stacked one to a line, where no comma touches them), else from all characters."""
    above = [b.height for b in chars if b.y1 <= layout.ys[0]]
    heights = above if len(above) >= 3 else [b.height for b in chars]
    return float(np.median(heights)) if heights else None


def _baseline(digits: list[Blob], height: float) -> int | None:
    """The row the digits of a row clue stand on (the first below them): where the digits
    of the digits' height end (one with a comma touching it reaches further down), else
    one digit height below their tops (commas reach no higher than a digit)."""
    if not digits:
        return None
    plain = [d.y1 for d in digits if abs(d.height - height) <= max(1.0, 0.08 * height)]
    if plain:
        return int(np.median(plain))
    return round(float(np.median([d.y0 for d in digits])) + height)


def _loose_comma(piece: Blob, digits: list[Blob], base: int, height: float) -> bool:
    """True for a mark the size of a comma or a full stop between two digits of a row clue,
    at their foot: from the lower half of the digits down to or past the line they stand
    on, with a digit close on either side."""
    small = piece.height <= 0.5 * height and piece.width <= 0.5 * height
    low = base - 0.5 * height <= piece.y0 < base <= piece.y1
    if not (small and low):
        return False
    before = [piece.x0 - d.x1 for d in digits if d.x1 <= piece.x0 + 1]
    after = [d.x0 - piece.x1 for d in digits if d.x0 >= piece.x1 - 1]
    return bool(before and after) and max(min(before), min(after)) <= 0.5 * height


def _touching_commas(
    cleaned: npt.NDArray[Any],
    own: npt.NDArray[Any],
    piece: Blob,
    base: int,
    height: float,
    digits: list[Blob],
) -> list[Blob]:
    """The commas that touch a digit of a row clue, taken out of `cleaned` (the clue mask):
    a comma reaches below the line the digits stand on, where a digit never does (the
    figures apps write clues in all stand on it), as a narrow tail. Its columns are the
    tail's and those beside it with ink in the digits' lower part only (its head, a 2's
    foot that it touches), one of them at least its own (a digit's stroke dipping a pixel
    below the line, in a photo tilted a little, has ink above in all its columns); what it
    touches is a digit on one side or on both, never a digit's own stroke in its middle (a
    round foot that dips a pixel: taking the dip out leaves the digit whole, in one
    piece)."""
    top = math.ceil(base - 0.45 * height) - piece.y0  # the lower part, in the patch
    below: npt.NDArray[Any] = np.any(own[max(0, base - piece.y0) :], axis=0)
    upper: npt.NDArray[Any] = np.any(own[: max(0, top)], axis=0)
    found = []
    for start, end in _runs(below):
        inked = np.nonzero(own[:, start:end].any(axis=1))[0]
        if not inked.size:
            continue  # its ink went out with a comma taken before it
        deepest = piece.y0 + int(inked.max())
        if end - start > max(3.0, 0.38 * height) or deepest - base >= 0.5 * height:
            continue  # too wide or deep for a comma's tail: a digit's own stroke
        start, end = _widened(own, upper, start, end)
        cut = _without_comma(own, start, end, upper, top, base - piece.y0)
        if end - start > 0.6 * height or upper[start:end].all():
            continue  # wider than a comma, or a digit's stroke all along (a 1's stem)
        if not _parts_digits(cut, start, end, height):
            continue
        comma = Blob(piece.x0 + start, piece.y0 + max(0, top), piece.x0 + end, piece.y1, 0)
        if not _beside_digit(comma, piece, digits, height):
            continue
        patch = cleaned[piece.y0 : piece.y1, piece.x0 : piece.x1]
        patch[own & ~cut] = 0
        own = cut
        found.append(comma)
    return found


def _widened(
    own: npt.NDArray[Any], upper: npt.NDArray[Any], start: int, end: int
) -> tuple[int, int]:
    """A comma's columns from its tail's: widened over the inked columns beside it that
    have no ink in the digits' upper part (`upper`), its head and what it touches there."""
    while start > 0 and own[:, start - 1].any() and not upper[start - 1]:
        start -= 1
    while end < own.shape[1] and own[:, end].any() and not upper[end]:
        end += 1
    return start, end


def _without_comma(
    own: npt.NDArray[Any], start: int, end: int, upper: npt.NDArray[Any], top: int, base: int
) -> npt.NDArray[Any]:
    """A piece without the comma in its columns `start` to `end` (`top` and `base`: the
    digits' lower part and the line they stand on, in the piece): all of a column's ink
    in the lower part where that is all it has, only what is below the line where a
    digit's stroke stands in it too (in small print a comma's head is in a digit's last
    column)."""
    cut: npt.NDArray[Any] = own.copy()
    for column in range(start, end):
        cut[max(0, base if upper[column] else top) :, column] = False
    return cut


def _runs(columns: npt.NDArray[Any]) -> list[tuple[int, int]]:
    """The stretches (start, end) of true values in a row of booleans."""
    padded = np.concatenate([[False], columns, [False]]).astype(np.int8)
    edges = np.flatnonzero(np.diff(padded))
    return [(int(a), int(b)) for a, b in zip(edges[::2], edges[1::2], strict=True)]


def _parts_digits(cut: npt.NDArray[Any], start: int, end: int, height: float) -> bool:
    """True when taking a comma's columns out of a piece leaves digits that stand apart: the
    comma was at the piece's side, or between two digits now in two pieces."""
    at_side = not cut[:, :start].any() or not cut[:, end:].any()
    if at_side:
        return bool(cut.any())
    found, _ = blobs((cut * 255).astype(np.uint8), min_area=1)
    tall = [b for b in found if b.height >= 0.55 * height]
    return bool(tall) and all(b.x1 <= start or b.x0 >= end for b in tall) and len(tall) >= 2


def _beside_digit(comma: Blob, piece: Blob, digits: list[Blob], height: float) -> bool:
    """True when a digit stands on each side of a comma close by (within the piece it was
    cut from, or the next piece of the row)."""
    near = 0.5 * height
    left = comma.x0 > piece.x0 or any(0 <= comma.x0 - d.x1 <= near for d in digits)
    right = comma.x1 < piece.x1 or any(0 <= d.x0 - comma.x1 <= near for d in digits)
    return left and right


# -- the whole reading -----------------------------------------------------------------------------
def _ink_picture(colour: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """One channel in which ink is dark: on a light ground, halfway between the darkest
    channel (coloured ink stands out as much as black) and the luminance (a coloured band
    behind the lines, a yellow cursor row say, stays light, so grey lines on it still
    show); dark themes as `brightness` turns them."""
    gray, dark = gridlib.brightness(colour, middle=True)
    if dark or colour.ndim == 2:
        return gray
    luma = cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY)
    mixed: npt.NDArray[Any] = cv2.addWeighted(gray, 0.5, luma, 0.5, 0)
    return mixed


def _find(picture: Picture) -> tuple[npt.NDArray[Any], Matrix, Layout, Any]:
    dark_ink = _ink_picture(picture.work)
    unwarped = _unwarp(dark_ink)
    attempts: list[Any] = [lambda: unwarped] if unwarped is not None else []
    attempts += [lambda: (dark_ink, np.eye(3)), lambda: _straighten(dark_ink)]
    failure: FormatError | None = None
    for attempt in attempts:
        image, matrix = attempt()
        if attempt is attempts[-1] and matrix is not None and np.allclose(matrix, np.eye(3)):
            break  # the picture is level: straightening changes nothing
        try:
            return (image, matrix, *_layout(image))
        except FormatError as error:
            failure = failure or error
    # the lines may be drawn the other way round from the clues: dark lines between dark
    # cells under light numbers (a dark theme), or lines darker than their coloured cells
    # (blue cells in a light theme, which the darkest channel turns black); the lattice is
    # looked for where lines are dark against any ground, the clues still read in `dark_ink`
    for lines in _line_renderings(picture.work):
        try:
            return (dark_ink, np.eye(3), *_layout(lines))
        except FormatError:
            continue
    assert failure is not None
    raise failure


def _layout(lines: npt.NDArray[Any]) -> tuple[Layout, Any]:
    """The grid and its clue areas found in `lines` (a one-channel picture in which the
    ruled lines are dark), and the ink map made for them."""
    cols, rows, pitch, ink = _lattice(lines)
    layout = _grid_block(cols, rows, ink, pitch, lines)
    if layout.width < MIN_CELLS or layout.height < MIN_CELLS:
        raise FormatError("no grid found (the ruled block is too small)")
    return layout, ink


def _clue_ink_dark(turned: npt.NDArray[Any], layout: Layout) -> npt.NDArray[Any]:
    """`turned` (ink dark) turned over when the ground beside the grid, where the clues
    stand, is dark in it: the picture was judged light on its middle, where a large grey
    board stands, but prints its clues light on the dark page around the board (gnonograms'
    dark theme while designing). Clues are read as dark ink on a light ground."""
    xs, ys, pitch = layout.xs, layout.ys, layout.pitch
    reach = int(CLUE_GROUND_CELLS * pitch)
    top = turned[max(0, int(ys[0]) - reach) : int(ys[0]), int(xs[0]) : int(xs[-1])]
    left = turned[int(ys[0]) : int(ys[-1]), max(0, int(xs[0]) - reach) : int(xs[0])]
    ground = np.concatenate([top.ravel(), left.ravel()])
    if ground.size and float(np.median(ground)) < DARK_CLUE_GROUND:
        turned_over: npt.NDArray[Any] = cv2.bitwise_not(turned)
        return turned_over
    return turned


def _darkest_channel(
    picture: Picture, turned: npt.NDArray[Any], matrix: Matrix
) -> npt.NDArray[Any] | None:
    """The darkest channel of a light colour picture, turned as `turned` was (`matrix`);
    None for a grey or a dark picture."""
    colour = picture.work
    if colour.ndim == 2 or gridlib.brightness(colour, middle=True)[1]:
        return None
    b, g, r = cv2.split(colour)
    darkest: npt.NDArray[Any] = cv2.min(cv2.min(b, g), r)
    if darkest.shape == turned.shape and np.allclose(matrix, np.eye(3)):
        return darkest
    h, w = turned.shape[:2]
    warped: npt.NDArray[Any] = cv2.warpPerspective(
        darkest, matrix, (w, h), flags=cv2.INTER_LINEAR, **_plain_border(darkest)
    )
    return warped


def _line_renderings(colour: npt.NDArray[Any]) -> list[npt.NDArray[Any]]:
    """One-channel pictures of a colour picture other than the ink picture, in which dark
    lines stay dark whatever the ground: the luminance, and the brightest channel (a
    saturated cell is bright in it, so the line beside it stands out)."""
    if colour.ndim == 2:
        return []
    b, g, r = cv2.split(colour)
    return [cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY), cv2.max(cv2.max(b, g), r)]


@dataclass(frozen=True)
class Clues:
    """The clue numbers found beside the grid: each row's and each column's numbers (each a
    list of its characters), how many lines of numbers stand outside the grid's rows and
    columns, what the recogniser named every character, and the characters whose grouping
    into numbers is in doubt."""

    rows: list[list[list[Blob]]]
    columns: list[list[list[Blob]]]
    extra_rows: int
    extra_cols: int
    named: dict[Blob, Guess]
    crowded: set[Blob]
    struck: frozenset[Blob] = frozenset()
    crops: Mapping[Blob, npt.NDArray[Any]] = field(default_factory=dict)
    """The crop the recogniser read for each character (not for those read struck)."""


def read_image(picture: Picture) -> Reading:
    started = time.perf_counter()
    try:
        turned, matrix, layout, _ = _find(picture)
    except FormatError as error:
        raise FormatError(error.reason, source=picture.source) from None
    over = _clue_ink_dark(turned, layout)
    faint_source = _darkest_channel(picture, turned, matrix) if over is turned else None
    turned = over
    clues = _clues(turned, layout, faint_source)
    _check_counts(clues, layout, picture.source)
    inverse = np.linalg.inv(matrix)
    # the whole-line reader is consulted only where the glyph reading needs a second
    # opinion (a doubtful number, or clues that break the rules): on a clean picture read
    # with confidence it would cost a third of the reading time and change nothing
    opinions = functools.cache(functools.partial(_line_opinions, turned, layout, clues))
    numbers = _numbers(clues, layout, inverse, picture)
    if any(not number.confident for number in numbers):
        numbers = line_reader.second_opinion(numbers, opinions())
    corners = np.array(
        [
            [layout.xs[0], layout.ys[0]],
            [layout.xs[-1], layout.ys[0]],
            [layout.xs[-1], layout.ys[-1]],
            [layout.xs[0], layout.ys[-1]],
        ],
        np.float32,
    )
    mapped = gridlib.map_points(inverse, corners) / picture.scale
    reading = Reading(
        "nonogram",
        layout.width,
        layout.height,
        tuple(numbers),
        grid=tuple((float(x), float(y)) for x, y in mapped),
        picture_size=(picture.width, picture.height),
        source=picture.source,
    )
    reading = replace(reading, read_s=time.perf_counter() - started)
    reading = judge(reading, repair=True, looks=functools.partial(_looks, clues), lines=opinions)
    return replace(reading, time_s=time.perf_counter() - started)


def _line_opinions(
    turned: npt.NDArray[Any], layout: Layout, clues: Clues
) -> dict[line_reader.LineKey, list[LineReading]]:
    """What the reader of whole lines (core/vision/lines) reads in each line's clue strip,
    the strips reaching as far out as the clue area's ruled edge, or the outermost
    character found."""
    row_chars = [b for row in clues.rows for number in row for b in number]
    col_chars = [b for col in clues.columns for number in col for b in number]
    outer = (
        layout.clue_left if layout.clue_left is not None else _outermost(row_chars, "x"),
        layout.clue_top if layout.clue_top is not None else _outermost(col_chars, "y"),
    )
    strips = line_reader.clue_strips(turned, layout.xs, layout.ys, layout.pitch, outer)
    strips = [s for s in strips if min(s.pixels.shape) >= 2]
    readings = lines_model.read_strips([(s.pixels, s.vertical) for s in strips])
    return {(s.kind, s.line): list(r) for s, r in zip(strips, readings, strict=True)}


def _outermost(chars: list[Blob], axis: str) -> float | None:
    if not chars:
        return None
    return float(min(b.x0 if axis == "x" else b.y0 for b in chars))


def _clues(
    turned: npt.NDArray[Any], layout: Layout, faint_source: npt.NDArray[Any] | None = None
) -> Clues:
    """The characters beside the grid, cut, named and grouped into each line's numbers;
    `faint_source`: the picture's darkest channel, as turned, for a last look beside every
    line, at marks in a pale colour that the ink picture hides."""
    ink = ink_map(turned, window=max(5, int(layout.pitch * 0.6)))
    mask = _without_ruling(_clue_mask(ink, layout.pitch), layout)
    chars = _characters(mask, layout)
    mask, ink, commas = _without_commas(mask, ink, layout, chars)
    if commas:  # those that touched a digit are out of the mask: its characters anew
        chars = _characters(mask, layout)
    mask, chars = _made_whole(mask, ink, layout, chars)
    dark = _filled(turned)
    chars = _off_the_border(chars, layout, dark)
    height = _inner_height(chars, layout) or (
        float(np.median([b.height for b in chars])) if chars else layout.pitch * 0.6
    )
    chars, mask, ink, struck, unstruck = _unstruck(chars, mask, ink, height)
    chars = _split_fused(chars, ink, mask)
    # specks far shorter than the digits are no part of a clue: a web page's patterned
    # margin beside the board, dust on a scan (a comma is out of the mask already)
    chars = [b for b in chars if b.height >= SPECK * height or b in struck]
    chars = _on_one_ground(chars, layout, turned)
    struck = _inherited(struck, chars)
    keep = cv2.dilate(mask, np.ones((3, 3), np.uint8)) > 0
    named, crops = _name(chars, ink, keep)
    named.update((b, guess) for b, guess in unstruck.items() if b in named)
    # marks the recogniser is sure are no characters (the page's edge, a table's texture,
    # a cross) stand for no number, and must not count as clues outside the grid either;
    # but a mark of half a digit's height or more in a clue area (a number struck out past
    # reading, what the ink threshold left of a greyed digit) stays, as no number that is
    # doubted when the clues do not add up: dropped, its line's loss went undoubted
    chars = [
        b
        for b in chars
        if not (named[b].best == "none" and named[b].confidence >= 0.7)
        or (b.height >= 0.5 * height and _in_clue_area(b, layout))
    ]
    spacing = _spacing(chars, layout, height)
    marks = frozenset(b for b in chars if named[b].best == "none")
    columns, extra_cols = _column_clues(chars, layout, dark)
    rows, extra_rows = _row_clues(chars, layout, spacing.reach, marks, commas)
    if any(not numbers for numbers in rows + columns):
        # a second look at lines where nothing was found: a solved clue greyed out on a
        # tinted band can be fainter than the picture's noise elsewhere
        found, faint_mask = _faint_look(ink, layout)
        faint = _faint_characters(found, layout, rows, columns, chars)
        faint = _off_the_border(faint, layout, dark)
        if faint:
            chars += _named_more(faint, ink, faint_mask, named, crops)
            columns, extra_cols = _column_clues(chars, layout, dark)
            rows, extra_rows = _row_clues(chars, layout, spacing.reach, marks, commas)
    if faint_source is not None:
        # and a last one, in the darkest channel, beside every line: a number greyed out in
        # a pale colour (yellow on a green band, among the line's black ones) is as light as
        # its ground in `turned` (a mix with the luminance, in which yellow is the lighter);
        # as the first look's, no specks and none past a change of ground
        pale, pale_mask, pale_ink = _pale_marks(faint_source, ink, layout)
        pale = _faint_characters(pale, layout, rows, columns, chars, every_line=True)
        pale = [b for b in _off_the_border(pale, layout, dark) if b.height >= SPECK * height]
        kept = set(_on_one_ground(chars + pale, layout, turned))
        pale = [b for b in pale if b in kept]
        if pale:
            # a pale colour's digits are plain, not a photo's grain: named at 0.9
            chars += _named_more(pale, pale_ink, pale_mask, named, crops, sure=0.9)
            columns, extra_cols = _column_clues(chars, layout, dark)
            rows, extra_rows = _row_clues(chars, layout, spacing.reach, marks, commas)
    doubtful = _crowded(rows, spacing, height, frozenset(struck), commas)
    rows = _zeros_joined(rows, named, doubtful)
    return Clues(rows, columns, extra_rows, extra_cols, named, doubtful, frozenset(struck), crops)


def _faint_look(ink: npt.NDArray[Any], layout: Layout) -> tuple[list[Blob], npt.NDArray[Any]]:
    """The marks of the clue mask at half the thresholds, and that mask."""
    mask = _without_ruling(_clue_mask(ink, layout.pitch, faint=True), layout)
    return _characters(mask, layout), mask


def _pale_marks(
    darkest: npt.NDArray[Any], ink: npt.NDArray[Any], layout: Layout
) -> tuple[list[Blob], npt.NDArray[Any], npt.NDArray[Any]]:
    """The marks a faint look at the darkest channel finds that the ink picture (`ink`)
    hides (`_hidden_colour`), that look's mask and its ink."""
    pale_ink = ink_map(darkest, window=max(5, int(layout.pitch * 0.6)))
    found, mask = _faint_look(pale_ink, layout)
    return [b for b in found if _hidden_colour(b, mask, pale_ink, ink)], mask, pale_ink


def _named_more(
    faint: list[Blob],
    ink: npt.NDArray[Any],
    mask: npt.NDArray[Any],
    named: dict[Blob, Guess],
    crops: dict[Blob, npt.NDArray[Any]],
    sure: float = 0.0,
) -> list[Blob]:
    """A later look's marks named (into `named` and `crops`, read in `ink` within `mask`):
    those the recogniser takes for a digit, at `sure` at least."""
    keep = cv2.dilate(mask, np.ones((3, 3), np.uint8)) > 0
    more_named, more_crops = _name(faint, ink, keep)
    named.update(more_named)
    crops.update(more_crops)
    return [b for b in faint if named[b].best != "none" and named[b].confidence >= sure]


def _hidden_colour(
    blob: Blob, mask: npt.NDArray[Any], darkest: npt.NDArray[Any], ink: npt.NDArray[Any]
) -> bool:
    """True for a mark with half as much ink again in the darkest channel as in the ink
    picture, on the same pixels: pale coloured ink that the ink picture's mix with the
    luminance hides. Grey ink and a photo's noise show alike in both (looked for already)."""
    box = (slice(blob.y0, blob.y1), slice(blob.x0, blob.x1))
    on = mask[box] > 0
    if not on.any():
        return False
    return float(darkest[box][on].mean()) >= 1.5 * float(ink[box][on].mean()) + 0.02


def _on_one_ground(chars: list[Blob], layout: Layout, turned: npt.NDArray[Any]) -> list[Blob]:
    """The characters without those beyond a change of ground in their line: a line's clue
    is printed on one band (a tinted clue area tints all of it, alternating bands one line
    each), so from the grid outwards, what stands on a darker or lighter ground than the
    character nearest the grid (a web page's patterned margin, the table under a printed
    page) is no part of it."""
    xs, ys = layout.xs, layout.ys
    grounds: dict[Blob, float] = {}

    def ground(blob: Blob) -> float:  # each mark's ring measured once
        if blob not in grounds:
            grounds[blob] = _ground(blob, turned)
        return grounds[blob]

    # each line's marks, nearest the grid first
    rows = [
        sorted((b for b in chars if b.x1 <= xs[0] and y0 <= b.cy < y1), key=lambda b: -b.x1)
        for y0, y1 in itertools.pairwise(ys)
    ]
    columns = [
        sorted((b for b in chars if b.y1 <= ys[0] and x0 <= b.cx < x1), key=lambda b: -b.y1)
        for x0, x1 in itertools.pairwise(xs)
    ]
    beyond: set[Blob] = set()
    nearest: list[Blob] = []
    for lines in (rows, columns):
        for line in lines:
            marker = _marker_in_band(line, lines, ground)
            beyond |= marker | _past_a_change(line[len(marker) :], ground)
            nearest += line[len(marker) : len(marker) + 1]
    if nearest:
        # beside the lines (where a line the lattice missed would have its clue), the
        # ground of the clues nearest the grid
        usual = float(np.median([ground(b) for b in nearest]))
        beyond |= {
            b
            for b in chars
            if _beside_the_lines(b, layout) and abs(ground(b) - usual) > GROUND_STEP
        }
    return [b for b in chars if b not in beyond]


def _marker_in_band(
    line: list[Blob], lines: list[list[Blob]], ground: Callable[[Blob], float]
) -> set[Blob]:
    """The mark nearest the grid in `line` when it is a marker on a band between the grid and
    the clues (an app's pointer to the line played, on its own strip): on another ground
    than the nearest marks of nearly all the other lines (three in four), with the line's
    next mark on theirs. On alternating bands, one line each, no ground is that common."""
    if len(line) < 2:
        return set()
    grounds = [ground(other[0]) for other in lines if other]
    usual = float(np.median(grounds))
    common = sum(abs(g - usual) <= GROUND_STEP for g in grounds) >= 0.75 * len(grounds)
    odd = abs(ground(line[0]) - usual) > GROUND_STEP
    next_usual = abs(ground(line[1]) - usual) <= GROUND_STEP
    return {line[0]} if common and odd and next_usual else set()


def _beside_the_lines(blob: Blob, layout: Layout) -> bool:
    """True for a mark in a clue band but past the grid's first or last line: above the
    grid beside its columns, or left of it above or below its rows."""
    xs, ys = layout.xs, layout.ys
    above = blob.y1 <= ys[0] and not xs[0] <= blob.cx < xs[-1]
    left = blob.x1 <= xs[0] and not ys[0] <= blob.cy < ys[-1]
    return above or left


def _past_a_change(line: list[Blob], ground: Callable[[Blob], float]) -> set[Blob]:
    """Of a line's characters (nearest the grid first), the outermost ones on another ground
    than the first's, up to the first (from outside) on the same ground again: a change of
    ground that lasts to the line's end (a piece of a faint digit, its ring on its own
    strokes, is one odd mark among its line's others)."""
    if len(line) < 2:
        return set()
    first = ground(line[0])
    odd: set[Blob] = set()
    for blob in reversed(line[1:]):
        if abs(ground(blob) - first) <= GROUND_STEP:
            break
        odd.add(blob)
    return odd


def _ground(blob: Blob, turned: npt.NDArray[Any]) -> float:
    """The brightness around a mark: the commonest level (in steps of 8) on a ring a few
    pixels outside its box. Ink the ring crosses (a neighbour's, a broken digit's other
    piece) is of many levels, the ground of one; a mark at a band's edge has most of its
    ring on its own side."""
    x0, y0, x1, y1 = blob.x0, blob.y0, blob.x1, blob.y1
    pad = max(2, (y1 - y0) // 6)
    h, w = turned.shape[:2]
    top, bottom = max(0, y0 - pad), min(h, y1 + pad)
    left, right = max(0, x0 - pad), min(w, x1 + pad)
    ring = np.concatenate(
        [
            turned[top, left:right],
            turned[bottom - 1, left:right],
            turned[top:bottom, left],
            turned[top:bottom, right - 1],
        ]
    )
    levels = np.bincount(ring.astype(np.int64) // 8, minlength=32)
    return float(8 * int(np.argmax(levels)) + 4)


def _zeros_joined(
    rows: list[list[list[Blob]]], named: dict[Blob, Guess], crowded: set[Blob]
) -> list[list[list[Blob]]]:
    """Row clues with a 0 that stands as close to the digit before it as to a next number
    read as that digit's units ("1 0" as 10): a 0 is a clue only alone, so beside another
    number it is either misread or the second digit of a number set loosely. The number stays
    doubted (crowded)."""
    joined = []
    for numbers in rows:
        out: list[list[Blob]] = []
        for group in numbers:
            before = out[-1] if out else None
            if (
                before is not None
                and len(before) == 1
                and len(group) == 1
                and named[group[0]].best == "0"
                and named[before[0]].best in "123456789"
                and crowded.issuperset((before[0], group[0]))
            ):
                out[-1] = [before[0], group[0]]
            else:
                out.append(group)
        joined.append(out)
    return joined


def _made_whole(
    mask: npt.NDArray[Any], ink: npt.NDArray[Any], layout: Layout, chars: list[Blob]
) -> tuple[npt.NDArray[Any], list[Blob]]:
    """The clue mask with characters the first look found only in part made whole from a
    second, fainter look. A greyed-out (solved) clue on a tinted band is barely darker than
    its ground: only its thickest strokes pass the first threshold, and what is left of a
    "4" (its slant and the top of its stem) is read as no character and dropped. A piece
    short of a quarter of the characters' height has lost strokes (a greyed digit a little
    short, its thin ends cut, keeps its shape and is left alone): it is replaced by the faint
    look's character around it, when that one has a character's height and takes in no
    other character. `chars`: the mask's characters; returned with the mask, found anew
    when a character was mended."""
    if not chars:
        return mask, chars
    height = float(np.median([b.height for b in chars]))
    short = [b for b in chars if b.height < 0.75 * height]
    if not short:
        return mask, chars
    faint_mask = _without_ruling(_clue_mask(ink, layout.pitch, faint=True), layout)
    whole = [
        f
        for f in _characters(faint_mask, layout)
        if 0.85 * height <= f.height <= 1.2 * height and f.width <= layout.pitch
    ]
    mended = mask.copy()
    for piece in short:
        around = [f for f in whole if _inside(piece, f)]
        if len(around) != 1:
            continue
        outer = around[0]
        if any(_overlap(outer, b) for b in chars if b is not piece):
            continue  # it joins the piece to a neighbour: not one character
        region = (slice(outer.y0, outer.y1), slice(outer.x0, outer.x1))
        mended[region] = np.maximum(mended[region], faint_mask[region])
    if np.array_equal(mended, mask):
        return mask, chars
    return mended, _characters(mended, layout)


def _inside(inner: Blob, outer: Blob) -> bool:
    across = outer.x0 <= inner.x0 and inner.x1 <= outer.x1
    down = outer.y0 <= inner.y0 and inner.y1 <= outer.y1
    return across and down


def _overlap(a: Blob, b: Blob) -> bool:
    return min(a.x1, b.x1) > max(a.x0, b.x0) and min(a.y1, b.y1) > max(a.y0, b.y0)


def _border_reach(dark: npt.NDArray[Any], layout: Layout) -> tuple[float, float]:
    """How far the grid's outer left and top lines reach out from their middles (x, y in
    the picture): a thick border's outer edge. Next to filled cells the ink map loses most
    of such a line, and what is left of its edge, cut short by the lines across it, is a
    sliver a digit's height that passes for a "1"."""
    pitch = layout.pitch
    x0, y0 = round(layout.xs[0]), round(layout.ys[0])
    rows = slice(max(0, y0), round(layout.ys[-1]))
    cols = slice(max(0, x0), round(layout.xs[-1]))
    reach_x = reach_y = 0
    for step in range(1, max(2, int(0.3 * pitch))):
        if x0 - step < 0 or float(dark[rows, x0 - step].mean()) < 0.5:
            break
        reach_x = step
    for step in range(1, max(2, int(0.3 * pitch))):
        if y0 - step < 0 or float(dark[y0 - step, cols].mean()) < 0.5:
            break
        reach_y = step
    return layout.xs[0] - reach_x, layout.ys[0] - reach_y


def _off_the_border(chars: list[Blob], layout: Layout, dark: npt.NDArray[Any]) -> list[Blob]:
    """The characters without slivers of the grid's outer lines (thin pieces that reach
    into the line's ink, or to within a pixel or two of it, beside the grid's rows or
    above its columns: a photographed border's edge left by the line removal)."""
    left, top = _border_reach(dark, layout)
    xs, ys = layout.xs, layout.ys
    slack = max(1.5, 0.08 * layout.pitch)

    def sliver(b: Blob) -> bool:
        # thin along the line, and reaching into its ink or next to it (a digit set close
        # to the grid stops short of it)
        beside = ys[0] <= b.cy < ys[-1] and b.x1 > left - slack and b.width <= 0.35 * b.height
        above = xs[0] <= b.cx < xs[-1] and b.y1 > top - slack and b.height <= 0.35 * b.width
        return (beside and b.x0 < xs[0]) or (above and b.y0 < ys[0])

    all_xs, all_ys = layout.ruling if layout.boxed and layout.ruling else (xs, ys)
    # a boxed clue cell's line may stand a pixel or two off the lattice in a photo
    near_line = max(2.5, 0.12 * layout.pitch) if layout.boxed else slack

    def on_band_line(b: Blob) -> bool:
        # a clue band's ruled line shaded at its edge leaves a pixel-wide strip beside it,
        # a 1 to the recogniser: thinner than any stroke, right on the line (boxed clue
        # cells: on any of their lines)
        thin = 0.1 * layout.pitch
        down = (b.y1 <= ys[0] or layout.boxed) and b.width <= thin
        if down and min(abs(b.cx - x) for x in all_xs) <= near_line:
            return True
        if (b.x1 <= xs[0] or layout.boxed) and b.height <= thin:
            return min(abs(b.cy - y) for y in all_ys) <= near_line
        return False

    return [b for b in chars if not sliver(b) and not on_band_line(b)]


def _check_counts(clues: Clues, layout: Layout, where: str | None) -> None:
    """A clear error when the numbers found do not line up with the grid's rows and columns."""
    found_cols = sum(1 for c in clues.columns if c)
    found_rows = sum(1 for r in clues.rows if r)
    if found_cols == 0 and found_rows == 0:
        raise FormatError("a grid was found but no clue numbers beside it", source=where)
    for kind, size, found, extra, beyond in (
        ("columns", layout.width, found_cols, clues.extra_cols, "left or right of it"),
        ("rows", layout.height, found_rows, clues.extra_rows, "above or below it"),
    ):
        if extra:
            lines = "line" if extra == 1 else "lines"
            raise FormatError(
                f"the grid has {size} {kind} but clue numbers were found beside {extra} more "
                f"{lines} {beyond} (and beside {found} of its {kind})",
                source=where,
            )
        if found < size / 2:
            raise FormatError(
                f"the grid has {size} {kind} but clue numbers were found beside only {found} "
                "of them",
                source=where,
            )


def _in_order(clues: Clues) -> list[tuple[str, int, int, list[Blob]]]:
    """Every number's place and characters, row clues first (the order of a reading's
    numbers); a line without numbers as one empty stand-in."""
    order: list[tuple[str, int, int, list[Blob]]] = []
    for r, numbers in enumerate(clues.rows):
        order += [("row", r, i, n) for i, n in enumerate(numbers)] or [("row", r, 0, [])]
    for k, numbers in enumerate(clues.columns):
        order += [("col", k, i, n) for i, n in enumerate(numbers)] or [("col", k, 0, [])]
    return order


def _numbers(clues: Clues, layout: Layout, inverse: Matrix, picture: Picture) -> list[ReadNumber]:
    """Every number read, row clues first, each with its box in the original picture; a
    line without numbers as one blank stand-in."""
    found: list[ReadNumber] = []
    for kind, line, index, group in _in_order(clues):
        if not group:
            box = _original_box(inverse, [_clue_place(layout, kind, line)], picture)
            found.append(ReadNumber(kind, line, 0, None, 1.0, (), box, reason=BLANK))  # type: ignore[arg-type]
            continue
        ranked = _combine([clues.named[b].ranked for b in group])
        value, confidence = ranked[0]
        box = _original_box(inverse, group, picture)
        reason = None
        if clues.crowded.intersection(group):
            confidence *= 0.7
            reason = CROWDED
        elif clues.struck.intersection(group):
            confidence *= 0.9
            reason = STRUCK
        if value is None:
            reason = UNREAD
        found.append(
            ReadNumber(kind, line, index, value, confidence, tuple(ranked[1:6]), box, reason=reason)  # type: ignore[arg-type]
        )
    return _no_zero_beside_others(found)


def _no_zero_beside_others(found: list[ReadNumber]) -> list[ReadNumber]:
    """A 0 read beside other numbers of its line made its next-best value (a 0 is a clue
    only alone: the line is empty); its probability is the share it has of the values
    other than 0, and the number is marked as changed."""
    count = Counter((n.kind, n.line) for n in found)
    out = []
    for number in found:
        others = [(v, p) for v, p in number.alternatives if v not in (0, None)]
        if number.value == 0 and count[number.kind, number.line] > 1 and others:
            rest = max(1e-6, 1.0 - number.confidence)
            value, probability = others[0]
            number = replace(
                number,
                value=value,
                confidence=min(1.0, probability / rest),
                alternatives=tuple((v, min(1.0, p / rest)) for v, p in others[1:]),
                changed=True,
                read_as=0,
                reason=ZERO,
            )
        out.append(number)
    return out


def _faint_characters(
    found: list[Blob],
    layout: Layout,
    rows: list[list[list[Blob]]],
    columns: list[list[list[Blob]]],
    chars: list[Blob],
    every_line: bool = False,
) -> list[Blob]:
    """Of the marks a later look `found`, those beside the lines where the first look found
    no number, or beside `every_line`, none of them overlapping a character already found."""
    blank_rows = [r for r, numbers in enumerate(rows) if every_line or not numbers]
    blank_cols = [k for k, numbers in enumerate(columns) if every_line or not numbers]
    if not blank_rows and not blank_cols:
        return []
    pitch = layout.pitch

    def beside_blank(b: Blob) -> bool:
        if b.x1 <= layout.xs[0] - CLEAR * pitch:
            return any(layout.ys[r] <= b.cy < layout.ys[r + 1] for r in blank_rows)
        if b.y1 <= layout.ys[0] - CLEAR * pitch:
            return any(layout.xs[k] <= b.cx < layout.xs[k + 1] for k in blank_cols)
        return False

    boxes = np.array([(c.x0, c.y0, c.x1, c.y1) for c in chars], float).reshape(-1, 4)

    def new(b: Blob) -> bool:
        apart_x = np.minimum(b.x1, boxes[:, 2]) <= np.maximum(b.x0, boxes[:, 0])
        apart_y = np.minimum(b.y1, boxes[:, 3]) <= np.maximum(b.y0, boxes[:, 1])
        return bool(np.all(apart_x | apart_y))

    return [b for b in found if beside_blank(b) and new(b)]


def _in_clue_area(blob: Blob, layout: Layout) -> bool:
    """True when a character stands above the grid's columns or left of its rows."""
    xs, ys = layout.xs, layout.ys
    above = blob.y1 <= ys[0] and xs[0] <= blob.cx < xs[-1]
    beside = blob.x1 <= xs[0] and ys[0] <= blob.cy < ys[-1]
    return above or beside


def _clue_place(layout: Layout, kind: str, line: int) -> Blob:
    """Where a line's clue would stand next to the grid (a cell's size)."""
    pitch = layout.pitch
    if kind == "row":
        y0, y1 = layout.ys[line], layout.ys[line + 1]
        return Blob(int(layout.xs[0] - pitch), int(y0), int(layout.xs[0] - 0.1 * pitch), int(y1), 0)
    x0, x1 = layout.xs[line], layout.xs[line + 1]
    return Blob(int(x0), int(layout.ys[0] - pitch), int(x1), int(layout.ys[0] - 0.1 * pitch), 0)


def _name(
    chars: list[Blob], ink: npt.NDArray[Any], keep: npt.NDArray[Any]
) -> tuple[dict[Blob, Guess], dict[Blob, npt.NDArray[Any]]]:
    """The recogniser's guess for every character, in one batch, and the crops it read."""
    if not chars:
        return {}, {}
    crops = [glyph_image(ink, b, keep) for b in chars]
    guesses = recogniser().guess(np.stack(crops), DIGITS)
    return dict(zip(chars, guesses, strict=True)), dict(zip(chars, crops, strict=True))


def _combine(ranked: list[tuple[tuple[str, float], ...]]) -> list[tuple[int | None, float]]:
    """The values a group of characters may spell, most likely first (a "none" anywhere
    makes the group no number: None)."""
    options: dict[int | None, float] = {}
    for picks in itertools.product(*(r[:3] for r in ranked)):
        probability = math.prod(p for _, p in picks)
        symbols = [s for s, _ in picks]
        value = None if "none" in symbols else int("".join(symbols))
        options[value] = options.get(value, 0.0) + probability
    return sorted(options.items(), key=lambda item: -item[1])


def _original_box(
    inverse: Matrix, group: list[Blob], picture: Picture
) -> tuple[int, int, int, int]:
    x0 = min(b.x0 for b in group)
    y0 = min(b.y0 for b in group)
    x1 = max(b.x1 for b in group)
    y1 = max(b.y1 for b in group)
    corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
    mapped = gridlib.map_points(inverse, corners) / picture.scale
    lo = np.floor(mapped.min(axis=0)).astype(int)
    hi = np.ceil(mapped.max(axis=0)).astype(int)
    return (
        int(max(0, lo[0])),
        int(max(0, lo[1])),
        int(min(picture.width, hi[0])),
        int(min(picture.height, hi[1])),
    )


# -- the rules as a second reader ----------------------------------------------------------------
def clues_of(reading: Reading) -> tuple[list[list[int]], list[list[int]]]:
    return _clue_editor(reading)({})


def _sums(reading: Reading, rows: list[list[int]], cols: list[list[int]]) -> Verdict | None:
    """The cheap checks: totals agree, each clue fits its line. None when they pass."""
    problems = []
    overfull: set[tuple[str, int]] = set()
    for kind, clues, length in (("row", rows, reading.width), ("col", cols, reading.height)):
        for line, clue in enumerate(clues):
            need = sum(clue) + max(0, len(clue) - 1)
            if need > length:
                name = "row" if kind == "row" else "column"
                problems.append(
                    f"{name} {line + 1}: the clue {' '.join(map(str, clue))} needs {need} "
                    f"cells but the line has {length}"
                )
                overfull.add((kind, line))
    row_total, col_total = sum(map(sum, rows)), sum(map(sum, cols))
    if row_total != col_total:
        problems.append(f"the row clues add up to {row_total} but the column clues to {col_total}")
    if not problems:
        return None  # the common case on a hot path (the rules' confirmation): nothing more
    suspects = {i for i, n in enumerate(reading.numbers) if (n.kind, n.line) in overfull}
    checks = {
        "totals_agree": row_total == col_total,
        "clues_fit": not suspects,
        "solvable": None,
        "unique": None,
    }
    return Verdict(False, "none", tuple(problems), tuple(sorted(suspects)), checks)


def _verdict(reading: Reading, rows: list[list[int]], cols: list[list[int]]) -> Verdict:
    failed = _sums(reading, rows, cols)
    if failed is not None:
        return failed
    from pencilbox.genres.nonogram.model import make_puzzle

    try:
        puzzle = make_puzzle(rows, cols, max_size=None)
    except ValueError as error:
        return Verdict(False, "none", (str(error),), (), {"totals_agree": True})
    result = puzzle.solve(limit=2, time_limit=SOLVE_SECONDS)
    checks: dict[str, bool | None] = {"totals_agree": True, "clues_fit": True}
    if result.status == "none":
        checks.update(solvable=False, unique=False)
        return Verdict(False, "none", ("the clues read have no solution",), (), checks)
    if result.status == "timeout":
        checks.update(solvable=None, unique=None)
        return Verdict(True, "unknown", (), (), checks)
    checks.update(solvable=True, unique=result.status == "unique")
    return Verdict(True, result.status, (), (), checks)


def _clue_editor(
    reading: Reading,
) -> Callable[[Mapping[int, Value]], tuple[list[list[int]], list[list[int]]]]:
    """The row and column clues of the reading with some numbers changed (each line's
    numbers in order, blanks and zeros left out), remaking only the changed lines: the
    rules' confirmation weighs thousands of changes of one or two numbers."""
    numbers = reading.numbers
    members: dict[tuple[str, int], list[int]] = {}
    for i in sorted(range(len(numbers)), key=lambda i: (numbers[i].index, i)):
        members.setdefault((numbers[i].kind, numbers[i].line), []).append(i)

    def clue(line: tuple[str, int], changes: Mapping[int, Value]) -> list[int]:
        values = (changes[i] if i in changes else numbers[i].value for i in members[line])
        return [v for v in values if v]

    read: dict[str, list[list[int]]] = {
        "row": [[] for _ in range(reading.height)],
        "col": [[] for _ in range(reading.width)],
    }
    for kind, line in members:
        read[kind][line] = clue((kind, line), {})

    def clues_with(changes: Mapping[int, Value]) -> tuple[list[list[int]], list[list[int]]]:
        changed = {"row": list(read["row"]), "col": list(read["col"])}
        for kind, line in {(numbers[i].kind, numbers[i].line) for i in changes}:
            changed[kind][line] = clue((kind, line), changes)
        return changed["row"], changed["col"]

    return clues_with


def _solvable(rows: list[list[int]], cols: list[list[int]]) -> bool:
    """Whether clues that add up and fit their lines (`_sums`: the checks `make_puzzle`
    would repeat) have a solution, or one not found to be missing within SOLVE_SECONDS (as
    `_verdict` counts a timeout)."""
    from pencilbox.genres.nonogram.model import Nonogram
    from pencilbox.genres.nonogram.solve import solve

    puzzle = Nonogram(tuple(map(tuple, rows)), tuple(map(tuple, cols)))
    return solve(puzzle, limit=1, time_limit=SOLVE_SECONDS, with_grade=False).status != "none"


def judge(
    reading: Reading,
    repair: bool = False,
    looks: Callable[[], Looks] | None = None,
    lines: Callable[[], Mapping[line_reader.LineKey, Sequence[LineReading]]] | None = None,
) -> Reading:
    """The reading with its verdict and status; with `repair`, the numbers changed first
    when that makes clues that break the rules agree (`looks`: which characters are drawn
    alike, found when needed, when the picture is at hand; `lines`: the whole-line
    reader's readings of each line, read when needed)."""
    rows, cols = clues_of(reading)
    verdict = _verdict(reading, rows, cols)
    notes: list[str] = []
    if not verdict.consistent and repair:
        reading, verdict, notes = _repair(reading, verdict, looks, lines)
    if not verdict.consistent and not verdict.suspects:
        # nothing points at a number: the least certain ones are the ones to check
        order = sorted(range(len(reading.numbers)), key=lambda i: reading.numbers[i].confidence)
        verdict = replace(verdict, suspects=tuple(sorted(order[:3])))
    if not verdict.consistent:
        # a line without numbers may be a clue the reader missed (greyed out, say), a mark
        # read as no number a clue it could not read
        blank = {i for i, n in enumerate(reading.numbers) if _blank(n)}
        verdict = replace(verdict, suspects=tuple(sorted(blank | set(verdict.suspects))))
    if verdict.solutions == "unique":
        reading = _confirmed_by_rules(reading)
    confident = all(n.confident for n in reading.numbers)
    changed = any(n.changed for n in reading.numbers)
    status: Status = "ok" if verdict.consistent and confident and not changed else "uncertain"
    confidence = min([n.confidence for n in reading.numbers] + [1.0])
    if not verdict.consistent:
        confidence *= 0.5
    return replace(
        reading,
        verdict=verdict,
        status=status,
        confidence=confidence,
        repairs=tuple(reading.repairs) + tuple(notes),
    )


def _confirmed_by_rules(reading: Reading) -> Reading:
    """A reading with one solution whose doubts the rules settle, all of them
    (picture_confirm), with those numbers sure; else the reading as it was, every doubt
    kept: the rules weigh each number with the others taken as read, which a reading with
    a number the repair changed or a doubt left does not warrant. (A line the reader is
    sure has no number is taken as read too; a mark it could not read is a doubt to settle,
    as no number or as the numbers it may be.)"""
    numbers = reading.numbers
    if any(n.changed for n in numbers):
        return reading
    doubtful = [i for i, n in enumerate(numbers) if not n.confident]
    if not doubtful:
        return reading

    clues_with = _clue_editor(reading)

    def sound(changes: Mapping[int, Value]) -> bool:
        # as `_agreed_verdict`, but any solution will do: no second one, no grade
        rows, cols = clues_with(changes)
        return _sums(reading, rows, cols) is None and _solvable(rows, cols)

    settled = confirmed(reading, doubtful, sound)
    return settled if all(n.confident for n in settled.numbers) else reading


def _changed(reading: Reading, changes: Mapping[int, Value]) -> Reading:
    numbers = list(reading.numbers)
    for i, value in changes.items():
        numbers[i] = replace(numbers[i], value=value)
    return replace(reading, numbers=tuple(numbers))


def _blank(number: ReadNumber) -> bool:
    """True for the stand-in of a line where no number was found, or for a mark read as no
    number (not edited since)."""
    return number.reason in (BLANK, UNREAD) and number.value is None and not number.edited


def _repair(
    reading: Reading,
    verdict: Verdict,
    looks: Callable[[], Looks] | None = None,
    lines: Callable[[], Mapping[line_reader.LineKey, Sequence[LineReading]]] | None = None,
) -> tuple[Reading, Verdict, list[str]]:
    relined = _relined(reading, verdict, lines()) if lines is not None else None
    if relined is not None:
        return relined
    regrouped = _regrouped(reading, verdict)
    if regrouped is not None:
        return regrouped
    repaired = _repaired_numbers(reading, verdict)
    if repaired is None and looks is not None:
        repaired = _repaired_looks(reading, verdict, looks())
    return repaired or (reading, verdict, [])


def _relined(
    reading: Reading, verdict: Verdict, lines: Mapping[line_reader.LineKey, Sequence[LineReading]]
) -> tuple[Reading, Verdict, list[str]] | None:
    """The reading with the lines the whole-line reader read otherwise read its way, when
    that makes the clues agree with one solution (the glyph reading broke the rules)."""
    for choice in line_reader.line_repairs(reading.numbers, lines):
        attempt = replace(reading, numbers=line_reader.with_lines(reading.numbers, choice))
        judged = _agreed_verdict(attempt, several=False)
        if judged is not None:
            why = verdict.problems[0] if verdict.problems else "the clues had no solution"
            notes = [
                f"{'row' if kind == 'row' else 'column'} {line + 1}: {why}; read whole, "
                f"the line is {' '.join(map(str, r.numbers)) or 'empty'}"
                for (kind, line), r in choice.items()
            ]
            return attempt, judged, notes
    return None


def _repaired_numbers(
    reading: Reading, verdict: Verdict
) -> tuple[Reading, Verdict, list[str]] | None:
    """The reading with one or two of its least certain numbers changed to the recogniser's
    next-best values, when that makes the clues agree; None when no such change does."""
    order = sorted(range(len(reading.numbers)), key=lambda i: reading.numbers[i].confidence)
    picked = [i for i in order if reading.numbers[i].confidence < 0.995][:10]
    suspects = [
        Suspect(i, reading.numbers[i].confidence, reading.numbers[i].alternatives) for i in picked
    ]
    if not suspects:
        return None

    def trial(changes: Mapping[int, Value]) -> Reading:
        return _changed(reading, changes)

    agreed: dict[frozenset[tuple[int, Value]], Verdict] = {}

    def passes(changes: Mapping[int, Value]) -> bool:
        judged = _agreed_verdict(trial(changes))
        if judged is not None:
            agreed[frozenset(changes.items())] = judged
        return judged is not None

    found = search(suspects, passes, max_changes=2, time_limit=3.0)
    if found.changes is None:
        return None
    attempt = trial(found.changes)
    judged = agreed[frozenset(found.changes.items())]
    return _with_changes(reading, verdict, attempt, judged, found.ambiguous)


def _agreed_verdict(attempt: Reading, several: bool = True) -> Verdict | None:
    """The verdict on `attempt`'s clues when they agree (totals, fit, a solution; unless
    `several`, one that is not one of several); None when they do not."""
    rows, cols = clues_of(attempt)
    if _sums(attempt, rows, cols) is not None:
        return None
    judged = _verdict(attempt, rows, cols)
    if not judged.consistent or (not several and judged.solutions == "multiple"):
        return None
    return judged


def _with_changes(
    reading: Reading,
    verdict: Verdict,
    attempt: Reading,
    agreed: Verdict,
    ambiguous: bool,
    how: str = "",
) -> tuple[Reading, Verdict, list[str]]:
    """`attempt` (the reading with values changed, whose clues agree: `agreed`) with every
    changed number marked as changed and why (`verdict`'s first problem; `how`: the way of
    the change), and a note per number."""
    why = verdict.problems[0] if verdict.problems else "the clues had no solution"
    numbers = list(attempt.numbers)
    notes = []
    for i, (before, after) in enumerate(zip(reading.numbers, attempt.numbers, strict=True)):
        if before.value == after.value:
            continue
        reason = f"read as {before.value} but {why}; {after.value} makes the clues agree{how}"
        if ambiguous:
            reason += " (another change would too)"
        probability = dict(before.alternatives).get(after.value, 0.0)
        numbers[i] = replace(
            after, changed=True, read_as=before.value, confidence=probability, reason=reason
        )
        where = before.where()
        notes.append(f"{where['clue']} number {where['index']}: {reason}")
    return replace(reading, numbers=tuple(numbers)), agreed, notes


def _looks(clues: Clues) -> Looks:
    """Which characters of the numbers are drawn alike (see core/vision/looks.py)."""
    index: dict[Guess, int] = {}
    crops: list[npt.NDArray[Any] | None] = []
    of_number = []
    for _, _, _, group in _in_order(clues):
        ids = []
        for blob in group:
            guess = clues.named[blob]
            if guess not in index:
                index[guess] = len(index)
                crops.append(clues.crops.get(blob))
            ids.append(index[guess])
        of_number.append(tuple(ids))
    return Looks(tuple(of_number), tuple(index), kin_of(crops))


def _repaired_looks(
    reading: Reading, verdict: Verdict, looks: Looks
) -> tuple[Reading, Verdict, list[str]] | None:
    """The reading with kin of looks read as other digits in every number drawn with them
    (kin read as different digits settled on the best on average, and up to three kin
    changed to their next-best digits), when that makes the clues agree; None when no such
    change does. Only numbers that still hold what their looks spell change (not those a
    rule or a regrouping changed). Tried when changing one or two numbers failed: a face
    misread throughout makes too many numbers wrong for that."""
    if len(looks.of_number) != len(reading.numbers):
        return None
    plain = [
        i
        for i, number in enumerate(reading.numbers)
        if not number.edited and number.value == look_value(looks, i, {})
    ]
    used = {look for i in plain for look in looks.of_number[i]}
    suspects, settled = kin_suspects(looks, used)
    if not suspects and not settled:
        return None

    def trial(changes: Mapping[int, Value]) -> Reading:
        changes = {**settled, **changes}
        numbers = list(reading.numbers)
        for i in plain:
            if changes.keys() & {looks.kin[look] for look in looks.of_number[i]}:
                numbers[i] = replace(numbers[i], value=look_value(looks, i, changes))
        return replace(reading, numbers=tuple(numbers))

    agreed: dict[frozenset[tuple[int, Value]], Verdict] = {}

    def passes(changes: Mapping[int, Value]) -> bool:
        # a change of many numbers that leaves several solutions proves nothing
        judged = _agreed_verdict(trial(changes), several=False)
        if judged is not None:
            agreed[frozenset(changes.items())] = judged
        return judged is not None

    if settled and passes({}):
        changes: Mapping[int, Value] = {}
        ambiguous = False
    else:
        found = search(suspects, passes, max_changes=3, time_limit=3.0, floor=REAL_DOUBT)
        if found.changes is None:
            return None
        changes, ambiguous = found.changes, found.ambiguous
    judged = agreed[frozenset(changes.items())]
    how = " (every character drawn alike changed with it)"
    return _with_changes(reading, verdict, trial(changes), judged, ambiguous, how)


Toggle = tuple[str, int]
"""A change of grouping: ("join", i) reads numbers i and i + 1 as one, ("split", i) reads
number i's two digits as two numbers."""
REGROUP_SECONDS = 2.0
"""The regrouping's budget, in the reading thread's CPU time (core/timing.work_seconds)."""


def _toggles(reading: Reading) -> list[Toggle]:
    """The groupings in doubt (digits `_crowded` found about as far apart as the digits of
    a number and the numbers of a clue): single digits side by side that may be one
    number, and numbers of two digits that may be two."""
    numbers = reading.numbers
    found: list[Toggle] = []
    for i, number in enumerate(numbers):
        if number.reason != CROWDED or number.value is None:
            continue
        if number.value >= 10 and number.value % 10:
            found.append(("split", i))
        after = numbers[i + 1] if i + 1 < len(numbers) else None
        if (
            after is not None
            and (after.kind, after.line, after.index)
            == (number.kind, number.line, number.index + 1)
            and after.reason == CROWDED
            and after.value is not None
            and 0 < number.value < 10
            and 0 <= after.value < 10
        ):
            found.append(("join", i))
    return found


def _changed_group(number: ReadNumber, value: int, box: Any, reason: str) -> ReadNumber:
    """`number` as one of a changed grouping: its new value and box, marked as changed."""
    return replace(
        number,
        value=value,
        box=box,
        confidence=0.5,
        changed=True,
        read_as=number.value,
        reason=reason,
    )


def _regroup(reading: Reading, toggles: tuple[Toggle, ...], why: str) -> Reading:
    """The reading with the groupings changed (each changed number marked, with the reason),
    the numbers of each clue numbered again in order."""
    joins = {i for kind, i in toggles if kind == "join"}
    splits = {i for kind, i in toggles if kind == "split"}
    out: list[ReadNumber] = []
    numbers = reading.numbers
    skip = False
    for i, number in enumerate(numbers):
        if skip:
            skip = False
            continue
        if i in joins:
            after = numbers[i + 1]
            assert number.value is not None and after.value is not None
            value = 10 * number.value + after.value
            box = _union_box(number.box, after.box)
            reason = (
                f"read as {number.value} and {after.value} but {why}; {value} as one number "
                "makes the clues agree"
            )
            out.append(_changed_group(number, value, box, reason))
            skip = True
        elif i in splits:
            assert number.value is not None
            tens, units = divmod(number.value, 10)
            reason = (
                f"read as {number.value} but {why}; {tens} and {units} as two numbers make "
                "the clues agree"
            )
            left, right = _halved_box(number.box)
            out += [_changed_group(number, v, b, reason) for v, b in ((tens, left), (units, right))]
        else:
            out.append(number)
    counts: dict[tuple[str, int], int] = {}
    renumbered = []
    for number in out:
        key = (number.kind, number.line)
        renumbered.append(replace(number, index=counts.get(key, 0)))
        counts[key] = counts.get(key, 0) + 1
    return replace(reading, numbers=tuple(renumbered))


def _regrouped(reading: Reading, verdict: Verdict) -> tuple[Reading, Verdict, list[str]] | None:
    """The reading with one or two groupings in doubt changed, when that makes the clues
    agree (totals, fit, a solution): "1 2" read as two numbers where the totals need 12,
    say. The fewest changes first; None when no such change passes."""
    toggles = _toggles(reading)
    if not toggles:
        return None
    started = work_seconds()
    why = verdict.problems[0] if verdict.problems else "the clues had no solution"
    trials: list[tuple[Toggle, ...]] = [(t,) for t in toggles]
    if len(toggles) <= 8:
        trials += [
            pair for pair in itertools.combinations(toggles, 2) if abs(pair[0][1] - pair[1][1]) > 1
        ]
    passing: list[tuple[tuple[Toggle, ...], Reading, Verdict]] = []
    for trial in trials:
        if passing and len(trial) > len(passing[0][0]):
            break
        if work_seconds() - started > REGROUP_SECONDS:
            break
        attempt = _regroup(reading, trial, why)
        judged = _agreed_verdict(attempt)
        if judged is not None:
            passing.append((trial, attempt, judged))
    if not passing:
        return None
    _, repaired, agreed = passing[0]
    if len(passing) > 1:  # the picture does not decide between them: say so
        repaired = replace(
            repaired,
            numbers=tuple(
                replace(n, reason=f"{n.reason} (another grouping would too)") if n.changed else n
                for n in repaired.numbers
            ),
        )
    notes = [
        f"{n.where()['clue']} number {n.where()['index']}: {n.reason}"
        for n in repaired.numbers
        if n.changed
    ]
    return repaired, agreed, notes


def _union_box(a: tuple[int, int, int, int] | None, b: tuple[int, int, int, int] | None) -> Any:
    if a is None or b is None:
        return a or b
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _halved_box(box: tuple[int, int, int, int] | None) -> tuple[Any, Any]:
    if box is None:
        return None, None
    x0, y0, x1, y1 = box
    middle = (x0 + x1) // 2
    return (x0, y0, middle, y1), (middle, y0, x1, y1)


def recheck(reading: Reading) -> Reading:
    return judge(reading, repair=False)


def puzzle_json(reading: Reading) -> dict[str, Any]:
    rows, cols = clues_of(reading)
    return {"rows": rows, "cols": cols}


def puzzle_text(reading: Reading) -> str:
    rows, cols = clues_of(reading)

    def line(clues: list[list[int]]) -> str:
        return ",".join(" ".join(map(str, c)) if c else "0" for c in clues)

    return f"{line(rows)}\n{line(cols)}\n"


def score_image(picture: Picture) -> float:
    """9.5 when a ruled grid has numbers above most of its columns and left of most of its
    rows; low otherwise (a sudoku or a board has no clues outside its grid)."""
    try:
        turned, matrix, layout, _ = _find(picture)
    except FormatError:
        return 0.0
    window = max(5, int(layout.pitch * 0.6))
    over = _clue_ink_dark(turned, layout)
    ink = ink_map(over, window)
    chars = _characters(_without_ruling(_clue_mask(ink, layout.pitch), layout), layout)
    darkest = _darkest_channel(picture, turned, matrix) if over is turned else None
    if _clue_coverage(chars, layout) < 0.6 and darkest is not None:
        # the last look `_clues` takes, for numbers greyed in a pale colour: the marks that
        # the ink picture hides only (a page's grey text beside a sudoku is no clue)
        chars += _pale_marks(darkest, ink, layout)[0]
    covered = _clue_coverage(chars, layout)
    return 9.5 if covered >= 0.6 else 3.0 * covered


def _clue_coverage(chars: list[Blob], layout: Layout) -> float:
    """The share of the grid's columns with marks above them, or of its rows with marks
    left of them, whichever is the lower."""
    columns, _ = _column_clues(chars, layout)
    rows, _ = _row_clues(chars, layout, 0.5 * layout.pitch)
    return min(
        sum(1 for c in columns if c) / layout.width, sum(1 for r in rows if r) / layout.height
    )
