"""Where a numbered cell's block can lie: every way to place it, given the edges decided so far.

A number n says its area has n cells, and the block around it is that area plus a congruent
area of the other colour beside it. With n small, the possible blocks can be listed: grow the
connected sets of n cells of the number's colour that hold it, then set each of the 8
rotations and reflections of the set next to it on cells of the other colour. A block is kept
when it breaks nothing decided: no wall inside it, no open edge leaving it, no other number
that differs from n. What every kept block agrees on is a deduction: an edge inside all of
them is open, an edge on the rim of all of them is a wall; and no block at all means the
edges decided so far are wrong.

The listing is capped (`MAX_AREAS`): for big numbers on an open board it would explode, and
then the number is left alone (`None`), which claims nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from pencilbox.core.grid import Cell
from pencilbox.genres.dbchoco.board import OPEN, QUESTION, UNDECIDED, WALL
from pencilbox.genres.dbchoco.shapes import images, normalise

if TYPE_CHECKING:
    from pencilbox.genres.dbchoco.model import DoubleChoco

MAX_NUMBER = 12
MAX_POCKET = 8
MAX_AREAS = 3000

Block = frozenset[Cell]


@dataclass(frozen=True)
class Board:
    """The puzzle and the current edge values, with the lookups the listing needs."""

    puzzle: DoubleChoco
    edges: list[str]

    def edge(self, a: Cell, b: Cell) -> str:
        return self.edges[self.puzzle.geometry.between(a, b)]

    def neighbours(self, cell: Cell) -> list[Cell]:
        return [nxt for nxt, _ in self.puzzle.geometry.neighbours(*cell)]

    def number(self, cell: Cell) -> int | None:
        value = self.puzzle.number(*cell)
        return None if value is None or value == QUESTION else value

    def gray(self, cell: Cell) -> bool:
        return self.puzzle.is_gray(*cell)


@dataclass(frozen=True)
class Placed:
    """One possible block, with the edges that must stay open (inside) and walls (rim)."""

    cells: Block
    inside: tuple[int, ...]
    rim: tuple[int, ...]

    def allowed(self, edges: list[str]) -> bool:
        value = edges.__getitem__  # no generator: the hottest test of the placement listing
        return WALL not in map(value, self.inside) and OPEN not in map(value, self.rim)


RELIST_AFTER = 8
"""A number with too many blocks to list is tried again once this many more edges are known."""


class Placements:
    """The possible blocks of each number, narrowed as edges get decided.

    Deciding edges only removes blocks, and a block stays possible exactly when its inside
    edges are not walls and its rim edges are not open, so a list made once can be filtered
    from then on instead of listed again. Copies share nothing mutable: probes work on one."""

    def __init__(self) -> None:
        self._known: dict[Cell, list[Placed] | None] = {}
        self._listed_at: dict[Cell, int] = {}
        self._filtered_at: dict[Cell, int] = {}
        """cell -> undecided edges when its list was last narrowed: edges are only ever
        decided, never undone, so the same count means the same edges (and the same list)."""

    def copy(self) -> Placements:
        other = Placements()
        other._known = dict(self._known)
        other._listed_at = dict(self._listed_at)
        other._filtered_at = dict(self._filtered_at)
        return other

    def blocks(self, board: Board, cell: Cell, *, list_again: bool = True) -> list[Placed] | None:
        """The possible blocks of the number at `cell` (None: too many to list)."""
        known = self._known.get(cell)
        if known is not None:
            undecided = board.edges.count(UNDECIDED)
            if self._filtered_at.get(cell) == undecided:
                return known
            narrowed = [placed for placed in known if placed.allowed(board.edges)]
            self._known[cell] = narrowed
            self._filtered_at[cell] = undecided
            return narrowed
        if cell in self._known and not list_again:
            return None  # a probe never lists: the count below is skipped on that hot path
        decided = len(board.edges) - board.edges.count(UNDECIDED)
        if cell in self._known and decided - self._listed_at[cell] < RELIST_AFTER:
            return None
        listed = blocks_for(board, cell)
        self._known[cell] = None if listed is None else [_placed(board, b) for b in listed]
        self._listed_at[cell] = decided
        self._filtered_at.pop(cell, None)
        return self._known[cell]

    def forget(self, cell: Cell) -> None:
        """Drop a cell's list (it gained a number: the list is made again for that size)."""
        for known in (self._known, self._listed_at, self._filtered_at):
            known.pop(cell, None)

    def keep(self, cell: Cell, kept: list[Placed]) -> None:
        """Narrow a cell's list to `kept` (blocks found impossible for another reason: since
        deciding edges only removes blocks, they never come back)."""
        self._known[cell] = kept
        self._filtered_at.pop(cell, None)


def _placed(board: Board, cells: Block) -> Placed:
    geo = board.puzzle.geometry
    inside: set[int] = set()
    rim: set[int] = set()
    for cell in cells:
        for nxt, e in geo.neighbours(*cell):
            (inside if nxt in cells else rim).add(e)
    return Placed(cells, tuple(sorted(inside)), tuple(sorted(rim)))


def blocks_for(board: Board, start: Cell) -> list[Block] | None:
    """Every block the cell at `start` can belong to, or None when there are too many to
    list. A number fixes the size of the cell's area; without one, the area lies in the
    pocket of its colour that walls leave it, and a small pocket bounds the size."""
    sizes = area_sizes(board, start)
    if sizes is None:
        return None
    found: set[Block] = set()
    for n in sizes:
        areas = _areas(board, start, n)
        if areas is None:
            return None
        for area in areas:
            found.update(_partners(board, area, n))
    return sorted(found, key=sorted)


def area_sizes(board: Board, start: Cell) -> range | None:
    """The sizes the area of `start` can have, when few enough to list."""
    n = board.number(start)
    if n is not None:
        return range(n, n + 1) if n <= MAX_NUMBER else None
    pocket = _pocket(board, start, MAX_POCKET + 1)
    return range(1, pocket + 1) if pocket <= MAX_POCKET else None


def _pocket(board: Board, start: Cell, cap: int) -> int:
    """How many cells of the start's colour it can reach without crossing a wall (up to cap)."""
    colour = board.gray(start)
    seen = {start}
    todo = [start]
    while todo and len(seen) < cap:
        cell = todo.pop()
        for nxt in board.neighbours(cell):
            if nxt not in seen and board.gray(nxt) == colour and board.edge(cell, nxt) != WALL:
                seen.add(nxt)
                todo.append(nxt)
    return len(seen)


def _areas(board: Board, start: Cell, n: int) -> list[Block] | None:
    """Connected sets of n cells of the start's colour, holding it, that may be its area;
    None when the listing passes the cap."""
    colour = board.gray(start)

    def fits(cell: Cell) -> bool:
        return board.gray(cell) == colour and board.number(cell) in (None, n)

    table, width, edges = board.puzzle.geometry.table, board.puzzle.width, board.edges
    layer: set[Block] = {frozenset([start])}
    for _ in range(n - 1):
        layer = {
            area | {nxt}
            for area in layer
            for r, c in area
            for nxt, e in table[r * width + c]
            if nxt not in area and edges[e] != WALL and fits(nxt)
        }
        if len(layer) > MAX_AREAS:
            return None
    return [area for area in layer if _sealable(board, area, same_colour=True)]


def _partners(board: Board, area: Block, n: int) -> Iterator[Block]:
    """The blocks made of `area` and a congruent area of the other colour touching it: each
    image of the area set with one of its cells on each cell of the other colour beside it,
    kept when every cell it covers may hold the partner (bit masks of the grid: one AND per
    place instead of a lookup per cell, the hottest loop of the placement listing)."""
    puzzle = board.puzzle
    width, height = puzzle.width, puzzle.height
    colour = board.gray(next(iter(area)))
    beside = {
        nxt
        for cell in area
        for nxt in board.neighbours(cell)
        if nxt not in area and board.gray(nxt) != colour
    }
    allowed = _partner_mask(puzzle, not colour, n)
    for shape in _distinct_images(normalise(area)):
        mask, rows, cols = _shape_mask(shape, width)
        origins = {
            (ar - dr, ac - dc)
            for ar, ac in beside
            for dr, dc in shape
            if 0 <= ar - dr <= height - rows and 0 <= ac - dc <= width - cols
        }
        for r0, c0 in origins:
            placed = mask << (r0 * width + c0)
            if placed & allowed == placed:
                block = area | frozenset((r0 + r, c0 + c) for r, c in shape)
                if _sealable(board, block, same_colour=False):
                    yield block


@lru_cache(maxsize=4096)
def _distinct_images(shape: tuple[Cell, ...]) -> frozenset[tuple[Cell, ...]]:
    """The distinct normalised images of a normalised shape: the listing asks for the same
    few shapes tens of thousands of times (8 normalisations each)."""
    return frozenset(images(shape))


@lru_cache(maxsize=4096)
def _shape_mask(shape: tuple[Cell, ...], width: int) -> tuple[int, int, int]:
    """A normalised shape as a bit mask of a grid `width` wide (bit r * width + c), with the
    rows and columns it spans."""
    mask = sum(1 << (r * width + c) for r, c in shape)
    return mask, max(r for r, _ in shape) + 1, max(c for _, c in shape) + 1


@lru_cache(maxsize=64)
def _partner_mask(puzzle: DoubleChoco, gray: bool, n: int) -> int:
    """`_cells_for_partner` as a bit mask (bit r * width + c)."""
    width = puzzle.width
    return sum(1 << (r * width + c) for r, c in _cells_for_partner(puzzle, gray, n))


@lru_cache(maxsize=64)
def _cells_for_partner(puzzle: DoubleChoco, gray: bool, n: int) -> frozenset[Cell]:
    """The cells of colour `gray` whose number, if any, is n or `?`: where the partner of an
    area of n cells may lie. It depends on the puzzle alone, and a trace asks for it thousands
    of times (a 16x16 grid: 256 cells looked at each time)."""
    return frozenset(
        (r, c)
        for r in range(puzzle.height)
        for c in range(puzzle.width)
        if puzzle.is_gray(r, c) == gray and puzzle.number(r, c) in (None, n, QUESTION)
    )


def _sealable(board: Board, cells: Block, *, same_colour: bool) -> bool:
    """No wall between two of `cells`, and none of the edges that leave them is open (for an
    area, only the edges to cells of its own colour count: the rest may lead to its partner)."""
    puzzle, edges = board.puzzle, board.edges
    width, gray, table = puzzle.width, puzzle.gray, puzzle.geometry.table
    first = next(iter(cells))
    colour = gray[first[0] * width + first[1]]
    for r, c in cells:  # flat lookups: called for every area and block the listing grows
        for nxt, e in table[r * width + c]:
            value = edges[e]
            if nxt in cells:
                if value == WALL:
                    return False
            elif value == OPEN and (not same_colour or gray[nxt[0] * width + nxt[1]] == colour):
                return False
    return True


@dataclass(frozen=True)
class Agreement:
    """What all the blocks of one number have in common."""

    open_edges: list[int]
    walls: list[int]


def agreement(edges: list[str], ways: list[Placed]) -> Agreement:
    """What every listed way agrees on, from the inside and rim edges each one keeps: an
    undecided edge inside every way is open, one on the rim of every way a wall."""
    inside = set(ways[0].inside).intersection(*(way.inside for way in ways[1:]))
    rim = set(ways[0].rim).intersection(*(way.rim for way in ways[1:]))
    return Agreement(
        open_edges=sorted(e for e in inside if edges[e] == UNDECIDED),
        walls=sorted(e for e in rim if edges[e] == UNDECIDED),
    )
