"""Run one PyPI Sudoku peer on a list of puzzles; used by bench/sudoku.py, run by the peers' venv.

    bench/.venv-peers-sudoku/bin/python bench/sudoku_peers.py ENGINE SECONDS < puzzles.txt

ENGINE is py-sudoku, dlxsudoku or pencilmark; the puzzles are 81-character lines ('.' blank).
Each peer is asked for its solution and its uniqueness verdict, the way its API offers:
  - py-sudoku 2.0.0: `Sudoku(3, 3, board).solve()` then `has_multiple_solutions()` (its own
    check: two backtracking fills, ascending and descending);
  - dlxsudoku 0.10.3: `Sudoku(text).solve()` (singles, then dancing links, which raises when
    it finds a second solution);
  - pencilmark 1.0.0rc1: `pencilmark.solve(text)` (its C++ search, limit 2; raises NotUnique).
Stops after SECONDS of solving (the rate covers the puzzles done). Prints one JSON object:
{"engine", "done", "seconds", "failures"}; a failure is an exception, a wrong verdict or a grid
that breaks a rule.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

# bench/sudoku.py would shadow py-sudoku's `sudoku` package: drop this folder from the path.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]


def _valid(values: list[int], givens: list[int]) -> bool:
    units = (
        [[r * 9 + c for c in range(9)] for r in range(9)]
        + [[r * 9 + c for r in range(9)] for c in range(9)]
        + [
            [(br * 3 + r) * 9 + bc * 3 + c for r in range(3) for c in range(3)]
            for br in range(3)
            for bc in range(3)
        ]
    )
    if any(g and g != v for g, v in zip(givens, values)):
        return False
    return all(sorted(values[c] for c in unit) == list(range(1, 10)) for unit in units)


def _py_sudoku(line: str) -> list[int]:
    from sudoku import Sudoku

    board = [
        [int(ch) if ch.isdigit() and ch != "0" else None for ch in line[r * 9 : r * 9 + 9]]
        for r in range(9)
    ]
    puzzle = Sudoku(3, 3, board=board)
    solved = puzzle.solve()
    if puzzle.has_multiple_solutions():
        raise ValueError("reported multiple solutions")
    return [v or 0 for row in solved.board for v in row]


def _dlxsudoku(line: str) -> list[int]:
    from dlxsudoku import Sudoku

    puzzle = Sudoku(line.replace(".", "0"))
    puzzle.solve()
    return [int(v) for row in puzzle.row_iter() for v in row]


def _pencilmark(line: str) -> list[int]:
    import pencilmark

    return [int(v) for v in pencilmark.solve(line)]


ENGINES: dict[str, Any] = {
    "py-sudoku": _py_sudoku,
    "dlxsudoku": _dlxsudoku,
    "pencilmark": _pencilmark,
}


def main() -> int:
    engine, seconds = sys.argv[1], float(sys.argv[2])
    solve = ENGINES[engine]
    lines = [ln.strip() for ln in sys.stdin if ln.strip()]
    done = failures = 0
    spent = 0.0
    for line in lines:
        givens = [int(ch) if ch.isdigit() else 0 for ch in line]
        started = time.perf_counter()
        try:
            values = solve(line)
            ok = _valid(values, givens)
        except Exception:  # a peer's own exceptions count as failures
            ok = False
        spent += time.perf_counter() - started
        done += 1
        failures += not ok
        if spent > seconds:
            break
    print(json.dumps({"engine": engine, "done": done, "seconds": spent, "failures": failures}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
