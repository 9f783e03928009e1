"""The genre's rules as a second reader of a doubtful number.

The recogniser's probability for a number says how much its pixels look like that value; it
does not know that a sudoku's givens must have exactly one solution, or that a nonogram's
row clues add up to what its column clues do. When the picture's reading is sound, most
other values a doubtful number could have would break it: a second 4 in a row, a puzzle with
no solution, totals that disagree. Those values are ruled out, and what is left of the
recogniser's belief is renormalised over the readings that stay possible:

    P(read | rules) = weight of the allowed readings that keep it / weight of all allowed

This is Bayes' rule with the rules as evidence that is certain. A reading's weight is the
product, over the numbers it changes, of the value's probability against the one read. A
value the recogniser did not list still has some probability: at most the smallest one it
listed (they come best first), and at most what its list leaves over; every value is also
given at least UNLISTED_FLOOR, because a recogniser that was wrong about the picture can be
wrong about how sure it is too. So a number is confirmed only when the rules leave it
(nearly) alone, and a mark that might be a digit stays doubtful when that digit would fit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pencilbox.core.vision.reading import ReadNumber, Value

UNLISTED_FLOOR = 0.02
"""The least probability given to a value the rules allow, listed by the recogniser or not."""


def odds(number: ReadNumber, universe: Sequence[Value]) -> dict[Value, float]:
    """For each value of `universe` other than the one read, its probability against the
    read value's: how much more (or less) likely a reading is with this value instead."""
    listed = dict(number.alternatives)
    own = max(listed.get(number.value, number.confidence), 1e-6)
    listed[number.value] = own
    spare = max(0.0, 1.0 - sum(listed.values()))
    unlisted = min(spare, min(listed.values()))
    return {
        value: max(listed.get(value, unlisted), UNLISTED_FLOOR) / own
        for value in universe
        if value != number.value
    }


def rules_posterior(
    number: ReadNumber, universe: Sequence[Value], allowed: Callable[[Value], bool]
) -> float:
    """The probability that `number` is its value read, once the values of `universe` for
    which `allowed` is false are set aside. `allowed(v)` says whether the reading with this
    number as v (the others unchanged) still obeys the rules."""
    against = sum(weight for value, weight in odds(number, universe).items() if allowed(value))
    return 1.0 / (1.0 + against)
