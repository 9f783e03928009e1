"""The shared PNG drawing helpers: scale limits, fonts and their fallback, text, lines."""

from __future__ import annotations

import io
from typing import Any

import pytest

pytest.importorskip("PIL")

from PIL import Image, ImageFont

from pencilbox.core import raster


def dark_rows(image: Image.Image, x: int) -> list[int]:
    return [y for y in range(image.height) if min(image.getpixel((x, y))) < 128]


def dark_columns(image: Image.Image, y: int) -> list[int]:
    return [x for x in range(image.width) if min(image.getpixel((x, y))) < 128]


def test_fit_scale_keeps_big_pictures_under_the_limit() -> None:
    assert raster.fit_scale(2, 300) == 2
    assert raster.fit_scale(2, raster.MAX_SIDE) == 1
    assert raster.fit_scale(3, raster.MAX_SIDE // 2) == 2
    assert raster.fit_scale(2, 10 * raster.MAX_SIDE) == 1  # never below one
    with pytest.raises(ValueError, match="scale"):
        raster.fit_scale(0, 100)


def test_px_never_rounds_a_line_away() -> None:
    assert raster.px(0.5, 1) == 1 and raster.px(0.8, 1) == 1
    assert raster.px(3, 2) == 6


def test_grid_lines_are_thick_every_n_and_at_the_edges() -> None:
    image, draw = raster.canvas(40, 40)
    raster.grid_lines(draw, (5, 5), (3, 3), 10, fill="black", thin=1, thick=3, every=2)
    # Vertical lines at x = 5 (thick: 0), 15 (thin), 25 (thick: 2), 35 (thick: last).
    assert dark_columns(image, 20) == [4, 5, 6, 15, 24, 25, 26, 34, 35, 36]
    assert dark_rows(image, 20) == [4, 5, 6, 15, 24, 25, 26, 34, 35, 36]
    assert image.getpixel((10, 10)) == (255, 255, 255)


def test_grid_lines_without_thick_are_all_thin() -> None:
    image, draw = raster.canvas(30, 30)
    raster.grid_lines(draw, (0, 0), (2, 2), 10, fill="black", thin=1)
    assert dark_columns(image, 5) == [0, 10, 20]


def test_segments_are_centred_and_meet_at_corners() -> None:
    image, draw = raster.canvas(30, 30)
    raster.segment(draw, (10, 10), (20, 10), 4, "black")
    raster.segment(draw, (20, 20), (20, 10), 4, "black")  # drawn from its far end
    assert dark_rows(image, 15) == [9, 10, 11, 12]
    assert dark_columns(image, 15) == [19, 20, 21, 22]
    assert min(image.getpixel((22, 9))) < 128  # the outer corner is filled, no notch


def test_centred_text_is_centred() -> None:
    image, draw = raster.canvas(60, 60)
    raster.centred_text(draw, (30, 30), "8", raster.font(30), "black")
    box = image.convert("L").point(lambda v: 255 if v < 128 else 0).getbbox()
    assert box is not None
    left, top, right, bottom = box
    assert abs((left + right) / 2 - 30) <= 2 and abs((top + bottom) / 2 - 30) <= 2
    assert bottom - top > 15  # the font has the size asked for, not a tiny bitmap


def test_without_a_system_font_pillows_own_font_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    real = ImageFont.truetype

    def no_files(font: Any, *args: Any, **kwargs: Any) -> ImageFont.FreeTypeFont:
        if isinstance(font, str):  # a font file by name: as on a system without fonts
            raise OSError("cannot open resource")
        return real(font, *args, **kwargs)  # Pillow's own font, from bytes

    monkeypatch.setattr(ImageFont, "truetype", no_files)
    raster._font_file.cache_clear()
    try:
        face = raster.font(24)
        assert not isinstance(getattr(face, "path", None), str)  # not from a font file
        image, draw = raster.canvas(40, 40)
        raster.centred_text(draw, (20, 20), "7", face, "black")
        assert image.convert("L").getextrema()[0] < 128
    finally:
        raster._font_file.cache_clear()  # later tests get the real font again


def test_encode_makes_a_png() -> None:
    image, _ = raster.canvas(7, 5)
    data = raster.encode(image)
    assert Image.open(io.BytesIO(data)).size == (7, 5) and data.startswith(b"\x89PNG")
