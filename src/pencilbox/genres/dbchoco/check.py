"""The rule checker: every violation of an answer, with its cells, in puzz.link's order.

Kinds, in the order puzz.link checks them (rules.md): `single_colour`, `number_bigger`,
`three_areas`, `different_shapes`, `number_smaller`, `dead_end`; then `wall_inside` (a wall
with the same block on both sides: rule 5 forbids it even without a dead end). An incomplete
answer (undecided edges) first gets an `incomplete` entry naming them; the rules are then
checked as if the undecided edges were open, which says what is still missing.
"""

from __future__ import annotations

from dataclasses import dataclass

from pencilbox.core.grid import Cell, cell_name
from pencilbox.genres.dbchoco.model import QUESTION, UNDECIDED, WALL, DoubleChoco, Walls
from pencilbox.genres.dbchoco.shapes import congruent

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
    geo = walls.geometry
    found: dict[str, list[Violation]] = {kind: [] for kind in KINDS}
    undecided = walls.undecided_edges()
    if undecided:
        cells = sorted({cell for e in undecided for cell in geo.cells(e)})
        names = ", ".join(geo.edge_name(e) for e in undecided[:8])
        more = f" and {len(undecided) - 8} more" if len(undecided) > 8 else ""
        found["incomplete"].append(
            Violation(
                "incomplete",
                f"the answer is incomplete: {len(undecided)} edges are undecided ({names}{more})",
                tuple(cells),
            )
        )
    area_of: dict[Cell, int] = {}
    area_list = areas(puzzle, walls)
    for i, area in enumerate(area_list):
        for cell in area:
            area_of[cell] = i
    for block in walls.blocks():
        block_areas = sorted({area_of[cell] for cell in block})
        where = _where(block)
        if len(block_areas) == 1:
            found["single_colour"].append(
                Violation(
                    "single_colour",
                    f"a block contains a single colour {where}",
                    tuple(block),
                )
            )
        elif len(block_areas) >= 3:
            found["three_areas"].append(
                Violation(
                    "three_areas",
                    f"a block has {len(block_areas)} areas (three or more) {where}",
                    tuple(block),
                )
            )
        else:
            first, second = (area_list[i] for i in block_areas)
            if not congruent(first, second):
                found["different_shapes"].append(
                    Violation(
                        "different_shapes",
                        f"the two areas inside a block differ in shape {where} "
                        f"({len(first)} and {len(second)} cells)",
                        tuple(block),
                    )
                )
    for area in area_list:
        size = len(area)
        for r, c in area:
            value = puzzle.number(r, c)
            if value is None or value == QUESTION:
                continue
            if value > size:
                found["number_bigger"].append(
                    Violation(
                        "number_bigger",
                        f"the number {value} at {cell_name((r, c))} is bigger than its area "
                        f"({size} cells)",
                        tuple(area),
                    )
                )
            elif value < size:
                found["number_smaller"].append(
                    Violation(
                        "number_smaller",
                        f"the number {value} at {cell_name((r, c))} is smaller than its area "
                        f"({size} cells)",
                        tuple(area),
                    )
                )
    for r in range(puzzle.height - 1):
        for c in range(puzzle.width - 1):
            around = geo.vertex_edges(r, c)
            if sum(walls.edges[e] == WALL for e in around) == 1:
                found["dead_end"].append(
                    Violation(
                        "dead_end",
                        f"a wall has a dead end at the corner below-right of {cell_name((r, c))}",
                        ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)),
                    )
                )
    ids = walls.block_ids()
    for e in range(geo.count):
        if walls.edges[e] != WALL:
            continue
        (r1, c1), (r2, c2) = geo.cells(e)
        if ids[r1][c1] == ids[r2][c2] and not _dead_end_edge(walls, e):
            found["wall_inside"].append(
                Violation(
                    "wall_inside",
                    f"the wall {geo.edge_name(e)} lies inside a block",
                    ((r1, c1), (r2, c2)),
                )
            )
    return [v for kind in KINDS for v in found[kind]]


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
