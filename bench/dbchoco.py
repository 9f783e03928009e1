"""Double Choco benchmark: solve + uniqueness time per shared puzzle, and generation.

    .venv/bin/python bench/dbchoco.py [--time-limit S] [--gen-sizes 6x6,8x8,10x10]
        [--gen-count N] [--big-sizes 16x16] [--big-count N]

Writes bench/results/dbchoco.md. Times are CPU (and wall) seconds in this process, for
`solve(limit=2)` without grading (the verdict with its proof), and for `generate(size, seed)`
with seeds 1..N. The shared data has one 10x10 and one 16x16 only, so every generated puzzle
is solved too (marked "generated"), and the medians per size are taken over both.
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

from pencilbox.genres.base import SolveResult  # noqa: E402
from pencilbox.genres.dbchoco.formats import read  # noqa: E402
from pencilbox.genres.dbchoco.generate import generate  # noqa: E402
from pencilbox.genres.dbchoco.model import DoubleChoco  # noqa: E402
from pencilbox.genres.dbchoco.solve import solve  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "dbchoco"
OUT = ROOT / "bench" / "results" / "dbchoco.md"

PUBLISHED_10X10 = {"semiexp C++ doublechoco-solver": 0.12, "cspuz_rs": 0.26}
"""Published 10x10 median solve times (s), as quoted in issue 4."""

HEADER = [
    "# Double Choco benchmark",
    "",
    "`make bench-dbchoco` (bench/dbchoco.py), on the shared 2-core machine. When other",
    "jobs load it, wall times grow (3-5x was seen at load 6); CPU times are the fair",
    "figure. Solve = `solve(limit=2)` without grading: the first answer and the proof",
    "that there is no second one. Generation: `generate(size, seed)`, seeds 1..N; every",
    "generated puzzle is then solved like the shared ones (rows marked *generated*), because",
    "the shared data has a single 10x10 and a single 16x16. Generated puzzles carry more clues",
    "than the hand-made ones, so they are easier than the hardest shared 10x10.",
    "",
    "Search: the lazy-clause loop of search.py. Its docstring has the table of what else was",
    "measured (the CaDiCaL external propagator checking partial blocks was 3-7x slower in",
    "Python on every shared puzzle).",
    "",
]


def solve_row(
    name: str, puzzle: DoubleChoco, expected: str, time_limit: float
) -> tuple[str, float, SolveResult]:
    """One table row for solving `puzzle`, its CPU time and the result."""
    started, cpu = time.perf_counter(), time.process_time()
    result = solve(puzzle, limit=2, time_limit=time_limit, with_grade=False)
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu
    ok = result.status == expected
    verdict = result.status + ("" if ok or result.status == "timeout" else " (WRONG)")
    rounds = result.stats.get("rounds", "")
    return f"| {name} | {verdict} | {elapsed:.2f} | {cpu:.2f} | {rounds}", cpu, result


def shared(args: argparse.Namespace, by_size: dict[str, list[float]]) -> list[str]:
    lines = [
        "## Shared puzzles",
        "",
        "| puzzle | size | expected | pencilbox | wall s | CPU s | rounds | semiexp C++ s "
        "| CPU / C++ |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for path in sorted(DATA.glob("*.json")):
        data = json.loads(path.read_text())
        puzzle = read(path.read_text())
        size = f"{puzzle.width}x{puzzle.height}"
        row, cpu, result = solve_row(data["id"], puzzle, data["solver_status"], args.time_limit)
        if result.status == "unique" == data["solver_status"]:
            expected = {k: data["answer"][k] for k in ("vertical", "horizontal")}
            if result.solutions[0].to_json() != expected:
                row += " (WRONG ANSWER)"
        by_size.setdefault(size, []).append(cpu)
        reference = data.get("semiexp_doublechoco_solver_time_s")
        ratio = f"{cpu / reference:.1f}x" if reference else ""
        name, rest = row.split(" | ", 1)
        lines.append(
            f"{name} | {size} | {data['solver_status']} | {rest} | {reference or ''} | {ratio} |"
        )
        print(lines[-1], flush=True)
    return [*lines, ""]


def generated(
    sizes: list[str], count: int, args: argparse.Namespace, by_size: dict[str, list[float]]
) -> tuple[list[str], list[str]]:
    """Solve rows for the generated puzzles, and one generation summary row per size."""
    rows: list[str] = []
    summary: list[str] = []
    for size in sizes:
        times, cpus, clues, grades = [], [], [], []
        for seed in range(1, count + 1):
            cpu = time.process_time()
            made = generate(size, seed)
            cpus.append(time.process_time() - cpu)
            times.append(made["time_s"])
            clues.append(made["clues"])
            grades.append(made["grade"])
            row, solve_cpu, _ = solve_row(
                f"generated {size} seed {seed}", read(made["url"]), "unique", args.time_limit
            )
            by_size.setdefault(size, []).append(solve_cpu)
            rows.append(f"{row} | {made['clues']} |")
            print(rows[-1], made["url"], flush=True)
        summary.append(
            f"| {size} | {count} | {statistics.median(times):.2f} | {statistics.median(cpus):.2f} "
            f"| {max(cpus):.2f} | {statistics.median(clues)} | {min(clues)}-{max(clues)} "
            f"| {', '.join(sorted(set(grades)))} |"
        )
    return rows, summary


def medians(by_size: dict[str, list[float]]) -> list[str]:
    lines = [
        "## Median solve CPU time by size (shared and generated together)",
        "",
        "Published 10x10 medians (issue 4): "
        + ", ".join(f"{name} {t} s" for name, t in PUBLISHED_10X10.items())
        + "; the ratio columns are pencilbox's median over theirs.",
        "",
        "| size | puzzles | median CPU s | max CPU s | / semiexp C++ 10x10 | / cspuz_rs 10x10 |",
        "|---|---|---|---|---|---|",
    ]
    for size, times in sorted(by_size.items(), key=lambda kv: (len(kv[0]), kv[0])):
        median = statistics.median(times)
        ratios = ["", ""]
        if size == "10x10":
            ratios = [f"{median / t:.1f}x" for t in PUBLISHED_10X10.values()]
        lines.append(
            f"| {size} | {len(times)} | {median:.2f} | {max(times):.2f} | {' | '.join(ratios)} |"
        )
    return [*lines, ""]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--time-limit", type=float, default=120.0)
    parser.add_argument("--gen-sizes", default="6x6,8x8,10x10,12x12")
    parser.add_argument("--gen-count", type=int, default=10)
    parser.add_argument("--big-sizes", default="16x16")
    parser.add_argument("--big-count", type=int, default=3)
    args = parser.parse_args()

    by_size: dict[str, list[float]] = {}
    lines = HEADER + shared(args, by_size)
    rows, summary = generated(args.gen_sizes.split(","), args.gen_count, args, by_size)
    big_rows, big_summary = generated(
        [s for s in args.big_sizes.split(",") if s], args.big_count, args, by_size
    )
    lines += [
        "## Generated puzzles, solved",
        "",
        "| puzzle | pencilbox | wall s | CPU s | rounds | clues |",
        "|---|---|---|---|---|---|",
        *rows,
        *big_rows,
        "",
    ]
    lines += medians(by_size)
    lines += [
        "## Generation",
        "",
        "`generate(size, seed)` for seeds 1..N.",
        "",
        "| size | N | median wall s | median CPU s | max CPU s | median clues | min-max clues "
        "| grades |",
        "|---|---|---|---|---|---|---|---|",
        *summary,
        *big_summary,
        "",
    ]
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("\n".join(lines) + "\n")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
