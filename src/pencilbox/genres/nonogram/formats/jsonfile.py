"""The JSON files of the shared data: keys `rows`, `cols` (lists of runs), optional `solution`
(strings of `#` and `.`), `name`/`title`, and descriptive fields kept as they are."""

from __future__ import annotations

import json
from typing import Any

from pencilbox.core.grid import Grid
from pencilbox.core.notation import json_kind, json_object
from pencilbox.errors import FormatError
from pencilbox.genres.nonogram.model import (
    DEFAULT_MAX_SIZE,
    Nonogram,
    grid_from_strings,
    grid_to_strings,
    make_puzzle,
)

_META_KEYS = ("author", "copyright", "license", "source", "catalogue")


def looks_like(text: str) -> bool:
    return text.lstrip().startswith("{")


def parse(text: str, *, max_size: int | None = DEFAULT_MAX_SIZE) -> Nonogram:
    data = json_object(text, "a nonogram JSON file holds an object with 'rows' and 'cols'")
    for key in ("rows", "cols"):
        if key not in data:
            raise FormatError(f"the JSON object has no {key!r} key")
    rows = _clues(data["rows"], "row")
    cols = _clues(data["cols"], "column")
    goal = _solution(data.get("solution"), len(rows), len(cols))
    title = data.get("title") or data.get("name")
    meta = {key: str(data[key]) for key in _META_KEYS if isinstance(data.get(key), str)}
    return make_puzzle(
        rows,
        cols,
        title=title if isinstance(title, str) else None,
        meta=meta,
        goal=goal,
        max_size=max_size,
    )


def _clues(value: Any, kind: str) -> list[list[int]]:
    if not isinstance(value, list):
        raise FormatError(f"'{kind}s' must be a list of lists of run lengths")
    result = []
    for index, clue in enumerate(value, start=1):
        if isinstance(clue, int) and not isinstance(clue, bool):
            clue = [clue]
        if not isinstance(clue, list):
            raise FormatError(f"{kind} {index}: {json_kind(clue)} is not a list of whole numbers")
        for position, run in enumerate(clue, start=1):
            if not isinstance(run, int) or isinstance(run, bool):
                raise FormatError(
                    f"{kind} {index}: run {position} is {json_kind(run)}, not a whole number"
                )
            if run < 0:
                raise FormatError(f"{kind} {index}: run {run} is negative")
        result.append(clue)
    return result


def _solution(value: Any, height: int, width: int) -> Grid | None:
    """The `solution` rows as a goal grid; rows of the wrong length or number are refused,
    since a goal that does not fit the clues cannot be the puzzle's solution."""
    if not (isinstance(value, list) and value and all(isinstance(s, str) for s in value)):
        return None
    if len(value) != height:
        raise FormatError(f"the solution has {len(value)} rows, the clues give {height}")
    for index, row in enumerate(value, start=1):
        if len(row) != width:
            raise FormatError(
                f"row {index} of the solution has {len(row)} cells, the clues give {width}"
            )
    return grid_from_strings(value)


def write(puzzle: Nonogram) -> str:
    data: dict[str, Any] = {}
    if puzzle.title:
        data["name"] = puzzle.title
    data.update(puzzle.meta)
    data["width"] = puzzle.width
    data["height"] = puzzle.height
    data["rows"] = [list(c) for c in puzzle.rows]
    data["cols"] = [list(c) for c in puzzle.cols]
    if puzzle.goal is not None:
        data["solution"] = grid_to_strings(puzzle.goal)
    return json.dumps(data, indent=1) + "\n"
