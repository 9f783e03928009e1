"""Shared by the peer adapters: read one puzzle JSON, print one JSON line.

Adapters run inside `bench/.venv-peers` (not pencilbox's venv) as
`python bench/peers/<peer>.py PUZZLE.json [TIME_LIMIT_S]` and print exactly one line:
`{"status": "found" | "none" | "timeout" | "error", "time_s": float | null,
"solution": ["#..#", ...] | null, ...}`. `time_s` covers the peer's solve call only.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

DEFAULT_TIME_LIMIT_S = 10.0


class PeerPuzzle:
    """The clues of one puzzle file, with empty lines as empty lists."""

    def __init__(self, path: str) -> None:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        self.rows: list[list[int]] = [[n for n in runs if n > 0] for runs in data["rows"]]
        self.cols: list[list[int]] = [[n for n in runs if n > 0] for runs in data["cols"]]
        self.width = int(data.get("width", len(self.cols)))
        self.height = int(data.get("height", len(self.rows)))


def arguments() -> tuple[PeerPuzzle, float]:
    if len(sys.argv) not in (2, 3):
        sys.exit(f"usage: {sys.argv[0]} PUZZLE.json [TIME_LIMIT_S]")
    limit = float(sys.argv[2]) if len(sys.argv) == 3 else DEFAULT_TIME_LIMIT_S
    return PeerPuzzle(sys.argv[1]), limit


def emit(status: str, time_s: float | None, solution: list[str] | None, **extra: Any) -> None:
    line = {"status": status, "time_s": time_s, "solution": solution, **extra}
    print(json.dumps(line), flush=True)
