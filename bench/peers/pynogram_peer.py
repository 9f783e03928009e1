"""Adapter for pynogram (tsionyx/pynogram, pure Python + numpy), the colour benchmark's peer.

pynogram is not on the package index this machine reaches, so the benchmark runs it only when
given a Python that can import it (`--pynogram-python`, or PENCILBOX_PYNOGRAM_PYTHON, with
PYTHONPATH pointing at a checkout when it is not installed); nothing here installs it.

    python pynogram_peer.py PUZZLE.json TIME_LIMIT_S [REPEAT]

PUZZLE.json is pencilbox's colour JSON (`colors`, clues as [count, "colour"]). The adapter
writes pynogram's INI text itself (colours `c1`, `c2`... with symbols pynogram's INI reader
accepts: it takes `#` and `;` for comments), builds its board and runs its Solver with
max_solutions=2 (pynogram's own validation mode: it stops at the second solution) and its own
timeout, REPEAT times on a fresh board (the best time is reported, as pencilbox's is; runs
over a second are not repeated). Prints one JSON line: status found / none / timeout / error,
time_s of the solve call only (CPU time, the best of the runs), the solutions found as rows of
the puzzle's colour characters, and their count.
"""

from __future__ import annotations

import inspect
import io
import json
import logging
import sys
import time
from collections import namedtuple
from pathlib import Path
from typing import Any

# pynogram's `memoized` dependency calls inspect.getargspec, which Python 3.11 no longer has.
_ArgSpec = namedtuple("_ArgSpec", "args varargs keywords defaults")
if not hasattr(inspect, "getargspec"):
    inspect.getargspec = lambda func: _ArgSpec(*inspect.getfullargspec(func)[:4])  # type: ignore[attr-defined]

SYMBOLS = "*%&+=@$~^!"


def ini_text(data: dict[str, Any]) -> tuple[str, dict[str, str]]:
    """pynogram's INI for the puzzle, and pynogram colour name -> the puzzle's character."""
    names = list(data["colors"])
    key = {name: f"c{i + 1}" for i, name in enumerate(names)}
    lines = ["[colors]"]
    for i, name in enumerate(names):
        entry = data["colors"][name]
        lines.append(f"{key[name]} = ({entry['hex'].lstrip('#')}) {SYMBOLS[i % len(SYMBOLS)]}")
    lines.append("[clues]")
    for section, clues in (("columns", data["cols"]), ("rows", data["rows"])):
        lines.append(f"{section} =")
        for clue in clues:
            runs = " ".join(f"{count}{key[colour]}" for count, colour in clue)
            # pynogram counts a bare 0 as a run of black, which its colour check then refuses.
            lines.append(f"    {runs or '0' + key[names[0]]}")
    chars = {key[name]: data["colors"][name]["char"] for name in names}
    return "\n".join(lines) + "\n", chars


def solve_once(text: str, limit: float) -> tuple[Any, float, float, BaseException | None]:
    """The board, the CPU and the wall seconds of its solve call, and the error it raised."""
    from pynogram.core.backtracking import Solver
    from pynogram.core.board import make_board
    from pynogram.reader import read_ini

    board = make_board(*read_ini(io.StringIO(text)))
    solver = Solver(board, max_solutions=2, timeout=limit)
    cpu, wall = time.process_time(), time.perf_counter()
    try:
        solver.solve()
    except Exception as error:  # its timeout and its contradictions surface as exceptions
        return board, time.process_time() - cpu, time.perf_counter() - wall, error
    return board, time.process_time() - cpu, time.perf_counter() - wall, None


def main() -> None:
    path, limit = sys.argv[1], float(sys.argv[2])
    repeat = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    logging.disable(logging.CRITICAL)
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    text, chars = ini_text(data)
    best = float("inf")
    for _ in range(repeat):
        board, cpu, elapsed, error = solve_once(text, limit)
        best = min(best, cpu)
        if error is not None:
            status = "timeout" if elapsed >= limit * 0.95 else "error"
            print(json.dumps({"status": status, "time_s": cpu, "error": repr(error)[:200]}))
            return
        if elapsed > 1.0:
            break
    by_id = board.color_map.by_id

    def rows(cells: Any) -> list[str]:
        return [
            "".join(chars.get(by_id[int(v)].name, ".") if int(v) in by_id else "?" for v in row)
            for row in cells
        ]

    if board.is_solved_full:
        solutions = [rows(board.cells)]
    else:
        solutions = [rows(cells) for cells in board.solutions]
    timed_out = elapsed >= limit * 0.95 and len(solutions) < 2
    status = "timeout" if timed_out else "found" if solutions else "none"
    line = {"status": status, "time_s": best, "solutions": solutions, "count": len(solutions)}
    print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
