"""The picture reader on real pictures made by other programs: writes bench/results/read_real.md.

Every picture in bench/data/real-pictures/GENRE/ with its PICTURE.truth.json (screenshots
published in other projects' repositories, see the README there) is read in-process through
the public path (`pencilbox.pictures.read`, genre detected), the way bench/read.py reads, and
judged the way it judges (`judge` there: exact, exact but doubted, flagged, refused with an
error, partly flagged, silent). Pictures whose licence does not let them be stored here are
listed in GENRE/fetch.json with their truth; they are read too when a folder of fetched copies
is given (--fetched DIR, one file per entry under its `file` name) and reported apart.

    python bench/read_real.py [--fetched DIR] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from read import ROOT, _commit, judge, read_one, wrong_places

DATA = ROOT / "bench" / "data" / "real-pictures"
RESULTS = ROOT / "bench" / "results" / "read_real.md"
VERDICTS = ("exact", "exact-doubted", "flagged", "error", "partly", "silent")


@dataclass
class Case:
    """One picture to read: where its bytes are, its truth, and the program that drew it."""

    path: Path
    truth: dict[str, Any]
    program: str
    stored: bool


@dataclass
class Outcome:
    case: Case
    verdict: str
    status: str
    seconds: float
    detail: str


def program_of(source: str) -> str:
    """The repository (owner/name) of a truth's `source` ("owner/name@commit:path")."""
    return source.split("@", 1)[0]


def stored_cases(data: Path) -> list[Case]:
    cases = []
    for truth_path in sorted(data.glob("*/*.truth.json")):
        truth = json.loads(truth_path.read_text())
        picture = truth_path.with_name(truth_path.name.removesuffix(".truth.json"))
        cases.append(Case(picture, truth, program_of(truth["source"]), True))
    return cases


def fetched_cases(data: Path, fetched: Path | None) -> tuple[list[Case], list[dict[str, Any]]]:
    """The fetch-only pictures found in `fetched`, and the entries not found there."""
    cases, missing = [], []
    for listing in sorted(data.glob("*/fetch.json")):
        for entry in json.loads(listing.read_text()):
            path = fetched / entry["file"] if fetched else None
            if path is None or not path.is_file():
                missing.append(entry)
                continue
            cases.append(Case(path, entry, entry["repo"], False))
    return cases, missing


def describe(record: dict[str, Any], truth: dict[str, Any], verdict: str) -> str:
    """What the reading got wrong, in a few words (empty when exact)."""
    if verdict == "error":
        return f"refused: {record['error']}"
    wrong = wrong_places(record, truth)
    if not wrong:
        doubts = len(record["uncertain"])
        return f"{doubts} numbers doubted" if doubts else ""
    if ("size", 0) in wrong:
        puzzle = record["puzzle"] or {}
        return (
            f"size read {len(puzzle.get('rows', []))}x{len(puzzle.get('cols', []))}, "
            f"truth {len(truth['rows'])}x{len(truth['cols'])}"
        )
    if ("genre", 0) in wrong:
        return f"genre read as {record['genre']}"
    lines = sorted(wrong)
    shown = ", ".join(f"{kind} {at}" for kind, at in lines[:6])
    more = f" and {len(lines) - 6} more" if len(lines) > 6 else ""
    return f"wrong: {shown}{more}"


def score(cases: list[Case]) -> list[Outcome]:
    outcomes = []
    for case in cases:
        record = read_one(case.path.read_bytes(), case.path.name)
        verdict = judge(record, case.truth)
        detail = describe(record, case.truth, verdict)
        outcomes.append(Outcome(case, verdict, record["status"], record["time_s"], detail))
        print(f"{case.path.name}: {verdict} {record['time_s']:.2f} s {detail}", flush=True)
    return outcomes


def table(outcomes: list[Outcome]) -> list[str]:
    lines = [
        "| program | pictures | exact, status ok | exact, doubted | flagged | refused (error) "
        "| partly flagged | silently wrong | median s |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    by_program: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in outcomes:
        by_program[outcome.case.program].append(outcome)
    groups = sorted(by_program.items())
    if len(groups) > 1:
        groups.append(("**total**", outcomes))
    for program, group in groups:
        counts = [sum(o.verdict == v for o in group) for v in VERDICTS]
        median = statistics.median(o.seconds for o in group)
        cells = " | ".join(str(n) for n in counts)
        lines.append(f"| {program} | {len(group)} | {cells} | {median:.2f} |")
    return lines


def per_picture(outcomes: list[Outcome]) -> list[str]:
    lines = [
        "| picture | program | verdict | status | s | what went wrong |",
        "|---|---|---|---|---:|---|",
    ]
    for o in outcomes:
        detail = o.detail.replace("|", "/")
        lines.append(
            f"| {o.case.path.name} | {o.case.program} | {o.verdict} | {o.status} | "
            f"{o.seconds:.2f} | {detail} |"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fetched", type=Path, help="fetched copies of the fetch.json pictures")
    parser.add_argument("--data", type=Path, default=DATA, help="the real pictures' folder")
    parser.add_argument("--out", type=Path, default=RESULTS, help="the table's file")
    args = parser.parse_args()
    started = time.strftime("%Y-%m-%d %H:%M", time.gmtime())
    stored = score(stored_cases(args.data))
    fetched, missing = fetched_cases(args.data, args.fetched)
    fetched_outcomes = score(fetched)
    lines = [
        "# Reading real pictures made by other programs",
        "",
        "`python bench/read_real.py`: screenshots published in other nonogram programs' "
        "repositories (bench/data/real-pictures/, provenance and licences in its README), "
        "read with the genre detected and judged as bench/read.py judges: exact = every "
        "number right; flagged = wrong somewhere but the status is not ok and every wrong "
        "line is among the doubts; refused = an error instead of a puzzle (counted as "
        "flagged by bench/read.py); partly = uncertain but a wrong line is not doubted; "
        "silent = status ok and wrong. Times are per picture on this shared 2-core machine.",
        "",
        f"This run: {started} UTC on commit {_commit()}, `python bench/read_real.py"
        + (" --fetched DIR" if args.fetched else "")
        + "`.",
        "",
        "## Stored pictures",
        "",
        *table(stored),
    ]
    if fetched_outcomes:
        lines += [
            "",
            "## Fetched pictures (not stored: no licence to)",
            "",
            *table(fetched_outcomes),
        ]
    if missing:
        names = ", ".join(entry["file"] for entry in missing)
        lines += ["", f"Not fetched, so not read: {names}."]
    lines += ["", "## Every picture", "", *per_picture(stored + fetched_outcomes)]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
