"""The clauses every search starts from: one variable per inner edge (true = wall).

`encode` adds the local rules, which are cheap as clauses: a wall between two different
numbers and around a 1 (to its neighbours of the same colour); no dead end at an inner
vertex (never exactly one wall among its four edges); every cell keeps an open edge (a
block has two cells at least). The rules about whole blocks and areas are checked during the
search (search.py). Two stronger encodings are kept as measured options (see search.py):
`congruence` (a symmetry and a white-gray partner per cell, rigid across open edges) and
`labels` (a one-hot half-size label per cell, equal across open edges).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pencilbox.core.grid import Cell
from pencilbox.core.sat import SatSolver
from pencilbox.genres.dbchoco.board import QUESTION, EdgeGeometry
from pencilbox.genres.dbchoco.shapes import INVERSE, TRANSFORMS, apply

if TYPE_CHECKING:
    from pencilbox.genres.dbchoco.model import DoubleChoco

Clause = list[int]


def known(value: int | None) -> int | None:
    """A number clue's size, None for no clue and for `?`."""
    return None if value is None or value == QUESTION else value


@dataclass
class Encoding:
    puzzle: DoubleChoco
    solver: SatSolver
    wall: list[int] = field(default_factory=list)
    label: dict[Cell, dict[int, int]] = field(default_factory=dict)
    """label[cell][k]: the block of `cell` has halves of k cells (one-hot per cell)."""

    last_labels: dict[Cell, int] = field(default_factory=dict)
    """The labels of the model last read by `walls_of_model`."""

    def walls_of_model(self) -> list[bool]:
        """The walls of the last model; the labels are read in the same pass (a model read
        copies every variable, so one read per round matters)."""
        keys = [(cell, k) for cell, options in self.label.items() for k in options]
        values = self.solver.values(self.wall + [self.label[cell][k] for cell, k in keys])
        count = len(self.wall)
        self.last_labels = {cell: k for (cell, k), value in zip(keys, values[count:]) if value}
        return values[:count]


def encode(
    puzzle: DoubleChoco, solver: SatSolver, congruence: bool = False, labels: bool = False
) -> Encoding:
    enc = Encoding(puzzle, solver)
    geo = puzzle.geometry
    enc.wall = solver.new_vars(geo.count)
    clauses = _local_rules(puzzle, enc.wall)
    if labels:
        _labels(enc, geo, clauses)
    if congruence:
        _congruence(enc, geo, clauses)
    solver.add_clauses(clauses)
    return enc


def _local_rules(puzzle: DoubleChoco, wall: list[int]) -> list[Clause]:
    geo = puzzle.geometry
    clauses: list[Clause] = []
    for e in range(geo.count):
        (ra, ca), (rb, cb) = geo.cells(e)
        na, nb = known(puzzle.number(ra, ca)), known(puzzle.number(rb, cb))
        if na is not None and nb is not None and na != nb:
            clauses.append([wall[e]])
        if puzzle.is_gray(ra, ca) == puzzle.is_gray(rb, cb) and 1 in (na, nb):
            clauses.append([wall[e]])
    for r in range(puzzle.height):
        for c in range(puzzle.width):  # a block has two cells at least
            clauses.append([-wall[e] for _, e in geo.neighbours(r, c)])
    for r in range(puzzle.height - 1):
        for c in range(puzzle.width - 1):
            around = [wall[e] for e in geo.vertex_edges(r, c)]
            for x in around:
                clauses.append([-x, *(y for y in around if y != x)])
    return clauses


def _exactly_one(solver: SatSolver, literals: list[int], out: list[Clause]) -> None:
    if not literals:
        out.append([])
        return
    out.append(list(literals))
    if len(literals) <= 6:
        for i in range(len(literals)):
            for j in range(i + 1, len(literals)):
                out.append([-literals[i], -literals[j]])
        return
    aux = solver.new_vars(len(literals) - 1)
    out.append([-literals[0], aux[0]])
    for i in range(1, len(literals) - 1):
        out.append([-literals[i], aux[i]])
        out.append([-aux[i - 1], aux[i]])
        out.append([-literals[i], -aux[i - 1]])
    out.append([-literals[-1], -aux[-1]])


# -- the congruence encoding (an option) ---------------------------------------------------------
def _congruence(enc: Encoding, geo: EdgeGeometry, clauses: list[Clause]) -> None:
    """Per cell a symmetry T (8) and a white-gray partner matching M; across every open edge
    both cells keep T, and partners stay rigid under T, so every block shares one map."""
    puzzle, solver, wall = enc.puzzle, enc.solver, enc.wall
    cells = [(r, c) for r in range(puzzle.height) for c in range(puzzle.width)]
    transform = {cell: solver.new_vars(len(TRANSFORMS)) for cell in cells}
    for cell in cells:
        _exactly_one(solver, transform[cell], clauses)
    for e in range(geo.count):
        a, b = geo.cells(e)
        for t in range(len(TRANSFORMS)):
            clauses.append([wall[e], -transform[a][t], transform[b][t]])
            clauses.append([wall[e], -transform[b][t], transform[a][t]])
    pair = _partners(enc, cells, clauses)
    of_cell: dict[Cell, list[tuple[Cell, Cell]]] = {cell: [] for cell in cells}
    for w, q in pair:
        of_cell[w].append((w, q))
        of_cell[q].append((w, q))
    for cell in cells:
        _exactly_one(solver, [pair[p] for p in of_cell[cell]], clauses)
    for (w, q), var in pair.items():
        for t in range(len(TRANSFORMS)):
            clauses.append([-var, -transform[w][t], transform[q][t]])
    _rigidity(enc, geo, transform, pair, of_cell, clauses)


def _partners(
    enc: Encoding, cells: list[Cell], clauses: list[Clause]
) -> dict[tuple[Cell, Cell], int]:
    """A variable per white-gray pair of cells that may be partners (numbers agree, close
    enough for a block of that number)."""
    puzzle = enc.puzzle
    whites = [cell for cell in cells if not puzzle.is_gray(*cell)]
    grays = [cell for cell in cells if puzzle.is_gray(*cell)]
    pair: dict[tuple[Cell, Cell], int] = {}
    for w in whites:
        for q in grays:
            nw, nq = known(puzzle.number(*w)), known(puzzle.number(*q))
            if nw is not None and nq is not None and nw != nq:
                continue
            distance = abs(w[0] - q[0]) + abs(w[1] - q[1])
            if any(n is not None and distance >= 2 * n for n in (nw, nq)):
                continue
            pair[w, q] = enc.solver.new_var()
    return pair


def _rigidity(
    enc: Encoding,
    geo: EdgeGeometry,
    transform: dict[Cell, list[int]],
    pair: dict[tuple[Cell, Cell], int],
    of_cell: dict[Cell, list[tuple[Cell, Cell]]],
    clauses: list[Clause],
) -> None:
    """Across an open edge a-b, the partner of b is where T takes b from a's partner."""
    puzzle, wall = enc.puzzle, enc.wall
    for e in range(geo.count):
        ends = geo.cells(e)
        for a, b in (ends, ends[::-1]):
            for w, q in of_cell[a]:
                var = pair[w, q]
                for t in range(len(TRANSFORMS)):
                    if puzzle.is_gray(*b):
                        dr, dc = apply(INVERSE[t], (b[0] - q[0], b[1] - q[1]))
                        target = (w[0] + dr, w[1] + dc), b
                    else:
                        dr, dc = apply(t, (b[0] - w[0], b[1] - w[1]))
                        target = b, (q[0] + dr, q[1] + dc)
                    clause = [wall[e], -var, -transform[a][t]]
                    other = pair.get(target)
                    if other is not None:
                        clause.append(other)
                    clauses.append(clause)


# -- the half-size labels (an option) ------------------------------------------------------------
def _labels(enc: Encoding, geo: EdgeGeometry, clauses: list[Clause]) -> None:
    """Half-size labels: every cell of a block carries the size of the block's halves, so
    its white and gray areas get equal sizes (checked lazily against the real areas). A
    label k is possible only if the cell's one-colour region (ignoring walls) has k cells
    and touches a region of the other colour with k cells."""
    puzzle, solver = enc.puzzle, enc.solver
    region: dict[Cell, int] = {}
    sizes: list[int] = []
    for r in range(puzzle.height):
        for c in range(puzzle.width):
            if (r, c) in region:
                continue
            colour = puzzle.is_gray(r, c)
            stack, members = [(r, c)], [(r, c)]
            region[r, c] = len(sizes)
            while stack:
                cell = stack.pop()
                for nxt, _ in geo.neighbours(*cell):
                    if nxt not in region and puzzle.is_gray(*nxt) == colour:
                        region[nxt] = len(sizes)
                        stack.append(nxt)
                        members.append(nxt)
            sizes.append(len(members))
    touching: dict[int, int] = {}
    for e in range(geo.count):
        a, b = geo.cells(e)
        if region[a] != region[b]:
            touching[region[a]] = max(touching.get(region[a], 0), sizes[region[b]])
            touching[region[b]] = max(touching.get(region[b], 0), sizes[region[a]])
    for r in range(puzzle.height):
        for c in range(puzzle.width):
            own = region[r, c]
            top = min(sizes[own], touching.get(own, 0))
            n = known(puzzle.number(r, c))
            options = list(range(1, top + 1)) if n is None else [n] if n <= top else []
            enc.label[r, c] = {k: solver.new_var() for k in options}
            _exactly_one(solver, list(enc.label[r, c].values()), clauses)
    wall = enc.wall
    for e in range(geo.count):
        a, b = geo.cells(e)
        la, lb = enc.label[a], enc.label[b]
        for k, var in la.items():
            clauses.append([wall[e], -var, *([lb[k]] if k in lb else [])])
        for k, var in lb.items():
            clauses.append([wall[e], -var, *([la[k]] if k in la else [])])
