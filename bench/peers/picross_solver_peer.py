"""Adapter for picross-solver (PyPI `picross-solver`, pure Python + numpy).

API (picross_solver/picross_solver.py): `solve(row_clues, col_clues, grid)` fills a numpy grid
of -1 (unknown) in place with 0/1 by line solving plus depth-first guessing, and returns True
at the FIRST complete grid it reaches, False when every guess failed. So it finds one
solution (no uniqueness check); False is meant to prove that there is none (the benchmark
checks that claim against the puzzle's known verdict like any other answer). It has no
time limit of its own: the benchmark kills the process. Its recursion (one frame per guess and
per block shift) needs a high recursion limit and a big thread stack on large grids.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import Any

import numpy as np
from common import PeerPuzzle, arguments, emit
from picross_solver import picross_solver


def run(puzzle: PeerPuzzle, out: dict[str, Any]) -> None:
    grid = np.full((puzzle.height, puzzle.width), -1)
    started = time.perf_counter()
    solved = picross_solver.solve(puzzle.rows, puzzle.cols, grid)
    out["time_s"] = time.perf_counter() - started
    out["solved"] = bool(solved)
    out["grid"] = grid


def main() -> None:
    puzzle, _limit = arguments()  # no time limit in picross-solver; the caller kills us
    out: dict[str, Any] = {}
    errors: list[BaseException] = []

    def target() -> None:
        try:
            run(puzzle, out)
        except BaseException as error:  # report any failure as one JSON line
            errors.append(error)

    sys.setrecursionlimit(1_000_000)
    threading.stack_size(1024 * 1024 * 1024)
    worker = threading.Thread(target=target)
    worker.start()
    worker.join()
    if errors:
        emit("error", None, None, error=f"{type(errors[0]).__name__}: {errors[0]}")
        return
    if not out["solved"]:
        emit("none", out["time_s"], None)
        return
    rows = ["".join("#" if v == 1 else "." if v == 0 else "?" for v in row) for row in out["grid"]]
    emit("found", out["time_s"], rows)


if __name__ == "__main__":
    main()
