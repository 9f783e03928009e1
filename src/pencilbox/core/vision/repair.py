"""Repair by alternatives: when the numbers read break the genre's rules, try the recogniser's
next-best values for the least certain numbers, cheapest change first, until the rules hold.

The cost of reading number i as value a instead of its first choice b is log p(b) - log p(a):
a set of changes costs the sum. Change sets are tried in order of cost, at most `max_changes`
numbers at a time and within a time limit. The search goes on past the first set that
passes, for sets up to `margin` more costly: when a second one passes too, the picture does
not decide between them and the repair says so (`ambiguous`) rather than pick one.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from pencilbox.core.timing import work_seconds
from pencilbox.core.vision.reading import Value

Changes = Mapping[int, Value]

FLOOR = 1e-4
"""The least probability an alternative needs to be tried when the numbers break a rule."""
REAL_DOUBT = 0.05
"""The least probability an alternative needs to be tried when the numbers break no rule
but make a puzzle with more than one solution: setters do publish such puzzles, so a
reading that gives one is weak evidence of a misread, and a number is changed for it
only to a value the recogniser itself thought a real possibility."""


def floor_for(solutions: str) -> float:
    """The floor for alternatives given what the check found ("multiple" or else)."""
    return REAL_DOUBT if solutions == "multiple" else FLOOR


@dataclass(frozen=True)
class Suspect:
    """A number that may be misread: its index, its probability and its alternatives."""

    at: int
    probability: float
    alternatives: tuple[tuple[Value, float], ...]


@dataclass(frozen=True)
class Repair:
    changes: dict[int, Value] | None
    """The cheapest change set that passes, or None."""
    cost: float = math.inf
    ambiguous: bool = False
    tried: int = 0
    timed_out: bool = False


def _options(suspects: Sequence[Suspect], floor: float) -> list[list[tuple[float, int, Value]]]:
    options = []
    for suspect in suspects:
        best = max(suspect.probability, 1e-6)
        choices = [
            (math.log(best) - math.log(max(p, 1e-9)), suspect.at, value)
            for value, p in suspect.alternatives
            if p >= floor
        ]
        options.append(sorted(choices, key=lambda c: c[0]))
    return options


def search(
    suspects: Sequence[Suspect],
    passes: Callable[[Changes], bool],
    *,
    max_changes: int = 3,
    time_limit: float = 1.0,
    margin: float = math.log(30.0),
    floor: float = FLOOR,
) -> Repair:
    """The cheapest set of changes for which `passes` is true, tried within `time_limit`."""
    started = work_seconds()
    options = _options(suspects, floor)
    candidates: list[tuple[float, tuple[tuple[int, Value], ...]]] = []
    for size in range(1, max_changes + 1):
        for group in itertools.combinations(range(len(options)), size):
            for chosen in itertools.product(*(options[g] for g in group)):
                cost = sum(c[0] for c in chosen)
                candidates.append((cost, tuple((c[1], c[2]) for c in chosen)))
    candidates.sort(key=lambda c: c[0])
    found: tuple[float, dict[int, Value]] | None = None
    tried = 0
    for cost, picks in candidates:
        changes: dict[int, Value] = dict(picks)
        if found is not None and cost > found[0] + margin:
            break
        if work_seconds() - started > time_limit:
            return Repair(
                found[1] if found else None,
                found[0] if found else math.inf,
                ambiguous=found is not None,
                tried=tried,
                timed_out=True,
            )
        if found is not None and found[1].items() <= changes.items():
            continue  # the found change and more: no rival to it
        tried += 1
        if passes(changes):
            if found is not None:
                return Repair(found[1], found[0], ambiguous=True, tried=tried)
            found = (cost, changes)
    if found is None:
        return Repair(None, tried=tried)
    return Repair(found[1], found[0], tried=tried)
