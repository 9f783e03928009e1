"""Shared test fixtures: where the test puzzle data lives.

The suite reads only tests/data (small samples of ../shared/data with their credits, see
tests/data/README.md), so it runs on a clone with nothing beside it. Benchmarks read
../shared/data.
"""

from __future__ import annotations

import re
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


PROCESS_MODULES = {
    "tests/web/test_kill.py",
    "tests/web/test_restart.py",
    "tests/web/test_busy.py",
    "tests/web/test_jobs.py",
    "tests/web/test_stream.py",
    "tests/batch/test_local.py",
    "tests/batch/test_dask.py",
}
"""Modules whose tests start processes and wait on them (servers, pools, workers killed)."""
PROCESS_TESTS = re.compile(r"ctrl_c|kill|time_limit|timeout|interrupt|restart|deadline")
"""Tests elsewhere that wait on a process or a clock: Ctrl-C, kill -9, time limits."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the process tests (`-m process`): with the browser tests they are what
    `make soak-tests` runs again and again under load, to find a test that waits for a time
    instead of a state."""
    root = Path(str(config.rootpath))
    for item in items:
        module = Path(str(item.path)).relative_to(root).as_posix()
        if module in PROCESS_MODULES or PROCESS_TESTS.search(item.name):
            item.add_marker(pytest.mark.process)
