"""The puzzle methods that black-and-white and colour nonograms share: each hands the work to
the one engine (logic, solve, explain), which sees either kind as its `board`. The engines
import the puzzle classes only as types, so the imports here are lazy."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pencilbox.genres import base

if TYPE_CHECKING:
    from pencilbox.core.grid import Grid
    from pencilbox.core.step import Step
    from pencilbox.genres.base import SolveResult
    from pencilbox.genres.nonogram.logic import Board


class EngineFace:
    """solve, steps, grade, hint and logic_grid, for a class that has a `board`; and the
    shape of the grid, for a class that has `rows` and `cols` of clues."""

    rows: Sequence[Any]
    cols: Sequence[Any]

    @property
    def width(self) -> int:
        return len(self.cols)

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def board(self) -> Board:
        raise NotImplementedError

    def solve(
        self, limit: int = 2, time_limit: float | None = None, *, grade: bool = True
    ) -> SolveResult:
        from pencilbox.genres.nonogram.solve import solve

        # The grade (line, probe or search) comes with the search itself, asked for or not.
        return solve(self, limit=limit, time_limit=time_limit)

    def steps(self, time_limit: float | None = None) -> list[Step]:
        from pencilbox.genres.nonogram.explain import trace

        return trace(self, time_limit=time_limit)

    def grade(self) -> str:
        from pencilbox.genres.nonogram.solve import grade

        return grade(self)

    def grade_report(self) -> dict[str, Any]:
        """The grade in the shape every genre reports it (line / probe / search)."""
        return base.step_kind_report(self.grade())

    def hint(self, level: int = 1) -> str | None:
        """The first step from the empty grid: 1 its technique, 2 where, 3 the sentence."""
        from pencilbox.genres.nonogram.explain import trace

        steps = trace(self, max_passes=1)
        if not steps:
            return None
        step = steps[0]
        if level == 1:
            return f"Use {step.technique} logic."
        if level == 2:
            return f"Look at {step.clue}." if step.clue else step.sentence
        return step.sentence

    def logic_grid(self, max_passes: int | None = None, probes: bool = False) -> Grid:
        """The cells that logic fixes: `max_passes=1` is the seed tool's "single step"."""
        from pencilbox.genres.nonogram.logic import propagate_board, solve_board_by_logic
        from pencilbox.genres.nonogram.solve import grid_of

        board = self.board
        cells = [board.full_mask] * (board.width * board.height)
        if probes:
            solve_board_by_logic(board, cells)
        else:
            propagate_board(board, cells, max_passes=max_passes)
        return grid_of(board, cells)
