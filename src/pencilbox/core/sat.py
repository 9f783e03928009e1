"""A small interface over python-sat's CaDiCaL, the search back end of every genre.

Genres encode their rules as clauses over integer variables and ask three questions:
  - `solve`: is there a solution (under some assumptions)?
  - `enumerate`: up to k solutions that differ on the given variables (solve, block, repeat);
  - `backbone`: which of the given variables take the same value in every solution.
CaDiCaL learns a clause from each dead end, which is what removes the hour-long tails of plain
depth-first backtracking on hard puzzles.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Iterable, Sequence
from typing import Any

from pysat.solvers import Solver

from pencilbox.core.timing import Deadline, TimeLimitReached

SOLVER_NAME = "cadical195"


CHUNK_SECONDS = 0.2
"""A timed search runs in chunks of about this long, checking the clock between them."""

FIRST_CHUNK = 5_000
"""Conflicts in the first chunk: most searches of our puzzles end inside it, in one call;
the later chunks are sized by the pace measured on the first."""


class SatSolver:
    def __init__(self) -> None:
        self._solver = Solver(name=SOLVER_NAME)
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
        self._solver.add_clause(list(literals))

    def add_clauses(self, clauses: Iterable[Sequence[int]]) -> None:
        self._solver.append_formula([list(c) for c in clauses])

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
        """True if satisfiable. Raises TimeLimitReached when the deadline passes first.

        python-sat's CaDiCaL cannot be interrupted from another thread, so a timed search runs
        in chunks with a conflict budget and looks at the clock between them; the solver keeps
        what it learned from one chunk to the next. (Stopping it with a SIGINT timer instead
        leaves CaDiCaL through a longjmp in the middle of its work; the process then crashed
        later with heap corruption, seen in a run of many time-limited solves.)
        """
        self.calls += 1
        remaining = deadline.remaining() if deadline else None
        if remaining is None:
            return self.solve_untimed(assumptions)
        if remaining <= 0:
            raise TimeLimitReached
        budget = FIRST_CHUNK
        while True:
            started = time.perf_counter()
            answer = self._call(assumptions, budget)
            if answer is not None:
                return answer
            left = deadline.remaining() if deadline else None
            if left is None or left <= 0:
                raise TimeLimitReached
            # size the next chunk to this search's own pace, and never past the deadline
            pace = budget / max(time.perf_counter() - started, 1e-3)
            budget = max(1_000, int(pace * min(CHUNK_SECONDS, left)))

    def solve_untimed(self, assumptions: Sequence[int]) -> bool:
        """`solve` without a deadline and its checks, for hot loops (Ctrl-C still works)."""
        answer = self._call(assumptions, None)
        if answer is None:  # stopped without an answer: never mistake that for UNSAT
            raise KeyboardInterrupt
        return answer

    def _call(self, assumptions: Sequence[int], budget: int | None) -> bool | None:
        """One CaDiCaL call; None when the conflict budget ran out first."""
        try:
            if budget is None:
                answer = self._solver.solve(assumptions=list(assumptions))
            else:
                self._solver.conf_budget(budget)
                answer = self._solver.solve_limited(assumptions=list(assumptions))
        except Exception as error:  # pysat reports SIGINT (Ctrl-C) as its own `pysolvers.error`
            if "keyboard interrupt" in str(error).lower():
                # pysat leaves its signal handler with longjmp, which does not restore the
                # signal mask: SIGINT would stay blocked for the rest of the process (and in
                # every child), so the next Ctrl-C would never arrive.
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
                raise KeyboardInterrupt from None
            raise
        if answer is None and budget is None:
            raise KeyboardInterrupt
        return None if answer is None else bool(answer)

    def solve_with_propagator(self, propagator: Any, observed: Sequence[int]) -> bool:
        """One untimed call with a python-sat external propagator attached, watching the
        `observed` variables; it is detached afterwards. The propagator keeps its own clock
        (it can end the search with an empty clause), so the call is not cut into chunks:
        each chunk would restart the propagator's view of the trail."""
        self._solver.connect_propagator(propagator)
        for variable in observed:
            self._solver.observe(variable)
        try:
            return self.solve_untimed([])
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
