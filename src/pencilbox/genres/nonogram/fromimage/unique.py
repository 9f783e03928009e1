"""Make a picture's nonogram unique at a grade by changing as few cells as possible, choosing
the changes that keep it closest to the original.

A picture's clues often allow more than one grid (a switchable rectangle of cells, a run that
can slide), or need more than the asked grade of logic. The repair works in rounds:

- grade `line` or `probe`: that logic is run on the clues from the empty grid; the cells it
  leaves undecided are where the picture is ambiguous. Fully decided means unique.
- grade `search`: the SAT search asks for two solutions; the cells where they differ are the
  ambiguity.

Each round changes one of those cells to another colour, which changes its row's and its
column's clues. Of the candidates the cheapest few (by `Pixels.cost`: how far from the
original the new colour takes the cell) are tried, and for the logic grades the one that
leaves the fewest cells undecided wins, cost breaking ties; a cell changed once is not changed
again (changing it back would restore the ambiguity). The repair gives up after `budget`
changed cells.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from pencilbox.core.grid import Grid
from pencilbox.core.timing import Deadline, TimeLimitReached
from pencilbox.genres.nonogram import logic
from pencilbox.genres.nonogram.colour.model import Colour, ColourNonogram
from pencilbox.genres.nonogram.colour.model import clues_of as colour_clues
from pencilbox.genres.nonogram.fromimage.check import UniquenessCheck
from pencilbox.genres.nonogram.model import EMPTY, FILLED, Nonogram, make_puzzle
from pencilbox.genres.nonogram.model import clues_of as bw_clues

TRIED = {"line": 6, "probe": 4, "search": 3}
"""The cheapest candidate changes compared in a round (by what line logic then decides)."""
HOPELESS_AFTER = 8
"""Changes made before the pace of a logic grade's repair is judged (see `_hopeless`)."""

AnyNonogram = Nonogram | ColourNonogram


@dataclass
class Repair:
    """The outcome: the grid, its puzzle, the changed cells {index: colour before} and
    whether the grade was reached within the budget."""

    grid: list[int]
    puzzle: AnyNonogram
    changed: dict[int, int] = field(default_factory=dict)
    reached: bool = False


class Builder:
    """Puzzles from grids of palette indices, and what logic leaves open in them."""

    def __init__(self, width: int, height: int, palette: Sequence[Colour]) -> None:
        self.width, self.height = width, height
        self.palette = tuple(palette)
        self._check: UniquenessCheck | None = None

    @property
    def colour(self) -> bool:
        return len(self.palette) > 2

    def puzzle(self, grid: Sequence[int]) -> AnyNonogram:
        if not self.colour:
            cells = Grid(self.width, self.height, tuple(FILLED if v else EMPTY for v in grid))
            rows, cols = bw_clues(cells)
            return make_puzzle(rows, cols, goal=cells, max_size=None)
        masks = Grid(self.width, self.height, tuple(1 << v for v in grid))
        colour_rows, colour_cols = colour_clues(masks)
        return ColourNonogram(self.palette, colour_rows, colour_cols, goal=masks)

    def open_cells(
        self, puzzle: AnyNonogram, grid: Sequence[int], grade: str, deadline: Deadline
    ) -> list[int]:
        """The cells that line logic (or lines and probes) cannot decide from the empty grid."""
        board = puzzle.board  # black-and-white is the one-colour board: palette index = colour
        masks = [board.full_mask] * len(grid)
        if grade == "probe":
            solution = [1 << v for v in grid]
            logic.solve_board_by_logic(board, masks, deadline=deadline, solution=solution)
        else:
            logic.propagate_board(board, masks, deadline=deadline)
        return [i for i, mask in enumerate(masks) if mask & (mask - 1)]

    def differing_cells(self, grid: Sequence[int], deadline: Deadline) -> list[int] | None:
        """Where another solution differs from `grid`, or None when `grid` is the only one."""
        if self._check is None:
            self._check = UniquenessCheck(self.width, self.height, max(2, len(self.palette)))
        masks = Grid(self.width, self.height, tuple(1 << v for v in grid))
        rows, cols = colour_clues(masks)
        other = self._check.other_solution(grid, rows, cols, deadline)
        if other is None:
            return None
        return [i for i, (a, b) in enumerate(zip(grid, other)) if a != b]

    def close(self) -> None:
        if self._check is not None:
            self._check.close()
            self._check = None


def repair(
    builder: Builder,
    start: Sequence[int],
    cost: Sequence[Sequence[float]],
    grade: str,
    budget: int,
    rng: random.Random,
    deadline: Deadline,
) -> Repair:
    """Change cells of `start` until its clues are unique at `grade` (see the module)."""
    state = Repair(list(start), builder.puzzle(start))
    open_cells = _open(builder, state, grade, deadline)
    first_open = len(open_cells)
    while open_cells:
        if len(state.changed) >= budget or _hopeless(grade, first_open, open_cells, state, budget):
            return state
        if deadline.expired():
            raise TimeLimitReached
        for group in _groups(open_cells, builder.width)[: budget - len(state.changed)]:
            options = _candidates(group, state, cost, rng)[: TRIED[grade]]
            _apply(builder, state, _best(builder, state, options, cost, deadline))
        open_cells = _open(builder, state, grade, deadline)
    state.reached = True
    return state


def _hopeless(
    grade: str, first_open: int, open_cells: Sequence[int], state: Repair, budget: int
) -> bool:
    """For the logic grades: True when, at the pace of the changes so far (open cells closed
    per change), the open cells left would take over twice the budget that is left. Saves
    spending the whole budget on a picture that will not get there (a tree's thin branches)."""
    made = len(state.changed)
    if grade == "search" or made < HOPELESS_AFTER:
        return False
    pace = (first_open - len(open_cells)) / made
    return pace <= 0 or len(open_cells) / pace > 2 * (budget - made)


def _best(
    builder: Builder,
    state: Repair,
    options: list[tuple[int, int]],
    cost: Sequence[Sequence[float]],
    deadline: Deadline,
) -> tuple[int, int]:
    """The option after which line logic leaves the fewest cells open (cost breaks ties): a
    cheap measure of how much ambiguity a change removes, whatever the grade."""
    if len(options) == 1:
        return options[0]
    scored = []
    for option in options:
        trial = Repair(list(state.grid), state.puzzle, dict(state.changed))
        _apply(builder, trial, option)
        left = builder.open_cells(trial.puzzle, trial.grid, "line", deadline)
        scored.append((len(left), cost[option[0]][option[1]], option))
    return min(scored)[2]


def _groups(cells: Sequence[int], width: int) -> list[list[int]]:
    """The open cells split into groups that share no row and no column: each is an
    ambiguity of its own, so one round changes a cell in each (the first group holds the
    lines that overlap; most rounds find one group)."""
    groups: list[tuple[set[int], set[int], list[int]]] = []
    for cell in cells:
        row, column = divmod(cell, width)
        joined = [g for g in groups if row in g[0] or column in g[1]]
        rows, columns, members = {row}, {column}, [cell]
        for g in joined:
            rows |= g[0]
            columns |= g[1]
            members += g[2]
            groups.remove(g)
        groups.append((rows, columns, members))
    return [members for _, _, members in groups]


def _open(builder: Builder, state: Repair, grade: str, deadline: Deadline) -> list[int]:
    if grade == "search":
        if not builder.open_cells(state.puzzle, state.grid, "line", deadline):
            return []  # line logic proves it unique, no need to ask the SAT solver
        return builder.differing_cells(state.grid, deadline) or []
    return builder.open_cells(state.puzzle, state.grid, grade, deadline)


def _candidates(
    cells: Sequence[int], state: Repair, cost: Sequence[Sequence[float]], rng: random.Random
) -> list[tuple[int, int]]:
    """(cell, new colour) pairs, cheapest first; cells changed before only when nothing else
    is left. A random key breaks ties, so flat areas do not always give up their first cell."""
    fresh = [cell for cell in cells if cell not in state.changed] or list(cells)
    pairs = []
    for cell in fresh:
        own = state.grid[cell]
        for colour, price in enumerate(cost[cell]):
            if colour != own:
                pairs.append((price, rng.random(), cell, colour))
    pairs.sort()
    return [(cell, colour) for _, _, cell, colour in pairs]


def _apply(builder: Builder, state: Repair, option: tuple[int, int]) -> None:
    cell, colour = option
    state.changed.setdefault(cell, state.grid[cell])
    state.grid[cell] = colour
    if state.changed[cell] == colour:  # back to where it started: no longer a change
        del state.changed[cell]
    state.puzzle = builder.puzzle(state.grid)
