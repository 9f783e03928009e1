"""Complete search for colour nonograms: the puzzle as a SAT problem for CaDiCaL.

One variable per cell and colour (background aside) still possible there. Each line's runs are
order-encoded on the starts the colour line solver still allows (shared with the
black-and-white encoding: search.run_covers), with a gap of one after a run only when the next
run has the same colour; a cell has colour c exactly when some run of colour c covers it. Runs
of a line never overlap, so at most one colour variable of a cell is true: no clauses are
needed for that, and a cell with none true is background.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pencilbox.core.sat import SatSolver
from pencilbox.genres.nonogram.colour.cells import BACKGROUND, ColourClue
from pencilbox.genres.nonogram.colour.line import run_starts
from pencilbox.genres.nonogram.colour.logic import colours_of
from pencilbox.genres.nonogram.logic import read_line
from pencilbox.genres.nonogram.search import Unsatisfiable, run_covers

if TYPE_CHECKING:
    from pencilbox.genres.nonogram.colour.model import ColourNonogram

CellVars = list[dict[int, int]]
"""Per cell (row-major): colour index (1 and up) -> the variable "the cell has this colour"."""


def encode(puzzle: ColourNonogram, cells: Sequence[int], solver: SatSolver) -> CellVars:
    """Add the puzzle's clauses to `solver`; return the cell-colour variables."""
    cell_vars: CellVars = []
    for mask in cells:
        options = [colour for colour in colours_of(mask) if colour != BACKGROUND]
        if not mask:
            raise Unsatisfiable
        variables = dict(zip(options, solver.new_vars(len(options))))
        if not mask & 1 << BACKGROUND:  # coloured for sure, the colour still open
            solver.add_clause(list(variables.values()))
        cell_vars.append(variables)
    width = puzzle.width
    state = list(cells)
    for kind, clues in (("row", puzzle.rows), ("column", puzzle.cols)):
        for index, clue in enumerate(clues):
            line = read_line(puzzle, state, kind, index)
            if all(mask & (mask - 1) == 0 for mask in line):
                # Decided after propagation, so it fits its clue (the line solver accepted
                # it), and its cells are fixed by the unit clauses above: nothing to say.
                continue
            if kind == "row":
                encode_line(solver, clue, line, cell_vars[index * width : (index + 1) * width])
            else:
                encode_line(solver, clue, line, cell_vars[index::width])
    return cell_vars


def encode_line(
    solver: SatSolver, clue: ColourClue, line: tuple[int, ...], cell_vars: CellVars
) -> None:
    starts = run_starts(clue, line)
    if starts is None:
        raise Unsatisfiable
    if not clue:
        solver.add_clauses([-v] for variables in cell_vars for v in variables.values())
        return
    lengths = [length for length, _ in clue]
    gaps = [int(a[1] == b[1]) for a, b in itertools.pairwise(clue)] + [0]
    covers = run_covers(solver, lengths, gaps, starts, len(line))
    for variables, cell_covers in zip(cell_vars, covers):
        for colour, variable in variables.items():
            solver.equals_or(variable, [lit for j, lit in cell_covers if clue[j][1] == colour])
        for j, literal in cell_covers:
            if clue[j][1] not in variables:  # cannot happen after the line solver; kept exact
                solver.add_clause([-literal])


def is_colour(cell_vars: CellVars, cell: int, colour: int) -> list[int]:
    """Assumption literals for "the cell has this colour" (background: none of its colours)."""
    variables = cell_vars[cell]
    if colour == BACKGROUND:
        return [-variable for variable in variables.values()]
    return [variables[colour]]
