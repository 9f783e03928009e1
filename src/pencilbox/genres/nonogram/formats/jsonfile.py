"""The JSON files of the shared data: keys `rows`, `cols` (lists of runs), optional `solution`
(strings of `#` and `.`), `name`/`title`, and descriptive fields kept as they are. A file with
a `colors` table is a colour puzzle (colourjson.py); with one colour it is black-and-white."""

from __future__ import annotations

import json
from typing import Any

from pencilbox.core.grid import Grid
from pencilbox.core.notation import json_kind, json_object
from pencilbox.errors import FormatError
from pencilbox.genres.nonogram.colour.model import ColourNonogram, make_colour_puzzle
from pencilbox.genres.nonogram.formats import colourjson
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


def parse(text: str, *, max_size: int | None = DEFAULT_MAX_SIZE) -> Nonogram | ColourNonogram:
    data = json_object(text, "a nonogram JSON file holds an object with 'rows' and 'cols'")
    for key in ("rows", "cols"):
        if key not in data:
            raise FormatError(f"the JSON object has no {key!r} key")
    title = data.get("title") or data.get("name")
    meta = {key: str(data[key]) for key in _META_KEYS if isinstance(data.get(key), str)}
    if "colors" in data:
        return _colour_puzzle(data, title if isinstance(title, str) else None, meta, max_size)
    rows = _clues(data["rows"], "row")
    cols = _clues(data["cols"], "column")
    goal = _solution(data.get("solution"), len(rows), len(cols))
    return make_puzzle(
        rows,
        cols,
        title=title if isinstance(title, str) else None,
        meta=meta,
        goal=goal,
        max_size=max_size,
    )


def _colour_puzzle(
    data: dict[str, Any], title: str | None, meta: dict[str, str], max_size: int | None
) -> Nonogram | ColourNonogram:
    colours = colourjson.colour_table(data["colors"])
    back = colourjson.background(data.get("background"))
    rows = colourjson.colour_runs(data["rows"], "row", colours)
    cols = colourjson.colour_runs(data["cols"], "column", colours)
    solution = data.get("solution")
    goal_rows = solution if _rows_of_text(solution) else None
    if goal_rows is not None:
        _check_shape(goal_rows, len(rows), len(cols))
    if len(colours) > 1:
        return make_colour_puzzle(
            colours,
            rows,
            cols,
            background=back,
            title=title,
            meta=meta,
            goal_rows=goal_rows,
            max_size=max_size,
        )
    # One colour is black-and-white; read as colours first so that a run of another colour
    # or a stray character in the solution gets the colour message.
    puzzle = make_colour_puzzle(
        colours, rows, cols, background=back, goal_rows=goal_rows, max_size=max_size
    )
    filled = colours[0].char
    goal = None
    if goal_rows is not None:
        goal = grid_from_strings([row.replace(filled, "#") for row in goal_rows])
    return make_puzzle(
        [[n for n, _ in clue] for clue in puzzle.rows],
        [[n for n, _ in clue] for clue in puzzle.cols],
        title=title,
        meta=meta,
        goal=goal,
        max_size=max_size,
    )


def _rows_of_text(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(s, str) for s in value)


def _check_shape(rows: list[str], height: int, width: int) -> None:
    if len(rows) != height:
        raise FormatError(f"the solution has {len(rows)} rows, the clues give {height}")
    for index, row in enumerate(rows, start=1):
        if len(row) != width:
            raise FormatError(
                f"row {index} of the solution has {len(row)} cells, the clues give {width}"
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
    if not _rows_of_text(value):
        return None
    _check_shape(value, height, width)
    return grid_from_strings(value)


def write(puzzle: Nonogram | ColourNonogram) -> str:
    data: dict[str, Any] = {}
    if puzzle.title:
        data["name"] = puzzle.title
    data.update(puzzle.meta)
    if isinstance(puzzle, ColourNonogram):
        return colourjson.write(puzzle, data)
    data["width"] = puzzle.width
    data["height"] = puzzle.height
    data["rows"] = [list(c) for c in puzzle.rows]
    data["cols"] = [list(c) for c in puzzle.cols]
    if puzzle.goal is not None:
        data["solution"] = grid_to_strings(puzzle.goal)
    return json.dumps(data, indent=1) + "\n"
