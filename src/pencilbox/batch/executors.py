"""Where the chunks run: a local pool of processes, or a Dask cluster.

Both take a job and a Chunker, run the chunks it hands out (a few at a time, so that its sizes
follow the times reported back) and yield each chunk's records as the chunk finishes (in any
order: the records say which item they are about). Both survive a worker that dies: the local
pool starts new processes and runs the lost chunks again (alone, so that a chunk that kills its
worker every time is found and ends as error records instead of killing the batch); Dask's
scheduler gives a dead worker's tasks to the others.
"""

from __future__ import annotations

import multiprocessing
import pickle
import signal
from collections import Counter, deque
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

from pencilbox.batch.chunks import Chunker
from pencilbox.batch.work import Item, Job, error_record, pack, run_chunk, run_packed, warm
from pencilbox.errors import PuzzleError
from pencilbox.inputs import describe

Chunk = Sequence[Item]
Records = list[dict[str, Any]]
MAX_LONE_FAILURES = 2
"""A chunk whose worker dies this many times while it runs alone becomes error records."""


class Executor(Protocol):
    workers: int

    def start(self) -> None:
        """Have every worker up with pencilbox imported (the start-up, timed apart)."""

    def run(self, job: Job, chunker: Chunker) -> Iterator[Records]:
        """The records of every chunk the chunker hands out, each as it finishes."""
        ...

    def close(self) -> None: ...


def failed_chunk(job: Job, chunk: Chunk, message: str) -> Records:
    return [error_record(job, item, message) for item in chunk]


# -- the local pool ---------------------------------------------------------------------------
def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the command, which stops them itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class LocalPool:
    """`workers` processes on this machine. Chunks are handed out a few at a time, so that a
    dead worker costs only the chunks in flight."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        # forkserver: workers start from a clean process with pencilbox imported once, not as
        # copies of this one (whose progress-bar thread may hold a lock at the fork).
        self._context = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload(["pencilbox.batch.work"])
        self._pool: ProcessPoolExecutor | None = None

    def _start(self) -> ProcessPoolExecutor:
        self._pool = ProcessPoolExecutor(
            self.workers, mp_context=self._context, initializer=_ignore_interrupts
        )
        return self._pool

    def start(self) -> None:
        pool = self._pool or self._start()
        # One task each: the pool starts a process per task while none is idle.
        for future in [pool.submit(warm) for _ in range(self.workers)]:
            future.result()

    def run(self, job: Job, chunker: Chunker) -> Iterator[Records]:
        waiting: deque[Chunk] = deque()  # taken, not yet accepted by a pool
        suspects: deque[Chunk] = deque()  # chunks in flight when a worker died: run alone
        lone_failures: Counter[int] = Counter()
        running: dict[Future[tuple[Records, float]], Chunk] = {}
        pool = self._pool or self._start()
        while True:
            broken = False
            if suspects and not running:
                chunk = suspects.popleft()
                if not self._submit(pool, running, job, chunk):
                    suspects.appendleft(chunk)
                    broken = True
            while not broken and not suspects and len(running) < 2 * self.workers:
                taken = waiting.popleft() if waiting else chunker.take()
                if taken is None:
                    break
                if not self._submit(pool, running, job, taken):
                    waiting.appendleft(taken)
                    broken = True
            if not broken:
                if not running:
                    return
                alone = len(running) == 1
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    chunk = running.pop(future)
                    try:
                        records, seconds = future.result()
                    except BrokenProcessPool:
                        broken = True
                        lone_failures[id(chunk)] += int(alone)
                        if lone_failures[id(chunk)] < MAX_LONE_FAILURES:
                            suspects.append(chunk)
                            continue
                        chunker.finished(chunk, None)
                        message = f"the worker process died {MAX_LONE_FAILURES} times on it"
                        yield failed_chunk(job, chunk, message)
                    except Exception as error:
                        chunker.finished(chunk, None)
                        yield failed_chunk(job, chunk, f"internal error: {describe(error)}")
                    else:
                        chunker.finished(chunk, seconds)
                        yield records
            if broken:
                suspects.extend(running.values())
                running.clear()
                self._stop()
                pool = self._start()

    @staticmethod
    def _submit(
        pool: ProcessPoolExecutor,
        running: dict[Future[tuple[Records, float]], Chunk],
        job: Job,
        chunk: Chunk,
    ) -> bool:
        """Hand a chunk to the pool; False when the pool has just lost a worker."""
        try:
            running[pool.submit(run_chunk, job, chunk)] = chunk
        except BrokenProcessPool:
            return False
        return True

    def _stop(self) -> None:
        if self._pool is None:
            return
        # The pool's own processes (not public API, hence getattr): a worker busy with a long
        # puzzle would otherwise go on after Ctrl-C until its chunk ends.
        for process in (getattr(self._pool, "_processes", None) or {}).values():
            process.kill()
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._pool = None

    def close(self) -> None:
        self._stop()


# -- Dask -------------------------------------------------------------------------------------
QUIET = {
    # The worker's statistical profiler: every 10 ms its event loop takes the GIL from the
    # task's thread to walk that thread's stack.
    "distributed.worker.profile.enabled": False,
    # The event loop's health check, every 20 ms in every worker, nanny and the scheduler.
    "distributed.admin.tick.interval": "1s",
    # CPU, memory and network figures for the dashboard (which local:N does not serve).
    "distributed.admin.system-monitor.interval": "5s",
    # The pause and terminate thresholds are checked every second, not ten times a second.
    "distributed.worker.memory.monitor-interval": "1s",
}
"""Dask settings for a local:N cluster (its scheduler, nannies and workers): the periodic
work a Dask process does besides the tasks. With Dask's defaults an idle worker took 3.6% of
a core and the command (scheduler and nannies) 4.5%; with these, 0.4% and 0.9%. On two
cores, during a batch, that CPU was taken from the workers. For `dask worker` processes of
a cluster elsewhere, the README gives the same as DASK_ environment variables."""


class DaskCluster:
    """A Dask distributed cluster: `tcp://HOST:PORT` (a running `dask scheduler`) or `local:N`
    (a LocalCluster of N worker processes on this machine)."""

    def __init__(self, scheduler: str) -> None:
        try:
            dask = _distributed()
        except ImportError:
            raise PuzzleError(
                "--scheduler needs Dask distributed: pip install 'pencilbox[cluster]'"
            ) from None
        import logging

        logging.getLogger("distributed").setLevel(logging.ERROR)
        self._cluster: Any = None
        if scheduler.startswith("local:"):
            count = scheduler.removeprefix("local:")
            if not (count.isascii() and count.isdigit() and 1 <= int(count) <= 1024):
                raise PuzzleError(f"--scheduler {scheduler!r}: local:N needs N from 1 to 1024")
            # Each nanny hands the configuration as it is now to its worker process.
            with _dask_config().set(QUIET):
                self._cluster = dask.LocalCluster(
                    n_workers=int(count),
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=logging.CRITICAL,
                )
            address = self._cluster.scheduler_address
        else:
            address = scheduler
        try:
            # Given the cluster itself, the client runs on the cluster's event-loop thread
            # (given its address, on a thread of its own: every message between client and
            # scheduler then passed the GIL from one thread to the other).
            target = self._cluster if self._cluster is not None else address
            self._client: Any = dask.Client(target, timeout="10s")
        except (OSError, TimeoutError, ValueError) as error:
            self.close()
            raise PuzzleError(
                f"cannot reach the Dask scheduler at {scheduler!r}: {describe(error)}"
            ) from None
        self.workers = max(1, len(self._client.scheduler_info().get("workers", {})))

    def start(self) -> None:
        self._client.run(warm)  # each worker imports pencilbox now, not during the first task

    def run(self, job: Job, chunker: Chunker) -> Iterator[Records]:
        # with_results: the answer is fetched on the client's event loop as soon as the task
        # is reported finished (the scheduler asks the worker for it and passes it on), not
        # here; an error comes as the answer, not raised here. Fetching it straight from the
        # worker (direct_to_workers) made no difference: the command's CPU for 100,000
        # sudokus, 4 paired runs, 2.20 s through the scheduler, 2.14 s direct.
        finished = _distributed().as_completed(with_results=True, raise_errors=False)
        pending: dict[str, tuple[Any, Chunk]] = {}

        def submit() -> None:  # two chunks a worker: one running, the next already there
            while len(pending) < 2 * self.workers:
                chunk = chunker.take()
                if chunk is None:
                    return
                future = self._client.submit(run_packed, pack(job, chunk), pure=False)
                pending[future.key] = (future, chunk)
                finished.add(future)

        try:
            submit()
            for future, answer in finished:
                _, chunk = pending.pop(future.key)
                if isinstance(answer, bytes):
                    records, seconds = pickle.loads(answer)
                    chunker.finished(chunk, seconds)
                    yield records
                else:  # KilledWorker after repeated deaths, or a bug
                    chunker.finished(chunk, None)
                    message = f"the cluster could not run it: {describe(_error(answer))}"
                    yield failed_chunk(job, chunk, message)
                future.release()
                submit()
        finally:
            self._client.cancel([future for future, _ in pending.values()])

    def close(self) -> None:
        client = getattr(self, "_client", None)
        if client is not None:
            client.close()
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None


def _error(answer: Any) -> BaseException:
    """The exception in a failed task's answer: as_completed gives (type, exception, traceback)
    or, in some versions, the exception itself."""
    if isinstance(answer, BaseException):
        return answer
    if isinstance(answer, tuple) and len(answer) > 1 and isinstance(answer[1], BaseException):
        return answer[1]
    return RuntimeError(repr(answer))


def _distributed() -> Any:
    """Dask's distributed module (untyped, hence Any), an optional extra."""
    import importlib

    return importlib.import_module("distributed")


def _dask_config() -> Any:
    """dask.config, once distributed has added its defaults (a key first seen inside
    dask.config.set would be removed again, defaults and all, when the block ends)."""
    import importlib

    _distributed()
    return importlib.import_module("dask.config")


def executor_for(workers: int | None, scheduler: str | None) -> Executor:
    if scheduler:
        return DaskCluster(scheduler)
    return LocalPool(workers or multiprocessing.cpu_count())
