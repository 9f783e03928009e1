"""Logical deductions on the edges, as Steps for hints, `explain` and animation.

Techniques, easiest first (the grade is the hardest one a puzzle needs):

1. `numbers`: a wall between two neighbours holding different numbers; a wall between a 1
   and its neighbours of the same colour.
2. `dead_end`: at an inner corner three open edges leave the fourth open, and a single wall
   with one undecided edge left makes that edge a wall (no wall may end inside a block).
3. `area`: a 1 with a single possible partner forms a walled-off domino with it; a number's
   area (same colour, joined by open edges) is complete, so its other same-colour edges are
   walls; a number whose largest possible area has exactly its size
   opens every edge inside it; a cell walled on three sides joins its fourth neighbour.
4. `placement`: every way to place a (small) number's block is listed (`placements.py`);
   an edge inside all of them is open, an edge on the rim of all of them is a wall.
5. `contradiction`: "if this edge were a wall (open), the rules break here": the edge is set
   the other way when the rules above plus the checks of `_broken` fail after assuming it.
6. `backbone`: the last resort, labelled as such: the complete search (SAT) shows the
   remaining edges take the same value in every answer. A puzzle that needs it grades as
   `search`.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from pencilbox.core.grid import Cell, cell_name
from pencilbox.core.step import Step
from pencilbox.core.timing import Deadline, TimeLimitReached
from pencilbox.genres.dbchoco.model import (
    OPEN,
    QUESTION,
    UNDECIDED,
    WALL,
    DoubleChoco,
    EdgeGeometry,
    Walls,
)
from pencilbox.genres.dbchoco.placements import Board, Placements, agreement
from pencilbox.genres.dbchoco.shapes import congruent

LEVELS = {
    "numbers": 1,
    "dead_end": 2,
    "area": 3,
    "placement": 4,
    "contradiction": 5,
    "backbone": 6,
}
GRADES = ("numbers", "dead_end", "area", "placement", "contradiction", "search")


class Broken(Exception):
    """The edge state breaks a rule; `reason` says which, `cells` where."""

    def __init__(self, reason: str, cells: list[Cell]) -> None:
        super().__init__(reason)
        self.reason = reason
        self.cells = cells


def _known(value: int | None) -> int | None:
    return None if value is None or value == QUESTION else value


@dataclass
class State:
    puzzle: DoubleChoco
    edges: list[str]
    steps: list[Step] = field(default_factory=list)
    record: bool = True
    placements: Placements = field(default_factory=Placements)

    @property
    def geo(self) -> EdgeGeometry:
        return self.puzzle.geometry

    def walls(self) -> Walls:
        return Walls(self.puzzle.width, self.puzzle.height, tuple(self.edges))

    def solved(self) -> bool:
        return UNDECIDED not in self.edges

    def grade(self) -> str:
        hardest = max((LEVELS[s.technique] for s in self.steps), default=1)
        if hardest >= LEVELS["backbone"]:
            return "search"
        return next(name for name, level in LEVELS.items() if level == hardest)

    def set(
        self, changes: dict[int, str], technique: str, sentence: str, reasons: list[Cell]
    ) -> bool:
        new = {e: v for e, v in changes.items() if self.edges[e] != v}
        if not new:
            return False
        for e, v in new.items():
            if self.edges[e] != UNDECIDED:
                raise Broken(f"{self.geo.edge_name(e)} would be both a wall and open", [])
            self.edges[e] = v
        if self.record:
            geo = self.geo
            cells = sorted({cell for e in new for cell in geo.cells(e)})
            self.steps.append(
                Step(
                    technique=technique,
                    level=LEVELS[technique],
                    changes=(),
                    sentence=sentence,
                    reasons=tuple(dict.fromkeys([*reasons, *cells])),
                    extra={
                        "edges": [[e, v] for e, v in sorted(new.items())],
                        "edge_names": [geo.edge_name(e) for e in sorted(new)],
                    },
                )
            )
        return True


def _describe(geo: EdgeGeometry, edges: list[int], value: str) -> str:
    what = "a wall" if value == WALL else "open"
    names = ", ".join(geo.edge_name(e) for e in edges[:6])
    more = f" and {len(edges) - 6} more" if len(edges) > 6 else ""
    if len(edges) == 1:
        return f"edge {names} is {what}"
    return f"edges {names}{more} are {'walls' if value == WALL else 'open'}"


# -- components ---------------------------------------------------------------------------------
def _component(
    state: State, start: Cell, *, same_colour: bool, through: tuple[str, ...]
) -> list[Cell]:
    puzzle, geo = state.puzzle, state.geo
    colour = puzzle.is_gray(*start)
    seen = {start}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for nxt, e in geo.neighbours(*cell):
            if nxt in seen or state.edges[e] not in through:
                continue
            if same_colour and puzzle.is_gray(*nxt) != colour:
                continue
            seen.add(nxt)
            queue.append(nxt)
    return sorted(seen)


def _components(state: State, *, same_colour: bool, through: tuple[str, ...]) -> list[list[Cell]]:
    seen: set[Cell] = set()
    out = []
    for r in range(state.puzzle.height):
        for c in range(state.puzzle.width):
            if (r, c) not in seen:
                comp = _component(state, (r, c), same_colour=same_colour, through=through)
                seen.update(comp)
                out.append(comp)
    return out


# -- rules --------------------------------------------------------------------------------------
def _numbers(state: State) -> bool:
    puzzle, geo = state.puzzle, state.geo
    changed = False
    for e in range(geo.count):
        if state.edges[e] != UNDECIDED:
            continue
        a, b = geo.cells(e)
        na, nb = _known(puzzle.number(*a)), _known(puzzle.number(*b))
        if na is not None and nb is not None and na != nb:
            changed |= state.set(
                {e: WALL},
                "numbers",
                f"{cell_name(a)} holds {na} and {cell_name(b)} holds {nb}: different numbers "
                "cannot share a block, so a wall separates them",
                [a, b],
            )
        elif puzzle.is_gray(*a) == puzzle.is_gray(*b) and 1 in (na, nb):
            one = a if na == 1 else b
            changed |= state.set(
                {e: WALL},
                "numbers",
                f"the 1 at {cell_name(one)} is an area of one cell, so it is walled off from "
                "its neighbours of the same colour",
                [one],
            )
    return changed


def _dead_ends(state: State) -> bool:
    geo = state.geo
    changed = False
    for r in range(state.puzzle.height - 1):
        for c in range(state.puzzle.width - 1):
            around = geo.vertex_edges(r, c)
            values = [state.edges[e] for e in around]
            undecided = [e for e, v in zip(around, values) if v == UNDECIDED]
            walls = values.count(WALL)
            corner = [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
            if len(undecided) == 1 and walls == 0:
                changed |= state.set(
                    {undecided[0]: OPEN},
                    "dead_end",
                    f"the corner below-right of {cell_name((r, c))} has three open edges; "
                    f"a wall on the fourth would end there, so {geo.edge_name(undecided[0])} "
                    "is open",
                    corner,
                )
            elif len(undecided) == 1 and walls == 1:
                changed |= state.set(
                    {undecided[0]: WALL},
                    "dead_end",
                    f"a wall ends at the corner below-right of {cell_name((r, c))} unless it "
                    f"goes on: {geo.edge_name(undecided[0])} is a wall",
                    corner,
                )
    return changed


def _areas(state: State) -> bool:
    puzzle, geo = state.puzzle, state.geo
    changed = False
    # a cell walled on all sides but one joins the last neighbour
    for r in range(puzzle.height):
        for c in range(puzzle.width):
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
    for area in _components(state, same_colour=True, through=(OPEN,)):
        numbers = {_known(puzzle.number(*cell)) for cell in area} - {None}
        if len(numbers) != 1:
            continue
        n = numbers.pop()
        if len(area) == n:
            inside = set(area)
            close = [
                e
                for cell in area
                for nxt, e in geo.neighbours(*cell)
                if nxt not in inside
                and puzzle.is_gray(*nxt) == puzzle.is_gray(*cell)
                and state.edges[e] == UNDECIDED
            ]
            if close:
                changed |= state.set(
                    dict.fromkeys(close, WALL),
                    "area",
                    f"the area of the {n} at {cell_name(area[0])} already has {n} cells, so "
                    f"{_describe(geo, sorted(set(close)), WALL)}",
                    area,
                )
    for region in _components(state, same_colour=True, through=(OPEN, UNDECIDED)):
        numbers = {_known(puzzle.number(*cell)) for cell in region} - {None}
        if len(numbers) != 1:
            continue
        n = numbers.pop()
        if len(region) == n:
            inside = set(region)
            join = [
                e
                for cell in region
                for nxt, e in geo.neighbours(*cell)
                if nxt in inside and state.edges[e] == UNDECIDED
            ]
            if join:
                changed |= state.set(
                    dict.fromkeys(join, OPEN),
                    "area",
                    f"the number {n} can only reach {n} cells of its colour, so all of them "
                    f"form its area: {_describe(geo, sorted(set(join)), OPEN)}",
                    region,
                )
    return changed


def _ones(state: State) -> bool:
    """A 1's block is a domino: the 1 and one neighbour of the other colour. With a single
    possible partner left, the edge to it is open and every other edge of the pair a wall."""
    puzzle, geo = state.puzzle, state.geo
    changed = False
    for r in range(puzzle.height):
        for c in range(puzzle.width):
            if _known(puzzle.number(r, c)) != 1:
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


def _placements(state: State) -> bool:
    """Numbers first (their blocks are fewest), then cells in small pockets of one colour."""
    board = Board(state.puzzle, state.edges)
    numbered = _numbered_cells(state.puzzle)
    everything = [(r, c) for r in range(state.puzzle.height) for c in range(state.puzzle.width)]
    others = [cell for cell in everything if cell not in numbered]
    for cell in numbered + others:
        placed = state.placements.blocks(board, cell, list_again=state.record)
        if not placed:
            continue
        blocks = [p.cells for p in placed]
        found = agreement(board, blocks)
        changes = dict.fromkeys(found.open_edges, OPEN) | dict.fromkeys(found.walls, WALL)
        if not changes:
            continue
        ways = "one way" if len(blocks) == 1 else f"{len(blocks)} ways"
        n = board.number(cell)
        whose = (
            f"the block of the {n} at {cell_name(cell)} (two congruent areas of {n} cells)"
            if n is not None
            else f"the block of {cell_name(cell)} (walls leave its area at most "
            f"{max(len(b) for b in blocks) // 2} cells)"
        )
        told = [
            _describe(state.geo, edges, value)
            for edges, value in ((found.open_edges, OPEN), (found.walls, WALL))
            if edges
        ]
        state.set(
            changes,
            "placement",
            f"{whose} fits in {ways}; in every one {' and '.join(told)}",
            sorted(set().union(*blocks)),
        )
        return True
    return False


def _numbered_cells(puzzle: DoubleChoco) -> list[Cell]:
    return [
        (r, c)
        for r in range(puzzle.height)
        for c in range(puzzle.width)
        if _known(puzzle.number(r, c)) is not None
    ]


def _placeless_numbers(state: State) -> None:
    board = Board(state.puzzle, state.edges)
    for r in range(state.puzzle.height):
        for c in range(state.puzzle.width):
            if state.placements.blocks(board, (r, c), list_again=state.record) == []:
                n = board.number((r, c))
                what = f"the {n} at {cell_name((r, c))}" if n is not None else cell_name((r, c))
                raise Broken(f"{what} would have no place for its block", [(r, c)])


RULES = (_numbers, _dead_ends, _ones, _areas, _placements)


def propagate(state: State, deadline: Deadline | None = None) -> None:
    """Apply the rules until nothing changes; raises Broken on a contradiction."""
    while True:
        if deadline is not None and deadline.expired():
            raise TimeLimitReached
        if not any(rule(state) for rule in RULES):
            break
        _broken(state)
    _broken(state)


def _broken(state: State) -> None:
    puzzle, geo = state.puzzle, state.geo
    for r in range(puzzle.height - 1):
        for c in range(puzzle.width - 1):
            values = [state.edges[e] for e in geo.vertex_edges(r, c)]
            if values.count(WALL) == 1 and UNDECIDED not in values:
                raise Broken(f"a wall would end below-right of {cell_name((r, c))}", [(r, c)])
    for block in _components(state, same_colour=False, through=(OPEN,)):
        numbers = {_known(puzzle.number(*cell)) for cell in block} - {None}
        if len(numbers) > 1:
            raise Broken("two different numbers would share a block", block)
        inside = set(block)
        for cell in block:
            for nxt, e in geo.neighbours(*cell):
                if nxt in inside and state.edges[e] == WALL:
                    raise Broken("a wall would lie inside a block", [cell, nxt])
    for area in _components(state, same_colour=True, through=(OPEN,)):
        for cell in area:
            n = _known(puzzle.number(*cell))
            if n is not None and len(area) > n:
                raise Broken(f"the area of the {n} at {cell_name(cell)} would be too big", area)
    _numbered_blocks_too_big(state)
    _unbalanced_regions(state)
    _placeless_numbers(state)
    for region in _components(state, same_colour=True, through=(OPEN, UNDECIDED)):
        for cell in region:
            n = _known(puzzle.number(*cell))
            if n is not None and len(region) < n:
                raise Broken(
                    f"the {n} at {cell_name(cell)} could reach only {len(region)} cells", region
                )
    for block in _components(state, same_colour=False, through=(OPEN, UNDECIDED)):
        colours = {puzzle.is_gray(*cell) for cell in block}
        if len(colours) == 1:
            raise Broken("a block would hold a single colour", block)
        inside = set(block)
        closed = all(
            state.edges[e] == OPEN
            for cell in block
            for nxt, e in geo.neighbours(*cell)
            if nxt in inside
        )
        if closed:
            areas = {
                tuple(_component(state, cell, same_colour=True, through=(OPEN,))) for cell in block
            }
            if len(areas) != 2:
                raise Broken("a finished block would have three or more areas", block)
            first, second = areas
            if not congruent(first, second):
                raise Broken("a finished block would have two different shapes", block)


def _numbered_blocks_too_big(state: State) -> None:
    """Both areas of a block have the size of its number, so a numbered block holds at most
    twice the number, and no area inside it (even one without a number) exceeds it."""
    puzzle = state.puzzle
    for block in _components(state, same_colour=False, through=(OPEN,)):
        numbers = [(n, cell) for cell in block if (n := _known(puzzle.number(*cell))) is not None]
        if not numbers:
            continue
        n, where = numbers[0]
        if len(block) > 2 * n:
            raise Broken(
                f"the block of the {n} at {cell_name(where)} would have {len(block)} cells, "
                f"more than 2 x {n}",
                block,
            )
        inside = set(block)
        for cell in block:
            area = _component(state, cell, same_colour=True, through=(OPEN,))
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
    for region in _components(state, same_colour=False, through=(OPEN, UNDECIDED)):
        gray = sum(puzzle.is_gray(*cell) for cell in region)
        white = len(region) - gray
        if gray != white:
            raise Broken(
                f"the region walled off around {cell_name(region[0])} would hold {white} "
                f"white and {gray} gray cells, but every block has as many of each",
                region,
            )


def _contradiction(state: State, deadline: Deadline | None, budget: Deadline | None = None) -> bool:
    """One edge set by trying the opposite and propagating to a contradiction. When the
    probing `budget` runs out, no more edges are tried (False)."""
    for e in range(state.geo.count):
        if state.edges[e] != UNDECIDED:
            continue
        if budget is not None and budget.expired():
            return False
        for guess, other in ((WALL, OPEN), (OPEN, WALL)):
            trial = State(
                state.puzzle, state.edges.copy(), record=False, placements=state.placements.copy()
            )
            try:
                trial.set({e: guess}, "contradiction", "", [])
                propagate(trial, deadline)
            except Broken as broken:
                what = "a wall" if guess == WALL else "open"
                state.set(
                    {e: other},
                    "contradiction",
                    f"if {state.geo.edge_name(e)} were {what}, {broken.reason}; so it is "
                    f"{'a wall' if other == WALL else 'open'}",
                    broken.cells,
                )
                return True
    return False


def deduce(
    puzzle: DoubleChoco,
    *,
    probes: bool = True,
    deadline: Deadline | None = None,
    solution: Walls | None = None,
    backbone: bool = False,
    probe_seconds: float | None = None,
) -> State:
    """Logic from the empty grid: rules, then (with `probes`) contradictions, repeatedly.

    With `backbone` (and a known `solution`, e.g. from the solver when it proved uniqueness),
    the remaining edges are then filled in one step labelled `backbone`."""
    state = State(puzzle, [UNDECIDED] * puzzle.geometry.count)
    budget = Deadline(probe_seconds) if probe_seconds is not None else None
    try:
        propagate(state, deadline)
        while probes and not state.solved() and _contradiction(state, deadline, budget):
            propagate(state, deadline)
    except Broken as broken:
        state.steps.append(
            Step("contradiction", LEVELS["contradiction"], (), f"no answer: {broken.reason}")
        )
        return state
    if backbone and solution is not None and not state.solved():
        rest = {e: solution.edges[e] for e in range(state.geo.count) if state.edges[e] == UNDECIDED}
        state.set(
            rest,
            "backbone",
            f"last resort (complete search): the remaining {len(rest)} edges take the same "
            "value in every answer",
            [],
        )
    return state


def first_step(puzzle: DoubleChoco, time_limit: float | None = 10.0) -> Step | None:
    """The easiest step from the empty grid (a hint): the first rule that applies, else the
    first contradiction found by probing; None when neither finds anything in time."""
    state = State(puzzle, [UNDECIDED] * puzzle.geometry.count)
    deadline = Deadline(time_limit)
    try:
        if any(rule(state) for rule in RULES) or _contradiction(state, deadline):
            return state.steps[0]
    except (Broken, TimeLimitReached):
        return None
    return None


PROBE_SECONDS = 10.0
"""Probing (contradiction steps) is pure Python and slow on big grids: a trace spends at most
this long on it before the labelled last resort (backbone) finishes the grid."""


def trace(puzzle: DoubleChoco, time_limit: float | None = None) -> list[Step]:
    """The steps from the empty grid to the answer (when it is unique)."""
    deadline = Deadline(time_limit)
    from pencilbox.genres.dbchoco.solve import solve

    result = solve(puzzle, limit=2, time_limit=deadline.remaining(), with_grade=False)
    solution = result.solutions[0] if result.status == "unique" else None
    state = deduce(
        puzzle,
        deadline=deadline,
        solution=solution,
        backbone=solution is not None,
        probe_seconds=PROBE_SECONDS,
    )
    return state.steps
