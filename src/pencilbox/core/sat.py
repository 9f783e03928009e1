"""A small interface over python-sat's CaDiCaL, the search back end of every genre.

Genres encode their rules as clauses over integer variables and ask three questions:
  - `solve`: is there a solution (under some assumptions)?
  - `enumerate`: up to k solutions that differ on the given variables (solve, block, repeat);
  - `backbone`: which of the given variables take the same value in every solution.
CaDiCaL learns a clause from each dead end, which is what removes the hour-long tails of plain
depth-first backtracking on hard puzzles.
"""

from __future__ import annotations

import functools
import signal
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from types import FrameType
from typing import Any

import pysolvers  # type: ignore[import-not-found]  # python-sat's binding (SatSolver._chunk)
from pysat.solvers import Solver

from pencilbox.core.timing import Deadline, TimeLimitReached

SOLVER_NAME = "cadical195"


CHUNK_SECONDS = 0.2
"""A timed search runs in chunks of about this long, checking the clock between them."""

FIRST_CHUNK = 5_000
"""Conflicts in the first chunk: most searches of our puzzles end inside it, in one call;
the later chunks are sized by the pace measured on the first."""

NO_SIGINT_HANDLER = 0


# -- Ctrl-C -----------------------------------------------------------------------------------
class _CtrlC:
    """Whether a Ctrl-C came during a search, and how deep `_ctrl_c_noted` is nested."""

    pending = False
    depth = 0


def _note(signum: int, frame: FrameType | None) -> None:
    _CtrlC.pending = True


@contextmanager
def _ctrl_c_noted() -> Iterator[None]:
    """During a search with a propagator, Python's SIGINT handler (which would raise
    KeyboardInterrupt inside the propagator's callbacks, in the middle of CaDiCaL) is
    replaced by one that only notes the signal; the propagator polls the note
    (`interrupt_requested`) and ends the search. Only the main thread receives signals, and
    a handler someone else installed is left alone. (Swapping handlers costs ~20 us, which
    is why the chunked searches, whose Python code runs only between chunks, do without.)"""
    if _CtrlC.depth or threading.current_thread() is not threading.main_thread():
        yield
        return
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield
        return
    _CtrlC.depth += 1
    signal.signal(signal.SIGINT, _note)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        _CtrlC.depth -= 1
    _raise_if_interrupted()  # a Ctrl-C that came after the last check


def _raise_if_interrupted() -> None:
    if _CtrlC.pending:
        _CtrlC.pending = False
        raise KeyboardInterrupt


def interrupt_requested() -> bool:
    """True once Ctrl-C was pressed during the current search: a propagator that polls its
    clock polls this too and ends the search."""
    return _CtrlC.pending


class SatSolver:
    def __init__(self, options: dict[str, int] | None = None) -> None:
        """`options`: CaDiCaL's own settings by name (e.g. {"phase": 0}), set before any
        clause is added."""
        self._solver = Solver(name=SOLVER_NAME)
        if options:
            self._solver.solver.configure(options)
        self._top = 0
        self.calls = 0

    def __enter__(self) -> SatSolver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._solver.delete()

    # -- building -----------------------------------------------------------------------------
    def new_var(self) -> int:
        self._top += 1
        return self._top

    def new_vars(self, count: int) -> list[int]:
        first = self._top + 1
        self._top += count
        return list(range(first, first + count))

    def add_clause(self, literals: Iterable[int]) -> None:
        backend = self._solver.solver
        if not pysolvers.cadical195_add_cl(backend.cadical, list(literals)):
            backend.status = False

    def add_clauses(self, clauses: Iterable[Sequence[int]]) -> None:
        """The clauses go straight to CaDiCaL through python-sat's binding, mapped at C speed:
        its wrappers cost two Python calls per clause, which was most of the time of encoding
        a colour nonogram. The wrapper's status is kept as it keeps it (False once a clause
        makes the formula unsatisfiable)."""
        backend = self._solver.solver
        added = map(functools.partial(pysolvers.cadical195_add_cl, backend.cadical), clauses)
        if not all(list(added)):
            backend.status = False

    def equals_or(self, target: int, inputs: Sequence[int]) -> None:
        """Clauses for target <-> OR(inputs)."""
        self._solver.add_clause([-target, *inputs])
        for literal in inputs:
            self._solver.add_clause([target, -literal])

    def equals_and(self, target: int, inputs: Sequence[int]) -> None:
        """Clauses for target <-> AND(inputs)."""
        self._solver.add_clause([target, *(-lit for lit in inputs)])
        for literal in inputs:
            self._solver.add_clause([-target, literal])

    # -- asking -------------------------------------------------------------------------------
    def solve(self, assumptions: Sequence[int] = (), deadline: Deadline | None = None) -> bool:
        """True if satisfiable. Raises TimeLimitReached when the deadline passes first, and
        KeyboardInterrupt on Ctrl-C (between two chunks of the search)."""
        self.calls += 1
        remaining = deadline.remaining() if deadline else None
        if remaining is not None and remaining <= 0:
            raise TimeLimitReached
        return self._search(list(assumptions), deadline)

    def solve_briefly(self, conflicts: int) -> bool | None:
        """One search of at most `conflicts` conflicts, None when they ran out (what it
        learned stays). A budget of conflicts, unlike one of seconds, gives the same search on
        every machine. Ctrl-C is noticed as it returns."""
        self.calls += 1
        return self._chunk([], conflicts)

    def solve_untimed(self, assumptions: Sequence[int]) -> bool:
        """`solve` without a deadline, for hot loops (Ctrl-C still works)."""
        return self._search(list(assumptions), None)

    def _search(self, assumptions: list[int], deadline: Deadline | None) -> bool:
        """Every search runs in chunks with a conflict budget; the solver keeps what it
        learned from one chunk to the next. Between chunks it looks at the clock; Ctrl-C
        during a chunk only sets Python's own flag (no handler of pysat's is installed, see
        `_chunk`), so KeyboardInterrupt comes as the chunk returns, never from inside it."""
        budget = FIRST_CHUNK
        while True:
            started = time.perf_counter()
            answer = self._chunk(assumptions, budget)
            if answer is not None:
                return answer
            left = deadline.remaining() if deadline else None
            if left is not None and left <= 0:
                raise TimeLimitReached
            # size the next chunk to this search's own pace, and never past the deadline
            pace = budget / max(time.perf_counter() - started, 1e-3)
            seconds = CHUNK_SECONDS if left is None else min(CHUNK_SECONDS, left)
            budget = max(1_000, int(pace * seconds))

    def _chunk(self, assumptions: list[int], budget: int) -> bool | None:
        """One CaDiCaL call of at most `budget` conflicts; None when the budget ran out.

        The call goes to python-sat's binding directly so that it can say "do not install
        your SIGINT handler" (its last argument, which pysat's wrapper sets to "in the main
        thread"): that handler leaves CaDiCaL by longjmp in the middle of its work, after
        which the process crashed with heap corruption. The wrapper's status and
        assumptions are kept up to date so that its `get_model` and `get_core` still work."""
        backend = self._solver.solver
        backend.status = None  # no stale model if Ctrl-C ends this call
        pysolvers.cadical195_cbudget(backend.cadical, budget)
        status = pysolvers.cadical195_solve_lim(backend.cadical, assumptions, NO_SIGINT_HANDLER)
        answer = None if status == 0 else status > 0
        backend.status = answer
        backend.prev_assumps = assumptions
        return answer

    def solve_with_propagator(self, propagator: Any, observed: Sequence[int]) -> bool:
        """One untimed call with a python-sat external propagator attached, watching the
        `observed` variables; it is detached afterwards. The propagator keeps its own clock
        (it can end the search with an empty clause), so the call is not cut into chunks:
        each chunk would restart the propagator's view of the trail. It also ends the search
        when `interrupt_requested()` (Ctrl-C), which raises KeyboardInterrupt here."""
        self._solver.connect_propagator(propagator)
        for variable in observed:
            self._solver.observe(variable)
        backend = self._solver.solver
        try:
            with _ctrl_c_noted():
                answer = pysolvers.cadical195_solve(backend.cadical, [], NO_SIGINT_HANDLER)
                _raise_if_interrupted()
            backend.status = answer
            backend.prev_assumps = []
            return bool(answer)
        finally:
            self._solver.disconnect_propagator()

    def values(self, variables: Sequence[int]) -> list[bool]:
        """Values of the variables in the last model found."""
        model = self._solver.get_model()
        return [model[v - 1] > 0 for v in variables]

    def enumerate(
        self, variables: Sequence[int], limit: int, deadline: Deadline | None = None
    ) -> list[list[bool]]:
        """Up to `limit` solutions, pairwise different on `variables` (blocks each one found)."""
        found: list[list[bool]] = []
        while len(found) < limit and self.solve(deadline=deadline):
            values = self.values(variables)
            found.append(values)
            self.add_clause([-v if value else v for v, value in zip(variables, values)])
        return found

    def backbone(
        self, variables: Sequence[int], deadline: Deadline | None = None
    ) -> dict[int, bool] | None:
        """The variables fixed in every solution, with their values; None if unsatisfiable.

        Finds a model, then repeatedly asks for a model that flips at least one of the
        candidates still believed fixed (guarded by a fresh selector so the solver stays
        reusable); each answer removes the flipped ones, an UNSAT answer proves the rest.
        """
        if not self.solve(deadline=deadline):
            return None
        candidates = dict(zip(variables, self.values(variables)))
        while candidates:
            selector = self.new_var()
            self.add_clause([-selector, *(-v if val else v for v, val in candidates.items())])
            satisfiable = self.solve([selector], deadline=deadline)
            now = self.values(list(candidates)) if satisfiable else []
            self.add_clause([-selector])  # retire the selector (after reading the model)
            if not satisfiable:
                break
            for v, value in zip(list(candidates), now):
                if value != candidates[v]:
                    del candidates[v]
        return candidates

    def statistics(self) -> dict[str, int]:
        stats = self._solver.accum_stats() or {}
        return {key: int(stats.get(key, 0)) for key in ("decisions", "conflicts", "propagations")}
