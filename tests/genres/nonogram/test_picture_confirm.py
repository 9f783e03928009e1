"""Doubtful clue numbers confirmed by the rules (genres/nonogram/picture_confirm)."""

from __future__ import annotations

import time
from collections.abc import Mapping

from pencilbox.core.vision.reading import CONFIDENT, Reading, ReadNumber, Value
from pencilbox.genres.nonogram.picture_confirm import confirmed


def reading(*numbers: ReadNumber) -> Reading:
    return Reading("nonogram", 5, 5, tuple(numbers))


def row(line: int, value: int, confidence: float = 0.99) -> ReadNumber:
    return ReadNumber("row", line, 0, value, confidence, ((value + 1, 1 - confidence),))


def col(line: int, value: int, confidence: float = 0.99) -> ReadNumber:
    return ReadNumber("col", line, 0, value, confidence, ((value + 1, 1 - confidence),))


def always(changes: Mapping[int, Value]) -> bool:
    return True


def test_one_doubtful_number_is_confirmed_by_the_totals_alone() -> None:
    # whatever else it were, the row totals would no longer equal the column totals
    found = confirmed(reading(row(0, 3, 0.6), col(0, 3)), [0], always)
    assert found.numbers[0].confidence >= CONFIDENT


def test_two_misreads_that_make_up_for_each_other_keep_their_doubt() -> None:
    # a row 3 and a column 3 both read 1 higher would leave the totals equal
    doubtful = reading(row(0, 3, 0.6), col(0, 3, 0.6))
    found = confirmed(doubtful, [0, 1], always)
    assert [n.confidence for n in found.numbers] == [0.6, 0.6]
    # unless the rules refuse that reading too
    found = confirmed(doubtful, [0, 1], lambda changes: False)
    assert all(n.confidence >= CONFIDENT for n in found.numbers)


def test_the_pairs_weighed_keep_the_totals_equal() -> None:
    tried: list[dict[int, Value]] = []

    def sound(changes: Mapping[int, Value]) -> bool:
        tried.append(dict(changes))
        return False

    confirmed(reading(row(0, 3, 0.6), row(1, 2, 0.6), col(0, 5)), [0, 1], sound)
    assert tried and all(sum((v or 0) for v in t.values()) == 5 for t in tried)


def test_the_weighing_does_not_depend_on_the_machines_speed(monkeypatch) -> None:
    # the checks are counted, not timed: a machine on which each check takes a second (a
    # slow or busy one; the old budget of 2 s stopped after two of these 5 checks) confirms
    # what a fast one does; only the safety stop of SAFETY_SECONDS is by the clock
    import pencilbox.genres.nonogram.picture_confirm as module

    clock = iter(range(0, 10**6, 1))
    monkeypatch.setattr(time, "thread_time", lambda: float(next(clock)))
    doubtful = reading(row(0, 3, 0.6), col(0, 3, 0.6))
    found = module.confirmed(doubtful, [0, 1], lambda changes: False)
    assert all(n.confidence >= CONFIDENT for n in found.numbers)


def test_too_many_changes_to_weigh_are_left_untried(monkeypatch) -> None:
    import pencilbox.genres.nonogram.picture_confirm as module

    tried: list[dict[int, Value]] = []

    def sound(changes: Mapping[int, Value]) -> bool:
        tried.append(dict(changes))
        return False

    doubtful = reading(row(0, 3, 0.6), col(0, 3, 0.6))
    monkeypatch.setattr(module, "BUDGET_LINE_CHECKS", 10 * 1)  # one check for a 5x5
    found = module.confirmed(doubtful, [0, 1], sound)
    assert tried == [] and [n.confidence for n in found.numbers] == [0.6, 0.6]
    monkeypatch.setattr(module, "BUDGET_LINE_CHECKS", 10 * 100)
    found = module.confirmed(doubtful, [0, 1], sound)
    assert tried and all(n.confidence >= CONFIDENT for n in found.numbers)


def test_checks_that_are_each_a_slow_solve_meet_the_safety_stop(monkeypatch) -> None:
    import pencilbox.genres.nonogram.picture_confirm as module

    clock = iter(range(0, 10**6, 15))  # 15 s a check: past SAFETY_SECONDS after two
    monkeypatch.setattr(time, "thread_time", lambda: float(next(clock)))
    doubtful = reading(row(0, 3, 0.6), col(0, 3, 0.6))
    found = module.confirmed(doubtful, [0, 1], lambda changes: False)
    assert [n.confidence for n in found.numbers] == [0.6, 0.6]
