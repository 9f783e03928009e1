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
read. Only one colour besides the background is supported.
"""

from __future__ import annotations

import html.entities
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from xml.parsers import expat

from pencilbox.core.grid import Grid
from pencilbox.core.notation import lines_with_ends, whole_number
from pencilbox.errors import FormatError, quote
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
_COLOUR_ERROR = "colour nonograms are not supported yet"
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

    def background_char(self) -> str:
        return self.chars.get(self.background, ".")


def looks_like(text: str) -> bool:
    start = text.lstrip()
    return start.startswith("<") and ("<puzzleset" in text or "<puzzle" in text)


def parse(text: str, *, max_size: int | None = DEFAULT_MAX_SIZE) -> Nonogram:
    document = _read_xml(text)
    puzzle = _puzzle_element(document)
    colours = _colours(puzzle)
    clues: dict[str, list[list[int]]] = {}
    used: set[str] = set()
    for element in puzzle.findall("clues"):
        kind = _clue_kind(document, element)
        clues[kind] = _clue_lines(document, element, colours, used)
    goal = _goal(document, puzzle, colours)
    if not clues:
        if goal is None:
            raise FormatError(
                "the puzzle has neither <clues> nor a goal <solution>", line=document.line(puzzle)
            )
        # Clues derived from the goal image.
        clues["rows"], clues["columns"] = _clues_from_goal(document, puzzle, goal)
    elif set(clues) != {"rows", "columns"}:
        missing = "rows" if "rows" not in clues else "columns"
        raise FormatError(f'the puzzle has no <clues type="{missing}">', line=document.line(puzzle))
    rows, cols = clues["rows"], clues["columns"]
    title = _text(puzzle, "title")
    meta = {key: value for key in _META if (value := _text(puzzle, key))}
    return make_puzzle(rows, cols, title=title, meta=meta, goal=goal, max_size=max_size)


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
    chars = {colour.get("name", ""): colour.get("char", "") for colour in puzzle.findall("color")}
    return _Colours(
        puzzle.get("defaultcolor", "black"), puzzle.get("backgroundcolor", "white"), chars
    )


def _clue_kind(document: _Document, element: ET.Element) -> str:
    kind = element.get("type", "")
    if kind not in ("rows", "columns"):
        raise FormatError(
            f'the type of <clues> is {quote(kind)}; it must be "rows" or "columns"',
            line=document.line(element),
        )
    return kind


def _clue_lines(
    document: _Document, clues: ET.Element, colours: _Colours, used: set[str]
) -> list[list[int]]:
    """The runs of each <line>; `used` collects the colours of the counts of the puzzle."""
    kind = "row" if clues.get("type") == "rows" else "column"
    lines = []
    for number, line in enumerate(clues.findall("line"), start=1):
        runs = []
        for count in line.findall("count"):
            token = (count.text or "").strip()
            runs.append(whole_number(token, run_label(kind, number), line=document.line(count)))
            used.add(count.get("color", colours.default))
            if len(used - {colours.background}) > 1:
                raise FormatError(_COLOUR_ERROR, line=document.line(count))
        lines.append(runs)
    return lines


def _goal(document: _Document, puzzle: ET.Element, colours: _Colours) -> Grid | None:
    for solution in puzzle.findall("solution"):
        image = solution.find("image")
        if solution.get("type", "goal") == "goal" and image is not None:
            return _image(document, image, colours)
    return None


def _image(document: _Document, image: ET.Element, colours: _Colours) -> Grid:
    background = colours.background_char()
    first_line = document.line(image) or 1
    rows: list[list[int]] = []
    filled_chars: set[str] = set()
    for offset, text in enumerate((image.text or "").split("\n")):
        if text.count("|") < 2:
            continue  # only what stands between bars is a row
        line = first_line + offset
        cells = text.split("|")[1]
        if rows and len(cells) != len(rows[0]):
            raise FormatError(
                f"this image row has {len(cells)} cells, the first has {len(rows[0])}", line=line
            )
        _check_chars(cells, colours, line)
        filled_chars.update(ch for ch in cells if ch not in (background, "?"))
        if len(filled_chars) > 1:
            raise FormatError(_COLOUR_ERROR, line=line)
        rows.append(
            [EMPTY if ch == background else UNKNOWN if ch == "?" else FILLED for ch in cells]
        )
    if not rows or not rows[0]:
        raise FormatError("the goal image has no rows like |..XX|", line=first_line)
    return Grid.from_rows(rows)


def _check_chars(cells: str, colours: _Colours, line: int) -> None:
    known = set(colours.chars.values())
    if not known:
        return  # without <color> elements, every character but the background is filled
    for ch in cells:
        if ch not in known and ch != "?":
            raise FormatError(f"{ch!r} in the image is not the character of any <color>", line=line)


def _clues_from_goal(
    document: _Document, puzzle: ET.Element, goal: Grid
) -> tuple[list[list[int]], list[list[int]]]:
    if UNKNOWN in goal.cells:
        raise FormatError(
            "without <clues>, the goal image must not hold unknown cells '?'",
            line=document.line(puzzle),
        )
    rows, cols = clues_of(goal)
    return [list(clue) for clue in rows], [list(clue) for clue in cols]


def _text(puzzle: ET.Element, tag: str) -> str | None:
    element = puzzle.find(tag)
    if element is None:
        return None
    return "".join(element.itertext()).strip() or None


def write(puzzle: Nonogram) -> str:
    root = ET.Element("puzzleset")
    element = ET.SubElement(
        root, "puzzle", type="grid", defaultcolor="black", backgroundcolor="white"
    )
    for tag, value in (("title", puzzle.title), *((key, puzzle.meta.get(key)) for key in _META)):
        if value:
            ET.SubElement(element, tag).text = value
    ET.SubElement(element, "color", name="white", char=".").text = "fff"
    ET.SubElement(element, "color", name="black", char="X").text = "000"
    for kind, clues in (("columns", puzzle.cols), ("rows", puzzle.rows)):
        section = ET.SubElement(element, "clues", type=kind)
        for clue in clues:
            line = ET.SubElement(section, "line")
            for run in clue:
                ET.SubElement(line, "count").text = str(run)
    goal = puzzle.goal
    if goal is not None and (goal.width, goal.height) == (puzzle.width, puzzle.height):
        image = ET.SubElement(ET.SubElement(element, "solution", type="goal"), "image")
        symbols = {FILLED: "X", EMPTY: "."}
        image.text = "\n" + "".join(
            "|" + "".join(symbols.get(v, "?") for v in row) + "|\n" for row in goal.rows()
        )
    ET.indent(root)
    for line in root.iter("line"):
        # One line of clues per text line, as webpbn writes them.
        line.text = None
        for count in line:
            count.tail = None
    body = ET.tostring(root, encoding="unicode")
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{_DOCTYPE}\n{body}\n'
