"""webpbn.com's XML format for paint-by-number puzzles ("pbn" XML, as its export writes it).

    <puzzleset>
     <puzzle type="grid" defaultcolor="black" backgroundcolor="white">
      <title>..</title> <author>..</author> <copyright>..</copyright> <id>..</id>
      <color name="white" char=".">fff</color> <color name="black" char="X">000</color>
      <clues type="columns"><line><count>2</count><count>1</count></line><line/>..</clues>
      <clues type="rows">..</clues>
      <solution type="goal"><image>|..XX|
    |.X..|</image></solution>
     </puzzle>
    </puzzleset>

A `count` without a `color` has the puzzle's default colour. Image rows are the colour
characters between `|`; the background colour's character is an empty cell, `?` is unknown.
When the clues are absent they are derived from the goal image. The first puzzle of a set is
read. A puzzle whose clues or image use one colour besides the background is black-and-white
(a `Nonogram`); two or more make a `ColourNonogram`, whose colours come from the <color>
elements (name, char, hex value).
"""

from __future__ import annotations

import html.entities
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from xml.parsers import expat

from pencilbox.core.grid import Grid
from pencilbox.core.notation import lines_with_ends, whole_number
from pencilbox.errors import FormatError, quote
from pencilbox.genres.nonogram.colour.model import (
    BACKGROUND_CHAR,
    UNKNOWN_CHAR,
    Colour,
    ColourNonogram,
    css_colour,
    make_colour_puzzle,
)
from pencilbox.genres.nonogram.colour.model import clues_of as colour_clues_of
from pencilbox.genres.nonogram.colour.model import grid_from_strings as colour_grid
from pencilbox.genres.nonogram.colour.model import grid_to_strings as colour_rows
from pencilbox.genres.nonogram.formats._lines import run_label
from pencilbox.genres.nonogram.model import (
    DEFAULT_MAX_SIZE,
    EMPTY,
    FILLED,
    UNKNOWN,
    Nonogram,
    clues_of,
    make_puzzle,
)

_META = ("author", "copyright", "id", "description")
"""Child elements kept in Nonogram.meta under the same names (title goes to title)."""
_DOCTYPE = '<!DOCTYPE pbn SYSTEM "https://webpbn.com/pbn-0.3.dtd">'


@dataclass
class _Document:
    """The parsed tree and the input line on which each element starts."""

    root: ET.Element
    lines: dict[int, int] = field(default_factory=dict)
    """id(element) -> 1-based line"""

    def line(self, element: ET.Element) -> int | None:
        return self.lines.get(id(element))


@dataclass
class _Colours:
    default: str
    background: str
    chars: dict[str, str]
    """colour name -> image character, from the <color> elements"""
    values: dict[str, str] = field(default_factory=dict)
    """colour name -> its text (hex digits), from the <color> elements"""

    def background_char(self) -> str:
        return self.chars.get(self.background, ".")


ColouredRuns = list[list[tuple[int, str]]]


def looks_like(text: str) -> bool:
    start = text.lstrip()
    return start.startswith("<") and ("<puzzleset" in text or "<puzzle" in text)


def parse(text: str, *, max_size: int | None = DEFAULT_MAX_SIZE) -> Nonogram | ColourNonogram:
    document = _read_xml(text)
    puzzle = _puzzle_element(document)
    colours = _colours(puzzle)
    clues: dict[str, ColouredRuns] = {}
    for element in puzzle.findall("clues"):
        kind = _clue_kind(document, element)
        clues[kind] = _clue_lines(document, element, colours)
    image = _goal_rows(document, puzzle, colours)
    if clues and set(clues) != {"rows", "columns"}:
        missing = "rows" if "rows" not in clues else "columns"
        raise FormatError(f'the puzzle has no <clues type="{missing}">', line=document.line(puzzle))
    if not clues and image is None:
        raise FormatError(
            "the puzzle has neither <clues> nor a goal <solution>", line=document.line(puzzle)
        )
    title = _text(puzzle, "title")
    meta = {key: value for key, value in ((k, _text(puzzle, k)) for k in _META) if value}
    used = _used_colours(clues, image, colours)
    if len(used) > 1:
        return _colour_puzzle(document, puzzle, colours, used, clues, image, title, meta, max_size)
    goal = _goal(image, colours) if image is not None else None
    if not clues:
        assert goal is not None
        clues["rows"], clues["columns"] = _clues_from_goal(document, puzzle, goal)
    rows = [[n for n, _ in line] for line in clues["rows"]]
    cols = [[n for n, _ in line] for line in clues["columns"]]
    return make_puzzle(rows, cols, title=title, meta=meta, goal=goal, max_size=max_size)


def _used_colours(
    clues: dict[str, ColouredRuns], image: list[tuple[int, str]] | None, colours: _Colours
) -> list[str]:
    """The colours (names) that the clues and the image use, background aside, in the order of
    the <color> elements (undefined ones last, in order of use)."""
    used = {name for lines in clues.values() for line in lines for _, name in line}
    if image is not None:
        by_char = {char: name for name, char in colours.chars.items()}
        background = colours.background_char()
        # Without <color> elements every character but the background is the default colour.
        for _, row in image:
            used.update(
                by_char.get(ch, ch) if by_char else colours.default
                for ch in row
                if ch not in (background, "?")
            )
    used.discard(colours.background)
    ordered = [name for name in colours.chars if name in used]
    return ordered + sorted(used - set(ordered))


def _colour_puzzle(
    document: _Document,
    puzzle: ET.Element,
    colours: _Colours,
    used: list[str],
    clues: dict[str, ColouredRuns],
    image: list[tuple[int, str]] | None,
    title: str | None,
    meta: dict[str, str],
    max_size: int | None,
) -> ColourNonogram:
    palette = []
    for name in used:
        if name not in colours.chars:
            raise FormatError(
                f"the colour {quote(name)} is used but no <color name={quote(name)}> defines it",
                line=_first_use(document, puzzle, name),
            )
        value = css_colour(colours.values.get(name, "")) or name
        palette.append(Colour(name, colours.chars[name], value))
    back_value = css_colour(colours.values.get(colours.background, "")) or "#ffffff"
    background = Colour(colours.background, BACKGROUND_CHAR, back_value)
    goal_rows = [row for _, row in image] if image is not None else None
    rows, cols = clues.get("rows", []), clues.get("columns", [])
    if not clues:
        assert goal_rows is not None
        goal = colour_grid((background, *palette), goal_rows, colours.background_char())
        if any(mask & (mask - 1) for mask in goal.cells):
            raise FormatError(
                "without <clues>, the goal image must not hold unknown cells '?'",
                line=document.line(puzzle),
            )
        names = [colour.name for colour in (background, *palette)]
        row_runs, col_runs = colour_clues_of(goal)
        rows = [[(n, names[c]) for n, c in line] for line in row_runs]
        cols = [[(n, names[c]) for n, c in line] for line in col_runs]
    return make_colour_puzzle(
        palette,
        rows,
        cols,
        background=background,
        title=title,
        meta=meta,
        goal_rows=goal_rows,
        goal_background=colours.background_char(),
        max_size=max_size,
    )


def _first_use(document: _Document, puzzle: ET.Element, name: str) -> int | None:
    for count in puzzle.iter("count"):
        if count.get("color") == name:
            return document.line(count)
    return document.line(puzzle)


def _read_xml(text: str) -> _Document:
    lines: dict[int, int] = {}
    current = [0]

    def element(tag: str, attributes: dict[str, str]) -> ET.Element:
        made = ET.Element(tag, attributes)
        lines[id(made)] = current[0]
        return made

    parser = ET.XMLParser(target=ET.TreeBuilder(element_factory=element))
    # webpbn writes HTML entities such as &copy; and declares them only in its external DTD,
    # which expat does not fetch.
    parser.entity.update({name: chr(code) for name, code in html.entities.name2codepoint.items()})
    try:
        # Fed line by line so that each element learns the line it starts on.
        for number, line in enumerate(lines_with_ends(text), start=1):
            current[0] = number
            parser.feed(line)
        root = parser.close()
    except ET.ParseError as error:
        line_number, offset = error.position
        raise FormatError(
            f"not well-formed XML: {_reason(error)}", line=line_number, column=offset + 1
        ) from None
    except expat.ExpatError as error:
        raise FormatError(
            f"not well-formed XML: {expat.ErrorString(error.code)}",
            line=error.lineno,
            column=error.offset + 1,
        ) from None
    return _Document(root, lines)


def _reason(error: ET.ParseError) -> str:
    # The message repeats the position ("...: line 3, column 4"); FormatError adds its own.
    return str(error).split(": line ")[0]


def _puzzle_element(document: _Document) -> ET.Element:
    root = document.root
    if root.tag == "puzzle":
        puzzle = root
    elif root.tag == "puzzleset":
        found = root.find("puzzle")
        if found is None:
            raise FormatError("the <puzzleset> holds no <puzzle>", line=document.line(root))
        puzzle = found
    else:
        raise FormatError(
            f"the root element is {quote(root.tag)}, expected <puzzleset>", line=document.line(root)
        )
    kind = puzzle.get("type", "grid")
    if kind != "grid":
        raise FormatError(
            f"only grid puzzles are supported, this one's type is {quote(kind)}",
            line=document.line(puzzle),
        )
    return puzzle


def _colours(puzzle: ET.Element) -> _Colours:
    elements = puzzle.findall("color")
    chars = {colour.get("name", ""): colour.get("char", "") for colour in elements}
    values = {colour.get("name", ""): (colour.text or "").strip() for colour in elements}
    return _Colours(
        puzzle.get("defaultcolor", "black"), puzzle.get("backgroundcolor", "white"), chars, values
    )


def _clue_kind(document: _Document, element: ET.Element) -> str:
    kind = element.get("type", "")
    if kind not in ("rows", "columns"):
        raise FormatError(
            f'the type of <clues> is {quote(kind)}; it must be "rows" or "columns"',
            line=document.line(element),
        )
    return kind


def _clue_lines(document: _Document, clues: ET.Element, colours: _Colours) -> ColouredRuns:
    """The runs (count, colour name) of each <line>."""
    kind = "row" if clues.get("type") == "rows" else "column"
    lines = []
    for number, line in enumerate(clues.findall("line"), start=1):
        runs = []
        for count in line.findall("count"):
            token = (count.text or "").strip()
            length = whole_number(token, run_label(kind, number), line=document.line(count))
            runs.append((length, count.get("color", colours.default)))
        lines.append(runs)
    return lines


def _goal_rows(
    document: _Document, puzzle: ET.Element, colours: _Colours
) -> list[tuple[int, str]] | None:
    """The goal image's rows (line, characters between the bars), checked for shape and for
    characters that no <color> has."""
    for solution in puzzle.findall("solution"):
        image = solution.find("image")
        if solution.get("type", "goal") == "goal" and image is not None:
            return _image_rows(document, image, colours)
    return None


def _image_rows(document: _Document, image: ET.Element, colours: _Colours) -> list[tuple[int, str]]:
    first_line = document.line(image) or 1
    rows: list[tuple[int, str]] = []
    for offset, text in enumerate((image.text or "").split("\n")):
        if text.count("|") < 2:
            continue  # only what stands between bars is a row
        line = first_line + offset
        cells = text.split("|")[1]
        if rows and len(cells) != len(rows[0][1]):
            raise FormatError(
                f"this image row has {len(cells)} cells, the first has {len(rows[0][1])}",
                line=line,
            )
        _check_chars(cells, colours, line)
        rows.append((line, cells))
    if not rows or not rows[0][1]:
        raise FormatError("the goal image has no rows like |..XX|", line=first_line)
    return rows


def _goal(image: list[tuple[int, str]], colours: _Colours) -> Grid:
    """The black-and-white goal: the background character empty, `?` unknown, else filled."""
    background = colours.background_char()
    return Grid.from_rows(
        [EMPTY if ch == background else UNKNOWN if ch == "?" else FILLED for ch in cells]
        for _, cells in image
    )


def _check_chars(cells: str, colours: _Colours, line: int) -> None:
    known = set(colours.chars.values())
    if not known:
        return  # without <color> elements, every character but the background is filled
    for ch in cells:
        if ch not in known and ch != "?":
            raise FormatError(f"{ch!r} in the image is not the character of any <color>", line=line)


def _clues_from_goal(
    document: _Document, puzzle: ET.Element, goal: Grid
) -> tuple[ColouredRuns, ColouredRuns]:
    if UNKNOWN in goal.cells:
        raise FormatError(
            "without <clues>, the goal image must not hold unknown cells '?'",
            line=document.line(puzzle),
        )
    rows, cols = clues_of(goal)
    return [[(n, "") for n in clue] for clue in rows], [[(n, "") for n in clue] for clue in cols]


def _text(puzzle: ET.Element, tag: str) -> str | None:
    element = puzzle.find(tag)
    if element is None:
        return None
    return "".join(element.itertext()).strip() or None


def write(puzzle: Nonogram | ColourNonogram) -> str:
    root = ET.Element("puzzleset")
    colour = isinstance(puzzle, ColourNonogram)
    background = puzzle.colours[0].name if isinstance(puzzle, ColourNonogram) else "white"
    default = puzzle.colours[1].name if isinstance(puzzle, ColourNonogram) else "black"
    element = ET.SubElement(
        root, "puzzle", type="grid", defaultcolor=default, backgroundcolor=background
    )
    for tag, value in (("title", puzzle.title), *((key, puzzle.meta.get(key)) for key in _META)):
        if value:
            ET.SubElement(element, tag).text = value
    for name, char, value in _palette(puzzle):
        ET.SubElement(element, "color", name=name, char=char).text = value
    for kind, clues in (("columns", puzzle.cols), ("rows", puzzle.rows)):
        section = ET.SubElement(element, "clues", type=kind)
        for clue in clues:
            line = ET.SubElement(section, "line")
            for run in clue:
                count = ET.SubElement(line, "count")
                if isinstance(run, tuple):
                    count.text = str(run[0])
                    if colour and run[1] != 1:
                        count.set("color", puzzle.colours[run[1]].name)  # type: ignore[union-attr]
                else:
                    count.text = str(run)
    goal = puzzle.goal
    if goal is not None and (goal.width, goal.height) == (puzzle.width, puzzle.height):
        image = ET.SubElement(ET.SubElement(element, "solution", type="goal"), "image")
        image.text = "\n" + "".join(f"|{row}|\n" for row in _image_text(puzzle, goal))
    ET.indent(root)
    for line in root.iter("line"):
        # One line of clues per text line, as webpbn writes them.
        line.text = None
        for count in line:
            count.tail = None
    body = ET.tostring(root, encoding="unicode")
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{_DOCTYPE}\n{body}\n'


def _palette(puzzle: Nonogram | ColourNonogram) -> list[tuple[str, str, str]]:
    """(name, char, hex digits) of each <color>, the background first."""
    if not isinstance(puzzle, ColourNonogram):
        return [("white", ".", "fff"), ("black", "X", "000")]
    return [(c.name, c.char, c.hex.lstrip("#")) for c in puzzle.colours]


def _image_text(puzzle: Nonogram | ColourNonogram, goal: Grid) -> list[str]:
    if isinstance(puzzle, ColourNonogram):
        return [row.replace(UNKNOWN_CHAR, "?") for row in colour_rows(puzzle, goal)]
    symbols = {FILLED: "X", EMPTY: "."}
    return ["".join(symbols.get(v, "?") for v in row) for row in goal.rows()]
