"""Whole lists at once: `sudoku.solve_many`, the kernel's batch call, the genre's batch hook
(`pencilbox solve LIST --jsonl`), with and without the compiled kernel."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pencilbox.errors import FormatError
from pencilbox.genres import sudoku
from pencilbox.genres.sudoku import batch, solver
from pencilbox.genres.sudoku.model import Sudoku
from pencilbox.genres.sudoku.solver import is_valid_solution, solve_values
from tests.genres.sudoku.test_solver import HARD, sample

needs_kernel = pytest.mark.skipif(solver.KERNEL_BATCH is None, reason="the C kernel is not built")

RECORD_KEYS = ("file", "line", "status", "solutions", "grade", "time_s", "stats", "error")
EMPTY = "." * 81
CLASH = "11" + "." * 79  # two 1s in row 1: no solution


def lines_of(puzzles: list[Sudoku]) -> list[str]:
    return [p.line() for p in puzzles]


def mixed_nine() -> list[Sudoku]:
    return [
        *sample("17clue_2000.txt", 12, seed=1),
        *sample("forum_hardest_1106.txt", 4, seed=1),
        *sample("kaggle_1000.csv", 6, seed=1),
    ]


def test_solve_many_agrees_with_one_at_a_time() -> None:
    puzzles = mixed_nine()
    lines = [*lines_of(puzzles), EMPTY, CLASH]
    many = sudoku.solve_many(lines)
    assert len(many) == len(lines)
    assert many.statuses == ["unique"] * len(puzzles) + ["multiple", "none"]
    for puzzle, (status, found) in zip(puzzles, many):
        assert status == "unique"
        expected = solve_values(puzzle.values(), 3, 2, kind="sat")
        assert [[int(ch) for ch in text] for text in found] == expected
    two = many.solutions[-2]
    assert len(two) == 2 and two[0] != two[1]
    assert all(is_valid_solution([int(ch) for ch in text], 3) for text in two)
    assert many.solutions[-1] == []
    assert min(many.nodes[: len(puzzles)]) >= 1


def test_solve_many_limit_and_symbols() -> None:
    kept = sudoku.solve_many([EMPTY, EMPTY.replace(".", "0")], limit=1)
    assert kept.statuses == ["multiple", "multiple"]  # still proven: two were found
    assert [len(found) for found in kept.solutions] == [1, 1]
    sixteen = sample("sudoku16_20.txt", 2, seed=4)
    many = sudoku.solve_many([p.line() for p in sixteen])
    assert many.statuses == ["unique", "unique"]
    for puzzle, found in zip(sixteen, many.solutions):
        assert found == [puzzle.solution_json(puzzle.solve().solutions[0])]
    lower = sudoku.solve_many([sixteen[0].line().lower()])
    assert lower.solutions == many.solutions[:1]
    assert sudoku.solve_many(["1..." + "." * 12]).statuses == ["multiple"]  # 4x4


def test_solve_many_refuses_bad_lines_by_number() -> None:
    good = sample("17clue_2000.txt", 2)
    with pytest.raises(FormatError, match=r"'x' is not a symbol of a 9x9 sudoku") as error:
        sudoku.solve_many([good[0].line(), "x" + good[1].line()[1:]])
    assert error.value.line == 2 and error.value.column == 1
    with pytest.raises(FormatError, match="80 symbols") as short:
        sudoku.solve_many([good[0].line(), good[1].line()[:80]])
    assert short.value.line == 2
    assert len(sudoku.solve_many([])) == 0


def test_time_limit_per_puzzle() -> None:
    assert sudoku.solve_many([HARD, EMPTY], time_limit=0.0).statuses == ["timeout"] * 2
    assert sudoku.solve_many([HARD], time_limit=30.0).statuses == ["unique"]


@needs_kernel
def test_kernel_batch_slices_and_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    assert solver.KERNEL_BATCH is not None
    puzzles = mixed_nine()
    data = b"".join(bytes(p.values()) for p in puzzles)
    done, found, *_ = solver.KERNEL_BATCH(data, 3, 0, 2, 0, 0.0, False, 0.0)
    assert done == 1 and len(found) == 4  # a zero-second slice still solves one puzzle
    monkeypatch.setattr(solver, "SLICE_SECONDS", 0.0)
    parts = list(solver.kernel_slices(data, 3, 2, None, singles=True))
    assert [part.first for part in parts] == list(range(len(puzzles)))
    with pytest.raises(ValueError, match="whole grids"):
        solver.KERNEL_BATCH(data[:-1], 3, 0, 2, 0, 0.0, False, 1.0)
    with pytest.raises(ValueError, match=r"0\.\.9"):
        solver.KERNEL_BATCH(bytes([10] * 81), 3, 0, 2, 0, 0.0, False, 1.0)
    with pytest.raises(ValueError, match="box size"):
        solver.KERNEL_BATCH(bytes(36**2), 6, 0, 2, 0, 0.0, False, 1.0)


@needs_kernel
def test_budget_past_the_kernel_goes_to_sat(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(solver.KERNEL_BUDGET, 3, 3)
    many = sudoku.solve_many([HARD, sample("kaggle_1000.csv", 1)[0].line()])
    assert many.statuses == ["unique", "unique"]
    assert many.solutions[0] == sudoku.solve_many([HARD]).solutions[0]
    results = list(batch.solve_puzzles([sudoku.read(HARD)]))
    assert results[0].stats == {"kernel_nodes": 4, "engine": "sat"}
    assert results[0].grade == "search"


def same_result(puzzle: Sudoku, found: Any) -> None:
    """A batch result is what Sudoku.solve gives, but for time and search nodes."""
    alone = puzzle.solve()
    assert (found.status, found.solutions, found.grade) == (
        alone.status,
        alone.solutions,
        alone.grade,
    )
    assert list(found.stats) == list(alone.stats)
    assert {k: v for k, v in found.stats.items() if k != "nodes"} == {
        k: v for k, v in alone.stats.items() if k != "nodes"
    }


def test_genre_batch_hook_gives_what_solve_gives() -> None:
    puzzles = [
        *mixed_nine(),
        *sample("qqwing_simple.sdm", 4),
        *sample("sudoku16_20.txt", 2),
        *sample("sudoku25_5.txt", 1),
        *sample("17clue_2000.txt", 2, seed=9),
        sudoku.read(EMPTY),
    ]
    results = list(sudoku.GENRE.solve_many(puzzles))  # type: ignore[misc]
    assert len(results) == len(puzzles)
    for puzzle, found in zip(puzzles, results):
        same_result(puzzle, found)
    grades = {r.grade for r in results}
    assert {"singles", "search"} <= grades


def test_fallback_without_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """No compiler at install: the same answers one puzzle at a time in Python."""
    monkeypatch.setattr(solver, "KERNEL", None)
    monkeypatch.setattr(solver, "KERNEL_BATCH", None)
    puzzles = [*sample("17clue_2000.txt", 3), *sample("kaggle_1000.csv", 3)]
    many = sudoku.solve_many([*lines_of(puzzles), CLASH])
    assert many.statuses == ["unique"] * len(puzzles) + ["none"]
    for puzzle, found in zip(puzzles, many.solutions):
        assert found == [puzzle.solution_json(puzzle.solve().solutions[0])]
    for puzzle, result in zip(puzzles, sudoku.GENRE.solve_many(puzzles)):  # type: ignore[misc]
        assert result.stats["engine"] in ("bitboard", "sat")
        same_result(puzzle, result)
    with pytest.raises(RuntimeError):
        list(solver.kernel_slices(b"", 3, 2, None, False))


def write_list(tmp_path: Path, puzzles: list[Sudoku]) -> Path:
    path = tmp_path / "list.txt"
    lines = lines_of(puzzles)
    bad = HARD[:-1]  # 80 cells: an error record in its place, and the batch goes on
    path.write_text("# a list\n" + "\n".join([*lines[:2], bad, *lines[2:]]) + "\n")
    return path


def cli(*args: str, prelude: str = "") -> subprocess.CompletedProcess[str]:
    code = f"{prelude}\nimport sys\nfrom pencilbox.cli import main\nsys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300
    )


def strip(record: dict[str, Any]) -> dict[str, Any]:
    """A record without what differs between runs (time, search nodes)."""
    stats = {k: v for k, v in record["stats"].items() if k != "nodes"}
    return {**record, "time_s": None, "stats": stats}


def test_cli_list_records_match_with_and_without_the_kernel(tmp_path: Path) -> None:
    puzzles = [*sample("17clue_2000.txt", 4, seed=2), *sample("qqwing_simple.sdm", 2)]
    path = write_list(tmp_path, puzzles)
    fast = cli("solve", str(path), "--jsonl")
    records = [json.loads(line) for line in fast.stdout.splitlines()]
    assert fast.returncode == 2, fast.stderr  # the bad line
    assert [r["line"] for r in records] == [2, 3, 4, 5, 6, 7, 8]
    assert records[2]["error"]
    assert [r["status"] for r in records] == ["unique"] * 2 + ["error"] + ["unique"] * 4
    alone = [puzzle.solve() for puzzle in puzzles]
    solved = [r for r in records if r["status"] != "error"]
    for record, puzzle, result in zip(solved, puzzles, alone):
        assert record["solutions"] == [puzzle.solution_json(g) for g in result.solutions]
        assert record["grade"] == result.grade
        if solver.KERNEL is not None:
            assert record["stats"]["engine"] == "kernel"
        assert list(record) == [*RECORD_KEYS]
    slow = cli(
        "solve",
        str(path),
        "--jsonl",
        prelude="import sys; sys.modules['pencilbox.genres.sudoku._kernel'] = None",
    )
    fallback = [json.loads(line) for line in slow.stdout.splitlines()]
    assert slow.returncode == 2, slow.stderr
    assert {r["stats"].get("engine") for r in fallback if r["stats"]} <= {"bitboard", "sat"}
    for a, b in zip(records, fallback):
        assert {**strip(a), "stats": None} == {**strip(b), "stats": None}
    jobs = cli("solve", str(path), "--jsonl", "--jobs", "2")
    assert [strip(json.loads(line)) for line in jobs.stdout.splitlines()] == [
        strip(r) for r in records
    ]


def test_ctrl_c_ends_a_list_with_an_interrupted_record(tmp_path: Path) -> None:
    import signal
    import time

    hard = lines_of(sample("forum_hardest_1106.txt", 20, seed=3))
    path = tmp_path / "long.txt"
    path.write_text("\n".join(hard * 1500) + "\n")  # 30,000 hard puzzles: 1 s to read, 4 to solve
    output = tmp_path / "records.jsonl"  # a file, not a pipe: a full pipe would stall it
    with output.open("w") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "pencilbox.cli", "solve", str(path), "--jsonl"],
            stdout=sink,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        try:
            # Ctrl-C once the first records are out (solving has begun): a fixed amount of CPU
            # was still reading the list on a slower machine, and no record was solved yet
            deadline = time.monotonic() + 120
            while not output.stat().st_size and process.poll() is None:
                assert time.monotonic() < deadline, "no record in 120 s"
                time.sleep(0.01)
            process.send_signal(signal.SIGINT)
            _, err = process.communicate(timeout=60)
        finally:
            process.kill()
    out = output.read_text()
    records = [json.loads(line) for line in out.splitlines()]
    assert process.returncode == 130 and "Traceback" not in err
    assert 0 < len(records) < 30_000
    assert [r["line"] for r in records] == list(range(1, len(records) + 1))
    *solved, last = records
    assert {r["status"] for r in solved} == {"unique"}
    # Ctrl-C in the search ends with the puzzle it stopped; while a record was being printed,
    # the list just ends (as for single puzzles)
    assert last["status"] == "unique" or (
        last["status"] == "timeout" and last["stats"]["interrupted"] == 1
    )
