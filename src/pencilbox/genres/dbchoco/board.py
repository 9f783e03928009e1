"""The values a Double Choco board is made of, below the puzzle: the clue `?`, the states of
an inner edge (wall, open, undecided), the numbering of the inner edges (`EdgeGeometry`) and
an answer (`Walls`). The engines (check, logic, search, render...) work on these; they know
the puzzle class (`model.DoubleChoco`) only as a type.

An answer is a set of walls on the inner edges, kept as the two string lists of the shared
data: `vertical` (H strings of W-1 chars, wall between (r, c) and (r, c+1)) and `horizontal`
(H-1 strings of W chars, wall between (r, c) and (r+1, c)); `1` is a wall, `0` no wall and
`?` an edge not decided yet (partial answers, hints). Inner edges are also numbered: first the
vertical ones row-major (r * (W-1) + c), then the horizontal ones (V + r * W + c); the solver
and the logic steps use these indices.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from pencilbox.core.grid import Cell
from pencilbox.errors import InvalidPuzzle, quote

QUESTION = -2
"""The value of a `?` clue."""
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

    @property
    def table(self) -> tuple[Neighbours, ...]:
        """Row-major: every cell's neighbours with the edges to them."""
        return _neighbour_table(self.width, self.height)

    def neighbours(self, r: int, c: int) -> Neighbours:
        """The cells beside (r, c) with the edges to them (right, left, down, up)."""
        return _neighbour_table(self.width, self.height)[r * self.width + c]

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


Neighbours = tuple[tuple[Cell, Edge], ...]


@cache
def _neighbour_table(width: int, height: int) -> tuple[Neighbours, ...]:
    """Every cell's neighbours, made once per grid size: the logic asks for them millions of
    times in a trace."""
    geo = EdgeGeometry(width, height)
    table = []
    for r in range(height):
        for c in range(width):
            out: list[tuple[Cell, Edge]] = []
            if c + 1 < width:
                out.append(((r, c + 1), geo.right(r, c)))
            if c > 0:
                out.append(((r, c - 1), geo.right(r, c - 1)))
            if r + 1 < height:
                out.append(((r + 1, c), geo.down(r, c)))
            if r > 0:
                out.append(((r - 1, c), geo.down(r - 1, c)))
            table.append(tuple(out))
    return tuple(table)


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
