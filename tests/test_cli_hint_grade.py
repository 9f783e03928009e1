"""`pencilbox hint` and `pencilbox grade`, run as a user would, for both genres."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import TEST_DATA

LEVELS = ("easy", "medium", "hard", "unfair", "extreme")


def pencilbox(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pencilbox.cli", *args], capture_output=True, text=True, timeout=300
    )


def test_grade_jsonl_on_a_sudoku_list(tmp_path: Path) -> None:
    lines = (TEST_DATA / "sudoku/qqwing_expert.sdm").read_text().splitlines()[:4]
    lines.insert(2, "123")  # a bad line in the middle: reported, the batch goes on
    puzzles = tmp_path / "four.sdm"
    puzzles.write_text("\n".join(lines) + "\n")
    run = pencilbox("grade", str(puzzles), "--jsonl")
    assert run.returncode == 2
    records = [json.loads(line) for line in run.stdout.splitlines()]
    assert [r["line"] for r in records] == [1, 2, 3, 4, 5]
    for record in records[:2] + records[3:]:
        assert set(record) == {"line", "level", "score", "hardest", "solved_by_logic", "time_s"}
        assert record["level"] in LEVELS and record["score"] > 0
        assert isinstance(record["hardest"], str)
    assert records[2]["level"] is None and "cells" in records[2]["error"]


def test_hint_levels_for_sudoku(tmp_path: Path) -> None:
    first = (TEST_DATA / "sudoku/qqwing_simple.sdm").read_text().splitlines()[0]
    puzzle = tmp_path / "one.sdm"
    puzzle.write_text(first + "\n")
    one, two, three = (pencilbox("hint", str(puzzle), "--level", str(n)) for n in (1, 2, 3))
    assert all(run.returncode == 0 for run in (one, two, three))
    assert "single" in one.stdout.lower() or "house" in one.stdout.lower()
    assert "r" in two.stdout and "c" in two.stdout
    assert len(three.stdout) > len(one.stdout)


def test_hint_and_grade_for_a_nonogram() -> None:
    seed = TEST_DATA / "nonogram/seed/seed-a.json"
    assert pencilbox("hint", str(seed), "--level", "2").stdout.startswith("Look at row")
    assert "every placement" in pencilbox("hint", str(seed), "--level", "3").stdout
    assert pencilbox("grade", str(seed)).stdout.startswith("probe")
