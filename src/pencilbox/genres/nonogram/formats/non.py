"""Steve Simpson's `.non` files: `key value` lines, as his solvers and webpbn's export write them.

    title "Sample"
    by "An Author"
    width 4
    height 3

    rows
    4
    1,1
    0

    columns
    2
    1
    1
    2

    goal "111110010000"

`width` and `height` (also spelled `columns 4` and `rows 3`) come before the clue sections;
`rows` and `columns` alone start `height` and `width` lines of comma-separated runs, `0` for an
empty line. `goal` is the solution, row-major, `0` empty and anything else filled. Strings may
be quoted and use HTML character references. Unknown keys are ignored. Of several puzzles
bundled with `====` lines, the first is read. Runs may carry a colour letter (`3a`); one colour
is accepted, more are a colour puzzle, which is not supported.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

from pencilbox.core.grid import Grid
from pencilbox.core.notation import whole_number
from pencilbox.errors import FormatError, quote
from pencilbox.genres.nonogram.formats._lines import Line, clue_block, numbered_lines, run_label
from pencilbox.genres.nonogram.model import (
    DEFAULT_MAX_SIZE,
    EMPTY,
    FILLED,
    UNKNOWN,
    Nonogram,
    make_puzzle,
)

_META_KEYS = {
    "by": "author",
    "copyright": "copyright",
    "license": "license",
    "catalogue": "catalogue",
}
"""`.non` property -> key in Nonogram.meta."""
_SECTIONS = {"rows": ("height", "row"), "columns": ("width", "column")}
_SIZE_ALIASES = {"width": "width", "height": "height", "columns": "width", "rows": "height"}
_KEY = re.compile(r"\s*(\S+)\s*")
_RULE_START = re.compile(r"\s*-?\d")
"""A line of rules: its first run's digits, or a minus sign before them."""
"""The key of a `key value` line and the space after it; the value is the rest."""


@dataclass
class _Read:
    """What has been read so far; every value keeps the line it came from, for errors."""

    sizes: dict[str, tuple[int, Line]] = field(default_factory=dict)
    clues: dict[str, list[list[int]]] = field(default_factory=dict)
    properties: dict[str, tuple[str, Line, int]] = field(default_factory=dict)
    """key -> (value, line, column of the value)"""
    colours: dict[str, int] = field(default_factory=dict)
    """colour letter -> the line where it was first used"""


def looks_like(text: str) -> bool:
    keyword = r"(?:rows|columns)[ \t]*|(?:width|height)[ \t]+\d+[ \t]*"
    return re.search(rf"(?m)^[ \t]*(?:{keyword})\r?$", text) is not None


def parse(text: str, *, max_size: int | None = DEFAULT_MAX_SIZE) -> Nonogram:
    lines = _first_puzzle(numbered_lines(text))
    read = _Read()
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        match = _KEY.match(line.text)
        if match is None:
            continue
        key, value = match.group(1).lower(), line.text[match.end() :].rstrip()
        column = match.end() + 1
        if key in _SECTIONS and not value:
            index = _read_section(read, lines, index, key)
        elif key in _SIZE_ALIASES:
            _read_size(read, _SIZE_ALIASES[key], value, line, column)
        elif key[0].isdigit():
            # Property names are words; a rule here means that the 'rows' or 'columns' line
            # above it is missing or misspelt.
            raise FormatError(
                f"the rule {quote(line.text.strip())} is not under a 'rows' or 'columns' line",
                line=line.number,
                column=match.start(1) + 1,
            )
        else:
            # Unknown keys are properties that other programs may use; the first one wins.
            read.properties.setdefault(key, (value, line, column))
    return _puzzle(read, max_size)


def _first_puzzle(lines: list[Line]) -> list[Line]:
    """The lines of the first puzzle, when several are bundled with `====` lines."""
    puzzle: list[Line] = []
    for line in lines:
        if re.fullmatch(r"\s*={3,}\s*", line.text):
            if any(not kept.blank for kept in puzzle):
                break
            puzzle = []
        else:
            puzzle.append(line)
    return puzzle


def _read_size(read: _Read, key: str, value: str, line: Line, column: int) -> None:
    if key in read.sizes:
        first = read.sizes[key][1].number
        raise FormatError(
            f"the {key} is given a second time (first on line {first})", line=line.number, column=1
        )
    read.sizes[key] = (whole_number(value, f"the {key}", line=line.number, column=column), line)


def _read_section(read: _Read, lines: list[Line], start: int, key: str) -> int:
    """Read the rules after a `rows` or `columns` line; returns the index after them."""
    size_key, kind = _SECTIONS[key]
    header = lines[start - 1]
    if size_key not in read.sizes:
        raise FormatError(f"'{key}' comes before the {size_key} is given", line=header.number)
    if key in read.clues:
        raise FormatError(f"a second '{key}' section", line=header.number)
    end = start
    # The section runs until the next keyword; rules start with a digit (or a minus sign: a
    # negative run is a rule to refuse as such) or are blank.
    while end < len(lines) and (lines[end].blank or _RULE_START.match(lines[end].text)):
        end += 1
    count = read.sizes[size_key][0]
    block = clue_block(lines[start:end], count, f"{kind} rules after '{key}'", after=header.number)
    read.clues[key] = [_rule(read, line, kind, number) for number, line in enumerate(block, 1)]
    return end


def _rule(read: _Read, line: Line, kind: str, number: int) -> list[int]:
    """`2,1` -> [2, 1]; `0` and a blank line are an empty line; `3a` is a run of colour a."""
    if line.blank:
        return []
    runs = []
    offset = 0
    for piece in line.text.split(","):
        column = offset + len(piece) - len(piece.lstrip()) + 1
        offset += len(piece) + 1
        match = re.fullmatch(r"\s*(\d+)([A-Za-z]?)\s*", piece)
        if match is None and re.fullmatch(r"\s*-\d+[A-Za-z]?\s*", piece):
            raise FormatError(
                f"{kind} {number}: the run {quote(piece.strip())} is negative",
                line=line.number,
                column=column,
            )
        if match is None:
            what = "an empty run between commas" if not piece.strip() else quote(piece.strip())
            raise FormatError(
                f"the clue of {kind} {number}: {what} is not a run like 2 or 2a",
                line=line.number,
                column=column,
            )
        runs.append(
            whole_number(match.group(1), run_label(kind, number), line=line.number, column=column)
        )
        if match.group(2):
            _note_colour(read, match.group(2), line.number, column)
    return runs


def _note_colour(read: _Read, colour: str, line: int, column: int) -> None:
    read.colours.setdefault(colour, line)
    if len(read.colours) > 1:
        raise FormatError(
            "colour nonograms are not supported yet (a second colour is used here)",
            line=line,
            column=column,
        )


def _puzzle(read: _Read, max_size: int | None) -> Nonogram:
    for key in ("width", "height"):
        if key not in read.sizes:
            raise FormatError(f"the file does not give the {key} (a line '{key} N')")
    for key in ("rows", "columns"):
        if key not in read.clues:
            raise FormatError(f"the file has no '{key}' line followed by its clues")
    title = _string(read, "title")
    meta = {
        meta_key: value
        for key, meta_key in _META_KEYS.items()
        if (value := _string(read, key)) is not None
    }
    return make_puzzle(
        read.clues["rows"],
        read.clues["columns"],
        title=title,
        meta=meta,
        goal=_goal(read),
        max_size=max_size,
    )


def _string(read: _Read, key: str) -> str | None:
    if key not in read.properties:
        return None
    value, line, column = read.properties[key]
    if value.startswith('"'):
        if len(value) < 2 or not value.endswith('"'):
            raise FormatError(
                f"the quoted {key} has no closing quote", line=line.number, column=column
            )
        value = value[1:-1]
    return html.unescape(value)


def _goal(read: _Read) -> Grid | None:
    goal = _string(read, "goal")
    if goal is None:
        return None
    width, height = read.sizes["width"][0], read.sizes["height"][0]
    line = read.properties["goal"][1].number
    if len(goal) != width * height:
        raise FormatError(
            f"the goal has {len(goal)} cells, a {width}x{height} grid has {width * height}",
            line=line,
        )
    filled = {ch for ch in goal if ch not in "0?"}
    if len(filled) > 1:
        raise FormatError(
            f"colour nonograms are not supported yet (the goal uses {len(filled)} colours)",
            line=line,
        )
    values = [EMPTY if ch == "0" else UNKNOWN if ch == "?" else FILLED for ch in goal]
    return Grid(width, height, tuple(values))


def write(puzzle: Nonogram) -> str:
    lines = []
    if puzzle.title:
        lines.append(f"title {_quote(puzzle.title)}")
    for key, meta_key in _META_KEYS.items():
        value = puzzle.meta.get(meta_key)
        if value is None:
            continue
        # A license is an SPDX code, written bare, or a quoted free-form description.
        bare = key == "license" and re.fullmatch(r"[A-Za-z0-9.+-]+", value)
        lines.append(f"{key} {value if bare else _quote(value)}")
    lines += [f"width {puzzle.width}", f"height {puzzle.height}", "", "rows"]
    lines += [",".join(map(str, clue)) or "0" for clue in puzzle.rows]
    lines += ["", "columns"]
    lines += [",".join(map(str, clue)) or "0" for clue in puzzle.cols]
    goal = puzzle.goal
    if goal is not None and (goal.width, goal.height) == (puzzle.width, puzzle.height):
        cells = "".join("1" if v == FILLED else "0" if v == EMPTY else "?" for v in goal.cells)
        lines += ["", f'goal "{cells}"']
    return "".join(f"{line}\n" for line in lines)


def _quote(value: str) -> str:
    """A quoted string; the format is ASCII, so other characters become references."""
    escaped = "".join(
        "&amp;"
        if ch == "&"
        else "&quot;"
        if ch == '"'
        else ch
        if " " <= ch <= "~"
        else f"&#{ord(ch)};"
        for ch in value
    )
    return f'"{escaped}"'
