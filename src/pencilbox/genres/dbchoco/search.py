"""Complete search: SAT over the walls (CaDiCaL) plus a lazy-clause loop.

The loop: solve; flood-fill the blocks and one-colour areas of the model; for everything
wrong add a clause that forbids the reason, not just this model; re-solve. A model with
nothing wrong is an answer (checked again by the checker before it is returned). For the
uniqueness proof the answer is blocked (one clause over all walls) and the loop goes on.

Encoded up front (cheap): a wall between two different numbers and around a 1 (same
colour); no dead end at any inner vertex (never exactly one wall of its four edges); every
cell has an open edge. Explanations added lazily (`_explain`), each as general as we could
make it, because their strength is what decides the number of rounds:

* a number n whose area has more than n cells: "these n tree edges from the number are not
  all open" (no boundary needed, so it forbids every area that contains that tree);
* a number smaller than the area could reach, a block with one colour: the area/block
  exactly ("its tree is open and its boundary edges are walls" is impossible);
* two different numbers in one block, a wall with one block on both sides: the tree path;
* three areas: one area exactly plus the open path to another area of its colour;
* different shapes: the smaller area exactly plus an open tree of one more cell on the other
  side; for equal sizes, one area exactly plus an open tree on the other side that already
  beats it in a congruence invariant that only grows with the area (sorted bounding-box
  sides, longest straight run), else both areas exactly. This last explanation is what
  brought the hardest shared 10x10 (semiexp_cspuz_core_03, few clues, big areas) from "no
  answer in minutes" to a uniqueness proof in ~10 s CPU.

Why this and not the alternatives (measured on the 13 shared puzzles, 2 shared cores, see
bench/results/dbchoco.md): we also built a congruence encoding (`congruence=True`: per cell
a symmetry T (8) and a white-gray partner matching M, with rigidity clauses across every
open edge, so every block shares one rigid map; ~9k variables and ~1M clauses at 10x10). It
needs few lazy rounds (9 on the hardest 10x10) but every SAT call is slow: the 8x8 puzzles
took 1.5-6 s and the hardest 10x10 did not finish in 90 s, against 0.1-1.2 s for the plain
loop on the 8x8s. So the plain loop is the default. Its weak spot is a grid with large
unclued regions (semiexp_cspuz_core_03_10x10: ~2,800 rounds, 131k conflicts, 8-10 s CPU,
against 1.1 s for semiexp's C++ solver): congruence of big areas is learnt a few shapes at a
time (7.5k of its 15k clauses are size mismatches of areas of 4-9 cells).

External propagator (`propagator=True`, propagator.py; issue 4). CaDiCaL decides the walls
in one call; the propagator checks partial assignments (closed blocks with unequal or
non-congruent halves or three areas, an open area larger than its number, two numbers or a
wall inside one open block) and hands CaDiCaL the falsified `_explain` clauses as conflicts;
complete models are checked as in the loop. It does cut the search (hardest 10x10: 23k
conflicts and 15 complete models instead of 131k and 2,763), but every callback is Python:
the checks cost more than the search they save. CPU s, measured 2026-11-22 at load 3-6
("every" = new edge assignments between two looks at the partial assignment):

| puzzle | loop | propagator, models only | every 1 | every 4 | every 10 | every 30 |
|---|---|---|---|---|---|---|
| semiexp_cspuz_core_03_10x10 | 7.6-9.5 | 10.1 | 20.1 | 48 | 12.8-14.0 | 14.0 |
| asSqr_puzz_sqr_02_16x16 | 1.3 | | | | 6.7 | |
| asSqr_puzz_sqr_06_11x10 (two answers) | 0.34 | 0.32 | | | 1.15 | |
| asSqr_puzz_sqr_03_12x12 | 0.11 | | | | 0.55 | |
| semiexp_cspuz_core_02_8x8 | 0.15 | | | | 1.08 | |
| the other 8 (4x4-8x8) | 0.00-0.05 | | | | 0.00-0.11 | |

A first version without the cheap detector (the whole `_explain` at every look) took 38 s
(every 10) and 9.7 s (every 40 and 80). Other tries on the hardest 10x10, lazy loop: CaDiCaL
without inprocessing (elim, subsume, probe, vivify off) 7.5 s against 7.8 s in the same run,
phase=0 8.3 s, no restarts 12.2 s, initial phase all walls 11.8 s (2,546 rounds) or all
open 15.6 s (3,599 rounds); adding every equal-size invariant clause per block
instead of the shortest changed nothing (2,763 rounds either way). So the plain loop stays the
default; the propagator is kept as an option (tested to agree with the loop) because it is
the right shape for the stronger, potential-based checks of the C++ solver, which would need
a compiled propagator to pay off.

A third variant is kept as an option (`labels=True`): a one-hot half-size label per cell,
equal across open edges, checked lazily against the real areas, so that the white and gray
areas of a block get equal sizes without one mismatch clause per pair of shapes (86% of the
mismatch clauses on the hardest 10x10 were size mismatches). Measured in CPU seconds (the
shared machine ran at load ~6, so wall times were 3-5x higher): 16x16 0.9 s against 1.3 s
plain, but 11x10 (two answers) 1.1 s against 0.3 s, 8x8 0.3 s against 0.2 s, and the
hardest 10x10 14 s against 10 s. So the default stays plain.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field

from pencilbox.core.grid import Cell
from pencilbox.core.sat import SatSolver
from pencilbox.core.timing import Deadline, Stats, TimeLimitReached
from pencilbox.genres.dbchoco.check import violations
from pencilbox.genres.dbchoco.model import QUESTION, DoubleChoco, EdgeGeometry, Walls
from pencilbox.genres.dbchoco.shapes import INVERSE, TRANSFORMS, apply, congruent

Clause = list[int]


def _known(value: int | None) -> int | None:
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


def encode(
    puzzle: DoubleChoco, solver: SatSolver, congruence: bool = False, labels: bool = False
) -> Encoding:
    width, height = puzzle.width, puzzle.height
    geo = EdgeGeometry(width, height)
    enc = Encoding(puzzle, solver)
    enc.wall = solver.new_vars(geo.count)
    wall = enc.wall
    clauses: list[Clause] = []
    cells = [(r, c) for r in range(height) for c in range(width)]
    gray = {cell: puzzle.is_gray(*cell) for cell in cells}
    number = {cell: _known(puzzle.number(*cell)) for cell in cells}

    # -- local rules --------------------------------------------------------------------------
    for e in range(geo.count):
        a, b = geo.cells(e)
        na, nb = number[a], number[b]
        if na is not None and nb is not None and na != nb:
            clauses.append([wall[e]])
        if gray[a] == gray[b] and (na == 1 or nb == 1):
            clauses.append([wall[e]])
    for r in range(height):
        for c in range(width):  # a block has two cells at least
            clauses.append([-wall[e] for _, e in geo.neighbours(r, c)])
    for r in range(height - 1):
        for c in range(width - 1):
            around = [wall[e] for e in geo.vertex_edges(r, c)]
            for x in around:
                clauses.append([-x, *(y for y in around if y != x)])

    if labels:
        _labels(enc, geo, clauses)
    if not congruence:
        solver.add_clauses(clauses)
        return enc
    # -- symmetry per cell ----------------------------------------------------------------------
    transform = {cell: solver.new_vars(len(TRANSFORMS)) for cell in cells}
    for cell in cells:
        _exactly_one(solver, transform[cell], clauses)
    for e in range(geo.count):
        a, b = geo.cells(e)
        for t in range(len(TRANSFORMS)):
            clauses.append([wall[e], -transform[a][t], transform[b][t]])
            clauses.append([wall[e], -transform[b][t], transform[a][t]])

    # -- partners -------------------------------------------------------------------------------
    whites = [cell for cell in cells if not gray[cell]]
    grays = [cell for cell in cells if gray[cell]]
    pair: dict[tuple[Cell, Cell], int] = {}
    for w in whites:
        for q in grays:
            nw, nq = number[w], number[q]
            if nw is not None and nq is not None and nw != nq:
                continue
            distance = abs(w[0] - q[0]) + abs(w[1] - q[1])
            if any(n is not None and distance >= 2 * n for n in (nw, nq)):
                continue
            pair[w, q] = solver.new_var()
    of_cell: dict[Cell, list[tuple[Cell, Cell]]] = {cell: [] for cell in cells}
    for w, q in pair:
        of_cell[w].append((w, q))
        of_cell[q].append((w, q))
    for cell in cells:
        _exactly_one(solver, [pair[p] for p in of_cell[cell]], clauses)
    for (w, q), var in pair.items():
        for t in range(len(TRANSFORMS)):
            clauses.append([-var, -transform[w][t], transform[q][t]])

    # -- rigidity across open edges -------------------------------------------------------------
    for e in range(geo.count):
        ends = geo.cells(e)
        for a, b in (ends, ends[::-1]):
            for w, q in of_cell[a]:
                var = pair[w, q]
                for t in range(len(TRANSFORMS)):
                    if gray[b]:
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
    solver.add_clauses(clauses)
    return enc


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
            n = _known(puzzle.number(r, c))
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


# -- the lazy part ------------------------------------------------------------------------------
class _Model:
    """Blocks and areas of one assignment of the walls, with the trees that explain them."""

    def __init__(self, puzzle: DoubleChoco, walls: list[bool]) -> None:
        self.puzzle = puzzle
        self.geo = EdgeGeometry(puzzle.width, puzzle.height)
        self.walls = walls
        self.adj: dict[Cell, list[tuple[Cell, int]]] = {}
        for r in range(puzzle.height):
            for c in range(puzzle.width):
                self.adj[r, c] = self.geo.neighbours(r, c)

    def component(
        self, start: Cell, same_colour: bool, limit: int | None = None
    ) -> tuple[list[Cell], list[int], dict[Cell, tuple[Cell, int] | None]]:
        """BFS over open edges: cells in visit order, the tree edges, and parent links."""
        colour = self.puzzle.is_gray(*start)
        parent: dict[Cell, tuple[Cell, int] | None] = {start: None}
        order = [start]
        tree: list[int] = []
        queue = deque([start])
        while queue:
            cell = queue.popleft()
            for nxt, e in self.adj[cell]:
                if nxt in parent or self.walls[e]:
                    continue
                if same_colour and self.puzzle.is_gray(*nxt) != colour:
                    continue
                parent[nxt] = (cell, e)
                order.append(nxt)
                tree.append(e)
                if limit is not None and len(order) >= limit:
                    return order, tree, parent
                queue.append(nxt)
        return order, tree, parent

    def path(self, parent: dict[Cell, tuple[Cell, int] | None], cell: Cell) -> list[int]:
        edges = []
        link = parent[cell]
        while link is not None:
            cell, e = link
            edges.append(e)
            link = parent[cell]
        return edges

    def between(self, parent: dict[Cell, tuple[Cell, int] | None], a: Cell, b: Cell) -> list[int]:
        """The tree path from a to b (edges on exactly one of their root paths)."""
        return sorted(set(self.path(parent, a)) ^ set(self.path(parent, b)))

    def boundary(self, cells: list[Cell], same_colour: bool) -> list[int]:
        inside = set(cells)
        out = []
        for cell in cells:
            colour = self.puzzle.is_gray(*cell)
            for nxt, e in self.adj[cell]:
                if nxt in inside:
                    continue
                if same_colour and self.puzzle.is_gray(*nxt) != colour:
                    continue
                out.append(e)
        return out


def _explain(
    puzzle: DoubleChoco, enc: Encoding, walls: list[bool], focus: set[Cell] | None = None
) -> list[Clause]:
    """Clauses that forbid what is wrong in this model (empty when the model is an answer).
    With `focus`, only the areas and blocks that contain one of those cells are looked at."""
    model = _Model(puzzle, walls)
    wall = enc.wall
    out: list[Clause] = []

    def exact(cells: list[Cell], tree: list[int], same_colour: bool) -> Clause:
        return [-wall[e] for e in model.boundary(cells, same_colour)] + [wall[e] for e in tree]

    area_of: dict[Cell, int] = {}
    areas: list[tuple[list[Cell], list[int]]] = []
    starts: list[Cell] = sorted(focus) if focus is not None else list(model.adj)
    for start in starts:
        if start in area_of:
            continue
        cells, tree, _ = model.component(start, same_colour=True)
        for cell in cells:
            area_of[cell] = len(areas)
        areas.append((cells, tree))
    # half-size labels against the areas
    if enc.label:
        labels = enc.last_labels
        for cells, tree in areas:
            k = labels.get(cells[0])
            if k is None or k == len(cells):
                continue
            chosen = enc.label[cells[0]][k]
            if len(cells) > k:
                _, sub_tree, _ = model.component(cells[0], same_colour=True, limit=k + 1)
                out.append([-chosen, *(wall[e] for e in sub_tree)])
            else:
                out.append([-chosen, *exact(cells, tree, same_colour=True)])
    # numbers against their area
    for cells, tree in areas:
        for cell in cells:
            n = _known(puzzle.number(*cell))
            if n is None or n == len(cells):
                continue
            if len(cells) > n:
                _, sub_tree, _ = model.component(cell, same_colour=True, limit=n + 1)
                out.append([wall[e] for e in sub_tree])
            else:
                out.append(exact(cells, tree, same_colour=True))
            break
    # blocks
    seen: set[Cell] = set()
    for start in starts:
        if start in seen:
            continue
        cells, tree, parent = model.component(start, same_colour=False)
        seen.update(cells)
        inside = set(cells)
        # walls with this block on both sides: the tree path between their cells is open
        for cell in cells:
            for nxt, e in model.adj[cell]:
                if walls[e] and nxt in inside and cell < nxt:
                    route = model.between(parent, cell, nxt)
                    out.append([-wall[e], *(wall[x] for x in route)])
        # different numbers in one block
        numbered = [(cell, _known(puzzle.number(*cell))) for cell in cells]
        numbered = [(cell, n) for cell, n in numbered if n is not None]
        for cell, n in numbered[1:]:
            if n != numbered[0][1]:
                route = model.between(parent, numbered[0][0], cell)
                out.append([wall[x] for x in route])
                break
        block_areas = sorted({area_of[cell] for cell in cells})
        if len(block_areas) == 1:
            out.append(exact(cells, tree, same_colour=False))
        elif len(block_areas) >= 3:
            out.append(_three_areas(model, enc, areas, block_areas, area_of))
        else:
            first, second = (areas[i][0] for i in block_areas)
            if enc.label and len(first) != len(second):
                continue  # the labels' explanation above already forbids this block
            if not congruent(first, second):
                out.append(_mismatch(model, enc, areas[block_areas[0]], areas[block_areas[1]]))
    return out


def _link(model: _Model, first: list[Cell], second: set[Cell]) -> tuple[int, Cell]:
    for cell in first:
        for nxt, e in model.adj[cell]:
            if nxt in second and not model.walls[e]:
                return e, nxt
    raise AssertionError("two areas of one block touch through an open edge")


def _mismatch(
    model: _Model,
    enc: Encoding,
    first: tuple[list[Cell], list[int]],
    second: tuple[list[Cell], list[int]],
) -> Clause:
    """Two areas of one block with different shapes. When the sizes differ, only the smaller
    area needs to be exact: any open tree of one more cell on the other side, linked to it,
    already breaks the rule (different sizes, or a third area)."""
    wall = enc.wall
    if len(first[0]) > len(second[0]):
        first, second = second, first
    small, small_tree = first
    link, entry = _link(model, small, set(second[0]))
    clause = [-wall[e] for e in model.boundary(small, True)] + [wall[e] for e in small_tree]
    clause.append(wall[link])
    if len(small) < len(second[0]):
        _, part, _ = model.component(entry, same_colour=True, limit=len(small) + 1)
        return clause + [wall[e] for e in part]
    big, big_tree = second
    # Equal sizes. Sorted bounding-box sides and the longest straight run only grow when an
    # area grows, and congruent areas share them: if an open tree on one side, grown from
    # the link, already beats the other (exact) area in one of them, that is the reason.
    best: Clause | None = None
    for (exact_cells, exact_tree), start in (
        (first, entry),
        (second, small_link_cell(small, link, model)),
    ):
        limit = _invariants(exact_cells)
        order, _, parent = model.component(start, same_colour=True)
        grown: list[Cell] = []
        for cell in order:
            grown.append(cell)
            mine = _invariants(grown)
            if any(a > b for a, b in zip(mine, limit)):
                path: set[int] = set()
                for member in grown:
                    path.update(model.path(parent, member))
                found = [-wall[e] for e in model.boundary(exact_cells, True)]
                found += [wall[e] for e in exact_tree] + [wall[link]]
                found += [wall[x] for x in sorted(path)]
                if best is None or len(found) < len(best):
                    best = found
                break
    if best is not None:
        return best
    return clause + [-wall[e] for e in model.boundary(big, True)] + [wall[e] for e in big_tree]


def small_link_cell(small: list[Cell], link: int, model: _Model) -> Cell:
    """The cell of `small` at the link edge."""
    a, b = model.geo.cells(link)
    return a if a in set(small) else b


def _invariants(cells: list[Cell]) -> tuple[int, int, int]:
    """Sorted bounding-box sides and the longest straight run of cells."""
    inside = set(cells)
    run = 0
    for r, c in cells:
        if (r, c - 1) not in inside:
            length = 1
            while (r, c + length) in inside:
                length += 1
            run = max(run, length)
        if (r - 1, c) not in inside:
            length = 1
            while (r + length, c) in inside:
                length += 1
            run = max(run, length)
    low, high = _box(cells)
    return (low, high, run)


def _box(cells: list[Cell]) -> tuple[int, int]:
    rows = max(r for r, _ in cells) - min(r for r, _ in cells) + 1
    cols = max(c for _, c in cells) - min(c for _, c in cells) + 1
    return (min(rows, cols), max(rows, cols))


def _three_areas(
    model: _Model,
    enc: Encoding,
    areas: list[tuple[list[Cell], list[int]]],
    block_areas: list[int],
    area_of: dict[Cell, int],
) -> Clause:
    """Area A exactly as it is, plus an open path from A to another area of A's colour."""
    wall = enc.wall
    best: Clause | None = None
    for index in block_areas:
        cells, tree = areas[index]
        colour = model.puzzle.is_gray(*cells[0])
        # BFS from the whole area over open edges to the nearest same-colour cell outside it
        parent: dict[Cell, tuple[Cell, int] | None] = {cell: None for cell in cells}
        queue = deque(cells)
        target = None
        while queue and target is None:
            cell = queue.popleft()
            for nxt, e in model.adj[cell]:
                if nxt in parent or model.walls[e]:
                    continue
                parent[nxt] = (cell, e)
                if model.puzzle.is_gray(*nxt) == colour and area_of[nxt] != index:
                    target = nxt
                    break
                queue.append(nxt)
        if target is None:
            continue
        clause = [-wall[e] for e in model.boundary(cells, True)]
        clause += [wall[e] for e in tree]
        clause += [wall[e] for e in model.path(parent, target)]
        if best is None or len(clause) < len(best):
            best = clause
    if best is None:
        raise AssertionError("a block with three areas has two areas of one colour")
    return best


class BudgetExceeded(Exception):
    """The search used up its round budget (deterministic, unlike a time limit)."""


def answers(
    puzzle: DoubleChoco,
    limit: int,
    stats: Stats,
    deadline: Deadline | None = None,
    *,
    exclude: Walls | None = None,
    max_rounds: int | None = None,
    congruence: bool = False,
    labels: bool = False,
    propagator: bool = False,
) -> Iterator[Walls]:
    """Valid answers, pairwise different, until `limit` are found or none is left.

    `exclude` is an answer known already (the generator's): it is forbidden up front, so
    the search goes straight for a second one. `max_rounds` bounds the lazy rounds and
    raises BudgetExceeded when they run out. `congruence` and `labels` switch on the
    alternative encodings described above, `propagator` the external propagator.
    """
    if propagator:
        yield from _propagated(puzzle, limit, stats, deadline, exclude, max_rounds)
        return
    with SatSolver() as solver:
        with stats.phase("encode"):
            enc = encode(puzzle, solver, congruence=congruence, labels=labels)
        if exclude is not None:
            solver.add_clause([-v if exclude.is_wall(e) else v for e, v in enumerate(enc.wall)])
        found = 0
        rounds = 0
        while found < limit:
            if max_rounds is not None and rounds >= max_rounds:
                raise BudgetExceeded
            rounds += 1
            with stats.phase("sat"):
                satisfiable = solver.solve(deadline=deadline)
            stats.count("rounds")
            if not satisfiable:
                break
            walls = enc.walls_of_model()
            with stats.phase("lazy"):
                extra = _explain(puzzle, enc, walls)
            if extra:
                stats.count("lazy_clauses", len(extra))
                solver.add_clauses(extra)
                continue
            answer = Walls.from_bools(puzzle.width, puzzle.height, walls)
            problems = violations(puzzle, answer)
            if problems:  # a bug, never a user error: refuse to report a wrong answer
                raise AssertionError(f"the search produced a wrong answer: {problems[0]}")
            found += 1
            yield answer
            solver.add_clause([-v if value else v for v, value in zip(enc.wall, walls)])
        for key, value in solver.statistics().items():
            stats.count(key, value)


def _propagated(
    puzzle: DoubleChoco,
    limit: int,
    stats: Stats,
    deadline: Deadline | None,
    exclude: Walls | None,
    max_rounds: int | None,
) -> Iterator[Walls]:
    """`answers` with the rules checked inside one CaDiCaL call (propagator.py)."""
    from pencilbox.genres.dbchoco.propagator import BlockPropagator, run

    with SatSolver() as solver:
        with stats.phase("encode"):
            enc = encode(puzzle, solver)
        if exclude is not None:
            solver.add_clause([-v if exclude.is_wall(e) else v for e, v in enumerate(enc.wall)])
        engine = BlockPropagator(puzzle, enc, limit, deadline=deadline, max_models=max_rounds)
        with stats.phase("sat"):
            run(solver, engine)
        for key, value in engine.counts.items():
            stats.count(key, value)
        stats.count("rounds", engine.counts["models"])
        if engine.stopped == "time":
            raise TimeLimitReached
        if engine.stopped == "budget":
            raise BudgetExceeded
        for walls in engine.found:
            answer = Walls.from_bools(puzzle.width, puzzle.height, walls)
            problems = violations(puzzle, answer)
            if problems:  # a bug, never a user error: refuse to report a wrong answer
                raise AssertionError(f"the search produced a wrong answer: {problems[0]}")
            yield answer


def other_answer(
    puzzle: DoubleChoco,
    known: Walls,
    *,
    deadline: Deadline | None = None,
    max_rounds: int | None = None,
) -> Walls | None:
    """An answer different from `known`, or None when `known` is the only one."""
    return next(answers(puzzle, 1, Stats(), deadline, exclude=known, max_rounds=max_rounds), None)
