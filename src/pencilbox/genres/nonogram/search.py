"""Complete search: the nonogram as a SAT problem for CaDiCaL.

One variable per cell (true = filled). For each line, the start of run j is written in *order
encoding*: le[j][t] means "run j starts at or before its t-th possible start". Only starts that
the exact line solver still allows (given the cells known after logic) get a variable, which
keeps the formula small even on 512x512 grids. Then:
  - le is monotone and the last possible start is always reached (each run starts exactly once);
  - run j+1 starting by p forces run j to start by p - len(j) - 1 (order and gap);
  - run j covers cell c  <=>  it starts by c and not by c - len(j);
  - a cell is filled  <=>  some run of its row covers it (and likewise for its column).
"""

from __future__ import annotations

import itertools
from bisect import bisect_right
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pencilbox.core.sat import SatSolver
from pencilbox.genres.nonogram.cells import EMPTY, FILLED, Clue
from pencilbox.genres.nonogram.line import placements
from pencilbox.genres.nonogram.logic import read_line

if TYPE_CHECKING:
    from pencilbox.genres.nonogram.model import Nonogram


class Unsatisfiable(Exception):
    """A line has no placement at all: the puzzle has no solution from this state."""


def encode(puzzle: Nonogram, cells: Sequence[int], solver: SatSolver) -> list[int]:
    """Add the puzzle's clauses to `solver`; return the cell variables (row-major)."""
    cell_vars = solver.new_vars(len(cells))
    for i, value in enumerate(cells):
        if value == FILLED:
            solver.add_clause([cell_vars[i]])
        elif value == EMPTY:
            solver.add_clause([-cell_vars[i]])
    width = puzzle.width
    state = list(cells)
    for r, clue in enumerate(puzzle.rows):
        line_vars = cell_vars[r * width : (r + 1) * width]
        _encode_line(solver, clue, read_line(puzzle, state, "row", r), line_vars)
    for c, clue in enumerate(puzzle.cols):
        line_vars = cell_vars[c::width]
        _encode_line(solver, clue, read_line(puzzle, state, "column", c), line_vars)
    return cell_vars


def _encode_line(
    solver: SatSolver, clue: Clue, line: tuple[int, ...], cell_vars: Sequence[int]
) -> None:
    found = placements(clue, line)
    if found is None:
        raise Unsatisfiable
    covers = run_covers(solver, clue, (1,) * len(clue), found.starts, len(cell_vars))
    for cell_var, cell_covers in zip(cell_vars, covers):
        solver.equals_or(cell_var, [literal for _, literal in cell_covers])


def run_covers(
    solver: SatSolver,
    lengths: Sequence[int],
    gaps: Sequence[int],
    all_starts: Sequence[Sequence[int]],
    size: int,
) -> list[list[tuple[int, int]]]:
    """Order-encode where each run starts; return, per cell, (run, literal "the run covers
    this cell") pairs. `gaps[j]` is the least gap after run j (1, or 0 between colours);
    `all_starts[j]` the possible starts of run j, ascending."""
    # le_vars[j][t]: run j starts at or before all_starts[j][t]; the last one is always true.
    # The clauses are gathered and added in one call (the colour search encodes many lines).
    clauses: list[list[int]] = []
    le_vars: list[list[int]] = []
    for starts in all_starts:
        chain = solver.new_vars(len(starts))
        clauses.append([chain[-1]])
        clauses.extend([-a, b] for a, b in itertools.pairwise(chain))
        le_vars.append(chain)

    def starts_by(j: int, position: int) -> int | None:
        """Literal for "run j starts at or before position" (None = certainly false)."""
        t = bisect_right(all_starts[j], position) - 1
        return le_vars[j][t] if t >= 0 else None

    for j in range(len(lengths) - 1):
        for t, p in enumerate(all_starts[j + 1]):
            earlier = starts_by(j, p - lengths[j] - gaps[j])
            clauses.append([-le_vars[j + 1][t]] + ([earlier] if earlier else []))

    covers: list[list[tuple[int, int]]] = [[] for _ in range(size)]
    for j, length in enumerate(lengths):
        for c in range(all_starts[j][0], all_starts[j][-1] + length):
            by_c = starts_by(j, c)
            by_before = starts_by(j, c - length)
            if by_c is None or by_c == by_before:
                continue  # no allowed start of run j lies in (c - length, c]
            if by_before is None:
                covers[c].append((j, by_c))
                continue
            cover = solver.new_var()  # cover <-> by_c and not by_before
            clauses += [[cover, -by_c, by_before], [-cover, by_c], [-cover, -by_before]]
            covers[c].append((j, cover))
    solver.add_clauses(clauses)
    return covers
