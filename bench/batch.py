"""Batch throughput: `pencilbox batch` on the local pool (1 and 2 workers) and on Dask
(`local:2`, a LocalCluster of two worker processes), on the issue's four workloads:

    10,000 sudokus solved, 1,000 sudokus graded, 1,000 janko-size nonograms solved (the shared
    puzzles of at most 30x30, repeated), 200 generated 10x10 Double Chocos (counts times
    --scale; --chocos sets the last apart).

Each run starts its executor afresh, timed apart (the start-up: processes, imports, for Dask
the cluster), as a user's batch does, so that no run inherits the caches an earlier run of the
same puzzles left in the workers; then it runs the workload the way the command does (the same
items, the same adaptive chunks, the same worker function); the executors take turns on each
workload, and a workload that takes less than 20 s on one worker is run three times (the median
counts), so that a change of the machine's load hits them alike. Reading the inputs (done once
by the command, before the workers) is timed apart too. Dask's overhead per task is measured on
empty tasks, and every executor's records are checked against the others' (same statuses, same
solutions, same generated puzzles).

    .venv/bin/python bench/batch.py [--scale 0.1] [--chocos N] [--choco-size 10x10]
        [--data ../shared/data] [--only grade] [--rounds 5] [--out FILE]

(--only runs the workloads whose name holds the text, --rounds runs each executor at least
that many times: on a machine whose speed drifts, one workload again with more runs.)

Writes bench/results/batch.md. Run it niced on a quiet machine; the machine's load average
is printed in the report, since on a shared machine the scaling figures mean little.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pencilbox.batch.chunks import Chunker
from pencilbox.batch.command import puzzle_items
from pencilbox.batch.executors import DaskCluster, Executor, LocalPool
from pencilbox.batch.work import Item, Job

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "batch.md"
SUDOKU_LISTS = ("17clue_2000.txt", "magictour_top1465.txt", "forum_hardest_1106.txt")
EMPTY_TASKS = 400
QUICK_SECONDS = 20.0
QUICK_ROUNDS = 3


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


JANKO_SIDE = 30
"""The largest side of a "janko-size" nonogram: janko.at's nonograms run from 5x5 to 30x30
(the shared data's 50x50 to 95x80 pictures include some no solver finishes quickly; they are
the nonogram benchmark's business, not a throughput figure's)."""


def janko_size(path: Path) -> bool:
    puzzle = json.loads(path.read_text())
    rows, cols = puzzle.get("rows"), puzzle.get("cols")
    return bool(rows and cols) and max(len(rows), len(cols)) <= JANKO_SIDE


def nonogram_folder(data: Path, count: int, folder: Path) -> Path:
    """`count` janko-size nonogram files (the shared ones, copied under new names until there
    are enough: a batch counts a file once)."""
    found = [path for path in sorted((data / "nonogram").rglob("*.json")) if janko_size(path)]
    target = folder / "nonograms"
    target.mkdir()
    for number in range(count):
        source = found[number % len(found)]
        shutil.copy(source, target / f"{number:05d}_{source.name}")
    return target


def workloads(
    data: Path, scale: float, folder: Path, chocos: int | None, choco_size: str
) -> list[Case]:
    def size(count: int) -> int:
        return max(2, round(count * scale))

    def read(name: str, job: Job, path: Path) -> Case:
        clock = time.perf_counter()
        items = list(puzzle_items([str(path)], None, 200))
        return Case(name, job, items, time.perf_counter() - clock)

    solve, grade = Job("solve"), Job("grade")
    sudokus = sudoku_list(data, size(10_000), folder)
    many = sudoku_list(data, size(100_000), folder)
    graded = sudoku_list(data, size(1_000), folder, first="17clue_2000.txt")
    nonograms = nonogram_folder(data, size(1_000), folder)
    generate = Job("generate", genre="dbchoco", options=(("size", choco_size),))
    seeds = range(1, (chocos or size(200)) + 1)
    return [
        read(f"{size(10_000):,} sudokus solve", solve, sudokus),
        read(f"{size(1_000):,} sudokus grade", grade, graded),
        read(f"{size(1_000):,} janko-size nonograms solve", solve, nonograms),
        # Beyond the list: ten times the sudokus, where Dask's fixed latency (the
        # first task out, the last answer back: ~0.05 s) no longer weighs on 0.3 s of work.
        read(f"{size(100_000):,} sudokus solve", solve, many),
        Case(
            f"{len(seeds):,} Double Choco {choco_size} generate",
            generate,
            [Item(seed=seed) for seed in seeds],
            0.0,
        ),
    ]


class EmptyTasks(Chunker):
    """`count` tasks of no items: what a task costs on an executor, work aside."""

    def __init__(self, count: int) -> None:
        super().__init__([], 1)
        self.count = count

    def take(self) -> list[Item] | None:
        if self.taken >= self.count:
            return None
        self.taken += 1
        return []


@dataclass
class Case:
    name: str
    job: Job
    items: list[Item]
    read_s: float
    seconds: dict[str, list[float]] = field(default_factory=dict)
    tasks: dict[str, int] = field(default_factory=dict)
    statuses: Counter[str] = field(default_factory=Counter)
    load: float = 0.0
    item_seconds: list[float] = field(default_factory=list)
    """Each item's own time (its record's time_s), from the run on one worker."""

    def median(self, executor: str) -> float:
        return statistics.median(self.seconds[executor])


def warm(executor: Executor, case: Case) -> None:
    """A few items a worker, untimed, one a task, so that every worker has the workload's
    modules imported (Dask may hand two tasks of two to one worker). Generation: one a
    worker (a puzzle takes seconds, the imports a fraction of one)."""
    per_worker = 1 if case.job.verb == "generate" else 4
    items = case.items[: per_worker * executor.workers]
    for _ in executor.run(case.job, Chunker(items, executor.workers, size=1)):
        pass


def timed(executor: Executor, case: Case) -> tuple[float, int, list[dict[str, Any]]]:
    chunker = Chunker(case.items, executor.workers)
    started = time.perf_counter()
    records = [record for part in executor.run(case.job, chunker) for record in part]
    return time.perf_counter() - started, chunker.taken, records


def signature(records: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """What must not depend on the executor: each item's verdict and answer."""
    keys = ("file", "line", "seed", "status", "solutions", "level", "text", "url", "answer")
    return sorted(tuple(str(record.get(key)) for key in keys) for record in records)


def started(make: Callable[[], Executor]) -> tuple[Executor, float]:
    """A fresh executor, its workers up, and the seconds that took (timed apart)."""
    clock = time.perf_counter()
    executor = make()
    try:
        executor.start()
    except BaseException:
        executor.close()
        raise
    return executor, time.perf_counter() - clock


def run(
    data: Path,
    scale: float,
    chocos: int | None,
    choco_size: str,
    only: str | None = None,
    least_rounds: int = 1,
) -> str:
    makers: dict[str, Callable[[], Executor]] = {
        "local 1": lambda: LocalPool(1),
        "local 2": lambda: LocalPool(2),
        "dask local:2": lambda: DaskCluster("local:2"),
    }
    load_before = os.getloadavg()
    mismatches: list[str] = []
    per_task: dict[str, float] = {}
    startup: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        cases = workloads(data, scale, Path(scratch), chocos, choco_size)
        cases = [case for case in cases if only is None or only in case.name]
        for case in cases:
            case.load = os.getloadavg()[0]
            reference = None
            rounds = 1
            while len(case.seconds.get("local 1", [])) < rounds:
                for name, make in makers.items():
                    # Fresh workers every run, as a user's batch gets them: workers kept
                    # from run to run carried caches of the same puzzles (line solutions,
                    # warm heaps) into the later runs, a single worker after one run,
                    # each of two workers only after two (it saw half the items).
                    executor, took_to_start = started(make)
                    startup.setdefault(name, []).append(took_to_start)
                    try:
                        warm(executor, case)
                        took, tasks, records = timed(executor, case)
                    finally:
                        executor.close()
                    case.seconds.setdefault(name, []).append(took)
                    case.tasks[name] = tasks
                    case.statuses = Counter(str(r.get("status")) for r in records)
                    if name == "local 1" and not case.item_seconds:
                        case.item_seconds = sorted(float(r.get("time_s") or 0) for r in records)
                    if reference is None:
                        reference = signature(records)
                    elif reference != signature(records):
                        mismatches.append(f"{case.name} on {name}")
                    print(f"{name:>13} | {case.name:<34} {took:8.2f} s, {tasks} tasks", flush=True)
                quick = case.seconds["local 1"][0] < QUICK_SECONDS
                rounds = max(least_rounds, QUICK_ROUNDS if quick else 1)
        for name, make in makers.items():
            executor, _ = started(make)
            try:
                clock = time.perf_counter()
                for _ in executor.run(Job("solve"), EmptyTasks(EMPTY_TASKS)):
                    pass
                per_task[name] = (time.perf_counter() - clock) / EMPTY_TASKS
            finally:
                executor.close()
    return report(cases, startup, per_task, mismatches, scale, load_before)


def report(
    cases: list[Case],
    startup: dict[str, list[float]],
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
        "scaling column pessimistic: a second worker competes with other processes). "
        "Times are medians of the runs listed in the second table (at least 3 for "
        "workloads under 20 s on one worker); the executors "
        "take turns, each run on freshly started workers (as a user's batch: no caches "
        "carried over from an earlier run of the same puzzles), each worker first doing "
        "one item of the workload untimed (its imports). Rates leave out the executors' "
        "start-up (table below) and the reading "
        f"of the inputs (by the command, once, before the workers start). Run at nice "
        f"{os.nice(0)} on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.",
        "",
        "| workload | items | read s | ms/item (1 worker) | tasks (local 2) | local 1 /s "
        "| local 2 /s | dask local:2 /s | 2 workers / 1 | dask / local 2 | load | statuses |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for case in cases:
        one, two, dask = (case.median(n) for n in ("local 1", "local 2", "dask local:2"))
        count = len(case.items)
        shown = ", ".join(f"{k} {v}" for k, v in case.statuses.most_common())
        lines.append(
            f"| {case.name} | {count} | {case.read_s:.2f} | {1000 * one / count:.1f} "
            f"| {case.tasks['local 2']} | {count / one:.1f} | {count / two:.1f} "
            f"| {count / dask:.1f} | {one / two:.2f}x | {two / dask:.2f}x | {case.load:.1f} "
            f"| {shown} |"
        )
    lines += [
        "",
        "Every run (seconds, in the order they ran), and the items' own times on one worker "
        "(a record's time_s: a long item near the end of a batch leaves the other worker "
        "idle):",
        "",
        "| workload | local 1 s | local 2 s | dask local:2 s | item s: median | p90 | max |",
        "|---|---|---|---|---:|---:|---:|",
        *(
            f"| {case.name} | "
            + " | ".join(
                ", ".join(f"{took:.2f}" for took in case.seconds[name])
                for name in ("local 1", "local 2", "dask local:2")
            )
            + f" | {_quantile(case.item_seconds, 0.5):.3g} "
            f"| {_quantile(case.item_seconds, 0.9):.3g} "
            f"| {_quantile(case.item_seconds, 1.0):.3g} |"
            for case in cases
        ),
        "",
        "| executor | start-up s (median) | seconds per empty task |",
        "|---|---:|---:|",
        *(
            f"| {name} | {statistics.median(startup[name]):.2f} | {1000 * per_task[name]:.2f} ms |"
            for name in startup
        ),
        "",
        "Same records on every executor: "
        + ("yes" if not mismatches else "NO: " + ", ".join(sorted(set(mismatches)))),
        "",
        *targets(cases),
    ]
    return "\n".join(lines)


def _quantile(values: list[float], share: float) -> float:
    """The value `share` of the way up the sorted values (0.0 when there are none)."""
    if not values:
        return 0.0
    return values[min(len(values) - 1, int(share * len(values)))]


def targets(cases: list[Case]) -> list[str]:
    """The issue's targets, met or not: 2 workers at least 1.8x one on grading and generation;
    Dask within 10% of the local pool (every task carries about a second of work, so this
    holds the sudoku solve to it too)."""
    lines = ["Targets:", ""]
    for case in cases:
        one, two, dask = (case.median(n) for n in ("local 1", "local 2", "dask local:2"))
        verdicts = []
        if case.job.verb in ("grade", "generate"):
            scaling = one / two
            verdicts.append(f"2 workers / 1 = {scaling:.2f}x ({_met(scaling >= 1.8)} >= 1.8x)")
        ratio = two / dask
        verdicts.append(f"Dask / local 2 = {ratio:.2f}x ({_met(ratio >= 0.9)} >= 0.9x)")
        lines.append(f"- {case.name}: " + "; ".join(verdicts))
    return [*lines, ""]


def _met(ok: bool) -> str:
    return "met" if ok else "NOT met"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=float(os.environ.get("BATCH_SCALE", 1)))
    parser.add_argument(
        "--chocos", type=int, default=None, help="Double Chocos to generate (default 200*scale)"
    )
    parser.add_argument("--choco-size", default="10x10", help="Double Choco size (default 10x10)")
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--only", help="the workloads whose name holds this text (e.g. grade)")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each executor, at least")
    parser.add_argument("--out", type=Path, default=RESULTS, help="the report's file")
    args = parser.parse_args()
    text = run(args.data, args.scale, args.chocos, args.choco_size, args.only, args.rounds)
    args.out.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
