"""The colour form of our JSON files: the shared data's keys plus a `colors` table.

    {"name": "Flag", "width": 3, "height": 2,
     "colors": {"red": {"hex": "#e53935", "char": "r"}, "blue": {"hex": "#1e88e5", "char": "b"}},
     "rows": [[[2, "red"], [1, "blue"]], [[3, "blue"]]],
     "cols": [[[1, "red"], [1, "blue"]], [[1, "red"], [1, "blue"]], [[2, "blue"]]],
     "solution": ["rrb", "bbb"]}

A run is `[count, "colour"]`; a bare count is a run of the only colour when there is one.
Solutions are rows of the colour characters with `.` for the background. An optional
`background` object (`{"name": "white", "hex": "#ffffff"}`) names the background colour.
jsonfile.py reads the file and hands it here when it has a `colors` table.
"""

from __future__ import annotations

import json
from typing import Any

from pencilbox.core.notation import json_kind
from pencilbox.errors import FormatError, quote
from pencilbox.genres.nonogram.colour.model import (
    BACKGROUND,
    WHITE,
    Colour,
    ColourNonogram,
    css_colour,
    grid_to_strings,
)

ColourRuns = list[list[tuple[int, str]]]


def colour_table(value: Any) -> list[Colour]:
    if not isinstance(value, dict) or not value:
        raise FormatError(
            '\'colors\' must be an object of colour name -> {"hex": ..., "char": ...}'
        )
    colours = []
    for name, entry in value.items():
        if isinstance(entry, str):  # "#ff0000 r" or "red r": value and character
            parts = entry.split()
            entry = {"hex": parts[0], "char": parts[1]} if len(parts) == 2 else {"hex": entry}
        if not isinstance(entry, dict):
            raise FormatError(f"colour {quote(name)}: {json_kind(entry)} is not an object")
        char = entry.get("char")
        if not isinstance(char, str) or len(char) != 1:
            raise FormatError(f"colour {quote(name)} needs a one-character 'char'")
        colours.append(Colour(name, char, _css(entry, name)))
    return colours


def _css(entry: dict[str, Any], name: str) -> str:
    raw = entry.get("hex", entry.get("rgb", name))
    value = css_colour(raw) if isinstance(raw, str) else None
    if value is None:
        raise FormatError(f"colour {quote(name)}: {json_kind(raw)} is not a colour like '#ff0000'")
    return value


def background(value: Any) -> Colour:
    if value is None:
        return WHITE
    if not isinstance(value, dict) or not isinstance(value.get("name", "white"), str):
        raise FormatError('\'background\' must be an object like {"name": "white"}')
    name = value.get("name", "white")
    return Colour(name, ".", _css(value, name))


def colour_runs(value: Any, kind: str, colours: list[Colour]) -> ColourRuns:
    if not isinstance(value, list):
        raise FormatError(f'\'{kind}s\' must be a list of clues like [[2, "red"], [1, "blue"]]')
    only = colours[0].name if len(colours) == 1 else None
    result = []
    for index, clue in enumerate(value, start=1):
        if not isinstance(clue, list):
            raise FormatError(f"{kind} {index}: {json_kind(clue)} is not a list of runs")
        runs = []
        for position, run in enumerate(clue, start=1):
            runs.append(_run(run, f"{kind} {index}: run {position}", only))
        result.append(runs)
    return result


def _run(run: Any, where: str, only: str | None) -> tuple[int, str]:
    if isinstance(run, int) and not isinstance(run, bool) and only is not None:
        run = [run, only]
    if not (isinstance(run, list) and len(run) == 2):
        raise FormatError(f'{where} is {json_kind(run)}, not a pair like [2, "red"]')
    count, name = run
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        raise FormatError(f"{where}: the count is {json_kind(count)}, not a whole number")
    if not isinstance(name, str):
        raise FormatError(f"{where}: the colour is {json_kind(name)}, not a colour name")
    return count, name


def write(puzzle: ColourNonogram, data: dict[str, Any]) -> str:
    """`data` holds the descriptive keys already; the colour keys are added after them."""
    data["width"] = puzzle.width
    data["height"] = puzzle.height
    back = puzzle.colours[BACKGROUND]
    if back.name != "white" or back.value != "#ffffff":
        data["background"] = {"name": back.name, "hex": back.hex}
    data["colors"] = {c.name: {"hex": c.hex, "char": c.char} for c in puzzle.colours[1:]}
    for key, clues in (("rows", puzzle.rows), ("cols", puzzle.cols)):
        data[key] = [[[n, puzzle.colours[c].name] for n, c in clue] for clue in clues]
    if puzzle.goal is not None:
        data["solution"] = grid_to_strings(puzzle, puzzle.goal)
    # One line per clue and per solution row keeps files readable (json's indent would give
    # every number a line of its own).
    fields = []
    for key, value in data.items():
        if key in ("rows", "cols", "solution"):
            items = ",\n".join(f"  {json.dumps(item)}" for item in value)
            fields.append(f" {json.dumps(key)}: [\n{items}\n ]")
        else:
            fields.append(f" {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(fields) + "\n}\n"
