"""Benchmark pencilbox's Nonogram solver against pbnsolve and two PyPI peers on the shared corpus.

`make bench` runs this with pencilbox's venv. pencilbox runs in this process, in validation
mode (look for 2 solutions: a uniqueness proof), with its line-solver cache cleared before
every puzzle, timed in CPU time (time.process_time) around the solve call, best of --repeat
for the fast ones. pbnsolve (Jan Wolter's C solver, built by hand outside the repository:
--pbnsolve PATH or PENCILBOX_PBNSOLVE, else "not measured") runs as `pbnsolve -b -u` (it checks
uniqueness too) on webpbn XML, timed by the CPU time of its whole process (bench/pbnsolve.py).
The PyPI peers live in `bench/.venv-peers` (made by `make bench-peers`) and run one puzzle per
subprocess through the adapters in `bench/peers/`, each killed after a wall-clock timeout,
timed inside their process around the solve call. Every verdict is also checked against the
automaton model of the tests (bench/nonogram_model.py, MiniSat, in its own process with a
time limit). Solvers take turns puzzle by puzzle. Writes `bench/results/nonogram.md` (report)
and `nonogram.json` (raw).

    python bench/nonogram.py [--quick] [--folders a,b] [--no-peers] [--pbnsolve PATH]
        [--repeat N] [--peer-timeout S] [--peer-max-cells N] [--model-timeout S]
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pbnsolve  # bench/pbnsolve.py (this script's folder is on the path)

import pencilbox
from pencilbox.errors import PuzzleError
from pencilbox.genres.nonogram.line import _solve_cached
from pencilbox.genres.nonogram.model import FILLED

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("PENCILBOX_NONOGRAM_DATA", ROOT.parent / "shared/data/nonogram"))
RESULTS = ROOT / "bench" / "results"
PEER_PYTHON = ROOT / "bench" / ".venv-peers" / "bin" / "python"
PEER_DIR = ROOT / "bench" / "peers"

PEERS: dict[str, str] = {
    "picross-solver": "picross_solver_peer.py",
    "puzzlekit": "puzzlekit_peer.py",
}
PEER_PACKAGES = ("picross-solver", "puzzlekit", "ortools", "numpy")

PENCILBOX_TIME_LIMIT_S = 120.0
PEER_TIMEOUT_S = 10.0
PEER_STARTUP_GRACE_S = 3.0
"""Extra wall-clock seconds for the peer process to start (imports) before it is killed."""
PEER_MAX_CELLS = 0
"""Peers skip puzzles of more cells than this (0: no cap; they run on every puzzle)."""

FOREVER = "survey/webpbn-06574.json"
CAULDRON = "picross-solver/cauldron.json"
FRANS_FAASE = "pynogram-examples/frans_faase.json"
SPEEDUP_TARGET = 20.0
EVERYDAY = ("jwilk", "picmi", "nonogram-db", "number-loom")
"""janko-size puzzles people solve every day (janko.at's set is not in the shared data)."""
EVERYDAY_MEDIAN_S = 0.001
SURVEY_EACH_S = 2.0
FRANS_FAASE_S = 60.0
CAULDRON_S = 1.44
"""The Cauldron's time in the last run before the compiled engine (bench/results, 2026-11-22)."""
PBN_TIMEOUT_S = 60.0
MODEL_TIMEOUT_S = 30.0
REPEAT = 3
REPEAT_UNDER_S = 0.1
"""Only solves faster than this are repeated (best of --repeat); slower ones vary less."""
MODEL_SCRIPT = ROOT / "bench" / "nonogram_model.py"


@dataclass
class Case:
    """One puzzle file and the verdict its metadata expects."""

    key: str  # "folder/file.json"
    folder: str
    path: Path
    width: int
    height: int
    expected: str  # unique | multiple | none | invalid | unknown
    rows: list[list[int]]
    cols: list[list[int]]
    solution: list[str] | None

    @property
    def cells(self) -> int:
        return self.width * self.height

    @property
    def size(self) -> str:
        return f"{self.width}x{self.height}"


@dataclass
class Outcome:
    """What one solver did on one puzzle."""

    status: str
    time_s: float | None
    ok: bool | None  # None: no verdict is known for the puzzle, or the run was skipped
    grade: str | None = None
    note: str = ""
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def finished(self) -> bool:
        """Solved with a right answer (or an answer that cannot be judged but is not a fault)."""
        if self.time_s is None or self.status in ("timeout", "error", "wrong", "skipped"):
            return False
        return self.ok is not False


# --- the corpus ---------------------------------------------------------------------------


def expected_verdict(meta: dict[str, Any]) -> str:
    unique = meta.get("unique")
    if unique is True:
        return "unique"
    if unique is False:
        return "none" if meta.get("n_solutions_found") == 0 else "multiple"
    if meta.get("clue_sum_mismatch") or "invalid" in str(meta.get("note", "")):
        return "invalid"
    return "unknown"


def load_cases(data: Path, quick: bool) -> list[Case]:
    cases = []
    for path in sorted(data.glob("*/*.json")):
        meta = json.loads(path.read_text(encoding="utf-8"))
        rows, cols = meta.get("rows", []), meta.get("cols", [])
        cases.append(
            Case(
                key=f"{path.parent.name}/{path.name}",
                folder=path.parent.name,
                path=path,
                width=int(meta.get("width", len(cols))),
                height=int(meta.get("height", len(rows))),
                expected=expected_verdict(meta),
                rows=[[n for n in runs if n > 0] for runs in rows],
                cols=[[n for n in runs if n > 0] for runs in cols],
                solution=meta.get("solution"),
            )
        )
    if quick:
        jwilk = [c for c in cases if c.folder == "jwilk"][:20]
        cases = [c for c in cases if c.folder in ("survey", "seed")] + jwilk
    return cases


def runs_of(line: str) -> list[int]:
    return [len(block) for block in line.split(".") if block]


def fits_clues(case: Case, grid: Sequence[str]) -> bool:
    """True when the grid (rows of '#' and '.') has the right shape and meets every clue."""
    if len(grid) != case.height or any(len(row) != case.width for row in grid):
        return False
    if set("".join(grid)) - {"#", "."}:
        return False
    if [runs_of(row) for row in grid] != case.rows:
        return False
    columns = ["".join(row[c] for row in grid) for c in range(case.width)]
    return [runs_of(col) for col in columns] == case.cols


# --- pencilbox ----------------------------------------------------------------------------


def grid_rows(grid: Any) -> list[str]:
    return ["".join("#" if v == FILLED else "." for v in row) for row in grid.rows()]


def forget_lines(puzzle: Any) -> None:
    """Drop the compiled engine's remembered line answers, as the Python line cache is
    cleared: each timed solve starts cold."""
    kernel = getattr(getattr(puzzle, "board", None), "kernel", None)
    if kernel is not None:
        kernel.forget_lines()


def run_pencilbox(case: Case, time_limit: float, repeat: int = 1) -> Outcome:
    try:
        puzzle = pencilbox.load(case.path, max_size=1000)
    except PuzzleError as error:
        # a rejected file is right when no grid exists (bad clues, or clues that cannot fit)
        ok = None if case.expected == "unknown" else case.expected in ("invalid", "none")
        return Outcome("invalid", None, ok, note=f"{type(error).__name__}: {error}"[:120])
    best = None
    for _ in range(repeat):
        _solve_cached.cache_clear()
        forget_lines(puzzle)
        gc.collect()
        started = time.process_time()
        result = puzzle.solve(limit=2, time_limit=time_limit)
        took = time.process_time() - started
        best = took if best is None else min(best, took)
        if took > REPEAT_UNDER_S or result.status == "timeout":
            break
    status, note = result.status, ""
    found = [grid_rows(grid) for grid in result.solutions]
    if not all(fits_clues(case, grid) for grid in found):
        status, note = "wrong", "a returned grid breaks a clue"
    elif status == "unique" and case.solution and found[0] != case.solution:
        status, note = "wrong", "unique grid differs from the file's solution"
    if case.expected == "unknown":
        ok = None
    elif case.expected == "invalid":
        ok = status == "none"
    else:
        ok = status == case.expected
    return Outcome(status, best, ok, result.grade, note, dict(result.stats))


def warm_up() -> None:
    """A few small solves so that first-use costs (imports, SAT library set-up, the compiled
    engine) are not timed: one solved by lines, one that needs the search."""
    texts = (
        json.dumps({"rows": [[1], [1, 1], [3]], "cols": [[2], [1, 1], [2]]}),
        json.dumps({"rows": [[1], [1]], "cols": [[1], [1]]}),
    )
    for _ in range(3):
        for text in texts:
            pencilbox.load(text, max_size=1000).solve(limit=2)


# --- pbnsolve and the independent model ---------------------------------------------------


def run_pbnsolve(case: Case, binary: str, folder: Path, timeout: float, repeat: int) -> Outcome:
    """pbnsolve's verdict (its `contradiction` is `none`) judged like pencilbox's."""
    xml = pbnsolve.plain_xml(case.rows, case.cols)
    found = pbnsolve.run(binary, xml, folder / "puzzle.xml", timeout, repeat)
    status = {"contradiction": "none"}.get(found["status"], found["status"])
    if status in ("timeout", "error"):
        return Outcome(status, None, False, note=f"no verdict within {timeout:g} s")
    if case.expected == "unknown":
        ok = None
    elif case.expected == "invalid":
        ok = status == "none"
    else:
        ok = status == case.expected
    return Outcome(status, found["time_s"], ok)


MODEL_VERDICTS = {0: "none", 1: "unique", 2: "multiple"}


def run_model(case: Case, timeout: float) -> str:
    """The automaton model's verdict (bench/nonogram_model.py), or `timeout` / `error`."""
    command = [sys.executable, str(MODEL_SCRIPT), str(case.path)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout"
    try:
        return MODEL_VERDICTS[int(json.loads(done.stdout.strip().splitlines()[-1])["count"])]
    except (IndexError, KeyError, ValueError):
        return "error"


def agrees(verdict: str, model: str) -> bool | None:
    """Whether a solver's verdict matches the model's (None: the model gave none); a file
    rejected as invalid matches "none"."""
    if model not in MODEL_VERDICTS.values():
        return None
    return (verdict if verdict != "invalid" else "none") == model


# --- peers --------------------------------------------------------------------------------


def run_peer(script: str, case: Case, timeout: float) -> Outcome:
    command = [str(PEER_PYTHON), str(PEER_DIR / script), str(case.path), str(timeout)]
    try:
        proc = subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=timeout + PEER_STARTUP_GRACE_S,
            check=False,
        )
    except subprocess.TimeoutExpired:  # subprocess.run has killed the process
        return Outcome("timeout", None, False, note=f"killed after {timeout:g}s + start-up")
    lines = proc.stdout.strip().splitlines()
    try:
        answer = json.loads(lines[-1])
    except (IndexError, json.JSONDecodeError):
        tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return Outcome("error", None, False, note=f"exit {proc.returncode}: {tail}"[:120])
    status, time_s = str(answer["status"]), answer.get("time_s")
    note = str(answer.get("error", ""))[:120]
    if status == "found":
        solution = answer.get("solution") or []
        if not fits_clues(case, solution):
            status, note = "wrong", "returned grid breaks a clue"
    if time_s is not None and time_s > timeout and status not in ("error", "wrong"):
        status, note = "timeout", f"finished after the {timeout:g}s limit"
    if status in ("timeout", "error", "wrong"):
        ok: bool | None = False
    elif case.expected == "unknown":
        ok = None
    elif status == "none":
        ok = case.expected in ("none", "invalid")
        if not ok:
            status, note = "wrong", "said no solution"
    else:  # found a grid that fits every clue
        ok = case.expected in ("unique", "multiple")
    return Outcome(status, time_s, ok, note=note)


def peer_versions() -> dict[str, str]:
    code = (
        "import importlib.metadata as m, json, sys\n"
        f"versions = {{p: m.version(p) for p in {list(PEER_PACKAGES)!r}}}\n"
        "print(json.dumps({'python': sys.version.split()[0], **versions}))"
    )
    try:
        proc = subprocess.run(
            [str(PEER_PYTHON), "-c", code], capture_output=True, text=True, check=True
        )
        return dict(json.loads(proc.stdout))
    except (OSError, subprocess.CalledProcessError, json.JSONDecodeError):
        return {}


# --- numbers ------------------------------------------------------------------------------


def median(values: Iterable[float]) -> float | None:
    values = list(values)
    return statistics.median(values) if values else None


def fmt_time(seconds: float | None) -> str:
    if seconds is None:
        return "–"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def fmt_ratio(ratio: float | None) -> str:
    if ratio is None:
        return "–"
    return f"{ratio:.0f}x" if ratio >= 10 else f"{ratio:.1f}x"


def ratio(pencilbox: Outcome, peer: Outcome | None) -> float | None:
    if peer is None or not (pencilbox.finished and peer.finished):
        return None
    if not pencilbox.time_s or peer.time_s is None:
        return None
    return peer.time_s / pencilbox.time_s


@dataclass
class Row:
    case: Case
    pencilbox: Outcome
    peers: dict[str, Outcome]
    pbn: Outcome | None = None
    model: str = "not run"


def pass_fail(ok: bool) -> str:
    return "**pass**" if ok else "**FAIL**"


# --- report -------------------------------------------------------------------------------


def summary_table(rows: list[Row], peer_names: list[str]) -> list[str]:
    head = ["folder", "puzzles", "pencilbox correct", "median", "max"]
    for name in peer_names:
        head += [f"{name} solved", "median", "ratio median", "ratio min"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    folders = sorted({r.case.folder for r in rows})
    for folder in [*folders, "all"]:
        group = [r for r in rows if folder in ("all", r.case.folder)]
        judged = [r for r in group if r.pencilbox.ok is not None]
        correct = sum(1 for r in judged if r.pencilbox.ok)
        times = [r.pencilbox.time_s for r in group if r.pencilbox.time_s is not None]
        cells = [
            f"**{folder}**" if folder == "all" else folder,
            str(len(group)),
            f"{correct}/{len(judged)}",
            fmt_time(median(times)),
            fmt_time(max(times) if times else None),
        ]
        for name in peer_names:
            tried = [r for r in group if r.peers.get(name) and r.peers[name].status != "skipped"]
            solved = [r.peers[name] for r in tried if r.peers[name].finished]
            ratios = [x for r in group if (x := ratio(r.pencilbox, r.peers.get(name)))]
            cells += [
                f"{len(solved)}/{len(tried)}",
                fmt_time(median(p.time_s for p in solved if p.time_s is not None)),
                fmt_ratio(median(ratios)),
                fmt_ratio(min(ratios) if ratios else None),
            ]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def pbn_ratio(row: Row) -> float | None:
    return ratio(row.pencilbox, row.pbn)


def total(values: Iterable[float | None]) -> float:
    return sum(v for v in values if v is not None)


def groups(rows: list[Row]) -> list[tuple[str, list[Row]]]:
    """Each folder, then the everyday folders together, then all."""
    folders = sorted({r.case.folder for r in rows})
    found = [(folder, [r for r in rows if r.case.folder == folder]) for folder in folders]
    everyday = [r for r in rows if r.case.folder in EVERYDAY]
    if everyday:
        found.append(("everyday (" + ", ".join(EVERYDAY) + ")", everyday))
    return [*found, ("all", rows)]


def pbn_table(rows: list[Row]) -> list[str]:
    """pencilbox against pbnsolve per folder: medians, maxima, totals, ratios (pbnsolve's time
    over pencilbox's; above 1 pencilbox is faster), and verdicts that differ."""
    head = [
        "set",
        "puzzles",
        "pencilbox median",
        "max",
        "total",
        "pbnsolve verdicts",
        "median",
        "max",
        "total",
        "ratio of medians",
        "ratio of totals",
        "per-puzzle ratio median",
        "lowest",
    ]
    lines = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    for name, group in groups(rows):
        mine = [r.pencilbox.time_s for r in group if r.pencilbox.time_s is not None]
        done = [r.pbn for r in group if r.pbn is not None and r.pbn.finished]
        theirs = [p.time_s for p in done if p.time_s is not None]
        ratios = [x for r in group if (x := pbn_ratio(r))]
        mid, their_mid = median(mine), median(theirs)
        cells = [
            f"**{name}**" if name == "all" else name,
            str(len(group)),
            fmt_time(mid),
            fmt_time(max(mine) if mine else None),
            fmt_time(total(mine)),
            f"{len(done)}/{len(group)} right",
            fmt_time(their_mid),
            fmt_time(max(theirs) if theirs else None),
            fmt_time(total(theirs)) + ("" if len(done) == len(group) else " (finished only)"),
            fmt_ratio(their_mid / mid if mid and their_mid else None),
            fmt_ratio(total(theirs) / total(mine) if total(mine) and theirs else None),
            fmt_ratio(median(ratios)),
            fmt_ratio(min(ratios) if ratios else None),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def model_lines(rows: list[Row]) -> list[str]:
    """What the independent model says about every verdict."""
    judged = [r for r in rows if agrees(r.pencilbox.status, r.model) is not None]
    wrong = [r for r in judged if not agrees(r.pencilbox.status, r.model)]
    pbn_judged = [r for r in judged if r.pbn is not None and r.pbn.time_s is not None]
    pbn_wrong = [r for r in pbn_judged if r.pbn and not agrees(r.pbn.status, r.model)]
    unjudged = [r for r in rows if r not in judged]
    lines = [
        f"- pencilbox's verdict checked against the automaton model (MiniSat, "
        f"bench/nonogram_model.py) on {len(judged)} of {len(rows)} puzzles: "
        f"{len(wrong)} disagree" + (f" ({', '.join(r.case.key for r in wrong)})" if wrong else ""),
    ]
    if pbn_judged:
        lines.append(
            f"- pbnsolve's verdict checked the same way on {len(pbn_judged)} puzzles: "
            f"{len(pbn_wrong)} disagree"
            + (f" ({', '.join(r.case.key for r in pbn_wrong)})" if pbn_wrong else "")
        )
    if unjudged:
        shown = ", ".join(f"{r.case.key} ({r.model})" for r in unjudged[:12])
        lines.append(f"- the model gave no verdict on {len(unjudged)}: {shown}")
    return lines


def targets(rows: list[Row], peer_names: list[str]) -> tuple[list[str], list[dict[str, Any]]]:
    by_key = {r.case.key: r for r in rows}
    found: list[dict[str, Any]] = []

    def add(name: str, measured: str, ok: bool | None) -> None:
        found.append({"target": name, "measured": measured, "pass": ok})

    _everyday_targets(rows, add)
    _survey_targets(rows, add)
    frans = by_key.get(FRANS_FAASE)
    if frans:
        pb = frans.pencilbox
        add(
            f"frans_faase (95x80) gets a verdict (unique or two solutions) within "
            f"{FRANS_FAASE_S:g} s",
            f"{pb.status}, {fmt_time(pb.time_s)}",
            pb.status in ("unique", "multiple") and (pb.time_s or 1e9) <= FRANS_FAASE_S,
        )
    cauldron = by_key.get(CAULDRON)
    if cauldron:
        pb = cauldron.pencilbox
        add(
            f"512x512 Cauldron validated as fast as before the compiled engine "
            f"({fmt_time(CAULDRON_S)}) or faster",
            f"{pb.status}, {fmt_time(pb.time_s)}",
            bool(pb.ok) and pb.time_s is not None and pb.time_s <= CAULDRON_S,
        )
    forever = by_key.get(FOREVER)
    if forever:
        pb = forever.pencilbox
        add(
            "webpbn #6574 Forever (survey) validated (unique) under 0.5 s",
            f"{pb.status}, {fmt_time(pb.time_s)}",
            pb.status == "unique" and pb.time_s is not None and pb.time_s < 0.5,
        )
    judged = [r for r in rows if r.pencilbox.ok is not None]
    wrong = [r for r in judged if not r.pencilbox.ok and r.pencilbox.status != "timeout"]
    disagree = [r for r in rows if agrees(r.pencilbox.status, r.model) is False]
    add(
        "nothing wrong: every verdict as the file's metadata and the independent model say",
        f"{len(wrong)} wrong of {len(judged)} known; {len(disagree)} differ from the model",
        not wrong and not disagree,
    )
    if peer_names:
        _peer_target(rows, peer_names, add)
    lines = ["| target | measured | result |", "|---|---|---|"]
    for t in found:
        verdict = "n/a" if t["pass"] is None else pass_fail(bool(t["pass"]))
        lines.append(f"| {t['target']} | {t['measured']} | {verdict} |")
    return lines, found


Add = Any
"""The `add(name, measured, ok)` of `targets`."""


def _everyday_targets(rows: list[Row], add: Add) -> None:
    everyday = [r for r in rows if r.case.folder in EVERYDAY]
    mine = [r.pencilbox.time_s for r in everyday if r.pencilbox.time_s is not None]
    if not mine:
        return
    mid = median(mine)
    add(
        f"everyday puzzles ({', '.join(EVERYDAY)}: {len(mine)}) median under "
        f"{fmt_time(EVERYDAY_MEDIAN_S)} in-process",
        fmt_time(mid),
        mid is not None and mid <= EVERYDAY_MEDIAN_S,
    )
    theirs = [r.pbn.time_s for r in everyday if r.pbn and r.pbn.finished and r.pbn.time_s]
    if theirs:
        their_mid = median(theirs)
        add(
            "everyday median at or below pbnsolve's in the same run",
            f"{fmt_time(mid)} vs {fmt_time(their_mid)}",
            mid is not None and their_mid is not None and mid <= their_mid,
        )


def _survey_targets(rows: list[Row], add: Add) -> None:
    survey = [r for r in rows if r.case.folder == "survey"]
    if not survey:
        return
    slow = [r for r in survey if not r.pencilbox.ok or (r.pencilbox.time_s or 1e9) > SURVEY_EACH_S]
    worst = max(survey, key=lambda r: r.pencilbox.time_s or 0)
    add(
        f"all {len(survey)} survey puzzles correct, each within {SURVEY_EACH_S:g} s",
        f"{len(survey) - len(slow)}/{len(survey)}; slowest {worst.case.key} "
        f"{fmt_time(worst.pencilbox.time_s)}",
        not slow,
    )
    if all(r.pbn is not None for r in survey):
        mine = total(r.pencilbox.time_s for r in survey)
        # a pbnsolve run that found no verdict counts with its whole time limit
        theirs = total((r.pbn.time_s if r.pbn.finished else PBN_TIMEOUT_S) for r in survey if r.pbn)
        add(
            "survey total below pbnsolve's (its unfinished runs count as its time limit)",
            f"{fmt_time(mine)} vs {fmt_time(theirs)}",
            mine < theirs,
        )


def _peer_target(rows: list[Row], peer_names: list[str], add: Add) -> None:
    per_peer = []
    for name in peer_names:
        rs = [x for r in rows if (x := ratio(r.pencilbox, r.peers.get(name)))]
        per_peer.append(f"vs {name} {sum(x >= SPEEDUP_TARGET for x in rs)}/{len(rs)}")
    worst_by_puzzle = []  # the smaller ratio of the peers that finished, per puzzle
    for r in rows:
        rs = [x for name in peer_names if (x := ratio(r.pencilbox, r.peers.get(name)))]
        if rs:
            worst_by_puzzle.append((min(rs), r))
    met = sum(1 for x, _ in worst_by_puzzle if x >= SPEEDUP_TARGET)
    lowest = sorted(worst_by_puzzle, key=lambda t: t[0])[:5]
    worst_text = ", ".join(f"{r.case.key} {fmt_ratio(x)}" for x, r in lowest)
    add(
        f"at least {SPEEDUP_TARGET:.0f}x faster than every PyPI peer wherever it finishes",
        f"{met}/{len(worst_by_puzzle)} puzzles meet it against all finishing peers "
        f"({'; '.join(per_peer)}); worst: {worst_text}"
        if worst_by_puzzle
        else "no peer finished",
        bool(worst_by_puzzle) and met == len(worst_by_puzzle),
    )


def puzzle_table(rows: list[Row], peer_names: list[str], with_pbn: bool) -> list[str]:
    head = ["file", "size", "expected", "model", "pencilbox", "grade", "time"]
    if with_pbn:
        head += ["pbnsolve", "ratio"]
    for name in peer_names:
        head += [name, "ratio"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        pb = r.pencilbox
        mark = "" if pb.ok is not False else " ✗"
        cells = [r.case.key, r.case.size, r.case.expected, r.model, pb.status + mark]
        cells += [pb.grade or "–", fmt_time(pb.time_s)]
        if with_pbn and r.pbn is not None:
            mark = "" if r.pbn.ok is not False else " ✗"
            cells += [f"{r.pbn.status}{mark} {fmt_time(r.pbn.time_s)}", fmt_ratio(pbn_ratio(r))]
        for name in peer_names:
            peer = r.peers.get(name)
            if peer is None or peer.status == "skipped":
                cells += ["skipped", "–"]
                continue
            text = f"{peer.status} {fmt_time(peer.time_s)}" if peer.time_s else peer.status
            cells += [text, fmt_ratio(ratio(pb, peer))]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def notes_table(rows: list[Row], peer_names: list[str]) -> list[str]:
    lines = []
    for r in rows:
        outcomes = [
            ("pencilbox", r.pencilbox),
            *((("pbnsolve", r.pbn),) if r.pbn else ()),
            *((n, r.peers[n]) for n in peer_names if n in r.peers),
        ]
        for who, out in outcomes:
            if out.note and out.status != "skipped":
                lines.append(f"- `{r.case.key}` {who}: {out.status}: {out.note}")
    return lines


def write_report(
    rows: list[Row],
    peer_names: list[str],
    env: dict[str, Any],
    args: argparse.Namespace,
    wall_s: float,
) -> tuple[str, list[dict[str, Any]]]:
    target_lines, found = targets(rows, peer_names)
    peer_versions = env.get("peers", {})
    versions = ", ".join(f"{k} {v}" for k, v in peer_versions.items()) or "not run"
    skipped = sorted({r.case.key for r in rows for p in r.peers.values() if p.status == "skipped"})
    peer_scope = "Peers run on every puzzle."
    if args.peer_max_cells:
        peer_scope = f"Peers run on puzzles of at most {args.peer_max_cells} cells"
        peer_scope += f" (skipped: {', '.join(skipped)})." if skipped else "."
    with_pbn = args.pbnsolve is not None
    pbn_text = (
        f"`{os.path.basename(args.pbnsolve)} -b -u -x{args.pbn_timeout:g}`"
        if with_pbn
        else "not measured (no --pbnsolve / PENCILBOX_PBNSOLVE)"
    )
    lines = [
        "# Nonogram benchmark: pencilbox vs pbnsolve and PyPI peers",
        "",
        "Generated by `make bench` (`bench/nonogram.py`); do not edit by hand.",
        "",
        f"- date: {env['date']}; whole run {wall_s / 60:.1f} min"
        + (" (`--quick`: survey + seed + 20 jwilk)" if args.quick else ""),
        f"- machine: {env['nproc']} CPUs (`nproc`), {env['cpu']}, {env['platform']}; "
        f"load average (1/5/15 min) {env['loadavg_start']} at the start, "
        f"{env.get('loadavg_end', '?')} at the end (other work on the machine slows every "
        "solver alike but makes times noisy)",
        f"- pencilbox {env['pencilbox']} on Python {env['python']} "
        f"(python-sat {env.get('python-sat', '?')})",
        f"- pbnsolve (Jan Wolter's C solver, webpbn's validator, built by hand outside the "
        f"repository): {pbn_text}",
        f"- peers' venv (`bench/.venv-peers`): {versions}",
        f"- corpus: {len(rows)} files under `{env['data']}`",
        "",
        "How it is measured:",
        "",
        "- **pencilbox** runs in this process in validation mode: `load(path, max_size=1000)`, "
        f"then `solve(limit=2, time_limit={args.pencilbox_time_limit:g})`, i.e. it looks for a "
        "second solution, so `unique` is a proof of uniqueness, and grades the puzzle. The "
        "line-solver cache is cleared before each solve; a few tiny warm-up solves run first. "
        "Time = CPU time (`time.process_time`) around the solve call (parsing excluded), the "
        f"best of {args.repeat} for solves under {REPEAT_UNDER_S:g} s. A verdict is correct "
        "when it matches the file's "
        "metadata (`unique` / `multiple` / `none`; an `invalid` file, or one with no solution, "
        "may also be rejected by `load` as invalid); every returned grid is checked against "
        "the clues, and a `unique` grid against the file's solution.",
        "- **peers** run one puzzle per process (`bench/peers/*.py` in `bench/.venv-peers`), "
        "time measured inside that process around the solve call only (no import, no parsing). "
        f"Each gets a {args.peer_timeout:g} s solve budget; the process is killed after "
        f"{args.peer_timeout:g} s + {PEER_STARTUP_GRACE_S:g} s of start-up. {peer_scope} "
        "pencilbox and the peers take turns puzzle by puzzle (never two solvers at once). A "
        "returned grid that breaks a clue, or `none` on a solvable puzzle, is a failure.",
        "- **Both peers only look for ONE solution** (neither can check uniqueness), while "
        "pencilbox proves uniqueness (or finds the second solution): every ratio below "
        "**favours the peers**. picross-solver: line solving + depth-first guessing, stops at "
        "the first grid (`False` claims that no grid exists). puzzlekit: an OR-Tools "
        "CP-SAT model (default workers = all cores), stops at the first feasible grid "
        "(`Infeasible` = proof of no solution); its time includes building the CP-SAT model.",
        "- **pbnsolve** runs on every puzzle (webpbn XML written from the file's clues) as "
        "`pbnsolve -b -u` (brief verdict, uniqueness checked, like pencilbox), timed by the CPU "
        "time of its whole process, start-up included (about 1-3 ms), best of "
        f"{args.repeat} runs (one when it takes over a second), {args.pbn_timeout:g} s limit.",
        "- **the independent model** (the automaton model of the tests, python-sat's MiniSat, "
        "no code of pencilbox's solver) gives its verdict on every puzzle in its own process, "
        f"stopped after {args.model_timeout:g} s.",
        "- ratio = other time / pencilbox time, over puzzles where both finished with a right "
        "answer (for a peer: a grid that fits the clues, or `none` where none exists); above 1 "
        "pencilbox is faster.",
        "- the everyday set: janko.at's puzzles are not in the shared data, so the janko-size "
        f"everyday puzzles are the folders {', '.join(EVERYDAY)}.",
        "",
        "## Targets",
        "",
        *target_lines,
        "",
        "## pencilbox against pbnsolve",
        "",
        *(pbn_table(rows) if with_pbn else ["pbnsolve: not measured."]),
        "",
        *model_lines(rows),
        "",
        "## Summary per folder, with the PyPI peers",
        "",
        *summary_table(rows, peer_names),
        "",
        "pencilbox correct counts the puzzles whose verdict is known (not `unknown`). "
        "Times are medians/maxima over runs that produced a time.",
        "",
        "## Per puzzle",
        "",
        "Statuses: pencilbox `unique` / `multiple` / `none` / `timeout` / `invalid` (rejected by "
        "`load`), ✗ marks a wrong verdict; peers `found` (one grid, checked against the clues) / "
        "`none` / `timeout` / `error` / `wrong`.",
        "",
        *puzzle_table(rows, peer_names, with_pbn),
        "",
    ]
    notes = notes_table(rows, peer_names)
    if notes:
        lines += ["## Notes", "", *notes, ""]
    return "\n".join(lines), found


# --- main ---------------------------------------------------------------------------------


def nproc() -> int:
    try:
        out = subprocess.run(["nproc"], capture_output=True, text=True, check=True).stdout
        return int(out)
    except (OSError, ValueError, subprocess.CalledProcessError):
        return os.cpu_count() or 0


def load_average() -> str:
    try:
        return " ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "?"


def environment() -> dict[str, Any]:
    import importlib.metadata as metadata

    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        sat = metadata.version("python-sat")
    except metadata.PackageNotFoundError:
        sat = "?"
    return {
        "date": dt.datetime.now().astimezone().isoformat(timespec="seconds"),
        "nproc": nproc(),
        "cpu": cpu,
        "platform": platform.platform(),
        "python": platform.python_version(),
        "pencilbox": pencilbox.__version__,
        "python-sat": sat,
        "data": os.path.relpath(DATA, ROOT),
        "loadavg_start": load_average(),
    }


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="survey + seed + 20 jwilk only")
    parser.add_argument("--no-peers", action="store_true", help="run pencilbox only")
    parser.add_argument("--peer-timeout", type=float, default=PEER_TIMEOUT_S)
    parser.add_argument("--peer-max-cells", type=int, default=PEER_MAX_CELLS)
    parser.add_argument("--pencilbox-time-limit", type=float, default=PENCILBOX_TIME_LIMIT_S)
    parser.add_argument("--data", type=Path, default=DATA, help="folder of <folder>/*.json")
    parser.add_argument("--folders", help="only these folders (comma-separated)")
    parser.add_argument("--repeat", type=int, default=REPEAT)
    parser.add_argument(
        "--pbnsolve", default=os.environ.get("PENCILBOX_PBNSOLVE") or None, metavar="PATH"
    )
    parser.add_argument("--pbn-timeout", type=float, default=PBN_TIMEOUT_S)
    parser.add_argument("--model-timeout", type=float, default=MODEL_TIMEOUT_S)
    parser.add_argument("--no-model", action="store_true", help="skip the independent model")
    parser.add_argument("--output", type=Path, default=RESULTS / "nonogram.md")
    return parser.parse_args(argv)


def progress(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def measure_case(case: Case, args: argparse.Namespace, peer_names: list[str], folder: Path) -> Row:
    """Every solver on one puzzle, one after the other."""
    row = Row(case, run_pencilbox(case, args.pencilbox_time_limit, args.repeat), {})
    if args.pbnsolve:
        row.pbn = run_pbnsolve(case, args.pbnsolve, folder, args.pbn_timeout, args.repeat)
    if not args.no_model:
        row.model = run_model(case, args.model_timeout)
    for name in peer_names:
        if args.peer_max_cells and case.cells > args.peer_max_cells:
            row.peers[name] = Outcome("skipped", None, None, note="over the size cap")
        else:
            row.peers[name] = run_peer(PEERS[name], case, args.peer_timeout)
    return row


def measure(cases: list[Case], args: argparse.Namespace, peer_names: list[str]) -> list[Row]:
    # One puzzle at a time, pencilbox then the others: never two solvers at once, and on a
    # shared machine every solver of a puzzle sees about the same background load.
    started = time.perf_counter()
    warm_up()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for i, case in enumerate(cases, 1):
            row = measure_case(case, args, peer_names, Path(folder))
            rows.append(row)
            slow = (row.pencilbox.time_s or 0) > 1 or row.pencilbox.ok is False
            if slow or i % 25 == 0 or i == len(cases):
                others = dict(row.peers, **({"pbnsolve": row.pbn} if row.pbn else {}))
                text = "".join(f", {n} {o.status} {fmt_time(o.time_s)}" for n, o in others.items())
                progress(
                    f"[{i}/{len(cases)} {time.perf_counter() - started:.0f}s] {case.key}: "
                    f"pencilbox {row.pencilbox.status} {fmt_time(row.pencilbox.time_s)}{text}, "
                    f"model {row.model}"
                )
    return rows


def write_raw(
    rows: list[Row],
    env: dict[str, Any],
    args: argparse.Namespace,
    wall_s: float,
    found: list[dict[str, Any]],
) -> None:
    raw = {
        "environment": env,
        "arguments": {k: str(v) for k, v in vars(args).items()},
        "wall_s": wall_s,
        "targets": found,
        "puzzles": [
            {
                "file": r.case.key,
                "size": r.case.size,
                "expected": r.case.expected,
                "model": r.model,
                "pencilbox": asdict(r.pencilbox),
                **({"pbnsolve": asdict(r.pbn)} if r.pbn else {}),
                **{name: asdict(out) for name, out in r.peers.items()},
            }
            for r in rows
        ],
    }
    path = args.output.with_suffix(".json")
    path.write_text(json.dumps(raw, indent=1), encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.perf_counter()
    cases = load_cases(args.data, args.quick)
    if args.folders:
        cases = [c for c in cases if c.folder in args.folders.split(",")]
    if not cases:
        progress(f"no puzzles under {args.data}")
        return 1
    env = environment()
    peer_names: list[str] = []
    if not args.no_peers:
        if not PEER_PYTHON.exists():
            progress(f"{PEER_PYTHON} is missing: run `make bench-peers` (or use --no-peers)")
            return 1
        peer_names = list(PEERS)
        env["peers"] = peer_versions()
    rows = measure(cases, args, peer_names)
    wall_s = time.perf_counter() - started
    env["loadavg_end"] = load_average()
    report, found = write_report(rows, peer_names, env, args, wall_s)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(report, encoding="utf-8")
    write_raw(rows, env, args, wall_s, found)
    for line in pbn_table(rows) if args.pbnsolve else summary_table(rows, peer_names):
        print(line)
    for t in found:
        verdict = "n/a" if t["pass"] is None else "pass" if t["pass"] else "FAIL"
        print(f"{verdict:4}  {t['target']}: {t['measured']}")
    print(f"wrote {os.path.relpath(args.output, ROOT)} in {wall_s / 60:.1f} min")
    return 0


if __name__ == "__main__":
    sys.exit(main())
