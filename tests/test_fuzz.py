"""The fuzz test: every reader of every genre, on random text and on mutations of real puzzles
(tests/fuzzing.py), either gives puzzles or raises PuzzleError with one short line, and what it
gives can be written in every notation and solved without any other exception. Hypothesis
draws the random choices (seeded: the same cases on every run; a failure shrinks to a small
input). `make fuzz` runs the same property on 100,000+ inputs (bench/fuzz.py)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests import fuzzing
from tests.conftest import TEST_DATA

TARGETS = fuzzing.targets()
SEEDS = fuzzing.seeds_from(fuzzing.seed_files(TEST_DATA, per_genre=8))
EXAMPLES = 160
"""Per reader: 22 readers make about 3,500 cases."""


@pytest.fixture(scope="module", autouse=True)
def empty_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """`pencilbox.load` reads a one-line text that names a file: fuzz from an empty folder."""
    import os

    before = Path.cwd()
    os.chdir(tmp_path_factory.mktemp("fuzz"))
    try:
        yield
    finally:
        os.chdir(before)


def test_every_reader_has_seeds_in_its_notation() -> None:
    for target in TARGETS:
        assert len(fuzzing.seeds_for(target, SEEDS)) >= 3, target


@pytest.mark.parametrize("target", TARGETS, ids=str)
@settings(
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(rng=st.randoms(use_true_random=False))
def test_reading_is_total(target: fuzzing.Target, rng: random.Random) -> None:
    own = fuzzing.seeds_for(target, SEEDS)
    others = [text for texts in SEEDS.values() for text in texts]
    text = fuzzing.fuzz_input(rng, own, others)
    outcome = fuzzing.run_one(target, text)
    assert outcome.kind != "other", f"{outcome.detail}\ninput: {text[:500]!r}"


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000,
        '{"rows": ' + "[" * 5000,
        "9" * 5000,
        "p?sudoku/" + "9" * 5000,
        "\ud800",
        "pzprv3\ndbchoco\n²\n①\n",
        "<puzzleset>" + "<a>" * 5000,
    ],
)
def test_known_bad_inputs_for_every_reader(text: str) -> None:
    for target in TARGETS:
        outcome = fuzzing.run_one(target, text)
        assert outcome.kind == "clean", (str(target), outcome.detail)
