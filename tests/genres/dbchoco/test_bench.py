"""The Double Choco benchmark's reading of its own committed table (bench/dbchoco.py
`--before REF` sets those figures beside a new run) and its warning on thin human medians."""

from __future__ import annotations

import subprocess
from types import ModuleType

import pytest

from pencilbox.genres.dbchoco.formats import read
from pencilbox.genres.dbchoco.model import DoubleChoco, Walls
from pencilbox.genres.dbchoco.solve import solve
from tests.benches import ROOT, load_bench

TABLE = ROOT / "bench" / "results" / "dbchoco.md"
SIX = "https://puzz.link/p?dbchoco/6/6/vj801ovgk4r4g4l2h3j2"
"""asSqr_puzz_sqr_01_6x6 of the shared data: a real 6x6 with one answer."""


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_bench("dbchoco")


def _committed(ref: str) -> str:
    shown = subprocess.run(
        ["git", "show", f"{ref}:bench/results/dbchoco.md"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if shown.returncode:
        pytest.skip(f"no git history with {ref} here")
    return shown.stdout


def test_a_table_with_before_columns_reads_its_own_cpu_column(bench: ModuleType) -> None:
    # 9596ca0's table has the two "before" columns at its end: the median CPU column must
    # not be taken from the end (that gave "<= 5 s: NOT met" as a CPU figure)
    figures = bench.generation_figures(_committed("9596ca0"))
    assert figures[("10x10", "contradiction")] == ("12", "5.06")
    assert figures[("16x16", "placement")] == ("31", "51.27")
    assert figures[("6x6", "local")] == ("10", "0.32")
    assert len(figures) == 11


def test_a_table_without_before_columns_reads_the_same_way(bench: ModuleType) -> None:
    figures = bench.generation_figures(_committed("df06ac5"))
    assert figures[("10x10", "placement")] == ("13", "3.62")
    assert figures[("16x16", "placement")] == ("31", "55.56")
    assert all(cpu.replace(".", "").isdigit() for _, cpu in figures.values())


def test_the_table_in_the_checkout_reads_back_every_row(bench: ModuleType) -> None:
    text = TABLE.read_text()
    figures = bench.generation_figures(text)
    section = text.split(bench.GENERATION_HEADING, 1)[1].split("\n\n| size | human", 1)[0]
    rows = [
        [cell.strip() for cell in line.strip("|").split("|")]
        for line in section.splitlines()
        if line.startswith("| ")
    ]
    made = [row for row in rows if row[1] in bench.GRADES]
    assert len(figures) == len(made) == len(rows) - 1 > 0  # all but the header
    for size, level, _made, clues, *_ in made:
        assert figures[(size, level)][0] == clues
        float(figures[(size, level)][1])  # a number, not a target's verdict


def test_the_human_median_warning_names_the_in_repo_puzzles(bench: ModuleType) -> None:
    puzzle = read(SIX)
    solved = bench.Entry("shared", "six", puzzle, SIX)
    solved.results["walls"] = _answer(puzzle)
    unsolved = bench.Entry("outside", "six again", puzzle, SIX, in_repo=False)
    unsolved.results["walls"] = None  # no single answer: not among the human figures
    warning = bench.in_repo_warning([solved, unsolved])
    assert warning is not None and "only from the 1 puzzles in the repository" in warning
    outside = bench.Entry("outside", "six", puzzle, SIX, in_repo=False)
    outside.results["walls"] = _answer(puzzle)
    assert bench.in_repo_warning([solved, outside]) is None


def _answer(puzzle: DoubleChoco) -> Walls:
    result = solve(puzzle, limit=2, with_grade=False)
    assert result.status == "unique"
    answer: Walls = result.solutions[0]
    return answer
