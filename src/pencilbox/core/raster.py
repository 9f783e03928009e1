"""Shared Pillow drawing for the genres' PNG pictures: canvas, fonts, centred text, grid lines.

Each genre's render module draws its own picture with these helpers, at the same geometry as
its SVG times an integer `scale` (pixels per SVG unit), so the two pictures agree. Pillow is
imported here and nowhere else; genres import this module only when asked for a PNG, so text
and SVG pictures work without Pillow installed.
"""

from __future__ import annotations

import functools
import io

try:
    from PIL import Image, ImageDraw, ImageFont
except ImportError as error:  # Pillow comes with the 'web' extra, not the core install
    raise ImportError(
        "PNG pictures need Pillow (pip install 'pencilbox[web]' or pip install pillow)"
    ) from error

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

MAX_SIDE = 4096
"""Largest picture side in pixels that a scale above 1 may give: a 200x200 Double Choco at
scale 2 would be ~12,800 px a side (half a GB of RGB), so big grids are drawn at a smaller
scale, down to 1 (the SVG's own size, which no scale shrinks below)."""
FONT_FILES = ("DejaVuSans.ttf", "LiberationSans-Regular.ttf", "Arial.ttf", "Helvetica.ttc")
"""Tried in order; Pillow looks for bare names in the system's font folders."""


def fit_scale(scale: int, side: float) -> int:
    """`scale`, lowered (not below 1) until a picture `side` SVG units long fits MAX_SIDE."""
    if scale < 1:
        raise ValueError(f"scale must be at least 1, not {scale}")
    return max(1, min(scale, int(MAX_SIDE // max(side, 1))))


def px(length: float, scale: int) -> int:
    """An SVG length in whole pixels, never thinner than one so thin lines stay visible."""
    return max(1, round(length * scale))


def canvas(width: int, height: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (width, height), "white")
    return image, ImageDraw.Draw(image)


def font(size: int) -> Font:
    """A sans-serif font `size` pixels high. A new font object each time: one FreeType face
    must not be used by two threads at once (the web app draws in a thread pool)."""
    path = _font_file()
    return ImageFont.truetype(path, size) if path else default_font(size)


@functools.lru_cache(maxsize=1)
def _font_file() -> str | None:
    """The first of FONT_FILES on this system, found once: finding it walks font folders."""
    for name in FONT_FILES:
        try:
            found = ImageFont.truetype(name, 10).path
        except OSError:
            continue
        if isinstance(found, str):
            return found
    return None


def default_font(size: int) -> Font:
    """Pillow's own font: scalable with FreeType (Pillow >= 10.1), else a small bitmap font."""
    try:
        return ImageFont.load_default(size)
    except (TypeError, OSError):  # Pillow 10.0 has no size argument
        return ImageFont.load_default()


def centred_text(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], label: str, face: Font, fill: str
) -> None:
    """Draw `label` with its ink centred on `centre`. Measured by hand rather than with
    `anchor="mm"`, which Pillow's bitmap fallback font does not support."""
    left, top, right, bottom = draw.textbbox((0, 0), label, font=face)
    x = centre[0] - (left + right) / 2
    y = centre[1] - (top + bottom) / 2
    draw.text((x, y), label, font=face, fill=fill)


def line_box(at: int, width: int) -> tuple[int, int]:
    """First and last pixel of a line `width` pixels thick centred on pixel `at`."""
    start = at - (width - 1) // 2
    return start, start + width - 1


def segment(
    draw: ImageDraw.ImageDraw, start: tuple[int, int], end: tuple[int, int], width: int, fill: str
) -> None:
    """A horizontal or vertical line `width` pixels thick, centred on the pixels from `start` to
    `end` and stretched by half its width at both ends, so two walls meeting at a corner
    join without a notch."""
    (x0, y0), (x1, y1) = sorted((start, end))
    first, last = line_box(0, width)
    draw.rectangle((x0 + first, y0 + first, x1 + last, y1 + last), fill=fill)


def grid_lines(
    draw: ImageDraw.ImageDraw,
    origin: tuple[int, int],
    shape: tuple[int, int],
    cell: int,
    *,
    fill: str,
    thin: int,
    thick: int | None = None,
    every: int = 0,
) -> None:
    """The lines of a `shape` = (columns, rows) grid of `cell`-pixel squares at `origin`.

    Line i (0 = left or top) is `thick` pixels when `every` divides i or it is the last line,
    else `thin`. Lines are filled rectangles rather than `draw.line`, whose thick lines Pillow
    places off-centre, so a line's pixels are exactly known (tests read them)."""
    x0, y0 = origin
    cols, rows = shape
    x1, y1 = x0 + cols * cell, y0 + rows * cell

    def weight(i: int, count: int) -> int:
        if thick is not None and (i == count or (every > 0 and i % every == 0)):
            return thick
        return thin

    for c in range(cols + 1):
        first, last = line_box(x0 + c * cell, weight(c, cols))
        draw.rectangle((first, y0, last, y1), fill=fill)
    for r in range(rows + 1):
        first, last = line_box(y0 + r * cell, weight(r, rows))
        draw.rectangle((x0, first, x1, last), fill=fill)


def encode(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()
