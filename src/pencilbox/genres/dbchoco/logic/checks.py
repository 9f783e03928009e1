"""Whether the edges decided so far already break a rule (`broken` raises Broken with the
reason in a sentence): what a trial looks for, and what tells a player a mistake.

Python checks come first because their sentences are the most specific; the compiled
propagator's checks (search.COMPILED, see _propagator.c) then catch what is slow in Python,
above all a growing area whose shape fits nowhere in the other colour beside it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pencilbox.core.grid import Cell, cell_name
from pencilbox.genres.dbchoco.board import OPEN, UNDECIDED, WALL
from pencilbox.genres.dbchoco.encoding import known
from pencilbox.genres.dbchoco.logic.state import (
    AREA,
    REACH,
    Broken,
    State,
    component,
    components,
    number,
)
from pencilbox.genres.dbchoco.placements import Board
from pencilbox.genres.dbchoco.search import COMPILED
from pencilbox.genres.dbchoco.shapes import congruent

if TYPE_CHECKING:
    from pencilbox.genres.dbchoco._propagator import Propagator

COMPILED_REASONS = (
    "a wall would lie inside one block",
    "two different numbers would share a block",
    "an area would grow bigger than its number",
    "a number's area could no longer reach its size",
    "a block would take in two areas of one colour",
    "a block's cells of one colour would outnumber what the other colour or its number allows",
    "a block closed by walls would not be one white and one gray area of the same shape",
    "a growing area would fit nowhere, turned or mirrored, in the other colour beside it",
)
"""What each check of the compiled propagator says (its order in _propagator.c)."""


def broken(state: State) -> None:
    """Raise Broken when the decided edges break a rule (the first one found)."""
    _dead_end(state)
    _blocks_so_far(state)
    _unbalanced_regions(state)
    _out_of_reach(state)
    if not _compiled_check(state):
        _closed_blocks(state)
    placeless(state)


def quick_check(state: State) -> None:
    """The compiled checks alone (the whole of `broken` without them)."""
    if not _compiled_check(state):
        broken(state)


def _dead_end(state: State) -> None:
    puzzle, geo = state.puzzle, state.geo
    for r in range(puzzle.height - 1):
        for c in range(puzzle.width - 1):
            values = [state.edges[e] for e in geo.vertex_edges(r, c)]
            if values.count(WALL) == 1 and UNDECIDED not in values:
                raise Broken(f"a wall would end below-right of {cell_name((r, c))}", [(r, c)])


def _blocks_so_far(state: State) -> None:
    """Two numbers or a wall inside one block, a block too big for its number, an area too
    big for its number or for the number of its block."""
    puzzle, geo = state.puzzle, state.geo
    for block in components(state, same_colour=False, through=AREA):
        clues = [(n, cell) for cell in block if (n := number(puzzle, cell)) is not None]
        if len({n for n, _ in clues}) > 1:
            raise Broken("two different numbers would share a block", block)
        inside = set(block)
        for cell in block:
            for nxt, e in geo.neighbours(*cell):
                if nxt in inside and state.edges[e] == WALL:
                    raise Broken("a wall would lie inside a block", [cell, nxt], [e])
        if clues:
            _within_number(state, block, *clues[0])


def _within_number(state: State, block: list[Cell], n: int, where: Cell) -> None:
    if len(block) > 2 * n:
        raise Broken(
            f"the block of the {n} at {cell_name(where)} would have {len(block)} cells, "
            f"more than 2 x {n}",
            block,
        )
    inside = set(block)
    for cell in block:
        area = component(state, cell, same_colour=True, through=AREA)
        if len(area) > n and set(area) <= inside:
            raise Broken(
                f"an area of {len(area)} cells would share a block with the {n} at "
                f"{cell_name(where)}, but both areas of that block have {n} cells",
                area,
            )


def _unbalanced_regions(state: State) -> None:
    """Walls that close off a region leave it to be cut into blocks, and every block has as
    many white cells as gray ones: so must the region."""
    puzzle = state.puzzle
    for region in components(state, same_colour=False, through=REACH):
        gray = sum(puzzle.is_gray(*cell) for cell in region)
        white = len(region) - gray
        if gray != white:
            raise Broken(
                f"the region walled off around {cell_name(region[0])} would hold {white} "
                f"white and {gray} gray cells, but every block has as many of each",
                region,
            )


def _out_of_reach(state: State) -> None:
    for region in components(state, same_colour=True, through=REACH):
        for cell in region:
            n = number(state.puzzle, cell)
            if n is not None and len(region) < n:
                raise Broken(
                    f"the {n} at {cell_name(cell)} could reach only {len(region)} cells", region
                )


def _compiled_check(state: State) -> bool:
    """The compiled propagator's checks; True when they ran (and found nothing)."""
    engine = checker(state)
    if engine is None:
        return False
    values = [1 if v == WALL else -1 if v == OPEN else 0 for v in state.edges]
    found = engine.conflict(values)
    if found is None:
        return True
    kind, clause = found
    edges = sorted({abs(literal) - 1 for literal in clause})
    cells = sorted({cell for e in edges for cell in state.geo.cells(e)})
    raise Broken(COMPILED_REASONS[kind], cells, edges)


def checker(state: State) -> Propagator | None:
    """The compiled rule check for this puzzle (one per puzzle, shared by trial copies)."""
    if COMPILED is None:
        return None
    if state.engine is None:
        puzzle = state.puzzle
        count = puzzle.geometry.count
        state.engine = COMPILED(
            puzzle.width,
            puzzle.height,
            [int(gray) for gray in puzzle.gray],
            [known(n) or 0 for n in puzzle.numbers],
            list(range(1, count + 1)),
            1,
            0,
            0.0,
        )
    return state.engine


def _closed_blocks(state: State) -> None:
    """Without the compiled check: a region that can no longer grow must be one white and
    one gray area of the same shape."""
    puzzle, geo = state.puzzle, state.geo
    for block in components(state, same_colour=False, through=REACH):
        if len({puzzle.is_gray(*cell) for cell in block}) == 1:
            raise Broken("a block would hold a single colour", block)
        inside = set(block)
        if any(
            state.edges[e] != OPEN
            for cell in block
            for nxt, e in geo.neighbours(*cell)
            if nxt in inside
        ):
            continue
        areas = {tuple(component(state, cell, same_colour=True, through=AREA)) for cell in block}
        if len(areas) != 2:
            raise Broken("a finished block would have three or more areas", block)
        first, second = areas
        if not congruent(first, second):
            raise Broken("a finished block would have two different shapes", block)


def placeless(state: State) -> None:
    """A number (or a cell in a small pocket) whose block fits nowhere any more."""
    board = Board(state.puzzle, state.edges)
    for r in range(state.puzzle.height):
        for c in range(state.puzzle.width):
            if state.placements.blocks(board, (r, c), list_again=not state.probing) == []:
                n = board.number((r, c))
                what = f"the {n} at {cell_name((r, c))}" if n is not None else cell_name((r, c))
                raise Broken(f"{what} would have no place for its block", [(r, c)])
