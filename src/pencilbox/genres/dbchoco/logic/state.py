"""What every technique works on: the edges decided so far, the steps that decided them.

A step is recorded as a `core.step.Step`: its technique and level, a sentence, the cells it
looks at (`reasons`, highlighted by the pages) and in `extra` the edges it decides
(`edges`: [edge, "1" wall / "0" open]), their names, and `focus_edges`, the edges the
reasoning rests on (highlighted too).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pencilbox.core.grid import Cell
from pencilbox.core.step import Step
from pencilbox.genres.dbchoco.board import OPEN, UNDECIDED, WALL, EdgeGeometry, Walls
from pencilbox.genres.dbchoco.placements import Placements

if TYPE_CHECKING:
    from pencilbox.genres.dbchoco._propagator import Propagator
    from pencilbox.genres.dbchoco.model import DoubleChoco

GRADE_OF = {
    "numbers": "local",
    "dead_end": "local",
    "area": "local",
    "sizes": "local",
    "balance": "local",
    "small_placement": "local",
    "placement": "placement",
    "shape": "placement",
    "contradiction": "contradiction",
    "backbone": "search",
}
"""Every technique, easiest first, and the level it belongs to (logic/__init__.py says why
the first five local techniques make one level)."""
GRADES = ("local", "placement", "contradiction", "search")
"""The levels a puzzle can grade, easiest first: the level of the hardest technique it needs."""
LEVELS = {technique: GRADES.index(grade) + 1 for technique, grade in GRADE_OF.items()}
"""A technique's level as a number (a step's `level`; 1 is the easiest)."""


class Broken(Exception):
    """The edges break a rule; `reason` says which, `cells` and `edges` where."""

    def __init__(self, reason: str, cells: list[Cell], edges: list[int] | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.cells = cells
        self.edges = edges or []


@dataclass
class State:
    puzzle: DoubleChoco
    edges: list[str]
    steps: list[Step] = field(default_factory=list)
    record: bool = True
    placements: Placements = field(default_factory=Placements)
    engine: Propagator | None = None
    """The compiled rule check (search.COMPILED) for this puzzle, made on first use."""
    probing: bool = False
    """A trial's copy: it never lists a number's blocks again that were too many to list
    (placements.Placements.blocks), the hot path of trials."""
    next_trial: int = 0
    """The edge the next trial sweep starts from (trial.py goes round, not back to 0)."""
    version: int = 0
    """Counts the calls of `set` that changed edges (the only way edges change)."""
    grouped: dict[tuple[bool, tuple[str, ...]], tuple[int, list[list[Cell]]]] = field(
        default_factory=dict
    )
    """`components` found at a version: the rules and checks of one pass ask for the same
    few partitions again and again."""
    memo: dict[str, tuple[int, object]] = field(default_factory=dict)
    """Other findings of the rules at a version (rules.py: the known block sizes)."""

    @property
    def geo(self) -> EdgeGeometry:
        return self.puzzle.geometry

    def copy(self, record: bool = False) -> State:
        """A trial copy: its own edges and placements, the same rule check."""
        return State(
            self.puzzle,
            self.edges.copy(),
            record=record,
            placements=self.placements.copy(),
            engine=self.engine,
            probing=True,
        )

    def walls(self) -> Walls:
        return Walls(self.puzzle.width, self.puzzle.height, tuple(self.edges))

    def solved(self) -> bool:
        return UNDECIDED not in self.edges

    def grade(self) -> str:
        """The level of the hardest technique used (`search` for the last resort)."""
        return GRADE_OF[self.hardest()]

    def hardest(self) -> str:
        """The hardest technique used (the last in the order of GRADE_OF), `numbers` when
        there is no step at all."""
        order = list(GRADE_OF)
        return max((s.technique for s in self.steps), key=order.index, default="numbers")

    def set(
        self,
        changes: dict[int, str],
        technique: str,
        sentence: str,
        reasons: list[Cell],
        focus: list[int] | None = None,
    ) -> bool:
        """Decide edges; False when they were all decided already. Raises Broken when an
        edge was decided the other way."""
        new = {e: v for e, v in changes.items() if self.edges[e] != v}
        if not new:
            return False
        self.version += 1
        for e, v in new.items():
            if self.edges[e] != UNDECIDED:
                raise Broken(f"{self.geo.edge_name(e)} would be both a wall and open", [])
            self.edges[e] = v
        if self.record:
            self.steps.append(self._step(new, technique, sentence, reasons, focus or []))
        return True

    def _step(
        self,
        new: dict[int, str],
        technique: str,
        sentence: str,
        reasons: list[Cell],
        focus: list[int],
    ) -> Step:
        geo = self.geo
        cells = sorted({cell for e in new for cell in geo.cells(e)})
        return Step(
            technique=technique,
            level=LEVELS[technique],
            changes=(),
            sentence=sentence,
            reasons=tuple(dict.fromkeys([*reasons, *cells])),
            extra={
                "edges": [[e, v] for e, v in sorted(new.items())],
                "edge_names": [geo.edge_name(e) for e in sorted(new)],
                "focus_edges": sorted(set(focus)),
            },
        )


def describe(geo: EdgeGeometry, edges: list[int], value: str) -> str:
    """'edge r1c1|r1c2 is a wall', 'edges ... are open' (six named at most)."""
    what = "a wall" if value == WALL else "open"
    names = ", ".join(geo.edge_name(e) for e in edges[:6])
    more = f" and {len(edges) - 6} more" if len(edges) > 6 else ""
    if len(edges) == 1:
        return f"edge {names} is {what}"
    return f"edges {names}{more} are {'walls' if value == WALL else 'open'}"


def number(puzzle: DoubleChoco, cell: Cell) -> int | None:
    """The size a cell's clue gives, None without one (or with `?`)."""
    return puzzle.sizes[cell[0] * puzzle.width + cell[1]]


def component(
    state: State, start: Cell, *, same_colour: bool, through: tuple[str, ...]
) -> list[Cell]:
    """The cells joined to `start` by edges whose value is in `through` (sorted)."""
    puzzle, edges = state.puzzle, state.edges
    width, gray, table = puzzle.width, puzzle.gray, state.geo.table
    colour = gray[start[0] * width + start[1]]
    seen = {start}
    todo = [start]
    while todo:  # the hottest loop of the logic: flat lookups, no method calls
        r, c = todo.pop()
        for nxt, e in table[r * width + c]:
            if nxt in seen or edges[e] not in through:
                continue
            if same_colour and gray[nxt[0] * width + nxt[1]] != colour:
                continue
            seen.add(nxt)
            todo.append(nxt)
    return sorted(seen)


def components(state: State, *, same_colour: bool, through: tuple[str, ...]) -> list[list[Cell]]:
    """The grid cut into `component`s (the lists are shared: read them, do not change them)."""
    key = (same_colour, through)
    cached = state.grouped.get(key)
    if cached is not None and cached[0] == state.version:
        return cached[1]
    found = _components(state, same_colour=same_colour, through=through)
    state.grouped[key] = (state.version, found)
    return found


def _components(state: State, *, same_colour: bool, through: tuple[str, ...]) -> list[list[Cell]]:
    seen: set[Cell] = set()
    out = []
    for r in range(state.puzzle.height):
        for c in range(state.puzzle.width):
            if (r, c) not in seen:
                comp = component(state, (r, c), same_colour=same_colour, through=through)
                seen.update(comp)
                out.append(comp)
    return out


AREA = (OPEN,)
"""`through` for what is joined already (an area, a block so far)."""
REACH = (OPEN, UNDECIDED)
"""`through` for what can still be joined (where an area or block can reach)."""
