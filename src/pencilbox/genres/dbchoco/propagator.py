"""The lazy rules as a CaDiCaL external propagator (IPASIR-UP through python-sat).

The plain loop of search.py stops CaDiCaL at every model, explains what is wrong and starts
it again. Here CaDiCaL runs once: `check_model` explains a wrong model in place (the same
`_explain` clauses) and, more important, `propagate` looks at *partial* assignments: the
blocks already closed by walls, areas already larger than their number, two numbers or a
wall already inside one open block. When it finds one, the clauses of `_explain` that the
current assignment falsifies are handed to CaDiCaL as conflicts, so it backjumps and learns
long before the walls are complete.

Python pays for every callback, so `propagate` does almost nothing most of the time: a
cheap detector (open components by union-find, then closed/number/wall checks) runs only
when `every` new edges were assigned since the last look, and the expensive explanation
only when the detector found something. Closed blocks that passed once are cached.

Measured slower than the plain loop on every shared puzzle (3-7x; table in search.py), so it
is an option (`answers(..., propagator=True)`), not the default.
"""

from __future__ import annotations

from typing import Any

from pysat.engines import Propagator

from pencilbox.core.sat import SatSolver, interrupt_requested
from pencilbox.core.timing import Deadline
from pencilbox.genres.dbchoco.model import QUESTION, DoubleChoco, EdgeGeometry
from pencilbox.genres.dbchoco.shapes import canonical

Clause = list[int]


class Stop(Exception):
    """Raised after the solve when the propagator stopped it (deadline or budget)."""


class BlockPropagator(Propagator):  # type: ignore[misc]  # pysat is untyped
    def __init__(
        self,
        puzzle: DoubleChoco,
        enc: Any,
        limit: int,
        *,
        every: int = 10,
        deadline: Deadline | None = None,
        max_models: int | None = None,
    ) -> None:
        super().__init__()
        self.is_lazy = False
        self.puzzle, self.enc, self.limit, self.every = puzzle, enc, limit, every
        self.deadline, self.max_models = deadline, max_models
        self.geo = EdgeGeometry(puzzle.width, puzzle.height)
        self.wall_vars: list[int] = list(enc.wall)
        self.edge_of = {v: e for e, v in enumerate(self.wall_vars)}
        self.ends = [self._index(*self.geo.cells(e)) for e in range(self.geo.count)]
        cells = [(r, c) for r in range(puzzle.height) for c in range(puzzle.width)]
        self.gray = [puzzle.is_gray(*cell) for cell in cells]
        self.number = [self._known(puzzle.number(*cell)) for cell in cells]
        self.value = [0] * self.geo.count  # 1 wall, -1 open, 0 not assigned
        self.trail: list[int] = []
        self.limits: list[int] = []
        self.checked = 0
        self.queue: list[Clause] = []
        self.found: list[list[bool]] = []
        self.good_blocks: set[frozenset[int]] = set()
        self.stopped: str | None = None
        self.counts = {"models": 0, "looks": 0, "explains": 0, "partial_clauses": 0}

    def _index(self, a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
        width = self.puzzle.width
        return a[0] * width + a[1], b[0] * width + b[1]

    @staticmethod
    def _known(value: int | None) -> int | None:
        return None if value is None or value == QUESTION else value

    # -- the trail ------------------------------------------------------------------------------
    def on_assignment(self, lit: int, fixed: bool = False) -> None:
        e = self.edge_of[abs(lit)]
        self.value[e] = 1 if lit > 0 else -1
        self.trail.append(e)

    def on_new_level(self) -> None:
        self.limits.append(len(self.trail))

    def on_backtrack(self, to: int) -> None:
        if to >= len(self.limits):
            return
        keep = self.limits[to]
        for e in self.trail[keep:]:
            self.value[e] = 0
        del self.trail[keep:]
        del self.limits[to:]
        self.checked = min(self.checked, keep)

    def decide(self) -> int:
        return 0

    def provide_reason(self, lit: int) -> list[int]:
        return []

    def has_clause(self) -> bool:
        return bool(self.queue)

    def add_clause(self) -> Clause:
        return self.queue.pop()

    # -- partial assignments --------------------------------------------------------------------
    def propagate(self) -> list[int]:
        if self.queue or len(self.trail) - self.checked < self.every:
            return []
        self.checked = len(self.trail)
        if self._out_of_time():
            return []
        self.counts["looks"] += 1
        focus = self._suspect()
        if focus:
            self.counts["explains"] += 1
            self._queue_falsified(focus)
        return []

    def _suspect(self) -> set[tuple[int, int]]:
        """The cells of the open blocks that already break a rule (cheap; no clause built)."""
        value, ends = self.value, self.ends
        size = len(self.gray)
        block = list(range(size))
        area = list(range(size))

        def find(parent: list[int], x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for e, (a, b) in enumerate(ends):
            if value[e] == -1:
                block[find(block, a)] = find(block, b)
                if self.gray[a] == self.gray[b]:
                    area[find(area, a)] = find(area, b)
        bad: set[int] = set()
        for e, (a, b) in enumerate(ends):
            if value[e] == 1 and find(block, a) == find(block, b):
                bad.add(find(block, a))  # a wall inside one block
        members: dict[int, list[int]] = {}
        for x in range(size):
            members.setdefault(find(block, x), []).append(x)
        area_size: dict[int, int] = {}
        for x in range(size):
            root = find(area, x)
            area_size[root] = area_size.get(root, 0) + 1
        open_boundary = self._open_boundary(block, find)
        width = self.puzzle.width
        out: set[tuple[int, int]] = set()
        for root, cells in members.items():
            if root in bad or self._block_breaks(
                cells, area, area_size, find, root in open_boundary
            ):
                out.update((x // width, x % width) for x in cells)
        return out

    def _open_boundary(self, block: list[int], find: Any) -> set[int]:
        """Roots of blocks with a boundary edge not yet a wall (so not closed)."""
        out: set[int] = set()
        for e, (a, b) in enumerate(self.ends):
            if self.value[e] != 1:
                ra, rb = find(block, a), find(block, b)
                if ra != rb:
                    out.add(ra)
                    out.add(rb)
        return out

    def _block_breaks(
        self,
        cells: list[int],
        area: list[int],
        area_size: dict[int, int],
        find: Any,
        not_closed: bool,
    ) -> bool:
        numbers = {self.number[x] for x in cells} - {None}
        if len(numbers) > 1:
            return True
        for x in cells:
            n = self.number[x]
            if n is not None and area_size[find(area, x)] > n:
                return True
        if not_closed:
            return False
        key = frozenset(cells)
        if key in self.good_blocks:
            return False
        whites = [x for x in cells if not self.gray[x]]
        grays = [x for x in cells if self.gray[x]]
        if len(whites) != len(grays) or len({find(area, x) for x in cells}) != 2:
            return True
        if numbers and len(whites) not in numbers:
            return True
        width = self.puzzle.width
        if canonical((x // width, x % width) for x in whites) != canonical(
            (x // width, x % width) for x in grays
        ):
            return True
        self.good_blocks.add(key)
        return False

    def _queue_falsified(self, focus: set[tuple[int, int]]) -> None:
        """The `_explain` clauses of the open parts (undecided edges read as walls) that the
        current assignment falsifies: each is a conflict CaDiCaL learns from."""
        from pencilbox.genres.dbchoco.search import _explain

        walls = [v != -1 for v in self.value]
        value, edge_of = self.value, self.edge_of
        for clause in _explain(self.puzzle, self.enc, walls, focus):
            if all(value[edge_of[abs(lit)]] == (-1 if lit > 0 else 1) for lit in clause):
                self.queue.append(clause)
                self.counts["partial_clauses"] += 1

    # -- complete assignments -------------------------------------------------------------------
    def check_model(self, model: list[int]) -> bool:
        from pencilbox.genres.dbchoco.search import _explain

        if self._out_of_time():
            return False
        self.counts["models"] += 1
        if self.max_models is not None and self.counts["models"] > self.max_models:
            self._stop("budget")
            return False
        walls = [model[v - 1] > 0 for v in self.wall_vars]
        extra = _explain(self.puzzle, self.enc, walls)
        if extra:
            self.queue.extend(extra)
            return False
        self.found.append(walls)
        if len(self.found) >= self.limit:
            return True
        # an answer, but more are wanted: forbid it and let the same search go on
        self.queue.append([-v if w else v for v, w in zip(self.wall_vars, walls)])
        return False

    def _out_of_time(self) -> bool:
        if self.stopped is None and self.deadline is not None and self.deadline.expired():
            self._stop("time")
        if self.stopped is None and interrupt_requested():  # Ctrl-C: SatSolver raises it
            self._stop("interrupted")
        return self.stopped is not None

    def _stop(self, why: str) -> None:
        """The empty clause ends the search at once (reported as Stop, never as UNSAT)."""
        self.stopped = why
        self.queue = [[]]


def run(solver: SatSolver, engine: BlockPropagator) -> None:
    """One CaDiCaL call with `engine` attached; the deadline is the engine's."""
    solver.solve_with_propagator(engine, engine.wall_vars)
