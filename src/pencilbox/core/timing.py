"""Per-phase wall-clock timing and counters for solver statistics; deadlines; and the clock
of work budgets."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field


@dataclass
class Stats:
    counters: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)

    def count(self, name: str, amount: int = 1) -> None:
        self.counters[name] = self.counters.get(name, 0) + amount

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[name] = self.seconds.get(name, 0.0) + time.perf_counter() - start

    def to_json(self) -> dict[str, object]:
        return {
            **self.counters,
            "time_s": {name: round(s, 6) for name, s in self.seconds.items()},
        }


class Deadline:
    """A point in time after which long work stops; `None` seconds means never."""

    def __init__(self, seconds: float | None) -> None:
        self.end = None if seconds is None else time.monotonic() + seconds

    def remaining(self) -> float | None:
        return None if self.end is None else max(0.0, self.end - time.monotonic())

    def expired(self) -> bool:
        return self.end is not None and time.monotonic() >= self.end


def work_seconds() -> float:
    """The CPU time this thread has used. Budgets that decide what an answer says (how long
    the picture reader weighs its doubts, how long a hint's trials go without a find) count
    in it, not by the wall clock: with other work slowing the machine, a third-party
    screenshot came out doubted and a Double Choco hint fell back to tracing the puzzle from
    its empty grid. A busy machine now gives the answer an idle one gives, only later. A
    time limit the user sets stays on the wall clock (`Deadline`)."""
    return time.thread_time()


class TimeLimitReached(Exception):
    """Raised inside solvers when their Deadline passes; callers turn it into status timeout."""
