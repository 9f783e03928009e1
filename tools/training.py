"""What the two trainers (tools/train_digits.py, tools/train_lines.py) share: the epoch loop
with a one-cycle schedule and its progress lines, and the JPEG damage their drawn samples get."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

import cv2
import numpy as np


def jpeg_again(gray8: np.ndarray, quality: int) -> np.ndarray:
    """A grey picture saved as a JPEG of `quality` and read back (as it is if encoding fails)."""
    ok, data = cv2.imencode(".jpg", gray8, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(data, cv2.IMREAD_GRAYSCALE) if ok else gray8


def run_epochs(
    model: object,
    optimiser: object,
    schedule: object,
    epochs: int,
    losses: Callable[[], Iterable[tuple[object, int]]],
    clip: float | None = None,
) -> object:
    """Train `model` for `epochs`: each epoch steps the optimiser and the schedule on every
    (loss, samples) that `losses()` yields, with gradients clipped to `clip` if given, and
    prints the mean loss and the time; the model is left in eval mode."""
    import torch

    assert isinstance(model, torch.nn.Module)
    for epoch in range(epochs):
        model.train()
        started, total, count = time.perf_counter(), 0.0, 0
        for loss, samples in losses():
            optimiser.zero_grad()  # type: ignore[attr-defined]
            loss.backward()  # type: ignore[attr-defined]
            if clip is not None:
                torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
            optimiser.step()  # type: ignore[attr-defined]
            schedule.step()  # type: ignore[attr-defined]
            total += float(loss.detach()) * samples  # type: ignore[attr-defined]
            count += samples
        print(
            f"epoch {epoch + 1}/{epochs}: loss {total / max(count, 1):.4f} "
            f"({time.perf_counter() - started:.0f} s)",
            flush=True,
        )
    model.eval()
    return model
