"""An independent model of colour nonograms, to check the solver's verdicts against.

It shares nothing with pencilbox's colour solver: each line's placements are listed outright
(every way to lay its runs, with the gap rule: same colours apart, different colours may
touch), one SAT variable per placement with exactly one per line, and a cell's colour variables
tied to the placements of its row and of its column. python-sat counts the solutions, up to
two. Only for small lines: the listing is exponential, which is the point of the real solver.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

Clue = Sequence[tuple[int, int]]


class TooLarge(Exception):
    """A line has more placements than the model is willing to list."""


def line_placements(clue: Clue, length: int, cap: int) -> list[tuple[int, ...]]:
    """Every line (a colour index per cell, 0 background) that has exactly these runs."""
    found: list[tuple[int, ...]] = []

    def lay(j: int, at: int, cells: list[int]) -> Iterator[None]:
        if j == len(clue):
            found.append(tuple(cells + [0] * (length - at)))
            if len(found) > cap:
                raise TooLarge
            yield
            return
        size, colour = clue[j]
        gap = 1 if j > 0 and clue[j - 1][1] == colour else 0
        rest = sum(n for n, _ in clue[j + 1 :])
        for start in range(at + gap, length - size - rest + 1):
            yield from lay(j + 1, start + size, cells + [0] * (start - at) + [colour] * size)

    for _ in lay(0, 0, []):
        pass
    return found


class CellGrid:
    """What both test models share (the line encodings are theirs alone): one variable per
    cell and colour, background included, exactly one true per cell; the puzzle's lines; and
    the search for a first solution and a second that differs from it somewhere."""

    def __init__(self, height: int, width: int, colours: int) -> None:
        self.height, self.width, self.colours = height, width, colours
        self.pool = IDPool()
        self.clauses: list[list[int]] = []
        for r, c in itertools.product(range(height), range(width)):
            options = [self.cell(r, c, k) for k in range(colours)]
            encoded = CardEnc.equals(options, 1, vpool=self.pool, encoding=EncType.pairwise)
            self.clauses.extend(encoded.clauses)

    def cell(self, r: int, c: int, colour: int) -> int:
        return self.pool.id(("cell", r, c, colour))

    def lines(self, rows: Sequence[Clue], cols: Sequence[Clue]) -> list[tuple[str, int, Clue, int]]:
        """(kind, index, clue, length) for every row, then every column."""
        found = [("row", i, clue, self.width) for i, clue in enumerate(rows)]
        return found + [("col", i, clue, self.height) for i, clue in enumerate(cols)]

    def first_two(self) -> tuple[int, list[list[int]]]:
        """(0, 1 or 2 meaning "two or more"; the solutions found, row-major colour indices)."""
        cells = list(itertools.product(range(self.height), range(self.width)))
        grids: list[list[int]] = []
        with Solver(name="minisat22", bootstrap_with=self.clauses) as solver:
            while len(grids) < 2 and solver.solve():
                model = set(lit for lit in solver.get_model() if lit > 0)
                grid = [
                    next(k for k in range(self.colours) if self.cell(r, c, k) in model)
                    for r, c in cells
                ]
                grids.append(grid)
                solver.add_clause([-self.cell(r, c, k) for (r, c), k in zip(cells, grid)])
        return len(grids), grids


def count_solutions(
    rows: Sequence[Clue], cols: Sequence[Clue], colours: int, cap: int = 20_000
) -> tuple[int, list[list[int]]]:
    """(0, 1 or 2 meaning "two or more"; the solutions found, row-major colour indices)."""
    grid = CellGrid(len(rows), len(cols), colours)
    pool, clauses, cell = grid.pool, grid.clauses, grid.cell
    for kind, index, clue, length in grid.lines(rows, cols):
        selectors = []
        for number, placement in enumerate(line_placements(clue, length, cap)):
            chosen = pool.id((kind, index, number))
            selectors.append(chosen)
            for position, colour in enumerate(placement):
                r, c = (index, position) if kind == "row" else (position, index)
                clauses.append([-chosen, cell(r, c, colour)])
        if not selectors:
            return 0, []
        clauses.append(selectors)
    return grid.first_two()
