"""Complete search: CaDiCaL decides the walls, the block rules are checked as it goes.

`encoding.encode` gives CaDiCaL the local rules as clauses (one variable per inner edge,
true = wall). The rules about whole blocks (two areas, one of each colour, congruent, of
the size of their numbers; no wall inside a block) are checked in one of two ways:

* `engine="compiled"` (the default when built): `_propagator.c`, a C extension attached to
  CaDiCaL as an external propagator (python-sat's IPASIR-UP). After each round of unit
  propagation it checks the *partial* assignment (units, pots, blocks, closed blocks, and
  whether each growing area still fits, rotated or reflected, in the other colour next to
  it) and hands CaDiCaL a clause falsified by the assignment, so it backjumps and learns
  long before the walls are complete. One CaDiCaL call finds the answer and proves there is
  no second one.
* `engine="loop"` (the fallback without a C compiler): solve, read the model, add clauses
  that forbid what is wrong in it (`lazy.explain`), solve again.

Every answer is checked by the rule checker before it is returned.

Measured (CPU s, solve + uniqueness proof, bench/results/dbchoco.md has the full table):
the hardest shared 10x10 (semiexp_cspuz_core_03, 5 clues) takes 0.49 s compiled against
7.7 s in the loop (2,763 rounds) and 0.73 s for semiexp's C++ solver in the same run; the
shared 16x16 0.40 s against 1.0 s (loop) and 2.7 s (C++).

The earlier measurements that shaped the loop and the options kept in encoding.py:

Why this and not the alternatives (measured on the 13 shared puzzles, 2 shared cores, see
bench/results/dbchoco.md): we also built a congruence encoding (`congruence=True`: per cell
a symmetry T (8) and a white-gray partner matching M, with rigidity clauses across every
open edge, so every block shares one rigid map; ~9k variables and ~1M clauses at 10x10). It
needs few lazy rounds (9 on the hardest 10x10) but every SAT call is slow: the 8x8 puzzles
took 1.5-6 s and the hardest 10x10 did not finish in 90 s, against 0.1-1.2 s for the plain
loop on the 8x8s. So the plain loop is the default. Its weak spot is a grid with large
unclued regions (semiexp_cspuz_core_03_10x10: ~2,800 rounds, 131k conflicts, 8-10 s CPU,
against 1.1 s for semiexp's C++ solver): congruence of big areas is learnt a few shapes at a
time (7.5k of its 15k clauses are size mismatches of areas of 4-9 cells).

A pure-Python external propagator (issue 4, since replaced by the compiled one). CaDiCaL
decides the walls in one call; the propagator checks partial assignments (closed blocks with
unequal or non-congruent halves or three areas, an open area larger than its number, two
numbers or a wall inside one open block) and hands CaDiCaL the falsified `lazy.explain`
clauses as conflicts; complete models are checked as in the loop. It does cut the search
(hardest 10x10: 23k conflicts and 15 complete models instead of 131k and 2,763), but every
callback is Python: the checks cost more than the search they save. CPU s, measured
2026-11-22 at load 3-6 ("every" = new edge assignments between two looks at the partial
assignment):

| puzzle | loop | propagator, models only | every 1 | every 4 | every 10 | every 30 |
|---|---|---|---|---|---|---|
| semiexp_cspuz_core_03_10x10 | 7.6-9.5 | 10.1 | 20.1 | 48 | 12.8-14.0 | 14.0 |
| asSqr_puzz_sqr_02_16x16 | 1.3 | | | | 6.7 | |
| asSqr_puzz_sqr_06_11x10 (two answers) | 0.34 | 0.32 | | | 1.15 | |
| asSqr_puzz_sqr_03_12x12 | 0.11 | | | | 0.55 | |
| semiexp_cspuz_core_02_8x8 | 0.15 | | | | 1.08 | |
| the other 8 (4x4-8x8) | 0.00-0.05 | | | | 0.00-0.11 | |

A first version without the cheap detector (the whole `_explain` at every look) took 38 s
(every 10) and 9.7 s (every 40 and 80). Other tries on the hardest 10x10, lazy loop: CaDiCaL
without inprocessing (elim, subsume, probe, vivify off) 7.5 s against 7.8 s in the same run,
phase=0 8.3 s, no restarts 12.2 s, initial phase all walls 11.8 s (2,546 rounds) or all
open 15.6 s (3,599 rounds); adding every equal-size invariant clause per block
instead of the shortest changed nothing (2,763 rounds either way). So the plain loop stayed the
default until the checks moved to C (`_propagator.c`), which made the propagator pay off.

A third variant is kept as an option (`labels=True`): a one-hot half-size label per cell,
equal across open edges, checked lazily against the real areas, so that the white and gray
areas of a block get equal sizes without one mismatch clause per pair of shapes (86% of the
mismatch clauses on the hardest 10x10 were size mismatches). Measured in CPU seconds (the
shared machine ran at load ~6, so wall times were 3-5x higher): 16x16 0.9 s against 1.3 s
plain, but 11x10 (two answers) 1.1 s against 0.3 s, 8x8 0.3 s against 0.2 s, and the
hardest 10x10 14 s against 10 s. So the default stays plain.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from pencilbox.core import compiled
from pencilbox.core.sat import SatSolver, interrupt_requested
from pencilbox.core.timing import Deadline, Stats, TimeLimitReached
from pencilbox.genres.dbchoco.board import Walls
from pencilbox.genres.dbchoco.check import violations
from pencilbox.genres.dbchoco.encoding import encode, known
from pencilbox.genres.dbchoco.lazy import explain

if TYPE_CHECKING:
    from pencilbox.genres.dbchoco._propagator import Propagator
    from pencilbox.genres.dbchoco.model import DoubleChoco


def _load_compiled() -> type[Propagator] | None:
    built = compiled.load("pencilbox.genres.dbchoco._propagator")
    return None if built is None else built.Propagator


COMPILED = _load_compiled()
"""The compiled propagator's type, or None when the extension was not built (or is stale,
core/compiled.py warns): then the lazy loop does the work."""
ENGINES = ("compiled", "loop")
COMPILED_OPTIONS = {"phase": 0}
"""CaDiCaL tries an edge open before a wall (its default is true, i.e. a wall: every cell
walled off at first, each then refuted by the propagator). Measured with the compiled
propagator, CPU s, solve + proof (same run): ohmec #14 10x10 0.86 -> 0.04 (9,370 -> 228
conflicts; semiexp's C++ solver 0.15), the 55 ohmec puzzles 7.7 -> 6.6 in all, the 13
shared 1.68 -> 1.48; a few get slower (ohmec #38 0.09 -> 0.14)."""


class BudgetExceeded(Exception):
    """The search used up its round budget (deterministic, unlike a time limit)."""


def answers(
    puzzle: DoubleChoco,
    limit: int,
    stats: Stats,
    deadline: Deadline | None = None,
    *,
    exclude: Walls | None = None,
    max_rounds: int | None = None,
    engine: str | None = None,
    congruence: bool = False,
    labels: bool = False,
) -> Iterator[Walls]:
    """Valid answers, pairwise different, until `limit` are found or none is left.

    `exclude` is an answer known already (the generator's): it is forbidden up front, so
    the search goes straight for a second one. `max_rounds` bounds the work and raises
    BudgetExceeded when it runs out (lazy rounds in the loop, complete models when
    compiled). `engine` is "compiled" (the default when built) or "loop"; `congruence` and
    `labels` switch on the loop's alternative encodings (encoding.py).
    """
    chosen = engine or (
        "compiled" if COMPILED is not None and not (congruence or labels) else "loop"
    )
    if chosen not in ENGINES:
        raise ValueError(f"unknown engine {chosen!r}; choose one of {', '.join(ENGINES)}")
    if chosen == "compiled":
        if COMPILED is None:
            raise RuntimeError("the compiled Double Choco propagator is not built")
        found: Iterable[list[bool]] = _compiled(
            COMPILED, puzzle, limit, stats, deadline, exclude, max_rounds
        )
    else:
        found = _loop(puzzle, limit, stats, deadline, exclude, max_rounds, congruence, labels)
    for walls in found:
        answer = Walls.from_bools(puzzle.width, puzzle.height, walls)
        problems = violations(puzzle, answer)
        if problems:  # a bug, never a user error: refuse to report a wrong answer
            raise AssertionError(f"the search produced a wrong answer: {problems[0]}")
        yield answer


def _forbid(wall: list[int], walls: list[bool]) -> list[int]:
    """The clause that rules out exactly this assignment of the walls."""
    return [-v if value else v for v, value in zip(wall, walls)]


def _loop(
    puzzle: DoubleChoco,
    limit: int,
    stats: Stats,
    deadline: Deadline | None,
    exclude: Walls | None,
    max_rounds: int | None,
    congruence: bool,
    labels: bool,
) -> Iterator[list[bool]]:
    """Solve, explain what is wrong in the model as clauses, solve again."""
    with SatSolver() as solver:
        with stats.phase("encode"):
            enc = encode(puzzle, solver, congruence=congruence, labels=labels)
        if exclude is not None:
            solver.add_clause(_forbid(enc.wall, [exclude.is_wall(e) for e in range(len(enc.wall))]))
        found = rounds = 0
        while found < limit:
            if max_rounds is not None and rounds >= max_rounds:
                raise BudgetExceeded
            rounds += 1
            with stats.phase("sat"):
                satisfiable = solver.solve(deadline=deadline)
            stats.count("rounds")
            if not satisfiable:
                break
            walls = enc.walls_of_model()
            with stats.phase("lazy"):
                extra = explain(puzzle, enc, walls)
            if extra:
                stats.count("lazy_clauses", len(extra))
                solver.add_clauses(extra)
                continue
            found += 1
            yield walls
            solver.add_clause(_forbid(enc.wall, walls))
        for key, value in solver.statistics().items():
            stats.count(key, value)


def _compiled(
    engine_type: type[Propagator],
    puzzle: DoubleChoco,
    limit: int,
    stats: Stats,
    deadline: Deadline | None,
    exclude: Walls | None,
    max_models: int | None,
) -> list[list[bool]]:
    """One CaDiCaL call with the compiled propagator attached (it keeps the clock)."""
    with SatSolver(COMPILED_OPTIONS) as solver:
        with stats.phase("encode"):
            enc = encode(puzzle, solver)
        if exclude is not None:
            solver.add_clause(_forbid(enc.wall, [exclude.is_wall(e) for e in range(len(enc.wall))]))
        remaining = deadline.remaining() if deadline is not None else None
        if remaining is not None and remaining <= 0:
            raise TimeLimitReached
        engine = engine_type(
            puzzle.width,
            puzzle.height,
            [int(gray) for gray in puzzle.gray],
            [known(n) or 0 for n in puzzle.numbers],
            enc.wall,
            limit,
            max_models or 0,
            remaining or 0.0,
            interrupt_requested,
        )
        with stats.phase("sat"):
            solver.solve_with_propagator(engine, enc.wall)
        for key, value in {**engine.counts, **solver.statistics()}.items():
            stats.count(key, value)
        stats.count("rounds", engine.counts["models"])
        if engine.stopped == "time":
            raise TimeLimitReached
        if engine.stopped == "budget":
            raise BudgetExceeded
        found: list[list[bool]] = engine.found
        return found


def other_answer(
    puzzle: DoubleChoco,
    known_answer: Walls,
    *,
    deadline: Deadline | None = None,
    max_rounds: int | None = None,
) -> Walls | None:
    """An answer different from `known_answer`, or None when it is the only one."""
    found = answers(puzzle, 1, Stats(), deadline, exclude=known_answer, max_rounds=max_rounds)
    return next(found, None)
