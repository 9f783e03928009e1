"""The rule checker: every violation of an answer, with its cells, in puzz.link's order.

Kinds, in the order puzz.link checks them (rules.md): `single_colour`, `number_bigger`,
`three_areas`, `different_shapes`, `number_smaller`, `dead_end`; then `wall_inside` (a wall
with the same block on both sides: rule 5 forbids it even without a dead end). An incomplete
answer (undecided edges) first gets an `incomplete` entry naming them; the rules are then
checked as if the undecided edges were open, which says what is still missing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pencilbox.core.grid import Cell, cell_name
from pencilbox.genres.dbchoco.board import QUESTION, UNDECIDED, WALL, Walls
from pencilbox.genres.dbchoco.shapes import congruent

if TYPE_CHECKING:
    from pencilbox.genres.dbchoco.model import DoubleChoco

KINDS = (
    "incomplete",
    "single_colour",
    "number_bigger",
    "three_areas",
    "different_shapes",
    "number_smaller",
    "dead_end",
    "wall_inside",
)


@dataclass(frozen=True)
class Violation:
    kind: str
    message: str
    cells: tuple[Cell, ...]

    def __str__(self) -> str:
        return self.message

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "message": self.message, "cells": [list(c) for c in self.cells]}


def areas(puzzle: DoubleChoco, walls: Walls) -> list[list[Cell]]:
    """Connected one-colour areas: flood fill over open edges between cells of one colour."""
    geo = walls.geometry
    seen: set[Cell] = set()
    out: list[list[Cell]] = []
    for r0 in range(puzzle.height):
        for c0 in range(puzzle.width):
            if (r0, c0) in seen:
                continue
            colour = puzzle.is_gray(r0, c0)
            seen.add((r0, c0))
            area = [(r0, c0)]
            stack = [(r0, c0)]
            while stack:
                r, c = stack.pop()
                for (nr, nc), e in geo.neighbours(r, c):
                    if (
                        (nr, nc) not in seen
                        and walls.edges[e] != WALL
                        and puzzle.is_gray(nr, nc) == colour
                    ):
                        seen.add((nr, nc))
                        area.append((nr, nc))
                        stack.append((nr, nc))
            out.append(sorted(area))
    return out


def _where(cells: list[Cell]) -> str:
    first = cell_name(cells[0])
    return f"at {first}" if len(cells) == 1 else f"at {first} ({len(cells)} cells)"


def violations(puzzle: DoubleChoco, walls: Walls) -> list[Violation]:
    """Every violation, grouped by kind in puzz.link's order (KINDS)."""
    area_list = areas(puzzle, walls)
    found = [
        *_incomplete(walls),
        *_block_violations(walls, area_list),
        *_number_violations(puzzle, area_list),
        *_dead_ends(walls),
        *_walls_inside(walls),
    ]
    return sorted(found, key=lambda v: KINDS.index(v.kind))


def _incomplete(walls: Walls) -> list[Violation]:
    """One entry naming the undecided edges (the rules are then checked as if open)."""
    geo = walls.geometry
    undecided = walls.undecided_edges()
    if not undecided:
        return []
    cells = sorted({cell for e in undecided for cell in geo.cells(e)})
    names = ", ".join(geo.edge_name(e) for e in undecided[:8])
    more = f" and {len(undecided) - 8} more" if len(undecided) > 8 else ""
    message = f"the answer is incomplete: {len(undecided)} edges are undecided ({names}{more})"
    return [Violation("incomplete", message, tuple(cells))]


def _block_violations(walls: Walls, area_list: list[list[Cell]]) -> list[Violation]:
    """Rule 2 and 3 per block: one area of each colour, of the same shape."""
    area_of = {cell: i for i, area in enumerate(area_list) for cell in area}
    found = []
    for block in walls.blocks():
        block_areas = sorted({area_of[cell] for cell in block})
        where = _where(block)
        if len(block_areas) == 1:
            message = f"a block contains a single colour {where}"
            found.append(Violation("single_colour", message, tuple(block)))
        elif len(block_areas) >= 3:
            message = f"a block has {len(block_areas)} areas (three or more) {where}"
            found.append(Violation("three_areas", message, tuple(block)))
        else:
            first, second = (area_list[i] for i in block_areas)
            if not congruent(first, second):
                message = (
                    f"the two areas inside a block differ in shape {where} "
                    f"({len(first)} and {len(second)} cells)"
                )
                found.append(Violation("different_shapes", message, tuple(block)))
    return found


def _number_violations(puzzle: DoubleChoco, area_list: list[list[Cell]]) -> list[Violation]:
    """Rule 4: a number is the size of its area."""
    found = []
    for area in area_list:
        size = len(area)
        for r, c in area:
            value = puzzle.number(r, c)
            if value is None or value in (QUESTION, size):
                continue
            kind, word = (
                ("number_bigger", "bigger") if value > size else ("number_smaller", "smaller")
            )
            message = (
                f"the number {value} at {cell_name((r, c))} is {word} than its area ({size} cells)"
            )
            found.append(Violation(kind, message, tuple(area)))
    return found


def _dead_ends(walls: Walls) -> list[Violation]:
    """Rule 5 at each inner corner: a single wall there ends inside a block."""
    geo = walls.geometry
    found = []
    for r in range(walls.height - 1):
        for c in range(walls.width - 1):
            around = geo.vertex_edges(r, c)
            if sum(walls.edges[e] == WALL for e in around) == 1:
                message = f"a wall has a dead end at the corner below-right of {cell_name((r, c))}"
                corner = ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1))
                found.append(Violation("dead_end", message, corner))
    return found


def _walls_inside(walls: Walls) -> list[Violation]:
    """Rule 5 between corners: a wall with one block on both sides (not told twice when a
    dead end already names it)."""
    geo = walls.geometry
    ids = walls.block_ids()
    found = []
    for e in range(geo.count):
        if walls.edges[e] != WALL:
            continue
        (r1, c1), (r2, c2) = geo.cells(e)
        if ids[r1][c1] == ids[r2][c2] and not _dead_end_edge(walls, e):
            message = f"the wall {geo.edge_name(e)} lies inside a block"
            found.append(Violation("wall_inside", message, ((r1, c1), (r2, c2))))
    return found


def _dead_end_edge(walls: Walls, edge: int) -> bool:
    """True when the edge touches an inner vertex where it is the only wall."""
    geo = walls.geometry
    (r1, c1), (r2, _) = geo.cells(edge)
    # a vertical edge has vertices above and below it, a horizontal one left and right
    vertices = [(r1 - 1, c1), (r1, c1)] if r1 == r2 else [(r1, c1 - 1), (r1, c1)]
    for r, c in vertices:
        if 0 <= r < walls.height - 1 and 0 <= c < walls.width - 1:
            around = geo.vertex_edges(r, c)
            if sum(walls.edges[e] == WALL for e in around) == 1:
                return True
    return False


def is_solution(puzzle: DoubleChoco, walls: Walls) -> bool:
    return UNDECIDED not in walls.edges and not violations(puzzle, walls)
