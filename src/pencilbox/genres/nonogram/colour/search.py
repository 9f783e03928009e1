"""Complete search for colour nonograms: the puzzle as a SAT problem for CaDiCaL.

The problem is what line propagation left open, not the whole grid: a cell that propagation
decided is a constant, and a line with no open cell is left out (it fits its clue: the line
solver accepted it). An open cell gets one variable per colour (background aside) still
possible there. Each line with an open cell has its runs order-encoded on the starts the colour
line solver still allows (shared with the black-and-white encoding: search.run_covers), with a
gap of one after a run only when the next run has the same colour; an open cell has colour c
exactly when some run of colour c covers it, and a decided coloured cell is covered by a run of
its colour. Runs of a line never overlap, so at most one colour variable of a cell is true: no
clauses are needed for that, and a cell with none true is background.

On the speckled 30x30 puzzles of the benchmark, propagation leaves 4 to 25 cells open; encoding
only those (instead of a variable per cell and colour of all 900, with unit clauses for the
decided ones) took the encoding from about 2.5 ms to a tenth of that.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING

from pencilbox.core.sat import SatSolver
from pencilbox.genres.nonogram.colour.cells import BACKGROUND, ColourClue
from pencilbox.genres.nonogram.colour.line import run_starts
from pencilbox.genres.nonogram.logic import read_line
from pencilbox.genres.nonogram.search import Unsatisfiable, run_covers

if TYPE_CHECKING:
    from pencilbox.genres.nonogram.colour.model import ColourNonogram

CellVars = list[Mapping[int, int]]
"""Per cell (row-major): colour index (1 and up) -> the variable "the cell has this colour";
empty for a cell that was decided when the puzzle was encoded (a constant of the encoding)."""

DECIDED: Mapping[int, int] = MappingProxyType({})
"""The variables of a decided cell: none."""


def encode(puzzle: ColourNonogram, cells: Sequence[int], solver: SatSolver) -> CellVars:
    """Add the clauses of what `cells` leaves open to `solver`; return the cell-colour
    variables (none for the decided cells)."""
    if not all(cells):
        raise Unsatisfiable
    cell_vars: CellVars = [DECIDED] * len(cells)
    must_colour = []
    for i, mask in enumerate(cells):
        if mask & (mask - 1):
            options = [c for c in range(1, mask.bit_length()) if mask >> c & 1]
            cell_vars[i] = dict(zip(options, solver.new_vars(len(options))))
            if not mask & 1 << BACKGROUND:  # coloured for sure, the colour still open
                must_colour.append(list(cell_vars[i].values()))
    solver.add_clauses(must_colour)
    width = puzzle.width
    open_rows = {i // width for i, variables in enumerate(cell_vars) if variables}
    open_cols = {i % width for i, variables in enumerate(cell_vars) if variables}
    state = list(cells)
    for index in sorted(open_rows):
        row = read_line(puzzle, state, "row", index)
        encode_line(solver, puzzle.rows[index], row, cell_vars[index * width : (index + 1) * width])
    for index in sorted(open_cols):
        column = read_line(puzzle, state, "column", index)
        encode_line(solver, puzzle.cols[index], column, cell_vars[index::width])
    return cell_vars


def encode_line(
    solver: SatSolver, clue: ColourClue, line: tuple[int, ...], cell_vars: CellVars
) -> None:
    """The clauses of one line: its cells' colours (`cell_vars`, where a cell without
    variables is decided, its colour read from `line`) are those its runs give them."""
    starts = run_starts(clue, line)
    if starts is None:
        raise Unsatisfiable
    if not clue:
        solver.add_clauses([-v] for variables in cell_vars for v in variables.values())
        return
    lengths = [length for length, _ in clue]
    gaps = [int(a[1] == b[1]) for a, b in itertools.pairwise(clue)] + [0]
    covers = run_covers(solver, lengths, gaps, starts, len(line))
    clauses: list[list[int]] = []
    for mask, variables, cell_covers in zip(line, cell_vars, covers):
        for j, literal in cell_covers:
            if not mask >> clue[j][1] & 1:  # cannot happen after the line solver; kept exact
                clauses.append([-literal])
        if variables:
            for colour, variable in variables.items():
                inputs = [lit for j, lit in cell_covers if clue[j][1] == colour]
                clauses.append([-variable, *inputs])
                clauses.extend([variable, -literal] for literal in inputs)
        elif mask != 1 << BACKGROUND:  # decided on a colour: a run of that colour covers it
            colour = mask.bit_length() - 1
            clauses.append([lit for j, lit in cell_covers if clue[j][1] == colour])
    solver.add_clauses(clauses)


def is_colour(cell_vars: CellVars, cell: int, colour: int) -> list[int]:
    """Assumption literals for "the cell has this colour" (background: none of its colours);
    none for a cell decided when the puzzle was encoded (there it is a constant)."""
    variables = cell_vars[cell]
    if not variables:
        return []
    if colour == BACKGROUND:
        return [-variable for variable in variables.values()]
    return [variables[colour]]
