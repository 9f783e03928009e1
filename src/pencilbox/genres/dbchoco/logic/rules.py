"""The local techniques: numbers, dead ends, areas, size bounds and colour balance.

Each rule decides what it can, records one step per finding, and returns whether it changed
anything. They only ever read the puzzle and the edges decided so far.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, cast

from pencilbox.core.grid import Cell, cell_name
from pencilbox.genres.dbchoco.board import OPEN, UNDECIDED, WALL
from pencilbox.genres.dbchoco.logic.state import (
    AREA,
    REACH,
    State,
    components,
    describe,
    number,
)

if TYPE_CHECKING:
    from pencilbox.genres.dbchoco.model import DoubleChoco


# -- numbers: different numbers never share a block ----------------------------------------------
def numbers(state: State) -> bool:
    """A wall between two cells whose blocks (joined so far) hold different numbers, and
    around a 1 towards its own colour (a 1's area is that one cell)."""
    puzzle, geo = state.puzzle, state.geo
    block_of, clue = _labels(state, same_colour=False)
    changed = False
    for e in range(geo.count):
        if state.edges[e] != UNDECIDED:
            continue
        a, b = geo.cells(e)
        na, nb = clue[block_of[a]], clue[block_of[b]]
        if na is not None and nb is not None and na[0] != nb[0]:
            changed |= state.set(
                {e: WALL},
                "numbers",
                f"{_whose(a, na)} and {_whose(b, nb)}: different numbers cannot share a "
                f"block, so {geo.edge_name(e)} is a wall",
                [na[1], nb[1], a, b],
            )
        elif puzzle.is_gray(*a) == puzzle.is_gray(*b) and 1 in (
            number(puzzle, a),
            number(puzzle, b),
        ):
            one = a if number(puzzle, a) == 1 else b
            changed |= state.set(
                {e: WALL},
                "numbers",
                f"the 1 at {cell_name(one)} is an area of one cell, so it is walled off from "
                "its neighbours of the same colour",
                [one],
            )
    return changed


def _whose(cell: Cell, clue: tuple[int, Cell]) -> str:
    """'r1c2 holds 4', or 'r1c3 is joined to the 4 at r2c3'."""
    n, numbered = clue
    if cell == numbered:
        return f"{cell_name(cell)} holds {n}"
    return f"{cell_name(cell)} is joined to the {n} at {cell_name(numbered)}"


def _labels(
    state: State, *, same_colour: bool
) -> tuple[dict[Cell, int], list[tuple[int, Cell] | None]]:
    """Which open component (area or block so far) each cell is in, and the number it holds
    with its cell (None when it holds none; the first one when it holds several)."""
    label: dict[Cell, int] = {}
    clue: list[tuple[int, Cell] | None] = []
    for group in components(state, same_colour=same_colour, through=AREA):
        found = next(((n, c) for c in group if (n := number(state.puzzle, c)) is not None), None)
        for cell in group:
            label[cell] = len(clue)
        clue.append(found)
    return label, clue


# -- dead ends ------------------------------------------------------------------------------------
def dead_ends(state: State) -> bool:
    """No wall ends inside a block: at an inner corner three open edges leave the fourth
    open, and one wall with a single undecided edge left makes that edge a wall."""
    geo = state.geo
    changed = False
    for r in range(state.puzzle.height - 1):
        for c in range(state.puzzle.width - 1):
            around = geo.vertex_edges(r, c)
            values = [state.edges[e] for e in around]
            undecided = [e for e, v in zip(around, values) if v == UNDECIDED]
            if len(undecided) != 1 or values.count(WALL) > 1:
                continue
            corner = [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
            name = geo.edge_name(undecided[0])
            if values.count(WALL) == 0:
                sentence = (
                    f"the corner below-right of {cell_name((r, c))} has three open edges; a "
                    f"wall on the fourth would end there, so {name} is open"
                )
                changed |= state.set({undecided[0]: OPEN}, "dead_end", sentence, corner)
            else:
                sentence = (
                    f"a wall ends at the corner below-right of {cell_name((r, c))} unless it "
                    f"goes on: {name} is a wall"
                )
                changed |= state.set({undecided[0]: WALL}, "dead_end", sentence, corner)
    return changed


# -- areas ----------------------------------------------------------------------------------------
def areas(state: State) -> bool:
    """A cell walled on every side but one joins its last neighbour; an area with as many
    cells as its number is closed; a number that can reach exactly its size takes it all;
    a 1 with a single possible partner forms a walled-off domino with it; a closed area
    whose only neighbours of the other colour are in one area joins that area."""
    changed = _last_neighbour(state)
    changed |= _complete_areas(state)
    changed |= _exact_reach(state)
    changed |= _only_partner(state)
    return _ones(state) or changed


def _only_partner(state: State) -> bool:
    """An area walled off from its own colour is a whole area, and its partner (the other
    half of its block) touches it. When every cell of the other colour it can still touch
    (across an edge that is not a wall) is in one area, that area is the partner, and no
    wall runs between the two halves of a block: every edge between them is open."""
    puzzle, geo = state.puzzle, state.geo
    groups = components(state, same_colour=True, through=AREA)
    label = {cell: i for i, group in enumerate(groups) for cell in group}
    changed = False
    for area in groups:
        inside = set(area)
        partners: set[int] = set()
        closed = True
        for cell in area:
            for nxt, e in geo.neighbours(*cell):
                if nxt in inside or state.edges[e] == WALL:
                    continue
                if puzzle.is_gray(*nxt) == puzzle.is_gray(*cell):
                    closed = False
                    break
                partners.add(label[nxt])
            if not closed:
                break
        if not closed or len(partners) != 1:
            continue
        partner = groups[partners.pop()]
        across = set(partner)
        join = sorted(
            {
                e
                for cell in area
                for nxt, e in geo.neighbours(*cell)
                if nxt in across and state.edges[e] == UNDECIDED
            }
        )
        if join:
            colour = "gray" if puzzle.is_gray(*area[0]) else "white"
            changed |= state.set(
                dict.fromkeys(join, OPEN),
                "area",
                f"the {colour} area at {cell_name(area[0])} is walled off from its own colour, "
                f"and the only cells of the other colour it can join are in the area at "
                f"{cell_name(partner[0])}: that is the other half of its block, so "
                f"{describe(geo, join, OPEN)}",
                [*area, *partner],
            )
    return changed


def _last_neighbour(state: State) -> bool:
    geo = state.geo
    changed = False
    for r in range(state.puzzle.height):
        for c in range(state.puzzle.width):
            around = geo.neighbours(r, c)
            undecided = [e for _, e in around if state.edges[e] == UNDECIDED]
            if len(undecided) == 1 and all(
                state.edges[e] == WALL for _, e in around if e != undecided[0]
            ):
                changed |= state.set(
                    {undecided[0]: OPEN},
                    "area",
                    f"{cell_name((r, c))} is walled on every other side and a block has at "
                    f"least two cells, so {geo.edge_name(undecided[0])} is open",
                    [(r, c)],
                )
    return changed


def _numbered(state: State, group: list[Cell]) -> int | None:
    """The one number a group of cells holds (None for none, or for two different ones)."""
    found = {number(state.puzzle, cell) for cell in group} - {None}
    return found.pop() if len(found) == 1 else None


def _complete_areas(state: State) -> bool:
    puzzle, geo = state.puzzle, state.geo
    changed = False
    for area in components(state, same_colour=True, through=AREA):
        n = _numbered(state, area)
        if n is None or len(area) != n:
            continue
        inside = set(area)
        close = sorted(
            {
                e
                for cell in area
                for nxt, e in geo.neighbours(*cell)
                if nxt not in inside
                and puzzle.is_gray(*nxt) == puzzle.is_gray(*cell)
                and state.edges[e] == UNDECIDED
            }
        )
        if close:
            changed |= state.set(
                dict.fromkeys(close, WALL),
                "area",
                f"the area of the {n} at {cell_name(area[0])} already has {n} cells, so "
                f"{describe(geo, close, WALL)}",
                area,
            )
    return changed


def _exact_reach(state: State) -> bool:
    """An area whose block's size is known (a number in the block so far, or a closed area
    there) holds that many cells of its colour, all within the cells it can reach: when it
    can reach exactly that many, they are all of it."""
    geo = state.geo
    size_of = {
        cell: known
        for group, known in zip(*_block_sizes(state), strict=True)
        if known is not None
        for cell in group
    }
    changed = False
    for region in components(state, same_colour=True, through=REACH):
        fitting = [size_of[c] for c in region if c in size_of and size_of[c].size == len(region)]
        if not fitting:
            continue
        inside = set(region)
        join = sorted(
            {
                e
                for cell in region
                for nxt, e in geo.neighbours(*cell)
                if nxt in inside and state.edges[e] == UNDECIDED
            }
        )
        if join:
            n, why = len(region), fitting[0]
            own = not why.closed and why.cell in inside
            whose = f"the number {n}" if own else why.told("block")
            changed |= state.set(
                dict.fromkeys(join, OPEN),
                "area",
                f"{whose} can only reach {n} cells of the colour at {cell_name(region[0])}, so "
                f"all of them form its area there: {describe(geo, join, OPEN)}",
                region,
            )
    return changed


def _ones(state: State) -> bool:
    """A 1's block is a domino: the 1 and one neighbour of the other colour."""
    puzzle, geo = state.puzzle, state.geo
    changed = False
    for r in range(puzzle.height):
        for c in range(puzzle.width):
            if number(puzzle, (r, c)) != 1:
                continue
            colour = puzzle.is_gray(r, c)
            partners = [
                (cell, e)
                for cell, e in geo.neighbours(r, c)
                if puzzle.is_gray(*cell) != colour and state.edges[e] != WALL
            ]
            if len(partners) != 1:
                continue
            partner, link = partners[0]
            around = {e for _, e in geo.neighbours(r, c)} | {e for _, e in geo.neighbours(*partner)}
            changes = {e: WALL for e in around if e != link}
            changes[link] = OPEN
            changed |= state.set(
                changes,
                "area",
                f"the 1 at {cell_name((r, c))} forms a block of two cells with its only "
                f"possible partner {cell_name(partner)}: that pair is walled off",
                [(r, c), partner],
            )
    return changed


# -- sizes: what a number allows ------------------------------------------------------------------
def sizes(state: State) -> bool:
    """Size bounds from a number: two areas of one colour that together would hold more
    cells than the number of either allows are walled apart, and so are two blocks so far
    whose cells of one colour would outnumber it. A closed area tells its block's size as a
    number would (`_known_sizes`), so blocks so far are bounded by those too, and two blocks
    so far of different known sizes are walled apart."""
    changed = _too_big_to_join(state, same_colour=True)
    return _too_big_to_join(state, same_colour=False) or changed


@dataclass(frozen=True)
class Known:
    """What fixes a group's size: a number, or a closed area (`closed`) of `size` cells."""

    size: int
    cell: Cell
    """The number's cell, or the first cell of the closed area."""
    closed: bool = False

    def told(self, what: str) -> str:
        """'the block of the 4 at r1c2', 'the block whose closed area at r1c2 has 4 cells'."""
        if self.closed:
            cells = "cell" if self.size == 1 else "cells"
            return f"the {what} whose closed area at {cell_name(self.cell)} has {self.size} {cells}"
        return f"the {what} of the {self.size} at {cell_name(self.cell)}"


def _closed_areas(state: State) -> dict[Cell, int]:
    """The first cell and size of each area walled off from every neighbour of its own
    colour. Such an area is a whole area of its block (an area is connected, and the edges
    inside a block are open), so its size is the block's half-size, as a number there says."""
    puzzle, edges = state.puzzle, state.edges
    width, gray, table = puzzle.width, puzzle.gray, state.geo.table
    out = {}
    for area in components(state, same_colour=True, through=AREA):
        inside = set(area)
        colour = gray[area[0][0] * width + area[0][1]]
        if not any(  # flat lookups: every pass of the local rules asks
            nxt not in inside and edges[e] != WALL and gray[nxt[0] * width + nxt[1]] == colour
            for r, c in area
            for nxt, e in table[r * width + c]
        ):
            out[area[0]] = len(area)
    return out


def _known_sizes(state: State, groups: list[list[Cell]], *, blocks: bool) -> list[Known | None]:
    """Each group's size when one thing fixes it: its one number, else (for blocks so far)
    the size of a closed area in it. None when nothing does, or when two things disagree
    (other rules wall those apart or find the contradiction)."""
    label, width = _label_of(state, groups), state.puzzle.width
    found: list[list[Known]] = [[] for _ in groups]
    for cell, n in _numbered_cells(state.puzzle):  # few numbers: not every cell of the grid
        found[label[cell[0] * width + cell[1]]].append(Known(n, cell))
    if blocks:
        for cell, size in _closed_areas(state).items():
            found[label[cell[0] * width + cell[1]]].append(Known(size, cell, closed=True))
    return [told[0] if len({k.size for k in told}) == 1 else None for told in found]


def _label_of(state: State, groups: list[list[Cell]]) -> list[int]:
    """The index of each cell's group, by the cell's index in the grid."""
    width = state.puzzle.width
    label = [0] * (width * state.puzzle.height)
    for i, group in enumerate(groups):
        for r, c in group:
            label[r * width + c] = i
    return label


@lru_cache(maxsize=64)
def _numbered_cells(puzzle: DoubleChoco) -> tuple[tuple[Cell, int], ...]:
    """The cells with a number and the number, in reading order."""
    width = puzzle.width
    return tuple(((i // width, i % width), n) for i, n in enumerate(puzzle.sizes) if n is not None)


def _block_sizes(state: State) -> tuple[list[list[Cell]], list[Known | None]]:
    """The blocks so far and their `_known_sizes`, once per version of the edges (`sizes`
    and `areas` both ask, at every pass)."""
    cached = state.memo.get("block_sizes")
    if cached is not None and cached[0] == state.version:
        return cast(tuple[list[list[Cell]], list[Known | None]], cached[1])
    blocks = components(state, same_colour=False, through=AREA)
    found = (blocks, _known_sizes(state, blocks, blocks=True))
    state.memo["block_sizes"] = (state.version, found)
    return found


def _too_big_to_join(state: State, *, same_colour: bool) -> bool:
    puzzle, geo = state.puzzle, state.geo
    if same_colour:
        groups = components(state, same_colour=True, through=AREA)
        limits = _known_sizes(state, groups, blocks=False)
    else:
        groups, limits = _block_sizes(state)
    label = {cell: i for i, group in enumerate(groups) for cell in group}
    counts = [_colour_counts(state, group) for group in groups]
    what = "area" if same_colour else "block"
    changed = False
    for e in range(geo.count):
        if state.edges[e] != UNDECIDED:
            continue
        a, b = geo.cells(e)
        if same_colour and puzzle.is_gray(*a) != puzzle.is_gray(*b):
            continue
        i, j = label[a], label[b]
        known = limits[i] or limits[j]
        if i == j or known is None:
            continue
        other = limits[j] if known is limits[i] else limits[i]
        white, gray = counts[i][0] + counts[j][0], counts[i][1] + counts[j][1]
        if other is not None and other.size != known.size:
            sentence = (
                f"{known.told(what)} and {other.told(what)} are of different sizes, so "
                f"joining {cell_name(a)} and {cell_name(b)} would make one block more than "
                f"{min(known.size, other.size)}: {geo.edge_name(e)} is a wall"
            )
        elif max(white, gray) > known.size:
            sentence = (
                f"joining {cell_name(a)} and {cell_name(b)} would put {max(white, gray)} "
                f"{'gray' if gray > white else 'white'} cells in {known.told(what)}, more "
                f"than {known.size}: {geo.edge_name(e)} is a wall"
            )
        else:
            continue
        changed |= state.set({e: WALL}, "sizes", sentence, [*groups[i], *groups[j]])
    return changed


def _colour_counts(state: State, group: list[Cell]) -> tuple[int, int]:
    gray = sum(state.puzzle.is_gray(*cell) for cell in group)
    return len(group) - gray, gray


# -- balance: every block has as many white cells as gray ones -----------------------------------
def balance(state: State) -> bool:
    """If an undecided edge were a wall and that cut a region off (the edges that are not
    walls being its only ways out), the region would hold unequal numbers of white and gray
    cells: it cannot be cut there, so the edge is open."""
    geo = state.geo
    changed = False
    for e, side in _bridges(state):
        white, gray = _colour_counts(state, side)
        if white == gray:
            continue
        sentence = (
            f"if {geo.edge_name(e)} were a wall, the cells it cuts off ({cell_name(side[0])} "
            f"and {len(side) - 1} more) would hold {white} white and {gray} gray cells, but "
            "every block has as many of each: it is open"
        )
        changed |= state.set({e: OPEN}, "balance", sentence, side)
    return changed


def _bridges(state: State) -> list[tuple[int, list[Cell]]]:
    """Undecided edges whose removal splits their region (joined by edges that are not
    walls), each with the cells on the far side of it in a DFS tree (Tarjan's bridges)."""
    puzzle = state.puzzle
    tree = _DfsTree(state)
    out = []
    for root in ((r, c) for r in range(puzzle.height) for c in range(puzzle.width)):
        if root not in tree.order:
            for e, child in tree.search(root):
                if state.edges[e] == UNDECIDED:
                    out.append((e, sorted(tree.below(child))))
    return out


class _DfsTree:
    """Iterative DFS over edges that are not walls, with Tarjan's low links."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.order: dict[Cell, int] = {}
        self.low: dict[Cell, int] = {}
        self.parent_edge: dict[Cell, int] = {}
        self.children: dict[Cell, list[Cell]] = {}

    def _enter(self, cell: Cell, edge: int) -> Iterator[tuple[Cell, int]]:
        self.order[cell] = self.low[cell] = len(self.order)
        self.parent_edge[cell] = edge
        self.children[cell] = []
        return iter(self.state.geo.neighbours(*cell))

    def search(self, root: Cell) -> list[tuple[int, Cell]]:
        """The bridges found from `root`: (edge, the cell below it)."""
        edges = self.state.edges
        bridges = []
        stack = [(root, self._enter(root, -1))]
        while stack:
            cell, neighbours = stack[-1]
            for nxt, e in neighbours:
                if edges[e] == WALL or e == self.parent_edge[cell]:
                    continue
                if nxt in self.order:
                    self.low[cell] = min(self.low[cell], self.order[nxt])
                    continue
                self.children[cell].append(nxt)
                stack.append((nxt, self._enter(nxt, e)))
                break
            else:
                stack.pop()
                if stack:
                    parent = stack[-1][0]
                    self.low[parent] = min(self.low[parent], self.low[cell])
                    if self.low[cell] > self.order[parent]:
                        bridges.append((self.parent_edge[cell], cell))
        return bridges

    def below(self, cell: Cell) -> list[Cell]:
        out, todo = [], [cell]
        while todo:
            current = todo.pop()
            out.append(current)
            todo.extend(self.children[current])
        return out
