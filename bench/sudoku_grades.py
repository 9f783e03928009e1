"""Record the human-style grade of every puzzle of the shared Sudoku sets, or compare to a record.

Grading must not change when the ladder gets faster: this writes one line per puzzle (set,
index, level, score, hardest technique, solved by logic, steps) to a TSV record, and with
--compare checks a fresh run against an earlier record line by line. The digest per set
(sha256 of its lines) goes into bench/results/sudoku_grades.md so that a record made elsewhere
can be checked against the committed one without the TSV itself.

    python bench/sudoku_grades.py --out RECORD.tsv [--sets NAME ...] [--jobs 2]
    python bench/sudoku_grades.py --out NEW.tsv --compare OLD.tsv
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from pencilbox.errors import PuzzleError
from pencilbox.genres.sudoku.formats import parse_many
from pencilbox.genres.sudoku.logic import grade

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("PENCILBOX_SUDOKU_DATA", ROOT.parent / "shared/data/sudoku"))
RESULTS = ROOT / "bench" / "results"
SETS = (
    "norvig_easy50.txt",
    "norvig_top95.txt",
    "norvig_hardest.txt",
    "qqwing_simple.sdm",
    "qqwing_easy.sdm",
    "qqwing_intermediate.sdm",
    "qqwing_expert.sdm",
    "sudocue_learningcurve.sdm",
    "kaggle_1000.csv",
    "17clue_2000.txt",
    "magictour_top1465.txt",
    "forum_hardest_1106.txt",
    "sudoku16_20.txt",
)


def load(name: str) -> list[tuple[int, list[int]]]:
    """(box size, givens) of every puzzle of a shared set."""
    path = DATA / name
    out = []
    for _, puzzle in parse_many(path.read_text(), filename=path.name):
        if isinstance(puzzle, PuzzleError):
            raise SystemExit(f"{name}: {puzzle}")
        out.append((puzzle.n, puzzle.values()))
    return out


def grade_set(name: str) -> tuple[list[str], float]:
    """The record lines of one set and the CPU seconds its grading took."""
    lines = []
    cpu = 0.0
    for index, (n, givens) in enumerate(load(name)):
        started = time.process_time()
        g = grade(n, givens)
        cpu += time.process_time() - started
        solved = "1" if g.solved_by_logic else "0"
        lines.append(f"{name}\t{index}\t{g.level}\t{g.score}\t{g.hardest}\t{solved}\t{g.steps}")
    return lines, cpu


def digest(lines: Sequence[str]) -> str:
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="the TSV record to write")
    parser.add_argument("--compare", type=Path, help="an earlier record to compare with")
    parser.add_argument("--sets", nargs="*", default=list(SETS), help="shared set file names")
    parser.add_argument("--jobs", type=int, default=1, help="processes (one set each)")
    args = parser.parse_args(argv)
    by_set: dict[str, list[str]] = {}
    summary = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for name, (lines, cpu) in zip(args.sets, pool.map(grade_set, args.sets)):
            by_set[name] = lines
            levels = Counter(line.split("\t")[2] for line in lines)
            rate = len(lines) / max(cpu, 1e-9)
            summary.append(
                f"| {name} | {len(lines)} | {rate:,.1f} | "
                + ", ".join(f"{k} {v}" for k, v in sorted(levels.items()))
                + f" | `{digest(lines)}` |"
            )
            print(summary[-1], flush=True)
    args.out.write_text("".join(line + "\n" for name in args.sets for line in by_set[name]))
    if args.compare is None:
        return 0
    old = [line for line in args.compare.read_text().splitlines() if line]
    old_by_key = {tuple(line.split("\t")[:2]): line for line in old}
    differ = 0
    for name in args.sets:
        for line in by_set[name]:
            before = old_by_key.get(tuple(line.split("\t")[:2]))
            if before != line:
                differ += 1
                print(f"differs: {before!r} -> {line!r}", file=sys.stderr)
    compared = sum(len(by_set[name]) for name in args.sets)
    print(f"{compared} puzzles compared, {differ} differ", flush=True)
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
