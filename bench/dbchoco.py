"""Double Choco benchmark: logic coverage per set of real puzzles, solve speed against
semiexp's C++ solver in the same run, and generation per grade.

    .venv/bin/python bench/dbchoco.py [--set LIST ...] [--peer BINARY] [--quick]

Sets: the shared puzzles (../shared/data/dbchoco, by source) and every URL list given with
`--set` or in PENCILBOX_DBCHOCO_SETS (paths separated by `:`): one puzz.link or Penpa+ URL a
line, `#` starts a comment, words before the URL are ignored (bench/data/dbchoco/README.md
says where the lists come from). The peer: semiexp/doublechoco-solver built by hand outside
the repository (README of bench/data/dbchoco), given by `--peer` or PENCILBOX_DBCHOCO_PEER;
without it its columns say "not measured". Times are CPU seconds (this process for
pencilbox, the child's user+sys for the peer), solve = the answer and the proof that there
is no second one. Writes bench/results/dbchoco.md.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from pencilbox.errors import PuzzleError  # noqa: E402
from pencilbox.genres.dbchoco.formats import read  # noqa: E402
from pencilbox.genres.dbchoco.generate import generate  # noqa: E402
from pencilbox.genres.dbchoco.logic import GRADE_OF, GRADES, deduce  # noqa: E402
from pencilbox.genres.dbchoco.model import UNDECIDED, DoubleChoco, Walls  # noqa: E402
from pencilbox.genres.dbchoco.search import COMPILED  # noqa: E402
from pencilbox.genres.dbchoco.solve import solve  # noqa: E402

SHARED = ROOT.parent / "shared" / "data" / "dbchoco"
OUT = ROOT / "bench" / "results" / "dbchoco.md"
PEER_TIMEOUT = 120.0
TARGETS = {"10x10": (0.05, 1.0), "16x16": (1.0, None)}
"""Size: (median, max) CPU seconds solve + uniqueness proof may take, without grading (issues
14 and 34)."""


@dataclass
class Entry:
    set_name: str
    name: str
    puzzle: DoubleChoco
    url: str
    expected: str | None = None
    results: dict[str, object] = field(default_factory=dict)
    in_repo: bool = True
    """From the repository (the shared puzzles, bench/data/dbchoco), not a list given from
    outside it."""

    @property
    def size(self) -> str:
        return f"{self.puzzle.width}x{self.puzzle.height}"


# -- the sets -------------------------------------------------------------------------------------
def shared_entries() -> list[Entry]:
    out = []
    for path in sorted(SHARED.glob("*.json")):
        data = json.loads(path.read_text())
        puzzle = read(path.read_text())
        status = data["solver_status"]
        out.append(Entry("shared", data["id"], puzzle, data["url"], status))
    return out


def list_entries(path: Path, *, in_repo: bool) -> list[Entry]:
    out: list[Entry] = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        text = line.split("#", 1)[0].split()
        if not text:
            continue
        url = text[-1]
        try:
            puzzle = read(url)
        except PuzzleError as error:
            print(f"{path}:{number}: skipped ({error})", file=sys.stderr)
            continue
        name = f"{path.stem} #{len(out) + 1}"
        out.append(Entry(path.stem, name, puzzle, url, in_repo=in_repo))
    return out


# -- the peer -------------------------------------------------------------------------------------
def run_peer(binary: str, entry: Entry) -> tuple[str, float, Walls | None]:
    """(verdict, child CPU seconds, walls when unique) of semiexp's solver on one URL."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        run = subprocess.run(
            [binary, entry.puzzle.to("url").strip()],
            capture_output=True,
            text=True,
            timeout=PEER_TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        return "timeout", PEER_TIMEOUT, None
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if "No answer" in run.stdout:
        return "none", cpu, None
    walls = parse_peer_picture(run.stdout, entry.puzzle.width, entry.puzzle.height)
    if walls is None:
        return "error", cpu, None
    return ("unique" if walls.complete() else "multiple"), cpu, walls


def parse_peer_picture(text: str, width: int, height: int) -> Walls | None:
    """The walls of the peer's picture: rows of `+-+` between cell rows, `|` between cells,
    `?` for an edge that differs between answers."""
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) < 2 * height + 1:
        return None
    values = {"-": "1", "|": "1", " ": "0", "?": "?"}
    vertical = []
    for r in range(height):
        row = lines[2 * r + 1]
        vertical.append("".join(values.get(row[2 * c + 2], "?") for c in range(width - 1)))
    horizontal = []
    for r in range(height - 1):
        row = lines[2 * r + 2]
        horizontal.append("".join(values.get(row[2 * c + 1], "?") for c in range(width)))
    return Walls.from_strings(width, height, vertical, horizontal)


# -- measuring ------------------------------------------------------------------------------------
def measure_speed(entries: list[Entry], peer: str | None) -> None:
    for entry in entries:
        cpu = time.process_time()
        result = solve(entry.puzzle, limit=2, time_limit=PEER_TIMEOUT, with_grade=False)
        entry.results["cpu"] = time.process_time() - cpu
        entry.results["status"] = result.status
        entry.results["walls"] = result.solutions[0] if result.status == "unique" else None
        if entry.expected is None:
            entry.expected = result.status
        if peer:
            verdict, peer_cpu, walls = run_peer(peer, entry)
            entry.results["peer"] = verdict
            entry.results["peer_cpu"] = peer_cpu
            agrees = verdict == result.status and (
                verdict != "unique" or walls == entry.results["walls"]
            )
            entry.results["peer_agrees"] = agrees
        print(
            f"speed {entry.name} {entry.size} {result.status} {entry.results['cpu']:.3f}",
            entry.results.get("peer_cpu", ""),
            flush=True,
        )


def measure_logic(entries: list[Entry], probe_seconds: float) -> None:
    for entry in entries:
        cpu = time.process_time()
        state = deduce(entry.puzzle, probe_seconds=probe_seconds or None)
        entry.results["logic_cpu"] = time.process_time() - cpu
        entry.results["logic_solved"] = UNDECIDED not in state.edges
        entry.results["grade"] = state.grade() if UNDECIDED not in state.edges else "search"
        entry.results["techniques"] = Counter(step.technique for step in state.steps)
        walls = entry.results.get("walls")
        if isinstance(walls, Walls):
            wrong = [e for e, v in enumerate(state.edges) if v != UNDECIDED and v != walls.edges[e]]
            entry.results["logic_wrong"] = len(wrong)
        print(
            f"logic {entry.name} {entry.results['grade']} {entry.results['logic_cpu']:.2f}",
            flush=True,
        )


# -- tables ---------------------------------------------------------------------------------------
def coverage_table(entries: list[Entry]) -> list[str]:
    lines = [
        "## Logic coverage per set",
        "",
        "Logic alone (no search) on the puzzles with one answer; the grade is the hardest",
        "technique a puzzle needs (`search` when logic stops short). Trials run until a",
        "whole sweep over the undecided edges finds nothing (no time budget unless",
        "--probe-seconds). `wrong` counts edges logic decided against the answer (must be 0).",
        "",
        "| set | unique puzzles | solved by logic | % | grades | median logic CPU s | wrong |",
        "|---|---|---|---|---|---|---|",
    ]
    by_set: dict[str, list[Entry]] = {}
    for entry in entries:
        if entry.expected == "unique":
            by_set.setdefault(entry.set_name, []).append(entry)
    total = solved_total = 0
    for name, group in by_set.items():
        solved = sum(bool(e.results["logic_solved"]) for e in group)
        total += len(group)
        solved_total += solved
        grades = Counter(str(e.results["grade"]) for e in group)
        ordered = ", ".join(f"{g} {grades[g]}" for g in GRADES if grades[g])
        median = statistics.median(float(e.results["logic_cpu"]) for e in group)  # type: ignore[arg-type]
        wrong = sum(int(e.results.get("logic_wrong", 0)) for e in group)  # type: ignore[call-overload]
        lines.append(
            f"| {name} | {len(group)} | {solved} | {100 * solved / len(group):.0f}% | {ordered} "
            f"| {median:.2f} | {wrong} |"
        )
    if total:
        share = 100 * solved_total / total
        lines.append(f"| **all** | {total} | {solved_total} | {share:.0f}% | | | |")
    return [*lines, ""]


def technique_table(entries: list[Entry]) -> list[str]:
    uses: Counter[str] = Counter()
    needed: Counter[str] = Counter()
    for entry in entries:
        techniques = entry.results.get("techniques")
        if not isinstance(techniques, Counter):
            continue
        uses.update(techniques)
        needed.update(techniques.keys())
    lines = [
        "## Techniques",
        "",
        "How often each technique gives a step, and in how many puzzles, easiest first",
        "(the level is what a puzzle grades when that technique is the hardest it needs).",
        "",
        "| level | technique | steps | puzzles using it |",
        "|---|---|---|---|",
    ]
    for name, level in GRADE_OF.items():
        lines.append(f"| {level} | {name} | {uses[name]} | {needed[name]} |")
    return [*lines, ""]


def speed_table(entries: list[Entry], peer: str | None) -> list[str]:
    lines = [
        "## Solve + uniqueness proof, pencilbox against semiexp's C++ solver",
        "",
        "| set | puzzle | size | verdict | pencilbox CPU s | C++ CPU s | pencilbox / C++ |",
        "|---|---|---|---|---|---|---|",
    ]
    for entry in entries:
        ours = float(entry.results["cpu"])  # type: ignore[arg-type]
        peer_cpu = entry.results.get("peer_cpu")
        if peer and isinstance(peer_cpu, float):
            note = "" if entry.results.get("peer_agrees") else f" ({entry.results['peer']}!)"
            theirs, ratio = f"{peer_cpu:.3f}{note}", f"{ours / max(peer_cpu, 1e-3):.2f}x"
        else:
            theirs, ratio = "not measured", ""
        verdict = str(entry.results["status"])
        if entry.expected and verdict != entry.expected:
            verdict += f" (expected {entry.expected}!)"
        lines.append(
            f"| {entry.set_name} | {entry.name} | {entry.size} | {verdict} | {ours:.3f} "
            f"| {theirs} | {ratio} |"
        )
    return [*lines, "", *size_summary(entries, peer)]


def size_summary(entries: list[Entry], peer: str | None) -> list[str]:
    lines = [
        "Per size (real puzzles only):",
        "",
        "| size | puzzles | median s | max s | C++ median s | C++ max s | worst ratio | target |",
        "|---|---|---|---|---|---|---|---|",
    ]
    by_size: dict[str, list[Entry]] = {}
    for entry in entries:
        by_size.setdefault(entry.size, []).append(entry)
    for size in sorted(by_size, key=lambda s: tuple(int(x) for x in s.split("x"))):
        group = by_size[size]
        ours = [float(e.results["cpu"]) for e in group]  # type: ignore[arg-type]
        theirs = [float(e.results["peer_cpu"]) for e in group if "peer_cpu" in e.results]  # type: ignore[arg-type]
        cells = ["not measured", "not measured", ""]
        if peer and theirs:
            worst = max(o / max(t, 1e-3) for o, t in zip(ours, theirs))
            cells = [f"{statistics.median(theirs):.3f}", f"{max(theirs):.3f}", f"{worst:.2f}x"]
        target = TARGETS.get(size)
        verdict = ""
        if target:
            median_ok = statistics.median(ours) <= target[0]
            max_ok = target[1] is None or max(ours) <= target[1]
            limit = f"median <= {target[0]}" + (f", max <= {target[1]}" if target[1] else "")
            verdict = f"{limit}: {'met' if median_ok and max_ok else 'NOT met'}"
        lines.append(
            f"| {size} | {len(group)} | {statistics.median(ours):.3f} | {max(ours):.3f} "
            f"| {' | '.join(cells)} | {verdict} |"
        )
    return [*lines, ""]


GEN_TIME_TARGETS = {
    ("10x10", "local"): 20.0,
    ("10x10", "placement"): 5.0,
    ("10x10", "contradiction"): 5.0,
    ("16x16", "placement"): 60.0,
}
"""(size, level): the median CPU seconds a generated puzzle may take (issue 34)."""
CLUE_BANDS = {"placement": 0.25, "local": 0.50}
"""How far from the human median the clue count of a level may be (issue 34)."""
BLOCK_SIZES = (2, 4, 6, 8, 10)
"""Block sizes reported one by one (cells; larger ones are summed in the last column)."""


def _size_key(size: str) -> tuple[int, ...]:
    return tuple(int(x) for x in size.split("x"))


def _spread(sizes: Counter[int]) -> str:
    total = sum(sizes.values()) or 1
    parts = [f"{100 * sizes[n] / total:.0f}" for n in BLOCK_SIZES]
    parts.append(f"{100 * sum(v for k, v in sizes.items() if k > BLOCK_SIZES[-1]) / total:.0f}")
    return " / ".join(parts)


def _block_sizes(walls: Walls) -> Counter[int]:
    return Counter(Counter(block for row in walls.block_ids() for block in row).values())


def human_figures(human: list[Entry]) -> dict[str, tuple[list[int], Counter[int]]]:
    """Per size: the clue counts and block sizes of the real puzzles with one answer."""
    found: dict[str, tuple[list[int], Counter[int]]] = {}
    for entry in human:
        walls = entry.results.get("walls")
        if not isinstance(walls, Walls):
            continue
        clues, blocks = found.setdefault(entry.size, ([], Counter()))
        clues.append(sum(n is not None for n in entry.puzzle.numbers))
        blocks.update(_block_sizes(walls))
    return found


GENERATION_HEADING = "## Generation per level and size"


def generation_figures(markdown: str) -> dict[tuple[str, str], tuple[str, str]]:
    """(size, level) -> (median clues, median CPU s) of the generation table in `markdown`.
    Columns are found by their headings: a table written with --before has two more columns
    at its end, so counting from the end would read the time target instead."""
    found: dict[tuple[str, str], tuple[str, str]] = {}
    columns: dict[str, int] | None = None
    for row in markdown.split(GENERATION_HEADING, 1)[-1].splitlines():
        if not row.startswith("|"):
            if columns is not None and found:
                break  # the table of human-made puzzles follows: another header
            continue
        cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
        if columns is None:
            if "level" in cells:
                columns = {name: index for index, name in enumerate(cells)}
            continue
        if len(cells) == len(columns) and cells[columns["level"]] in GRADES:
            clues = cells[columns["clues (median)"]]
            cpu = cells[columns["median CPU s"]]
            found[(cells[columns["size"]], cells[columns["level"]])] = (clues, cpu)
    return found


def in_repo_warning(human: list[Entry]) -> str | None:
    """A warning when every human-made puzzle with one answer is from the repository: a dozen
    puzzles, most sizes with one or none, so their medians say little (the larger sets are
    kept out of the repository: bench/data/dbchoco/README.md)."""
    solved = [entry for entry in human if isinstance(entry.results.get("walls"), Walls)]
    if any(not entry.in_repo for entry in solved):
        return None
    return (
        f"WARNING: the human medians come only from the {len(solved)} puzzles in the "
        "repository; give the sets kept out of it (bench/data/dbchoco/README.md) with --set "
        "or PENCILBOX_DBCHOCO_SETS"
    )


def earlier_generation(ref: str) -> dict[tuple[str, str], tuple[str, str]]:
    """The generation figures of this table as committed at `ref`: the figures the current
    generator is set beside (from that earlier run, not this one)."""
    shown = subprocess.run(
        ["git", "show", f"{ref}:bench/results/dbchoco.md"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return generation_figures(shown)


def generation_table(
    plan: list[tuple[str, str]],
    count: int,
    attempts: int,
    human: list[Entry],
    before: str | None = None,
) -> list[str]:
    people = human_figures(human)
    warning = in_repo_warning(human)
    if warning:
        print(warning, file=sys.stderr, flush=True)
    earlier = earlier_generation(before) if before else {}
    lines = [
        f"{GENERATION_HEADING}, beside human-made puzzles",
        "",
        f"`generate(size, seed, grade=..., attempts={attempts})`, seeds 1..{count} (a seed",
        "that yields another grade moves on to the next one, at most `attempts` seeds; the",
        "grade is checked as `pencilbox grade` checks it). Clues: median of the puzzles made",
        "against the median of the human-made puzzles of that size with one answer (the",
        "table below), and the band the issue asks for (placement within 25%, local within",
        "50%). Blocks: % of blocks of 2 / 4 / 6 / 8 / 10 / more cells. CPU: seconds a puzzle.",
        *([f"**{warning}.**"] if warning else []),
        *(
            [
                f"Before: median clues and CPU s of this table as committed at {before} (that",
                "earlier run, on the machine's load then; empty: the row was not measured).",
            ]
            if before
            else []
        ),
        "",
        "| size | level | made | clues (median) | range | human median | ours / human | band "
        "| blocks % | median CPU s | max CPU s | time target |"
        + (" before: clues | before: median CPU s |" if before else ""),
        "|---|---|---|---|---|---|---|---|---|---|---|---|" + ("---|---|" if before else ""),
    ]
    for size, grade in plan:
        clues, cpus, made, blocks = [], [], 0, Counter[int]()
        for seed in range(1, count + 1):
            cpu = time.process_time()
            try:
                result = generate(size, seed, grade=grade, attempts=attempts)
            except PuzzleError:
                cpus.append(time.process_time() - cpu)
                continue
            cpus.append(time.process_time() - cpu)
            made += 1
            clues.append(result["clues"])
            made_puzzle, answer = result["puzzle"], result["answer"]
            walls = Walls.from_strings(
                made_puzzle.width, made_puzzle.height, answer["vertical"], answer["horizontal"]
            )
            blocks.update(_block_sizes(walls))
            print(f"generate {size} {grade} seed {seed}: {result['clues']} clues", flush=True)
        row = _generation_row(size, grade, count, made, clues, cpus, blocks, people)
        if before:
            then = earlier.get((size, grade), ("", ""))
            row += f" {then[0]} | {then[1]} |"
        lines.append(row)
    lines += [
        "",
        "| size | human-made puzzles (one answer) | median clues | min-max clues | blocks % |",
        "|---|---|---|---|---|",
    ]
    for size in sorted(people, key=_size_key):
        values, blocks = people[size]
        lines.append(
            f"| {size} | {len(values)} | {statistics.median(values):g} "
            f"| {min(values)}-{max(values)} | {_spread(blocks)} |"
        )
    return [*lines, ""]


def _generation_row(
    size: str,
    grade: str,
    count: int,
    made: int,
    clues: list[int],
    cpus: list[float],
    blocks: Counter[int],
    people: dict[str, tuple[list[int], Counter[int]]],
) -> str:
    human = statistics.median(people[size][0]) if size in people else None
    ours = statistics.median(clues) if clues else None
    ratio = band = ""
    if human and ours is not None:
        ratio = f"{ours / human:.2f}"
        if grade in CLUE_BANDS:
            inside = abs(ours / human - 1) <= CLUE_BANDS[grade]
            band = f"±{CLUE_BANDS[grade]:.0%}: {'met' if inside else 'NOT met'}"
    target = GEN_TIME_TARGETS.get((size, grade))
    timing = ""
    if target is not None and cpus:
        timing = f"<= {target:g} s: {'met' if statistics.median(cpus) <= target else 'NOT met'}"
    shown = f"{ours:g} | {min(clues)}-{max(clues)}" if clues and ours is not None else "| "
    return (
        f"| {size} | {grade} | {made}/{count} | {shown} | {human if human is not None else ''} "
        f"| {ratio} | {band} | {_spread(blocks) if made else ''} "
        f"| {statistics.median(cpus):.2f} | {max(cpus):.2f} | {timing} |"
    )


def header(peer: str | None, load: tuple[float, float]) -> list[str]:
    engine = "compiled propagator (_propagator.c)" if COMPILED else "lazy loop (not compiled)"
    return [
        "# Double Choco benchmark",
        "",
        "`make bench-dbchoco` (bench/dbchoco.py) on the shared 2-core machine; CPU seconds",
        f"(load average {load[0]:.1f} at the start, {load[1]:.1f} at the end; other jobs ran).",
        f"Search engine: {engine}. Peer: "
        + (
            "semiexp/doublechoco-solver built by hand (bench/data/dbchoco/README.md), run "
            "one puzzle per process on the URL; its CPU time includes its start-up."
            if peer
            else "not measured (no binary given)."
        ),
        "",
    ]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--set", action="append", default=[], help="a URL list file")
    parser.add_argument("--peer", default=os.environ.get("PENCILBOX_DBCHOCO_PEER"))
    parser.add_argument(
        "--probe-seconds", type=float, default=0.0, help="trial budget per puzzle (0: none)"
    )
    parser.add_argument(
        "--gen",
        default="6x6:local,6x6:placement,6x6:contradiction,6x6:search,8x8:local,"
        "8x8:placement,8x8:contradiction,10x10:local,10x10:placement,10x10:contradiction,"
        "16x16:placement",
        help="SIZE:LEVEL pairs to generate",
    )
    parser.add_argument("--gen-count", type=int, default=3, help="seeds per size and grade")
    parser.add_argument(
        "--attempts", type=int, default=20, help="seeds the generator tries for one grade"
    )
    parser.add_argument("--quick", action="store_true", help="no generation")
    parser.add_argument(
        "--before", help="a git ref: its committed generation figures are shown beside"
    )
    args = parser.parse_args()
    outside = [Path(p) for p in args.set]
    outside += [Path(p) for p in os.environ.get("PENCILBOX_DBCHOCO_SETS", "").split(":") if p]
    inside = sorted((ROOT / "bench" / "data" / "dbchoco").glob("*.txt"))
    peer = args.peer if args.peer and Path(args.peer).is_file() else None

    load_start = os.getloadavg()[0]
    entries = shared_entries()
    for path in inside:
        entries += list_entries(path, in_repo=True)
    for path in outside:
        entries += list_entries(path, in_repo=False)
    measure_speed(entries, peer)
    measure_logic(entries, args.probe_seconds)
    lines = [*coverage_table(entries), *technique_table(entries), *speed_table(entries, peer)]
    if not args.quick:
        plan = [(pair.split(":")[0], pair.split(":")[1]) for pair in args.gen.split(",")]
        lines += generation_table(plan, args.gen_count, args.attempts, entries, args.before)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("\n".join(header(peer, (load_start, os.getloadavg()[0])) + lines) + "\n")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
