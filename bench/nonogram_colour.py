"""Benchmark pencilbox's colour nonogram solver against pynogram on the same puzzles.

Puzzles: every colour puzzle file in the data folder (default ../shared/data/nonogram-colour, else
bench/data/nonogram-colour; or --data / PENCILBOX_COLOUR_DATA), plus puzzles generated here from
seeded random pictures at 15x15, 20x20 and 30x30: "picture" (Voronoi regions of 2-4 colours on a
background: areas and edges, like drawn puzzles) and "speckled" (the same with 12% of the cells
set at random, which makes most of them have several solutions, so the search and its proof do the
work).
pencilbox solves each in validation mode (two solutions sought: a uniqueness proof), in this
process, with its line caches cleared first; a puzzle's time is the best of --repeat runs of
the solve call in CPU time (time.process_time: the machine is shared, and CPU time is what
other work on it disturbs least), as is the peer's. Every verdict is checked against two
independent models (python-sat's MiniSat, no code of the solver's): the automaton model
(tests/genres/nonogram/colour_automaton.py: each line a layered automaton over its cells, any
size) on every puzzle, and the placement-listing model (colour_reference.py: each line's
placements listed outright) where its lines have few enough placements to list.

Peers run one puzzle per subprocess on the same puzzle JSON:
  - pynogram (tsionyx/pynogram, pure Python + numpy; its Solver with max_solutions=2): not on
    the package index here, so it runs only with --pynogram-python PATH (or
    PENCILBOX_PYNOGRAM_PYTHON; PYTHONPATH is passed through for a checkout), else "not
    measured"; timed in CPU time around its solve call;
  - pbnsolve (Jan Wolter's C solver, webpbn's own; colour puzzles in webpbn XML), with
    --pbnsolve PATH (or PENCILBOX_PBNSOLVE) to a binary built by hand, else "not measured":
    `pbnsolve -b -u FILE` (brief verdict, uniqueness checked), timed by the CPU time of its
    whole process (so its start-up, about a millisecond, counts against it), best of --repeat;
  - picross-solver (PyPI, in bench/.venv-peers): its solve(row_clues, col_clues, grid) takes
    plain run lengths and 0/1 cells, so it has no colour puzzles to run; the report says so.
  - nonogrid (tsionyx/nonogrid, Rust): not run; building it needs crates.io (see the report).

Writes bench/results/nonogram_colour.md.

    python bench/nonogram_colour.py [--quick] [--repeat N] [--peer-timeout S]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pbnsolve  # bench/pbnsolve.py (this script's folder is on the path)

import pencilbox
from pencilbox.genres.nonogram import line as engine_line
from pencilbox.genres.nonogram.colour.model import (
    NAMED_HEX,
    Colour,
    ColourNonogram,
    clues_of,
    make_colour_puzzle,
)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.genres.nonogram import colour_automaton  # noqa: E402
from tests.genres.nonogram.colour_reference import TooLarge, count_solutions  # noqa: E402

SHARED_DATA = ROOT.parent / "shared/data/nonogram-colour"
BUNDLED_DATA = ROOT / "bench" / "data" / "nonogram-colour"  # the 10 real puzzles, with credits
DATA = Path(
    os.environ.get("PENCILBOX_COLOUR_DATA", SHARED_DATA if SHARED_DATA.is_dir() else BUNDLED_DATA)
)
RESULTS = ROOT / "bench" / "results"
PEER_DIR = ROOT / "bench" / "peers"
PICROSS_PYTHON = ROOT / "bench" / ".venv-peers" / "bin" / "python"
SIZES = ((15, 15), (20, 20), (30, 30))
PALETTE = ("red", "blue", "green", "orange")
REFERENCE_CAP = 3_000
"""The independent model lists at most this many placements per line."""
MEDIAN_TARGET_S = 0.020
SPEEDUP_TARGET = 20.0
"""Issue 32: at least this many times pynogram on every puzzle where it finishes."""


def clear_line_caches() -> None:
    engine_line._solve_cached.cache_clear()


@dataclass
class Case:
    key: str
    puzzle: ColourNonogram
    origin: str
    times: list[float] = field(default_factory=list)
    status: str = ""
    grade: str | None = None
    reference: str = "not checked"
    listing: str = "not checked"
    peer: dict[str, Any] = field(default_factory=dict)
    pbn: dict[str, Any] = field(default_factory=dict)

    @property
    def size(self) -> str:
        return f"{self.puzzle.width}x{self.puzzle.height}"

    @property
    def best(self) -> float:
        return min(self.times)


def picture(width: int, height: int, colours: int, rnd: random.Random) -> list[list[int]]:
    """Voronoi regions: a few seeds, each a colour or the background, every cell the colour
    of its nearest seed; a picture with areas and edges rather than noise."""
    seeds = [
        (rnd.uniform(0, height), rnd.uniform(0, width), rnd.choice([0, *range(1, colours + 1)]))
        for _ in range(max(6, width * height // 25))
    ]
    return [
        [min(seeds, key=lambda s: (s[0] - r) ** 2 + (s[1] - c) ** 2)[2] for c in range(width)]
        for r in range(height)
    ]


def generated(count: int, family: str) -> list[Case]:
    cases = []
    for width, height in SIZES:
        for seed in range(count):
            rnd = random.Random(f"{family}-{width}x{height}-{seed}")
            colours = rnd.randint(2, 4)
            pixels = picture(width, height, colours, rnd)
            if family == "speckled":
                for row in pixels:
                    for c in range(width):
                        if rnd.random() < 0.12:
                            row[c] = rnd.randint(0, colours)
            key = f"{family}-{width}x{height}-{seed:02d}"
            puzzle = _puzzle_of(pixels, colours, key)
            cases.append(Case(key, puzzle, family))
    return cases


def _puzzle_of(pixels: list[list[int]], colours: int, title: str) -> ColourNonogram:
    from pencilbox.core.grid import Grid

    grid = Grid.from_rows([[1 << c for c in row] for row in pixels])
    rows, cols = clues_of(grid)
    palette = [Colour(name, name[0], NAMED_HEX[name]) for name in PALETTE[:colours]]

    def named(clue: tuple[tuple[int, int], ...]) -> list[tuple[int, str]]:
        return [(n, palette[c - 1].name) for n, c in clue]

    return make_colour_puzzle(
        palette, [named(c) for c in rows], [named(c) for c in cols], title=title
    )


def real(data: Path) -> list[Case]:
    cases = []
    for path in sorted(data.glob("*")):
        if path.suffix not in (".xml", ".txt", ".toml", ".json"):
            continue
        puzzle = pencilbox.load(path)
        if isinstance(puzzle, ColourNonogram):
            cases.append(Case(path.name, puzzle, "real"))
    return cases


def run_pencilbox(case: Case, repeat: int) -> None:
    for _ in range(repeat):
        clear_line_caches()
        kernel = case.puzzle.board.kernel
        if kernel is not None:  # its remembered line answers too: each timed solve starts cold
            kernel.forget_lines()
        started = time.process_time()
        result = case.puzzle.solve(limit=2, time_limit=60)
        case.times.append(time.process_time() - started)
    case.status, case.grade = result.status, result.grade
    for grid in result.solutions:
        assert case.puzzle.check(grid) == [], case.key


VERDICTS = {0: "none", 1: "unique", 2: "multiple"}


def run_reference(case: Case) -> None:
    """The automaton model's verdict on every puzzle; the listing model's where it fits."""
    puzzle = case.puzzle
    count, _ = colour_automaton.count_solutions(puzzle.rows, puzzle.cols, len(puzzle.colours))
    case.reference = VERDICTS[count]
    try:
        count, _ = count_solutions(puzzle.rows, puzzle.cols, len(puzzle.colours), REFERENCE_CAP)
    except TooLarge:
        return
    case.listing = VERDICTS[count]


def run_pynogram(case: Case, python: str, folder: Path, timeout: float, repeat: int) -> None:
    """Best of `repeat` runs, each in a fresh process: pynogram memoizes line solutions inside
    its process, and a warm memo would time a different (easier) task than pencilbox's, whose
    caches are cleared before each run."""
    path = folder / f"{case.key}.json"
    path.write_text(case.puzzle.to("json"), encoding="utf-8")
    command = [python, str(PEER_DIR / "pynogram_peer.py"), str(path), str(timeout)]
    best: dict[str, Any] = {}
    for _ in range(repeat):
        outcome = _one_peer_run(command, timeout)
        if not best or (
            outcome.get("status") == "found" and outcome["time_s"] < best.get("time_s", 1e9)
        ):
            best = outcome
        if outcome.get("status") != "found" or outcome["time_s"] > 1.0:
            break
    case.peer = best


def run_pbnsolve(case: Case, binary: str, folder: Path, timeout: float, repeat: int) -> None:
    """Best of `repeat` runs of `pbnsolve -b -u` (bench/pbnsolve.py)."""
    path = folder / f"{case.key}.xml"
    case.pbn = pbnsolve.run(binary, case.puzzle.to("webpbn"), path, timeout, repeat)


def pbn_verdict(case: Case) -> str:
    return {"contradiction": "none"}.get(case.pbn.get("status", ""), case.pbn.get("status", "-"))


def _pbn_done(case: Case) -> bool:
    return case.pbn.get("status") in ("unique", "multiple", "contradiction")


def _one_peer_run(command: list[str], timeout: float) -> dict[str, Any]:
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=timeout + 15, env=os.environ.copy()
        )
    except subprocess.TimeoutExpired:
        return {"status": "timeout", "time_s": None}
    try:
        outcome: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        return {"status": "error", "time_s": None, "error": done.stderr[-300:]}
    return outcome


def peer_verdict(case: Case) -> str:
    status = case.peer.get("status")
    if status == "found":
        return "unique" if case.peer.get("count") == 1 else "multiple"
    return str(status)


def report(cases: list[Case], peer_python: str | None, args: argparse.Namespace) -> str:
    with_pbn = args.pbnsolve is not None
    lines = [
        "# Colour nonograms: pencilbox against pynogram and pbnsolve",
        "",
        f"Run {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC on {platform.machine()}, "
        f"Python {platform.python_version()}, {os.cpu_count()} cores shared with other work; "
        f"a puzzle's time = best of {args.repeat} solves in validation mode (uniqueness "
        "proved; pencilbox's line caches cleared before each), in CPU time "
        "(time.process_time around the solve call; the machine ran other timing work at the "
        "same time, which CPU time is the least disturbed by), the peer in its own process "
        "timed the same way; the tables give medians over puzzles of those times.",
        "",
        "picross-solver (PyPI 1.1.2): not measured on colour puzzles, it solves black-and-white "
        "only (its solve() takes plain run lengths and a 0/1 grid).",
        "nonogrid (Rust): not measured; its source builds only with crates from crates.io, "
        "which this machine cannot reach, and Debian does not package its priority-queue "
        "dependency.",
    ]
    if peer_python is None:
        lines.append("pynogram: not measured (no --pynogram-python / PENCILBOX_PYNOGRAM_PYTHON).")
    if with_pbn:
        lines.append(
            "pbnsolve (C, built by hand): `pbnsolve -b -u`, timed by the CPU time of its whole "
            "process, so its start-up (about 1 ms) is in its times."
        )
    else:
        lines.append("pbnsolve: not measured (no --pbnsolve / PENCILBOX_PBNSOLVE).")
    lines += ["", "## Per size", ""]
    lines += _size_table(cases, peer_python is not None, with_pbn)
    lines += ["", "## Checks", ""]
    for name, verdict_of in (
        ("the automaton model (every puzzle)", lambda c: c.reference),
        ("the placement-listing model (where it can list every line)", lambda c: c.listing),
    ):
        checked = [c for c in cases if verdict_of(c) != "not checked"]
        wrong = [c for c in checked if verdict_of(c) != c.status]
        lines.append(
            f"- verdicts checked against {name}: {len(checked)} of {len(cases)}, "
            f"{len(wrong)} disagree" + (f" ({', '.join(c.key for c in wrong)})" if wrong else "")
        )
    if peer_python is not None:
        differ = [
            c
            for c in cases
            if peer_verdict(c) in ("unique", "multiple", "none") and peer_verdict(c) != c.status
        ]
        lines.append(
            f"- pynogram's verdict differs on {len(differ)} puzzles"
            + (f" ({', '.join(c.key for c in differ)})" if differ else "")
        )
    if with_pbn:
        differ = [c for c in cases if _pbn_done(c) and pbn_verdict(c) != c.status]
        ratios = [c.pbn["time_s"] / c.best for c in cases if _pbn_done(c)]
        lines.append(
            f"- pbnsolve's verdict differs on {len(differ)} puzzles"
            + (f" ({', '.join(c.key for c in differ)})" if differ else "")
        )
        if ratios:
            lines.append(
                f"- against pbnsolve where it finished ({len(ratios)} puzzles): median ratio "
                f"{statistics.median(ratios):.1f}x, lowest {min(ratios):.1f}x (above 1: "
                "pencilbox faster)"
            )
    for family in ("picture", "speckled"):
        thirty = [c.best for c in cases if c.size == "30x30" and c.origin == family]
        if thirty:
            median = statistics.median(thirty)
            verdict = "met" if median < MEDIAN_TARGET_S else "NOT met"
            lines.append(
                f"- 30x30 {family} median {median * 1000:.1f} ms (target < "
                f"{MEDIAN_TARGET_S * 1000:.0f} ms: {verdict})"
            )
    if peer_python is not None:
        ratios = [c.peer["time_s"] / c.best for c in cases if c.peer.get("status") == "found"]
        if ratios:
            below = sum(1 for r in ratios if r < SPEEDUP_TARGET)
            lines.append(
                f"- against pynogram where it finished ({len(ratios)} puzzles): median ratio "
                f"{statistics.median(ratios):.1f}x, lowest {min(ratios):.1f}x; {below} below the "
                f"{SPEEDUP_TARGET:.0f}x target"
            )
    lines += ["", "## Every puzzle", ""]
    lines += _case_table(cases, peer_python is not None, with_pbn)
    return "\n".join(lines) + "\n"


def _size_table(cases: list[Case], with_peer: bool, with_pbn: bool) -> list[str]:
    head = "| set | puzzles | verdicts | grades | pencilbox median | pencilbox max |"
    rule = "|---|---:|---|---|---:|---:|"
    if with_peer:
        head += " pynogram median | pynogram finished | ratio (median per puzzle) | lowest |"
        rule += "---:|---:|---:|---:|"
    if with_pbn:
        head += " pbnsolve median | ratio | lowest |"
        rule += "---:|---:|---:|"
    rows = [head, rule]
    groups: dict[str, list[Case]] = {}
    for case in cases:
        name = "real" if case.origin == "real" else f"{case.origin} {case.size}"
        groups.setdefault(name, []).append(case)
    for name, group in groups.items():
        verdicts = _counts(c.status for c in group)
        grades = _counts(c.grade or "-" for c in group)
        times = [c.best for c in group]
        row = (
            f"| {name} | {len(group)} | {verdicts} | {grades} | "
            f"{statistics.median(times) * 1000:.1f} ms | {max(times) * 1000:.1f} ms |"
        )
        if with_peer:
            done = [c for c in group if c.peer.get("status") == "found"]
            ratios = [c.peer["time_s"] / c.best for c in done]
            peer_times = [c.peer["time_s"] for c in done]
            row += (
                f" {statistics.median(peer_times) * 1000:.1f} ms |" if done else " - |"
            ) + f" {len(done)}/{len(group)} |"
            row += (
                f" {statistics.median(ratios):.1f}x | {min(ratios):.1f}x |"
                if ratios
                else " - | - |"
            )
        if with_pbn:
            done = [c for c in group if _pbn_done(c)]
            ratios = [c.pbn["time_s"] / c.best for c in done]
            row += (
                f" {statistics.median(c.pbn['time_s'] for c in done) * 1000:.1f} ms |"
                f" {statistics.median(ratios):.1f}x | {min(ratios):.1f}x |"
                if done
                else " - | - | - |"
            )
        rows.append(row)
    return rows


def _case_table(cases: list[Case], with_peer: bool, with_pbn: bool) -> list[str]:
    head = "| puzzle | size | colours | verdict | model | grade | pencilbox |"
    rule = "|---|---|---:|---|---|---|---:|"
    if with_peer:
        head += " pynogram | its verdict | ratio |"
        rule += "---:|---|---:|"
    if with_pbn:
        head += " pbnsolve | its verdict | ratio |"
        rule += "---:|---|---:|"
    rows = [head, rule]
    for c in cases:
        row = (
            f"| {c.key} | {c.size} | {len(c.puzzle.colours) - 1} | {c.status} | {c.reference} | "
            f"{c.grade or '-'} | {c.best * 1000:.2f} ms |"
        )
        if with_peer:
            peer_time = c.peer.get("time_s")
            shown = f"{peer_time * 1000:.1f} ms" if peer_time else "-"
            ratio = (
                f"{peer_time / c.best:.1f}x"
                if peer_time and c.peer.get("status") == "found"
                else "-"
            )
            row += f" {shown} | {peer_verdict(c)} | {ratio} |"
        if with_pbn:
            took = c.pbn.get("time_s")
            shown = f"{took * 1000:.1f} ms" if took else "-"
            ratio = f"{took / c.best:.1f}x" if took and _pbn_done(c) else "-"
            row += f" {shown} | {pbn_verdict(c)} | {ratio} |"
        rows.append(row)
    return rows


def _counts(values: Any) -> str:
    counted: dict[str, int] = {}
    for value in values:
        counted[value] = counted.get(value, 0) + 1
    return ", ".join(f"{k} {v}" for k, v in sorted(counted.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--quick", action="store_true", help="3 generated puzzles per size")
    parser.add_argument("--generated", type=int, default=12, help="generated puzzles per size")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--peer-timeout", type=float, default=30.0)
    parser.add_argument(
        "--pynogram-python", default=os.environ.get("PENCILBOX_PYNOGRAM_PYTHON"), metavar="PATH"
    )
    parser.add_argument("--pbnsolve", default=os.environ.get("PENCILBOX_PBNSOLVE"), metavar="PATH")
    parser.add_argument("--output", type=Path, default=RESULTS / "nonogram_colour.md")
    args = parser.parse_args()
    count = 3 if args.quick else args.generated
    cases = real(args.data) if args.data.is_dir() else []
    cases += generated(count, "picture") + generated(count, "speckled")
    with tempfile.TemporaryDirectory() as folder:
        for case in cases:
            run_pencilbox(case, args.repeat)
            run_reference(case)
            if args.pynogram_python:
                run_pynogram(
                    case, args.pynogram_python, Path(folder), args.peer_timeout, args.repeat
                )
            if args.pbnsolve:
                run_pbnsolve(case, args.pbnsolve, Path(folder), args.peer_timeout, args.repeat)
            peer = f" pynogram {peer_verdict(case)}" if args.pynogram_python else ""
            peer += f" pbnsolve {pbn_verdict(case)}" if args.pbnsolve else ""
            print(
                f"{case.key:40} {case.size:6} {case.status:8} {case.grade or '-':6} "
                f"{case.best * 1000:8.2f} ms  model {case.reference} listing {case.listing}{peer}",
                flush=True,
            )
    text = report(cases, args.pynogram_python, args)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
