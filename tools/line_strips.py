"""Synthetic nonogram clue strips for the line recogniser (tools/train_lines.py, bench/lines.py).

One strip is what a reader crops for one row (or column) of clues: a grey picture, ink dark on a
light ground. Every axis is drawn independently: font (TRAIN or HELD_OUT fonts of tools/fonts.py,
old-style figures now and then), digit height 6-40 px, drawn small by FreeType or large and
shrunk, cell pitch 1.1-3 digit heights, 0-8 numbers of 1-2 digits (now and then 3; a lone 0),
spacing from touching to wide, separators (spaces, commas, each number in its own ruled cell),
ruling along the strip's edges (partly inside the crop), alternating band shading, grounds
(grey, tinted, gradient, textured), low contrast, struck and ticked clues, numbers against the
grid or spread, clue areas full or mostly empty, the neighbouring rows' clues cut into by a crop
off by a few pixels, tilt, blur, noise and JPEG.

`LAYOUTS` and `GROUNDS` name the families the benchmark reports; `draw(rng, ...)` returns the
strip and its numbers.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from tools.fonts import has_oldstyle
from tools.training import jpeg_again

LAYOUTS = ("spaces", "ruled", "cells", "commas", "bands")
"""How numbers are set apart: spaces on an open ground, spaces with ruling along the strip's
edges, each number centred in its own ruled cell, commas, cells with alternating shading."""
GROUNDS = ("grey", "gradient", "textured")
WORK = 4  # large drawings are made this many times larger than the strip, then shrunk


@dataclass(frozen=True)
class Look:
    """Everything random about one strip but its numbers."""

    font: Path
    oldstyle: bool
    height: float  # digit height in the picture, px
    pitch: float  # cell size across the strip, in digit heights
    layout: str
    ground: str
    small_render: bool  # drawn at size by FreeType (hinting), not shrunk from a large drawing
    vertical: bool


@dataclass(frozen=True)
class Strip:
    image: np.ndarray  # uint8 grey, dark ink on a light ground
    numbers: tuple[int, ...]
    look: Look


def numbers(rng: np.random.Generator) -> tuple[int, ...]:
    """A clue line: empty, a lone 0, or 1-8 numbers of 1..99 (small ones likelier), now and
    then one of three digits."""
    roll = rng.random()
    if roll < 0.07:
        return ()
    if roll < 0.10:
        return (0,)
    count = int(rng.integers(1, 9))
    found = []
    for _ in range(count):
        kind = rng.random()
        if kind < 0.62:
            found.append(int(rng.integers(1, 10)))
        elif kind < 0.985:
            found.append(int(rng.integers(10, 100)))
        else:
            found.append(int(rng.integers(100, 200)))
    return tuple(found)


def random_look(
    rng: np.random.Generator,
    fonts: list[Path],
    vertical: bool,
    layouts: tuple[str, ...] = LAYOUTS,
    grounds: tuple[str, ...] = GROUNDS,
) -> Look:
    font = fonts[int(rng.integers(len(fonts)))]
    height = float(np.exp(rng.uniform(np.log(6), np.log(40))))
    return Look(
        font=font,
        oldstyle=rng.random() < 0.2 and has_oldstyle(font),
        height=height,
        pitch=float(rng.uniform(1.1, 3.0)),
        layout=str(rng.choice(layouts)),
        ground=str(rng.choice(grounds)),
        small_render=rng.random() < 0.5,
        vertical=vertical,
    )


@functools.lru_cache(maxsize=4096)
def _font(path: Path, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(path), size)


@functools.lru_cache(maxsize=1024)
def _digit_scale(path: Path, oldstyle: bool) -> float:
    """Digit height (ink of "0", lining) per pixel of font size."""
    font = _font(path, 100)
    features = ["lnum"] if oldstyle else None
    box = font.getbbox("0", features=features)
    return max(0.3, (box[3] - box[1]) / 100)


def _glyph(look: Look, text: str, scale: float) -> tuple[np.ndarray, int]:
    """The ink (0..1) of `text` at digit height look.height * scale, cut to its ink's columns
    and from half a size above the digits down, and the row of its baseline."""
    size = max(4, round(look.height * scale / _digit_scale(look.font, look.oldstyle)))
    return _drawn(look.font, look.oldstyle, text, size, round(look.height * scale))


@functools.lru_cache(maxsize=20000)
def _drawn(
    font_path: Path, oldstyle: bool, text: str, size: int, digit: int
) -> tuple[np.ndarray, int]:
    font = _font(font_path, size)
    features = ["onum"] if oldstyle else None
    width = int(font.getlength(text, features=features)) + size
    image = Image.new("L", (width, size * 2), 0)
    ImageDraw.Draw(image).text(
        (size // 4, size), text, fill=255, font=font, anchor="ls", features=features
    )
    ink = np.asarray(image, np.float32) / 255
    top = max(0, size - digit - size // 2)
    cols = np.nonzero(ink.max(axis=0) > 0.05)[0]
    if len(cols) == 0:
        return np.zeros((size, max(1, size // 3)), np.float32), size - top
    glyph = ink[top:, cols.min() : cols.max() + 1]
    glyph.flags.writeable = False
    return glyph, size - top


def _number_ink(
    look: Look, value: int, scale: float, tracking: float, rng: np.random.Generator
) -> tuple[np.ndarray, int]:
    """A number's ink, its digits set `tracking` digit heights apart (negative: overlapping),
    and the row of its baseline."""
    parts = [_glyph(look, ch, scale) for ch in str(value)]
    base = max(b for _, b in parts)
    below = max(g.shape[0] - b for g, b in parts)
    gap = round(tracking * look.height * scale)
    width = sum(g.shape[1] for g, _ in parts) + gap * (len(parts) - 1)
    ink = np.zeros((base + below, max(1, width + 2)), np.float32)
    x = 0
    for glyph, b in parts:
        y = base - b
        w = min(glyph.shape[1], ink.shape[1] - x)
        if w > 0:
            region = ink[y : y + glyph.shape[0], x : x + w]
            np.maximum(region, glyph[:, :w], out=region)
        x = max(0, x + glyph.shape[1] + gap)
    _ = rng
    return ink, base


def _paste(canvas: np.ndarray, ink: np.ndarray, x: int, y: int) -> None:
    h, w = ink.shape
    y0, x0 = max(0, y), max(0, x)
    y1, x1 = min(canvas.shape[0], y + h), min(canvas.shape[1], x + w)
    if y1 > y0 and x1 > x0:
        region = canvas[y0:y1, x0:x1]
        np.maximum(region, ink[y0 - y : y1 - y, x0 - x : x1 - x], out=region)


def _strike(canvas: np.ndarray, box: tuple[int, int, int, int], rng: np.random.Generator) -> None:
    """A line through a number (a struck-out clue) or a tick beside it."""
    x0, y0, x1, y1 = box
    t = max(1, round((y1 - y0) * rng.uniform(0.05, 0.12)))
    if rng.random() < 0.6:
        cy = int((y0 + y1) / 2 + rng.normal(0, (y1 - y0) * 0.08))
        level = rng.random() < 0.6
        ends = ((x0 - t, cy), (x1 + t, cy)) if level else ((x0 - t, y1), (x1 + t, y0))
        cv2.line(canvas, ends[0], ends[1], 1.0, t, cv2.LINE_AA)
    else:
        s = (y1 - y0) * 0.5
        cx, cy = x1 - s * 0.3, y1 - s * 0.2
        pts = np.array([[cx - s * 0.6, cy - s * 0.5], [cx, cy], [cx + s, cy - s * 1.3]], np.int32)
        cv2.polylines(canvas, [pts], False, 1.0, t, cv2.LINE_AA)


@dataclass(frozen=True)
class _Set:
    """How the numbers of one strip are set."""

    tracking: float  # between digits of a number, digit heights
    gap: float  # between numbers, digit heights (packed layouts)
    line: float  # column strips: line pitch, digit heights (packed layouts)
    margin: float  # from the grid, cells
    spare: float  # extra clue-area length, cells
    strike: float  # chance per number of a strike or tick
    celled: bool


def _setting(look: Look, rng: np.random.Generator) -> _Set:
    tracking = float(rng.uniform(-0.08, 0.2)) if rng.random() < 0.8 else 0.0
    least = tracking + max(1.0 / look.height, 0.1)
    gap = max(least, float(np.exp(rng.uniform(np.log(0.15), np.log(1.6)))))
    roll = rng.random()
    spare = 0.0 if roll < 0.4 else float(rng.uniform(0, 2)) if roll < 0.75 else rng.uniform(2, 9)
    return _Set(
        tracking=tracking,
        gap=gap,
        line=float(rng.uniform(1.15, 2.2)),
        margin=float(rng.uniform(0.05, 0.6)),
        spare=float(spare),
        strike=0.0 if rng.random() < 0.7 else float(rng.uniform(0.1, 0.6)),
        celled=look.layout in ("cells", "bands") or (look.layout == "ruled" and rng.random() < 0.4),
    )


def _inks(
    look: Look, values: tuple[int, ...], setting: _Set, scale: float, rng: np.random.Generator
) -> list[tuple[np.ndarray, int]]:
    inks = []
    for i, value in enumerate(values):
        ink, base = _number_ink(look, value, scale, setting.tracking, rng)
        if look.layout == "commas" and not look.vertical and i < len(values) - 1:
            comma, cbase = _glyph(look, ",", scale)
            room = round(max(0.05, setting.tracking + 0.05) * look.height * scale)
            width = ink.shape[1] + room + comma.shape[1]
            grown = np.zeros((max(ink.shape[0], base - cbase + comma.shape[0]), width), np.float32)
            grown[: ink.shape[0], : ink.shape[1]] = ink
            _paste(grown, comma, ink.shape[1] + room, base - cbase)
            ink = grown
        inks.append((ink, base))
    return inks


def _layout_row(
    look: Look, values: tuple[int, ...], setting: _Set, scale: float, rng: np.random.Generator
) -> tuple[np.ndarray, list[tuple[int, int, int, int]], float]:
    """The ink of one row strip (its length along x, cells of side pitch*height*scale), the
    boxes of its numbers, and the cell size in px."""
    cell = look.pitch * look.height * scale
    inks = _inks(look, values, setting, scale, rng)
    gap = setting.gap * look.height * scale
    if setting.celled:
        wanted = max(0.0, cell * max(len(values), 1))
        widths = [max(cell, ink.shape[1] + cell * 0.15) for ink, _ in inks]
        wanted = sum(widths)
    else:
        wanted = sum(ink.shape[1] for ink, _ in inks) + gap * max(0, len(inks) - 1)
        wanted += 2 * setting.margin * cell
    cells = max(1, int(np.ceil(wanted / cell + setting.spare)))
    length = round(cells * cell)
    canvas = np.zeros((round(cell), length), np.float32)
    boxes = []
    baseline = (cell + look.height * scale) / 2 + rng.normal(0, 0.04) * cell
    if setting.celled:
        x = float(length)
        for (ink, base), width in zip(reversed(inks), reversed(widths), strict=True):
            x -= width
            left = round(x + (width - ink.shape[1]) / 2)
            top = round(baseline - base)
            _paste(canvas, ink, left, top)
            boxes.append((left, top, left + ink.shape[1], top + ink.shape[0]))
    else:
        total = wanted - 2 * setting.margin * cell
        roll = rng.random()
        start = (
            length - setting.margin * cell - total
            if roll < 0.75
            else (length - total) / 2
            if roll < 0.9
            else setting.margin * cell
        )
        x = start
        for ink, base in inks:
            left, top = round(x), round(baseline - base)
            _paste(canvas, ink, left, top)
            boxes.append((left, top, left + ink.shape[1], top + ink.shape[0]))
            x += ink.shape[1] + gap
    return canvas, boxes, cell


def _layout_column(
    look: Look, values: tuple[int, ...], setting: _Set, scale: float, rng: np.random.Generator
) -> tuple[np.ndarray, list[tuple[int, int, int, int]], float]:
    """The ink of one column strip: numbers one above another, bottom against the grid."""
    cell = look.pitch * look.height * scale
    inks = _inks(look, values, setting, scale, rng)
    pitch = cell if setting.celled else max(setting.line * look.height * scale, 1.0)
    pitch = max(pitch, look.height * scale * 1.15)
    wanted = pitch * len(values) + (0 if setting.celled else 2 * setting.margin * cell)
    cells = max(1, int(np.ceil(wanted / cell + setting.spare)))
    length = round(max(cells * cell, wanted))
    width = max(round(cell), max((ink.shape[1] for ink, _ in inks), default=0) + 2)
    canvas = np.zeros((length, width), np.float32)
    boxes = []
    bottom = length - (0 if setting.celled else setting.margin * cell)
    roll = rng.random()
    if not setting.celled and roll > 0.85:
        bottom = length - (length - wanted) / 2
    for ink, base in reversed(inks):
        baseline = bottom - (pitch - look.height * scale) / 2
        left = round((width - ink.shape[1]) / 2 + rng.normal(0, 0.03) * cell)
        top = round(baseline - base)
        _paste(canvas, ink, left, top)
        boxes.append((left, top, left + ink.shape[1], top + ink.shape[0]))
        bottom -= pitch
    return canvas, boxes, cell


def _rules(
    ink: np.ndarray, look: Look, setting: _Set, boxes: list, cell: float, rng: np.random.Generator
) -> np.ndarray:
    """The ruling drawn on another layer: lines along the strip's edges and between cells."""
    rules = np.zeros_like(ink)
    weight = max(1, round(cell * rng.uniform(0.02, 0.08)))
    along_x = not look.vertical
    span = ink.shape[1] if along_x else ink.shape[0]
    across = ink.shape[0] if along_x else ink.shape[1]
    if look.layout in ("ruled", "cells", "bands") or rng.random() < 0.1:
        for edge in (0, across - 1):
            if rng.random() < 0.85:
                at = edge + int(rng.integers(-weight, weight + 1))
                _line(rules, along_x, at, weight, 0, span)
    if setting.celled and look.layout != "spaces":
        step = cell
        at = float(span)
        while at > 0:
            _line(rules, not along_x, round(at), weight, 0, across)
            at -= step
    return rules


def _line(layer: np.ndarray, along_x: bool, at: int, weight: int, start: int, end: int) -> None:
    if along_x:
        layer[max(0, at - weight // 2) : max(0, at - weight // 2 + weight), start:end] = 1.0
    else:
        layer[start:end, max(0, at - weight // 2) : max(0, at - weight // 2 + weight)] = 1.0


def _ground(
    shape: tuple[int, int], look: Look, cell: float, rng: np.random.Generator
) -> np.ndarray:
    """The ground's grey levels: a level (light, or mid-grey as an inverted dark theme leaves
    it), with a gradient or a texture, and shaded bands."""
    h, w = shape
    level = float(rng.uniform(170, 255)) if rng.random() < 0.85 else float(rng.uniform(110, 190))
    ground = np.full(shape, level, np.float32)
    if look.ground == "gradient":
        ramp = np.linspace(-1, 1, w)[None, :] * rng.normal(0, 20)
        ground += ramp + np.linspace(-1, 1, h)[:, None] * rng.normal(0, 15)
    elif look.ground == "textured":
        grain = rng.normal(0, 1, (max(2, h // 3), max(2, w // 3))).astype(np.float32)
        grain = cv2.resize(grain, (w, h), interpolation=cv2.INTER_CUBIC)
        ground += grain * rng.uniform(4, 14)
    if look.layout == "bands" or rng.random() < 0.15:
        _bands(ground, look, cell, rng)
    return ground


def _bands(ground: np.ndarray, look: Look, cell: float, rng: np.random.Generator) -> None:
    """Alternating shading: every other cell, or groups of five cells, or the whole strip
    with a band edge crossing it."""
    shade = float(rng.uniform(12, 60))
    span = ground.shape[0] if look.vertical else ground.shape[1]
    group = cell * (5 if rng.random() < 0.4 else 1)
    phase = int(rng.integers(0, 2))
    at, index = float(span), 0
    while at > 0:
        lo = max(0, round(at - group))
        if (index + phase) % 2:
            if look.vertical:
                ground[lo : round(at), :] -= shade
            else:
                ground[:, lo : round(at)] -= shade
        at -= group
        index += 1


def _finish(gray: np.ndarray, look: Look, rng: np.random.Generator) -> np.ndarray:
    """Blur, noise and JPEG, within what leaves digits of that height readable."""
    if rng.random() < 0.6:
        gray = cv2.GaussianBlur(gray, (0, 0), rng.uniform(0.3, min(1.2, 0.35 + 0.04 * look.height)))
    gray = gray + rng.normal(0, rng.uniform(0, 6), gray.shape).astype(np.float32)
    gray8 = np.clip(gray, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        quality = int(rng.integers(30, 96))
        gray8 = jpeg_again(gray8, quality)
    return gray8


def _tilt(layer: np.ndarray, angle: float, scale_to: tuple[int, int]) -> np.ndarray:
    h, w = layer.shape
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    turned = cv2.warpAffine(layer, matrix, (w, h), flags=cv2.INTER_LINEAR)
    if (w, h) == scale_to:
        return turned
    return cv2.resize(turned, scale_to, interpolation=cv2.INTER_AREA)


def draw(
    rng: np.random.Generator,
    look: Look,
    values: tuple[int, ...],
    clean: bool = False,
    gap: float | None = None,
) -> Strip:
    """One strip of `values` drawn in `look` (with `clean`: no strikes, neighbours, tilt,
    crop jitter, blur, noise or JPEG, for the clean-strip floors; `gap`: numbers that far
    apart, in digit heights, at least a pixel more than a number's digits)."""
    scale = 1.0 if look.small_render else float(WORK)
    setting = _setting(look, rng)
    if clean:
        setting = replace(setting, strike=0.0)
    if gap is not None:
        least = setting.tracking + 1.0 / look.height
        setting = replace(setting, gap=max(gap, least), celled=False)
    layout = _layout_column if look.vertical else _layout_row
    ink, boxes, cell = layout(look, values, setting, scale, rng)
    for box in boxes:
        if rng.random() < setting.strike:
            _strike(ink, box, rng)
    ink = _with_neighbours(ink, look, setting, scale, cell, rng, clean)
    rules = _rules(ink, look, setting, [], cell, rng)
    return _compose(ink, rules, look, scale, cell, rng, values, clean)


def _with_neighbours(
    ink: np.ndarray,
    look: Look,
    setting: _Set,
    scale: float,
    cell: float,
    rng: np.random.Generator,
    clean: bool,
) -> np.ndarray:
    """The strip's ink between its neighbours' (the rows above and below), cropped by a box
    off by up to a sixth of a cell: a crop cut near the lines may take in a neighbour's
    descender or the top of its digits."""
    axis = 1 if look.vertical else 0
    across = ink.shape[axis]
    if clean or rng.random() < 0.4:
        return ink
    layout = _layout_column if look.vertical else _layout_row
    sides = []
    for _ in range(2):
        other, _, _ = layout(look, numbers(rng), setting, scale, rng)
        sides.append(_fit(other, ink.shape, axis))
    stack = np.concatenate([sides[0], ink, sides[1]], axis=axis)
    room = max(1.0, (cell - look.height * scale) / 2 + 0.1 * look.height * scale)
    shift = round(rng.uniform(-1, 1) * min(cell / 6, room))
    start = max(0, across + shift)
    if axis == 0:
        return stack[start : start + across, :]
    return stack[:, start : start + across]


def _fit(other: np.ndarray, shape: tuple[int, ...], axis: int) -> np.ndarray:
    """`other` cut or padded to `shape` along the strip's length (the axis other than `axis`),
    its end against the grid."""
    length_axis = 1 - axis
    want = shape[length_axis]
    have = other.shape[length_axis]
    if have >= want:
        other = other[:, have - want :] if length_axis == 1 else other[have - want :, :]
    else:
        pad = [(0, 0), (0, 0)]
        pad[length_axis] = (want - have, 0)
        other = np.pad(other, pad)
    across = shape[axis]
    return other[:across, :] if axis == 0 else other[:, :across]


def _compose(
    ink: np.ndarray,
    rules: np.ndarray,
    look: Look,
    scale: float,
    cell: float,
    rng: np.random.Generator,
    values: tuple[int, ...],
    clean: bool,
) -> Strip:
    h, w = ink.shape
    final = (max(3, round(w / scale)), max(3, round(h / scale)))
    angle = 0.0 if clean else float(rng.normal(0, 0.25))
    ink = _tilt(ink, angle, final)
    rules = _tilt(rules, angle, final)
    ground = _ground(ink.shape, look, cell / scale, rng)
    light = float(ground.mean())
    faint = rng.random() < 0.15
    contrast = light * (rng.uniform(0.2, 0.45) if faint else rng.uniform(0.6, 1.0))
    contrast = max(contrast, 40.0)
    rule_contrast = light * rng.uniform(0.2, 1.0)
    gray = ground - contrast * ink
    gray = np.minimum(gray, ground - rule_contrast * rules)
    gray8 = np.clip(gray, 0, 255).astype(np.uint8) if clean else _finish(gray, look, rng)
    return Strip(gray8, values, look)
