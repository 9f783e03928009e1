"""What a batch shows while it runs (a progress bar with rate and ETA, on a terminal) and
when it ends (counts per status, rate, the slowest items)."""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Iterable
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

SLOWEST_SHOWN = 3


class _Rate(ProgressColumn):
    """Items per second, over the last few seconds."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:.1f}/s" if speed else "-/s", style="progress.data.speed")


class BatchProgress:
    """A bar on stderr when it is a terminal; nothing otherwise (logs stay clean)."""

    def __init__(self, verb: str, total: int, done: int) -> None:
        self.started = time.perf_counter()
        self.finished_now = 0
        self._bar: Progress | None = None
        if sys.stderr.isatty():
            self._bar = Progress(
                TextColumn(f"batch {verb}"),
                BarColumn(),
                MofNCompleteColumn(),
                _Rate(),
                TimeElapsedColumn(),
                TextColumn("ETA"),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            self._task = self._bar.add_task(verb, total=total, completed=done)

    def __enter__(self) -> BatchProgress:
        if self._bar is not None:
            self._bar.start()
        return self

    def advance(self, count: int) -> None:
        self.finished_now += count
        if self._bar is not None:
            self._bar.advance(self._task, count)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()


def label(record: dict[str, Any]) -> str:
    """Which item a record is about, for people."""
    if record.get("file") is None and "seed" in record:
        return f"seed {record['seed']}"
    line = record.get("line")
    return f"{record.get('file')}" + (f" line {line}" if line is not None else "")


def summary(
    records: Iterable[dict[str, Any]], finished_now: int, seconds: float, startup: float = 0.0
) -> str:
    """Counts per status, this run's rate (the workers' start-up told apart), and the slowest
    items."""
    records = list(records)
    counts = Counter(str(record.get("status")) for record in records)
    shown = ", ".join(f"{status} {count}" for status, count in counts.most_common())
    rate = finished_now / seconds if seconds > 0 else 0.0
    lines = [
        f"{len(records)} records ({shown or 'none'}); this run: {finished_now} in "
        f"{seconds:.1f} s ({rate:.1f}/s)"
        + (f", after {startup:.1f} s starting the workers" if startup else "")
    ]
    timed = [r for r in records if isinstance(r.get("time_s"), int | float)]
    slowest = sorted(timed, key=lambda r: -float(r["time_s"]))[:SLOWEST_SHOWN]
    if slowest:
        lines.append(
            "slowest: " + "; ".join(f"{label(r)} {float(r['time_s']):.3f} s" for r in slowest)
        )
    errors = [r for r in records if r.get("status") == "error"]
    if errors:
        lines.append(f"first error: {label(errors[0])}: {errors[0].get('error')}")
    return "\n".join(lines)
