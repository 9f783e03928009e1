"""Penpa+ (penpa-edit) URLs: `https://swaroopg92.github.io/penpa-edit/#m=edit&p=<payload>`.

The payload is base64 of raw DEFLATE of text lines (formats.md): a CSV header
(`square,<cols>,<rows>,<cell size>,...`), the margins `[top, bottom, left, right]` trimmed
off the drawn board, the editor's mode, then the problem layer and the answer layer as
JavaScript object literals whose common keys are shortened (`zS` surface, `zN` number,
`zE` edge lines, ...). Items are keyed by an index into a board padded by 2 on every side:
cell (r, c) is `(r + 2 + top) * (cols + 4) + c + 2 + left`; the corner below-right of padded
cell (y, x) is `(cols + 4) * (rows + 4) + y * (cols + 4) + x`, and an edge line is keyed by
its two corners, `"a,b"` with a < b.

Double Choco in Penpa: gray cells are shaded surfaces (any colour) of the problem layer, the
numbers are its numbers (`?` allowed), and the answer is the edge lines of the answer layer
(a wall wherever a line is drawn, open elsewhere). A URL without drawn lines has no answer.
The writer emits what the reader reads, in the layout Penpa itself saves.
"""

from __future__ import annotations

import base64
import binascii
import itertools
import json
import re
import zlib
from typing import Any

from pencilbox.core.notation import json_kind, json_value, whole_number
from pencilbox.errors import FormatError, InvalidPuzzle, LimitExceeded, quote
from pencilbox.genres.dbchoco.model import (
    DEFAULT_MAX_SIZE,
    OPEN,
    QUESTION,
    WALL,
    DoubleChoco,
    Walls,
    make_puzzle,
)

PREFIX = "https://swaroopg92.github.io/penpa-edit/#"
_PAYLOAD = re.compile(r"(?:^|[#&?])m=(?:edit|solve)&(?:.*&)?p=(?P<payload>[A-Za-z0-9+/=_-]+)")

_SHORT = {
    "z9": "qa",
    "zQ": "pu_q",
    "zA": "pu_a",
    "zG": "grid",
    "zM": "edit_mode",
    "zS": "surface",
    "zL": "line",
    "zE": "lineE",
    "zW": "wall",
    "zC": "cage",
    "zN": "number",
    "zY": "symbol",
    "zP": "special",
    "zB": "board",
    "zR": "command_redo",
    "zU": "command_undo",
    "z8": "command_replay",
    "z1": "numberS",
    "zF": "freeline",
    "z2": "freelineE",
    "zT": "thermo",
    "z3": "arrows",
    "zD": "direction",
    "z0": "squareframe",
    "z5": "polygon",
    "z4": "deletelineE",
    "z6": "killercages",
    "z7": "nobulbthermo",
    "z_": "__a",
}
"""Penpa's shortened keys (its save format replaces each quoted key by two characters)."""
MAX_PAYLOAD = 4 * 1024 * 1024
"""The most text a payload may inflate to: a few KB of DEFLATE could otherwise make GBs."""
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|\bz[0-9A-Z_]\b')

GRAY_SURFACE = 3
"""The surface colour the writer uses for gray cells (Penpa's light gray)."""


def looks_like(text: str) -> bool:
    stripped = text.strip()
    return "\n" not in stripped and _PAYLOAD.search(stripped) is not None


_DRAWN_KINDS = ("surface", "number", "line", "lineE", "wall", "symbol", "numberS", "cage")


def holds_double_choco(text: str) -> bool:
    """A Penpa+ URL whose problem is clearly a Double Choco: a square grid with shaded cells
    and numbers, and nothing else drawn (genre detection, since Penpa serves every genre)."""
    if not looks_like(text):
        return False
    try:
        lines = _payload_lines(text.strip())
        _board(lines)
        question = _layer(lines, 3, "problem")
    except FormatError:
        return False
    drawn = {kind for kind in _DRAWN_KINDS if question.get(kind)}
    return "surface" in drawn and drawn <= {"surface", "number"}


def parse(text: str, *, max_size: int | None = DEFAULT_MAX_SIZE) -> DoubleChoco:
    lines = _payload_lines(text.strip())
    cols, rows, margins = _board(lines)
    width = cols - margins[2] - margins[3]
    height = rows - margins[0] - margins[1]
    if width < 1 or height < 1:
        raise FormatError(f"the margins {margins} leave no board of the {cols}x{rows} grid")
    if max_size is not None and (width > max_size or height > max_size):
        raise LimitExceeded(
            f"the puzzle is {width}x{height}, above the size limit of {max_size}x{max_size}"
        )
    grid = _Grid(cols, rows, margins[0], margins[2], width, height)
    question = _layer(lines, 3, "problem")
    gray = [[False] * width for _ in range(height)]
    for key in _entries(question, "surface"):
        r, c = grid.cell(key, "a shaded cell")
        gray[r][c] = True
    numbers: list[list[int | None]] = [[None] * width for _ in range(height)]
    for key, value in _entries(question, "number").items():
        r, c = grid.cell(key, "a number")
        numbers[r][c] = _number(value, f"r{r + 1}c{c + 1}")
    answer = _answer(_layer(lines, 4, "answer"), grid) if len(lines) > 4 else None
    return make_puzzle(gray, numbers, answer=answer, max_size=max_size)


def _payload_lines(text: str) -> list[str]:
    match = _PAYLOAD.search(text)
    if match is None:
        raise FormatError("not a Penpa+ URL (expected ...#m=edit&p=<payload>)")
    payload = match.group("payload").replace("-", "+").replace("_", "/")
    column = match.start("payload") + 1
    try:
        raw = base64.b64decode(payload + "=" * (-len(payload) % 4), validate=True)
        inflater = zlib.decompressobj(-15)
        inflated = inflater.decompress(raw, MAX_PAYLOAD)
        if inflater.unconsumed_tail:
            raise FormatError(
                f"the Penpa+ payload inflates to more than {MAX_PAYLOAD:,} bytes", column=column
            )
        if not inflater.eof:
            raise zlib.error("incomplete or truncated stream")
        decoded = inflated.decode("utf-8")
    except (binascii.Error, zlib.error, UnicodeDecodeError) as error:
        raise FormatError(f"the Penpa+ payload does not decode ({error})", column=column) from None
    return decoded.split("\n")


def _board(lines: list[str]) -> tuple[int, int, list[int]]:
    header = lines[0].split(",")
    if header[0] != "square":
        raise FormatError(
            f"the Penpa+ board is {quote(header[0])}; Double Choco needs a square grid", line=1
        )
    if len(header) < 3:
        raise FormatError("the Penpa+ header lacks the grid size", line=1)
    cols = whole_number(header[1].strip(), "the grid size (columns)", line=1)
    rows = whole_number(header[2].strip(), "the grid size (rows)", line=1)
    margins = [0, 0, 0, 0]
    if len(lines) > 1 and lines[1].strip():
        loaded = _json(lines[1], 2, "the margins")
        if not (
            isinstance(loaded, list)
            and len(loaded) == 4
            and all(isinstance(m, int) and m >= 0 for m in loaded)
        ):
            raise FormatError("the margins must be [top, bottom, left, right]", line=2)
        margins = loaded
    return cols, rows, margins


def _json(text: str, line: int, what: str) -> Any:
    expanded = _TOKEN.sub(_expand, text)
    try:
        return json_value(expanded, line=line)
    except FormatError as error:
        raise FormatError(f"{what} is not readable: {error.reason}", line=line) from None


def _expand(match: re.Match[str]) -> str:
    token = match.group(0)
    if token.startswith('"'):
        return token
    if token == "zO":
        return "null"
    return f'"{_SHORT[token]}"' if token in _SHORT else token


def _layer(lines: list[str], index: int, what: str) -> dict[str, Any]:
    if len(lines) <= index or not lines[index].strip():
        raise FormatError(f"the Penpa+ payload has no {what} layer", line=index + 1)
    layer = _json(lines[index], index + 1, f"the {what} layer")
    if not isinstance(layer, dict):
        raise FormatError(f"the {what} layer is not an object", line=index + 1)
    return layer


def _entries(layer: dict[str, Any], key: str) -> dict[str, Any]:
    value = layer.get(key) or {}
    if not isinstance(value, dict):
        raise FormatError(f"the {quote(key)} entries are not an object")
    return value


def _number(value: Any, where: str) -> int:
    text = value[0] if isinstance(value, list) and value else value
    if text == "?":
        return QUESTION
    if isinstance(text, str) and text.isascii() and text.isdigit():
        return whole_number(text, f"the number of {where}")
    raise InvalidPuzzle(
        f"{json_kind(text)} is not a Double Choco number (a size or ?)", where=where
    )


class _Grid:
    """Penpa's item indices for one board."""

    def __init__(self, cols: int, rows: int, top: int, left: int, width: int, height: int):
        self.stride = cols + 4
        self.corners = (cols + 4) * (rows + 4)
        self.top, self.left, self.width, self.height = top, left, width, height

    def cell(self, key: str, what: str) -> tuple[int, int]:
        index = _index(key, what)
        y, x = divmod(index, self.stride)
        r, c = y - 2 - self.top, x - 2 - self.left
        if index >= self.corners or not (0 <= r < self.height and 0 <= c < self.width):
            raise InvalidPuzzle(f"{what} at Penpa index {index} is outside the board")
        return r, c

    def corner(self, index: int) -> tuple[int, int]:
        """Grid-line coordinates (row line, column line) of a corner; (0, 0) is top-left."""
        y, x = divmod(index - self.corners, self.stride)
        return y - 1 - self.top, x - 1 - self.left

    def corner_index(self, line_r: int, line_c: int) -> int:
        return self.corners + (line_r + 1 + self.top) * self.stride + line_c + 1 + self.left

    def cell_index(self, r: int, c: int) -> int:
        return (r + 2 + self.top) * self.stride + c + 2 + self.left


def _index(key: str, what: str) -> int:
    if not key.isascii() or not key.isdigit():
        raise InvalidPuzzle(f"{what} has the Penpa index {quote(key)}, not a number")
    return whole_number(key, f"the Penpa index of {what}", max_digits=9)


def _answer(layer: dict[str, Any], grid: _Grid) -> Walls | None:
    lines = _entries(layer, "lineE")
    if not lines:
        return None
    geo = _Drawn(grid.width, grid.height)
    for key in lines:
        ends = key.split(",")
        if len(ends) != 2:
            raise InvalidPuzzle(f"the answer line {quote(key)} does not join two corners")
        a, b = sorted(grid.corner(_index(end, "an answer line")) for end in ends)
        geo.draw(a, b, key)
    return geo.walls()


class _Drawn:
    """Walls collected from lines drawn between grid corners (the outer frame is ignored)."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.blank = Walls.undecided(width, height)
        self.edges = [OPEN] * self.blank.geometry.count

    def draw(self, a: tuple[int, int], b: tuple[int, int], key: str) -> None:
        (r1, c1), (r2, c2) = a, b
        geo = self.blank.geometry
        if r1 == r2 and c2 == c1 + 1:  # a horizontal segment: the wall below cell (r1-1, c1)
            if 0 < r1 < self.height and 0 <= c1 < self.width:
                self.edges[geo.down(r1 - 1, c1)] = WALL
                return
        elif c1 == c2 and r2 == r1 + 1:  # a vertical segment: the wall right of (r1, c1-1)
            if 0 < c1 < self.width and 0 <= r1 < self.height:
                self.edges[geo.right(r1, c1 - 1)] = WALL
                return
        else:
            raise InvalidPuzzle(f"the answer line {quote(key)} is not one edge of a cell")
        if not (0 <= r1 <= self.height and 0 <= c1 <= self.width):
            raise InvalidPuzzle(f"the answer line {quote(key)} is outside the board")

    def walls(self) -> Walls:
        return Walls(self.width, self.height, tuple(self.edges))


# -- writing ------------------------------------------------------------------------------------
def write(puzzle: DoubleChoco) -> str:
    """The puzzle (and its answer, when it has one) as a Penpa+ edit URL."""
    grid = _Grid(puzzle.width, puzzle.height, 0, 0, puzzle.width, puzzle.height)
    question = _empty_layer()
    for r in range(puzzle.height):
        for c in range(puzzle.width):
            key = str(grid.cell_index(r, c))
            if puzzle.is_gray(r, c):
                question["surface"][key] = GRAY_SURFACE
            number = puzzle.number(r, c)
            if number is not None:
                text = "?" if number == QUESTION else str(number)
                question["number"][key] = [text, 1, "1"]
    answer = _empty_layer()
    if puzzle.answer is not None:
        answer["lineE"] = _answer_lines(puzzle.answer, grid)
    return PREFIX + "m=edit&p=" + _pack(_lines(puzzle, grid, question, answer))


def _answer_lines(answer: Walls, grid: _Grid) -> dict[str, int]:
    geo = answer.geometry
    out: dict[str, int] = {}
    for e in range(geo.count):
        if not answer.is_wall(e):
            continue
        (r1, c1), (r2, c2) = geo.cells(e)
        if r1 == r2:  # vertical wall: from the top corner to the bottom one
            ends = grid.corner_index(r1, c2), grid.corner_index(r1 + 1, c2)
        else:
            ends = grid.corner_index(r2, c1), grid.corner_index(r2, c1 + 1)
        out[f"{min(ends)},{max(ends)}"] = 3
    return out


def _empty_layer() -> dict[str, Any]:
    layer: dict[str, Any] = {
        "command_redo": {"__a": []},
        "command_undo": {"__a": []},
        "command_replay": {"__a": []},
    }
    for key in ("surface", "number", "numberS", "symbol", "freeline", "freelineE"):
        layer[key] = {}
    for key in ("thermo", "arrows", "direction", "squareframe", "polygon"):
        layer[key] = []
    for key in ("line", "lineE", "wall", "cage", "deletelineE"):
        layer[key] = {}
    layer["killercages"] = []
    layer["nobulbthermo"] = []
    return layer


_MODE = {
    "qa": "pu_q",
    "grid": ["2", "2", "1"],
    "pu_q": {"edit_mode": "surface", "surface": ["", 1], "number": ["1", 1]},
    "pu_a": {"edit_mode": "surface", "surface": ["", 1], "number": ["1", 1]},
}


def _lines(
    puzzle: DoubleChoco, grid: _Grid, question: dict[str, Any], answer: dict[str, Any]
) -> list[str]:
    cols, rows, size = puzzle.width, puzzle.height, 38
    canvas = (size * (cols + 1), size * (rows + 1))
    header = (
        f"square,{cols},{rows},{size},0,1,1,{canvas[0]},{canvas[1]},"
        f"{canvas[0] // 2},{canvas[1] // 2},0,0,0,0,Title: ,Author: ,,,OFF,false"
    )
    cells = [grid.cell_index(r, c) for r in range(rows) for c in range(cols)]
    centre_list = [cells[0]] + [b - a for a, b in itertools.pairwise(cells)]
    return [
        header,
        "[0,0,0,0]",
        _shorten(_MODE),
        _shorten(question),
        _shorten(answer),
        json.dumps(centre_list, separators=(",", ":")),
        '["Surface","Number Normal"]',
        "{}",
        '"x"',
        '"x"',
        "[3,0,3]",
        _shorten(_MODE),
        '"x"',
        "0",
        _shorten(_empty_layer()),
        _shorten(_empty_layer()),
        "{}",
        "[]",
        "",
    ]


_LONG = {name: short for short, name in _SHORT.items()}


def _shorten(value: Any) -> str:
    """Penpa's own shortening: every quoted key it knows becomes its two-character token."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return re.sub(
        r'"((?:[^"\\]|\\.)*)"', lambda m: _LONG.get(m.group(1), m.group(0)), text
    ).replace("null", "zO")


def _pack(lines: list[str]) -> str:
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    raw = compressor.compress("\n".join(lines).encode("utf-8")) + compressor.flush()
    return base64.b64encode(raw).decode("ascii")
