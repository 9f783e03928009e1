"""`make model-lines`: train the line recogniser and write src/pencilbox/core/vision/lines.onnx.

The network learns from clue strips drawn by tools/line_strips.py in the TRAIN fonts of
tools/fonts.py (rows and columns half and half; the families named in --hold-out are left
out), each scaled by the reader's own `lines.prepare`. It is a small CNN (the strip's height
folded away in four steps, two strip pixels per step along it) and a bidirectional GRU,
trained with CTC (torch's CTCLoss) on one core, and exported to ONNX with a dynamic width.

Run with torch installed (CPU wheel); the result is deterministic for a given seed and torch
version. It prints per-line exact accuracy on new strips of TRAIN fonts and on HELD_OUT
fonts, which the network never sees.

    python -m tools.train_lines [--seed 1] [--samples N] [--epochs N] [--hold-out commas]
"""

from __future__ import annotations

import argparse
import io
import time
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from pencilbox.core.vision import lines
from tools.fonts import held_out_fonts, train_fonts
from tools.line_strips import GROUNDS, LAYOUTS, draw, numbers, random_look
from tools.training import run_epochs

HERE = Path(__file__).resolve().parents[1] / "src/pencilbox/core/vision"
HOLD_OUT = ("commas", "textured")
"""The layout and ground families kept out of the shipped model's training, so that the
benchmark can say how it reads a family it never saw."""


def labels(values: tuple[int, ...]) -> list[int]:
    """The CTC targets of a clue line: digits as 1-10, a break between numbers."""
    out: list[int] = []
    for i, value in enumerate(values):
        if i:
            out.append(lines.BREAK)
        out.extend(int(d) + 1 for d in str(value))
    return out


def strips(
    count: int, seed: int, which: str, hold_out: tuple[str, ...] = ()
) -> list[tuple[np.ndarray, bool, tuple[int, ...]]]:
    """`count` prepared strips (network input, vertical, numbers) of TRAIN or HELD_OUT fonts."""
    rng = np.random.default_rng(seed)
    fonts = train_fonts() if which == "train" else held_out_fonts()
    layouts = tuple(f for f in LAYOUTS if f not in hold_out)
    grounds = tuple(f for f in GROUNDS if f not in hold_out)
    out = []
    for i in range(count):
        vertical = i % 2 == 1
        look = random_look(rng, fonts, vertical, layouts, grounds)
        strip = draw(rng, look, numbers(rng))
        out.append((lines.prepare(strip.image, vertical), vertical, strip.numbers))
    return out


class Network:
    """Built lazily: torch is imported only when training."""

    @staticmethod
    def build() -> object:
        import torch
        from torch import nn

        class LineNet(nn.Module):
            def __init__(self) -> None:
                super().__init__()

                def block(cin: int, cout: int, pool: tuple[int, int]) -> list[nn.Module]:
                    return [
                        nn.Conv2d(cin, cout, 3, padding=1, bias=False),
                        nn.BatchNorm2d(cout),
                        nn.ReLU(),
                        nn.MaxPool2d(pool),
                    ]

                self.features = nn.Sequential(
                    *block(1, 16, (2, 2)),
                    *block(16, 32, (2, 1)),
                    *block(32, 64, (2, 1)),
                    *block(64, 64, (2, 1)),
                )
                self.project = nn.Linear(64 * 2, 96)
                self.rnn = nn.GRU(96, 64, batch_first=True, bidirectional=True)
                self.out = nn.Linear(128, lines.CLASSES)

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                f = self.features(x)  # (N, 64, 2, T)
                n, c, h, t = f.shape
                f = f.permute(0, 3, 1, 2).reshape(n, t, c * h)
                f = torch.relu(self.project(f))
                f, _ = self.rnn(f)
                return self.out(f)  # (N, T, CLASSES)

        return LineNet()


def batches(
    data: list[tuple[np.ndarray, bool, tuple[int, ...]]], size: int, rng: np.random.Generator
) -> list[list[int]]:
    """Index batches of strips of similar width (less padding), in random order."""
    order = sorted(range(len(data)), key=lambda i: (data[i][0].shape[1], rng.random()))
    chunks = [order[i : i + size] for i in range(0, len(order), size)]
    rng.shuffle(chunks)  # type: ignore[arg-type]
    return chunks


def train(data: list, epochs: int, seed: int) -> object:
    import torch

    torch.manual_seed(seed)
    model = Network.build()
    assert isinstance(model, torch.nn.Module)
    rng = np.random.default_rng(seed)
    size = 32
    steps = epochs * ((len(data) + size - 1) // size)
    optimiser = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(
        optimiser, max_lr=3e-3, total_steps=steps, pct_start=0.15
    )
    loss_fn = torch.nn.CTCLoss(blank=lines.BLANK, zero_infinity=True)

    def losses() -> Iterable[tuple[object, int]]:
        for chunk in batches(data, size, rng):
            yield _loss(model, loss_fn, [data[i] for i in chunk]), len(chunk)

    return run_epochs(model, optimiser, schedule, epochs, losses, clip=5.0)


def _loss(model: object, loss_fn: object, items: list) -> object:
    import torch

    x = torch.from_numpy(lines.batch([item[0] for item in items]))
    logits = model(x)  # type: ignore[operator]
    log_probs = logits.log_softmax(2).permute(1, 0, 2)  # (T, N, C)
    targets = [labels(item[2]) for item in items]
    flat = torch.tensor([t for target in targets for t in target], dtype=torch.long)
    target_lengths = torch.tensor([len(t) for t in targets], dtype=torch.long)
    input_lengths = torch.tensor(
        [max(1, item[0].shape[1] // lines.STRIDE) for item in items], dtype=torch.long
    )
    return loss_fn(log_probs, flat, input_lengths, target_lengths)  # type: ignore[operator]


def export(model: object, path: Path) -> None:
    import torch

    assert isinstance(model, torch.nn.Module)
    buffer = io.BytesIO()
    dummy = torch.zeros(2, 1, lines.HEIGHT, 200)
    torch.onnx.export(
        model,
        (dummy,),
        buffer,
        input_names=["strips"],
        output_names=["logits"],
        dynamic_axes={"strips": {0: "n", 3: "width"}, "logits": {0: "n", 1: "steps"}},
        opset_version=17,
        dynamo=False,
    )
    path.write_bytes(buffer.getvalue())


def accuracy(path: Path, data: list) -> float:
    recogniser = lines.LineRecogniser(path.read_bytes())
    right = 0
    for start in range(0, len(data), 64):
        items = data[start : start + 64]
        outputs = recogniser.log_probabilities([item[0] for item in items])
        for item, log_probs in zip(items, outputs, strict=True):
            found = lines.readings(log_probs)
            right += bool(found) and found[0].numbers == item[2]
    return right / len(data)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=36000, help="training strips")
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=HERE / "lines.onnx")
    parser.add_argument(
        "--hold-out", default=",".join(HOLD_OUT), help="families kept out (comma-separated)"
    )
    args = parser.parse_args()
    import torch

    torch.set_num_threads(1)
    if not train_fonts():
        raise SystemExit("no training fonts installed: run `make fonts` first")
    hold_out = tuple(f for f in args.hold_out.split(",") if f)
    started = time.perf_counter()
    data = strips(args.samples, args.seed, "train", hold_out)
    print(f"{len(data)} training strips in {time.perf_counter() - started:.0f} s", flush=True)
    model = train(data, args.epochs, args.seed)
    export(model, args.out)
    print(f"wrote {args.out.name} ({args.out.stat().st_size / 1024:.0f} KiB)")
    seen = strips(1000, args.seed + 7, "train", hold_out)
    unseen = strips(1000, args.seed + 8, "held_out", hold_out)
    print(f"lines exact: new strips of training fonts {accuracy(args.out, seen):.4f}, ", end="")
    print(f"held-out fonts {accuracy(args.out, unseen):.4f}", flush=True)
    print(f"total {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
