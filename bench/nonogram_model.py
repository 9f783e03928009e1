"""The independent model's verdict on one black-and-white puzzle file, for bench/nonogram.py.

The automaton model of the tests (tests/genres/nonogram/colour_automaton.py: each line a
layered automaton over its cells, solved by python-sat's MiniSat; no code of pencilbox's
solver) reads the puzzle as one colour on a background and looks for two solutions. It runs in
its own process so that the benchmark can stop it after a time limit (MiniSat cannot be
interrupted from Python). Prints one JSON line: {"count": 0 | 1 | 2, "time_s": float}.

    python bench/nonogram_model.py PUZZLE.json
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.genres.nonogram import colour_automaton  # noqa: E402


def main() -> None:
    data = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    rows = [tuple((n, 1) for n in runs if n > 0) for runs in data["rows"]]
    cols = [tuple((n, 1) for n in runs if n > 0) for runs in data["cols"]]
    started = time.process_time()
    count, _ = colour_automaton.count_solutions(rows, cols, 2)
    print(json.dumps({"count": count, "time_s": time.process_time() - started}), flush=True)


if __name__ == "__main__":
    main()
