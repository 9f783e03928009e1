"""The line recogniser: a whole nonogram clue strip read at once, numbers and spacing together.

A clue strip (one row's or one column's clues, a grey crop with dark ink on a light ground) is
scaled to HEIGHT pixels and read by a small convolutional + bidirectional recurrent network
trained with CTC (tools/train_lines.py draws the strips and writes lines.onnx beside this
file). The network names, per step along the strip, a digit, the break between two numbers,
or nothing; a prefix beam search turns those steps into the likeliest readings. Nothing is cut
by hand-set gaps: how far apart two numbers stand, and how close two digits of one number, is
learned from strips of every spacing.

A column's strip is turned a quarter so that its top comes first (the network reads along x;
it has learned digits lying on their side): numbers that stand one above another come one after
another, and a two-digit number, written across, stands across the reading direction.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

HEIGHT = 32
"""The strip's size across the reading direction once scaled for the network."""
STRIDE = 2
"""Strip pixels per network step along the strip."""
BLANK, BREAK = 0, 11
"""Network classes: 0 nothing (CTC's blank), 1-10 the digits 0-9, 11 a break between numbers."""
CLASSES = 12
LONGEST = 1600
"""The longest scaled strip read (50 cells): longer strips are shrunk along their length."""
BEAM = 10
KEPT = 3
FloatArray = npt.NDArray[np.float32]


@dataclass(frozen=True)
class LineReading:
    """One reading of a clue strip: its numbers in reading order (left to right, top to
    bottom), the probability of this whole reading, and how sure each number is (the share of
    the beam's probability that agrees on that number at that place)."""

    numbers: tuple[int, ...]
    probability: float
    number_probabilities: tuple[float, ...]


def prepare(strip: npt.NDArray[np.uint8], vertical: bool) -> FloatArray:
    """The network's input for one strip: turned so that the reading runs along x (a column's
    top first), scaled to HEIGHT rows, ink 1.0 on a ground of 0.0 (levels between the strip's
    ground and its darkest ink; a faint strip is stretched, an empty one stays near 0)."""
    gray = np.asarray(strip, np.float32)
    if gray.ndim != 2 or min(gray.shape) < 1:
        raise ValueError(f"a clue strip is a 2-D grey picture, got shape {gray.shape}")
    if vertical:
        gray = np.ascontiguousarray(np.rot90(gray))
    height, width = gray.shape
    scaled_width = max(STRIDE * 4, min(LONGEST, round(width * HEIGHT / height)))
    shrink = height > HEIGHT
    scaled: npt.NDArray[Any] = cv2.resize(
        gray,
        (scaled_width, HEIGHT),
        interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR,
    )
    ground = float(np.percentile(scaled, 90))
    darkest = float(scaled.min())
    ink: FloatArray = np.clip((ground - scaled) / max(ground - darkest, 40.0), 0.0, 1.0)
    return ink.astype(np.float32)


def batch(inputs: Sequence[FloatArray]) -> FloatArray:
    """Inputs padded with ground to the widest, as one (N, 1, HEIGHT, W) array."""
    widest = max(x.shape[1] for x in inputs)
    widest += -widest % STRIDE
    out = np.zeros((len(inputs), 1, HEIGHT, widest), np.float32)
    for i, x in enumerate(inputs):
        out[i, 0, :, : x.shape[1]] = x
    return out


def _log_add(a: float, b: float) -> float:
    if a == -math.inf:
        return b
    if b == -math.inf:
        return a
    high = max(a, b)
    return high + math.log1p(math.exp(-abs(a - b)))


Beam = dict[tuple[int, ...], tuple[float, float]]
"""Label prefix -> (log probability ending in blank, log probability ending in its label)."""


def _step(beams: Beam, frame: npt.NDArray[np.float64], allowed: list[int]) -> Beam:
    """One step of CTC prefix beam search over the classes worth trying at this frame."""
    out: dict[tuple[int, ...], list[float]] = {}

    def add(prefix: tuple[int, ...], blank: float, label: float) -> None:
        entry = out.setdefault(prefix, [-math.inf, -math.inf])
        entry[0] = _log_add(entry[0], blank)
        entry[1] = _log_add(entry[1], label)

    for prefix, (p_blank, p_label) in beams.items():
        total = _log_add(p_blank, p_label)
        add(prefix, total + frame[BLANK], -math.inf)
        last = prefix[-1] if prefix else None
        for c in allowed:
            if c == last:
                add(prefix, -math.inf, p_label + frame[c])
                add((*prefix, c), -math.inf, p_blank + frame[c])
            else:
                add((*prefix, c), -math.inf, total + frame[c])
    ranked = sorted(out.items(), key=lambda kv: -_log_add(kv[1][0], kv[1][1]))
    return {prefix: (b, n) for prefix, (b, n) in ranked[:BEAM]}


SURE_BLANK = math.log(0.999)
"""A frame this surely blank ends every prefix in blank: the search restarts after it."""
WORTH = math.log(1e-3)
"""A label less likely than this at a frame is not tried there."""


def beam_search(log_probs: npt.NDArray[np.float64]) -> list[tuple[tuple[int, ...], float]]:
    """The likeliest label sequences of a (T, CLASSES) array of log probabilities with their
    probabilities, best first (CTC prefix beam search).

    Behind a frame that is all but surely blank every prefix ends in blank, and what follows
    no longer depends on which prefix it was: so each run of frames between such frames (a
    number or two) is searched alone, and the runs' readings are joined, best BEAM kept. A
    long strip with a few numbers costs a few short searches."""
    joined: dict[tuple[int, ...], float] = {(): 0.0}
    blank = log_probs[:, BLANK]
    sure = blank > SURE_BLANK
    offset = float(blank[sure].sum())
    for run in _runs(~sure):
        found = _search(log_probs[run[0] : run[1]])
        merged: dict[tuple[int, ...], float] = {}
        for head, p in joined.items():
            for tail, q in found:
                key = head + tail
                merged[key] = _log_add(merged.get(key, -math.inf), p + q)
        joined = dict(sorted(merged.items(), key=lambda kv: -kv[1])[:BEAM])
    scored = [(labels, math.exp(p + offset)) for labels, p in joined.items()]
    return sorted(scored, key=lambda kv: -kv[1])


def _runs(mask: npt.NDArray[np.bool_]) -> list[tuple[int, int]]:
    """(start, end) of each run of true values."""
    edges = np.flatnonzero(np.diff(np.concatenate([[0], mask.astype(np.int8), [0]])))
    return [(int(a), int(b)) for a, b in zip(edges[::2], edges[1::2], strict=True)]


def _search(frames: npt.NDArray[np.float64]) -> list[tuple[tuple[int, ...], float]]:
    """Prefix beam search over a run of frames from an empty prefix: (labels, log p)."""
    beams: Beam = {(): (0.0, -math.inf)}
    for frame in frames:
        allowed = [c for c in range(1, CLASSES) if frame[c] > WORTH]
        beams = _step(beams, frame, allowed)
    return [(prefix, _log_add(b, n)) for prefix, (b, n) in beams.items()]


def numbers_of(labels: tuple[int, ...]) -> tuple[int, ...] | None:
    """The clue numbers spelt by a label sequence, or None when it spells no clue line
    (a break first, last or twice, a number with a leading 0, or 0 beside other numbers)."""
    if not labels:
        return ()
    words: list[list[int]] = [[]]
    for label in labels:
        if label == BREAK:
            words.append([])
        else:
            words[-1].append(label - 1)
    if any(not w or (len(w) > 1 and w[0] == 0) for w in words):
        return None
    found = tuple(int("".join(map(str, w))) for w in words)
    if 0 in found and len(found) > 1:
        return None
    return found


def readings(log_probs: npt.NDArray[np.float64]) -> list[LineReading]:
    """The KEPT likeliest clue lines of one strip's network output (sequences that spell no
    clue line are dropped; their probability stays out of every reading's)."""
    lines: dict[tuple[int, ...], float] = {}
    for labels, probability in beam_search(log_probs):
        found = numbers_of(labels)
        if found is not None:
            lines[found] = lines.get(found, 0.0) + probability
    ranked = sorted(lines.items(), key=lambda kv: -kv[1])
    return [
        LineReading(found, min(1.0, p), _number_probabilities(found, lines))
        for found, p in ranked[:KEPT]
    ]


def _number_probabilities(
    found: tuple[int, ...], lines: dict[tuple[int, ...], float]
) -> tuple[float, ...]:
    """Per number: the probability of the readings that have as many numbers and this one at
    this place."""
    return tuple(
        min(1.0, sum(p for other, p in lines.items() if len(other) == len(found) and other[i] == n))
        for i, n in enumerate(found)
    )


class LineRecogniser:
    """The network, loaded once per process (`recogniser()`)."""

    def __init__(self, model: bytes) -> None:
        import onnxruntime

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        self._session = onnxruntime.InferenceSession(
            model, options, providers=["CPUExecutionProvider"]
        )
        self._input = self._session.get_inputs()[0].name

    def log_probabilities(self, inputs: Sequence[FloatArray]) -> list[npt.NDArray[np.float64]]:
        """Per input: (steps, CLASSES) log probabilities, the padding's steps left out."""
        (out,) = self._session.run(None, {self._input: batch(inputs)})
        logits = np.asarray(out, np.float64)  # (N, T, CLASSES)
        logits -= logits.max(axis=2, keepdims=True)
        logs = logits - np.log(np.exp(logits).sum(axis=2, keepdims=True))
        return [logs[i, : max(1, x.shape[1] // STRIDE)] for i, x in enumerate(inputs)]


@functools.lru_cache(maxsize=1)
def recogniser() -> LineRecogniser:
    model = resources.files("pencilbox.core.vision").joinpath("lines.onnx")
    return LineRecogniser(model.read_bytes())


def read_strip(strip: npt.NDArray[np.uint8], vertical: bool) -> list[LineReading]:
    """The likeliest readings (best first, up to KEPT) of one clue strip: a grey crop, ink dark
    on a light ground. A row's strip (vertical=False) is one row tall and runs from the clue
    area's outer edge to the grid; its numbers read left to right. A column's strip
    (vertical=True) is one column wide and runs from the top of the clue area down to the grid;
    its numbers stand one above another (a number of two digits written across)."""
    return read_strips([(strip, vertical)])[0]


def read_strips(
    strips: Sequence[tuple[npt.NDArray[np.uint8], bool]],
) -> list[list[LineReading]]:
    """`read_strip` for many strips, in their order: the network runs once per group of
    strips of similar length (padding a short strip to a long one's length costs time)."""
    inputs = [prepare(strip, vertical) for strip, vertical in strips]
    results: list[list[LineReading]] = [[] for _ in inputs]
    for group in _groups([x.shape[1] for x in inputs]):
        outputs = recogniser().log_probabilities([inputs[i] for i in group])
        for i, log_probs in zip(group, outputs, strict=True):
            results[i] = readings(log_probs)
    return results


def _groups(widths: list[int], spread: float = 1.3) -> list[list[int]]:
    """Indices grouped by width: within a group the widest is at most `spread` times the
    narrowest (plus a little)."""
    order = sorted(range(len(widths)), key=lambda i: widths[i])
    groups: list[list[int]] = []
    for i in order:
        if groups and widths[i] <= widths[groups[-1][0]] * spread + 16:
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups
