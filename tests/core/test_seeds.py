"""Retry seeds: a generator's further attempts never make another seed's first puzzle
(tests/genres/dbchoco/test_generate.py shows it on a batch's consecutive seeds)."""

from __future__ import annotations

from pencilbox.core.seeds import RETRY_SEEDS, attempt_seed


def test_the_first_attempt_keeps_the_seed_and_retries_stay_clear_of_typed_seeds() -> None:
    assert attempt_seed(7, 0) == 7
    retries = {attempt_seed(seed, k) for seed in range(200) for k in range(1, 20)}
    assert len(retries) == 200 * 19  # no two attempts share a seed
    assert min(retries) >= RETRY_SEEDS
    # the same on every machine and run (a seed printed once remakes its puzzle anywhere)
    assert attempt_seed(1, 1) == 1259458596625
