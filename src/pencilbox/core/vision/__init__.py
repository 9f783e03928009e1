"""Reading puzzles from pictures: the shared machinery (see picture, glyphs, grid, reading,
repair, looks). This package's own namespace stays light (no OpenCV, no numpy) so that telling a
picture file from a puzzle text costs nothing."""

from __future__ import annotations

from pathlib import Path


def image_kind(data: bytes) -> str | None:
    """ "png", "jpeg" or "webp" when the bytes start like one, else None."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if data.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    return None


def is_picture_file(path: str | Path) -> bool:
    """True when the file starts like a PNG, JPEG or WebP picture."""
    try:
        with open(path, "rb") as handle:
            return image_kind(handle.read(16)) is not None
    except OSError:
        return False
