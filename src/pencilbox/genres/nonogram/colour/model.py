"""The colour nonogram value: a palette, row and column clues of coloured runs, and an optional
title, descriptive fields and known solution.

A clue is a tuple of runs `(length, colour)`, `colour` being an index into the palette (1 and
up; 0 is the background). Cells of grids hold bit masks of the colours still possible.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from pencilbox.core.grid import Grid
from pencilbox.errors import InvalidPuzzle, quote, shorten
from pencilbox.genres import base
from pencilbox.genres.nonogram.colour.cells import (
    BACKGROUND,
    BACKGROUND_CHAR,
    UNKNOWN_CHAR,
    ColourClue,
    Run,
    clues_of,
    grid_to_strings,
    needed_cells,
    runs_of,
)
from pencilbox.genres.nonogram.engine import EngineFace
from pencilbox.genres.nonogram.model import DEFAULT_MAX_SIZE, check_size

if TYPE_CHECKING:
    from pencilbox.genres.nonogram.logic import Board

__all__ = [
    "BACKGROUND",
    "BACKGROUND_CHAR",
    "UNKNOWN_CHAR",
    "Colour",
    "ColourClue",
    "ColourNonogram",
    "Run",
    "clues_of",
    "grid_from_strings",
    "grid_to_strings",
    "make_colour_puzzle",
    "needed_cells",
    "runs_of",
    "validate",
]

NAMED_HEX = {
    "black": "#000000",
    "white": "#ffffff",
    "red": "#ff0000",
    "green": "#008000",
    "lime": "#00ff00",
    "blue": "#0000ff",
    "yellow": "#ffff00",
    "orange": "#ffa500",
    "pink": "#ffc0cb",
    "purple": "#800080",
    "brown": "#a52a2a",
    "gray": "#808080",
    "grey": "#808080",
    "cyan": "#00ffff",
    "magenta": "#ff00ff",
    "navy": "#000080",
    "teal": "#008080",
    "maroon": "#800000",
    "olive": "#808000",
    "silver": "#c0c0c0",
    "gold": "#ffd700",
}
_HEX = re.compile(r"#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})")


@dataclass(frozen=True)
class Colour:
    name: str
    char: str
    """The one character that stands for it in solutions and pictures."""
    value: str
    """A CSS colour: `#rrggbb` when the source gave one, else a CSS name such as `red`."""

    @property
    def hex(self) -> str:
        """`#rrggbb` (names outside NAMED_HEX are looked up in Pillow when it is installed)."""
        if self.value.startswith("#"):
            return self.value
        known = NAMED_HEX.get(self.value.lower())
        if known:
            return known
        try:
            from PIL import ImageColor

            red, green, blue = ImageColor.getrgb(self.value)[:3]
        except (ImportError, ValueError):
            return "#000000"
        return f"#{red:02x}{green:02x}{blue:02x}"


def css_colour(text: str) -> str | None:
    """`f00`, `FF0000` or `#ff0000` as `#ff0000`; a plain word (a CSS name) as its hex when it is
    in NAMED_HEX, else as itself in lower case; None for anything else. Hex wins: webpbn writes
    `fff` and `000`."""
    text = text.strip()
    match = _HEX.fullmatch(text)
    if match:
        digits = match.group(1).lower()
        return "#" + (digits if len(digits) == 6 else "".join(ch * 2 for ch in digits))
    if re.fullmatch(r"[A-Za-z]+", text):
        return NAMED_HEX.get(text.lower(), text.lower())
    return None


WHITE = Colour("white", BACKGROUND_CHAR, "#ffffff")


@dataclass(frozen=True)
class ColourNonogram(EngineFace):
    colours: tuple[Colour, ...]
    """The palette; colours[0] is the background."""
    rows: tuple[ColourClue, ...]
    cols: tuple[ColourClue, ...]
    title: str | None = field(default=None, compare=False)
    meta: dict[str, str] = field(default_factory=dict, compare=False, hash=False)
    goal: Grid | None = field(default=None, compare=False)
    """A solution shipped with the puzzle (masks, as every colour grid), if the source had one."""

    genre = "nonogram"

    @property
    def full_mask(self) -> int:
        """The mask of a cell that may still be any colour."""
        return (1 << len(self.colours)) - 1

    def line_clue(self, kind: str, index: int) -> ColourClue:
        return self.rows[index] if kind == "row" else self.cols[index]

    @cached_property
    def board(self) -> Board:
        """The puzzle as the engine sees it (logic.py): the same engine as black-and-white."""
        from pencilbox.genres.nonogram.logic import Board

        return Board(self.width, self.height, self.rows, self.cols, len(self.colours))

    def empty_grid(self) -> Grid:
        return Grid.filled_with(self.width, self.height, self.full_mask)

    def char_of(self, mask: int) -> str:
        """`.` for the background, the colour's character, or `?` while undecided."""
        if mask & (mask - 1) or not mask:
            return UNKNOWN_CHAR
        index = mask.bit_length() - 1
        return BACKGROUND_CHAR if index == BACKGROUND else self.colours[index].char

    def format_clue(self, clue: ColourClue) -> str:
        """`2 red, 3 blue` (or `0` for an empty line), as sentences show it."""
        return ", ".join(f"{n} {self.colours[c].name}" for n, c in clue) if clue else "0"

    # The library's face (the solving methods come from EngineFace, shared with black-and-white);
    # the work lives in sibling modules, imported lazily (they import this).
    def to(self, format: str) -> str:
        return base.write(self, format)  # (the notations build puzzles: they sit above)

    def check(self, grid: Grid) -> list[str]:
        from pencilbox.genres.nonogram.colour.check import violations

        return violations(self, grid)

    def render(self, grid: Grid | None = None, fmt: str = "text") -> str:
        from pencilbox.genres.nonogram.colour import render

        if fmt == "svg":
            return render.svg(self, grid)
        return render.text(self, grid or self.empty_grid())

    def render_png(self, state: Grid | None = None, scale: int = 2) -> bytes:
        from pencilbox.genres.nonogram.colour import render

        return render.png(self, state, scale=scale)

    def solution_json(self, grid: Grid) -> list[str]:
        """Row strings: `.` background, each colour's character, `?` undecided."""
        return grid_to_strings(self, grid)

    def __repr__(self) -> str:
        named = f" {self.title!r}" if self.title else ""
        return (
            f"<ColourNonogram {self.width}x{self.height}, {len(self.colours) - 1} colours{named}>"
        )


def grid_from_strings(
    puzzle_colours: Sequence[Colour], rows: Sequence[str], background: str = BACKGROUND_CHAR
) -> Grid:
    """Rows of colour characters as a grid of masks; `?` is unknown. Raises InvalidPuzzle
    naming the row and the character that is no colour's."""
    index = {colour.char: i for i, colour in enumerate(puzzle_colours) if i != BACKGROUND}
    index[background] = BACKGROUND
    index.setdefault(BACKGROUND_CHAR, BACKGROUND)
    full = (1 << len(puzzle_colours)) - 1
    cells: list[list[int]] = []
    for number, row in enumerate(rows, start=1):
        masks = []
        for column, ch in enumerate(row, start=1):
            if ch == UNKNOWN_CHAR:
                masks.append(full)
            elif ch in index:
                masks.append(1 << index[ch])
            else:
                known = ", ".join(repr(c.char) for c in puzzle_colours[1:])
                raise InvalidPuzzle(
                    f"{quote(ch)} in column {column} is not the character of any colour "
                    f"(the colours use {known}; {BACKGROUND_CHAR!r} is the background)",
                    where=f"row {number} of the solution",
                )
        cells.append(masks)
    return Grid.from_rows(cells)


def make_colour_puzzle(
    colours: Sequence[Colour],
    rows: Sequence[Sequence[tuple[int, str]]],
    cols: Sequence[Sequence[tuple[int, str]]],
    *,
    background: Colour = WHITE,
    title: str | None = None,
    meta: dict[str, str] | None = None,
    goal_rows: Sequence[str] | None = None,
    goal_background: str = BACKGROUND_CHAR,
    max_size: int | None = DEFAULT_MAX_SIZE,
) -> ColourNonogram:
    """Build a colour puzzle from runs `(length, colour name)` and check it is well formed.

    Raises InvalidPuzzle, in one sentence, for two colours with the same name or character, a
    run of a colour that is not in the palette, and a clue that cannot fit its line.
    """
    palette = (background, *colours)
    _check_palette(palette)
    names = {colour.name: i for i, colour in enumerate(palette) if i != BACKGROUND}
    row_clues = tuple(_clue(names, clue, "row", i) for i, clue in enumerate(rows))
    col_clues = tuple(_clue(names, clue, "column", i) for i, clue in enumerate(cols))
    goal = grid_from_strings(palette, goal_rows, goal_background) if goal_rows else None
    puzzle = ColourNonogram(
        palette, row_clues, col_clues, title=title, meta=dict(meta or {}), goal=goal
    )
    validate(puzzle, max_size=max_size)
    return puzzle


def _check_palette(palette: Sequence[Colour]) -> None:
    seen_chars: dict[str, str] = {}
    seen_names: set[str] = set()
    for index, colour in enumerate(palette):
        if not colour.name:
            raise InvalidPuzzle(f"colour {index} has no name")
        if colour.name in seen_names:
            raise InvalidPuzzle(f"the colour {quote(colour.name)} is defined twice")
        seen_names.add(colour.name)
        if len(colour.char) != 1 or (colour.char.isspace() and index != BACKGROUND):
            raise InvalidPuzzle(
                f"the colour {quote(colour.name)} has the character {quote(colour.char)}; "
                "each colour needs one visible character"
            )
        if index != BACKGROUND and colour.char in (BACKGROUND_CHAR, UNKNOWN_CHAR):
            raise InvalidPuzzle(
                f"the colour {quote(colour.name)} uses {colour.char!r}, which stands for "
                f"{'the background' if colour.char == BACKGROUND_CHAR else 'an unknown cell'}"
            )
        if colour.char in seen_chars:
            raise InvalidPuzzle(
                f"the colours {quote(seen_chars[colour.char])} and {quote(colour.name)} both "
                f"use the character {colour.char!r}"
            )
        seen_chars[colour.char] = colour.name


def _clue(names: dict[str, int], clue: Sequence[tuple[int, str]], kind: str, i: int) -> ColourClue:
    runs: list[Run] = []
    for position, (length, name) in enumerate(clue, start=1):
        if not isinstance(length, int) or isinstance(length, bool) or length < 0:
            raise InvalidPuzzle(
                f"run {position} is {length!r}; runs must be positive whole numbers",
                where=f"{kind} {i + 1}",
            )
        if name not in names:
            known = ", ".join(names) or "none"
            raise InvalidPuzzle(
                f"run {position} has the colour {quote(str(name))}, which is not defined "
                f"(the colours are {shorten(known, 60)})",
                where=f"{kind} {i + 1}",
            )
        if length:
            runs.append((length, names[name]))
    return tuple(runs)


def validate(puzzle: ColourNonogram, *, max_size: int | None = DEFAULT_MAX_SIZE) -> None:
    """Raise InvalidPuzzle for what a solver would only report as "no solution"."""
    check_size(puzzle, max_size)
    for kind, clues, length in (
        ("row", puzzle.rows, puzzle.width),
        ("column", puzzle.cols, puzzle.height),
    ):
        for index, clue in enumerate(clues):
            need = needed_cells(clue)
            if need > length:
                shown = shorten(puzzle.format_clue(clue), 60)
                raise InvalidPuzzle(
                    f"the clue {shown} needs {need} cells, the {kind} has {length}",
                    where=f"{kind} {index + 1}",
                )
    by_rows = _cells_per_colour(puzzle.rows)
    by_cols = _cells_per_colour(puzzle.cols)
    for colour_index, colour in enumerate(puzzle.colours):
        if by_rows[colour_index] != by_cols[colour_index]:
            raise InvalidPuzzle(
                f"the row clues colour {by_rows[colour_index]} cells {colour.name} but the "
                f"column clues {by_cols[colour_index]}"
            )
    if puzzle.goal is not None and (puzzle.goal.width, puzzle.goal.height) != (
        puzzle.width,
        puzzle.height,
    ):
        raise InvalidPuzzle(
            f"the solution is {puzzle.goal.width}x{puzzle.goal.height}, "
            f"the clues give {puzzle.width}x{puzzle.height}"
        )


def _cells_per_colour(clues: Iterable[ColourClue]) -> Counter[int]:
    total: Counter[int] = Counter()
    for clue in clues:
        for length, colour in clue:
            total[colour] += length
    return total
