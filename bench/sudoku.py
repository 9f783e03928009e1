"""Benchmark pencilbox's Sudoku solver (validation mode: uniqueness proof), grader and generator.

First, whole lists: `sudoku.solve_many` (one compiled call per slice of a list) against tdoku's
own benchmark program (`run_benchmark`, counting to 2 solutions), in alternating rounds on the
same puzzle files. tdoku is not a PyPI package and is never built here: build it by hand from
its public source, outside this repository, and give its run_benchmark with --tdoku PATH or
PENCILBOX_TDOKU; without one the column says "not measured".

Then, one puzzle per call, on the shared sets, puzzles per second for:
  - `auto`: what `Sudoku.solve` uses (the compiled kernel within a node budget, then SAT);
  - `kernel`: the compiled C kernel alone (_kernel.c; the column is absent when not built);
  - `bitboard`: the pure-Python digit-bitboard propagate-and-branch engine alone;
  - `sat`: the python-sat baseline (one warm CaDiCaL instance, givens as assumptions,
    solve + block under a selector);
  - `norvig`: a Norvig-style constraint-propagation solver (dict of candidate strings,
    elimination + "only place" rules, fewest-candidates search) written for this benchmark,
    extended to look for a second solution (on a sample: it is slow).
Every engine must find exactly one solution per puzzle (Kaggle: the published one); timing
covers the solve calls only (parsing done first); pencilbox's engines run twice, interleaved,
and the better rate of each is reported. 16x16 and 25x25 get a table of their own (pencilbox's
engines only, one round: the peers are 9x9 only). Then grading speed (the HoDoKu-style ladder
on magictour top1465 and on the 16x16 set) and generation time per puzzle.
Writes bench/results/sudoku.md.

    python bench/sudoku.py [--quick] [--no-peers] [--tdoku PATH] [--tdoku-commit SHA]
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from pencilbox.errors import PuzzleError
from pencilbox.genres.sudoku import solve_many
from pencilbox.genres.sudoku.formats import parse_many
from pencilbox.genres.sudoku.generate import generate
from pencilbox.genres.sudoku.logic import grade
from pencilbox.genres.sudoku.solver import KERNEL, engine, is_valid_solution, solve_values

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("PENCILBOX_SUDOKU_DATA", ROOT.parent / "shared/data/sudoku"))
RESULTS = ROOT / "bench" / "results"
PEER_PYTHON = ROOT / "bench" / ".venv-peers-sudoku" / "bin" / "python"
PEERS = ("dlxsudoku", "pencilmark", "py-sudoku")
PEER_SECONDS = 15.0
"""Solving time each peer gets per set (the rate covers the puzzles it did in that time)."""
SETS = ("17clue_2000.txt", "magictour_top1465.txt", "forum_hardest_1106.txt", "kaggle_1000.csv")
BIG_SETS = (("sudoku16_20.txt", 4), ("sudoku25_5.txt", 5))
NORVIG_SAMPLE = 100
COLUMNS = {
    "auto": "pencilbox auto",
    "kernel": "C kernel alone",
    "bitboard": "bitboards alone",
    "sat": "python-sat baseline",
}

Board = list[int]


# -- a Norvig-style solver (written for this benchmark) ------------------------------------------
def _norvig_tables() -> tuple[list[list[list[int]]], list[set[int]]]:
    units: list[list[list[int]]] = [[] for _ in range(81)]
    all_units = (
        [[r * 9 + c for c in range(9)] for r in range(9)]
        + [[r * 9 + c for r in range(9)] for c in range(9)]
        + [
            [(br * 3 + r) * 9 + bc * 3 + c for r in range(3) for c in range(3)]
            for br in range(3)
            for bc in range(3)
        ]
    )
    for unit in all_units:
        for cell in unit:
            units[cell].append(unit)
    peers = [{p for unit in units[c] for p in unit if p != c} for c in range(81)]
    return units, peers


_UNITS, _PEERS = _norvig_tables()


def _assign(values: dict[int, str], cell: int, digit: str) -> dict[int, str] | None:
    for other in values[cell].replace(digit, ""):
        if _eliminate(values, cell, other) is None:
            return None
    return values


def _eliminate(values: dict[int, str], cell: int, digit: str) -> dict[int, str] | None:
    if digit not in values[cell]:
        return values
    values[cell] = values[cell].replace(digit, "")
    if not values[cell]:
        return None
    if len(values[cell]) == 1:
        last = values[cell]
        for peer in _PEERS[cell]:
            if _eliminate(values, peer, last) is None:
                return None
    for unit in _UNITS[cell]:
        places = [c for c in unit if digit in values[c]]
        if not places:
            return None
        if len(places) == 1 and _assign(values, places[0], digit) is None:
            return None
    return values


def norvig_solve(board: Board, limit: int = 2) -> list[Board]:
    values: dict[int, str] | None = {c: "123456789" for c in range(81)}
    for cell, v in enumerate(board):
        if v and values is not None:
            values = _assign(values, cell, str(v))
    found: list[Board] = []

    def search(state: dict[int, str] | None) -> None:
        if state is None or len(found) >= limit:
            return
        if all(len(s) == 1 for s in state.values()):
            found.append([int(state[c]) for c in range(81)])
            return
        _, cell = min((len(s), c) for c, s in state.items() if len(s) > 1)
        for digit in state[cell]:
            search(_assign(dict(state), cell, digit))

    search(values)
    return found


# -- measuring -----------------------------------------------------------------------------------
def load(name: str) -> tuple[list[Board], list[Board | None]]:
    path = DATA / name
    boards, answers = [], []
    for _, puzzle in parse_many(path.read_text(), filename=path.name):
        if isinstance(puzzle, PuzzleError):
            raise SystemExit(f"{name}: {puzzle}")
        boards.append(puzzle.values())
        answers.append(list(puzzle.solution.cells) if puzzle.solution is not None else None)
    return boards, answers


def measure(
    solve: Callable[[Board], list[Board]],
    boards: Sequence[Board],
    answers: Sequence[Board | None],
    n: int = 3,
) -> tuple[float, int]:
    """(puzzles per second, failures): a failure is not exactly one valid solution."""
    failures = 0
    started = time.perf_counter()
    results = [solve(board) for board in boards]
    elapsed = time.perf_counter() - started
    for board, answer, found in zip(boards, answers, results):
        valid = len(found) == 1 and is_valid_solution(found[0], n, board)
        if not valid or (answer is not None and found[0] != answer):
            failures += 1
    return len(boards) / elapsed, failures


def run_peer(peer: str, boards: Sequence[Board], seconds: float) -> tuple[str, float]:
    """A peer's rate on the set (as text, and as a number for the ratio; 0 on an error), run in
    its own venv by bench/sudoku_peers.py."""
    import json
    import subprocess

    lines = "".join("".join(str(v) if v else "." for v in b) + "\n" for b in boards)
    try:
        run = subprocess.run(
            [str(PEER_PYTHON), str(ROOT / "bench" / "sudoku_peers.py"), peer, str(seconds)],
            input=lines,
            capture_output=True,
            text=True,
            timeout=seconds * 4 + 120,
        )
        data = json.loads(run.stdout)
    except (subprocess.TimeoutExpired, ValueError) as error:
        return f"error: {type(error).__name__}", 0.0
    rate = data["done"] / max(data["seconds"], 1e-9)
    scope = "" if data["done"] == len(boards) else f" (first {data['done']})"
    failed = f", {data['failures']} failed" if data["failures"] else ""
    text = f"{rate:,.1f}{scope}{failed}" if rate < 10 else f"{rate:,.0f}{scope}{failed}"
    return text, rate


GRADE_SEEDS = 10
GRADES = ("easy", "medium", "hard", "unfair", "extreme")


def generation_by_grade(seeds: int) -> list[list[str]]:
    rows = []
    for level in GRADES:
        times, attempts, givens, agree = [], [], [], 0
        for seed in range(1, seeds + 1):
            made = generate(size=9, grade=level, seed=seed)
            times.append(made["time_s"])
            attempts.append(made["attempts"])
            givens.append(made["givens"])
            agree += made["puzzle"].grade() == level
        rows.append(
            [
                level,
                str(seeds),
                f"{sum(times) / seeds:.3f}",
                f"{max(times):.3f}",
                f"{sum(attempts) / seeds:.1f}",
                f"{sum(givens) / seeds:.1f}",
                f"{agree} / {seeds}",
            ]
        )
        print("generate", level, f"{sum(times) / seeds:.3f} s", flush=True)
    return rows


def nine_section(args: argparse.Namespace, kinds: Sequence[str]) -> list[str]:
    """One puzzle per call: pencilbox's engines and the Python peers on the 9x9 sets."""
    peers = PEERS if PEER_PYTHON.exists() and not args.no_peers else ()
    engine(3, "sat")  # build the warm instance outside the timings
    engine(3, "bitboard")
    rows = [nine_row(name, args, kinds, peers) for name in SETS]
    return [
        "## One puzzle per call (9x9)",
        "",
        "Puzzles per second, one process, validation mode (a second solution is looked for, so",
        "each `unique` is a proof); every answer checked (Kaggle: equal to the published one).",
        "",
        "| set | puzzles | "
        + " | ".join(COLUMNS[k] for k in kinds)
        + " | Norvig-style"
        + "".join(f" | {peer}" for peer in peers)
        + (" | auto / best peer" if peers else "")
        + " |",
        "|---|---|" + "---|" * (len(kinds) + 1 + len(peers) + bool(peers)),
        *("| " + " | ".join(row) + " |" for row in rows),
        "",
        "Targets from issue 3: 5,000/s on 17-clue, 2,000/s on top1465, 800/s on the hardest set,",
        "and 10x every peer ('auto / best peer': pencilbox auto over the fastest peer's rate on",
        "the puzzles it got through).",
        "",
        (
            "PyPI peers (bench/.venv-peers-sudoku, made by `make bench-sudoku`): dlxsudoku 0.10.3"
            " (singles, then dancing links; raises on a second solution), pencilmark 1.0.0rc1"
            " (`pencilmark.solve`: C++ search with limit 2), py-sudoku 2.0.0 (`solve()` then"
            " `has_multiple_solutions()`, its two-fill heuristic, not a proof). Each peer gets"
            f" {PEER_SECONDS:.0f} s of solving per set in its own process; '(first N)' means it"
            " got through N puzzles in that time."
            if peers
            else "PyPI peers not measured (no bench/.venv-peers-sudoku, or --no-peers)."
        ),
        "",
    ]


def nine_row(
    name: str, args: argparse.Namespace, kinds: Sequence[str], peers: Sequence[str]
) -> list[str]:
    boards, answers = load(name)
    if args.quick:
        boards, answers = boards[:200], answers[:200]
    line = [name, str(len(boards))]
    # Two rounds, engines interleaved, best rate kept: the machine's load drifts, and
    # whichever engine ran first used to look slower.
    best: dict[str, tuple[float, int]] = {}
    for _ in range(2):
        for kind in kinds:
            rate, failures = measure(
                lambda b, k=kind: solve_values(b, 3, 2, kind=k),  # type: ignore[misc]
                boards,
                answers,
            )
            seen = best.get(kind, (0.0, 0))
            best[kind] = (max(seen[0], rate), max(seen[1], failures))
    for kind in kinds:
        rate, failures = best[kind]
        line.append(f"{rate:,.0f}" + (f" ({failures} failed)" if failures else ""))
        print(name, kind, f"{rate:,.0f}/s", failures, "failures", flush=True)
    peer_rates = []
    sample = min(NORVIG_SAMPLE, len(boards))
    rate, failures = measure(norvig_solve, boards[:sample], answers[:sample])
    line.append(f"{rate:,.0f} (first {sample})" + (f", {failures} failed" if failures else ""))
    print(name, "norvig", f"{rate:,.0f}/s", flush=True)
    for peer in peers:
        text, peer_rate = run_peer(peer, boards, PEER_SECONDS / (4 if args.quick else 1))
        line.append(text)
        peer_rates.append(peer_rate)
        print(name, peer, text, flush=True)
    if peer_rates:
        line.append(f"{best['auto'][0] / max(max(peer_rates), 1e-9):,.0f}x")
    return line


def generation_section(quick: bool) -> list[str]:
    gen_rows = []
    for size, symmetry, seeds in (
        (9, "none", 10),
        (9, "rotational", 10),
        (16, "none", 2),
        (25, "none", 1),
    ):
        if quick:
            seeds = min(seeds, 2)
        times, givens = [], []
        for seed in range(seeds):
            made = generate(size=size, symmetry=symmetry, seed=seed)
            times.append(made["time_s"])
            givens.append(made["givens"])
        gen_rows.append(
            [
                f"{size}x{size}",
                symmetry,
                str(seeds),
                f"{sum(times) / len(times):.3f}",
                f"{sum(givens) / len(givens):.1f}",
            ]
        )
        print("generate", size, symmetry, f"{sum(times) / len(times):.3f} s", flush=True)
    grade_rows = generation_by_grade(3 if quick else GRADE_SEEDS)
    return [
        "## Generation (seconds per puzzle, unique, minimal for its symmetry up to 16x16)",
        "",
        "| size | symmetry | puzzles | s / puzzle | givens (mean) |",
        "|---|---|---|---|---|",
        *("| " + " | ".join(row) + " |" for row in gen_rows),
        "",
        "## Generation at a grade (9x9, no symmetry; seconds per puzzle)",
        "",
        "`generate(grade=LEVEL, seed=s)`: clues are removed while the puzzle stays unique and the",
        "logical solver limited to LEVEL still finishes it; a full grid whose result grades",
        "easier is dropped and the next one tried ('attempts'). Every result is re-graded here.",
        "",
        "| grade | puzzles | s / puzzle (mean) | max s | attempts (mean) | givens (mean)"
        " | re-graded equal |",
        "|---|---|---|---|---|---|---|",
        *("| " + " | ".join(row) + " |" for row in grade_rows),
        "",
    ]


# -- whole lists: solve_many against tdoku's run_benchmark -----------------------------------
TDOKU_SETS = (
    "17clue_2000.txt",
    "magictour_top1465.txt",
    "forum_hardest_1106.txt",
    "kaggle_1000.csv",
)
LIST_SECONDS = 4.0
"""Each side solves the whole set over and over for at least this long per round."""
LIST_ROUNDS = 3


SYMBOLS = ".123456789ABCDEFGHIJKLMNOP"
"""The blank, then digit k's symbol at index k (the default alphabets of every size)."""


def lines_of(boards: Sequence[Board]) -> list[str]:
    return ["".join(SYMBOLS[v] for v in board) for board in boards]


def check_many(lines: list[str], answers: Sequence[Board | None]) -> int:
    """How many puzzles solve_many gets wrong (not unique, or not the right grid)."""
    many = solve_many(lines)
    failures = 0
    for line, status, found, answer in zip(lines, many.statuses, many.solutions, answers):
        grid = [SYMBOLS.index(ch) for ch in found[0]] if found else []
        board = [SYMBOLS.index(ch) for ch in line]
        n = round(len(line) ** 0.25)
        ok = status == "unique" and is_valid_solution(grid, n, board)
        failures += not ok or (answer is not None and grid != answer)
    return failures


def many_rate(lines: list[str], seconds: float) -> tuple[float, float]:
    """(wall, CPU) puzzles per second of solve_many over the whole list, passes repeated until
    `seconds` of wall time."""
    done = 0
    wall, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall < seconds or not done:
        solve_many(lines)
        done += len(lines)
    return done / (time.perf_counter() - wall), done / (time.process_time() - cpu)


def tdoku_rate(binary: str, lines: list[str], seconds: float) -> tuple[float, float, float]:
    """(puzzles/s by wall clock, puzzles/s by CPU time, guesses a puzzle) from tdoku's
    run_benchmark on exactly these puzzles: no permutation (-r0), a test set of exactly the
    file (-n), 1 s warm-up, then whole passes counting to 2 solutions (its default) for at
    least `seconds`.

    run_benchmark times itself by wall clock (steady_clock) only; its CPU rate is that rate
    divided by the share of a CPU the process got over its whole run (its CPU time, from the
    children's rusage, over the wall time of the run), the same share through warm-up and the
    timed passes."""
    import resource
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "puzzles.txt"
        path.write_text("\n".join(lines) + "\n")
        command = [binary, "-c1", "-r0", "-s", "tdoku", "-w", "1"]
        command += ["-n", str(len(lines)), "-t", str(max(1, round(seconds))), str(path)]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        wall = time.perf_counter()
        run = subprocess.run(command, capture_output=True, text=True, timeout=300)
        wall = time.perf_counter() - wall
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    fields = run.stdout.strip().splitlines()[-1].split(",")
    rate = float(fields[-4])
    share = min(1.0, cpu / wall) if wall > 0 and cpu > 0 else 1.0
    return rate, rate / share, float(fields[-1])


def tdoku_build_info(binary: str) -> str:
    """Compiler and flags tdoku's run_benchmark reports about its own build (from -h)."""
    import subprocess

    run = subprocess.run([binary, "-h"], capture_output=True, text=True, timeout=60)
    for line in run.stdout.splitlines():
        if line.startswith("build info:"):
            return " ".join(line.split(":", 1)[1].split())
    return "unknown"


def list_section(args: argparse.Namespace) -> list[str]:
    """The table of solve_many against tdoku, both on the same files, rounds alternating."""
    tdoku = args.tdoku if args.tdoku and Path(args.tdoku).is_file() else None
    rows = []
    seconds = LIST_SECONDS / (4 if args.quick else 1)
    for name in TDOKU_SETS:
        boards, answers = load(name)
        lines = lines_of(boards)
        failures = check_many(lines, answers)
        ours: tuple[float, float] = (0.0, 0.0)
        theirs: tuple[float, float, float] = (0.0, 0.0, 0.0)
        for _ in range(1 if args.quick else LIST_ROUNDS):
            if tdoku:
                theirs = max(theirs, tdoku_rate(tdoku, lines, seconds))
            ours = max(ours, many_rate(lines, seconds))
        row = [name, str(len(lines)), f"{ours[0]:,.0f}", f"{ours[1]:,.0f}"]
        row[2] += f" ({failures} failed)" if failures else ""
        if tdoku:
            row += [f"{theirs[0]:,.0f}", f"{theirs[1]:,.0f}", f"{theirs[2]:.2f}"]
            row += [f"{ours[0] / theirs[0]:.0%}", f"{ours[1] / theirs[1]:.0%}"]
        else:
            row += ["not measured", "", "", "", ""]
        rows.append(row)
        print(name, "solve_many", f"{ours[0]:,.0f}/s", "tdoku", row[4], flush=True)
    head = [
        "## Whole lists: `solve_many` against tdoku (same run, same puzzles, same machine)",
        "",
        "| set | puzzles | pencilbox solve_many (wall) | (CPU) | tdoku (wall) | (CPU) "
        "| tdoku guesses / puzzle | pencilbox / tdoku (wall) | (CPU) |",
        "|---|---|---|---|---|---|---|---|---|",
        *("| " + " | ".join(row) + " |" for row in rows),
        "",
    ]
    return head + tdoku_note(tdoku, args.tdoku_commit, seconds)


def tdoku_note(tdoku: str | None, commit: str | None, seconds: float) -> list[str]:
    ours = (
        "**pencilbox**: `sudoku.solve_many(lines)` on the set's puzzles as 81-character lines,"
        f" the whole list per call, calls repeated for at least {seconds:g} s, best of"
        f" {LIST_ROUNDS} rounds; each call reads the lines, proves uniqueness (it looks for a"
        " second solution), checks every solution against the rules and the givens, and"
        " returns statuses and solution lines. The answers were checked once per set"
        " beforehand (Kaggle: equal to the published solutions). The CPU column is the same"
        " runs by process time. pencilbox's kernel is built by the install with the compiler's"
        " default flags for a Python extension (no -march), so it runs on any x86-64 or ARM."
    )
    if tdoku is None:
        return [
            ours,
            "",
            "tdoku: not measured (no run_benchmark given: --tdoku or PENCILBOX_TDOKU).",
        ]
    theirs = (
        f"**tdoku**: its own benchmark program, run_benchmark, commit {commit or 'unknown'} of"
        " github.com/t-dillon/tdoku, built by hand outside this repository with its own CMake"
        f" build and default options ({tdoku_build_info(tdoku)}: `-DOPT=O3 -DARCH=native`;"
        " clang is not installed here, and tdoku's write-up says it is faster with clang),"
        " run with `-r0 -n COUNT -s tdoku -w 1 -t SECONDS`: the same puzzle file, not"
        " permuted, 1 s of warm-up, then whole passes for the same time, in the same rounds"
        " (alternating with pencilbox, best of each). It counts solutions up to 2 (its default"
        " mode, the uniqueness check) from 81-character strings held in memory and returns no"
        " grid in that mode; it checks grids only during warm-up. It reports its rate by wall"
        " clock; its CPU rate here is that rate over the share of a CPU its process got (its"
        " CPU time from the children's rusage over the wall time of its run), so that both"
        " columns compare like with like under load."
    )
    return [ours, "", theirs]


# -- 16x16 and 25x25 ------------------------------------------------------------------------
def big_section(kinds: Sequence[str], quick: bool) -> list[str]:
    rows = []
    for name, n in BIG_SETS:
        boards, answers = load(name)
        engine(n, "sat")  # the SAT instance's build (seconds at 25x25) is not timed
        if KERNEL is not None:
            KERNEL(boards[0], n, 2, 0, 0.0)  # nor the kernel's tables for this size
        lines = lines_of(boards)
        failures = check_many(lines, answers)
        rate = many_rate(lines, 1.0 if quick else 3.0)[1]
        row = [
            name,
            str(len(boards)),
            f"{rate:,.1f}" + (f" ({failures} failed)" if failures else ""),
        ]
        for kind in kinds:
            rate, failures = measure(
                lambda b, k=kind, n=n: solve_values(b, n, 2, kind=k),  # type: ignore[misc]
                boards,
                answers,
                n,
            )
            row.append(f"{rate:,.1f}" + (f" ({failures} failed)" if failures else ""))
            print(name, kind, f"{rate:,.1f}/s", failures, "failures", flush=True)
        rows.append(row)
    return [
        "## 16x16 and 25x25 (puzzles per second, same checks)",
        "",
        "| set | puzzles | solve_many (CPU) | " + " | ".join(COLUMNS[k] for k in kinds) + " |",
        "|---|---|---|" + "---|" * len(kinds),
        *("| " + " | ".join(row) + " |" for row in rows),
        "",
    ]


# -- grading --------------------------------------------------------------------------------
GRADE_SETS = (("magictour_top1465.txt", 3), ("sudoku16_20.txt", 4))


GRADE_TARGETS = {3: ("puzzles/s", 20.0), 4: ("s each", 2.0)}
"""Issue 17's grading targets: 9x9 at least 20 puzzles/s, 16x16 under 2 s each (CPU)."""


def grading_section(quick: bool, limit: int = 0) -> list[str]:
    """The HoDoKu-style grade of every puzzle: puzzles per second (CPU and wall), mean and
    worst seconds, and whether issue 17's target is met."""
    rows = []
    verdicts = []
    for name, n in GRADE_SETS:
        boards, _answers = load(name)
        if quick:
            boards = boards[: 100 if n == 3 else 3]
        if limit:
            boards = boards[:limit]
        worst = 0.0
        over = 0
        wall, cpu = time.perf_counter(), time.process_time()
        for board in boards:
            started = time.process_time()
            grade(n, board)
            took = time.process_time() - started
            worst = max(worst, took)
            over += took >= 2.0
        cpu = time.process_time() - cpu
        wall = time.perf_counter() - wall
        rows.append(
            f"| {name} | {len(boards)} | {len(boards) / cpu:,.2f} | {len(boards) / wall:,.2f} "
            f"| {cpu / len(boards):.3f} | {worst:.3f} | {over} |"
        )
        print(rows[-1], flush=True)
        what, target = GRADE_TARGETS[n]
        met = len(boards) / cpu >= target if n == 3 else worst < target
        verdicts.append(
            f"{name}: target {'at least' if n == 3 else 'under'} {target:g} {what}:"
            f" {'met' if met else 'NOT met'}"
        )
    return [
        "## Grading (the HoDoKu-style technique ladder: `grade(n, givens)`)",
        "",
        "| set | puzzles | puzzles/s (CPU) | puzzles/s (wall) | mean s (CPU) | worst s (CPU) "
        "| over 2 s (CPU) |",
        "|---|---|---|---|---|---|---|",
        *rows,
        "",
        "Targets from issue 17 (by CPU time, steady under load): "
        + "; ".join(verdicts)
        + ". The grades themselves must not change: tests/genres/sudoku/logic/"
        "test_grade_record.py against tests/data/sudoku_grades.tsv, the HoDoKu library tests,"
        " and bench/sudoku_grades.py --compare on the shared sets.",
        "",
    ]


SECTIONS = ("lists", "nine", "big", "grading", "generation")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="the first 200 puzzles of each set")
    parser.add_argument("--no-peers", action="store_true", help="skip the PyPI peers")
    parser.add_argument(
        "--tdoku",
        default=os.environ.get("PENCILBOX_TDOKU"),
        help="tdoku's run_benchmark, built by hand outside this repository (default:"
        " $PENCILBOX_TDOKU)",
    )
    parser.add_argument(
        "--tdoku-commit",
        default=os.environ.get("PENCILBOX_TDOKU_COMMIT"),
        help="the tdoku commit it was built from, for the report",
    )
    parser.add_argument(
        "--sections",
        default=",".join(SECTIONS),
        help=f"the parts to run, comma-separated (default all: {','.join(SECTIONS)})",
    )
    parser.add_argument(
        "--grade-limit",
        type=int,
        default=0,
        help="grade only the first N puzzles of each grading set (default: all)",
    )
    args = parser.parse_args(argv)
    sections = set(args.sections.split(","))
    if sections - set(SECTIONS):
        parser.error(f"unknown sections {sorted(sections - set(SECTIONS))}; use {SECTIONS}")
    load_start = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    kinds = ("auto", "kernel", "bitboard", "sat") if KERNEL else ("auto", "bitboard", "sat")
    lists = list_section(args) if "lists" in sections else []
    nine = nine_section(args, kinds) if "nine" in sections else []
    big = big_section(kinds, args.quick) if "big" in sections else []
    grading = grading_section(args.quick, args.grade_limit) if "grading" in sections else []
    generation = generation_section(args.quick) if "generation" in sections else []
    load_avg = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    report = [
        "# Sudoku solver benchmark",
        "",
        f"Run {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC by `bench/sudoku.py`"
        f"{' --quick' if args.quick else ''}"
        f"{'' if sections == set(SECTIONS) else ' --sections ' + args.sections}"
        f"{f' --grade-limit {args.grade_limit}' if args.grade_limit else ''}"
        f"; Python {platform.python_version()}, "
        f"{platform.machine()}, {os.cpu_count()} CPUs shared with other work "
        f"(load average {load_start:.1f} at the start, {load_avg[0]:.1f} at the end: wall-clock"
        " figures vary by 2x between runs; CPU columns are steadier).",
        "",
        *lists,
        *nine,
        *big,
        *grading,
        *generation,
    ]
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "sudoku.md").write_text("\n".join(report), encoding="utf-8")
    print(f"wrote {RESULTS / 'sudoku.md'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
