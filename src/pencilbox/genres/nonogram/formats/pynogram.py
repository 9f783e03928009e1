"""The INI-like text of pynogram's examples (and nonogrid's TOML variant of it).

    # United Kingdom flag (comments start with # or ;)
    [colors]
    b = (blue) *
    r = (FF0000) %

    [clues]
    columns =
        1r 5b 3r, 0
        2b
    rows = 3r 11b, 2b 3r

`[colors]` defines each colour as `KEY = (DESCRIPTION) SYMBOL`: the key is what follows a run
length (`2r`), the description a CSS name, hex digits or an `(r, g, b)` triple, the symbol a
character for pictures. A run without a key has the default colour, black. Clues are separated
by commas and/or new lines; a clue may be quoted. nonogrid writes the definitions as a TOML
list (`defs = [...]`) and the clues as triple-quoted strings; both are read.

Colours are named by their description when it is a word (`blue`), else by their key; the
key, when it is one character, is the colour's character in solutions. A puzzle of one colour
is black-and-white.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pencilbox.core.notation import whole_number
from pencilbox.errors import FormatError, quote
from pencilbox.genres.nonogram.colour.model import (
    BACKGROUND,
    Colour,
    ColourNonogram,
    css_colour,
    make_colour_puzzle,
)
from pencilbox.genres.nonogram.formats._lines import Line, numbered_lines, run_label
from pencilbox.genres.nonogram.model import DEFAULT_MAX_SIZE, Nonogram, make_puzzle

_DEFINITION = re.compile(r"""\s*['"]?\s*(\w+)\s*=\s*\(([^)]*)\)\s*(\S?)\s*['"]?,?\s*$""")
_RUN = re.compile(r"(\d+)([A-Za-z_]\w*)?")
_SECTION = re.compile(r"\s*\[(\w+)\]\s*$")
_KEY = re.compile(r"\s*(columns|rows|defs)\s*=(.*)$")
DEFAULT = Colour("black", "#", "#000000")


@dataclass
class _Read:
    colours: dict[str, Colour] = field(default_factory=dict)
    """key -> colour, in order of definition"""
    clues: dict[str, list[tuple[Line, int, str]]] = field(default_factory=dict)
    """"columns"/"rows" -> (line, column, text) of each clue"""


def looks_like(text: str) -> bool:
    return re.search(r"(?m)^[ \t]*\[clues\][ \t]*\r?$", text) is not None


def parse(text: str, *, max_size: int | None = DEFAULT_MAX_SIZE) -> Nonogram | ColourNonogram:
    read = _Read()
    section = ""
    key = ""
    for line in numbered_lines(text):
        if (found := _SECTION.match(line.text)) is not None:
            section, key = found.group(1).lower(), ""
            continue
        if section == "colors":
            _colour_line(read, line)
            continue
        if section != "clues":
            continue
        body = _without_comment(line.text)
        if (found := _KEY.match(body)) is not None:
            key = found.group(1)
            if key in read.clues:
                raise FormatError(f"a second '{key}' in [clues]", line=line.number)
            read.clues[key] = []
            _add_clues(read, key, line, found.start(2), found.group(2))
        elif body.strip():
            if not key:
                raise FormatError(
                    f"{quote(body.strip())} comes before 'columns =' or 'rows ='",
                    line=line.number,
                )
            _add_clues(read, key, line, 0, body)
    return _puzzle(read, max_size)


def _without_comment(text: str) -> str:
    for mark in ("#", ";"):
        at = text.find(mark)
        if at >= 0:
            text = text[:at]
    return text


def _colour_line(read: _Read, line: Line) -> None:
    """A definition `k = (desc) s`, quoted in nonogrid's `defs = [...]` list, or nothing."""
    stripped = line.text.strip()
    if not stripped or stripped[0] in "#;" or stripped.startswith(("defs", "]")):
        return
    found = _DEFINITION.match(line.text)
    if found is None:
        raise FormatError(
            f"{quote(stripped)} is not a colour definition like 'r = (red) %'", line=line.number
        )
    key, description, symbol = found.groups()
    value = _css(description)
    if value is None:
        raise FormatError(
            f"{quote(description)} is not a colour (a name, hex digits or r, g, b)",
            line=line.number,
        )
    word = description.strip().lower()
    name = word if re.fullmatch(r"[a-z]+", word) and css_colour(word) != f"#{word}" else key
    char = key if len(key) == 1 else symbol or key[0]
    if key in read.colours:
        raise FormatError(f"the colour {quote(key)} is defined twice", line=line.number)
    read.colours[key] = Colour(name, char, value)


def _css(description: str) -> str | None:
    parts = [part.strip() for part in description.split(",")]
    if len(parts) == 3 and all(part.isdigit() and int(part) < 256 for part in parts):
        return "#" + "".join(f"{int(part):02x}" for part in parts)
    return css_colour(description)


def _add_clues(read: _Read, key: str, line: Line, start: int, text: str) -> None:
    offset = start
    for piece in text.split(","):
        column = offset + len(piece) - len(piece.lstrip()) + 1
        offset += len(piece) + 1
        clue = piece.strip().strip("'\"").strip()
        if clue:
            read.clues[key].append((line, column, clue))


def _puzzle(read: _Read, max_size: int | None) -> Nonogram | ColourNonogram:
    for key in ("columns", "rows"):
        if key not in read.clues:
            raise FormatError(f"[clues] has no '{key} =' line")
    rows = [_runs(read, *entry, "row", n) for n, entry in enumerate(read.clues["rows"], 1)]
    cols = [_runs(read, *entry, "column", n) for n, entry in enumerate(read.clues["columns"], 1)]
    used = {name for clue in rows + cols for _, name in clue}
    defined = list(read.colours.values())
    # Runs without a key are black: the defined black if there is one, else the default.
    default = [] if any(c.name == DEFAULT.name for c in defined) else [DEFAULT]
    colours = [c for c in (*default, *defined) if c.name in used]
    if len(colours) <= 1:
        return make_puzzle(
            [[n for n, _ in clue] for clue in rows],
            [[n for n, _ in clue] for clue in cols],
            max_size=max_size,
        )
    return make_colour_puzzle(colours, rows, cols, max_size=max_size)


def _runs(
    read: _Read, line: Line, column: int, text: str, kind: str, number: int
) -> list[tuple[int, str]]:
    runs = []
    for token in text.split():
        found = _RUN.fullmatch(token)
        if found is None:
            raise FormatError(
                f"the clue of {kind} {number}: {quote(token)} is not a run like 2 or 2r",
                line=line.number,
                column=column,
            )
        length = whole_number(
            found.group(1), run_label(kind, number), line=line.number, column=column
        )
        key = found.group(2)
        if key is None:
            runs.append((length, DEFAULT.name))
        elif key in read.colours:
            runs.append((length, read.colours[key].name))
        else:
            known = ", ".join(read.colours) or "none"
            raise FormatError(
                f"the clue of {kind} {number}: the colour {quote(key)} of {quote(token)} is not "
                f"in [colors] (defined: {known})",
                line=line.number,
                column=column,
            )
    return runs


def write(puzzle: Nonogram | ColourNonogram) -> str:
    lines = [f"# {puzzle.title}", ""] if puzzle.title else []
    if isinstance(puzzle, ColourNonogram):
        keys = _keys(puzzle)
        lines.append("[colors]")
        for index, colour in enumerate(puzzle.colours):
            if keys.get(index):
                named = css_colour(colour.name) == colour.value and colour.name.isalpha()
                description = colour.name if named else colour.hex[1:]
                lines.append(f"{keys[index]} = ({description}) {colour.char}")
        lines.append("")
        rows = [" ".join(f"{n}{keys[c]}" for n, c in clue) for clue in puzzle.rows]
        cols = [" ".join(f"{n}{keys[c]}" for n, c in clue) for clue in puzzle.cols]
    else:
        rows = [" ".join(map(str, clue)) for clue in puzzle.rows]
        cols = [" ".join(map(str, clue)) for clue in puzzle.cols]
    lines.append("[clues]")
    for key, clues in (("columns", cols), ("rows", rows)):
        lines.append(f"{key} =")
        lines.extend(f"    {clue or '0'}" for clue in clues)
        lines.append("")
    return "\n".join(lines)


def _keys(puzzle: ColourNonogram) -> dict[int, str]:
    """The suffix of each colour's runs: its character when that is a letter, else `c` and
    its number (every colour is defined, so that the palette keeps its order)."""
    keys = {}
    for index, colour in enumerate(puzzle.colours):
        if index == BACKGROUND:
            keys[index] = ""
        elif re.fullmatch(r"[A-Za-z]", colour.char):
            keys[index] = colour.char
        else:
            keys[index] = f"c{index}"
    return keys
