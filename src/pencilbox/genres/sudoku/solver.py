"""Complete Sudoku search in validation mode: up to `limit` solutions, for every box size.

Three engines live here; `solve_values(kind="auto")` picks per size.

* **The compiled kernel** (`_kernel.c` and its two searches, a CPython extension that setup.py
  builds at install; `KERNEL` here). 9x9 goes to `_kernel_bands.c`: one 27-bit word per digit
  and band (three rows), where a table lookup on the 9 non-empty minirows gives the box orders
  a digit can still take in the band (hidden singles and locked candidates at once), the same
  turned for stacks, naked singles bit-sliced over a band, and each minirow's room for three
  digits; it branches on the box order of the digit with the fewest in the band or stack with
  the fewest (the propagation and the guesses match tdoku's: 0.54 guesses a puzzle on the
  17-clue set, 110.8 on the forum's hardest, tdoku 0.54 and 110.4). Other sizes go to
  `_kernel_grid.c`: one uint32 candidate mask per cell; naked singles through a queue,
  hidden singles by a once/twice scan per unit, one pass of locked candidates, branching on a
  cell with the fewest candidates (ties: the most open cells in its units), one board copy per
  depth. Both stop at `limit` solutions or at a node or time budget and release the GIL; the
  module checks every solution against the rules and the givens before returning it. Whole
  lists go through `solve_batch` / `solve_lines` (below): one C call per slice of puzzles. It
  is a plain C-API module rather than a ctypes library because of call overhead: a whole
  kernel call on a full 4x4 grid takes 1.3 us, a ctypes no-op that gets the board as bytes and
  hands two lists back 4.6 us. It is optional: without a C compiler at install time the build
  skips it, `KERNEL` is None, and the two engines below do all the work, silently.
* **Digit bitboards** (`BitboardSolver`, pure Python). The state is one
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

Which engine "auto" runs, per size, and why. With the kernel (`KERNEL_BUDGET`): the kernel at
every size, within a node budget, then SAT. It is the fastest engine on every shared set of
every size (table below); the budgets (9x9 50,000 nodes, 16x16 10,000, 25x25 5,000, 4x4 none)
hand a search gone astray to SAT after 30-50 ms (a node costs ~1 us at 9x9, ~3 us at 16x16,
5-8 us at 25x25): ~10x SAT's time on the hardest 9x9 puzzles, 1-3x on 16x16 and 25x25, where
DFS can go astray for good. No shared puzzle comes near them (most nodes: 1,780 on
forum_hardest, 3,013 on sudoku16_20, 1 on sudoku25_5), but a 25x25 grid with half its givens
removed took the kernel over 200,000 nodes and SAT 13 ms. Without the kernel
(`BITBOARD_BUDGET`, `BITBOARD_MIN_GIVENS`): 9x9 puzzles with 30 givens or more get bitboards
for one node (the root propagation: every Kaggle puzzle) and sparser ones go straight to SAT,
which learns from its conflicts and is 3-10x faster than bitboard branching; 16x16 goes to SAT
(bitboards need up to 80,000 nodes, seconds a puzzle); 25x25 gets bitboards within 400 nodes,
then SAT (whose 25x25 instance takes seconds to build); 4x4 bitboards.

Puzzles/s from `bench/sudoku.py` (bench/results/sudoku.md, 20:02-20:05 UTC; one process,
every answer checked; 9x9 rows best of two interleaved rounds, 16x16 and 25x25 one round; 2
CPUs shared with other sessions, load average 2.6 at the start and 2.0 at the end, so
wall-clock rates vary by 2x between runs; the peers run in their own venv, 15 s a set, on the
puzzles they got through):

====================  ======  ======  =========  =====  ======  =====  ==========  =====  =====
9x9 set               auto    kernel  bitboards  SAT    Norvig  dlx    pencilmark  py-s.  ratio
====================  ======  ======  =========  =====  ======  =====  ==========  =====  =====
17clue_2000.txt       48,793  49,658  2,169      4,733  450     114    141         0.6    347x
magictour_top1465     18,586  21,088  295        1,239  54      23     117         1.3    158x
forum_hardest_1106    2,389   2,349   41         369    23      7.3    91          0.7    26x
kaggle_1000.csv       34,337  34,622  7,980      2,493  451     892    99          330    38x
====================  ======  ======  =========  =====  ======  =====  ==========  =====  =====

(ratio: auto over the fastest peer; a run at load 4.9 to 3.3 gave auto 23,050 / 18,794 /
2,348 / 38,809.) 16x16 and 25x25 (no peer does them):

====================  ======  ======  =========  =====
set                   auto    kernel  bitboards  SAT
====================  ======  ======  =========  =====
sudoku16_20.txt       220     229     0.8        59
sudoku25_5.txt        4,710   5,779   766        240
====================  ======  ======  =========  =====

The kernel alone, by CPU time (best of three, same machine, `_kernel.solve` without the Python
wrapper and its solution check): 54,000 / 23,000 / 2,600 / 63,000 puzzles/s on the four 9x9
sets, 371/s on sudoku16_20 and 5,700/s on sudoku25_5 (mean nodes 2.5 / 24.7 / 378 / 1.0, 871,
1.0). What the kernel's choices bought on forum_hardest (CPU time): locked candidates cut the
nodes from 746 to 572 (1,443 -> 1,618/s; repeating them to a fixpoint per node cost more than
it saved); the tie-break on open cells in the units from 572 to 378 (and 2,812 -> 871 nodes on
16x16, 123 -> 300/s); a branch-free unit scan and peer loop 1,870 -> 2,640/s.

Before the kernel, pure Python topped out at 3,156 / 1,387 / 339 puzzles/s (17-clue / top1465 /
hardest, SAT on a quiet machine). Tried and measured then, not kept: other python-sat back ends
on 9x9 (minisat22 3,318 / 958 / 275, glucose4 3,460 / 851 / 149, maplechrono 2,118 / 271 / 104
against cadical195 3,156 / 1,387 / 339); bit-parallel hidden singles in the bitboards (SWAR
over 10-bit row fields) were slower than the plain per-unit loop; a bigger bitboard budget
before SAT (2 or 4 nodes) lost on every set; one fresh guard variable per puzzle made pysat's
get_model (which copies the whole model) slower with every puzzle of a batch, hence the guard
pool in `SatBaseline`.

Every solution returned is checked against the rules and the givens (`is_valid_solution`, pure
Python, ~10 us on 9x9) before it leaves this module, whichever engine found it.
"""

from __future__ import annotations

import atexit
import time
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import compress
from operator import add, itemgetter
from typing import Any

from pencilbox.core import compiled
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
    """operator.itemgetter per unit: the unit's values as a tuple."""
    digit_set: frozenset[int]
    unit_keys: tuple[int, ...]
    """For the board repeated three times (3*N*N values): (N+1) * the cell's row, column or box
    unit index. Adding a value gives a key per (unit, digit): all distinct iff no unit repeats a
    digit (`is_valid_solution`)."""


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
        unit_keys=tuple((size + 1) * cell_units[c][k] for k in range(3) for c in range(cells)),
    )


# -- checking ---------------------------------------------------------------------------------
def is_valid_solution(values: Sequence[int], n: int, givens: Sequence[int] | None = None) -> bool:
    """True when every unit holds 1..N once and the givens are kept.

    Every solution of every engine passes here, so it is written for speed (C-level loops
    only: ~10 us on 9x9, as long as the compiled kernel's search on a 17-clue puzzle)."""
    t = tables(n)
    if len(values) != t.cells or not set(values) <= t.digit_set:
        return False
    tripled = [*values, *values, *values]
    if len(set(map(add, t.unit_keys, tripled))) != 3 * t.cells:
        return False
    return givens is None or list(compress(values, givens)) == list(filter(None, givens))


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
    if KERNEL is not None:
        solutions, _, _, by_singles = KERNEL(givens, n, 1, 1, 0.0)
        return solutions[0] if by_singles and solutions else None
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


# -- the compiled kernel -------------------------------------------------------------------------
KernelSolve = Callable[[Sequence[int], int, int, int, float], tuple[list[Values], int, int, bool]]
"""`_kernel.solve(givens, n, limit, max_nodes, max_seconds) -> (solutions, nodes, stop,
by_singles)`; see _kernel.c."""

KERNEL_STOP_NODES = 1
KERNEL_STOP_TIME = 2


KernelBatch = Callable[
    [bytes, int, int, int, int, float, bool, float],
    tuple[int, bytes, bytes, bytes, bytes, bytes, bytes],
]
"""`_kernel.solve_batch(givens, n, start, limit, max_nodes, max_seconds, want_singles,
slice_seconds) -> (done, found, stops, singles, nodes, seconds, solutions)`; see _kernel.c."""

KernelLines = Callable[
    [bytes, int, int, int, int, float, float, bytes, int],
    tuple[int, bytes, list[list[str]], bytes],
]
"""`_kernel.solve_lines(givens, n, start, limit, max_nodes, max_seconds, slice_seconds,
symbols, keep) -> (done, verdicts, solutions as lines, nodes)`; see _kernel.c."""

_KERNEL_MODULE = compiled.load("pencilbox.genres.sudoku._kernel")
"""The compiled kernel, or None when it was not built (no C compiler at install time) or is
stale (core/compiled.py warns): then the pure-Python engines do all the work."""
KERNEL: KernelSolve | None = _KERNEL_MODULE.solve if _KERNEL_MODULE else None
KERNEL_BATCH: KernelBatch | None = _KERNEL_MODULE.solve_batch if _KERNEL_MODULE else None
KERNEL_LINES: KernelLines | None = _KERNEL_MODULE.solve_lines if _KERNEL_MODULE else None


# -- the entry point ----------------------------------------------------------------------------
ENGINES = ("auto", "kernel", "bitboard", "sat")

KERNEL_BUDGET: dict[int, int | None] = {2: None, 3: 50_000, 4: 10_000, 5: 5_000}
"""Search nodes the kernel may spend before "auto" hands the puzzle to SAT (per box size; None
= no limit). See the module docstring for the measurements behind them."""
BITBOARD_BUDGET = {2: None, 3: 1, 4: 0, 5: 400}
"""Without the kernel: search nodes the bitboard engine may spend before "auto" hands the
puzzle to SAT (per box size; None = no limit, 0 = go straight to SAT)."""
BITBOARD_MIN_GIVENS = {3: 30}
"""Without the kernel: below this many givens "auto" skips the bitboards (9x9: singles settle
every Kaggle puzzle, 30-36 givens, but no qqwing-expert / SudoCue / top1465 / hardest puzzle,
18-29 givens, and 43% of the 17-clue ones, where the wasted root node costs more than it saves)."""

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


def kernel_solve(
    givens: Sequence[int],
    n: int,
    limit: int = 2,
    deadline: Deadline | None = None,
    max_nodes: int | None = None,
    stats: dict[str, Any] | None = None,
) -> list[Values] | None:
    """Up to `limit` solutions from the compiled kernel; None when it used up `max_nodes`.

    Raises TimeLimitReached, and RuntimeError when the kernel is not built."""
    if KERNEL is None:
        raise RuntimeError("the compiled Sudoku kernel is not built (no C compiler at install)")
    seconds = 0.0
    if deadline is not None and deadline.end is not None:
        remaining = deadline.remaining()
        if not remaining:
            raise TimeLimitReached
        seconds = remaining
    found, nodes, stop, by_singles = KERNEL(givens, n, limit, max_nodes or 0, seconds)
    if stats is not None:
        stats["nodes"] = nodes
        stats["singles"] = by_singles and len(found) == 1
        stats["engine"] = "kernel"
    if stop == KERNEL_STOP_TIME:
        raise TimeLimitReached
    return None if stop == KERNEL_STOP_NODES else found


def solve_values(
    givens: Sequence[int],
    n: int,
    limit: int = 2,
    deadline: Deadline | None = None,
    kind: str = "auto",
    stats: dict[str, Any] | None = None,
) -> list[Values]:
    """Up to `limit` solutions of the givens, each verified; raises TimeLimitReached.

    `kind` "auto" runs the compiled kernel within the node budget for this size, then SAT;
    without the kernel, the bitboard engine within its budget, then SAT.
    """
    if stats is None:
        stats = {}
    found: list[Values] | None = None
    if kind == "kernel" or (kind == "auto" and KERNEL is not None and limit <= 1_000_000):
        budget = KERNEL_BUDGET.get(n) if kind == "auto" else None
        found = kernel_solve(givens, n, limit, deadline, budget, stats)
        if found is None:
            stats["kernel_nodes"] = stats.pop("nodes")
            stats.pop("singles")
    else:
        budget = {"bitboard": None, "sat": 0}.get(kind, BITBOARD_BUDGET.get(n, 0))
        if kind == "auto" and sum(1 for v in givens if v) < BITBOARD_MIN_GIVENS.get(n, 0):
            budget = 0
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


# -- batches ------------------------------------------------------------------------------------
SLICE_SECONDS = 0.05
"""How long one batch call stays in C: Ctrl-C is noticed between slices."""


@dataclass(frozen=True, slots=True)
class KernelSlice:
    """What one `solve_batch` call returned for puzzles first .. first + done - 1."""

    first: int
    found: array[int]
    stops: bytes
    singles: bytes
    nodes: array[int]
    seconds: array[float]
    solutions: bytes
    """Every solution's digits, puzzle after puzzle (found[i] grids of N*N bytes each)."""


def kernel_slices(
    data: bytes, n: int, limit: int, time_limit: float | None, singles: bool
) -> Iterator[KernelSlice]:
    """The compiled kernel over every grid of `data` (N*N digit bytes each), a slice at a time,
    with the node budget of "auto" and `time_limit` seconds for each puzzle."""
    if KERNEL_BATCH is None:
        raise RuntimeError("the compiled Sudoku kernel is not built (no C compiler at install)")
    cells = n**4
    count = len(data) // cells
    budget = KERNEL_BUDGET.get(n) or 0
    first = 0
    while first < count:
        done, found, stops, flags, nodes, seconds, solutions = KERNEL_BATCH(
            data, n, first, limit, budget, time_limit or 0.0, singles, SLICE_SECONDS
        )
        yield KernelSlice(
            first,
            array("I", found),
            stops,
            flags,
            array("q", nodes),
            array("d", seconds),
            solutions,
        )
        first += done


VERDICTS: tuple[str, ...] = ("none", "unique", "multiple", "timeout", "budget")
"""solve_lines' verdict bytes by value ("budget": past the node budget, for SAT to settle)."""


@dataclass(frozen=True, slots=True)
class LinesSlice:
    """What one `solve_lines` call returned for puzzles first .. first + len(verdicts) - 1."""

    first: int
    verdicts: list[str]
    solutions: list[list[str]]
    nodes: list[int]


def kernel_line_slices(
    data: bytes, n: int, time_limit: float | None, symbols: str, keep: int
) -> Iterator[LinesSlice]:
    """`solve_lines` over every grid of `data` (validation mode, limit 2), a slice at a time,
    with the node budget of "auto" and `time_limit` seconds for each puzzle."""
    if KERNEL_LINES is None:
        raise RuntimeError("the compiled Sudoku kernel is not built (no C compiler at install)")
    count = len(data) // n**4
    budget = KERNEL_BUDGET.get(n) or 0
    first = 0
    while first < count:
        done, verdicts, solutions, nodes = KERNEL_LINES(
            data, n, first, 2, budget, time_limit or 0.0, SLICE_SECONDS, symbols.encode(), keep
        )
        yield LinesSlice(
            first, [VERDICTS[v] for v in verdicts], solutions, array("q", nodes).tolist()
        )
        first += done


@dataclass(frozen=True, slots=True)
class BatchSolved:
    """One puzzle of a batch: its solutions (up to the limit), whether its time ran out, the
    seconds it took and the stats `solve_values` would give."""

    solutions: list[Values]
    timed_out: bool
    seconds: float
    stats: dict[str, Any]


def solve_batch(
    boards: Sequence[Sequence[int]],
    n: int,
    limit: int = 2,
    time_limit: float | None = None,
    singles: bool = False,
) -> Iterator[BatchSolved]:
    """Every board solved in order, like `solve_values(kind="auto")` one by one, but in one C
    call per slice of puzzles when the kernel is built. `singles` also sets stats["singles"]
    (naked and hidden singles alone fill the grid). Every solution is checked."""
    if time_limit is not None and time_limit <= 0:
        yield from (BatchSolved([], True, 0.0, {}) for _ in boards)
        return
    if KERNEL_BATCH is None or limit > 1_000_000:
        yield from _solve_each(boards, n, limit, time_limit)
        return
    cells = n**4
    data = b"".join(bytes(board) for board in boards)
    for part in kernel_slices(data, n, limit, time_limit, singles):
        offset = 0
        for k, found in enumerate(part.found):
            index = part.first + k
            grids = part.solutions[offset : offset + found * cells]
            offset += found * cells
            stats: dict[str, Any] = {"nodes": part.nodes[k]}
            if singles:
                stats["singles"] = bool(part.singles[k]) and found == 1
            stats["engine"] = "kernel"
            stop = part.stops[k]
            if stop == KERNEL_STOP_NODES:
                yield sat_after_kernel(boards[index], n, limit, time_limit, part.nodes[k])
                continue
            solutions = [list(grids[i : i + cells]) for i in range(0, len(grids), cells)]
            yield BatchSolved(solutions, stop == KERNEL_STOP_TIME, part.seconds[k], stats)


def sat_after_kernel(
    board: Sequence[int], n: int, limit: int, time_limit: float | None, kernel_nodes: int
) -> BatchSolved:
    """A puzzle the kernel's node budget did not settle, handed to SAT as "auto" does."""
    started = time.perf_counter()
    stats = {"kernel_nodes": kernel_nodes, "engine": "sat"}
    try:
        found = sat_engine(n).solve(board, limit, Deadline(time_limit))
    except TimeLimitReached:
        return BatchSolved([], True, time.perf_counter() - started, stats)
    for values in found:
        if not is_valid_solution(values, n, board):
            raise AssertionError("the Sudoku search produced an invalid grid")  # pragma: no cover
    return BatchSolved(found, False, time.perf_counter() - started, stats)


def _solve_each(
    boards: Iterable[Sequence[int]], n: int, limit: int, time_limit: float | None
) -> Iterator[BatchSolved]:
    """The batch one puzzle at a time (no kernel): `solve_values` for each."""
    for board in boards:
        started = time.perf_counter()
        stats: dict[str, Any] = {}
        try:
            found = solve_values(board, n, limit, Deadline(time_limit), stats=stats)
        except TimeLimitReached:
            yield BatchSolved([], True, time.perf_counter() - started, stats)
            continue
        yield BatchSolved(found, False, time.perf_counter() - started, stats)
