"""Batch throughput: `pencilbox batch` on the local pool (1 and 2 workers) and on Dask
(`local:2`, a LocalCluster of two worker processes), on the issue's four workloads:

    10,000 sudokus solved, 1,000 sudokus graded, 1,000 nonograms solved, 200 generated 10x10
    Double Chocos (counts times --scale).

Each executor is started once (its start-up is reported apart), then runs every workload the
way the command does (the same items, chunks and worker function), so the figures are the
throughput of the runs alone. The Dask overhead per task is measured on empty tasks, and the
records of Dask are checked against the local pool's (same statuses, same solutions).

    .venv/bin/python bench/batch.py [--scale 0.1] [--data ../shared/data]

Writes bench/results/batch.md. Run it niced on a quiet machine; the machine's load average
is printed in the report, since on a shared machine the scaling figures mean little.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pencilbox.batch.command import chunks, puzzle_items
from pencilbox.batch.executors import DaskCluster, Executor, LocalPool
from pencilbox.batch.work import Item, Job

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "batch.md"
SUDOKU_LISTS = ("17clue_2000.txt", "magictour_top1465.txt", "forum_hardest_1106.txt")
EMPTY_TASKS = 400


def sudoku_list(data: Path, count: int, folder: Path, first: str | None = None) -> Path:
    """A list file of `count` 9x9 sudokus, the shared lists one after another (repeated)."""
    names = [first] if first else list(SUDOKU_LISTS)
    lines: list[str] = []
    for name in names:
        lines += [
            line.strip()
            for line in (data / "sudoku" / name).read_text().splitlines()
            if len(line.strip()) == 81
        ]
    path = folder / f"sudoku_{count}_{first or 'mixed'}.txt"
    path.write_text("\n".join((lines * (count // len(lines) + 1))[:count]) + "\n")
    return path


def nonogram_folder(data: Path, count: int, folder: Path) -> Path:
    """`count` nonogram files (the shared ones, copied under new names until there are
    enough: a batch counts a file once)."""
    found = sorted((data / "nonogram").rglob("*.json"))
    target = folder / "nonograms"
    target.mkdir()
    for number in range(count):
        source = found[number % len(found)]
        shutil.copy(source, target / f"{number:05d}_{source.name}")
    return target


def workloads(
    data: Path, scale: float, folder: Path, chocos: int | None
) -> list[tuple[str, Job, list[Item]]]:
    def size(count: int) -> int:
        return max(2, round(count * scale))

    solve, grade = Job("solve"), Job("grade")
    sudokus = sudoku_list(data, size(10_000), folder)
    graded = sudoku_list(data, size(1_000), folder, first="17clue_2000.txt")
    nonograms = nonogram_folder(data, size(1_000), folder)
    generate = Job("generate", genre="dbchoco", options=(("size", "10x10"),))
    seeds = range(1, (chocos or size(200)) + 1)
    return [
        (f"{size(10_000):,} sudokus solve", solve, list(puzzle_items([str(sudokus)], None, 200))),
        (f"{size(1_000):,} sudokus grade", grade, list(puzzle_items([str(graded)], None, 200))),
        (
            f"{size(1_000):,} nonograms solve",
            solve,
            list(puzzle_items([str(nonograms)], None, 200)),
        ),
        (
            f"{len(seeds):,} Double Choco 10x10 generate",
            generate,
            [Item(seed=seed) for seed in seeds],
        ),
    ]


def timed(executor: Executor, job: Job, items: list[Item]) -> tuple[float, list[dict[str, Any]]]:
    tasks = list(chunks(items, None, executor.workers))
    warm_up: list[list[Item]] = [[] for _ in range(2 * executor.workers)]
    for _ in executor.run(job, warm_up):  # the workers started, pencilbox imported
        pass
    started = time.perf_counter()
    records = [record for part in executor.run(job, tasks) for record in part]
    return time.perf_counter() - started, records


def signature(records: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """What must not depend on the executor: each item's verdict and answer."""
    keys = ("file", "line", "seed", "status", "solutions", "level", "text", "url")
    return sorted(tuple(str(record.get(key)) for key in keys) for record in records)


def run(data: Path, scale: float, chocos: int | None) -> str:
    executors: list[tuple[str, Callable[[], Executor]]] = [
        ("local 1", lambda: LocalPool(1)),
        ("local 2", lambda: LocalPool(2)),
        ("dask local:2", lambda: DaskCluster("local:2")),
    ]
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as scratch:
        cases = workloads(data, scale, Path(scratch), chocos)
        seconds: dict[tuple[str, str], float] = {}
        statuses: dict[str, Counter[str]] = {}
        startup: dict[str, float] = {}
        per_task: dict[str, float] = {}
        reference: dict[str, list[tuple[Any, ...]]] = {}
        mismatches: list[str] = []
        for name, make in executors:
            started = time.perf_counter()
            executor = make()
            startup[name] = time.perf_counter() - started
            try:
                for case, job, items in cases:
                    took, records = timed(executor, job, items)
                    seconds[(case, name)] = took
                    statuses[case] = Counter(str(r.get("status")) for r in records)
                    if case in reference and reference[case] != signature(records):
                        mismatches.append(f"{case} on {name}")
                    reference.setdefault(case, signature(records))
                    print(f"{name:>13} | {case:<34} {took:8.2f} s", flush=True)
                empty = [[] for _ in range(EMPTY_TASKS)]
                started = time.perf_counter()
                for _ in executor.run(Job("solve"), empty):
                    pass
                per_task[name] = (time.perf_counter() - started) / EMPTY_TASKS
            finally:
                executor.close()
    return report(cases, seconds, statuses, startup, per_task, mismatches, scale, load_before)


def report(
    cases: list[tuple[str, Job, list[Item]]],
    seconds: dict[tuple[str, str], float],
    statuses: dict[str, Counter[str]],
    startup: dict[str, float],
    per_task: dict[str, float],
    mismatches: list[str],
    scale: float,
    load_before: tuple[float, float, float],
) -> str:
    lines = [
        "# Batch throughput (`make bench-batch`)",
        "",
        f"Scale {scale} of the issue's counts; 2 cores; load average before the run "
        f"{load_before[0]:.1f}, after {os.getloadavg()[0]:.1f} (a shared machine makes the "
        "scaling column pessimistic: a second worker competes with other processes).",
        "",
        "| workload | items | ms/item (1 worker) | local 1 /s | local 2 /s | dask local:2 /s "
        "| 2 workers / 1 | dask / local 2 | statuses |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for case, _, items in cases:
        one, two, dask = (seconds[(case, n)] for n in ("local 1", "local 2", "dask local:2"))
        count = len(items)
        shown = ", ".join(f"{k} {v}" for k, v in statuses[case].most_common())
        lines.append(
            f"| {case} | {count} | {1000 * one / count:.1f} | {count / one:.1f} "
            f"| {count / two:.1f} | {count / dask:.1f} | {one / two:.2f}x | {two / dask:.2f}x "
            f"| {shown} |"
        )
    lines += [
        "",
        "| executor | start-up s | seconds per empty task |",
        "|---|---:|---:|",
        *(f"| {name} | {startup[name]:.2f} | {1000 * per_task[name]:.2f} ms |" for name in startup),
        "",
        "Same records on every executor: "
        + ("yes" if not mismatches else "NO: " + ", ".join(mismatches)),
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=float(os.environ.get("BATCH_SCALE", 1)))
    parser.add_argument(
        "--chocos", type=int, default=None, help="Double Chocos to generate (default 200*scale)"
    )
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    args = parser.parse_args()
    text = run(args.data, args.scale, args.chocos)
    RESULTS.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
