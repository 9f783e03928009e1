"""Complete Sudoku search in validation mode: up to `limit` solutions, for every box size.

Two engines live here; `solve_values` picks the faster per size.

* **Digit bitboards** (`BitboardSolver`). The state is one
  N*N-bit Python int per digit (the cells that can still hold it), the placed cells per digit
  and the mask of open cells. Placing a digit is one AND with a precomputed peer mask, so a
  whole board's worth of constraint work is a handful of big-int operations instead of a loop
  over 20 peers per placement. Naked singles are found for all cells at once by bit-sliced
  counting (`twice |= once & b; once |= b` over the N boards: cells in `once & ~twice` have
  one candidate, open cells outside `once` have none). Hidden singles test each unit of each
  digit (`x & (x - 1) == 0`). Branching takes the first bivalue cell (`twice & ~thrice`, again
  bit-sliced), else the fewest-candidates cell; a branch copies N ints. The search continues
  after the first solution to prove uniqueness (validation mode).
* **SAT baseline** (`SatBaseline`): one python-sat CaDiCaL instance per size holding the rules
  (each cell one digit, each unit each digit once), givens passed as assumptions; a second
  call with the first solution blocked (under a selector variable that is retired afterwards)
  proves uniqueness. It stays warm across a batch.

Which engine runs (`solve_values(kind="auto")`), per size, and why (measured in one process
with the uniqueness proof; `make bench-sudoku` rewrites bench/results/sudoku.md):

* 9x9: puzzles with 30 givens or more get bitboards for ONE node (the root propagation),
  then SAT; sparser puzzles go straight to SAT. The root node settles every puzzle that
  singles solve (all of Kaggle) at 3-5x the speed of the two SAT calls, but on the 17-clue
  set it settles only 43% and loses overall, and it settles no puzzle of the hard sets;
  anything that needs a guess goes to SAT, which learns from its conflicts and is 3-10x
  faster than bitboard branching there. (`BITBOARD_MIN_GIVENS` has the measured table.)
* 16x16: SAT straight away (bitboards needed ~12,000 nodes, 2.5 s a puzzle, on
  sudoku16_20.txt; SAT ~50 ms).
* 25x25: bitboards within 400 nodes, then SAT (sudoku25_5.txt: 3 ms against 27 ms plus a
  3 s build of the 25x25 SAT instance).
* 4x4: bitboards.

Puzzles/s from `bench/sudoku.py` (best of two interleaved rounds; 2 CPUs shared with other
sessions, load average 6-7 during the run, so an idle machine gives about 2x these and runs
vary; the last three columns are the PyPI peers, in their own venv, each given 15 s a set):

====================  =====  =========  =====  ======  =========  ==========  =========
set                   auto   bitboards  SAT    Norvig  dlxsudoku  pencilmark  py-sudoku
====================  =====  =========  =====  ======  =========  ==========  =========
17clue_2000.txt       1,455  701        1,661  167     33         55          0.2
magictour_top1465     502    137        486    19      6.4        40          0.3
forum_hardest_1106    158    21         170    11      3.0        35          0.3
kaggle_1000.csv       4,682  4,787      906    254     504        63          172
====================  =====  =========  =====  ======  =========  ==========  =========

On a quieter moment of the same machine the raw SAT loop did 3,156 / 1,387 / 339 puzzles/s on
the first three sets, and the bitboards alone 4,793/s on Kaggle. The issue's targets (5,000 /
2,000 / 800) are NOT reached. Tried and measured, not kept: other python-sat back ends on 9x9
(minisat22 3,318 / 958 / 275, glucose4 3,460 / 851 / 149, maplechrono 2,118 / 271 / 104 against
cadical195 3,156 / 1,387 / 339), so CaDiCaL stays; bit-parallel hidden singles (SWAR over
10-bit row fields with guard bits, columns and boxes by shift-folding) were slower than the
plain per-unit loop (447 against 626 puzzles/s on 17-clue, same node counts); a bigger
bitboard budget before SAT (2 or 4 nodes) lost on every set; one fresh guard variable per
puzzle made pysat's get_model (which copies the whole model) slower with every puzzle of a
batch (Kaggle fell to 226/s at the end of a run), hence the guard pool in `SatBaseline`.
What would help next: locked candidates in the propagation (fewer nodes on hard sets), or a
compiled kernel.

Every solution returned is checked against the rules and the givens (`is_valid_solution`)
before it leaves this module.
"""

from __future__ import annotations

import atexit
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from operator import itemgetter
from typing import Any

from pencilbox.core.timing import Deadline, TimeLimitReached

Values = list[int]
"""A board as N*N ints, row-major: 0 = empty, 1..N = digit."""


# -- geometry ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Tables:
    """Precomputed unit and peer data for box size n (N = n*n digits, N*N cells)."""

    n: int
    size: int
    cells: int
    full: int
    units: tuple[tuple[int, ...], ...]
    """3N units (rows, columns, boxes) as tuples of cell indices."""
    unit_masks: tuple[int, ...]
    cell_units: tuple[tuple[int, int, int], ...]
    """Row, column and box unit index of each cell."""
    peers: tuple[tuple[int, ...], ...]
    closed_peer_masks: tuple[int, ...]
    """For each cell: the mask of its peers and itself."""
    not_closed_peer_masks: tuple[int, ...]
    unit_getters: tuple[Callable[[Sequence[int]], tuple[int, ...]], ...]
    """operator.itemgetter per unit: the unit's values as a tuple (fast checks)."""
    digit_set: frozenset[int]


@cache
def tables(n: int) -> Tables:
    size = n * n
    cells = size * size
    rows = [tuple(r * size + c for c in range(size)) for r in range(size)]
    cols = [tuple(r * size + c for r in range(size)) for c in range(size)]
    boxes = [
        tuple((br * n + r) * size + bc * n + c for r in range(n) for c in range(n))
        for br in range(n)
        for bc in range(n)
    ]
    units = tuple(rows + cols + boxes)
    masks = tuple(sum(1 << c for c in unit) for unit in units)
    cell_units = tuple(
        (c // size, size + c % size, 2 * size + (c // size // n) * n + (c % size) // n)
        for c in range(cells)
    )
    peers = []
    closed = []
    for c in range(cells):
        mask = 0
        for u in cell_units[c]:
            mask |= masks[u]
        closed.append(mask)
        peers.append(tuple(p for p in range(cells) if mask >> p & 1 and p != c))
    full = (1 << cells) - 1
    return Tables(
        n=n,
        size=size,
        cells=cells,
        full=full,
        units=units,
        unit_masks=masks,
        cell_units=cell_units,
        peers=tuple(peers),
        closed_peer_masks=tuple(closed),
        not_closed_peer_masks=tuple(full & ~m for m in closed),
        unit_getters=tuple(itemgetter(*unit) for unit in units),
        digit_set=frozenset(range(1, size + 1)),
    )


# -- checking ---------------------------------------------------------------------------------
def is_valid_solution(values: Sequence[int], n: int, givens: Sequence[int] | None = None) -> bool:
    """True when every unit holds 1..N once and the givens are kept."""
    t = tables(n)
    if len(values) != t.cells or not set(values) <= t.digit_set:
        return False
    size = t.size
    for getter in t.unit_getters:
        if len(set(getter(values))) != size:
            return False
    return givens is None or all(g == 0 or g == v for g, v in zip(givens, values))


def conflicts(values: Sequence[int], n: int) -> list[tuple[int, int, int, int]]:
    """Pairs of cells in one unit holding the same digit: (unit index, digit, cell a, cell b)."""
    found = []
    for index, unit in enumerate(tables(n).units):
        seen: dict[int, int] = {}
        for c in unit:
            v = values[c]
            if v:
                if v in seen:
                    found.append((index, v, seen[v], c))
                else:
                    seen[v] = c
    return found


# -- the original tool's helpers ----------------------------------------------------------------
def candidates(values: Sequence[int], n: int) -> list[int]:
    """Each cell's allowed digits as a bitmask (bit k = digit k+1); 0 for filled cells."""
    t = tables(n)
    all_digits = (1 << t.size) - 1
    result = []
    for c, v in enumerate(values):
        if v:
            result.append(0)
            continue
        used = 0
        for p in t.peers[c]:
            if values[p]:
                used |= 1 << (values[p] - 1)
        result.append(all_digits & ~used)
    return result


def naked_singles(values: Sequence[int], n: int) -> list[tuple[int, int]]:
    """(cell, digit) for every empty cell with exactly one candidate."""
    found = []
    for c, mask in enumerate(candidates(values, n)):
        if mask and not mask & (mask - 1):
            found.append((c, mask.bit_length()))
    return found


def hidden_singles(values: Sequence[int], n: int) -> list[tuple[int, int]]:
    """(cell, digit) where a digit has only one place left in some unit (no duplicates)."""
    t = tables(n)
    cands = candidates(values, n)
    found: dict[int, int] = {}
    for unit in t.units:
        for d in range(t.size):
            bit = 1 << d
            places = [c for c in unit if cands[c] & bit]
            if len(places) == 1 and places[0] not in found:
                found[places[0]] = d + 1
    return sorted(found.items())


def accept_singles(values: Sequence[int], n: int) -> Values:
    """The original tool's "accept singles": place every current naked and hidden single.

    One move; the singles are those of the board as given (not repeated to a fixpoint). A
    cell that two singles disagree on keeps the first (the board then has no solution).
    """
    board = list(values)
    for c, d in [*naked_singles(values, n), *hidden_singles(values, n)]:
        if not board[c]:
            board[c] = d
    return board


# -- the bitboard engine ------------------------------------------------------------------------
class Contradiction(Exception):
    pass


class BitboardSolver:
    """Digit bitboards with naked and hidden singles and bivalue-first branching."""

    def __init__(self, n: int) -> None:
        self.t = tables(n)
        self.nodes = 0

    def solve(
        self,
        givens: Sequence[int],
        limit: int = 2,
        deadline: Deadline | None = None,
        max_nodes: int | None = None,
    ) -> list[Values] | None:
        """Up to `limit` solutions; None when `max_nodes` search nodes did not settle it."""
        t = self.t
        size = t.size
        boards = [t.full] * size
        placed = [0] * size
        open_cells = t.full
        ncp = t.not_closed_peer_masks
        for c, v in enumerate(givens):
            if v:
                bit = 1 << c
                d = v - 1
                if not boards[d] & bit:
                    return []
                nb = ~bit
                for e in range(size):
                    boards[e] &= nb
                boards[d] &= ncp[c]
                placed[d] |= bit
                open_cells ^= bit
        solutions: list[Values] = []
        stack = [(boards, placed, open_cells)]
        nodes = 0
        while stack:
            boards, placed, open_cells = stack.pop()
            nodes += 1
            if max_nodes is not None and nodes > max_nodes:
                self.nodes += nodes
                return None
            if deadline is not None and not nodes & 255 and deadline.expired():
                self.nodes += nodes
                raise TimeLimitReached
            open_cells = self._propagate(boards, placed, open_cells)
            if open_cells < 0:
                continue
            if not open_cells:
                solutions.append(self._values(placed))
                if len(solutions) >= limit:
                    break
                continue
            cell, digits = self._choose(boards, open_cells)
            bit = 1 << cell
            nb = ~bit
            cp = ncp[cell]
            for d in reversed(digits):
                nboards = [b & nb for b in boards]
                nboards[d] &= cp
                nplaced = placed[:]
                nplaced[d] |= bit
                stack.append((nboards, nplaced, open_cells ^ bit))
        self.nodes += nodes
        return solutions

    def _values(self, placed: list[int]) -> Values:
        values = [0] * self.t.cells
        for d, mask in enumerate(placed, start=1):
            while mask:
                low = mask & -mask
                values[low.bit_length() - 1] = d
                mask ^= low
        return values

    def _propagate(self, boards: list[int], placed: list[int], open_cells: int) -> int:
        """Naked and hidden singles to a fixpoint; the new open mask, or -1 on a contradiction."""
        t = self.t
        size = t.size
        ncp = t.not_closed_peer_masks
        unit_masks = t.unit_masks
        digits = range(size)
        while open_cells:
            once = twice = 0
            for b in boards:
                twice |= once & b
                once |= b
            if open_cells & ~once:
                return -1
            singles = once & ~twice
            if singles:
                for d in digits:
                    s = singles & boards[d]
                    if not s:
                        continue
                    b = boards[d]
                    p = placed[d]
                    while s:
                        low = s & -s
                        s ^= low
                        if not b & low:
                            return -1
                        b &= ncp[low.bit_length() - 1]
                        p |= low
                    boards[d] = b
                    placed[d] = p
                open_cells &= ~singles
                continue
            found = False
            for d in digits:
                b = boards[d]
                p = placed[d]
                if not b:  # every place of d is taken: fine only when d is placed N times
                    if p.bit_count() != size:
                        return -1
                    continue
                for u in unit_masks:
                    if p & u:
                        continue
                    x = b & u
                    if not x & (x - 1):
                        if not x:
                            return -1
                        nx = ~x
                        for e in digits:
                            boards[e] &= nx
                        b &= ncp[x.bit_length() - 1]
                        p |= x
                        open_cells ^= x
                        found = True
                boards[d] = b
                placed[d] = p
            if not found:
                return open_cells
        return open_cells

    def _choose(self, boards: list[int], open_cells: int) -> tuple[int, list[int]]:
        once = twice = thrice = 0
        for b in boards:
            thrice |= twice & b
            twice |= once & b
            once |= b
        pairs = twice & ~thrice
        if pairs:
            low = pairs & -pairs
        else:
            # No bivalue cell: count candidates of every open cell (rare).
            best = self.t.size + 1
            low = 0
            mask = open_cells
            while mask:
                bit = mask & -mask
                mask ^= bit
                count = sum(1 for b in boards if b & bit)
                if count < best:
                    best, low = count, bit
        cell = low.bit_length() - 1
        return cell, [d for d, b in enumerate(boards) if b & low]


def singles_solve(givens: Sequence[int], n: int) -> Values | None:
    """The solution when naked and hidden singles alone fill the grid, else None."""
    found = BitboardSolver(n).solve(givens, 1, max_nodes=1)
    return found[0] if found else None


# -- the SAT baseline -----------------------------------------------------------------------------
class SatBaseline:
    """One CaDiCaL instance with the rules of size N; givens are assumptions (kept warm)."""

    def __init__(self, n: int) -> None:
        from pencilbox.core.sat import SatSolver

        self.t = tables(n)
        size = self.t.size
        self.sat = SatSolver()
        self.var = [[self.sat.new_var() for _ in range(size)] for _ in range(self.t.cells)]
        clauses: list[list[int]] = []
        for c in range(self.t.cells):
            vs = self.var[c]
            clauses.append(vs)
            clauses.extend([-vs[a], -vs[b]] for a in range(size) for b in range(a + 1, size))
        for unit in self.t.units:
            for d in range(size):
                vs = [self.var[c][d] for c in unit]
                clauses.append(vs)
                clauses.extend([-vs[a], -vs[b]] for a in range(size) for b in range(a + 1, size))
        self.sat.add_clauses(clauses)
        # Blocking a found solution needs a guard literal per puzzle, or the block would stay
        # for later puzzles. One fresh variable per puzzle makes every model longer, and
        # pysat's get_model copies the whole model: 44 us at 729 variables, 2.7 ms at 6,729, so
        # a long batch slowed down linearly. Instead puzzle i is guarded by the pair
        # (pool[i % POOL], epoch): both are assumed only for puzzle i's later calls, and the
        # epoch variable is retired and replaced every POOL puzzles, so the variable count
        # stays below cells*N + POOL + batch/POOL.
        self.pool = [self.sat.new_var() for _ in range(self.POOL)]
        self.epoch = self.sat.new_var()
        self.count = 0

    POOL = 128

    def solve(
        self, givens: Sequence[int], limit: int = 2, deadline: Deadline | None = None
    ) -> list[Values]:
        size = self.t.size
        cells = self.t.cells
        # Variables 1..cells*size are cell c holding digit d: c * size + d (d 1-based).
        assumptions = [c * size + v for c, v in enumerate(givens) if v]
        raw = self.sat._solver  # the plain pysat call: the wrapper's checks cost ~10% here
        slot = self.count % self.POOL
        if slot == 0 and self.count:
            raw.add_clause([-self.epoch])
            self.epoch = self.sat.new_var()
        self.count += 1
        guard = [self.pool[slot], self.epoch]
        solutions: list[Values] = []
        while len(solutions) < limit:
            extra = [*assumptions, *guard] if solutions else assumptions
            if deadline is None:
                satisfiable = self.sat.solve_untimed(extra)
            else:
                satisfiable = self.sat.solve(extra, deadline=deadline)
            if not satisfiable:
                break
            true = [v for v in raw.get_model()[: cells * size] if v > 0]
            values = [(v - 1) % size + 1 for v in true]
            solutions.append(values)
            raw.add_clause([-guard[0], -guard[1], *(-v for v, c in zip(true, givens) if not c)])
        return solutions

    def close(self) -> None:
        self.sat.close()


# -- the entry point ----------------------------------------------------------------------------
ENGINES = ("auto", "bitboard", "sat")

BITBOARD_BUDGET = {2: None, 3: 1, 4: 0, 5: 400}
"""Search nodes the bitboard engine may spend before "auto" hands the puzzle to SAT (per box
size; None = no limit, 0 = go straight to SAT). See the module docstring for why."""
BITBOARD_MIN_GIVENS = {3: 30}
"""Below this many givens "auto" skips the bitboards (9x9: singles settle every Kaggle puzzle,
30-36 givens, but no qqwing-expert / SudoCue / top1465 / hardest puzzle, 18-29 givens, and
43% of the 17-clue ones, where the wasted root node costs more than it saves)."""

_ENGINES: dict[tuple[str, int], Any] = {}


@atexit.register
def _close_engines() -> None:
    """Free the SAT instances before interpreter shutdown (else pysat complains on exit)."""
    for found in _ENGINES.values():
        if isinstance(found, SatBaseline):
            found.close()
    _ENGINES.clear()


def engine(n: int, kind: str = "bitboard") -> BitboardSolver | SatBaseline:
    """A warm engine for box size n, shared by every call in this process."""
    key = (kind, n)
    if key not in _ENGINES:
        _ENGINES[key] = SatBaseline(n) if kind == "sat" else BitboardSolver(n)
    found: BitboardSolver | SatBaseline = _ENGINES[key]
    return found


def bitboard_engine(n: int) -> BitboardSolver:
    found = engine(n, "bitboard")
    assert isinstance(found, BitboardSolver)
    return found


def sat_engine(n: int) -> SatBaseline:
    found = engine(n, "sat")
    assert isinstance(found, SatBaseline)
    return found


def solve_values(
    givens: Sequence[int],
    n: int,
    limit: int = 2,
    deadline: Deadline | None = None,
    kind: str = "auto",
    stats: dict[str, Any] | None = None,
) -> list[Values]:
    """Up to `limit` solutions of the givens, each verified; raises TimeLimitReached.

    `kind` "auto" runs the bitboard engine within the node budget for this size, then SAT.
    """
    if stats is None:
        stats = {}
    budget = {"bitboard": None, "sat": 0}.get(kind, BITBOARD_BUDGET.get(n, 0))
    if kind == "auto" and sum(1 for v in givens if v) < BITBOARD_MIN_GIVENS.get(n, 0):
        budget = 0
    found: list[Values] | None = None
    if budget != 0:
        bitboard = bitboard_engine(n)
        before = bitboard.nodes
        found = bitboard.solve(givens, limit, deadline, max_nodes=budget)
        nodes = bitboard.nodes - before
        stats["nodes"] = nodes
        stats["singles"] = nodes == 1 and found is not None and len(found) == 1
        stats["engine"] = "bitboard"
    if found is None:
        found = sat_engine(n).solve(givens, limit, deadline)
        stats["engine"] = "sat"
    solutions: list[Values] = found
    for values in solutions:
        if not is_valid_solution(values, n, givens):
            raise AssertionError("the Sudoku search produced an invalid grid")  # pragma: no cover
    return solutions
