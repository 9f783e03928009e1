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
from pencilbox.core.vision.repair import Suspect, search
from pencilbox.errors import FormatError

CELL = 40
SOLVE_SECONDS = 3.0


def _board(dark_ink: npt.NDArray[Any]) -> tuple[gridlib.Quad, float] | None:
    """The board's outline and its straightened cell count per side estimate, or None."""
    factor = min(1.0, 900 / max(dark_ink.shape))
    small = cv2.resize(dark_ink, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    mask = gridlib.line_mask(small, max(small.shape) // 25)
    found = gridlib.quads(mask, min_area=0.05 * small.shape[0] * small.shape[1])
    for quad in found[:3]:
        width = float(np.linalg.norm(quad[1] - quad[0]))
        height = float(np.linalg.norm(quad[3] - quad[0]))
        if min(width, height) < 40:
            continue
        return quad / factor, width / height
    return None


def _cells(straight: npt.NDArray[Any], width: int, height: int) -> tuple[int, int] | None:
    """How many columns and rows the straightened board has: where its inner lines repeat."""
    ink = ink_map(straight, window=9)
    # dashed lines: sum the ink along each line rather than demand it continue
    margin = 3
    inner = ink[margin:-margin, margin:-margin]
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
    if max(width, height) > 1.2 * min(width, height):
        raise FormatError(
            f"the board's cells could not be counted ({counts[0]}x{counts[1]} cells of "
            f"{width:.0f}x{height:.0f} pixels are not square)",
            source=source,
        )


def read_image(picture: Picture) -> Reading:
    started = time.perf_counter()
    dark_ink, _ = gridlib.brightness(picture.work)
    found = _board(dark_ink)
    if found is None:
        raise FormatError("no Double Choco board found (no bordered grid)", source=picture.source)
    quad, _ = found
    side_w = float(np.linalg.norm(quad[1] - quad[0]))
    side_h = float(np.linalg.norm(quad[3] - quad[0]))
    first = gridlib.rect_warp(quad, int(side_w), int(side_h))
    straight = cv2.warpPerspective(dark_ink, first, (int(side_w), int(side_h)))
    counts = _cells(straight, int(side_w), int(side_h))
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
    grounds = np.zeros((rows, cols), np.float32)
    glyph_groups: list[tuple[int, int, list[Blob]]] = []
    for r in range(rows):
        for c in range(cols):
            x0, y0 = c * CELL, r * CELL
            inset = CELL // 8
            patch = board[y0 + inset : y0 + CELL - inset, x0 + inset : x0 + CELL - inset]
            patch_ink = mask[y0 + inset : y0 + CELL - inset, x0 + inset : x0 + CELL - inset]
            ground = patch[patch_ink == 0]
            grounds[r, c] = float(np.median(ground)) if ground.size else float(np.median(patch))
            group = _cell_number(mask, x0, y0)
            if group:
                glyph_groups.append((r, c, group))
    gray_cells = _split_grounds(grounds)
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
        numbers.append(ReadNumber("cell", r, c, value, confidence, tuple(ranked[1:6]), box))
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


def _cell_number(mask: npt.NDArray[Any], x0: int, y0: int) -> list[Blob]:
    """The characters of the number in one cell (none, one or two digits)."""
    inset = max(2, CELL // 10)
    sub = mask[y0 + inset : y0 + CELL - inset, x0 + inset : x0 + CELL - inset]
    found, _ = blobs(sub, min_area=4)
    side = CELL - 2 * inset
    parts = [
        b
        for b in found
        if b.height >= 0.3 * CELL
        and b.width < 0.9 * side
        and b.height < 0.95 * side
        and not (b.x0 == 0 or b.y0 == 0 or b.x1 == side or b.y1 == side)
    ]
    parts.sort(key=lambda b: b.x0)
    return [
        Blob(b.x0 + x0 + inset, b.y0 + y0 + inset, b.x1 + x0 + inset, b.y1 + y0 + inset, b.area)
        for b in parts[:3]
    ]


def _split_grounds(grounds: npt.NDArray[Any]) -> list[list[bool]]:
    """Gray (True) or white for each cell: the cells' grounds fall into two levels."""
    values = np.sort(grounds.ravel())
    if len(values) < 2 or float(values[-1] - values[0]) < 12:
        return [[False] * grounds.shape[1] for _ in range(grounds.shape[0])]
    jumps = np.diff(values)
    at = int(np.argmax(jumps))
    cut = float(values[at] + values[at + 1]) / 2
    return [[bool(v < cut) for v in row] for row in grounds]


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
    result = puzzle.solve(limit=2, time_limit=SOLVE_SECONDS)
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
    if not reading.numbers:
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
        suspects, lambda changes: _verdict(trial(changes)).consistent, max_changes=1, time_limit=4.0
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
    """Up to 9.8 for a bordered board of white and neutral gray cells (a sudoku with
    highlighted cells scores less: its highlights are few, tinted or very light). Boards are
    drawn dark on light: a dark theme is not one."""
    dark_ink, dark = gridlib.brightness(picture.work)
    if dark:
        return 0.0
    found = _board(dark_ink)
    if found is None:
        return 0.0
    quad, _ = found
    side_w = int(np.linalg.norm(quad[1] - quad[0]))
    side_h = int(np.linalg.norm(quad[3] - quad[0]))
    matrix = gridlib.rect_warp(quad, side_w, side_h)
    straight = cv2.warpPerspective(dark_ink, matrix, (side_w, side_h))
    colour = cv2.warpPerspective(picture.work, matrix, (side_w, side_h))
    counts = _cells(straight, side_w, side_h)
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
    values = np.array(levels)
    top = float(values.max())
    light = values > top - 15
    mid = (values < top - 35) & (values > top - 120) & (np.array(chromas) < 20)
    both = min(float(light.mean()), float(mid.mean()))
    share = float((light.sum() + mid.sum()) / len(values))
    return 9.8 * share if both > 0.2 else 0.0
