"""Benchmark of the line recogniser (core/vision/lines.py): writes bench/results/lines.md.

Clue strips are drawn by tools/line_strips.py with seeds the training never used, in TRAIN
fonts and in HELD_OUT fonts (never seen in training), rows and columns half and half, over
every layout and ground family (those of tools/train_lines.HOLD_OUT were kept out of the
shipped model's training: they measure a family never seen). "world" strips carry every kind
of damage; "clean" strips none (no strikes, neighbours, tilt, blur, noise or JPEG). A line is
exact when the best reading's numbers are the truth's. Calibration: how many best readings
with probability >= 0.9 are wrong. Speed: the 60 strips of a 30x30 puzzle through
`read_strips` on one core.

    python bench/lines.py [--count 2000] [--seed 5000] [--out FILE]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tools.fonts import held_out_fonts, train_fonts  # noqa: E402
from tools.line_strips import Look, Strip, draw, numbers, random_look  # noqa: E402
from tools.train_lines import HOLD_OUT  # noqa: E402

from pencilbox.core.vision import lines  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "lines.md"
BUCKETS = ((6, 9), (10, 14), (15, 24), (25, 40))


@dataclass(frozen=True)
class Outcome:
    look: Look
    fonts: str  # "TRAIN" or "HELD_OUT"
    condition: str  # "world" or "clean"
    exact: bool
    probability: float


def bucket(height: float) -> str:
    for low, high in BUCKETS:
        if height < high + 1:
            return f"{low}-{high} px"
    return f"{BUCKETS[-1][0]}-{BUCKETS[-1][1]} px"


def drawn(count: int, seed: int, which: str, clean: bool) -> list[Strip]:
    rng = np.random.default_rng(seed)
    fonts = train_fonts() if which == "TRAIN" else held_out_fonts()
    out = []
    for i in range(count):
        look = random_look(rng, fonts, vertical=i % 2 == 1)
        out.append(draw(rng, look, numbers(rng), clean=clean))
    return out


def measure(count: int, seed: int) -> list[Outcome]:
    outcomes = []
    for k, (which, condition) in enumerate(
        (("TRAIN", "world"), ("HELD_OUT", "world"), ("TRAIN", "clean"), ("HELD_OUT", "clean"))
    ):
        strips = drawn(count, seed + k, which, condition == "clean")
        found = lines.read_strips([(s.image, s.look.vertical) for s in strips])
        for strip, readings in zip(strips, found, strict=True):
            best = readings[0] if readings else None
            exact = best is not None and best.numbers == strip.numbers
            p = best.probability if best else 0.0
            outcomes.append(Outcome(strip.look, which, condition, exact, p))
    return outcomes


def rate(items: list[Outcome]) -> str:
    if not items:
        return "-"
    return f"{100 * sum(o.exact for o in items) / len(items):.1f}% ({len(items)})"


def table(outcomes: list[Outcome], key_name: str, key: object) -> list[str]:
    """Rows: the values of `key`; columns: fonts x condition."""
    columns = [(f, c) for c in ("clean", "world") for f in ("TRAIN", "HELD_OUT")]
    groups: dict[str, list[Outcome]] = defaultdict(list)
    for o in outcomes:
        groups[key(o)].append(o)  # type: ignore[operator]
    head = f"| {key_name} | " + " | ".join(f"{c} {f}" for f, c in columns) + " |"
    out = [head, "|" + "---|" * (len(columns) + 1)]
    for name in sorted(groups):
        cells = [
            rate([o for o in groups[name] if (o.fonts, o.condition) == col]) for col in columns
        ]
        out.append(f"| {name} | " + " | ".join(cells) + " |")
    return out


def family(o: Outcome) -> str:
    layout = o.look.layout + (" (held out)" if o.look.layout in HOLD_OUT else "")
    return layout


def ground(o: Outcome) -> str:
    return o.look.ground + (" (held out)" if o.look.ground in HOLD_OUT else "")


def calibration(outcomes: list[Outcome]) -> list[str]:
    out = ["| probability of best reading | readings | wrong | wrong share |", "|---|---|---|---|"]
    for low, high in ((0.99, 1.01), (0.9, 0.99), (0.9, 1.01), (0.5, 0.9), (0.0, 0.5)):
        chosen = [o for o in outcomes if low <= o.probability < high]
        wrong = sum(not o.exact for o in chosen)
        share = f"{100 * wrong / len(chosen):.2f}%" if chosen else "-"
        label = f">= {low}" if high > 1 else f"{low}-{high}"
        out.append(f"| {label} | {len(chosen)} | {wrong} | {share} |")
    return out


def puzzle_strips(height: float, seed: int) -> list[tuple[np.ndarray, bool]]:
    """The 30 row and 30 column strips of a 30x30 puzzle in one HELD_OUT font."""
    rng = np.random.default_rng(seed)
    font = held_out_fonts()[0]
    out = []
    for i in range(60):
        look = Look(font, False, height, 1.7, "ruled", "grey", True, i >= 30)
        values = numbers(rng)[:6]
        strip = draw(rng, look, values, clean=True)
        out.append((strip.image, look.vertical))
    return out


def speed() -> list[str]:
    out = ["| digit height | strips | median s (of 7) |", "|---|---|---|"]
    for height in (8.0, 14.0, 30.0):
        strips = puzzle_strips(height, 11)
        lines.read_strips(strips)
        times = []
        for _ in range(7):
            started = time.perf_counter()
            lines.read_strips(strips)
            times.append(time.perf_counter() - started)
        out.append(f"| {height:.0f} px | 60 | {statistics.median(times):.3f} |")
    return out


def floors(outcomes: list[Outcome]) -> list[str]:
    clean = [o for o in outcomes if o.condition == "clean" and o.fonts == "HELD_OUT"]
    seen = [o for o in clean if o.look.layout not in HOLD_OUT and o.look.ground not in HOLD_OUT]
    big = [o for o in seen if o.look.height >= 10]
    small = [o for o in seen if o.look.height < 10]
    sure = [o for o in outcomes if o.probability >= 0.9]
    wrong = sum(not o.exact for o in sure)
    return [
        "| floor | target | measured |",
        "|---|---|---|",
        f"| HELD_OUT fonts, clean, digits >= 10 px | >= 99% | {rate(big)} |",
        f"| HELD_OUT fonts, clean, digits 6-9 px | >= 95% | {rate(small)} |",
        f"| readings with probability >= 0.9 that are wrong | <= 0.2% | "
        f"{100 * wrong / max(1, len(sure)):.2f}% ({wrong} of {len(sure)}) |",
    ]


def report(outcomes: list[Outcome], args: argparse.Namespace, seconds: float) -> str:
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    model = (ROOT / "src/pencilbox/core/vision/lines.onnx").stat().st_size / 1024
    parts = [
        "# Line recogniser (core/vision/lines.py)",
        "",
        f"`python bench/lines.py --count {args.count} --seed {args.seed}` at commit {commit};"
        f" model lines.onnx {model:.0f} KiB; {seconds:.0f} s.",
        "",
        "Per-line exact: the best reading's numbers are the truth's (strips drawn by"
        " tools/line_strips.py, seeds unused in training). Families held out of training: "
        + ", ".join(HOLD_OUT)
        + ". Floors count only families seen in training.",
        "",
        "## Floors",
        *floors(outcomes),
        "",
        "## By digit height",
        *table(outcomes, "digit height", lambda o: bucket(o.look.height)),
        "",
        "## By layout family",
        *table(outcomes, "layout", family),
        "",
        "## By ground",
        *table(outcomes, "ground", ground),
        "",
        "## Rows and columns",
        *table(outcomes, "strip", lambda o: "column" if o.look.vertical else "row"),
        "",
        "## Calibration (all strips above)",
        *calibration(outcomes),
        "",
        "## Speed: the 60 strips of a 30x30 puzzle, one core",
        *speed(),
        "",
    ]
    return "\n".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=2000, help="strips per fonts x condition")
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    started = time.perf_counter()
    outcomes = measure(args.count, args.seed)
    text = report(outcomes, args, time.perf_counter() - started)
    args.out.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
