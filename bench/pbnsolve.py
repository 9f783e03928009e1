"""Running pbnsolve (Jan Wolter's C solver, webpbn's own validator) on one puzzle, for the
nonogram benchmarks (bench/nonogram.py, bench/nonogram_colour.py).

The binary is built by hand outside the repository and named by --pbnsolve PATH or
PENCILBOX_PBNSOLVE; without it the benchmarks say "not measured". It reads webpbn XML; the
DOCTYPE line is left out so that libxml2 does not try to fetch the DTD from the network.
`pbnsolve -b -u -xS FILE`: brief output, uniqueness checked (a second solution sought), at most
S seconds. Its time is the CPU time (user + system) of its whole process, start-up included
(about 1-3 ms on this machine), the best of `repeat` runs.
"""

from __future__ import annotations

import resource
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

VERDICTS = ("unique", "multiple", "contradiction", "timeout")
"""The words of pbnsolve's brief output, as the benchmarks report them."""


def children_cpu() -> float:
    """CPU seconds (user and system) of the finished child processes so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def without_doctype(xml: str) -> str:
    return "\n".join(line for line in xml.splitlines() if not line.startswith("<!DOCTYPE"))


def plain_xml(rows: Sequence[Sequence[int]], cols: Sequence[Sequence[int]]) -> str:
    """A black-and-white puzzle in webpbn XML straight from its clues (also clues that
    pencilbox rejects as invalid: pbnsolve gets every puzzle of the corpus)."""

    def lines(clues: Sequence[Sequence[int]]) -> str:
        return "\n".join(
            "<line>" + "".join(f"<count>{n}</count>" for n in clue) + "</line>" for clue in clues
        )

    return (
        '<?xml version="1.0"?>\n<puzzleset><puzzle type="grid" defaultcolor="black" '
        'backgroundcolor="white">\n<color name="white" char=".">fff</color>\n'
        '<color name="black" char="X">000</color>\n'
        f'<clues type="columns">\n{lines(cols)}\n</clues>\n'
        f'<clues type="rows">\n{lines(rows)}\n</clues>\n</puzzle></puzzleset>\n'
    )


def run(binary: str, xml: str, path: Path, timeout: float, repeat: int) -> dict[str, Any]:
    """{"status": unique | multiple | contradiction | timeout | error, "time_s": CPU s or
    None}: the best of `repeat` runs (one only when it fails or takes over a second)."""
    path.write_text(without_doctype(xml), encoding="utf-8")
    best: dict[str, Any] = {}
    for _ in range(repeat):
        started = children_cpu()
        try:
            done = subprocess.run(
                [binary, "-b", "-u", f"-x{max(1, int(timeout))}", str(path)],
                capture_output=True,
                text=True,
                timeout=timeout + 15,
                check=False,
            )
        except subprocess.TimeoutExpired:  # killed: no CPU time of it is counted
            return best or {"status": "timeout", "time_s": None}
        took = children_cpu() - started
        words = set(done.stdout.split())
        verdict = next((v for v in VERDICTS if v in words), "error")
        outcome = {"status": verdict, "time_s": took}
        if not best or (verdict == best["status"] and took < best["time_s"]):
            best = outcome
        if verdict not in ("unique", "multiple", "contradiction") or took > 1.0:
            break
    return best
