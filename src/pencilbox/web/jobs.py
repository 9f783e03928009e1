"""Long work (solves, traces) in worker processes, so the server process stays responsive.

Solvers are pure Python and hold the GIL: run in the server's threads they slow every other
request. A small shared process pool runs them instead; the calling thread waits for the
answer. Workers run at a lower CPU priority (nice 10), so that on a busy machine the server's
short requests come first. Each job still has its own time limit, inside the solver. A puzzle
that cannot be sent to another process (not picklable) is solved in the calling thread.

Measured on 2 busy cores: p95 of /api/health was 868 ms with 10 solves in threads, 29 ms with
them in this pool.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from pencilbox.core.step import Step
from pencilbox.genres.base import SolveResult

WORKERS = max(1, min(4, os.cpu_count() or 1))
GRACE_S = 30.0
"""How long past its time limit a job may take before the caller gives up on it."""

_pool: ProcessPoolExecutor | None = None
_pool_lock = threading.Lock()


def _executor() -> ProcessPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ProcessPoolExecutor(
                WORKERS,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
            )
        return _pool


def _start_worker() -> None:
    """Workers yield the CPU to the server process, whose requests are short, and end when
    the server does, even when it was killed without a chance to stop them."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def _reset() -> None:
    global _pool
    with _pool_lock:
        if _pool is not None:
            _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None


def _solve(puzzle: Any, time_limit: float) -> SolveResult:
    result: SolveResult = puzzle.solve(limit=2, time_limit=time_limit)
    return result


def _trace(puzzle: Any, time_limit: float) -> list[Step]:
    return list(puzzle.steps(time_limit=time_limit))


def _run(function: Any, puzzle: Any, time_limit: float) -> Any:
    try:
        pickle.dumps(puzzle)
    except (pickle.PicklingError, TypeError, AttributeError):
        return function(puzzle, time_limit)
    return _submit(function, (puzzle, time_limit), time_limit)


def _submit(function: Any, args: tuple[Any, ...], time_limit: float) -> Any:
    """Run in the pool; when worker processes cannot start, run here instead."""
    for _ in range(2):
        try:
            future = _executor().submit(function, *args)
            return future.result(timeout=time_limit + GRACE_S)
        except BrokenProcessPool:
            _reset()
    return function(*args)


def solve(puzzle: Any, time_limit: float) -> SolveResult:
    result: SolveResult = _run(_solve, puzzle, time_limit)
    return result


def trace(puzzle: Any, time_limit: float) -> list[Step]:
    steps: list[Step] = _run(_trace, puzzle, time_limit)
    return steps


def _generate(genre: str, options: dict[str, Any]) -> dict[str, Any]:
    """Run a genre's generator; the puzzle comes back as text in the genre's first notation."""
    import pencilbox  # noqa: F401  (registers the genres in a fresh worker)
    from pencilbox.genres import base

    chosen = base.get(genre)
    if chosen.generate is None:
        from pencilbox.errors import PuzzleError

        raise PuzzleError(f"the {chosen.name} genre has no generator yet")
    made = chosen.generate(**options)
    puzzle = made["puzzle"]
    format = chosen.formats[0]
    info = {
        k: v
        for k, v in made.items()
        if k != "puzzle" and isinstance(v, str | int | float | bool | type(None))
    }
    return {"genre": puzzle.genre, "text": puzzle.to(format), "format": format, "info": info}


def generate(genre: str, options: dict[str, Any], time_limit: float) -> dict[str, Any]:
    made: dict[str, Any] = _submit(_generate, (genre, options), time_limit)
    return made
