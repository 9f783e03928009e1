"""Complete search: the nonogram as a SAT problem for CaDiCaL.

The problem is what line propagation left open, not the whole grid: a cell that propagation
decided is a constant, and a line with no open cell is left out (it fits its clue: the line
solver accepted it). An open cell gets one variable per colour (background aside) still
possible there; for black-and-white that is one variable per open cell, true = filled. For each
line with an open cell, the start of run j is written in *order encoding*: le[j][t] means "run
j starts at or before its t-th possible start". Only starts that the exact line solver still
allows get a variable, which keeps the formula small even on 512x512 grids. Then:
  - le is monotone and the last possible start is always reached (each run starts exactly once);
  - run j+1 starting by p forces run j to start by p - len(j) - gap (order and gap; the gap is
    one cell between runs of the same colour, none between different colours);
  - run j covers cell c  <=>  it starts by c and not by c - len(j);
  - an open cell has colour c  <=>  some run of colour c of its row covers it (and likewise for
    its column); a decided coloured cell is covered by a run of its colour.
Runs of a line never overlap, so at most one colour variable of a cell is true: no clauses are
needed for that, and a cell with none true is background.

On the speckled 30x30 puzzles of the colour benchmark, propagation leaves 4 to 25 cells open;
encoding only those (instead of a variable per cell and colour of all 900, with unit clauses for
the decided ones) took the encoding from about 2.5 ms to a tenth of that.

Unit propagation on these clauses sees one run's bounds at a time, which is weaker than the
exact line solver; with the compiled engine a search that outlasts CLAUSES_FIRST conflicts
carries the line solver inside it (`enumerate_with_lines`: _engine.c's LinePropagator, an
external propagator of CaDiCaL), so a line's every consequence is found as soon as the search
assigns its cells, as a clause CaDiCaL learns. On random 35x35 puzzles (ink 0.4, about 1,200
cells open after probing) it decides more of them, and most several times sooner, than the
clauses alone (bench/nonogram_search.py, bench/results/nonogram_search.md).
"""

from __future__ import annotations

import itertools
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING

from pencilbox.core.sat import SatSolver, interrupt_requested
from pencilbox.core.timing import Deadline, Stats, TimeLimitReached
from pencilbox.genres.nonogram.colour.cells import BACKGROUND, ColourClue
from pencilbox.genres.nonogram.line import KERNEL, run_starts
from pencilbox.genres.nonogram.logic import read_line

if TYPE_CHECKING:
    from pencilbox.genres.nonogram.logic import Board


class Unsatisfiable(Exception):
    """A line has no placement at all: the puzzle has no solution from this state."""


CellVars = list[Mapping[int, int]]
"""Per cell (row-major): colour index (1 and up) -> the variable "the cell has this colour";
empty for a cell that was decided when the puzzle was encoded (a constant of the encoding)."""

DECIDED: Mapping[int, int] = MappingProxyType({})
"""The variables of a decided cell: none."""


def encode(board: Board, cells: Sequence[int], solver: SatSolver) -> CellVars:
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
    width = board.width
    open_rows = {i // width for i, variables in enumerate(cell_vars) if variables}
    open_cols = {i % width for i, variables in enumerate(cell_vars) if variables}
    state = list(cells)
    for index in sorted(open_rows):
        row = read_line(board, state, "row", index)
        encode_line(solver, board.rows[index], row, cell_vars[index * width : (index + 1) * width])
    for index in sorted(open_cols):
        column = read_line(board, state, "column", index)
        encode_line(solver, board.cols[index], column, cell_vars[index::width])
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


CLAUSES_FIRST = 10_000
"""Conflicts each solution is looked for with the clauses alone before the line solver joins
the search. The corpus's puzzles that reach the search are mostly done within them, and there
the propagator's callbacks cost more than they save (LalaFrogKK: 0.11 s alone, 0.61 s with
lines from the start); the hard random ones are not, and there it pays (median 4.8x)."""


BRANCH_NODES = 64
"""Guesses `branch_search` may make before it leaves the puzzle to SAT."""

BRANCH_OPEN = 64
"""The most open cells for which `branch_search` is tried first."""


def branch_search(
    board: Board, cells: Sequence[int], limit: int, deadline: Deadline | None = None
) -> list[list[int]] | None:
    """Up to `limit` solutions (grids of masks) by guessing open cells, each guess followed by
    the compiled line propagation; None when the engine is not compiled or BRANCH_NODES
    guesses did not finish the search. Complete within its budget: every colour of a guessed
    cell is tried, and a grid propagation leaves decided without a broken line fits every clue
    (each of its lines was solved exactly once its last cell was set).

    Why: line logic often leaves only a few cells open (4-25 of 900 on a speckled 30x30 with two
    solutions); a few guesses settle those in microseconds, where building the SAT encoding of
    every line through them cost most of the solve."""
    kernel = board.kernel
    if kernel is None:
        return None
    width = board.width
    found: list[list[int]] = []
    stack = [list(cells)]
    guesses = 0
    while stack and len(found) < limit:
        state = stack.pop()
        cell = next((i for i, mask in enumerate(state) if mask & (mask - 1)), None)
        if cell is None:
            found.append(state)
            continue
        guesses += 1
        if guesses > BRANCH_NODES:
            return None
        if deadline is not None and deadline.expired():
            raise TimeLimitReached
        mask = state[cell]
        # the highest colour is pushed first, so the background is tried first
        for colour in range(mask.bit_length() - 1, -1, -1):
            if not mask >> colour & 1:
                continue
            child = state.copy()
            child[cell] = 1 << colour
            broken = kernel.propagate(child, [cell // width], [cell % width], -1)[0]
            if broken is None:
                stack.append(child)
    return found


def enumerate_with_lines(
    board: Board,
    cells: Sequence[int],
    cell_vars: CellVars,
    solver: SatSolver,
    limit: int,
    stats: Stats,
    deadline: Deadline | None = None,
) -> list[list[bool]] | None:
    """Up to `limit` solutions of what `encode` added to `solver`, as values of the open
    cells' variables (in cell order, then colour): each looked for with the clauses alone for
    CLAUSES_FIRST conflicts, then with the line solver inside the search; None without the
    compiled engine (the caller then searches with clauses alone). Each solution found is
    forbidden before the next is looked for, as SatSolver.enumerate does."""
    if KERNEL is None or board.kernel is None:
        return None
    table = [0] * (len(cells) * board.colours)
    observed = []
    for cell, variables in enumerate(cell_vars):
        for colour, variable in variables.items():
            table[cell * board.colours + colour] = variable
            observed.append(variable)
    found: list[list[bool]] = []
    while len(found) < limit:
        values = _one_solution(board, cells, table, observed, solver, stats, deadline)
        if values is None:
            break
        found.append(values)
        solver.add_clause([-v if value else v for v, value in zip(observed, values)])
    return found


def _one_solution(
    board: Board,
    cells: Sequence[int],
    table: list[int],
    observed: list[int],
    solver: SatSolver,
    stats: Stats,
    deadline: Deadline | None,
) -> list[bool] | None:
    """The observed variables' values in a solution, or None when there is none."""
    left = None if deadline is None else deadline.remaining()
    if left is not None and left <= 0:
        raise TimeLimitReached
    answer = solver.solve_briefly(CLAUSES_FIRST)
    if answer is not None:
        return solver.values(observed) if answer else None
    stats.count("searches_with_lines")
    assert KERNEL is not None  # enumerate_with_lines looked
    left = None if deadline is None else deadline.remaining()
    if left is not None and left <= 0:
        raise TimeLimitReached
    lines = KERNEL.LinePropagator(
        board.kernel, list(cells), table, left or 0.0, interrupt_requested
    )
    answer = solver.solve_with_propagator(lines, observed)
    for key, value in lines.counts.items():
        stats.count(key, value)
    if lines.stopped == "time":
        raise TimeLimitReached
    if lines.stopped == "interrupted":
        raise KeyboardInterrupt
    if not answer:
        return None
    model = lines.model  # the assignment it checked (see _engine.c: not get_model's)
    if model is None:
        raise AssertionError("the search found a solution the propagator never checked")
    return [model[v - 1] > 0 for v in observed]
