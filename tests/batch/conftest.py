"""Helpers for the batch tests: the command as a user runs it, and its output file."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

PENCILBOX = [sys.executable, "-m", "pencilbox.cli"]


def run_batch(*args: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*PENCILBOX, "batch", *args], capture_output=True, text=True, timeout=timeout
    )


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def wait_for_records(path: Path, count: int, process: subprocess.Popen[str]) -> int:
    """Wait until the output holds `count` complete records (or the batch ended); returns how
    many it holds. Waits on the file, never on the clock, within a generous bound."""
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        done = path.read_bytes().count(b"\n") if path.exists() else 0
        if done >= count or process.poll() is not None:
            return done
        time.sleep(0.02)
    raise AssertionError(f"no {count} records in {path} within 180 s")


def children(pid: int) -> list[int]:
    """The processes `pid` started (Linux /proc)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(p) for p in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def kill_quietly(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


@pytest.fixture
def list_file(tmp_path: Path, puzzle_data: Path) -> Path:
    """40 sudokus (with a bad line in the middle)."""
    lines = (puzzle_data / "sudoku" / "norvig_top95.txt").read_text().splitlines()[:40]
    lines.insert(20, "this is not a sudoku")
    path = tmp_path / "top.txt"
    path.write_text("\n".join(lines) + "\n")
    return path
