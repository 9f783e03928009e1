"""A second independent model of colour nonograms: each line as an automaton over its cells.

It shares nothing with pencilbox's colour solver (no line solver, no run starts, no CaDiCaL):
a clue is read as a deterministic automaton whose states say how far along its runs a line is
(in the background before run j, or p cells into run j); a layer of state variables per cell
boundary follows the line cell by cell (the "regular" constraint of constraint programming, as
clauses), and the line fits when the last layer is in an accepting state. Every cell has one
variable per colour, background included, exactly one of them true (colour_reference.CellGrid,
with the search for two solutions: only the line encodings differ between the two models).
Unlike colour_reference's listing of placements, its size is polynomial (cells x states x
colours per line), so it checks puzzles of any size. MiniSat (python-sat's minisat22) finds a
first solution, and a second one that differs from it somewhere, or proves there is none.
"""

from __future__ import annotations

from collections.abc import Sequence

from tests.genres.nonogram.colour_reference import CellGrid, Clue

State = tuple[int, int]
"""(j, p): p = 0, in the background after j runs; p >= 1, p cells into run j."""

DEAD = (-1, -1)


def step(clue: Clue, state: State, colour: int) -> State:
    """The state after one more cell of `colour` (0 the background), or DEAD."""
    j, p = state
    if p == 0:  # in the background: stay there, or begin run j
        if colour == 0:
            return state
        return (j, 1) if j < len(clue) and clue[j][1] == colour else DEAD
    length, own = clue[j]
    if p < length:  # inside run j: only its colour goes on
        return (j, p + 1) if colour == own else DEAD
    if colour == 0:  # run j complete: the background, or at once a run of another colour
        return (j + 1, 0)
    touching = j + 1 < len(clue) and clue[j + 1][1] == colour != own
    return (j + 1, 1) if touching else DEAD


def accepting(clue: Clue, state: State) -> bool:
    j, p = state
    k = len(clue)
    return (j, p) == (k, 0) or (k > 0 and (j, p) == (k - 1, clue[k - 1][0]))


def layers(clue: Clue, length: int, colours: int) -> list[set[State]]:
    """The states a line can be in after i cells, that can still end in acceptance: forward
    from the start, then pruned backward from the accepting states."""
    forward = [{(0, 0)}]
    for _ in range(length):
        forward.append({step(clue, q, c) for q in forward[-1] for c in range(colours)} - {DEAD})
    alive: list[set[State]] = [set() for _ in range(length + 1)]
    alive[length] = {q for q in forward[length] if accepting(clue, q)}
    for i in range(length - 1, -1, -1):
        alive[i] = {
            q for q in forward[i] if any(step(clue, q, c) in alive[i + 1] for c in range(colours))
        }
    return alive


def count_solutions(
    rows: Sequence[Clue], cols: Sequence[Clue], colours: int
) -> tuple[int, list[list[int]]]:
    """(0, 1 or 2 meaning "two or more"; the solutions found, row-major colour indices)."""
    grid = CellGrid(len(rows), len(cols), colours)
    pool, clauses, cell = grid.pool, grid.clauses, grid.cell
    for kind, index, clue, length in grid.lines(rows, cols):
        alive = layers(clue, length, colours)
        if not alive[0]:
            return 0, []

        clauses.append([pool.id((kind, index, 0, (0, 0)))])
        for i in range(length):
            r, c = (index, i) if kind == "row" else (i, index)
            for q in alive[i]:
                here = pool.id((kind, index, i, q))
                for colour in range(colours):
                    after = step(clue, q, colour)
                    if after in alive[i + 1]:
                        there = pool.id((kind, index, i + 1, after))
                        clauses.append([-here, -cell(r, c, colour), there])
                    else:  # this colour here breaks the line from state q
                        clauses.append([-here, -cell(r, c, colour)])
    return grid.first_two()
