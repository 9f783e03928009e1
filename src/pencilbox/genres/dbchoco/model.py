"""The Double Choco puzzle value (its answer value, `Walls`, and the edge numbering are in
`board`, below the engines; they are named here too).

A puzzle is a W x H grid of white and gray cells, some holding a number (or `?`). Its methods
are the genre interface: each hands the work to a sibling module (solve, logic, check,
render) imported when called; those modules know this class only as a type, so that no
import circle forms. Notations build puzzles, so they sit above this class: `to` reaches them
through the genre (`base.write`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from pencilbox.core.grid import cell_name
from pencilbox.errors import InvalidPuzzle, LimitExceeded
from pencilbox.genres import base
from pencilbox.genres.dbchoco.board import (
    OPEN,
    QUESTION,
    UNDECIDED,
    WALL,
    Edge,
    EdgeGeometry,
    Walls,
)

if TYPE_CHECKING:
    from pencilbox.core.step import Step
    from pencilbox.genres.base import SolveResult
    from pencilbox.genres.dbchoco.check import Violation

__all__ = [
    "DEFAULT_MAX_SIZE",
    "OPEN",
    "QUESTION",
    "UNDECIDED",
    "WALL",
    "DoubleChoco",
    "Edge",
    "EdgeGeometry",
    "Walls",
    "make_puzzle",
    "validate",
]

DEFAULT_MAX_SIZE = 200


@dataclass(frozen=True)
class DoubleChoco:
    width: int
    height: int
    gray: tuple[bool, ...]
    """Row-major: True for a gray cell."""
    numbers: tuple[int | None, ...]
    """Row-major: None, a size, or QUESTION."""
    title: str | None = field(default=None, compare=False)
    answer: Walls | None = field(default=None, compare=False)
    """An answer shipped with the puzzle (pzprv3 with walls, the shared JSON)."""
    meta: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    genre = "dbchoco"

    def is_gray(self, r: int, c: int) -> bool:
        return self.gray[r * self.width + c]

    def number(self, r: int, c: int) -> int | None:
        return self.numbers[r * self.width + c]

    @cached_property
    def geometry(self) -> EdgeGeometry:
        return EdgeGeometry(self.width, self.height)

    @cached_property
    def sizes(self) -> tuple[int | None, ...]:
        """Row-major: the size each clue gives, None for no clue and for `?`."""
        return tuple(None if n is None or n == QUESTION else n for n in self.numbers)

    def colour_rows(self) -> list[str]:
        return [
            "".join("g" if self.is_gray(r, c) else "w" for c in range(self.width))
            for r in range(self.height)
        ]

    def number_rows(self) -> list[list[int | str | None]]:
        return [
            [_number_json(self.number(r, c)) for c in range(self.width)] for r in range(self.height)
        ]

    def with_numbers(self, numbers: tuple[int | None, ...]) -> DoubleChoco:
        return DoubleChoco(self.width, self.height, self.gray, numbers, title=self.title)

    # -- the genre interface; the work lives in sibling modules -------------------------------
    def solve(
        self, limit: int = 2, time_limit: float | None = None, *, grade: bool = True
    ) -> SolveResult:
        from pencilbox.genres.dbchoco.solve import solve

        return solve(self, limit=limit, time_limit=time_limit, with_grade=grade)

    def steps(self, time_limit: float | None = None) -> list[Step]:
        from pencilbox.genres.dbchoco.solve import trace

        return trace(self, time_limit=time_limit)

    def grade(self) -> str:
        from pencilbox.genres.dbchoco.solve import grade

        return grade(self)

    def grade_report(self) -> dict[str, Any]:
        """The grade in the shape every genre reports it: the level, and the hardest
        technique it comes from (`search` for both when logic stops short)."""
        from pencilbox.genres.dbchoco.logic import GRADE_OF
        from pencilbox.genres.dbchoco.solve import hardest

        technique = hardest(self)
        level = GRADE_OF[technique]
        report = base.step_kind_report(level)
        report["hardest"] = level if level == "search" else technique
        return report

    def hint(self, level: int = 1) -> str | None:
        """The first step from the empty grid: 1 its technique, 2 where, 3 the sentence."""
        from pencilbox.genres.dbchoco.logic import first_step

        step = first_step(self)
        if step is None:
            return None
        if level == 1:
            return f"Use {step.technique.replace('_', ' ')} logic."
        if level == 2:
            names = [cell_name(cell) for cell in step.reasons[:6]]
            more = " and nearby" if len(step.reasons) > 6 else ""
            return f"Look at {', '.join(names)}{more}."
        return step.sentence

    def to(self, format: str) -> str:
        return base.write(self, format)  # (the notations build puzzles: they sit above)

    def check(self, answer: Walls) -> list[Violation]:
        from pencilbox.genres.dbchoco.check import violations

        return violations(self, answer)

    def logic_grid(self, max_passes: int | None = None, probes: bool = False) -> Walls:
        """The edges that logic decides (the CLI's `--single-pass` and `render --state logic`)."""
        from pencilbox.genres.dbchoco.logic import PROBE_SECONDS, deduce

        return deduce(self, probes=probes, patience=PROBE_SECONDS).walls()

    def render(self, state: Walls | None = None, fmt: str = "text") -> str:
        from pencilbox.genres.dbchoco import render

        if fmt == "svg":
            return render.svg(self, state)
        return render.text(self, state)

    def render_png(self, state: Walls | None = None, scale: int = 2) -> bytes:
        from pencilbox.genres.dbchoco import render

        return render.png(self, state, scale=scale)

    def solution_json(self, solution: Walls) -> dict[str, list[str]]:
        return solution.to_json()

    def __repr__(self) -> str:
        clues = sum(n is not None for n in self.numbers)
        return f"<DoubleChoco {self.width}x{self.height} {clues} clues>"


def _number_json(value: int | None) -> int | str | None:
    return "?" if value == QUESTION else value


def make_puzzle(
    gray: list[list[bool]],
    numbers: list[list[int | None]],
    *,
    title: str | None = None,
    answer: Walls | None = None,
    meta: dict[str, Any] | None = None,
    max_size: int | None = DEFAULT_MAX_SIZE,
) -> DoubleChoco:
    """Build a puzzle from row lists and validate it; raises InvalidPuzzle naming the cell."""
    height = len(gray)
    width = len(gray[0]) if gray else 0
    if height == 0 or width == 0:
        raise InvalidPuzzle(f"the puzzle is empty: {height} rows and {width} columns")
    for r, row in enumerate(gray):
        if len(row) != width:
            raise InvalidPuzzle(f"has {len(row)} cells, row 1 has {width}", where=f"row {r + 1}")
    if len(numbers) != height or any(len(row) != width for row in numbers):
        raise InvalidPuzzle(f"the numbers do not form a {width}x{height} grid")
    if max_size is not None and (width > max_size or height > max_size):
        raise LimitExceeded(
            f"the puzzle is {width}x{height}, above the size limit of {max_size}x{max_size} "
            "(raise it with --max-size)"
        )
    puzzle = DoubleChoco(
        width,
        height,
        tuple(bool(v) for row in gray for v in row),
        tuple(v for row in numbers for v in row),
        title=title,
        answer=answer,
        meta=dict(meta or {}),
    )
    validate(puzzle)
    return puzzle


def validate(puzzle: DoubleChoco) -> None:
    half = puzzle.width * puzzle.height // 2
    for i, value in enumerate(puzzle.numbers):
        if value is None or value == QUESTION:
            continue
        r, c = divmod(i, puzzle.width)
        where = f"r{r + 1}c{c + 1}"
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise InvalidPuzzle(f"the number {value!r} is not a positive whole number", where=where)
        if value > half:
            raise InvalidPuzzle(
                f"the number {value} is larger than half the grid ({half} cells)", where=where
            )
    if puzzle.answer is not None and (
        puzzle.answer.width != puzzle.width or puzzle.answer.height != puzzle.height
    ):
        raise InvalidPuzzle("the answer does not have the size of the puzzle", where="answer")
