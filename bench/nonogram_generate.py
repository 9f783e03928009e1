"""Nonogram generation benchmark: time per puzzle asked to be line-solvable.

    .venv/bin/python bench/nonogram_generate.py [--sizes 10x10,15x15,20x20,25x25] [--count N]
        [--density 0.5]

Writes bench/results/nonogram_generate.md: for each size, `generate(size, seed, grade="line")`
with seeds 1..N, its wall and CPU seconds (this process), the seeds it tried before one gave
a line-solvable puzzle, and the cells flipped to make the kept puzzle unique.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from pencilbox.genres.nonogram.generate import generate  # noqa: E402

OUT = ROOT / "bench" / "results" / "nonogram_generate.md"
HEADER = [
    "# Nonogram generation benchmark",
    "",
    "`.venv/bin/python bench/nonogram_generate.py` on the shared 2-core machine (CPU seconds",
    "are the fair figure when other jobs load it). Each row: `generate(size, seed,",
    'grade="line")` for seeds 1..N at the given density; *seeds tried* counts the seeds',
    "generated until one was line-solvable, *flips* the cells changed to make it unique.",
    "",
    "Not in the table (measured once by hand, any grade): 40x40 at 0.5 about 0.06 s and 60x60",
    "0.3 s per puzzle; 100x100 at 0.5 about 20 s (each uniqueness check is a 10 s SAT search,",
    "line logic fixing almost nothing); 100x100 at density 0.3 did not finish in 10 minutes.",
    "",
]


def measure(size: str, count: int, density: float) -> str:
    walls, cpus, tried, flips = [], [], [], []
    for seed in range(1, count + 1):
        started, cpu = time.perf_counter(), time.process_time()
        made = generate(size=size, seed=seed, grade="line", density=density)
        walls.append(time.perf_counter() - started)
        cpus.append(time.process_time() - cpu)
        tried.append(made["attempts"])
        flips.append(made["fixes"])
    return (
        f"| {size} | {count} | {statistics.median(walls):.3f} | {statistics.mean(walls):.3f} "
        f"| {max(walls):.3f} | {statistics.mean(cpus):.3f} | {statistics.mean(tried):.1f} "
        f"(max {max(tried)}) | {statistics.mean(flips):.1f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="10x10,15x15,20x20,25x25")
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--density", type=float, default=0.5)
    args = parser.parse_args()
    lines = [
        *HEADER,
        f"Density {args.density}.",
        "",
        "| size | puzzles | median wall s | mean wall s | max wall s | mean CPU s "
        "| seeds tried | flips |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for size in args.sizes.split(","):
        lines.append(measure(size, args.count, args.density))
        print(lines[-1], flush=True)
    OUT.write_text("\n".join(lines) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
