"""Shared test fixtures: where the test puzzle data lives.

The suite reads only tests/data (small samples of ../shared/data with their credits, see
tests/data/README.md), so it runs on a clone with nothing beside it. Benchmarks read
../shared/data.
"""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

TEST_DATA = Path(__file__).resolve().parent / "data"

# A suite started in the background by a non-interactive shell (`make test &`, nohup, some CI
# runners) inherits SIGINT ignored, and so would every process the tests start: the Ctrl-C
# tests would then wait for searches that never hear it. The tests play a user at a terminal,
# where Ctrl-C is heard: Python's own handler is put back (children then start with the default).
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session")
def puzzle_data() -> Path:
    if not TEST_DATA.is_dir():
        pytest.fail(f"the test puzzle data is missing: expected {TEST_DATA}")
    return TEST_DATA
