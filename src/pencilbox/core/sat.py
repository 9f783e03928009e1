"""A small interface over python-sat's CaDiCaL, the search back end of every genre.

Genres encode their rules as clauses over integer variables and ask three questions:
  - `solve`: is there a solution (under some assumptions)?
  - `enumerate`: up to k solutions that differ on the given variables (solve, block, repeat);
  - `backbone`: which of the given variables take the same value in every solution.
CaDiCaL learns a clause from each dead end, which is what removes the hour-long tails of plain
depth-first backtracking on hard puzzles.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import signal
import sys
import threading
import time
from collections.abc import Iterable, Sequence
from typing import Any

from pysat.solvers import Solver

from pencilbox.core.timing import Deadline, TimeLimitReached

SOLVER_NAME = "cadical195"


class _Alarm:
    """A POSIX timer that raises SIGINT in this process after `seconds`, unless left first.

    The timer is the kernel's (timer_create via ctypes), so it fires even while CaDiCaL holds
    the GIL; a Python thread could not. Where the call is not available, there is no alarm.
    """

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._end = 0.0
        self._timer: ctypes.c_void_p | None = None
        self._previous: Any = None

    def __enter__(self) -> None:
        self._end = time.monotonic() + self.seconds
        # Between CaDiCaL calls Python's own handler sees the signal: ours tells the alarm
        # from a Ctrl-C, so a late alarm can never pass for the user's interrupt.
        self._previous = signal.signal(signal.SIGINT, self._on_sigint)
        if _LIBC is None:
            return
        event = _SigEvent(None, signal.SIGINT, _SIGEV_SIGNAL)
        timer = ctypes.c_void_p()
        if _LIBC.timer_create(_CLOCK_MONOTONIC, ctypes.byref(event), ctypes.byref(timer)) != 0:
            return
        whole = int(self.seconds)
        nanos = max(1, int((self.seconds - whole) * 1e9))
        # It keeps ringing every 50 ms: a ring that lands just before CaDiCaL installs its
        # own SIGINT handler is taken by Python's (and only raises after the search), so
        # the next ring is what stops the search.
        spec = _ITimerSpec(_TimeSpec(0, 50_000_000), _TimeSpec(whole, nanos))
        _LIBC.timer_settime(timer, 0, ctypes.byref(spec), None)
        self._timer = timer

    def _on_sigint(self, signum: int, frame: object) -> None:
        # Rings of our own timer that land outside CaDiCaL are dropped (the search that
        # follows is stopped by the next ring); before the deadline, it was the user's Ctrl-C.
        if not self.fired:
            raise KeyboardInterrupt

    @property
    def fired(self) -> bool:
        return time.monotonic() >= self._end

    def __exit__(self, *exc: object) -> None:
        if self._timer is not None and _LIBC is not None:
            _LIBC.timer_delete(self._timer)
            self._timer = None
        signal.signal(signal.SIGINT, self._previous)


class _TimeSpec(ctypes.Structure):
    _fields_ = [("sec", ctypes.c_long), ("nsec", ctypes.c_long)]


class _ITimerSpec(ctypes.Structure):
    _fields_ = [("interval", _TimeSpec), ("value", _TimeSpec)]


class _SigEvent(ctypes.Structure):
    _fields_ = [
        ("value", ctypes.c_void_p),
        ("signo", ctypes.c_int),
        ("notify", ctypes.c_int),
        ("pad", ctypes.c_int * 12),
    ]


_CLOCK_MONOTONIC = 1
_SIGEV_SIGNAL = 0


def _load_libc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.timer_create  # noqa: B018  (probe that the symbol exists)
    except (OSError, AttributeError):
        return None
    return libc


_LIBC = _load_libc()


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

        python-sat's CaDiCaL cannot be interrupted from another thread, but it does stop
        cleanly on SIGINT (Ctrl-C). So a time limit is a timer that sends SIGINT to this
        process; the flag it sets tells our own signal from the user's Ctrl-C. Signals only
        reach the main thread: elsewhere the call runs to the end.
        """
        self.calls += 1
        remaining = deadline.remaining() if deadline else None
        if remaining is not None and remaining <= 0:
            raise TimeLimitReached
        timed = remaining is not None and threading.current_thread() is threading.main_thread()
        if not timed:
            return self.solve_untimed(assumptions)
        alarm = _Alarm(remaining or 0.0)
        try:
            with alarm:
                return self.solve_untimed(assumptions)
        except KeyboardInterrupt:
            if alarm.fired:
                raise TimeLimitReached from None
            raise

    def solve_untimed(self, assumptions: Sequence[int]) -> bool:
        """`solve` without a deadline and its checks, for hot loops (Ctrl-C still works)."""
        try:
            answer = self._solver.solve(assumptions=list(assumptions))
        except Exception as error:  # pysat reports SIGINT as its own `pysolvers.error`
            if "keyboard interrupt" in str(error).lower():
                # pysat leaves its signal handler with longjmp, which does not restore the
                # signal mask: SIGINT would stay blocked for the rest of the process (and in
                # every child), so the next time limit or Ctrl-C would never arrive.
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
                raise KeyboardInterrupt from None
            raise
        if answer is None:  # stopped without an answer: never mistake that for UNSAT
            raise KeyboardInterrupt
        return bool(answer)

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
