"""An incremental uniqueness proof for a picture being repaired one cell at a time.

The picture itself always fits its clues, so its clues are unique exactly when no *other* grid
fits them: one SAT question, "a grid that fits the clues and differs from the picture
somewhere". The repair asks it after every round, and a round changes only a few rows and
columns, so one CaDiCaL instance is kept for the whole repair: each line's clauses carry a
guard literal of their own, assumed while the clue holds; when a clue changes, its guard is
retired (asserted false) and the new clue is encoded under a new guard. The "differs
somewhere" clause of a question has a guard too, retired after it. Encoding a 50x50 puzzle
anew each round took most of the repair's time; this way a round encodes two lines.

Black-and-white is the one-colour case: the encoding of search.py with every run of colour 1
is the black-and-white one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pencilbox.core.sat import SatSolver
from pencilbox.core.timing import Deadline
from pencilbox.genres.nonogram.colour.model import BACKGROUND, ColourClue
from pencilbox.genres.nonogram.search import CellVars, encode_line


class GuardedSolver(SatSolver):
    """A SatSolver that adds `-guard` to every clause while a guard is set."""

    def __init__(self) -> None:
        super().__init__()
        self.guard = 0

    def add_clause(self, literals: Iterable[int]) -> None:
        clause = list(literals)
        super().add_clause([*clause, -self.guard] if self.guard else clause)

    def add_clauses(self, clauses: Iterable[Sequence[int]]) -> None:
        for clause in clauses:
            self.add_clause(clause)

    def equals_or(self, target: int, inputs: Sequence[int]) -> None:
        self.add_clause([-target, *inputs])
        for literal in inputs:
            self.add_clause([target, -literal])

    def equals_and(self, target: int, inputs: Sequence[int]) -> None:
        self.add_clause([target, *(-literal for literal in inputs)])
        for literal in inputs:
            self.add_clause([-target, literal])


class UniquenessCheck:
    """`other_solution(grid, rows, cols)`: another grid that fits the clues, or None."""

    def __init__(self, width: int, height: int, colours: int) -> None:
        self.width, self.height = width, height
        self.full_mask = (1 << colours) - 1
        self.solver = GuardedSolver()
        self.cell_vars: CellVars = [
            dict(zip(range(1, colours), self.solver.new_vars(colours - 1)))
            for _ in range(width * height)
        ]
        self.lines: dict[tuple[str, int], tuple[ColourClue, int]] = {}

    def close(self) -> None:
        self.solver.close()

    def other_solution(
        self,
        grid: Sequence[int],
        rows: Sequence[ColourClue],
        cols: Sequence[ColourClue],
        deadline: Deadline,
    ) -> list[int] | None:
        """A grid of palette indices, other than `grid`, that fits the clues; None when the
        clues have `grid` as their only solution (a proof)."""
        self._update(rows, cols)
        differs = self.solver.new_var()
        self.solver.guard = differs
        self.solver.add_clause(
            literal
            for cell, colour in enumerate(grid)
            for literal in (
                self.cell_vars[cell].values()
                if colour == BACKGROUND
                else [-self.cell_vars[cell][colour]]
            )
        )
        self.solver.guard = 0
        assumptions = [guard for _, guard in self.lines.values()] + [differs]
        found = self.solver.solve(assumptions, deadline)
        other = self._model() if found else None
        self.solver.add_clause([-differs])
        return other

    def _update(self, rows: Sequence[ColourClue], cols: Sequence[ColourClue]) -> None:
        width = self.width
        for kind, clues in (("row", rows), ("column", cols)):
            for index, clue in enumerate(clues):
                known = self.lines.get((kind, index))
                if known is not None and known[0] == clue:
                    continue
                if known is not None:
                    self.solver.add_clause([-known[1]])  # retire the old clue's clauses
                guard = self.solver.new_var()
                self.solver.guard = guard
                if kind == "row":
                    cells = self.cell_vars[index * width : (index + 1) * width]
                else:
                    cells = self.cell_vars[index::width]
                encode_line(self.solver, clue, (self.full_mask,) * len(cells), cells)
                self.solver.guard = 0
                self.lines[kind, index] = (clue, guard)

    def _model(self) -> list[int]:
        every = [v for variables in self.cell_vars for v in variables.values()]
        values = dict(zip(every, self.solver.values(every)))
        return [
            next((colour for colour, v in variables.items() if values[v]), BACKGROUND)
            for variables in self.cell_vars
        ]
