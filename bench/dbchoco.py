"""Double Choco benchmark: solve + uniqueness time per shared puzzle, and generation.

    .venv/bin/python bench/dbchoco.py [--time-limit S] [--gen-sizes 6x6,8x8,10x10] [--gen-count N]

Writes bench/results/dbchoco.md. Times are wall-clock in this process, for `solve(limit=2)`
without grading (the verdict with its proof), and for `generate(size, seed)` with seeds 1..N.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from pencilbox.genres.dbchoco.formats import read  # noqa: E402
from pencilbox.genres.dbchoco.generate import generate  # noqa: E402
from pencilbox.genres.dbchoco.solve import solve  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "dbchoco"
OUT = ROOT / "bench" / "results" / "dbchoco.md"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--time-limit", type=float, default=120.0)
    parser.add_argument("--gen-sizes", default="6x6,8x8,10x10,12x12")
    parser.add_argument("--gen-count", type=int, default=10)
    args = parser.parse_args()

    lines = [
        "# Double Choco benchmark",
        "",
        "`make bench-dbchoco` (bench/dbchoco.py), on the shared 2-core machine. When other",
        "jobs load it, wall times grow (3-5x was seen at load 6); CPU times are the fair",
        "figure. Solve = `solve(limit=2)` without grading: the first answer and the proof",
        "that there is no second one. Generation: `generate(size, seed)`, seeds 1..N.",
        "",
        "## Shared puzzles",
        "",
        "| puzzle | size | expected | pencilbox | wall s | CPU s | rounds | semiexp C++ s |",
        "|---|---|---|---|---|---|---|---|",
    ]
    by_size: dict[str, list[float]] = {}
    for path in sorted(DATA.glob("*.json")):
        data = json.loads(path.read_text())
        puzzle = read(path.read_text())
        started, cpu = time.perf_counter(), time.process_time()
        result = solve(puzzle, limit=2, time_limit=args.time_limit, with_grade=False)
        elapsed = time.perf_counter() - started
        cpu = time.process_time() - cpu
        ok = result.status == data["solver_status"]
        if ok and result.status == "unique":
            ok = result.solutions[0].to_json() == {
                k: data["answer"][k] for k in ("vertical", "horizontal")
            }
        size = f"{puzzle.width}x{puzzle.height}"
        by_size.setdefault(size, []).append(cpu)
        verdict = result.status + ("" if ok else " (WRONG)" if result.status != "timeout" else "")
        lines.append(
            f"| {data['id']} | {size} | {data['solver_status']} | {verdict} | {elapsed:.2f} "
            f"| {cpu:.2f} "
            f"| {result.stats.get('rounds', '')} "
            f"| {data.get('semiexp_doublechoco_solver_time_s', '')} |"
        )
        print(lines[-1], flush=True)
    lines += [
        "",
        "Median solve CPU time by size: "
        + ", ".join(
            f"{size} {statistics.median(times):.2f} s ({len(times)})"
            for size, times in sorted(by_size.items(), key=lambda kv: len(kv[0]))
        ),
        "",
    ]

    if args.gen_count > 0:
        lines += [
            "## Generation",
            "",
            f"`generate(size, seed)` for seeds 1..{args.gen_count}.",
            "",
            "| size | median wall s | median CPU s | max CPU s | median clues | min-max clues "
            "| grades |",
            "|---|---|---|---|---|---|---|",
        ]
        for size in args.gen_sizes.split(","):
            times, cpus, clues, grades = [], [], [], []
            for seed in range(1, args.gen_count + 1):
                cpu = time.process_time()
                made = generate(size, seed)
                cpus.append(time.process_time() - cpu)
                times.append(made["time_s"])
                clues.append(made["clues"])
                grades.append(made["grade"])
                print(size, seed, f"{made['time_s']:.2f}", made["clues"], made["url"], flush=True)
            lines.append(
                f"| {size} | {statistics.median(times):.2f} | {statistics.median(cpus):.2f} "
                f"| {max(cpus):.2f} "
                f"| {statistics.median(clues)} | {min(clues)}-{max(clues)} "
                f"| {', '.join(sorted(set(grades)))} |"
            )
        lines.append("")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("\n".join(lines) + "\n")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
