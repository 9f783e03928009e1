"""Long work (solves, traces, grades, generation) in worker processes, so the server process
stays responsive and any job can be stopped.

Solvers are pure Python and hold the GIL: run in the server's threads they slow every other
request. Each worker is a process of its own, joined to the server by a pipe: a job sends
(function, arguments) down and waits for the answer; a streaming job also receives items (the
steps of a trace) as the worker finds them. At most `WORKERS` jobs run at once, the others wait
for a worker. A job's time limit counts from its request, the wait for a worker included: the
worker gets what is left, and a job that finds no free worker before its deadline raises
`NoWorker` (the web app answers 503 with Retry-After). Stopping a job (its caller cancels, or
it runs `GRACE_S` past its time limit)
kills its worker and starts a fresh one; the other workers go on undisturbed. Workers run at
a lower CPU priority (nice 10), so that on a busy machine the server's short requests come
first, and they end when the server does. A puzzle that cannot be sent to another process (not
picklable), or a machine where worker processes cannot start, runs the job in the calling
thread instead (not cancellable then).

Measured on 2 busy cores: p95 of /api/health was 868 ms with 10 solves in threads, 29 ms with
them in worker processes.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from pencilbox.core.step import Step
from pencilbox.core.timing import Deadline, TimeLimitReached
from pencilbox.errors import PuzzleError
from pencilbox.genres import base
from pencilbox.genres.base import SolveResult

WORKERS = max(1, min(4, os.cpu_count() or 1))
GRACE_S = 3.0
"""How long past its time limit a job may take before its worker is killed (the solvers stop
within a fraction of a second of their limit; this is for the ones that cannot)."""
POLL_S = 0.05
"""How often a waiting job looks at its cancel flag."""

Emit = Callable[[Any], None]


class Cancelled(Exception):
    """The caller stopped the job (its worker was killed)."""


class WorkerLost(Exception):
    """The worker process died without answering (killed from outside, out of memory)."""


class NoWorker(Exception):
    """No worker was free before the job's deadline: the server is busy."""

    def __init__(self) -> None:
        super().__init__(
            "no solver was free within the time limit (the server is busy): try again soon"
        )


# -- the worker side --------------------------------------------------------------------------
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


def _serve(pipe: Connection) -> None:
    """A worker's life: run the tasks that come down the pipe, one at a time."""
    _start_worker()
    import pencilbox  # noqa: F401  (registers the genres)

    while True:
        try:
            function, args, streaming = pipe.recv()
        except (EOFError, OSError):
            return
        pipe.send_bytes(_answer(pipe, function, args, streaming))


def _answer(pipe: Connection, function: Any, args: tuple[Any, ...], streaming: bool) -> bytes:
    def emit(item: Any) -> None:
        pipe.send(("item", item))

    try:
        value = function(*args, emit) if streaming else function(*args)
        return pickle.dumps(("result", value))
    except Exception as error:
        return _error_message(error)


def _error_message(error: Exception) -> bytes:
    """The error as it will be raised in the server; one that does not survive pickling
    (keyword-only arguments, unpicklable fields) goes as a RuntimeError with its text."""
    try:
        message = pickle.dumps(("error", error))
        pickle.loads(message)
        return message
    except Exception:
        return pickle.dumps(("error", RuntimeError(f"{type(error).__name__}: {error}")))


# -- the server side --------------------------------------------------------------------------
class _Worker:
    def __init__(self) -> None:
        context = multiprocessing.get_context("spawn")
        self.pipe, there = context.Pipe()
        self.process = context.Process(
            target=_serve, args=(there,), daemon=True, name="pencilbox-worker"
        )
        self.process.start()
        there.close()

    def kill(self) -> None:
        self.process.kill()
        self.process.join(timeout=5)
        self.pipe.close()


class _Pool:
    """Up to `size` workers; a job takes an idle one (or starts one) and gives it back."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._slots = threading.Semaphore(size)
        self._idle: list[_Worker] = []
        self._busy = 0
        self._lock = threading.Lock()

    def run(
        self,
        function: Callable[..., Any],
        args: tuple[Any, ...],
        deadline: Deadline,
        cancel: threading.Event | None,
        emit: Emit | None,
    ) -> Any:
        """Wait for a worker (until the deadline), then run `function(*args, seconds_left)`
        there (with `emit` last when given) and return its answer."""
        self._wait_for_slot(cancel, deadline)
        try:
            left = deadline.remaining() or 0.0
            if left <= 0:
                raise NoWorker
            call = (*args, left)
            try:
                task = pickle.dumps((function, call, emit is not None))
                worker = self._take()
            except (pickle.PicklingError, TypeError, AttributeError, OSError):
                # not picklable, or processes cannot start here: run in this thread
                return _run_here(function, call, emit)
            try:
                worker.pipe.send_bytes(task)
                kind, payload = _receive(worker, left + GRACE_S, cancel, emit)
            except BaseException:
                self._discard(worker)
                raise
            self._give_back(worker)
        finally:
            self._slots.release()
        if kind == "error":
            raise payload
        return payload

    def _wait_for_slot(self, cancel: threading.Event | None, deadline: Deadline) -> None:
        while not self._slots.acquire(timeout=POLL_S):
            if cancel is not None and cancel.is_set():
                raise Cancelled
            if deadline.expired():
                raise NoWorker

    def _take(self) -> _Worker:
        with self._lock:
            self._busy += 1
            while self._idle:
                worker = self._idle.pop()
                if worker.process.is_alive():
                    return worker
                worker.pipe.close()
        try:
            return _Worker()
        except BaseException:
            with self._lock:
                self._busy -= 1
            raise

    def _give_back(self, worker: _Worker) -> None:
        with self._lock:
            self._busy -= 1
            self._idle.append(worker)

    def _discard(self, worker: _Worker) -> None:
        """Kill a worker whose job was stopped, and start its successor at once, so that the
        next job does not wait for a Python process to start."""
        worker.kill()
        with self._lock:
            self._busy -= 1
        self.fill()

    def fill(self) -> None:
        """Start workers until there are `size` of them."""
        with self._lock:
            missing = self.size - self._busy - len(self._idle)
        for _ in range(missing):
            try:
                fresh = _Worker()
            except (OSError, RuntimeError):  # processes cannot start here: jobs run in-thread
                return
            with self._lock:
                self._idle.append(fresh)

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for worker in idle:
            worker.kill()


def _receive(
    worker: _Worker, timeout: float, cancel: threading.Event | None, emit: Emit | None
) -> tuple[str, Any]:
    """Wait for the answer, handing on items as they come; stop at cancel or timeout."""
    end = time.monotonic() + timeout
    while True:
        if cancel is not None and cancel.is_set():
            raise Cancelled
        left = end - time.monotonic()
        if left <= 0:
            raise TimeLimitReached
        if not worker.pipe.poll(min(POLL_S, left)):
            continue
        try:
            kind, payload = worker.pipe.recv()
        except (EOFError, OSError):
            raise WorkerLost("the solver worker stopped without an answer") from None
        if kind != "item":
            return kind, payload
        if emit is not None:
            emit(payload)


_pool = _Pool(WORKERS)


def _run(
    function: Callable[..., Any],
    args: tuple[Any, ...],
    deadline: Deadline,
    cancel: threading.Event | None = None,
    emit: Emit | None = None,
) -> Any:
    """Run `function(*args, seconds_left)` (with `emit` last when given) in a worker."""
    return _pool.run(function, args, deadline, cancel, emit)


def _run_here(function: Callable[..., Any], args: tuple[Any, ...], emit: Emit | None) -> Any:
    return function(*args, emit) if emit is not None else function(*args)


def prewarm() -> None:
    """Start the workers now, so that the first job does not wait for Python to start."""
    _pool.fill()


def shutdown() -> None:
    """Stop the idle workers (running jobs end with their own workers)."""
    _pool.close()


# -- the jobs ---------------------------------------------------------------------------------
def _solve(puzzle: Any, time_limit: float) -> SolveResult:
    result: SolveResult = puzzle.solve(limit=2, time_limit=time_limit)
    return result


def solve(puzzle: Any, deadline: Deadline, cancel: threading.Event | None = None) -> SolveResult:
    result: SolveResult = _run(_solve, (puzzle,), deadline, cancel)
    return result


@dataclass
class Trace:
    steps: list[Step]
    complete: bool
    """False when the time limit cut the trace short."""


class _Forwarding(list[Step]):
    """A list that sends every step appended to it on at once (to the server)."""

    def __init__(self, emit: Emit) -> None:
        super().__init__()
        self.emit = emit

    def append(self, step: Step) -> None:
        super().append(step)
        self.emit(step)

    def extend(self, steps: Any) -> None:
        for step in steps:
            self.append(step)


def _stream_steps(puzzle: Any, time_limit: float, emit: Emit) -> bool:
    """Emit the puzzle's steps; True when the trace is whole. A genre whose trace can hand
    each step over as it is found says so (`Genre.stream_steps`); the others return the whole
    list, emitted when it is ready. A trace cut by its time limit ends quietly, so its own
    deadline tells."""
    deadline = Deadline(time_limit)
    try:
        streaming = base.get(puzzle.genre).stream_steps
    except PuzzleError:  # a genre this worker does not know: its puzzle still has steps()
        streaming = None
    if streaming is not None:
        streaming(puzzle, time_limit, _Forwarding(emit))
    else:
        for step in puzzle.steps(time_limit=time_limit):
            emit(step)
    return not deadline.expired()


def trace(
    puzzle: Any,
    deadline: Deadline,
    cancel: threading.Event | None = None,
    on_step: Emit | None = None,
) -> Trace:
    """The steps, each handed to `on_step` as soon as it arrives. A trace that its worker had
    to be stopped for (past the grace time) comes back incomplete, or raises
    TimeLimitReached when no step came at all."""
    steps: list[Step] = []

    def collect(step: Step) -> None:
        steps.append(step)
        if on_step is not None:
            on_step(step)

    try:
        complete = bool(_run(_stream_steps, (puzzle,), deadline, cancel, collect))
    except TimeLimitReached:
        if not steps:
            raise
        complete = False
    return Trace(steps, complete)


def _grade_report(puzzle: Any, time_limit: float) -> dict[str, Any]:
    report: dict[str, Any] = puzzle.grade_report()
    return report


def grade_report(
    puzzle: Any, deadline: Deadline, cancel: threading.Event | None = None
) -> dict[str, Any]:
    """The genre's logical grade (level, score, hardest technique). Graders take no time
    limit, so the worker is stopped when it has had its time (and the grace)."""
    report: dict[str, Any] = _run(_grade_report, (puzzle,), deadline, cancel)
    return report


def _generate(
    genre: str, options: dict[str, Any], time_limit: float | None = None
) -> dict[str, Any]:
    """Run the generator of a genre registered in this process (see `_made`)."""
    import pencilbox  # noqa: F401  (registers the genres in a fresh worker)

    generator, format = _generator(genre)
    return _made(generator, format, options)


def _generator(genre: str) -> tuple[Callable[..., dict[str, Any]], str]:
    """The genre's generator and the notation its puzzles travel in."""
    chosen = base.get(genre)
    if chosen.generate is None:
        raise PuzzleError(f"the {chosen.name} genre has no generator yet")
    return chosen.generate, chosen.formats[0]


def _made(
    generator: Callable[..., dict[str, Any]],
    format: str,
    options: dict[str, Any],
    time_limit: float | None = None,
) -> dict[str, Any]:
    """Run a generator; the puzzle comes back as text in the genre's first notation. The
    worker is given the generator itself, not the genre's name, so that it needs no registry:
    a genre registered only in the server (a plug-in, a test's) generates there too."""
    made = generator(**options)
    puzzle = made["puzzle"]
    info = {
        k: v
        for k, v in made.items()
        if k != "puzzle" and isinstance(v, str | int | float | bool | type(None))
    }
    return {"genre": puzzle.genre, "text": puzzle.to(format), "format": format, "info": info}


def generate(
    genre: str,
    options: dict[str, Any],
    deadline: Deadline,
    cancel: threading.Event | None = None,
) -> dict[str, Any]:
    generator, format = _generator(genre)
    args = (generator, format, options)
    made: dict[str, Any] = _run(_made, args, deadline, cancel)
    return made
