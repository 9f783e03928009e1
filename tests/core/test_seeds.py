"""Retry seeds: a generator's further attempts never make another seed's first puzzle."""

from __future__ import annotations

from pencilbox.core.seeds import RETRY_SEEDS, attempt_seed
from pencilbox.genres.dbchoco.generate import generate


def test_the_first_attempt_keeps_the_seed_and_retries_stay_clear_of_typed_seeds() -> None:
    assert attempt_seed(7, 0) == 7
    retries = {attempt_seed(seed, k) for seed in range(200) for k in range(1, 20)}
    assert len(retries) == 200 * 19  # no two attempts share a seed
    assert min(retries) >= RETRY_SEEDS
    assert attempt_seed(7, 3) == attempt_seed(7, 3)  # reproducible, not random


def test_consecutive_seeds_make_different_puzzles_when_the_first_retries() -> None:
    # 8x8 local with blocks of at most 8 cells: seed 1 is of another grade, and its retry
    # used to be seed 2, so seeds 1 and 2 (as in a batch) gave the same puzzle
    first = generate("8x8", 1, grade="local", max_block=8)
    second = generate("8x8", 2, grade="local", max_block=8)
    assert first["grade"] == second["grade"] == "local"
    assert first["seed"] != 1 and first["seed"] >= RETRY_SEEDS
    assert first["url"] != second["url"]
    # the seed reported makes the same puzzle again, on its first attempt
    assert generate("8x8", first["seed"], grade="local", max_block=8)["url"] == first["url"]
