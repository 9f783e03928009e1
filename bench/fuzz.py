"""The long fuzz run: `make fuzz` (100,000 inputs by default) over every reader of every genre.

    .venv/bin/python bench/fuzz.py [--inputs N] [--seed S] [--data ../shared/data]

The inputs and the property are those of tests/test_fuzz.py (tests/fuzzing.py): random text and
mutations of real puzzles (here: small puzzles of the shared data, each also written in every
notation); reading must give puzzles or a PuzzleError with one short line, and what is read
must be written in every notation and solved (0.05 s limit) without any other exception.
Counts per reader go to bench/results/fuzz.md: tried, read, clean errors, other (must be 0),
with the first "other" cases and the slowest inputs. Exits 1 when "other" is not 0.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from tests import fuzzing  # noqa: E402

OUT = ROOT / "bench" / "results" / "fuzz.md"
DATA = ROOT.parent / "shared" / "data"


@dataclass
class Tally:
    tried: int = 0
    parsed: int = 0
    clean: int = 0
    other: int = 0
    seconds: float = 0.0
    failures: list[tuple[str, str]] = field(default_factory=list)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--per-genre", type=int, default=40, help="seed puzzles per genre")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()

    seeds = fuzzing.seeds_from(fuzzing.seed_files(args.data, args.per_genre))
    targets = fuzzing.targets()
    others = [text for texts in seeds.values() for text in texts]
    tallies = {str(target): Tally() for target in targets}
    slowest: list[tuple[float, str, int]] = []
    rng = random.Random(args.seed)
    started = time.perf_counter()
    os.chdir(tempfile.mkdtemp(prefix="pencilbox-fuzz-"))  # one-line texts never name a file
    for index in range(args.inputs):
        target = targets[index % len(targets)]
        text = fuzzing.fuzz_input(rng, fuzzing.seeds_for(target, seeds), others)
        tally = tallies[str(target)]
        begun = time.perf_counter()
        outcome = fuzzing.run_one(target, text)
        spent = time.perf_counter() - begun
        tally.tried += 1
        tally.seconds += spent
        setattr(tally, outcome.kind, getattr(tally, outcome.kind) + 1)
        if outcome.kind == "other" and len(tally.failures) < 3:
            tally.failures.append((outcome.detail, text[:200]))
            print(f"OTHER {target}: {outcome.detail}\n  input: {text[:200]!r}", flush=True)
        slowest = sorted([*slowest, (spent, str(target), len(text))], reverse=True)[:5]
        if (index + 1) % 10_000 == 0:
            print(f"{index + 1:,} inputs, {time.perf_counter() - started:.0f} s", flush=True)
    elapsed = time.perf_counter() - started
    write_report(args, tallies, slowest, elapsed, sum(len(t) for t in seeds.values()))
    return 1 if any(t.other for t in tallies.values()) else 0


def write_report(
    args: argparse.Namespace,
    tallies: dict[str, Tally],
    slowest: list[tuple[float, str, int]],
    elapsed: float,
    seed_count: int,
) -> None:
    total = Tally()
    for tally in tallies.values():
        for name in ("tried", "parsed", "clean", "other"):
            setattr(total, name, getattr(total, name) + getattr(tally, name))
        total.seconds += tally.seconds
    lines = [
        "# Fuzz run",
        "",
        f"`make fuzz` (bench/fuzz.py --inputs {args.inputs} --seed {args.seed}), "
        f"{time.strftime('%Y-%m-%d')}, Python {platform.python_version()}, "
        f"{elapsed:.0f} s on the shared 2-core machine.",
        "",
        "Every reader of every genre (`load` detects the genre; `sudoku:many` reads lists) on",
        "random text and on mutations of "
        f"{seed_count} seed texts: small puzzles of ../shared/data, each also written in",
        "every notation of its genre. *Read*: puzzles came back, and each was written in every",
        "notation and solved (0.05 s limit) with every reported answer checked against the",
        "rules. *Clean*: a PuzzleError of one short line. *Other*: anything else, a bug.",
        "",
        "| reader | tried | read | clean errors | other | ms per input |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, tally in [*tallies.items(), ("**all**", total)]:
        per = 1000 * tally.seconds / max(tally.tried, 1)
        lines.append(
            f"| {name} | {tally.tried:,} | {tally.parsed:,} | {tally.clean:,} | "
            f"{tally.other:,} | {per:.2f} |"
        )
    lines += ["", "Slowest inputs (reading, writing and solving together):", ""]
    lines += [
        f"- {seconds:.2f} s: {name}, {length:,} characters" for seconds, name, length in slowest
    ]
    failures = [(name, f) for name, t in tallies.items() for f in t.failures]
    if failures:
        lines += ["", "## Other (bugs to fix)", ""]
        lines += [f"- {name}: {detail} — input {text!r}" for name, (detail, text) in failures]
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(
        f"wrote {args.out}: tried {total.tried:,}, read {total.parsed:,}, "
        f"clean {total.clean:,}, other {total.other:,}"
    )


if __name__ == "__main__":
    sys.exit(main())
