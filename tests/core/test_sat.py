from __future__ import annotations

import itertools
import signal
import time

import pytest

from pencilbox.core.sat import SatSolver
from pencilbox.core.timing import Deadline, TimeLimitReached


def pigeonhole(solver: SatSolver, holes: int) -> None:
    """holes+1 pigeons in `holes` holes: unsatisfiable, and hard for resolution."""
    var = {(p, h): solver.new_var() for p in range(holes + 1) for h in range(holes)}
    for p in range(holes + 1):
        solver.add_clause([var[p, h] for h in range(holes)])
    for h in range(holes):
        for p, q in itertools.combinations(range(holes + 1), 2):
            solver.add_clause([-var[p, h], -var[q, h]])


def test_enumerate_counts_up_to_the_limit() -> None:
    with SatSolver() as solver:
        a, b = solver.new_vars(2)
        solver.add_clause([a, b])  # three models over (a, b)
        assert len(solver.enumerate([a, b], limit=10)) == 3
    with SatSolver() as solver:
        a, b = solver.new_vars(2)
        solver.add_clause([a, b])
        assert len(solver.enumerate([a, b], limit=2)) == 2


def test_backbone_finds_the_fixed_variables() -> None:
    with SatSolver() as solver:
        a, b, c = solver.new_vars(3)
        solver.add_clauses([[a], [b, c], [-a, -b, c]])  # a fixed true; c fixed true
        assert solver.backbone([a, b, c]) == {a: True, c: True}
        # the solver stays usable afterwards and keeps all models
        assert len(solver.enumerate([a, b, c], limit=5)) == 2


def test_backbone_of_an_unsatisfiable_formula_is_none() -> None:
    with SatSolver() as solver:
        a = solver.new_var()
        solver.add_clauses([[a], [-a]])
        assert solver.backbone([a]) is None


def test_time_limit_stops_a_hard_search() -> None:
    with SatSolver() as solver:
        pigeonhole(solver, 11)
        started = time.monotonic()
        with pytest.raises(TimeLimitReached):
            solver.solve(deadline=Deadline(0.5))
        assert time.monotonic() - started < 5
    # and the process can still be interrupted afterwards (SIGINT is not left blocked)
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, [])


def test_time_limits_work_again_and_again() -> None:
    for _ in range(3):
        with SatSolver() as solver:
            pigeonhole(solver, 11)
            started = time.monotonic()
            with pytest.raises(TimeLimitReached):
                solver.solve(deadline=Deadline(0.2))
            assert time.monotonic() - started < 5


STRESS = """
import time
from pencilbox.core.sat import SatSolver
from pencilbox.core.timing import Deadline, TimeLimitReached
from tests.core.test_sat import pigeonhole

stopped = 0
for round in range(40):
    solver = SatSolver()
    pigeonhole(solver, 10)
    try:
        solver.solve(deadline=Deadline(0.03))
    except TimeLimitReached:
        stopped += 1
    solver.close()  # a solver stopped mid-search must free cleanly
print(stopped)
"""


def test_many_time_limited_searches_in_one_process() -> None:
    # Stopping CaDiCaL by a signal once left its heap corrupt ("free(): corrupted unsorted
    # chunks" later on): run many stopped searches in a child and demand a clean exit.
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    run = subprocess.run(
        [sys.executable, "-c", STRESS], capture_output=True, text=True, timeout=900, cwd=root
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert int(run.stdout) == 40


CTRL_C = """
import os, signal, threading, time
from pencilbox.core.sat import SatSolver
from tests.core.test_sat import pigeonhole

stopped, slowest = 0, 0.0
for round in range(25):
    solver = SatSolver()
    pigeonhole(solver, 11)  # hours without a limit
    ready = threading.Event()  # Ctrl-C once the search is under way, never in start()

    def press() -> None:
        ready.wait()
        time.sleep(0.02)
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=press).start()
    started = time.monotonic()
    try:
        ready.set()
        solver.solve_untimed([])
    except KeyboardInterrupt:
        stopped += 1
    slowest = max(slowest, time.monotonic() - started)
    solver.close()
print(stopped, slowest)
"""


def test_ctrl_c_stops_untimed_searches_cleanly() -> None:
    # pysat's own SIGINT handler left CaDiCaL by longjmp: Ctrl-C in an untimed search then
    # died of heap corruption now and then ("free(): invalid pointer"), or hung. Untimed
    # searches run in chunks too, and Ctrl-C is only noted until the chunk returns. (The
    # generous timeout is for a loaded machine; a missed Ctrl-C would run for hours.)
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    run = subprocess.run(
        [sys.executable, "-c", CTRL_C], capture_output=True, text=True, timeout=900, cwd=root
    )
    assert run.returncode == 0, run.stderr[-2000:]
    stopped, slowest = run.stdout.split()
    assert int(stopped) == 25
    assert float(slowest) < 30  # each Ctrl-C ends its search (at the end of a chunk)


def test_cadical_options_reach_the_solver() -> None:
    """`SatSolver(options)` sets CaDiCaL's own settings: with `phase` 0 its decisions try
    false first (lucky search off, so that the decisions show in the model)."""

    def model(options: dict[str, int]) -> list[bool]:
        with SatSolver(options) as solver:
            v = solver.new_vars(4)
            solver.add_clause(v)
            solver.add_clause([-v[0], -v[1]])
            assert solver.solve()
            return solver.values(v)

    assert sum(model({"lucky": 0, "phase": 0})) == 1
    assert sum(model({"lucky": 0, "phase": 1})) == 3
