"""Shared test fixtures: where the test puzzle data lives.

The suite reads only tests/data (small samples of ../shared/data with their credits, see
tests/data/README.md), so it runs on a clone with nothing beside it. Benchmarks read
../shared/data.
"""

from __future__ import annotations

from pathlib import Path

import pytest

TEST_DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture(scope="session")
def puzzle_data() -> Path:
    if not TEST_DATA.is_dir():
        pytest.fail(f"the test puzzle data is missing: expected {TEST_DATA}")
    return TEST_DATA
