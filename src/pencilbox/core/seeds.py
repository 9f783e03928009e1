"""Seeds for a generator's further attempts at a grade.

A generator asked for a grade tries seed S and, when the puzzle comes out of another grade,
tries again. The retries must not be S+1, S+2, ...: those are the next puzzles of a batch
(`batch generate` runs consecutive seeds), so seed S's retry would make seed S+1's puzzle
and the batch would hold it twice. A retry's seed is drawn from S and the attempt's number
instead, far above the seeds people type; the puzzle reports it, and `--seed` with it makes
that puzzle again on the first attempt."""

from __future__ import annotations

import hashlib

RETRY_SEEDS = 1 << 40
"""Retry seeds start here (below: the seeds users and batches give)."""


def attempt_seed(seed: int, attempt: int) -> int:
    """The seed of attempt `attempt` (0 first) of a generator started from `seed`."""
    if attempt == 0:
        return seed
    digest = hashlib.sha256(f"{seed}/{attempt}".encode()).digest()
    return RETRY_SEEDS + int.from_bytes(digest[:5], "big")
