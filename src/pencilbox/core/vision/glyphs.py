"""The glyph recogniser: one printed character (a digit, a letter A-G, or nothing) per crop.

Reading a number is two jobs. Finding the ink of each character is done by the genre readers
with `ink_map` and `blobs`; naming a character is done here by two small convolutional
networks whose scores are averaged (tools/train_digits.py trains them on digits rendered in
many fonts with photo-like damage, and `make model` writes them to digits.onnx and
digits-2.onnx beside this file) run by onnxruntime, a whole batch of crops in one call.

Both the training script and the readers cut a character out with `glyph_image`, so the
network always sees crops made the same way: the ink (dark text on a light ground, or the
other way round once inverted) of one character, cut to its box, scaled so that its longer
side is BOX pixels and centred in a GLYPH x GLYPH square, ink 1.0 and ground 0.0.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

GLYPH = 28
BOX = 20
CLASSES = ("none", *"0123456789ABCDEFG")
"""What the network names: "none" for anything that is not a character (a cross, a dot,
a stray mark), the ten digits, and the letters 16x16 sudokus use."""
NONE = 0

# OpenCV's stubs and numpy's dtypes do not line up; pictures are typed loosely as arrays.
FloatImage = npt.NDArray[Any]
"""A float32 picture (ink 0.0-1.0)."""
ByteImage = npt.NDArray[Any]
"""A uint8 picture (grey levels or a 0/255 mask)."""


@dataclass(frozen=True)
class Blob:
    """A connected piece of ink: its box (x0, y0 inclusive; x1, y1 exclusive) and pixel count,
    in the coordinates of the mask it was found in."""

    x0: int
    y0: int
    x1: int
    y1: int
    area: int
    label: int = 0

    @property
    def width(self) -> int:
        return self.x1 - self.x0

    @property
    def height(self) -> int:
        return self.y1 - self.y0

    @property
    def cx(self) -> float:
        return (self.x0 + self.x1) / 2

    @property
    def cy(self) -> float:
        return (self.y0 + self.y1) / 2

    def union(self, other: Blob) -> Blob:
        return Blob(
            min(self.x0, other.x0),
            min(self.y0, other.y0),
            max(self.x1, other.x1),
            max(self.y1, other.y1),
            self.area + other.area,
            self.label,
        )


def to_gray(image: npt.NDArray[np.uint8]) -> ByteImage:
    if image.ndim == 2:
        return image
    code = cv2.COLOR_BGRA2GRAY if image.shape[2] == 4 else cv2.COLOR_BGR2GRAY
    gray: ByteImage = cv2.cvtColor(image, code)
    return gray


def ink_map(gray: ByteImage, window: int, dark_ink: bool = True) -> FloatImage:
    """How much ink each pixel holds, 0.0 (ground) to 1.0 (full ink), against the local ground.

    The ground is a grey closing of the picture (dark strokes thinner than `window` filled in
    by their surroundings): this follows uneven light, shadows and coloured or striped
    backgrounds, which a global threshold would not. `window` should be larger than a stroke
    and smaller than a cell.
    """
    source = gray if dark_ink else cv2.bitwise_not(gray)
    size = max(3, window | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (size, size))
    ground = cv2.morphologyEx(source, cv2.MORPH_CLOSE, kernel)
    diff = ground.astype(np.float32) - source.astype(np.float32)
    scale = np.maximum(ground.astype(np.float32), 48.0)
    ink: FloatImage = np.clip(diff / scale, 0.0, 1.0).astype(np.float32)
    return ink


def blobs(mask: ByteImage, min_area: int = 1) -> tuple[list[Blob], npt.NDArray[Any]]:
    """The connected pieces (8-connected) of a 0/255 mask, and the label image."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    found = []
    for label in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[label])
        if area >= min_area:
            found.append(Blob(x, y, x + w, y + h, area, label))
    return found, labels


def ink_mask(ink: FloatImage, low: float, high: float) -> ByteImage:
    """Ink as a 0/255 mask by two thresholds: pixels above `low` draw each piece's shape
    (so thin and greyed strokes keep it), and a piece is kept only where some of it rises
    above `high` (so paper grain and JPEG noise are dropped)."""
    outline = ((ink > low) * 255).astype(np.uint8)
    count, labels = cv2.connectedComponents(outline, connectivity=8)
    peak = np.zeros(count, np.float32)
    np.maximum.at(peak, np.asarray(labels, np.int64).ravel(), ink.ravel())
    keep = peak >= high
    keep[0] = False
    mask: ByteImage = (keep[labels] * 255).astype(np.uint8)
    return mask


def glyph_image(
    ink: FloatImage, box: Blob, keep: npt.NDArray[np.bool_] | None = None
) -> FloatImage:
    """The GLYPH x GLYPH crop the network reads: the ink inside `box` (only where `keep` is
    true, when given: the character's own pixels, so a neighbour's ink is left out)."""
    patch = ink[box.y0 : box.y1, box.x0 : box.x1].astype(np.float32)
    if keep is not None:
        patch = patch * keep[box.y0 : box.y1, box.x0 : box.x1]
    peak = float(patch.max()) if patch.size else 0.0
    out = np.zeros((GLYPH, GLYPH), np.float32)
    if peak <= 0.0:
        return out
    patch = np.clip(patch / (0.8 * peak), 0.0, 1.0)
    height, width = patch.shape
    factor = BOX / max(height, width)
    new_w = max(1, round(width * factor))
    new_h = max(1, round(height * factor))
    shrink = factor < 1.0
    scaled = cv2.resize(
        patch, (new_w, new_h), interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR
    )
    top = (GLYPH - new_h) // 2
    left = (GLYPH - new_w) // 2
    out[top : top + new_h, left : left + new_w] = scaled
    return out


@dataclass(frozen=True)
class Guess:
    """What the network made of one crop: the classes from best to worst with their
    probabilities, limited to the classes the caller allowed."""

    ranked: tuple[tuple[str, float], ...]

    @property
    def best(self) -> str:
        return self.ranked[0][0]

    @property
    def confidence(self) -> float:
        return self.ranked[0][1]


class Recogniser:
    """The networks, loaded once per process (`recogniser()`): their probabilities are
    averaged (two networks trained apart err on different crops, and where one is sure and
    the other is not, the average keeps the doubt)."""

    def __init__(self, *models: bytes) -> None:
        import onnxruntime

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        sessions = [
            onnxruntime.InferenceSession(model, options, providers=["CPUExecutionProvider"])
            for model in models
        ]
        self._sessions = [(session, session.get_inputs()[0].name) for session in sessions]

    def probabilities(self, glyphs: FloatImage) -> FloatImage:
        """Class probabilities, one row per crop of an (N, GLYPH, GLYPH) batch."""
        if len(glyphs) == 0:
            return np.zeros((0, len(CLASSES)), np.float32)
        batch = glyphs.reshape(-1, 1, GLYPH, GLYPH).astype(np.float32)
        total = np.zeros((len(batch), len(CLASSES)), np.float32)
        for session, name in self._sessions:
            (logits,) = session.run(None, {name: batch})
            logits = np.asarray(logits, np.float32)
            logits -= logits.max(axis=1, keepdims=True)
            odds = np.exp(logits)
            total += odds / odds.sum(axis=1, keepdims=True)
        result: FloatImage = total / len(self._sessions)
        return result

    def guess(self, glyphs: FloatImage, allowed: str) -> list[Guess]:
        """The ranked guesses per crop among `allowed` classes ("none" is always allowed)."""
        chosen = [NONE] + [CLASSES.index(c) for c in allowed]
        probs = self.probabilities(glyphs)[:, chosen]
        probs = probs / np.maximum(probs.sum(axis=1, keepdims=True), 1e-9)
        names = [CLASSES[i] for i in chosen]
        guesses = []
        for row in probs:
            order = np.argsort(-row)
            guesses.append(Guess(tuple((names[i], float(row[i])) for i in order[:4])))
        return guesses


MODELS = ("digits.onnx", "digits-2.onnx")
"""The networks beside this file (tools/train_digits.py's MEMBERS)."""


@functools.lru_cache(maxsize=1)
def recogniser() -> Recogniser:
    here = resources.files("pencilbox.core.vision")
    return Recogniser(*(here.joinpath(name).read_bytes() for name in MODELS))
