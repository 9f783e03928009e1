"""The compiled kernel (_kernel.c) against the pure-Python engines, its budgets, and the
fallback when it is not built."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from pencilbox.core.timing import Deadline, TimeLimitReached
from pencilbox.genres.sudoku import solver
from pencilbox.genres.sudoku.formats import read
from pencilbox.genres.sudoku.solver import (
    BitboardSolver,
    is_valid_solution,
    singles_solve,
    solve_values,
)
from tests.genres.sudoku.test_solver import DATA, HARD, sample

KERNEL = solver.KERNEL
needs_kernel = pytest.mark.skipif(KERNEL is None, reason="the C kernel is not built")


def test_the_kernel_is_built_where_there_is_a_compiler() -> None:
    # the kernel tests skip only on machines that cannot build it; here a failed build fails
    if shutil.which("cc") or shutil.which("gcc"):
        assert KERNEL is not None, "a C compiler is present but the Sudoku kernel was not built"


NINE = (
    "17clue_2000.txt",
    "forum_hardest_1106.txt",
    "hodoku_exemplars-1.0.txt",
    "hodoku_reglib-1.3.txt",
    "kaggle_1000.csv",
    "magictour_top1465.txt",
    "norvig_easy50.txt",
    "norvig_hardest.txt",
    "norvig_top95.txt",
    "qqwing_easy.sdm",
    "qqwing_expert.sdm",
    "qqwing_intermediate.sdm",
    "qqwing_simple.sdm",
    "sudocue_learningcurve.sdm",
)
BIG = ("sudoku16_20.txt", "sudoku25_5.txt")


def test_every_shared_file_is_covered() -> None:
    assert sorted(p.name for p in DATA.iterdir()) == sorted(NINE + BIG)


def distinct_valid(solutions: list[list[int]], n: int, givens: list[int]) -> bool:
    return len({tuple(s) for s in solutions}) == len(solutions) and all(
        is_valid_solution(s, n, givens) for s in solutions
    )


@needs_kernel
@pytest.mark.parametrize("name", NINE)
def test_kernel_agrees_with_bitboards_on_every_nine_by_nine_file(name: str) -> None:
    assert KERNEL is not None
    bitboard = BitboardSolver(3)
    for puzzle in sample(name, 6, seed=11):
        givens = puzzle.values()
        found, nodes, stop, by_singles = KERNEL(givens, 3, 2, 0, 0.0)
        assert stop == 0 and nodes >= 1
        assert found == bitboard.solve(givens, 2) and len(found) == 1, puzzle.line()
        # The grade's "singles" flag means what the bitboards' root node means.
        assert by_singles == (bitboard.solve(givens, 1, max_nodes=1) is not None)
        if puzzle.solution is not None:
            assert found[0] == list(puzzle.solution.cells)


@needs_kernel
def test_kernel_agrees_with_sat_on_sixteen_and_twenty_five() -> None:
    assert KERNEL is not None
    for name, n, count in (("sudoku16_20.txt", 4, 5), ("sudoku25_5.txt", 5, 5)):
        for puzzle in sample(name, count, seed=5):
            givens = puzzle.values()
            found, _, stop, _ = KERNEL(givens, n, 2, 0, 0.0)
            assert stop == 0
            assert found == solve_values(givens, n, 2, kind="sat") and len(found) == 1
            if n == 5:
                assert found == BitboardSolver(n).solve(givens, 2)


@needs_kernel
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_multiple_and_none(n: int) -> None:
    size = n * n
    cells = size * size
    empty = [0] * cells
    for kind in ("auto", "kernel"):
        stats: dict[str, Any] = {}
        two = solve_values(empty, n, 2, kind=kind, stats=stats)
        assert len(two) == 2 and distinct_valid(two, n, empty)
        assert stats["engine"] == "kernel" and stats["singles"] is False
    # Row 1 holds 1..N-1 and the last column elsewhere holds N: r1cN has no digit left.
    none = [*range(1, size), 0, *([0] * (size - 1)), size, *([0] * (cells - 2 * size))]
    clash = [1, 1, *([0] * (cells - 2))]  # two 1s in a row
    for givens in (none, clash):
        assert solve_values(givens, n, 2, kind="kernel") == []
        assert solve_values(givens, n, 2, kind="sat") == []


@needs_kernel
def test_limits_every_four_by_four_grid() -> None:
    """All 288 4x4 grids, through the growing solution buffer; limit 1 stops at one."""
    assert KERNEL is not None
    found, _, stop, _ = KERNEL([0] * 16, 2, 1000, 0, 0.0)
    assert stop == 0 and len(found) == 288 and distinct_valid(found, 2, [0] * 16)
    assert len(KERNEL([0] * 16, 2, 1, 0, 0.0)[0]) == 1
    assert len(solve_values([0] * 16, 2, 5)) == 5


@needs_kernel
def test_node_budget_hands_over_to_sat(monkeypatch: pytest.MonkeyPatch) -> None:
    assert KERNEL is not None
    givens = read(HARD).values()
    found, nodes, stop, _ = KERNEL(givens, 3, 2, 3, 0.0)
    assert (found, nodes, stop) == ([], 4, 1)
    monkeypatch.setitem(solver.KERNEL_BUDGET, 3, 3)
    stats: dict[str, Any] = {}
    answer = solve_values(givens, 3, 2, stats=stats)
    assert stats["engine"] == "sat" and stats["kernel_nodes"] == 4 and "singles" not in stats
    assert answer == solve_values(givens, 3, 2, kind="kernel") and len(answer) == 1
    assert read(HARD).solve().grade == "search"


@needs_kernel
def test_time_budget() -> None:
    assert KERNEL is not None
    # Every 9x9 grid is too many: the clock stops the enumeration. (No count of nodes is
    # asserted: on a loaded machine the process may get almost none of its 50 ms.)
    found, nodes, stop, _ = KERNEL([0] * 81, 3, 10**6, 0, 0.05)
    assert stop == 2 and 0 < len(found) < 10**6 and nodes > 0
    assert distinct_valid(found[:50], 3, [0] * 81)
    with pytest.raises(TimeLimitReached):
        solve_values(read(HARD).values(), 3, 2, Deadline(0.0))
    assert read(HARD).solve(time_limit=0.0).status == "timeout"


@needs_kernel
def test_bad_input() -> None:
    assert KERNEL is not None
    with pytest.raises(ValueError):
        KERNEL([0] * 80, 3, 2, 0, 0.0)
    with pytest.raises(ValueError):
        KERNEL([0] * 36**2, 6, 2, 0, 0.0)
    with pytest.raises(ValueError):
        KERNEL([10] + [0] * 80, 3, 2, 0, 0.0)
    with pytest.raises(ValueError):
        KERNEL([0] * 81, 3, 0, 0, 0.0)
    with pytest.raises(TypeError):
        KERNEL(["1", *([0] * 80)], 3, 2, 0, 0.0)


@needs_kernel
def test_threads_share_the_kernel() -> None:
    """The search runs without the GIL: threads at once get the answers of one at a time."""
    boards = [p.values() for p in sample("magictour_top1465.txt", 24, seed=2)]
    alone = [solve_values(b, 3) for b in boards]
    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(solve_values, boards, [3] * len(boards))) == alone


@needs_kernel
def test_batch_mode_uses_the_kernel(tmp_path: Any) -> None:
    lines = (DATA / "forum_hardest_1106.txt").read_text().splitlines()
    path = tmp_path / "list.txt"
    path.write_text("\n".join([line for line in lines if not line.startswith("#")][:20]) + "\n")
    run = subprocess.run(
        [sys.executable, "-m", "pencilbox.cli", "solve", str(path), "--jsonl"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    records = [json.loads(line) for line in run.stdout.splitlines()]
    assert records and all(r["status"] == "unique" for r in records), run.stderr
    assert {r["stats"]["engine"] for r in records} == {"kernel"}


def test_fallback_without_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the extension missing (no compiler at install), the pure-Python engines answer."""
    monkeypatch.setattr(solver, "KERNEL", None)
    for name, n, count in (
        ("17clue_2000.txt", 3, 4),
        ("kaggle_1000.csv", 3, 4),
        ("sudoku16_20.txt", 4, 1),
        ("sudoku25_5.txt", 5, 1),
    ):
        for puzzle in sample(name, count, seed=7):
            stats: dict[str, Any] = {}
            found = solve_values(puzzle.values(), n, 2, stats=stats)
            assert len(found) == 1 and stats["engine"] in ("bitboard", "sat")
            result = puzzle.solve()
            assert result.status == "unique" and result.stats["engine"] != "kernel"
    easy = sample("qqwing_simple.sdm", 1)[0]
    assert singles_solve(easy.values(), 3) is not None
    assert singles_solve(read(HARD).values(), 3) is None
    with pytest.raises(RuntimeError):
        solve_values(read(HARD).values(), 3, kind="kernel")
