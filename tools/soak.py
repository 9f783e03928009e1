"""The flaky-test hunt (`make soak-tests`): the browser and process tests, several rounds in a
row, with CPU hogs beside them so that the machine is as loaded as CI's can be.

A test that waits for the state it asserts passes however slow the machine is; one that waits
for a time fails here sooner or later. Every round runs the tests marked `browser` or `process`
(pyproject.toml's markers) in the suite's own two workers; the hogs are busy loops of this
script's own, each bounded by the soak's deadline, and are ended when it ends. Prints a line a
round and the totals; the exit status is 1 when any test failed in any round.

    python -m tools.soak [--rounds 5] [--hogs 2] [--select "browser or process"] [PYTEST_ARGS...]
"""

from __future__ import annotations

import argparse
import multiprocessing
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path
from tempfile import TemporaryDirectory

ROOT = Path(__file__).resolve().parent.parent
MAX_HOURS = 3.0
"""No hog outlives this, whatever happens to the soak."""


def hog(until: float) -> None:
    """Keep one core busy until the monotonic clock reads `until`."""
    count = 0
    while time.monotonic() < until:
        count += 1


def start_hogs(count: int) -> list[multiprocessing.Process]:
    until = time.monotonic() + MAX_HOURS * 3600
    hogs = [multiprocessing.Process(target=hog, args=(until,), daemon=True) for _ in range(count)]
    for process in hogs:
        process.start()
    return hogs


def one_round(select: str, extra: Sequence[str], report: Path) -> tuple[int, int, list[str]]:
    """(passed, failed, the failed tests' ids) of one run of the selected tests."""
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "-n",
        "2",
        "--dist",
        "loadfile",
        "-m",
        select,
        f"--junitxml={report}",
        *extra,
    ]
    subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL, check=False)
    if not report.is_file():
        return 0, 1, ["(pytest wrote no report: it could not run)"]
    failed, passed = [], 0
    for case in ET.parse(report).getroot().iter("testcase"):
        name = f"{case.get('classname')}::{case.get('name')}"
        if case.find("failure") is not None or case.find("error") is not None:
            failed.append(name)
        elif case.find("skipped") is None:
            passed += 1
    return passed, len(failed), failed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--hogs", type=int, default=2, help="busy processes beside the tests")
    parser.add_argument("--select", default="browser or process", help="a pytest -m expression")
    args, extra = parser.parse_known_args(argv)
    hogs = start_hogs(args.hogs)
    totals = [0, 0]
    failures: list[str] = []
    started = time.monotonic()
    try:
        with TemporaryDirectory() as folder:
            for number in range(1, args.rounds + 1):
                begun = time.monotonic()
                report = Path(folder) / f"round-{number}.xml"
                passed, failed, names = one_round(args.select, extra, report)
                totals[0] += passed
                totals[1] += failed
                failures += [f"round {number}: {name}" for name in names]
                print(
                    f"round {number}/{args.rounds}: {passed} passed, {failed} failed "
                    f"({time.monotonic() - begun:.0f} s, {args.hogs} hogs)",
                    *(f"\n  failed {name}" for name in names),
                    flush=True,
                )
    finally:
        for process in hogs:
            process.terminate()
    print(
        f"soak: {args.rounds} rounds, {totals[0]} passed, {totals[1]} failed in "
        f"{time.monotonic() - started:.0f} s with {args.hogs} CPU hogs"
    )
    for line in failures:
        print(f"  failed {line}")
    return 1 if totals[1] else 0


if __name__ == "__main__":
    sys.exit(main())
