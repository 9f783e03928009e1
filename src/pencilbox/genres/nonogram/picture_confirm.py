"""Doubtful clue numbers of a sound nonogram reading, confirmed by the rules.

The row clues of a nonogram add up to what its column clues do, so one misread number alone
always breaks the reading: only two misreads that make up for each other can leave it sound
(a 3 read as 8 in a row and a 5 read as 10 in a column, say). So the readings weighed against
the one read (core/vision/confirm) are those that change one or two doubtful numbers with the
totals still equal, the clues fitting their lines and the puzzle solvable. Three or more
misreads that make up for each other are not weighed: each is far less likely than one.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from dataclasses import replace

from pencilbox.core.timing import work_seconds
from pencilbox.core.vision.confirm import odds
from pencilbox.core.vision.reading import CONFIDENT, Reading, ReadNumber, Value

NEGLIGIBLE = 1e-4
"""Readings less likely than this against the one read are not tried."""
BUDGET_LINE_CHECKS = 1_500_000
"""When more rule checks than this over the grid's lines (rows and columns) would be
needed, nothing is confirmed: the doubts stay as the recogniser left them. A count, not a
time, so a picture reads the same on a slow or busy machine as on a fast one; per line, as
a check (a solve) takes about 2.5 us a line on this project's machine: 30,000 checks for a
25x25, at most about 3.5 s (the 7,000-12,000 that 30-40 doubts need, 1-1.5 s)."""
SAFETY_SECONDS = 20.0
"""A stop by the clock (the reading thread's CPU time, core/timing.work_seconds) only for
pictures whose every check is a slow solve (a large, hard grid, each check up to the
verdict's own time limit): on every picture measured the count decides, far below this;
past it nothing is confirmed."""


def confirmed(
    reading: Reading, doubtful: list[int], sound: Callable[[Mapping[int, Value]], bool]
) -> Reading:
    """The reading with each of `doubtful` as sure as the rules make it; `sound(changes)` says
    whether the reading with those numbers changed still obeys the rules."""
    numbers = reading.numbers
    universe: list[Value] = [None, *range(1, max(reading.width, reading.height) + 1)]
    weights = {i: odds(numbers[i], universe) for i in doubtful}
    against = dict.fromkeys(doubtful, 0.0)
    total = 1.0
    trials = [
        (i, j, vi, vj, weight)
        for i, j in itertools.combinations(doubtful, 2)
        for vi, vj, weight in _balanced(numbers[i], numbers[j], weights[i], weights[j])
    ]
    if len(trials) > BUDGET_LINE_CHECKS // max(1, reading.width + reading.height):
        return reading  # too many to weigh: known before any is tried
    deadline = work_seconds() + SAFETY_SECONDS
    for i, j, vi, vj, weight in trials:
        if work_seconds() > deadline:
            return reading
        if sound({i: vi, j: vj}):
            total += weight
            against[i] += weight
            against[j] += weight
    updated = list(numbers)
    for i in doubtful:
        sure = 1.0 - against[i] / total
        if sure >= CONFIDENT and sure > numbers[i].confidence:
            updated[i] = replace(numbers[i], confidence=sure)
    return replace(reading, numbers=tuple(updated))


def _balanced(
    a: ReadNumber, b: ReadNumber, odds_a: dict[Value, float], odds_b: dict[Value, float]
) -> list[tuple[Value, Value, float]]:
    """The changes of both numbers that keep the row and column totals equal, with their
    weight, the likely ones only."""
    found = []
    for value_a, weight_a in odds_a.items():
        shift = (value_a or 0) - (a.value or 0)
        # two row numbers (or two column numbers) must change by opposite amounts, a row
        # number and a column number by the same
        wanted = (b.value or 0) + (shift if a.kind != b.kind else -shift)
        value_b: Value = wanted or None
        if wanted < 0 or value_b not in odds_b:
            continue
        weight = weight_a * odds_b[value_b]
        if weight >= NEGLIGIBLE:
            found.append((value_a, value_b, weight))
    return found
