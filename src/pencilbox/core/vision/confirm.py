"""The genre's rules as a second reader of a doubtful number.

The recogniser's probability for a number says how much its pixels look like that value; it
does not know that a sudoku's givens must have exactly one solution. When the picture's
reading is sound (the rules hold and the puzzle is unique), most other values a doubtful
number could have would break it: a second 4 in a row, a puzzle with no solution, one with
two. Those values are ruled out, and what is left of the recogniser's belief is renormalised
over the values that stay possible:

    P(read | rules) = p(read) / (p(read) + sum of p(v) over the values v the rules allow)

This is Bayes' rule with the rules as evidence that is certain, and the numbers' other
readings held fixed. A value the recogniser did not list still has some probability: at
most the smallest one it listed (they come best first), and at most what its list leaves
over; every allowed value is also given at least UNLISTED_FLOOR, because a recogniser that
was wrong about the picture can be wrong about how sure it is too. So a number is confirmed
only when the rules leave it (nearly) alone, and a mark that might be a digit stays doubtful
when that digit would fit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pencilbox.core.vision.reading import ReadNumber, Value

UNLISTED_FLOOR = 0.02
"""The least probability given to a value the rules allow, listed by the recogniser or not."""


def rules_posterior(
    number: ReadNumber, universe: Sequence[Value], allowed: Callable[[Value], bool]
) -> float:
    """The probability that `number` is its value read, once the values of `universe` for
    which `allowed` is false are set aside. `allowed(v)` says whether the reading with this
    number as v (the others unchanged) still obeys the rules."""
    listed = dict(number.alternatives)
    own = max(listed.get(number.value, number.confidence), 1e-6)
    listed[number.value] = own
    spare = max(0.0, 1.0 - sum(listed.values()))
    smallest = min(listed.values())
    others = 0.0
    for value in universe:
        if value == number.value or not allowed(value):
            continue
        if value in listed:
            others += max(listed[value], UNLISTED_FLOOR)
        else:
            unlisted = min(spare, smallest)
            spare -= unlisted  # the list's leftover is shared, not given to each value whole
            others += max(unlisted, UNLISTED_FLOOR)
    return own / (own + others)
