"""The Double Choco puzzle value and its answer value.

A puzzle is a W x H grid of white and gray cells, some holding a number (or `?`). An answer is
a set of walls on the inner edges, kept as the two string lists of the shared data:
`vertical` (H strings of W-1 chars, wall between (r, c) and (r, c+1)) and `horizontal`
(H-1 strings of W chars, wall between (r, c) and (r+1, c)); `1` is a wall, `0` no wall and
`?` an edge not decided yet (partial answers, hints).

Inner edges are also numbered: first the vertical ones row-major (r * (W-1) + c), then the
horizontal ones (V + r * W + c); the solver and the logic steps use these indices.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pencilbox.core.grid import Cell, cell_name
from pencilbox.errors import InvalidPuzzle, LimitExceeded, quote

if TYPE_CHECKING:
    from pencilbox.core.step import Step
    from pencilbox.genres.base import SolveResult
    from pencilbox.genres.dbchoco.check import Violation

QUESTION = -2
"""The value of a `?` clue."""
DEFAULT_MAX_SIZE = 200
WALL, OPEN, UNDECIDED = "1", "0", "?"

Edge = int


@dataclass(frozen=True)
class EdgeGeometry:
    """Numbering of the inner edges of a W x H grid."""

    width: int
    height: int

    @property
    def vertical_count(self) -> int:
        return (self.width - 1) * self.height

    @property
    def count(self) -> int:
        return self.vertical_count + self.width * (self.height - 1)

    def right(self, r: int, c: int) -> Edge:
        """The edge between (r, c) and (r, c+1)."""
        return r * (self.width - 1) + c

    def down(self, r: int, c: int) -> Edge:
        """The edge between (r, c) and (r+1, c)."""
        return self.vertical_count + r * self.width + c

    def between(self, a: Cell, b: Cell) -> Edge:
        (r1, c1), (r2, c2) = sorted((a, b))
        if r1 == r2 and c2 == c1 + 1:
            return self.right(r1, c1)
        if c1 == c2 and r2 == r1 + 1:
            return self.down(r1, c1)
        raise ValueError(f"cells {a} and {b} are not neighbours")

    def cells(self, edge: Edge) -> tuple[Cell, Cell]:
        if edge < self.vertical_count:
            r, c = divmod(edge, self.width - 1)
            return (r, c), (r, c + 1)
        r, c = divmod(edge - self.vertical_count, self.width)
        return (r, c), (r + 1, c)

    def neighbours(self, r: int, c: int) -> list[tuple[Cell, Edge]]:
        out: list[tuple[Cell, Edge]] = []
        if c + 1 < self.width:
            out.append(((r, c + 1), self.right(r, c)))
        if c > 0:
            out.append(((r, c - 1), self.right(r, c - 1)))
        if r + 1 < self.height:
            out.append(((r + 1, c), self.down(r, c)))
        if r > 0:
            out.append(((r - 1, c), self.down(r - 1, c)))
        return out

    def vertex_edges(self, r: int, c: int) -> tuple[Edge, Edge, Edge, Edge]:
        """The four edges at the inner vertex below-right of cell (r, c), 0 <= r < H-1,
        0 <= c < W-1: up, down, left, right."""
        return (
            self.right(r, c),
            self.right(r + 1, c),
            self.down(r, c),
            self.down(r, c + 1),
        )

    def edge_name(self, edge: Edge) -> str:
        (r1, c1), (r2, c2) = self.cells(edge)
        return f"r{r1 + 1}c{c1 + 1}|r{r2 + 1}c{c2 + 1}"


@dataclass(frozen=True)
class Walls:
    """An answer (complete or partial): the state of every inner edge."""

    width: int
    height: int
    edges: tuple[str, ...]
    """One of WALL, OPEN, UNDECIDED per inner edge, in EdgeGeometry order."""

    @property
    def geometry(self) -> EdgeGeometry:
        return EdgeGeometry(self.width, self.height)

    @classmethod
    def undecided(cls, width: int, height: int) -> Walls:
        return cls(width, height, (UNDECIDED,) * EdgeGeometry(width, height).count)

    @classmethod
    def from_strings(
        cls, width: int, height: int, vertical: list[str], horizontal: list[str]
    ) -> Walls:
        """From the shared data's strings; raises InvalidPuzzle naming the bad line."""
        if len(vertical) != height:
            raise InvalidPuzzle(
                f"'vertical' needs {height} strings, got {len(vertical)}", where="answer"
            )
        if len(horizontal) != max(height - 1, 0):
            raise InvalidPuzzle(
                f"'horizontal' needs {height - 1} strings, got {len(horizontal)}", where="answer"
            )
        edges: list[str] = []
        for kind, lines, length in (
            ("vertical", vertical, width - 1),
            ("horizontal", horizontal, width),
        ):
            for r, line in enumerate(lines):
                if not isinstance(line, str) or len(line) != length:
                    shown = quote(line) if isinstance(line, str) else type(line).__name__
                    raise InvalidPuzzle(
                        f"{kind} line {r + 1} must be {length} characters of 0/1/?, got {shown}",
                        where="answer",
                    )
                for c, ch in enumerate(line):
                    if ch not in (WALL, OPEN, UNDECIDED):
                        raise InvalidPuzzle(
                            f"{kind} line {r + 1}, character {c + 1} is {ch!r}; "
                            "use 1 (wall), 0 (no wall) or ? (undecided)",
                            where="answer",
                        )
                edges.extend(line)
        return cls(width, height, tuple(edges))

    @classmethod
    def from_bools(cls, width: int, height: int, walls: list[bool]) -> Walls:
        return cls(width, height, tuple(WALL if w else OPEN for w in walls))

    @classmethod
    def from_blocks(cls, blocks: list[list[int]]) -> Walls:
        """The walls of a partition given as a block-id grid."""
        height, width = len(blocks), len(blocks[0])
        geo = EdgeGeometry(width, height)
        edges = [OPEN] * geo.count
        for e in range(geo.count):
            (r1, c1), (r2, c2) = geo.cells(e)
            if blocks[r1][c1] != blocks[r2][c2]:
                edges[e] = WALL
        return cls(width, height, tuple(edges))

    def vertical(self) -> list[str]:
        w1 = self.width - 1
        return ["".join(self.edges[r * w1 : (r + 1) * w1]) for r in range(self.height)]

    def horizontal(self) -> list[str]:
        v = self.geometry.vertical_count
        return [
            "".join(self.edges[v + r * self.width : v + (r + 1) * self.width])
            for r in range(self.height - 1)
        ]

    def to_json(self) -> dict[str, list[str]]:
        return {"vertical": self.vertical(), "horizontal": self.horizontal()}

    def is_wall(self, edge: Edge) -> bool:
        return self.edges[edge] == WALL

    def complete(self) -> bool:
        return UNDECIDED not in self.edges

    def undecided_edges(self) -> list[Edge]:
        return [e for e, v in enumerate(self.edges) if v == UNDECIDED]

    def different_edges(self, other: Walls) -> list[Edge]:
        return [e for e, (a, b) in enumerate(zip(self.edges, other.edges)) if a != b]

    def differences(self, other: Walls) -> list[Cell]:
        """Cells beside an edge where the two answers differ (row-major, no repeats)."""
        geo = self.geometry
        cells = {cell for e in self.different_edges(other) for cell in geo.cells(e)}
        return sorted(cells)

    def blocks(self) -> list[list[Cell]]:
        """Blocks by flood fill over edges that are not walls (undecided counts as open)."""
        geo = self.geometry
        seen = [[False] * self.width for _ in range(self.height)]
        out: list[list[Cell]] = []
        for r0 in range(self.height):
            for c0 in range(self.width):
                if seen[r0][c0]:
                    continue
                seen[r0][c0] = True
                block = [(r0, c0)]
                stack = [(r0, c0)]
                while stack:
                    r, c = stack.pop()
                    for (nr, nc), e in geo.neighbours(r, c):
                        if not seen[nr][nc] and self.edges[e] != WALL:
                            seen[nr][nc] = True
                            block.append((nr, nc))
                            stack.append((nr, nc))
                out.append(sorted(block))
        return out

    def block_ids(self) -> list[list[int]]:
        ids = [[0] * self.width for _ in range(self.height)]
        for i, block in enumerate(self.blocks()):
            for r, c in block:
                ids[r][c] = i
        return ids


@dataclass(frozen=True)
class DoubleChoco:
    width: int
    height: int
    gray: tuple[bool, ...]
    """Row-major: True for a gray cell."""
    numbers: tuple[int | None, ...]
    """Row-major: None, a size, or QUESTION."""
    title: str | None = field(default=None, compare=False)
    answer: Walls | None = field(default=None, compare=False)
    """An answer shipped with the puzzle (pzprv3 with walls, the shared JSON)."""
    meta: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    genre = "dbchoco"

    def is_gray(self, r: int, c: int) -> bool:
        return self.gray[r * self.width + c]

    def number(self, r: int, c: int) -> int | None:
        return self.numbers[r * self.width + c]

    @property
    def geometry(self) -> EdgeGeometry:
        return EdgeGeometry(self.width, self.height)

    def colour_rows(self) -> list[str]:
        return [
            "".join("g" if self.is_gray(r, c) else "w" for c in range(self.width))
            for r in range(self.height)
        ]

    def number_rows(self) -> list[list[int | str | None]]:
        return [
            [_number_json(self.number(r, c)) for c in range(self.width)] for r in range(self.height)
        ]

    def with_numbers(self, numbers: tuple[int | None, ...]) -> DoubleChoco:
        return DoubleChoco(self.width, self.height, self.gray, numbers, title=self.title)

    # -- the genre interface; the work lives in sibling modules -------------------------------
    def solve(self, limit: int = 2, time_limit: float | None = None) -> SolveResult:
        from pencilbox.genres.dbchoco.solve import solve

        return solve(self, limit=limit, time_limit=time_limit)

    def steps(self, time_limit: float | None = None) -> list[Step]:
        from pencilbox.genres.dbchoco.solve import trace

        return trace(self, time_limit=time_limit)

    def grade(self) -> str:
        from pencilbox.genres.dbchoco.solve import grade

        return grade(self)

    def grade_report(self) -> dict[str, Any]:
        """The grade in the shape every genre reports it (the hardest step kind, or search)."""
        from pencilbox.genres.base import step_kind_report

        return step_kind_report(self.grade())

    def hint(self, level: int = 1) -> str | None:
        """The first step from the empty grid: 1 its technique, 2 where, 3 the sentence."""
        from pencilbox.genres.dbchoco.logic import first_step

        step = first_step(self)
        if step is None:
            return None
        if level == 1:
            return f"Use {step.technique.replace('_', ' ')} logic."
        if level == 2:
            names = [cell_name(cell) for cell in step.reasons[:6]]
            more = " and nearby" if len(step.reasons) > 6 else ""
            return f"Look at {', '.join(names)}{more}."
        return step.sentence

    def to(self, format: str) -> str:
        from pencilbox.genres.dbchoco.formats import write

        return write(self, format)

    def check(self, answer: Walls) -> list[Violation]:
        from pencilbox.genres.dbchoco.check import violations

        return violations(self, answer)

    def logic_grid(self, max_passes: int | None = None, probes: bool = False) -> Walls:
        """The edges that logic decides (the CLI's `--single-pass` and `render --state logic`)."""
        from pencilbox.genres.dbchoco.logic import PROBE_SECONDS, deduce

        return deduce(self, probes=probes, probe_seconds=PROBE_SECONDS).walls()

    def render(self, state: Walls | None = None, fmt: str = "text") -> str:
        from pencilbox.genres.dbchoco import render

        if fmt == "svg":
            return render.svg(self, state)
        return render.text(self, state)

    def render_png(self, state: Walls | None = None, scale: int = 2) -> bytes:
        from pencilbox.genres.dbchoco import render

        return render.png(self, state, scale=scale)

    def solution_json(self, solution: Walls) -> dict[str, list[str]]:
        return solution.to_json()

    def __repr__(self) -> str:
        clues = sum(n is not None for n in self.numbers)
        return f"<DoubleChoco {self.width}x{self.height} {clues} clues>"


def _number_json(value: int | None) -> int | str | None:
    return "?" if value == QUESTION else value


def make_puzzle(
    gray: list[list[bool]],
    numbers: list[list[int | None]],
    *,
    title: str | None = None,
    answer: Walls | None = None,
    meta: dict[str, Any] | None = None,
    max_size: int | None = DEFAULT_MAX_SIZE,
) -> DoubleChoco:
    """Build a puzzle from row lists and validate it; raises InvalidPuzzle naming the cell."""
    height = len(gray)
    width = len(gray[0]) if gray else 0
    if height == 0 or width == 0:
        raise InvalidPuzzle(f"the puzzle is empty: {height} rows and {width} columns")
    for r, row in enumerate(gray):
        if len(row) != width:
            raise InvalidPuzzle(f"has {len(row)} cells, row 1 has {width}", where=f"row {r + 1}")
    if len(numbers) != height or any(len(row) != width for row in numbers):
        raise InvalidPuzzle(f"the numbers do not form a {width}x{height} grid")
    if max_size is not None and (width > max_size or height > max_size):
        raise LimitExceeded(
            f"the puzzle is {width}x{height}, above the size limit of {max_size}x{max_size} "
            "(raise it with --max-size)"
        )
    puzzle = DoubleChoco(
        width,
        height,
        tuple(bool(v) for row in gray for v in row),
        tuple(v for row in numbers for v in row),
        title=title,
        answer=answer,
        meta=dict(meta or {}),
    )
    validate(puzzle)
    return puzzle


def validate(puzzle: DoubleChoco) -> None:
    half = puzzle.width * puzzle.height // 2
    for i, value in enumerate(puzzle.numbers):
        if value is None or value == QUESTION:
            continue
        r, c = divmod(i, puzzle.width)
        where = f"r{r + 1}c{c + 1}"
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise InvalidPuzzle(f"the number {value!r} is not a positive whole number", where=where)
        if value > half:
            raise InvalidPuzzle(
                f"the number {value} is larger than half the grid ({half} cells)", where=where
            )
    if puzzle.answer is not None and (
        puzzle.answer.width != puzzle.width or puzzle.answer.height != puzzle.height
    ):
        raise InvalidPuzzle("the answer does not have the size of the puzzle", where="answer")
