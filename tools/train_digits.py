"""`make model`: train the glyph recogniser and write src/pencilbox/core/vision/digits.onnx.

The network learns from characters drawn by this script in the TRAIN fonts of tools/fonts.py
(Debian font packages), each damaged the way screenshots and photos damage print: any size
from 7 to 60 pixels, drawn small by FreeType or shrunk from a large drawing, bold and thin
strokes, slant, small rotations, old-style figures, low contrast (greyed-out clues),
strike-through (and the gap a strike leaves once a reader took it out), blur, noise, JPEG.
Every sample is cut out by the same `glyph_image` the readers use. The "none" class learns
crosses, dots, filled squares, dashes and stray strokes.

The recogniser averages two networks (MEMBERS), trained alike on sets of different sizes
for different lengths: they err on different crops. By default every member is trained and
written beside the readers; `--samples N --epochs N --out FILE` trains one network.

Run with torch installed (CPU wheel); the result is deterministic for a given seed and
torch version. It prints each network's accuracy on held-out samples of TRAIN fonts and on
the HELD_OUT fonts, which the networks never see.

    python -m tools.train_digits [--seed 1] [--samples N --epochs N --out FILE]
"""

from __future__ import annotations

import argparse
import io
import multiprocessing
import time
from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from pencilbox.core.vision.glyphs import CLASSES, GLYPH, Blob, blobs, glyph_image, ink_map
from tools.fonts import has_oldstyle, held_out_fonts, train_fonts
from tools.training import jpeg_again, run_epochs

HERE = Path(__file__).resolve().parents[1] / "src/pencilbox/core/vision"
MEMBERS = (("digits.onnx", 6000, 5), ("digits-2.onnx", 9000, 10))
"""The recogniser's networks (glyphs.MODELS): file, training samples per class, epochs."""
BIG = 64  # size of the large drawings that are shrunk


def _draw(font_path: Path, char: str, size: int, oldstyle: bool = False) -> np.ndarray:
    """The character's ink (0-255) drawn by FreeType at `size` pixels, with a margin; with
    `oldstyle`, digits in the face's old-style figures (OpenType "onum": 3, 4, 5, 7, 9 hang
    below the line and 6, 8 rise above it, as books, newspapers and some apps print them)."""
    font = ImageFont.truetype(str(font_path), size)
    side = size * 3
    image = Image.new("L", (side, side), 0)
    features = ["onum"] if oldstyle else None
    ImageDraw.Draw(image).text(
        (side // 2, side // 2), char, fill=255, font=font, anchor="mm", features=features
    )
    ink = np.asarray(image)
    ys, xs = np.nonzero(ink > 20)
    if len(xs) == 0:
        return np.zeros((size, size), np.uint8)
    pad = max(2, size // 3)
    y0, y1 = max(0, ys.min() - pad), min(side, ys.max() + pad + 1)
    x0, x1 = max(0, xs.min() - pad), min(side, xs.max() + pad + 1)
    return np.ascontiguousarray(ink[y0:y1, x0:x1])


def _none_shape(rng: np.random.Generator) -> np.ndarray:
    """A mark that is not a character: cross, dot, square, dash, scribble. (No lone slanted
    stroke or ring: an italic 1 or a round 0 looks just like them.)"""
    side = BIG
    ink = np.zeros((side, side), np.uint8)
    kind = rng.integers(0, 5)
    t = int(rng.integers(2, 9))
    m = int(rng.integers(6, 20))
    if kind == 0:  # a cross, as players mark empty cells
        cv2.line(ink, (m, m), (side - m, side - m), 255, t, cv2.LINE_AA)
        cv2.line(ink, (side - m, m), (m, side - m), 255, t, cv2.LINE_AA)
    elif kind == 1:  # a dot
        cv2.circle(ink, (side // 2, side // 2), int(rng.integers(3, 14)), 255, -1, cv2.LINE_AA)
    elif kind == 2:  # a filled square (not a narrow bar, which is what a bold 1 can be)
        w = int(rng.integers(12, 40))
        h = int(w * rng.uniform(0.7, 1.4))
        cv2.rectangle(ink, (32 - w // 2, 32 - h // 2), (32 + w // 2, 32 + h // 2), 255, -1)
    elif kind == 3:  # a dash
        w = int(rng.integers(12, 40))
        cv2.line(ink, (32 - w // 2, 32), (32 + w // 2, 32), 255, t)
    else:  # a scribble
        points = rng.integers(10, 54, size=(int(rng.integers(3, 7)), 2)).astype(np.int32)
        cv2.polylines(ink, [points], False, 255, t, cv2.LINE_AA)
    return ink


def _warp(ink: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Slant, rotate, stretch; bold or thin strokes."""
    h, w = ink.shape
    pad = max(h, w) // 3
    ink = cv2.copyMakeBorder(ink, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    h, w = ink.shape
    shear = rng.normal(0, 0.08) if rng.random() < 0.7 else 0.0
    angle = np.deg2rad(rng.normal(0, 3.0))
    stretch = rng.uniform(0.85, 1.15)
    c, s = np.cos(angle), np.sin(angle)
    matrix = np.array([[c * stretch, -s + shear, 0.0], [s * stretch, c, 0.0]])
    matrix[:, 2] = np.array([w / 2, h / 2]) - matrix[:, :2] @ np.array([w / 2, h / 2])
    ink = cv2.warpAffine(ink, matrix, (w, h), flags=cv2.INTER_LINEAR)
    roll = rng.random()
    if roll < 0.15:
        k = int(rng.integers(2, 5))
        ink = cv2.dilate(ink, np.ones((k, k), np.uint8))
    elif roll < 0.22:
        ink = cv2.erode(ink, np.ones((2, 2), np.uint8))
    return ink


def _strike(ink: np.ndarray, rng: np.random.Generator, erased: bool = False) -> np.ndarray:
    """A line through the character, as apps strike out a solved clue: level through its
    middle, corner to corner, or a slash at 35-70 degrees up to 1.6 times its height. With
    `erased`, the line's pixels are taken out again, as the readers take a strike out before
    they read what is left: the character with a gap where the line crossed it."""
    ys, xs = np.nonzero(ink > 60)
    if len(xs) == 0:
        return ink
    x0, x1, y0, y1 = xs.min(), xs.max(), ys.min(), ys.max()
    height = y1 - y0 + 1
    t = max(1, int(height * rng.uniform(0.04, 0.12)))
    over = int((x1 - x0 + 1) * rng.uniform(0.0, 0.3))
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2 + rng.normal(0, height * 0.05)
    roll = rng.random()
    if roll < 0.45:
        ends = ((x0 - over, cy), (x1 + over, cy))
    elif roll < 0.65:
        ends = ((x0 - over, y1), (x1 + over, y0))
    else:
        angle = np.deg2rad(rng.uniform(35, 70))
        half = height * rng.uniform(0.9, 1.6) / 2
        dx, dy = half * np.cos(angle), half * np.sin(angle)
        ends = ((cx - dx, cy + dy), (cx + dx, cy - dy))
    line = np.zeros_like(ink)
    (ax, ay), (bx, by) = ends
    cv2.line(line, (int(ax), int(ay)), (int(bx), int(by)), 255, t, cv2.LINE_AA)
    if erased:
        gap = cv2.dilate(line, np.ones((3, 3), np.uint8)) > 0
        left = np.where(gap, 0, ink).astype(np.uint8)
        # a strike along a stroke (the bar of an F) takes the character with it: no reader
        # would read that, and it would teach a dash to be an F
        return left if left.sum() >= 0.7 * ink.sum() else ink
    return np.maximum(ink, line)


def _damage(ink: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Now and then a strike through the character, left in or taken out."""
    roll = rng.random()
    if roll < 0.12:
        return _strike(ink, rng)
    if roll < 0.18:
        return _strike(ink, rng, erased=True)
    return ink


def _shrink(ink: np.ndarray, height: float) -> np.ndarray:
    ys, _ = np.nonzero(ink > 60)
    span = (ys.max() - ys.min() + 1) if len(ys) else ink.shape[0]
    factor = height / span
    w = max(3, round(ink.shape[1] * factor))
    h = max(3, round(ink.shape[0] * factor))
    return cv2.resize(ink, (w, h), interpolation=cv2.INTER_AREA)


def _photograph(ink: np.ndarray, rng: np.random.Generator, height: float) -> np.ndarray:
    """Ink on a ground, as a grey picture: contrast, uneven light, blur, noise, JPEG. Blur
    and noise stay within what leaves a character of `height` pixels readable to a person."""
    ground = rng.uniform(150, 255)
    contrast = rng.uniform(45, ground) if rng.random() < 0.3 else rng.uniform(0.55, 1.0) * ground
    gray = ground - contrast * (ink.astype(np.float32) / 255.0)
    h, w = gray.shape
    if rng.random() < 0.4:  # light falling unevenly
        ramp = np.linspace(-1, 1, w)[None, :] * rng.normal(0, 12) + np.linspace(-1, 1, h)[
            :, None
        ] * rng.normal(0, 12)
        gray = gray + ramp
    if rng.random() < 0.5:
        sigma = rng.uniform(0.3, min(1.1, 0.3 + 0.05 * height))
        gray = cv2.GaussianBlur(gray, (0, 0), sigma)
    gray = gray + rng.normal(0, rng.uniform(0, min(7.0, contrast / 10)), gray.shape)
    gray8 = np.clip(gray, 0, 255).astype(np.uint8)
    if rng.random() < 0.4:
        quality = int(rng.integers(25, 90))
        gray8 = jpeg_again(gray8, quality)
    if rng.random() < 0.15:  # a screenshot zoomed 2-3x by the phone or page
        k = int(rng.integers(2, 4))
        gray8 = cv2.resize(gray8, None, fx=k, fy=k, interpolation=cv2.INTER_NEAREST)
    return gray8


def cut(gray: np.ndarray) -> np.ndarray:
    """The crop the network reads, cut from a grey picture of one mark as a reader would."""
    ink = ink_map(gray, window=max(7, int(max(gray.shape) * 0.8)))
    peak = float(ink.max())
    mask = ((ink > max(0.12, 0.45 * peak)) * 255).astype(np.uint8)
    found, _ = blobs(mask)
    if not found:
        return np.zeros((GLYPH, GLYPH), np.float32)
    largest = max(b.area for b in found)
    kept = [b for b in found if b.area >= min(largest, max(2, 0.04 * largest))]
    box = kept[0]
    for other in kept[1:]:
        box = box.union(other)
    box = Blob(box.x0, box.y0, box.x1, box.y1, box.area)
    keep = cv2.dilate(mask, np.ones((3, 3), np.uint8)) > 0
    return glyph_image(ink, box, keep)


def sample(args: tuple[int, str, int]) -> tuple[np.ndarray, np.ndarray]:
    """`count` samples of each class from one seed (one worker's share)."""
    seed, which, count = args
    rng = np.random.default_rng(seed)
    fonts = train_fonts() if which == "train" else held_out_fonts()
    xs, ys = [], []
    for _ in range(count):
        for label, char in enumerate(CLASSES):
            height = float(np.exp(rng.uniform(np.log(7), np.log(60))))
            if label == 0:
                ink = _warp(_none_shape(rng), rng)
                ink = _shrink(ink, height)
            else:
                font = fonts[int(rng.integers(len(fonts)))]
                oldstyle = char.isdigit() and rng.random() < 0.25 and has_oldstyle(font)
                if rng.random() < 0.45:  # drawn small by FreeType itself, hinting and all
                    ink = _damage(_draw(font, char, max(6, round(height * 1.4)), oldstyle), rng)
                else:
                    ink = _damage(_warp(_draw(font, char, BIG, oldstyle), rng), rng)
                    ink = _shrink(ink, height)
            xs.append(cut(_photograph(ink, rng, height)))
            ys.append(label)
    return np.stack(xs), np.array(ys, np.int64)


def dataset(which: str, per_class: int, seed: int, workers: int) -> tuple[np.ndarray, np.ndarray]:
    chunks = max(workers, per_class // 250)
    shares = [(seed * 1000 + i, which, per_class // chunks) for i in range(chunks)]
    with multiprocessing.Pool(workers) as pool:
        parts = pool.map(sample, shares)
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def network() -> object:
    import torch.nn as nn

    return nn.Sequential(
        nn.Conv2d(1, 16, 3, padding=1),
        nn.BatchNorm2d(16),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1),
        nn.BatchNorm2d(32),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1),
        nn.BatchNorm2d(64),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Flatten(),
        nn.Linear(64 * 3 * 3, 128),
        nn.ReLU(),
        nn.Dropout(0.2),
        nn.Linear(128, len(CLASSES)),
    )


def train(x: np.ndarray, y: np.ndarray, epochs: int, seed: int) -> object:
    import torch

    torch.manual_seed(seed)
    model = network()
    assert isinstance(model, torch.nn.Module)
    data = torch.from_numpy(x).unsqueeze(1)
    labels = torch.from_numpy(y)
    optimiser = torch.optim.AdamW(model.parameters(), lr=4e-3, weight_decay=1e-4)
    batch_size = 512
    steps = epochs * ((len(x) + batch_size - 1) // batch_size)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=4e-3, total_steps=steps)
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=0.02)
    generator = torch.Generator().manual_seed(seed)

    def losses() -> Iterable[tuple[object, int]]:
        order = torch.randperm(len(x), generator=generator)
        for start in range(0, len(x), batch_size):
            batch = order[start : start + batch_size]
            yield loss_fn(model(data[batch]), labels[batch]), len(batch)

    return run_epochs(model, optimiser, schedule, epochs, losses)


def export(model: object, path: Path) -> None:
    import torch

    assert isinstance(model, torch.nn.Module)
    buffer = io.BytesIO()
    dummy = torch.zeros(1, 1, GLYPH, GLYPH)
    torch.onnx.export(
        model,
        (dummy,),
        buffer,
        input_names=["glyphs"],
        output_names=["logits"],
        dynamic_axes={"glyphs": {0: "n"}, "logits": {0: "n"}},
        opset_version=17,
        dynamo=False,
    )
    path.write_bytes(buffer.getvalue())


def accuracy(path: Path, x: np.ndarray, y: np.ndarray) -> float:
    from pencilbox.core.vision.glyphs import Recogniser

    probs = Recogniser(path.read_bytes()).probabilities(x)
    return float((probs.argmax(axis=1) == y).mean())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, help="training samples per class (one network)")
    parser.add_argument("--epochs", type=int, help="epochs (one network)")
    parser.add_argument("--out", type=Path, help="where the one network goes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--cache", type=Path, help="keep the drawn training sets in this folder")
    args = parser.parse_args()
    import torch

    torch.set_num_threads(args.workers)
    if not train_fonts():
        raise SystemExit("no training fonts installed: run `make fonts` first")
    if args.out or args.samples or args.epochs:
        if not (args.out and args.samples and args.epochs):
            raise SystemExit("one network needs --samples, --epochs and --out")
        jobs = [(args.out, args.samples, args.epochs)]
    else:
        jobs = [(HERE / name, samples, epochs) for name, samples, epochs in MEMBERS]
    for out, samples, epochs in jobs:
        _train_one(out, samples, epochs, args.seed, args.workers, args.cache)


def _train_one(
    out: Path, samples: int, epochs: int, seed: int, workers: int, cache: Path | None
) -> None:
    started = time.perf_counter()
    kept = cache / f"train-{samples}-{seed}.npz" if cache else None
    if kept and kept.is_file():
        saved = np.load(kept)
        x, y = saved["x"], saved["y"]
    else:
        x, y = dataset("train", samples, seed, workers)
        if kept:
            kept.parent.mkdir(parents=True, exist_ok=True)
            np.savez_compressed(kept, x=x, y=y)
    print(f"{out.name}: {len(x)} training samples in {time.perf_counter() - started:.0f} s")
    model = train(x, y, epochs, seed)
    export(model, out)
    print(f"wrote {out.name} ({out.stat().st_size / 1024:.0f} KiB)")
    vx, vy = dataset("train", 300, seed + 7, workers)
    hx, hy = dataset("held_out", 300, seed + 8, workers)
    print(f"accuracy: new samples of training fonts {accuracy(out, vx, vy):.4f}, ", end="")
    print(f"held-out fonts {accuracy(out, hx, hy):.4f}", flush=True)


if __name__ == "__main__":
    main()
