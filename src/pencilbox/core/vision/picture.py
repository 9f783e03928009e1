"""Pictures as the readers get them: decoded from PNG, JPEG or WebP bytes, told apart by their
content (the first bytes), never by the file name."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from pencilbox.core.vision import image_kind
from pencilbox.errors import FormatError

MAX_PIXELS = 50_000_000
"""Larger pictures are refused before decoding (a 50-megapixel photo is already 150 MB)."""
MIN_SIDE = 40
WORK_SIDE = 1600
"""Readers work on a copy whose longer side is at most this; boxes map back to the original."""


@dataclass(frozen=True)
class Picture:
    """A decoded picture: the original pixels (BGR) and a working copy scaled by `scale`
    (working = original * scale) that the readers analyse."""

    pixels: npt.NDArray[Any]
    source: str | None = None
    work: npt.NDArray[Any] = field(default_factory=lambda: np.zeros((0, 0, 3), np.uint8))
    scale: float = 1.0

    @property
    def width(self) -> int:
        return int(self.pixels.shape[1])

    @property
    def height(self) -> int:
        return int(self.pixels.shape[0])

    @property
    def gray(self) -> npt.NDArray[Any]:
        """The working copy in grey levels."""
        gray: npt.NDArray[Any] = cv2.cvtColor(self.work, cv2.COLOR_BGR2GRAY)
        return gray

    def to_original(self, x: float, y: float) -> tuple[float, float]:
        return x / self.scale, y / self.scale


def from_pixels(pixels: npt.NDArray[Any], source: str | None = None) -> Picture:
    """A Picture from decoded pixels (grey, BGR or BGRA; transparency is laid on white)."""
    if pixels.ndim == 2:
        pixels = cv2.cvtColor(pixels, cv2.COLOR_GRAY2BGR)
    elif pixels.shape[2] == 4:
        alpha = pixels[:, :, 3:4].astype(np.float32) / 255.0
        colour = pixels[:, :, :3].astype(np.float32)
        pixels = (colour * alpha + 255.0 * (1.0 - alpha)).astype(np.uint8)
    pixels = np.ascontiguousarray(pixels)
    height, width = pixels.shape[:2]
    where = f"{source}: " if source else ""
    if min(height, width) < MIN_SIDE:
        raise FormatError(f"{where}the picture is too small to read ({width}x{height} pixels)")
    scale = min(1.0, WORK_SIDE / max(height, width))
    work = pixels
    if scale < 1.0:
        size = (max(1, round(width * scale)), max(1, round(height * scale)))
        work = cv2.resize(pixels, size, interpolation=cv2.INTER_AREA)
    return Picture(pixels=pixels, source=source, work=work, scale=scale)


def decode(data: bytes, source: str | None = None) -> Picture:
    """A Picture from the bytes of a PNG, JPEG or WebP file."""
    where = f"{source}: " if source else ""
    kind = image_kind(data)
    if kind is None:
        raise FormatError(f"{where}not a PNG, JPEG or WebP picture")
    buffer = np.frombuffer(data, np.uint8)
    header = _dimensions(data, kind)
    if header and header[0] * header[1] > MAX_PIXELS:
        raise FormatError(
            f"{where}the picture is too large ({header[0]}x{header[1]} pixels; "
            f"at most {MAX_PIXELS // 1_000_000} megapixels)"
        )
    pixels = cv2.imdecode(buffer, cv2.IMREAD_UNCHANGED)
    if pixels is None:
        raise FormatError(f"{where}the {kind.upper()} picture cannot be decoded (damaged file?)")
    if pixels.dtype != np.uint8:  # 16-bit PNG
        pixels = (pixels / 257).astype(np.uint8)
    if kind == "jpeg" and pixels.ndim == 3:
        # IMREAD_UNCHANGED skips the EXIF turn that phones rely on; decode again with it.
        turned = cv2.imdecode(buffer, cv2.IMREAD_COLOR)
        if turned is not None:
            pixels = turned
    return from_pixels(pixels, source)


def load(source: str | Path | bytes) -> Picture:
    """A Picture from a file path or from the file's bytes."""
    if isinstance(source, bytes):
        return decode(source)
    try:
        data = Path(source).read_bytes()
    except OSError as error:
        raise FormatError(f"cannot read the file: {error.strerror}", source=str(source)) from None
    return decode(data, str(source))


def _dimensions(data: bytes, kind: str) -> tuple[int, int] | None:
    """Width and height from the file header, to refuse huge pictures before decoding."""
    if kind == "png" and len(data) >= 24:
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if kind == "jpeg":
        at = 2
        while at + 9 < len(data):
            if data[at] != 0xFF:
                return None
            marker = data[at + 1]
            length = int.from_bytes(data[at + 2 : at + 4], "big")
            if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD):
                height = int.from_bytes(data[at + 5 : at + 7], "big")
                width = int.from_bytes(data[at + 7 : at + 9], "big")
                return width, height
            at += 2 + length
    return None
