"""A picture as a grid of palette colours: the faithful picture a nonogram is made from.

1. Decode (PNG, JPEG, WebP, GIF, BMP; transparency laid on white, a phone's EXIF turn
   applied) and resample to the grid by area averaging (Pillow's box filter: each cell is the
   mean of the pixels it covers, fractions of pixels weighted).
2. Black-and-white: a grey level per cell, cut by Otsu's threshold (computed on the whole
   picture's histogram, where the two classes are well sampled), by an adaptive one (each cell
   against the weighted mean of its neighbourhood, for uneven light), or by a given level.
   Colour: a palette of N + 1 colours (the background and N inks) by k-means in CIELAB, where
   distances follow what the eye sees, or by median cut; each cell takes the nearest.
   Floyd-Steinberg dithering spreads each cell's error to its unvisited neighbours instead.
3. The background is the colour that holds most of the grid's border.

Besides the grid, a `Pixels` keeps what the uniqueness repair needs to choose the least
visible changes: for every cell and colour, how much further from the original that colour
would take the cell.
"""

from __future__ import annotations

import io
from collections import Counter
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt
from PIL import Image, ImageOps, UnidentifiedImageError

from pencilbox.errors import PuzzleError, quote

MAX_PIXELS = 50_000_000
"""Larger pictures are refused before they are decoded."""
PALETTE_SIDE = 160
"""The palette is learnt from a copy whose longer side is at most this many pixels."""
THRESHOLDS = ("otsu", "adaptive")
DITHERS = ("none", "floyd")
PALETTES = ("kmeans", "mediancut")
NAMES = {
    "black": "#000000",
    "grey": "#808080",
    "silver": "#c0c0c0",
    "white": "#ffffff",
    "red": "#e02020",
    "darkred": "#8b0000",
    "pink": "#ff9ec0",
    "orange": "#ff8c00",
    "brown": "#8b4513",
    "tan": "#d2b48c",
    "yellow": "#ffe020",
    "olive": "#808000",
    "green": "#2e9e2e",
    "darkgreen": "#006400",
    "lime": "#80e040",
    "teal": "#008080",
    "cyan": "#40e0e0",
    "skyblue": "#87ceeb",
    "blue": "#2050d0",
    "navy": "#000080",
    "purple": "#800080",
    "violet": "#c080e0",
    "magenta": "#e020c0",
}
"""Names for the palette's colours: the nearest of these (in CIELAB) names a colour."""

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Pixels:
    """A picture turned into `width` x `height` cells of palette colours."""

    width: int
    height: int
    grid: list[int]
    """Each cell's palette index, row by row; 0 is the background."""
    lab: list[tuple[float, float, float]]
    """The palette in CIELAB (L 0-100); lab[0] is the background."""
    hexes: list[str]
    """The palette as `#rrggbb`."""
    cost: list[list[float]]
    """cost[cell][colour]: how much further from the picture that colour takes the cell than
    its own colour does (0 for its own; in CIELAB units, the grey levels' for black-and-white)."""
    cell_lab: FloatArray
    """Each cell's area-averaged colour in CIELAB, shape (height * width, 3)."""
    threshold: float | None = None
    """The grey level that split black from white (the mean one for an adaptive threshold)."""

    def error(self, grid: list[int]) -> float:
        """The mean CIELAB distance between each cell's original colour and its colour in
        `grid` (0 is a perfect copy; about 2.3 is the smallest difference an eye notices)."""
        palette = np.array(self.lab)[np.array(grid)]
        return float(np.linalg.norm(self.cell_lab - palette, axis=1).mean())


def decode(data: bytes, source: str = "the picture") -> Image.Image:
    """The picture's pixels as RGB, transparency laid on white."""
    try:
        image = Image.open(io.BytesIO(data))
        if image.width * image.height > MAX_PIXELS:
            raise PuzzleError(
                f"{source} is too large ({image.width}x{image.height} pixels; at most "
                f"{MAX_PIXELS // 1_000_000} megapixels)"
            )
        turned = ImageOps.exif_transpose(image)
        turned.load()
    except (UnidentifiedImageError, Image.DecompressionBombError):
        raise PuzzleError(
            f"{source} is not a picture Pillow can read (PNG, JPEG, WebP, GIF, BMP...)"
        ) from None
    except OSError as error:
        raise PuzzleError(f"{source} cannot be decoded ({error}); is the file damaged?") from None
    rgba = turned.convert("RGBA")
    flat = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
    flat.alpha_composite(rgba)
    return flat.convert("RGB")


def pixelate(
    image: Image.Image,
    width: int,
    height: int,
    colours: int,
    *,
    threshold: str | float = "otsu",
    dither: str = "none",
    palette: str = "kmeans",
    seed: int = 0,
) -> Pixels:
    """The picture as a grid of `colours` inks on a background (see the module's steps)."""
    cells = np.asarray(image.resize((width, height), Image.Resampling.BOX), dtype=np.float64)
    cell_rgb = cells.reshape(-1, 3)
    cell_lab = _to_lab(cell_rgb)
    if colours == 1:
        return _black_and_white(image, width, height, cell_rgb, cell_lab, threshold, dither)
    centres = _palette(image, colours + 1, palette, seed)
    grid = _nearest(cell_lab, centres, width, dither)
    return _finish(width, height, grid, centres, cell_lab)


def _to_lab(rgb: FloatArray) -> FloatArray:
    """RGB rows (0-255) in CIELAB (D65), as OpenCV converts float pictures."""
    as_image = (rgb.reshape(-1, 1, 3) / 255.0).astype(np.float32)
    lab: FloatArray = cv2.cvtColor(as_image, cv2.COLOR_RGB2Lab).reshape(-1, 3).astype(np.float64)
    return lab


def _to_hex(lab: FloatArray) -> str:
    rgb = cv2.cvtColor(lab.reshape(1, 1, 3).astype(np.float32), cv2.COLOR_Lab2RGB).reshape(3)
    red, green, blue = (round(min(max(float(v), 0.0), 1.0) * 255) for v in rgb)
    return f"#{red:02x}{green:02x}{blue:02x}"


def _grey(rgb: FloatArray) -> FloatArray:
    grey: FloatArray = rgb @ np.array([0.299, 0.587, 0.114])
    return grey


# -- black and white --------------------------------------------------------------------------
def _black_and_white(
    image: Image.Image,
    width: int,
    height: int,
    cell_rgb: FloatArray,
    cell_lab: FloatArray,
    threshold: str | float,
    dither: str,
) -> Pixels:
    grey = _grey(cell_rgb)
    cut = _thresholds(image, grey, width, height, threshold)
    if dither == "floyd":
        dark = _diffuse(grey.reshape(-1, 1), np.array([[0.0], [255.0]]), width, cut)
        ink = [value == 0 for value in dark]
    else:
        ink = list(grey < cut)
    grid = [1 if is_ink else 0 for is_ink in ink]
    # The two colours: the mean colour of each side's cells (black and white when empty).
    lab = [
        tuple(cell_lab[[not v for v in ink]].mean(axis=0)) if not all(ink) else (100.0, 0, 0),
        tuple(cell_lab[ink].mean(axis=0)) if any(ink) else (0.0, 0, 0),
    ]
    # Changing a cell costs its grey level's distance from the threshold: the cells near the
    # cut are the ones the picture left in doubt.
    distance = np.abs(grey - cut)
    cost = [
        [0.0 if colour == own else float(d) for colour in (0, 1)] for own, d in zip(grid, distance)
    ]
    pixels = _finish(width, height, grid, np.array(lab), cell_lab, cost)
    return Pixels(**{**pixels.__dict__, "threshold": float(np.mean(cut))})


def _thresholds(
    image: Image.Image, grey: FloatArray, width: int, height: int, threshold: str | float
) -> FloatArray:
    """The grey level below which each cell is ink."""
    if threshold == "otsu":
        whole = np.asarray(image.convert("L"), dtype=np.uint8)
        level, _ = cv2.threshold(whole, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        # Otsu's level is the top of the dark class; cells are means of pixels, so they are
        # cut halfway between the two classes' means (127.5 for a pure black-and-white
        # drawing, where the level itself is 0).
        dark, light = whole[whole <= level], whole[whole > level]
        if not len(dark) or not len(light):
            return np.full(grey.shape, level + 0.5)
        return np.full(grey.shape, (float(dark.mean()) + float(light.mean())) / 2)
    if threshold == "adaptive":
        block = max(3, (min(width, height) // 4) | 1)
        local = cv2.GaussianBlur(grey.reshape(height, width), (block, block), 0)
        # A flat area (no edge in reach) keeps the picture-wide level instead of splitting
        # its noise in two.
        whole = np.full(grey.shape, float(grey.mean()))
        spread = np.abs(grey.reshape(height, width) - local).reshape(-1)
        mean_local: FloatArray = local.reshape(-1).astype(np.float64) - 2.0
        chosen: FloatArray = np.where(spread > 4.0, mean_local, whole)
        return chosen
    return np.full(grey.shape, float(threshold))


# -- colour -----------------------------------------------------------------------------------
def _palette(image: Image.Image, count: int, method: str, seed: int) -> FloatArray:
    """`count` colours in CIELAB learnt from (a small copy of) the whole picture."""
    scale = min(1.0, PALETTE_SIDE / max(image.size))
    small = image.resize(
        (max(1, round(image.width * scale)), max(1, round(image.height * scale))),
        Image.Resampling.BOX,
    )
    if method == "mediancut":
        quantised = small.quantize(count, method=Image.Quantize.MEDIANCUT)
        raw = quantised.getpalette() or []
        used = sorted(int(i) for i in np.unique(np.asarray(quantised)))
        rgb = np.array([raw[3 * i : 3 * i + 3] for i in used], dtype=np.float64)
        return _to_lab(rgb)
    lab = _to_lab(np.asarray(small, dtype=np.float64).reshape(-1, 3)).astype(np.float32)
    count = min(count, len(np.unique(lab, axis=0)))
    cv2.setRNGSeed(seed)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.2)
    _, _, centres = cv2.kmeans(lab, count, None, criteria, 4, cv2.KMEANS_PP_CENTERS)
    return np.asarray(centres, dtype=np.float64)


def _nearest(cell_lab: FloatArray, centres: FloatArray, width: int, dither: str) -> list[int]:
    if dither == "floyd":
        return _diffuse(cell_lab, centres, width)
    distances = np.linalg.norm(cell_lab[:, None, :] - centres[None, :, :], axis=2)
    return [int(i) for i in distances.argmin(axis=1)]


def _diffuse(
    values: FloatArray, palette: FloatArray, width: int, cut: FloatArray | None = None
) -> list[int]:
    """Floyd-Steinberg: each cell takes the nearest palette entry (or, for grey levels with a
    `cut`, dark below it) and hands 7/16, 3/16, 5/16 and 1/16 of its error to the right,
    lower-left, lower and lower-right cells."""
    work = values.astype(np.float64).copy()
    height = len(work) // width
    chosen: list[int] = []
    for index in range(len(work)):
        value = work[index]
        if cut is not None:
            pick = 0 if value[0] < cut[index] else 1
        else:
            pick = int(np.linalg.norm(palette - value, axis=1).argmin())
        chosen.append(pick)
        error = value - palette[pick]
        row, column = divmod(index, width)
        for dr, dc, share in ((0, 1, 7), (1, -1, 3), (1, 0, 5), (1, 1, 1)):
            r, c = row + dr, column + dc
            if r < height and 0 <= c < width:
                work[r * width + c] += error * share / 16
    return chosen


# -- both -------------------------------------------------------------------------------------
def _finish(
    width: int,
    height: int,
    grid: list[int],
    centres: FloatArray,
    cell_lab: FloatArray,
    cost: list[list[float]] | None = None,
) -> Pixels:
    """Renumber the palette: the border's commonest colour is the background (0), the inks
    follow by how many cells they hold; unused colours are dropped."""
    border = [
        grid[r * width + c]
        for r in range(height)
        for c in range(width)
        if r in (0, height - 1) or c in (0, width - 1)
    ]
    counts = Counter(grid)
    background = Counter(border).most_common(1)[0][0]
    inks = [colour for colour, _ in counts.most_common() if colour != background]
    order = [background, *inks]
    renumber = {old: new for new, old in enumerate(order)}
    new_grid = [renumber[colour] for colour in grid]
    if cost is None:
        distances = np.linalg.norm(cell_lab[:, None, :] - centres[None, order, :], axis=2)
        own = distances[np.arange(len(new_grid)), new_grid]
        cost = [[max(0.0, float(d - o)) for d in row] for row, o in zip(distances, own)]
    else:
        cost = [[row[old] for old in order] for row in cost]
    lab = [tuple(float(v) for v in centres[old]) for old in order]
    hexes = [_to_hex(np.array(value)) for value in lab]
    return Pixels(width, height, new_grid, lab, hexes, cost, cell_lab)  # type: ignore[arg-type]


def colour_names(hexes: list[str]) -> list[tuple[str, str]]:
    """A (name, character) per palette colour: the nearest CSS name (numbered when two inks
    share it) and a character from the name, unique, never `.` or `?`."""
    named = list(zip(NAMES, _to_lab(np.array([_rgb(v) for v in NAMES.values()], float))))
    names: list[str] = []
    for value in hexes:
        lab = _lab_of_hex(value)
        name = min(named, key=lambda pair: float(np.linalg.norm(pair[1] - lab)))[0]
        base, number = name, 2
        while name in names:
            name, number = f"{base}{number}", number + 1
        names.append(name)
    used = {".", "?"}
    chars = []
    for name in names:
        pool = [*name, *"abcdefghijklmnopqrstuvwxyz0123456789"]
        char = next(ch for ch in pool if ch not in used and not ch.isspace())
        used.add(char)
        chars.append(char)
    return list(zip(names, chars))


def _lab_of_hex(value: str) -> FloatArray:
    lab: FloatArray = _to_lab(np.array([_rgb(value)], dtype=np.float64))[0]
    return lab


def _rgb(value: str) -> list[int]:
    return [int(value[i : i + 2], 16) for i in (1, 3, 5)]


def check_choice(value: object, choices: tuple[str, ...], option: str) -> str:
    if value not in choices:
        raise PuzzleError(f"{option} must be one of {', '.join(choices)}, got {quote(str(value))}")
    return str(value)
