"""Candidate state of an N x N Sudoku (N = n*n) for the human-style solver.

Cells are numbered 0..N*N-1 row-major; digits are 1..N; the candidates of a cell are a bitmask
with bit d-1 set when digit d is still possible. Units are numbered: rows 0..N-1, columns
N..2N-1, boxes 2N..3N-1. The geometry (units, peers) is computed once per size and cached.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from pencilbox.core.step import Step


@dataclass(frozen=True, slots=True)
class Geometry:
    n: int
    size: int
    ncells: int
    row: tuple[int, ...]
    col: tuple[int, ...]
    box: tuple[int, ...]
    units: tuple[tuple[int, ...], ...]
    unit_sets: tuple[frozenset[int], ...]
    cell_units: tuple[tuple[int, int, int], ...]
    peers: tuple[tuple[int, ...], ...]
    peer_sets: tuple[frozenset[int], ...]
    all_mask: int


@lru_cache(maxsize=8)
def geometry(n: int) -> Geometry:
    """The cached geometry of the board with n x n boxes (N = n*n)."""
    if n < 1:
        raise ValueError(f"box size must be positive, got {n}")
    size = n * n
    ncells = size * size
    row = tuple(i // size for i in range(ncells))
    col = tuple(i % size for i in range(ncells))
    box = tuple((r // n) * n + c // n for r, c in zip(row, col))
    units: list[tuple[int, ...]] = []
    units += [tuple(r * size + c for c in range(size)) for r in range(size)]
    units += [tuple(r * size + c for r in range(size)) for c in range(size)]
    units += [tuple(i for i in range(ncells) if box[i] == b) for b in range(size)]
    cell_units = tuple((row[i], size + col[i], 2 * size + box[i]) for i in range(ncells))
    peer_sets = []
    for i in range(ncells):
        ps: set[int] = set()
        for u in cell_units[i]:
            ps.update(units[u])
        ps.discard(i)
        peer_sets.append(frozenset(ps))
    return Geometry(
        n=n,
        size=size,
        ncells=ncells,
        row=row,
        col=col,
        box=box,
        units=tuple(units),
        unit_sets=tuple(frozenset(u) for u in units),
        cell_units=cell_units,
        peers=tuple(tuple(sorted(p)) for p in peer_sets),
        peer_sets=tuple(peer_sets),
        all_mask=(1 << size) - 1,
    )


@lru_cache(maxsize=8)
def box_lines(n: int) -> tuple[tuple[int, int], ...]:
    """Every (box, line) pair of units that cross: boxes in order, each with its rows then
    its columns in unit order."""
    geo = geometry(n)
    size = geo.size
    return tuple(
        (b, line)
        for b in range(2 * size, 3 * size)
        for line in range(2 * size)
        if geo.unit_sets[b] & geo.unit_sets[line]
    )


@lru_cache(maxsize=8)
def peer_masks(n: int) -> tuple[int, ...]:
    """For each cell, the cell mask of its peers."""
    return tuple(sum(1 << p for p in peers) for peers in geometry(n).peers)


def bit(d: int) -> int:
    return 1 << (d - 1)


_SMALL_BITS = 1 << 16
_SMALL: dict[int, tuple[int, ...]] = {}
"""The bit positions of the 16-bit masks seen so far: a candidate mask is one lookup."""


def set_bits(mask: int) -> list[int]:
    """The positions of the bits set in `mask` (cells of a cell mask), ascending."""
    if mask < _SMALL_BITS:
        known = _SMALL.get(mask)
        if known is None:
            known = _SMALL[mask] = tuple(_positions(mask))
        return list(known)
    return _positions(mask)


def _positions(mask: int) -> list[int]:
    out = []
    if mask.bit_count() > 8:
        # many bits of a long mask (nodes of a big board): scan its binary text, one string
        # search per bit instead of four big-integer operations
        text = bin(mask)[:1:-1]
        at = text.find("1")
        while at >= 0:
            out.append(at)
            at = text.find("1", at + 1)
        return out
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


_DIGITS: dict[int, tuple[int, ...]] = {}


def digits_of(mask: int) -> list[int]:
    """The digits in a candidate mask, ascending."""
    known = _DIGITS.get(mask)
    if known is None:
        known = tuple(position + 1 for position in set_bits(mask))
        if mask < _SMALL_BITS:
            _DIGITS[mask] = known
    return list(known)


def cell_name(i: int, size: int) -> str:
    return f"r{i // size + 1}c{i % size + 1}"


def cells_text(cells: Iterable[int], size: int) -> str:
    return ", ".join(cell_name(i, size) for i in sorted(cells))


def unit_kind(u: int, size: int) -> str:
    return ("row", "column", "box")[u // size]


def unit_name(u: int, size: int) -> str:
    return f"{unit_kind(u, size)} {u % size + 1}"


class State:
    """Placed values and candidate masks; cheap to copy."""

    __slots__ = ("cache", "cands", "geo", "givens", "values")

    def __init__(
        self, geo: Geometry, values: list[int], cands: list[int], givens: tuple[int, ...]
    ) -> None:
        self.geo = geo
        self.values = values
        self.cands = cands
        self.givens = givens
        self.cache: dict[str, object] = {}
        """Derived data of the current candidates (cleared by every change)."""

    @classmethod
    def from_givens(cls, n: int, givens: Sequence[int]) -> State:
        """Candidates from the givens alone (every digit not seen by a peer)."""
        return cls.from_pm(n, givens, ())

    @classmethod
    def from_pm(
        cls,
        n: int,
        values: Sequence[int],
        deleted: Iterable[tuple[int, int]],
        givens: Sequence[int] | None = None,
    ) -> State:
        """A pencil-mark state: placed values, then candidates (cell, digit) deleted."""
        geo = geometry(n)
        if len(values) != geo.ncells:
            raise ValueError(f"expected {geo.ncells} cells, got {len(values)}")
        vals = [int(v) for v in values]
        for v in vals:
            if not 0 <= v <= geo.size:
                raise ValueError(f"digit {v} out of range 0..{geo.size}")
        cands = [0] * geo.ncells
        for i in range(geo.ncells):
            if vals[i] == 0:
                m = geo.all_mask
                for p in geo.peers[i]:
                    if vals[p]:
                        m &= ~(1 << (vals[p] - 1))
                cands[i] = m
        for i, d in deleted:
            cands[i] &= ~(1 << (d - 1))
        g = tuple(vals) if givens is None else tuple(givens)
        return cls(geo, vals, cands, g)

    def copy(self) -> State:
        return State(self.geo, self.values[:], self.cands[:], self.givens)

    # -- queries --------------------------------------------------------------------------
    @property
    def size(self) -> int:
        return self.geo.size

    def is_solved(self) -> bool:
        return all(self.values)

    def has(self, i: int, d: int) -> bool:
        return bool(self.cands[i] >> (d - 1) & 1)

    def cells_with(self, u: int, d: int) -> list[int]:
        """Cells of unit u that still hold candidate d."""
        b = 1 << (d - 1)
        c = self.cands
        return [i for i in self.geo.units[u] if c[i] & b]

    def digit_cells(self, d: int) -> list[int]:
        b = 1 << (d - 1)
        return [i for i, m in enumerate(self.cands) if m & b]

    def is_consistent(self) -> bool:
        """No empty cell without candidates and no unit that lost a digit entirely."""
        geo = self.geo
        for i in range(geo.ncells):
            if not self.values[i] and not self.cands[i]:
                return False
        for unit in geo.units:
            have = 0
            seen = 0
            for i in unit:
                v = self.values[i]
                if v:
                    b = 1 << (v - 1)
                    if seen & b:
                        return False
                    seen |= b
                    have |= b
                else:
                    have |= self.cands[i]
            if have != geo.all_mask:
                return False
        return True

    # -- changes --------------------------------------------------------------------------
    def place(self, i: int, d: int) -> None:
        if self.cache:
            self.cache.clear()
        self.values[i] = d
        self.cands[i] = 0
        mask = ~(1 << (d - 1))
        c = self.cands
        for p in self.geo.peers[i]:
            c[p] &= mask

    def eliminate(self, i: int, d: int) -> None:
        if self.cache:
            self.cache.clear()
        self.cands[i] &= ~(1 << (d - 1))

    def apply(self, step: Step) -> None:
        """Apply a Step's placements (changes) and eliminations (extra["eliminations"])."""
        size = self.geo.size
        for (r, c), d in step.changes:
            self.place(r * size + c, d)
        for r, c, d in step.extra.get("eliminations", ()):
            self.eliminate(r * size + c, d)

    def unsolved(self) -> Iterator[int]:
        for i, v in enumerate(self.values):
            if not v:
                yield i
