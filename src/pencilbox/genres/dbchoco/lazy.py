"""The lazy-clause loop's explanations: what is wrong in a model of the local rules, as clauses.

The loop (search.py, the fallback when the compiled propagator is not built) solves, reads
the walls, and for everything wrong adds a clause that forbids the reason, not just this
model; its strength decides the number of rounds:

* a number n whose area has more than n cells: "these n tree edges from the number are not
  all open" (no boundary needed, so it forbids every area that contains that tree);
* a number smaller than the area could reach, a block with one colour: the area/block
  exactly ("its tree is open and its boundary edges are walls" is impossible);
* two different numbers in one block, a wall with one block on both sides: the tree path;
* three areas: one area exactly plus the open path to another area of its colour;
* different shapes: the smaller area exactly plus an open tree of one more cell on the other
  side; for equal sizes, one area exactly plus an open tree on the other side that already
  beats it in a congruence invariant that only grows with the area (sorted bounding-box
  sides, longest straight run), else both areas exactly.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from pencilbox.core.grid import Cell
from pencilbox.genres.dbchoco.board import EdgeGeometry, Neighbours
from pencilbox.genres.dbchoco.encoding import Clause, Encoding, known
from pencilbox.genres.dbchoco.shapes import congruent

if TYPE_CHECKING:
    from pencilbox.genres.dbchoco.model import DoubleChoco

Area = tuple[list[Cell], list[int]]
"""The cells of an area (BFS order) and the open tree edges that join them."""


class _Model:
    """Blocks and areas of one assignment of the walls, with the trees that explain them."""

    def __init__(self, puzzle: DoubleChoco, walls: list[bool]) -> None:
        self.puzzle = puzzle
        self.geo = EdgeGeometry(puzzle.width, puzzle.height)
        self.walls = walls
        self.adj: dict[Cell, Neighbours] = {}
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


def explain(puzzle: DoubleChoco, enc: Encoding, walls: list[bool]) -> list[Clause]:
    """Clauses that forbid what is wrong in this model (empty when the model is an answer)."""
    model = _Model(puzzle, walls)
    areas, area_of = _areas(model)
    out = _label_clauses(model, enc, areas) if enc.label else []
    out += _number_clauses(model, enc, areas)
    seen: set[Cell] = set()
    for start in model.adj:
        if start not in seen:
            cells, tree, parent = model.component(start, same_colour=False)
            seen.update(cells)
            out += _block_clauses(model, enc, (cells, tree), parent, areas, area_of)
    return out


def _areas(model: _Model) -> tuple[list[Area], dict[Cell, int]]:
    area_of: dict[Cell, int] = {}
    areas: list[Area] = []
    for start in model.adj:
        if start not in area_of:
            cells, tree, _ = model.component(start, same_colour=True)
            for cell in cells:
                area_of[cell] = len(areas)
            areas.append((cells, tree))
    return areas, area_of


def _exact(model: _Model, enc: Encoding, area: Area, same_colour: bool) -> Clause:
    """The clause "this area (or block) is not exactly as it is": its tree is not all open
    or one of its boundary edges is not a wall."""
    cells, tree = area
    wall = enc.wall
    return [-wall[e] for e in model.boundary(cells, same_colour)] + [wall[e] for e in tree]


def _label_clauses(model: _Model, enc: Encoding, areas: list[Area]) -> list[Clause]:
    """Half-size labels against the areas they label."""
    out: list[Clause] = []
    for cells, tree in areas:
        k = enc.last_labels.get(cells[0])
        if k is None or k == len(cells):
            continue
        chosen = enc.label[cells[0]][k]
        if len(cells) > k:
            _, sub_tree, _ = model.component(cells[0], same_colour=True, limit=k + 1)
            out.append([-chosen, *(enc.wall[e] for e in sub_tree)])
        else:
            out.append([-chosen, *_exact(model, enc, (cells, tree), same_colour=True)])
    return out


def _number_clauses(model: _Model, enc: Encoding, areas: list[Area]) -> list[Clause]:
    """Numbers against the size of their area."""
    out: list[Clause] = []
    for cells, tree in areas:
        for cell in cells:
            n = known(model.puzzle.number(*cell))
            if n is None or n == len(cells):
                continue
            if len(cells) > n:
                _, sub_tree, _ = model.component(cell, same_colour=True, limit=n + 1)
                out.append([enc.wall[e] for e in sub_tree])
            else:
                out.append(_exact(model, enc, (cells, tree), same_colour=True))
            break
    return out


def _block_clauses(
    model: _Model,
    enc: Encoding,
    block: Area,
    parent: dict[Cell, tuple[Cell, int] | None],
    areas: list[Area],
    area_of: dict[Cell, int],
) -> list[Clause]:
    """A wall inside the block, two numbers in it, and its areas (one, three, or two of
    different shapes)."""
    cells, _ = block
    wall = enc.wall
    out: list[Clause] = []
    inside = set(cells)
    for cell in cells:  # walls with this block on both sides: the tree path between is open
        for nxt, e in model.adj[cell]:
            if model.walls[e] and nxt in inside and cell < nxt:
                out.append([-wall[e], *(wall[x] for x in model.between(parent, cell, nxt))])
    numbered = [(cell, n) for cell in cells if (n := known(model.puzzle.number(*cell)))]
    for cell, n in numbered[1:]:
        if n != numbered[0][1]:
            out.append([wall[x] for x in model.between(parent, numbered[0][0], cell)])
            break
    block_areas = sorted({area_of[cell] for cell in cells})
    if len(block_areas) == 1:
        out.append(_exact(model, enc, block, same_colour=False))
    elif len(block_areas) >= 3:
        out.append(_three_areas(model, enc, areas, block_areas, area_of))
    else:
        first, second = (areas[i] for i in block_areas)
        if enc.label and len(first[0]) != len(second[0]):
            return out  # the labels' clauses already forbid this block
        if not congruent(first[0], second[0]):
            out.append(_mismatch(model, enc, first, second))
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
    first: Area,
    second: Area,
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
    areas: list[Area],
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
