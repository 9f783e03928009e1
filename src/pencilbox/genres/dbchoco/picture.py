"""Reading a Double Choco from a screenshot of a puzz.link-style board.

1. The board is the biggest well-bordered rectangle; it is straightened (core.vision.grid).
2. Its cell size is where the profile of its (often dashed) inner lines repeats; the count of
   columns and rows follows from the board's size.
3. Each cell's ground, measured away from its number, is white or gray: the two levels are
   told apart by the largest jump between the cells' grounds.
4. Numbers: the ink near each cell's middle, cut into characters, named in one batch.
5. The rules read again: the board must have a solution (and, as published, one only).
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import replace
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from pencilbox.core.vision import grid as gridlib
from pencilbox.core.vision.glyphs import Blob, blobs, glyph_image, ink_map, recogniser
from pencilbox.core.vision.picture import Picture
from pencilbox.core.vision.reading import Reading, ReadNumber, Status, Verdict
from pencilbox.core.vision.repair import Suspect, floor_for, search
from pencilbox.errors import FormatError

CELL = 40
SOLVE_SECONDS = 3.0


def _boards(dark_ink: npt.NDArray[Any]) -> list[gridlib.Quad]:
    """Outlines that may be the board, largest first (a photographed page's edge comes
    before the board printed on it)."""
    factor = min(1.0, 900 / max(dark_ink.shape))
    small = cv2.resize(dark_ink, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    mask = gridlib.line_mask(small, max(small.shape) // 25)
    # a small board on a wide page (a web page's window around a 6x6) covers a few
    # hundredths of the picture, behind the page's frame and its menus
    found = gridlib.quads(mask, min_area=0.01 * small.shape[0] * small.shape[1])
    outlines = []
    for quad in found[:6]:
        width = float(np.linalg.norm(quad[1] - quad[0]))
        height = float(np.linalg.norm(quad[3] - quad[0]))
        if min(width, height) >= 40:
            outlines.append(quad / factor)
    return outlines


def _board(
    dark_ink: npt.NDArray[Any],
) -> tuple[gridlib.Quad, tuple[int, int] | None, npt.NDArray[Any]] | None:
    """The board's outline, its columns and rows (None when they cannot be counted) and the
    board straightened at its own size: of the outlines whose lines are all there across
    and down in square cells, the one with the most cells (a photographed page's edge,
    around the board, finds only the board lines that fall near an even split of the page:
    fewer); else the largest outline."""
    first = None
    best: tuple[gridlib.Quad, tuple[int, int], npt.NDArray[Any]] | None = None
    for quad in _boards(dark_ink):
        width = int(np.linalg.norm(quad[1] - quad[0]))
        height = int(np.linalg.norm(quad[3] - quad[0]))
        straight = cv2.warpPerspective(
            dark_ink, gridlib.rect_warp(quad, width, height), (width, height)
        )
        cols = _count_both(straight, axis=0)
        rows = _count_both(straight, axis=1)
        if (
            cols
            and rows
            and _square(width / cols, height / rows)
            and _reach_ends(straight, cols, 0)
            and _reach_ends(straight, rows, 1)
        ):
            if best is None or cols * rows > best[1][0] * best[1][1]:
                best = quad, (cols, rows), straight
        elif first is None:
            first = quad, _cells(straight, width, height), straight
    return best or first


def _reach_ends(straight: npt.NDArray[Any], count: int, axis: int) -> bool:
    """True when the inner lines (vertical ones for axis=0) run into the first and the last
    cell along them: a board's lines do, but a photographed page's edge taken for the
    board leaves a margin of paper that no line crosses. The lines' marks there are
    measured against those halfway between lines (their median: a number may sit there),
    as the paper's grain and the picture's noise leave marks everywhere on a photo."""
    marks = _line_marks(straight, axis, False) | _line_marks(straight, axis, True)
    if axis == 1:
        marks = marks.T
    length, side = marks.shape  # along the lines, across them
    pitch = (side + 6) / count
    end = max(2, int(pitch * 0.8))
    reach = max(1, round(0.08 * pitch))

    def ends(at: int) -> tuple[float, float]:
        band = marks[:, max(0, at - reach) : at + reach + 1].max(axis=1)
        return float(band[:end].mean()), float(band[length - end :].mean())

    between = [ends(round((k + 0.5) * pitch) - 3) for k in range(count)]
    ground = [float(np.median([b[side] for b in between])) for side in (0, 1)]
    shares = []
    for k in range(1, count):
        line = ends(round(k * pitch) - 3)
        shares.append(min(line[0] - ground[0], line[1] - ground[1]))
    return bool(shares) and float(np.median(shares)) >= 0.3


def _square(width: float, height: float) -> bool:
    return max(width, height) <= 1.2 * min(width, height)


def _cells(straight: npt.NDArray[Any], width: int, height: int) -> tuple[int, int] | None:
    """How many columns and rows the straightened board has: the count whose inner lines
    all run nearly the board's length (else where the lines' profile repeats)."""
    margin = 3
    inner = ink_map(straight, window=9)[margin:-margin, margin:-margin]
    if min(inner.shape) < 16:
        return None
    cols = _count_both(straight, axis=0)
    rows = _count_both(straight, axis=1)
    if cols is None and rows is None:
        return _cells_by_period(inner, width, height)
    if cols is None:
        cols = max(1, round(width / (height / rows))) if rows else None
    if rows is None:
        rows = max(1, round(height / (width / cols))) if cols else None
    if cols is None or rows is None:
        return None
    return cols, rows


def _count_both(straight: npt.NDArray[Any], axis: int) -> int | None:
    """The cell count along one axis by thin dark lines, or by any kind of line mark when
    that finds a multiple of it (lines hidden on dark cells leave only some of the lines
    dark: those of a coarser count)."""
    lax = _count_lines(_line_marks(straight, axis, False), axis)
    strict = _count_lines(_line_marks(straight, axis, True), axis)
    if lax is None or (strict is not None and strict % lax == 0):
        return strict or lax
    return lax


def _line_marks(straight: npt.NDArray[Any], axis: int, strict: bool) -> npt.NDArray[Any]:
    """Where a line between cells shows (inside a 3-pixel margin) across vertical lines
    (axis=0) or horizontal ones (axis=1): a thin dark line; or, `strict`, a clearly dark
    line, a clearly light one (lines drawn lighter than dark cells) or a step between a
    dark and a light cell."""
    dark = ink_map(straight, window=9)
    if not strict:
        return (dark > 0.08)[3:-3, 3:-3].astype(np.uint8)
    light = ink_map(straight, window=9, dark_ink=False)
    smooth = cv2.GaussianBlur(straight, (3, 3), 0).astype(np.int16)
    step = np.zeros(straight.shape, bool)
    if axis == 0:
        step[:, 1:-1] = np.abs(smooth[:, 2:] - smooth[:, :-2]) > 40
    else:
        step[1:-1, :] = np.abs(smooth[2:, :] - smooth[:-2, :]) > 40
    marks: npt.NDArray[Any] = ((dark > 0.15) | (light > 0.06) | step)[3:-3, 3:-3]
    return marks.astype(np.uint8)


def _coverage(on: npt.NDArray[Any], axis: int) -> npt.NDArray[Any]:
    """For each column (axis=0) or row (axis=1) of the board, the share of its length that
    is line: marks with dash gaps closed along the line, the best of three neighbours."""
    length = on.shape[axis]
    gap = max(3, length // 50) | 1
    shape = (1, gap) if axis == 0 else (gap, 1)  # (width, height) of the kernel
    closed = cv2.morphologyEx(on, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, shape))
    share = closed.mean(axis=axis).astype(np.float32)
    widened: npt.NDArray[Any] = np.maximum(share, np.maximum(np.roll(share, 1), np.roll(share, -1)))
    return widened


def _count_lines(marks: npt.NDArray[Any], axis: int) -> int | None:
    """The largest cell count whose every inner line (evenly spaced across the board) is
    there, running most of the board's length; None when no count has its lines."""
    share = _coverage(marks, axis)
    side = len(share) + 6  # the margin cut off both ends
    background = float(np.median(share))
    best = None
    for count in range(2, max(2, side // 8) + 1):
        pitch = side / count
        reach = max(1, round(0.08 * pitch))
        found = []
        for k in range(1, count):
            at = round(k * pitch) - 3
            lo, hi = max(0, at - reach), min(len(share), at + reach + 1)
            found.append(float(share[lo:hi].max()) if hi > lo else 0.0)
        if min(found) >= max(0.3, background + 0.2):
            best = count
    return best


def _cells_by_period(inner: npt.NDArray[Any], width: int, height: int) -> tuple[int, int] | None:
    """Cells counted where the profile of the inner lines repeats (boards whose lines do not
    run the whole length, e.g. lines only between white cells)."""
    across = inner.sum(axis=0)
    down = inner.sum(axis=1)
    pitch_x = gridlib.period(across.astype(np.float32), 8)
    pitch_y = gridlib.period(down.astype(np.float32), 8)
    pitch = pitch_x or pitch_y
    if pitch is None:
        return None
    pitch_x = pitch_x or pitch
    pitch_y = pitch_y or pitch
    return max(1, round(width / pitch_x)), max(1, round(height / pitch_y))


def _check_square(width: float, height: float, counts: tuple[int, int], source: Any) -> None:
    """Board cells are square: cells counted otherwise are a misreading, not a board."""
    if not _square(width, height):
        raise FormatError(
            f"the board's cells could not be counted ({counts[0]}x{counts[1]} cells of "
            f"{width:.0f}x{height:.0f} pixels are not square)",
            source=source,
        )


SMALL = 4
"""Fewer cells a side than any published board has: such a count may be lines missed."""


def _check_numbers_fit(numbers: list[ReadNumber], cols: int, rows: int, source: Any) -> None:
    """A number counts the cells of one colour of its area, at most half the board: a larger
    one on a board of very few cells says that lines of the grid were missed (a photo's faint
    lines), and the cells counted are not the board's."""
    if min(cols, rows) >= SMALL:
        return
    half = cols * rows // 2
    for number in numbers:
        if number.value is not None and number.value > half:
            raise FormatError(
                f"the board was read as {cols}x{rows} cells, but r{number.line + 1}"
                f"c{number.index + 1} holds a {number.value}, more than half of them: lines of "
                "the grid were missed",
                source=source,
            )


def read_image(picture: Picture) -> Reading:
    started = time.perf_counter()
    dark_ink, _ = gridlib.brightness(picture.work)
    found = _board(dark_ink)
    if found is None:
        raise FormatError("no Double Choco board found (no bordered grid)", source=picture.source)
    quad, counts, straight = found
    side_w, side_h = float(straight.shape[1]), float(straight.shape[0])
    if counts is None or min(counts) < 2:
        raise FormatError(
            "no Double Choco board found (no cells inside the border)", source=picture.source
        )
    cols, rows = counts
    _check_square(side_w / cols, side_h / rows, counts, picture.source)
    matrix = gridlib.rect_warp(quad, cols * CELL, rows * CELL)
    gray_work = cv2.cvtColor(picture.work, cv2.COLOR_BGR2GRAY)
    board = cv2.warpPerspective(gray_work, matrix, (cols * CELL, rows * CELL))
    ink = ink_map(board, window=CELL // 3)
    strong = float(np.percentile(ink, 99.5))
    mask = ((ink > max(0.15, 0.35 * strong)) * 255).astype(np.uint8)
    grounds = _grounds(board, mask, cols, rows)
    glyph_groups, smudges = _cell_numbers(mask, cols, rows)
    gray_cells, colour_doubts = _split_grounds(grounds)
    keep = cv2.dilate(mask, np.ones((3, 3), np.uint8)) > 0
    flat = [b for *_, group in glyph_groups for b in group]
    crops = (
        np.stack([glyph_image(ink, b, keep) for b in flat])
        if flat
        else np.zeros((0, 28, 28), np.float32)
    )
    guesses = recogniser().guess(crops, "0123456789")
    inverse = np.linalg.inv(matrix)
    numbers: list[ReadNumber] = []
    at = 0
    for r, c, group in glyph_groups:
        parts = guesses[at : at + len(group)]
        at += len(group)
        ranked = _combine([g.ranked for g in parts])
        value, confidence = ranked[0]
        box = _original_box(inverse, group, picture)
        reason = None
        if (r, c) in colour_doubts:
            confidence = min(confidence, colour_doubts.pop((r, c)))
            reason = "the cell is between gray and white"
        numbers.append(
            ReadNumber("cell", r, c, value, confidence, tuple(ranked[1:6]), box, reason=reason)
        )
    numbers += _doubtful_cells(smudges, colour_doubts, inverse, picture)
    _check_numbers_fit(numbers, cols, rows, picture.source)
    corners = (
        gridlib.map_points(
            inverse,
            np.array(
                [[0, 0], [cols * CELL, 0], [cols * CELL, rows * CELL], [0, rows * CELL]], np.float32
            ),
        )
        / picture.scale
    )
    reading = Reading(
        "dbchoco",
        cols,
        rows,
        tuple(numbers),
        grid=tuple((float(x), float(y)) for x, y in corners),
        genre_data={"colors": ["".join("g" if g else "w" for g in row) for row in gray_cells]},
        picture_size=(picture.width, picture.height),
        source=picture.source,
    )
    reading = judge(replace(reading, read_s=time.perf_counter() - started), repair=True)
    return replace(reading, time_s=time.perf_counter() - started)


def _grounds(
    board: npt.NDArray[Any], mask: npt.NDArray[Any], cols: int, rows: int
) -> npt.NDArray[Any]:
    """Each cell's ground: the median grey of its middle, away from its number's ink."""
    grounds = np.zeros((rows, cols), np.float32)
    inset = CELL // 8
    for r in range(rows):
        for c in range(cols):
            x0, y0 = c * CELL, r * CELL
            patch = board[y0 + inset : y0 + CELL - inset, x0 + inset : x0 + CELL - inset]
            patch_ink = mask[y0 + inset : y0 + CELL - inset, x0 + inset : x0 + CELL - inset]
            ground = patch[patch_ink == 0]
            grounds[r, c] = float(np.median(ground)) if ground.size else float(np.median(patch))
    return _even_light(grounds)


def _even_light(levels: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """Cell levels (rows x columns) as if the light were even: each divided by the paper's
    brightness where it lies, a plane fitted to the lighter cells (a photographed page is
    often lit from one side: its white cells at the dim end are darker than its gray ones
    at the bright end), and scaled back to the paper's typical brightness."""
    rows, cols = levels.shape
    if rows * cols < 6:
        return levels
    ys, xs = np.mgrid[0:rows, 0:cols]
    design = np.column_stack([np.ones(rows * cols), xs.ravel(), ys.ravel()])
    values = levels.ravel().astype(np.float64)
    chosen = np.ones(len(values), bool)
    for _ in range(3):
        coef, *_ = np.linalg.lstsq(design[chosen], values[chosen], rcond=None)
        plane = design @ coef
        # within a few levels of the plane counts as on it: white cells of one level would
        # otherwise be split by rounding, and a plane fitted to a few of them tilts anyhow
        above = values >= plane - 0.03 * float(np.median(values))
        if above.sum() < 3 or bool(np.array_equal(above, chosen)):
            break
        chosen = above
    # uneven light dims a page by a part, never to black: a plane that a pattern of
    # light cells tilted further (white cells bunched at one side) is held to that
    typical = max(float(np.median(values[chosen])), 1.0)
    plane = np.clip(design @ coef, 0.6 * typical, 1.4 * typical)
    flat: npt.NDArray[Any] = (values * (float(np.median(plane)) / plane)).reshape(rows, cols)
    return flat.astype(np.float32)


def _cell_numbers(
    mask: npt.NDArray[Any], cols: int, rows: int
) -> tuple[list[tuple[int, int, list[Blob]]], set[tuple[int, int]]]:
    """The characters of each cell's number (none, one or two digits), and the cells with
    ink that is no character (a smudge, a mark, a piece of a number the reader lost).

    The lines are wiped first (a band along each, wide enough for the player's bold walls),
    so that a digit that comes near a line is not joined to it; each piece of ink left then
    belongs to the cell its middle lies in."""
    clean = mask.copy()
    band = max(2, CELL // 13)
    for k in range(1, cols):
        clean[:, k * CELL - band : k * CELL + band + 1] = 0
    for k in range(1, rows):
        clean[k * CELL - band : k * CELL + band + 1, :] = 0
    height, width = clean.shape
    clean[: _border(mask[: CELL // 4, :], 0), :] = 0
    clean[height - _border(mask[::-1][: CELL // 4, :], 0) :, :] = 0
    clean[:, : _border(mask[:, : CELL // 4], 1)] = 0
    clean[:, width - _border(mask[:, ::-1][:, : CELL // 4], 1) :] = 0
    found, _ = blobs(clean, min_area=4)
    pieces: dict[tuple[int, int], list[Blob]] = {}
    for blob in found:
        c, r = int(blob.cx // CELL), int(blob.cy // CELL)
        if not (0 <= c < cols and 0 <= r < rows):
            continue
        off_x = abs(blob.cx - (c + 0.5) * CELL)
        off_y = abs(blob.cy - (r + 0.5) * CELL)
        if off_x < 0.38 * CELL and off_y < 0.3 * CELL:
            pieces.setdefault((r, c), []).append(blob)
    groups: dict[tuple[int, int], list[Blob]] = {}
    smudges: set[tuple[int, int]] = set()
    for (r, c), near in pieces.items():
        for blob in _characters(near):
            glyph = 0.3 * CELL <= blob.height < 0.95 * CELL and blob.width < 0.9 * CELL
            if glyph:
                groups.setdefault((r, c), []).append(blob)
            elif blob.height >= 0.15 * CELL and blob.area >= 0.02 * CELL * CELL:
                smudges.add((r, c))
    cells = []
    for (r, c), parts in sorted(groups.items()):
        parts.sort(key=lambda b: b.x0)
        cells.append((r, c, parts[:3]))
    return cells, smudges - set(groups)


def _characters(pieces: list[Blob]) -> list[Blob]:
    """The pieces of ink near a cell's middle joined into characters: pieces one above the
    other (a thin print or a small screenshot breaks a digit's strokes apart) are one
    character, pieces side by side are two (the digits of a number)."""
    merged: list[Blob] = []
    for blob in sorted(pieces, key=lambda b: b.x0):
        if merged and blob.x0 < merged[-1].x1 - 1:
            merged[-1] = merged[-1].union(blob)
        else:
            merged.append(blob)
    return merged


def _border(strip: npt.NDArray[Any], axis: int) -> int:
    """How deep the board's outer border reaches into it (pixels, at least the inner lines'
    band): the first row (axis=0) or column (axis=1) of the strip along one side that is
    mostly not ink past the border's, plus one for the border's soft edge. (The border may
    stand a pixel or two in from the side, where the warp's rounding left a margin: its
    inner edge, 2 px wide and as tall as a cell, must not pass for a "1" in every cell.)"""
    inked = ((strip > 0).mean(axis=1 - axis) >= 0.5).tolist()
    least = CELL // 13 + 1
    if True not in inked:
        return least
    start = inked.index(True)
    beyond = [*inked[start:], False]
    end = start + beyond.index(False)
    return len(inked) if end >= len(inked) else max(end + 1, least)


def _split_grounds(
    grounds: npt.NDArray[Any],
) -> tuple[list[list[bool]], dict[tuple[int, int], float]]:
    """Gray (True) or white for each cell: the cells' grounds fall into two levels, cut at
    the largest jump between them. Cells whose ground lies near the cut (within a fifth of
    the distance between the two levels) are doubtful: their confidence goes with the
    distance."""
    values = np.sort(grounds.ravel())
    rows, cols = grounds.shape
    if len(values) < 2 or float(values[-1] - values[0]) < 12:
        return [[False] * cols for _ in range(rows)], {}
    jumps = np.diff(values)
    at = int(np.argmax(jumps))
    cut = float(values[at] + values[at + 1]) / 2
    spread = float(np.median(values[at + 1 :]) - np.median(values[: at + 1]))
    doubts: dict[tuple[int, int], float] = {}
    for r in range(rows):
        for c in range(cols):
            distance = abs(float(grounds[r, c]) - cut) / max(spread, 1.0)
            if distance < 0.2:
                doubts[(r, c)] = 0.5 + 2 * distance
    return [[bool(v < cut) for v in row] for row in grounds], doubts


def _doubtful_cells(
    smudges: set[tuple[int, int]],
    colour_doubts: dict[tuple[int, int], float],
    inverse: npt.NDArray[Any],
    picture: Picture,
) -> list[ReadNumber]:
    """Cells read as holding no number that the review must look at: ink that is no digit,
    or a ground between gray and white."""
    doubtful = []
    for r, c in sorted(smudges | set(colour_doubts)):
        cell = [Blob(c * CELL, r * CELL, (c + 1) * CELL, (r + 1) * CELL, 0)]
        if (r, c) in smudges:
            confidence, reason = 0.5, "ink in this cell was not read as a number"
        else:
            confidence, reason = colour_doubts[(r, c)], "the cell is between gray and white"
        box = _original_box(inverse, cell, picture)
        doubtful.append(ReadNumber("cell", r, c, None, confidence, (), box, reason=reason))
    return doubtful


def _combine(ranked: list[tuple[tuple[str, float], ...]]) -> list[tuple[int | None, float]]:
    options: dict[int | None, float] = {}
    for picks in itertools.product(*(r[:3] for r in ranked)):
        probability = math.prod(p for _, p in picks)
        symbols = [s for s, _ in picks]
        value = None if "none" in symbols else int("".join(symbols))
        options[value] = options.get(value, 0.0) + probability
    return sorted(options.items(), key=lambda item: -item[1])


def _original_box(
    inverse: npt.NDArray[Any], group: list[Blob], picture: Picture
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
def _rows(reading: Reading) -> tuple[list[list[bool]], list[list[int | None]]]:
    colours = list(reading.genre_data.get("colors", []))
    gray = [[ch == "g" for ch in row] for row in colours]
    numbers: list[list[int | None]] = [[None] * reading.width for _ in range(reading.height)]
    for number in reading.numbers:
        numbers[number.line][number.index] = number.value
    return gray, numbers


def _verdict(reading: Reading) -> Verdict:
    from pencilbox.genres.dbchoco.model import make_puzzle

    gray, numbers = _rows(reading)
    try:
        puzzle = make_puzzle(gray, numbers, max_size=None)
    except ValueError as error:
        return Verdict(False, "none", (str(error),), (), {"valid": False})
    result = puzzle.solve(limit=2, time_limit=SOLVE_SECONDS, grade=False)
    if result.status == "none":
        return Verdict(
            False,
            "none",
            ("the board read has no solution",),
            (),
            {"valid": True, "solvable": False, "unique": False},
        )
    if result.status == "timeout":
        return Verdict(True, "unknown", (), (), {"valid": True, "solvable": None, "unique": None})
    if result.status == "multiple":
        return Verdict(
            False,
            "multiple",
            ("the board read has more than one solution",),
            (),
            {"valid": True, "solvable": True, "unique": False},
        )
    return Verdict(True, "unique", (), (), {"valid": True, "solvable": True, "unique": True})


def judge(reading: Reading, repair: bool = False) -> Reading:
    verdict = _verdict(reading)
    notes: list[str] = []
    if not verdict.consistent and repair:
        reading, verdict, notes = _repair(reading, verdict)
    confident = all(n.confident for n in reading.numbers)
    changed = any(n.changed for n in reading.numbers)
    if all(n.value is None for n in reading.numbers):
        # a board without a single number is far more likely a misread than a puzzle
        verdict = replace(verdict, problems=(*verdict.problems, "no numbers were read"))
        confident = False
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


def _repair(reading: Reading, verdict: Verdict) -> tuple[Reading, Verdict, list[str]]:
    order = sorted(range(len(reading.numbers)), key=lambda i: reading.numbers[i].confidence)
    picked = [i for i in order if reading.numbers[i].confidence < 0.99][:4]
    suspects = [
        Suspect(i, reading.numbers[i].confidence, reading.numbers[i].alternatives) for i in picked
    ]
    if not suspects:
        return reading, verdict, []

    def trial(changes: Any) -> Reading:
        numbers = list(reading.numbers)
        for i, value in changes.items():
            numbers[i] = replace(numbers[i], value=value)
        return replace(reading, numbers=tuple(numbers))

    found = search(
        suspects,
        lambda changes: _verdict(trial(changes)).consistent,
        max_changes=1,
        time_limit=4.0,
        floor=floor_for(verdict.solutions),
    )
    if found.changes is None:
        return reading, verdict, []
    numbers = list(reading.numbers)
    notes = []
    for i, value in found.changes.items():
        number = numbers[i]
        reason = f"read as {number.value} but {verdict.problems[0]}; {value} has one solution"
        numbers[i] = replace(
            number,
            value=value,
            changed=True,
            read_as=number.value,
            confidence=dict(number.alternatives).get(value, 0.0),
            reason=reason,
        )
        notes.append(f"{number.where()['cell']}: {reason}")
    repaired = replace(reading, numbers=tuple(numbers))
    return repaired, _verdict(repaired), notes


def recheck(reading: Reading) -> Reading:
    return judge(reading, repair=False)


def puzzle_text(reading: Reading) -> str:
    from pencilbox.genres.dbchoco.model import make_puzzle

    gray, numbers = _rows(reading)
    return make_puzzle(gray, numbers, max_size=None).to("url").strip() + "\n"


def puzzle_json(reading: Reading) -> dict[str, Any]:
    try:
        return {"url": puzzle_text(reading).strip()}
    except ValueError:
        return {"url": None}


def score_image(picture: Picture) -> float:
    """Above 10 (a sudoku grid's best) for a bordered board of white and darker cells in a
    pattern no sudoku shades, 9 when a sudoku could have shaded it so (whole boxes, one
    row, column and box) or when its darker cells are coloured and its lines solid, 0 when
    it has no two levels of cells. Boards are drawn dark on light: a dark theme is not one."""
    dark_ink, dark = gridlib.brightness(picture.work)
    if dark:
        return 0.0
    found = _board(dark_ink)
    if found is None:
        return 0.0
    quad, counts, straight = found
    side_h, side_w = straight.shape
    matrix = gridlib.rect_warp(quad, side_w, side_h)
    colour = cv2.warpPerspective(picture.work, matrix, (side_w, side_h))
    if counts is None:
        return 0.0
    cols, rows = counts
    cw, ch = side_w / cols, side_h / rows
    levels, chromas = [], []
    for r in range(rows):
        for c in range(cols):
            ys = slice(int(r * ch + ch * 0.15), int((r + 1) * ch - ch * 0.15))
            xs = slice(int(c * cw + cw * 0.15), int((c + 1) * cw - cw * 0.15))
            patch = colour[ys, xs].reshape(-1, 3).astype(np.float32)
            if len(patch):
                middle = np.percentile(patch, 75, axis=0)
                levels.append(float(middle.mean()))
                chromas.append(float(middle.max() - middle.min()))
    if not levels:
        return 0.0
    values = _even_light(np.array(levels, np.float32).reshape(rows, cols)).ravel()
    top = float(values.max())
    light = values > top - 15
    mid = (values < top - 35) & (values > top - 140) & (np.array(chromas) < 70)
    both = min(float(light.mean()), float(mid.mean()))
    share = float((light.sum() + mid.sum()) / len(values))
    if both <= 0.2:
        return 0.0
    shaded = mid.reshape(rows, cols)
    if _sudoku_shading(shaded) or (not _dashed(straight, cols, rows) and _tinted(chromas, mid)):
        return 9.0 * share  # a sudoku's shaded boxes or highlights: its reader decides
    # two levels in a pattern no sudoku draws: surely a board (above a sudoku's best 10)
    return 9.8 * share + 0.6


def _tinted(chromas: list[float], mid: npt.NDArray[Any]) -> bool:
    """True when the darker cells are coloured rather than gray (without dashed lines to
    say it is a puzz.link board, a coloured highlight is as likely)."""
    return bool(np.median(np.array(chromas)[mid]) >= 20)


def _sudoku_shading(shaded: npt.NDArray[Any]) -> bool:
    """True when the shaded cells of a 9x9 or 16x16 board are what a sudoku shades: whole
    boxes (a checkerboard of boxes), or within one row, one column and one box (the
    player's highlight)."""
    rows, cols = shaded.shape
    if rows != cols or rows not in (9, 16):
        return False
    n = 3 if rows == 9 else 4
    boxes = shaded.reshape(n, n, n, n).transpose(0, 2, 1, 3).reshape(n, n, n * n)
    if bool(np.all(boxes.all(axis=2) | ~boxes.any(axis=2))):
        return True
    for r in range(rows):
        for c in range(cols):
            cover = np.zeros_like(shaded)
            cover[r, :] = True
            cover[:, c] = True
            cover[r // n * n : r // n * n + n, c // n * n : c // n * n + n] = True
            if not bool((shaded & ~cover).any()):
                return True
    return False


def _dashed(straight: npt.NDArray[Any], cols: int, rows: int) -> bool:
    """True when the board's inner lines are dashed: broken along most of their length, but
    whole once short gaps are closed."""
    inner = ink_map(straight, window=9)[3:-3, 3:-3]
    height, width = straight.shape
    raw, whole = [], []
    for axis, count, side in ((0, cols, width), (1, rows, height)):
        on = (inner > 0.08).astype(np.uint8)
        closed = _coverage(on, axis)
        share = on.mean(axis=axis)
        for k in range(1, count):
            at = round(k * side / count) - 3
            lo, hi = max(0, at - 1), min(len(share), at + 2)
            if hi > lo:
                raw.append(float(share[lo:hi].max()))
                whole.append(float(closed[lo:hi].max()))
    if not raw:
        return False
    return float(np.median(whole)) > 0.6 and float(np.median(raw)) < 0.75 * float(np.median(whole))
