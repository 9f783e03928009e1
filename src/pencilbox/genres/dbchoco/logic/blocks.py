"""Whole-block reasoning: where a number's block can lie, and where a growing area's
partner can still fit.

`small_placements`: `placements` for the numbers up to SMALL_NUMBER only, a local technique.

`placements`: every way to place the block of a number (or of a cell in a small pocket of
its colour) is listed (placements.py); a way that breaks a rule at once (the rule check of
checks.py, with its inside open and its rim walled) is dropped; an edge inside all the ways
left is open, an edge on the rim of all of them is a wall.

`shape`: an area that has grown to k cells must be matched, in its block, by a congruent
area of the other colour, which holds a copy of those k cells turned or mirrored. The
copies that can still be placed (on cells of the other colour, across no wall, next to the
area's reach) are listed; a cell in every copy is in the area's block, so its edge to the
area is open, and two neighbours in every copy are in one area.
"""

from __future__ import annotations

from functools import lru_cache

from pencilbox.core.grid import Cell, cell_name
from pencilbox.genres.dbchoco.board import OPEN, WALL
from pencilbox.genres.dbchoco.logic.checks import checker
from pencilbox.genres.dbchoco.logic.state import (
    AREA,
    REACH,
    State,
    component,
    components,
    describe,
)
from pencilbox.genres.dbchoco.placements import Board, Placed, agreement
from pencilbox.genres.dbchoco.shapes import images, normalise

FILTER_LIMIT = 400
"""Lists longer than this are not checked way by way (each check costs ~20 us)."""
SHAPE_LIMIT = 12
"""Areas larger than this are left to the other techniques (copies get slow to list)."""


SMALL_NUMBER = 3
"""The largest number whose block `small_placements` places: each of its two areas is one of
the four shapes of at most three cells (a cell, a domino, a straight or bent tromino), which
a player sees at a glance around the number, where a larger number's areas take one of five
tetrominoes, twelve pentominoes, ... (8x8, seeds 1-7, clues of the local level before and
after: median 17 -> 12; with 2 as the largest: 14)."""


def small_placements(state: State) -> bool:
    """The blocks of the numbers up to SMALL_NUMBER, as `placements` does for the others."""
    small = [cell for cell, n in _clued(state) if n <= SMALL_NUMBER]
    return _placed_in_common(state, small, "small_placement")


def placements(state: State) -> bool:
    """Numbers first (their blocks are fewest), then cells in small pockets of one colour.
    The numbers up to SMALL_NUMBER are left out: `small_placements` comes just before in
    every set of rules and has found nothing on this same state (looking at them again made
    the placement level 1.5x slower to generate)."""
    clued = _clued(state)
    larger = [cell for cell, n in clued if n > SMALL_NUMBER]
    sized = {cell for cell, _ in clued}
    width, height = state.puzzle.width, state.puzzle.height
    pockets = [(r, c) for r in range(height) for c in range(width) if (r, c) not in sized]
    return _placed_in_common(state, larger + pockets, "placement")


def _clued(state: State) -> list[tuple[Cell, int]]:
    """The cells whose clue gives a size, with it, row by row."""
    width = state.puzzle.width
    return [(divmod(i, width), n) for i, n in enumerate(state.puzzle.sizes) if n is not None]


def _placed_in_common(state: State, cells: list[Cell], technique: str) -> bool:
    """The first of `cells` whose possible blocks all agree on an undecided edge decides it."""
    board = Board(state.puzzle, state.edges)
    for cell in cells:
        placed = state.placements.blocks(board, cell, list_again=not state.probing)
        if not placed:
            continue
        kept = _possible(state, placed)
        if len(kept) < len(placed):
            state.placements.keep(cell, kept)
        if kept and _agree(state, board, cell, kept, len(placed) - len(kept), technique):
            return True
    return False


def _possible(state: State, placed: list[Placed]) -> list[Placed]:
    """The ways that break no rule at once (all of them when there is no compiled check)."""
    engine = checker(state)
    if engine is None or len(placed) > FILTER_LIMIT:
        return placed
    base = [1 if v == WALL else -1 if v == OPEN else 0 for v in state.edges]
    kept = []
    for way in placed:
        values = list(base)
        for e in way.inside:
            values[e] = -1
        for e in way.rim:
            values[e] = 1
        if engine.conflict(values) is None:
            kept.append(way)
    return kept


def _agree(
    state: State, board: Board, cell: Cell, kept: list[Placed], dropped: int, technique: str
) -> bool:
    blocks = [way.cells for way in kept]
    found = agreement(board.edges, kept)
    changes = dict.fromkeys(found.open_edges, OPEN) | dict.fromkeys(found.walls, WALL)
    if not changes:
        return False
    ways = "one way" if len(blocks) == 1 else f"{len(blocks)} ways"
    if dropped:
        ways += f" ({dropped} more would break a rule at once)"
    n = board.number(cell)
    whose = (
        f"the block of the {n} at {cell_name(cell)} (two congruent areas of {n} cells)"
        if n is not None
        else f"the block of {cell_name(cell)} (walls leave its area at most "
        f"{max(len(b) for b in blocks) // 2} cells)"
    )
    told = [
        describe(state.geo, edges, value)
        for edges, value in ((found.open_edges, OPEN), (found.walls, WALL))
        if edges
    ]
    return state.set(
        changes,
        technique,
        f"{whose} fits in {ways}; in every one {' and '.join(told)}",
        sorted(set().union(*blocks)),
    )


# -- shape: the partner of a growing area ----------------------------------------------------------
def shape(state: State) -> bool:
    for area in components(state, same_colour=True, through=AREA):
        if not 2 <= len(area) <= SHAPE_LIMIT:
            continue
        copies = partner_copies(state, area)
        if copies and _sure_of_partner(state, area, copies):
            return True
    return False


def partner_copies(state: State, area: list[Cell]) -> list[frozenset[Cell]]:
    """Every placement of the area's shape, turned or mirrored, on cells of the other
    colour joined by edges that are not walls, in a region of that colour next to the
    area's reach (where the partner must lie). A copy joined so lies in one region of its
    colour, so it lies in `_beside` as soon as one cell does: each image is anchored at its
    first cell on every cell there."""
    width = state.puzzle.width
    beside = _beside(state, area)
    allowed = set(beside)
    edges = state.edges
    vertical = state.geo.vertical_count
    found: set[frozenset[Cell]] = set()
    for offsets, rights, downs in _images_with_edges(normalise(area), width):
        for ar, ac in beside:
            cells = [(ar + dr, ac + dc) for dr, dc in offsets]
            if not all(cell in allowed for cell in cells):
                continue
            right = ar * (width - 1) + ac
            down = vertical + ar * width + ac
            if WALL not in [edges[right + o] for o in rights] and WALL not in [
                edges[down + o] for o in downs
            ]:
                found.add(frozenset(cells))
    return sorted(found, key=sorted)


@lru_cache(maxsize=4096)
def _images_with_edges(
    area: tuple[Cell, ...], width: int
) -> list[tuple[list[Cell], list[int], list[int]]]:
    """Each distinct image of the area as offsets from its first cell, with the offsets of
    the edges inside it from that cell's right edge and down edge (on a grid `width` wide)."""
    out = []
    for image in dict.fromkeys(images(area)):
        r0, c0 = image[0]
        offsets = [(r - r0, c - c0) for r, c in image]
        inside = set(offsets)
        rights = [dr * (width - 1) + dc for dr, dc in offsets if (dr, dc + 1) in inside]
        downs = [dr * width + dc for dr, dc in offsets if (dr + 1, dc) in inside]
        out.append((offsets, rights, downs))
    return out


def _beside(state: State, area: list[Cell]) -> list[Cell]:
    """The cells of the other colour the partner may use: the regions of that colour
    (through edges that are not walls) touching the area's own reach."""
    puzzle, geo = state.puzzle, state.geo
    reach = component(state, area[0], same_colour=True, through=REACH)
    out: set[Cell] = set()
    for cell in reach:
        for nxt, e in geo.neighbours(*cell):
            other_colour = puzzle.is_gray(*nxt) != puzzle.is_gray(*cell)
            if state.edges[e] != WALL and other_colour and nxt not in out:
                out.update(component(state, nxt, same_colour=True, through=REACH))
    return sorted(out)


def _sure_of_partner(state: State, area: list[Cell], copies: list[frozenset[Cell]]) -> bool:
    geo = state.geo
    common = set.intersection(*(set(copy) for copy in copies))
    inside = set(area)
    opened = sorted(
        {
            e
            for cell in common
            for nxt, e in geo.neighbours(*cell)
            if (nxt in inside or nxt in common) and state.edges[e] not in (OPEN, WALL)
        }
    )
    if not opened:
        return False
    ways = "one place" if len(copies) == 1 else f"{len(copies)} places"
    size = len(area)
    return state.set(
        dict.fromkeys(opened, OPEN),
        "shape",
        f"the {'gray' if state.puzzle.is_gray(*area[0]) else 'white'} area at "
        f"{cell_name(area[0])} has {size} cells already, so its partner holds a copy of "
        f"them, turned or mirrored; that copy fits in {ways}, all of which use "
        f"{', '.join(cell_name(c) for c in sorted(common)[:6])}: "
        f"{describe(geo, opened, OPEN)}",
        sorted(inside | common),
    )
