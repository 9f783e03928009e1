"""The Nonogram puzzle value: row and column clues, plus optional title and known solution.

Cells of a nonogram grid hold UNKNOWN, FILLED or EMPTY. Clues are tuples of positive run
lengths; an empty tuple is an empty line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from pencilbox.core.grid import Grid
from pencilbox.errors import InvalidPuzzle, LimitExceeded, shorten
from pencilbox.genres import base
from pencilbox.genres.nonogram.cells import (
    EMPTY,
    FILLED,
    SYMBOLS,
    UNKNOWN,
    Clue,
    clues_of,
    format_clue,
    grid_from_strings,
    grid_to_strings,
    runs_of,
)
from pencilbox.genres.nonogram.engine import EngineFace

if TYPE_CHECKING:
    from pencilbox.genres.nonogram.logic import Board

__all__ = [
    "DEFAULT_MAX_SIZE",
    "EMPTY",
    "FILLED",
    "SYMBOLS",
    "UNKNOWN",
    "Clue",
    "Nonogram",
    "clues_of",
    "format_clue",
    "grid_from_strings",
    "grid_to_strings",
    "make_puzzle",
    "runs_of",
    "validate",
]

DEFAULT_MAX_SIZE = 200


@dataclass(frozen=True)
class Nonogram(EngineFace):
    rows: tuple[Clue, ...]
    cols: tuple[Clue, ...]
    title: str | None = field(default=None, compare=False)
    meta: dict[str, str] = field(default_factory=dict, compare=False, hash=False)
    """Other descriptive fields a format carries (author, copyright, ...), kept for writing."""
    goal: Grid | None = field(default=None, compare=False)
    """A solution shipped with the puzzle, if the source had one."""

    genre = "nonogram"

    def line_clue(self, kind: str, index: int) -> Clue:
        return self.rows[index] if kind == "row" else self.cols[index]

    @cached_property
    def board(self) -> Board:
        """The puzzle as the engine sees it: a colour puzzle of one colour (logic.py)."""
        from pencilbox.genres.nonogram.line import plain_clue
        from pencilbox.genres.nonogram.logic import Board

        rows = tuple(map(plain_clue, self.rows))
        return Board(self.width, self.height, rows, tuple(map(plain_clue, self.cols)), 2, True)

    def empty_grid(self) -> Grid:
        return Grid.filled_with(self.width, self.height, UNKNOWN)

    # The library's friendly face (solve, steps, grade, hint, logic_grid come from EngineFace,
    # shared with colour puzzles); the work lives in sibling modules, imported lazily because
    # those modules import this one.
    def to(self, format: str) -> str:
        return base.write(self, format)  # (the notations build puzzles: they sit above)

    def check(self, grid: Grid) -> list[str]:
        from pencilbox.genres.nonogram.check import violations

        return violations(self, grid)

    def render(self, grid: Grid | None = None, fmt: str = "text") -> str:
        from pencilbox.genres.nonogram import render

        if fmt == "svg":
            return render.svg(self, grid)
        return render.text(grid or self.empty_grid())

    def render_png(self, state: Grid | None = None, scale: int = 2) -> bytes:
        from pencilbox.genres.nonogram import render

        return render.png(self, state, scale=scale)

    def solution_json(self, grid: Grid) -> list[str]:
        """A solution as the CLI and web show it: row strings of '#' and '.'."""
        return grid_to_strings(grid)

    def __repr__(self) -> str:
        return (
            f"<Nonogram {self.width}x{self.height}{' ' + repr(self.title) if self.title else ''}>"
        )


def make_puzzle(
    rows: list[list[int]] | tuple[Clue, ...],
    cols: list[list[int]] | tuple[Clue, ...],
    *,
    title: str | None = None,
    meta: dict[str, str] | None = None,
    goal: Grid | None = None,
    max_size: int | None = DEFAULT_MAX_SIZE,
) -> Nonogram:
    """Build a Nonogram and check it is well formed; raises InvalidPuzzle naming the line."""
    row_clues = tuple(_normal_clue(c, "row", i) for i, c in enumerate(rows))
    col_clues = tuple(_normal_clue(c, "column", i) for i, c in enumerate(cols))
    puzzle = Nonogram(row_clues, col_clues, title=title, meta=dict(meta or {}), goal=goal)
    validate(puzzle, max_size=max_size)
    return puzzle


def _normal_clue(clue: Any, kind: str, index: int) -> Clue:
    runs = tuple(clue)
    for position, run in enumerate(runs, start=1):
        if not isinstance(run, int) or isinstance(run, bool) or run < 0:
            raise InvalidPuzzle(
                f"run {position} is {run!r}; runs must be positive whole numbers",
                where=f"{kind} {index + 1}",
            )
    # `0` alone (and zeros among runs, as some formats write) mean nothing is filled there.
    return tuple(run for run in runs if run > 0)


def validate(puzzle: Nonogram, *, max_size: int | None = DEFAULT_MAX_SIZE) -> None:
    """Raise InvalidPuzzle for what a solver would only report as "no solution"."""
    check_size(puzzle, max_size)
    for kind, clues, length in (
        ("row", puzzle.rows, puzzle.width),
        ("column", puzzle.cols, puzzle.height),
    ):
        for index, clue in enumerate(clues):
            need = sum(clue) + len(clue) - 1
            if need > length:
                shown = shorten(format_clue(clue), 40)
                raise InvalidPuzzle(
                    f"clue {shown} needs {need} cells, the {kind} has {length}",
                    where=f"{kind} {index + 1}",
                )
    row_total = sum(map(sum, puzzle.rows))
    col_total = sum(map(sum, puzzle.cols))
    if row_total != col_total:
        raise InvalidPuzzle(
            f"the row clues fill {row_total} cells but the column clues fill {col_total}"
        )


def check_size(puzzle: EngineFace, max_size: int | None) -> None:
    """Refuse an empty grid, and one beyond `max_size` (LimitExceeded), either kind."""
    if puzzle.height == 0 or puzzle.width == 0:
        raise InvalidPuzzle(
            f"the puzzle is empty: it has {puzzle.height} rows and {puzzle.width} columns"
        )
    if max_size is not None and (puzzle.width > max_size or puzzle.height > max_size):
        raise LimitExceeded(
            f"the puzzle is {puzzle.width}x{puzzle.height}, above the size limit of "
            f"{max_size}x{max_size} (raise it with --max-size)"
        )
