"""Benchmark the human-style Sudoku solver: technique coverage, grading speed, class order.

Writes `bench/results/sudoku_techniques.md`:
- pass/total per HoDoKu regression-library code (exact eliminations/placements), the codes we
  only approximate, and the codes we do not implement;
- grading speed on magictour top1465 (puzzles/s, one process, time around `grade` only) with
  the level histogram and how many were solved by logic alone;
- mean score and level histogram per QQWing class (simple, easy, intermediate, expert) and per
  fifth of the SudoCue learning curve: the grade must order the classes.

    python bench/sudoku_grading.py [--quick] [--per-class N] [--top N]
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import statistics
import sys
import time
from collections import Counter, defaultdict
from itertools import pairwise
from pathlib import Path

from pencilbox.genres.sudoku.logic import LADDER, TECHNIQUES, State, grade
from pencilbox.genres.sudoku.logic.ladder import grade_path, solve_state
from pencilbox.genres.sudoku.logic.reglib import read_library
from pencilbox.genres.sudoku.logic.reglib_check import SKIP_VARIANTS, check, technique_for

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("PENCILBOX_SUDOKU_DATA", ROOT.parent / "shared/data/sudoku"))
RESULTS = ROOT / "bench" / "results"
LEVELS = ("easy", "medium", "hard", "unfair", "extreme")

# what the library codes we skip are, and why
NOT_IMPLEMENTED = {
    "0330": "Franken X-Wing",
    "0331": "Franken Swordfish",
    "0332": "Franken Jellyfish",
    "0340": "Finned Franken X-Wing",
    "0341": "Finned Franken Swordfish",
    "03411": "Siamese Finned Franken Swordfish",
    "0342": "Finned Franken Jellyfish",
    "03421": "Siamese Finned Franken Jellyfish",
    "0362": "Finned Mutant Jellyfish",
    "03621": "Siamese Finned Mutant Jellyfish",
    "0363": "Finned Mutant Squirmbag",
    "0364": "Finned Mutant Whale",
}


def _load(path: Path) -> list[list[int]]:
    out = []
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        out.append([0 if ch in ".0" else int(ch) for ch in line.split(",")[0][:81]])
    return out


def _spread(items: list[list[int]], count: int | None) -> list[list[int]]:
    if count is None or count >= len(items):
        return items
    step = len(items) / count
    return [items[int(k * step)] for k in range(count)]


def library_table() -> tuple[list[str], int, int]:
    lines = read_library(str(DATA / "hodoku_reglib-1.3.txt"))
    by_code: dict[str, list[bool | None]] = defaultdict(list)
    skipped: dict[str, set[str]] = defaultdict(set)
    names: dict[str, str] = {}
    for line in lines:
        result = check(line)
        by_code[line.code].append(result)
        name = technique_for(line.code)
        if name:
            names[line.code] = name
            if result is None:
                skipped[line.code].add(SKIP_VARIANTS[(line.code, line.variant)])
    in_ladder = {name for name, _ in LADDER}
    rows = [
        "| code | technique | in ladder | pass / tested | skipped lines |",
        "|---|---|---|---|---|",
    ]
    passed = total = 0
    for code in sorted(by_code):
        if code not in names:
            continue
        results = [r for r in by_code[code] if r is not None]
        ok = sum(1 for r in results if r)
        passed += ok
        total += len(results)
        skip = len(by_code[code]) - len(results)
        why = f"{skip} ({'; '.join(sorted(skipped[code]))})" if skip else ""
        ladder = "yes" if names[code] in in_ladder else "no"
        rows.append(f"| {code} | {names[code]} | {ladder} | {ok} / {len(results)} | {why} |")
    rows.append(f"| **all** | **{len(names)} codes** | | **{passed} / {total}** | |")
    rows.append("")
    rows.append("Not implemented (lines in the library):")
    rows.append("")
    for code in sorted(by_code):
        if code in names:
            continue
        what = NOT_IMPLEMENTED.get(code, "not implemented")
        rows.append(f"- {code}: {len(by_code[code])} lines, {what}")
    return rows, passed, total


CPU = [0.0]

LIBRARY_NOTE = (
    "A line passes when one Step of our technique, on the line's pencil marks, has exactly "
    "the expected eliminations and placements (and for '-x' fail lines, when none is found). "
    "'in ladder' says whether `solve_path`/`grade` use the technique (the others are found "
    "by name only: HoDoKu's defaults leave them out, or they cost too much time for what they "
    "add over the techniques before them)."
)


def grade_many(puzzles: list[list[int]]) -> tuple[list[int], Counter[str], int, float, float]:
    scores: list[int] = []
    levels: Counter[str] = Counter()
    solved = 0
    elapsed = 0.0
    worst = 0.0
    CPU[0] = 0.0
    for givens in puzzles:
        t0 = time.perf_counter()
        c0 = time.process_time()
        g = grade(3, givens)
        CPU[0] += time.process_time() - c0
        dt_ = time.perf_counter() - t0
        elapsed += dt_
        worst = max(worst, dt_)
        scores.append(g.score)
        levels[g.level] += 1
        solved += g.solved_by_logic
    return scores, levels, solved, elapsed, worst


def _hist(levels: Counter[str]) -> str:
    return ", ".join(f"{lv} {levels[lv]}" for lv in LEVELS if levels[lv])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small samples (a smoke run)")
    ap.add_argument("--per-class", type=int, default=300, help="puzzles per QQWing class")
    ap.add_argument("--top", type=int, default=None, help="top1465 puzzles (default: all)")
    ap.add_argument(
        "--library-only",
        action="store_true",
        help="only redo the regression-library table inside the existing report",
    )
    args = ap.parse_args(argv)
    if args.library_only:
        return _library_only()
    per_class = 20 if args.quick else args.per_class
    top = 30 if args.quick else args.top

    out: list[str] = ["# Sudoku human-style solver: techniques, grading speed, class order", ""]
    out.append(
        f"Run {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC, Python {platform.python_version()}, "
        f"{platform.machine()}, one process. Time is measured around `grade(3, givens)` only."
    )
    out.append("")
    t0 = time.perf_counter()
    rows, passed, total = library_table()
    out += ["## HoDoKu regression library (hodoku_reglib-1.3.txt)", ""]
    out.append(LIBRARY_NOTE)
    out += ["", *rows, ""]
    print(f"library: {passed}/{total} ({time.perf_counter() - t0:.1f}s)", file=sys.stderr)
    _write(out)

    puzzles = _spread(_load(DATA / "magictour_top1465.txt"), top)
    scores, levels, solved, elapsed, worst = grade_many(puzzles)
    speed = len(puzzles) / elapsed
    out += ["## Grading speed: magictour top1465", ""]
    cpu_speed = len(puzzles) / CPU[0]
    out.append(
        "| puzzles | puzzles/s (wall) | puzzles/s (CPU) | mean s | worst s | solved by logic "
        "| mean score | levels |"
    )
    out.append("|---|---|---|---|---|---|---|---|")
    out.append(
        f"| {len(puzzles)} | {speed:.2f} | {cpu_speed:.2f} | {elapsed / len(puzzles):.3f} | "
        f"{worst:.2f} | {solved} | {statistics.mean(scores):.0f} | {_hist(levels)} |"
    )
    out.append("")
    out.append(
        f"Load average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs "
        "(shared machine: the CPU-time rate is the fairer number)."
    )
    out.append("")
    out.append(
        "Failures: none (every puzzle gets a grade; a puzzle the ladder cannot finish is graded "
        "extreme with HoDoKu's brute-force score of 10000 added, `solved_by_logic` false)."
    )
    out.append("")
    print(f"top1465: {speed:.2f}/s wall, {cpu_speed:.2f}/s cpu, solved {solved}", file=sys.stderr)
    _write(out)

    out += ["## HoDoKu exemplars (hodoku_exemplars-1.0.txt)", ""]
    out.append(
        "Each exemplar is filed by HoDoKu under the technique its solution needs. Our ladder "
        "stops at the first technique that works, in HoDoKu's order, so it may solve the "
        "puzzle with an easier technique than HoDoKu's or take another route."
    )
    out += ["", *exemplar_table(5 if args.quick else None), ""]
    print("exemplars done", file=sys.stderr)
    _write(out)

    out += ["## Class order: QQWing classes and the SudoCue learning curve", ""]
    out.append("| set | puzzles | mean score | median score | solved by logic | levels |")
    out.append("|---|---|---|---|---|---|")
    means: list[float] = []
    for cls in ("simple", "easy", "intermediate", "expert"):
        sample = _spread(_load(DATA / f"qqwing_{cls}.sdm"), per_class)
        sc, lv, so, _, _ = grade_many(sample)
        means.append(statistics.mean(sc))
        out.append(
            f"| qqwing {cls} | {len(sample)} | {statistics.mean(sc):.0f} | "
            f"{statistics.median(sc):.0f} | {so} | {_hist(lv)} |"
        )
        print(f"qqwing {cls}: mean {statistics.mean(sc):.0f}", file=sys.stderr)
    curve = _load(DATA / "sudocue_learningcurve.sdm")
    fifth = len(curve) // 5
    curve_means: list[float] = []
    for k in range(5):
        part = _spread(curve[k * fifth : (k + 1) * fifth], per_class)
        sc, lv, so, _, _ = grade_many(part)
        curve_means.append(statistics.mean(sc))
        out.append(
            f"| sudocue part {k + 1}/5 (lines {k * fifth + 1}-{(k + 1) * fifth}) | {len(part)} | "
            f"{statistics.mean(sc):.0f} | {statistics.median(sc):.0f} | {so} | {_hist(lv)} |"
        )
        print(f"sudocue {k + 1}: mean {statistics.mean(sc):.0f}", file=sys.stderr)
    ordered = all(a < b for a, b in pairwise(means))
    curve_ordered = sum(1 for a, b in pairwise(curve_means) if a < b)
    out.append("")
    out.append(
        f"QQWing classes ordered by mean score: **{'yes' if ordered else 'no'}** "
        f"({' < '.join(f'{m:.0f}' for m in means)}). SudoCue fifths increasing: "
        f"{curve_ordered} of 4 steps ({' / '.join(f'{m:.0f}' for m in curve_means)})."
    )
    out.append("")
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "sudoku_techniques.md").write_text("\n".join(out))
    print(f"wrote {RESULTS / 'sudoku_techniques.md'}", file=sys.stderr)
    return 0


EXEMPLAR_ALIASES = {"0501": "0502"}  # the exemplar file numbers multi-colors 0501


def exemplar_table(limit: int | None) -> list[str]:
    """Puzzles HoDoKu files under one technique: does our path use it, is it our hardest?"""
    by_code: dict[str, str] = {t.code: t.name for t in TECHNIQUES.values()}
    section = ""
    rows: dict[str, list[int]] = {}
    for raw in (DATA / "hodoku_exemplars-1.0.txt").read_text().splitlines():
        line = raw.strip()
        if line.startswith("#") and line[1:5].isdigit() and ":" in line:
            section = line[1:5]
            continue
        if not line or line.startswith(("#", ":")):
            continue
        grid = line.split()[0]
        if len(grid) < 81 or not all(ch in ".0123456789" for ch in grid[:81]):
            continue
        code = EXEMPLAR_ALIASES.get(section, section)
        name = by_code.get(code)
        if name is None:
            continue
        stats = rows.setdefault(code, [0, 0, 0])
        if limit is not None and stats[0] >= limit:
            continue
        givens = [0 if ch in ".0" else int(ch) for ch in grid[:81]]
        state = State.from_givens(3, givens)
        path = solve_state(state)
        stats[0] += 1
        stats[1] += any(step.technique == name for step in path)
        stats[2] += grade_path(path, state.is_solved()).hardest == name
    out = [
        "| code | technique | puzzles | our path uses it | our hardest |",
        "|---|---|---|---|---|",
    ]
    tot = [0, 0, 0]
    for code in sorted(rows):
        n, used, hardest = rows[code]
        tot = [tot[0] + n, tot[1] + used, tot[2] + hardest]
        out.append(f"| {code} | {by_code[code]} | {n} | {used} | {hardest} |")
    out.append(f"| **all** | | **{tot[0]}** | **{tot[1]}** | **{tot[2]}** |")
    return out


def _write(out: list[str]) -> None:
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "sudoku_techniques.md").write_text("\n".join(out) + "\n")


def _library_only() -> int:
    report = RESULTS / "sudoku_techniques.md"
    text = report.read_text()
    head, sep, rest = text.partition("## HoDoKu regression library")
    _, sep2, tail = rest.partition("## Grading speed")
    if not sep or not sep2:
        print("no report to update; run the full benchmark", file=sys.stderr)
        return 1
    rows, passed, total = library_table()
    section = [
        "## HoDoKu regression library (hodoku_reglib-1.3.txt)",
        "",
        LIBRARY_NOTE,
        "",
        *rows,
        "",
        "",
    ]
    report.write_text(head + "\n".join(section) + sep2 + tail)
    print(f"library: {passed}/{total}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
