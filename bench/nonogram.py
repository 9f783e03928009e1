"""Benchmark pencilbox's Nonogram solver against two PyPI peers on the shared corpus.

`make bench` runs this with pencilbox's venv; the peers live in `bench/.venv-peers` (made by
`make bench-peers`) and run one puzzle per subprocess through the adapters in `bench/peers/`,
each killed after a wall-clock timeout. pencilbox runs in this process, in validation mode
(look for 2 solutions: a uniqueness proof), with its line-solver cache cleared before every
puzzle. Every time is measured in the solving process around the solve call only (no import,
start-up or parsing). Writes `bench/results/nonogram.md` (report) and `nonogram.json` (raw).

    python bench/nonogram.py [--quick] [--no-peers] [--peer-timeout S] [--peer-max-cells N]
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
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

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
SPEEDUP_TARGET = 20.0


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


def run_pencilbox(case: Case, time_limit: float) -> Outcome:
    _solve_cached.cache_clear()
    try:
        puzzle = pencilbox.load(case.path, max_size=1000)
    except PuzzleError as error:
        # a rejected file is right when no grid exists (bad clues, or clues that cannot fit)
        ok = None if case.expected == "unknown" else case.expected in ("invalid", "none")
        return Outcome("invalid", None, ok, note=f"{type(error).__name__}: {error}"[:120])
    gc.collect()
    result = puzzle.solve(limit=2, time_limit=time_limit)
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
    return Outcome(status, result.time_s, ok, result.grade, note, dict(result.stats))


def warm_up() -> None:
    """One small solve so that first-use costs (imports, SAT library set-up) are not timed."""
    text = json.dumps({"rows": [[1], [1, 1], [3]], "cols": [[1], [2], [1, 1]]})
    for _ in range(3):
        try:
            pencilbox.load(text, max_size=1000).solve(limit=2)
        except PuzzleError:
            return


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


def targets(rows: list[Row], peer_names: list[str]) -> tuple[list[str], list[dict[str, Any]]]:
    by_key = {r.case.key: r for r in rows}
    found: list[dict[str, Any]] = []

    def add(name: str, measured: str, ok: bool | None) -> None:
        found.append({"target": name, "measured": measured, "pass": ok})

    forever = by_key.get(FOREVER)
    if forever:
        pb = forever.pencilbox
        add(
            "webpbn #6574 Forever (survey) validated (unique) under 0.5 s",
            f"{pb.status}, {fmt_time(pb.time_s)}",
            pb.status == "unique" and pb.time_s is not None and pb.time_s < 0.5,
        )
    survey = [r for r in rows if r.case.folder == "survey"]
    if survey:
        slow = [r for r in survey if not r.pencilbox.ok or (r.pencilbox.time_s or 0) >= 2]
        worst = max(survey, key=lambda r: r.pencilbox.time_s or 0)
        add(
            f"all {len(survey)} survey puzzles correct, each under 2 s",
            f"{len(survey) - len(slow)}/{len(survey)}; slowest {worst.case.key} "
            f"{fmt_time(worst.pencilbox.time_s)}",
            not slow,
        )
    for folder in ("jwilk", "picmi"):
        times = [r.pencilbox.time_s for r in rows if r.case.folder == folder and r.pencilbox.time_s]
        if times:
            mid = median(times)
            add(
                f"median under 10 ms on {folder} ({len(times)} puzzles)",
                fmt_time(mid),
                mid is not None and mid < 0.010,
            )
    cauldron = by_key.get(CAULDRON)
    if cauldron:
        pb = cauldron.pencilbox
        add(
            "512x512 Cauldron validated under 30 s",
            f"{pb.status}, {fmt_time(pb.time_s)}",
            bool(pb.ok) and pb.time_s is not None and pb.time_s < 30,
        )
    if peer_names:
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
            f"at least {SPEEDUP_TARGET:.0f}x faster than every peer wherever it finishes",
            f"{met}/{len(worst_by_puzzle)} puzzles meet it against all finishing peers "
            f"({'; '.join(per_peer)}); worst: {worst_text}"
            if worst_by_puzzle
            else "no peer finished",
            bool(worst_by_puzzle) and met == len(worst_by_puzzle),
        )
    lines = ["| target | measured | result |", "|---|---|---|"]
    for t in found:
        verdict = "n/a" if t["pass"] is None else pass_fail(bool(t["pass"]))
        lines.append(f"| {t['target']} | {t['measured']} | {verdict} |")
    return lines, found


def puzzle_table(rows: list[Row], peer_names: list[str]) -> list[str]:
    head = ["file", "size", "expected", "pencilbox", "grade", "time"]
    for name in peer_names:
        head += [name, "ratio"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        pb = r.pencilbox
        mark = "" if pb.ok is not False else " ✗"
        cells = [r.case.key, r.case.size, r.case.expected, pb.status + mark, pb.grade or "–"]
        cells.append(fmt_time(pb.time_s))
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
    lines = [
        "# Nonogram benchmark: pencilbox vs PyPI peers",
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
        f"- peers' venv (`bench/.venv-peers`): {versions}",
        f"- corpus: {len(rows)} files under `{env['data']}`",
        "",
        "How it is measured:",
        "",
        "- **pencilbox** runs in this process in validation mode: `load(path, max_size=1000)`, "
        f"then `solve(limit=2, time_limit={args.pencilbox_time_limit:g})`, i.e. it looks for a "
        "second solution, so `unique` is a proof of uniqueness. The line-solver cache is "
        "cleared before each puzzle; one tiny warm-up solve runs first. Time = `result.time_s` "
        "(the solve call; parsing excluded). A verdict is correct when it matches the file's "
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
        "- ratio = peer time / pencilbox time, over puzzles where both finished with a right "
        "answer (for a peer: a grid that fits the clues, or `none` where none exists).",
        "",
        "## Summary per folder",
        "",
        *summary_table(rows, peer_names),
        "",
        "pencilbox correct counts the puzzles whose verdict is known (not `unknown`). "
        "Times are medians/maxima over runs that produced a time.",
        "",
        "## Targets",
        "",
        *target_lines,
        "",
        "## Per puzzle",
        "",
        "Statuses: pencilbox `unique` / `multiple` / `none` / `timeout` / `invalid` (rejected by "
        "`load`), ✗ marks a wrong verdict; peers `found` (one grid, checked against the clues) / "
        "`none` / `timeout` / `error` / `wrong`.",
        "",
        *puzzle_table(rows, peer_names),
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
    return parser.parse_args(argv)


def progress(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.perf_counter()
    cases = load_cases(args.data, args.quick)
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

    # One puzzle at a time, pencilbox then each peer: never two solvers at once, and on a
    # shared machine every solver of a puzzle sees about the same background load.
    warm_up()
    rows = []
    for i, case in enumerate(cases, 1):
        row = Row(case, run_pencilbox(case, args.pencilbox_time_limit), {})
        rows.append(row)
        for name in peer_names:
            if args.peer_max_cells and case.cells > args.peer_max_cells:
                row.peers[name] = Outcome("skipped", None, None, note="over the size cap")
            else:
                row.peers[name] = run_peer(PEERS[name], case, args.peer_timeout)
        slow = (row.pencilbox.time_s or 0) > 1 or row.pencilbox.ok is False
        if slow or i % 25 == 0 or i == len(cases):
            peers = "".join(f", {n} {o.status} {fmt_time(o.time_s)}" for n, o in row.peers.items())
            progress(
                f"[{i}/{len(cases)} {time.perf_counter() - started:.0f}s] {case.key}: pencilbox "
                f"{row.pencilbox.status} {fmt_time(row.pencilbox.time_s)}{peers}"
            )

    wall_s = time.perf_counter() - started
    env["loadavg_end"] = load_average()
    report, found = write_report(rows, peer_names, env, args, wall_s)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "nonogram.md").write_text(report, encoding="utf-8")
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
                "pencilbox": asdict(r.pencilbox),
                **{name: asdict(out) for name, out in r.peers.items()},
            }
            for r in rows
        ],
    }
    (RESULTS / "nonogram.json").write_text(json.dumps(raw, indent=1), encoding="utf-8")

    print("\n".join(summary_table(rows, peer_names)[:2]))
    print(summary_table(rows, peer_names)[-1])
    for t in found:
        verdict = "n/a" if t["pass"] is None else "pass" if t["pass"] else "FAIL"
        print(f"{verdict:4}  {t['target']}: {t['measured']}")
    print(f"wrote {os.path.relpath(RESULTS / 'nonogram.md', ROOT)} in {wall_s / 60:.1f} min")
    return 0


if __name__ == "__main__":
    sys.exit(main())
