"""The rules as a second reader (core/vision/confirm): doubts the rules settle, and those
they cannot."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pencilbox.cli import main
from pencilbox.core.vision.confirm import rules_posterior
from pencilbox.core.vision.reading import CONFIDENT, ReadNumber

PICTURES = Path(__file__).resolve().parents[1] / "data" / "pictures"
DIGITS = [None, *range(1, 10)]


def eight(confidence: float, *others: tuple[int | None, float]) -> ReadNumber:
    return ReadNumber("cell", 0, 0, 8, confidence, tuple(others))


def test_a_doubtful_digit_is_confirmed_when_every_other_value_breaks_the_rules() -> None:
    number = eight(0.7, (6, 0.2), (3, 0.05))
    sure = rules_posterior(number, DIGITS, lambda value: value == 8)
    assert sure >= CONFIDENT > number.confidence


def test_a_value_the_rules_allow_keeps_the_doubt() -> None:
    # a blank the recogniser doubts, where a 6 would fit the solution: it may be a given
    mark = ReadNumber("cell", 0, 0, None, 0.6, ((6, 0.3), (5, 0.1)))
    assert rules_posterior(mark, DIGITS, lambda value: value in (None, 6)) < CONFIDENT
    # and a value the recogniser did not even list still counts once the rules allow it
    number = eight(0.6, (6, 0.1))
    assert rules_posterior(number, DIGITS, lambda value: value in (8, None)) < CONFIDENT


def test_an_unlisted_value_counts_no_more_than_the_list_leaves_over() -> None:
    number = eight(0.97, (6, 0.01))
    assert rules_posterior(number, DIGITS, lambda value: value in (8, 2)) > 0.95


def test_a_newspaper_photo_whose_doubt_the_rules_settle_reads_ok(capsys: Any) -> None:
    photo = PICTURES / "newspaper-sudoku-158.jpg"
    truth = json.loads(photo.with_name(photo.name + ".truth.json").read_text())
    assert main(["read", "--jsonl", str(photo)]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["puzzle"]["givens"] == truth["givens"]
    assert record["status"] == "ok"
    assert record["uncertain"] == []
