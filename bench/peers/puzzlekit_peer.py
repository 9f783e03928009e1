"""Adapter for PuzzleKit (PyPI `puzzlekit`, an OR-Tools CP-SAT model per genre).

API: `puzzlekit.solver("nonogram", {"num_rows", "num_cols", "rows", "cols"})` builds a
`NonogramSolver` (clues as lists of digit strings, "0" for an empty line); `.solve(
{"time_limit_sec": S})` builds the CP-SAT model and solves it, returning a `PuzzleResult`
whose `solution_data["status"]` is Optimal/Feasible (one solution, cells "x"/"-" in
`sol_grid.matrix`), Infeasible (proof of no solution), Timeout or Unknown. It stops at the
first solution: no uniqueness check. CP-SAT runs with its default worker count (all cores).
The timed call includes building the CP-SAT model, not parsing or the import.
"""

from __future__ import annotations

import time

import puzzlekit
from common import arguments, emit


def clue_strings(runs: list[int]) -> list[str]:
    return [str(n) for n in runs] or ["0"]


def main() -> None:
    puzzle, limit = arguments()
    data = {
        "num_rows": puzzle.height,
        "num_cols": puzzle.width,
        "rows": [clue_strings(runs) for runs in puzzle.rows],
        "cols": [clue_strings(runs) for runs in puzzle.cols],
    }
    try:
        solver = puzzlekit.solver("nonogram", data)
        started = time.perf_counter()
        result = solver.solve({"time_limit_sec": limit})
        elapsed = time.perf_counter() - started
    except Exception as error:
        emit("error", None, None, error=f"{type(error).__name__}: {error}")
        return
    status = result.solution_data.get("status")
    if status in ("Optimal", "Feasible"):
        rows = ["".join("#" if v == "x" else "." for v in row) for row in result.sol_grid.matrix]
        emit("found", elapsed, rows)
    elif status == "Infeasible":
        emit("none", elapsed, None)
    elif status == "Timeout":
        emit("timeout", elapsed, None)
    else:
        emit("error", elapsed, None, error=f"puzzlekit status {status}")


if __name__ == "__main__":
    main()
