"""Where the chunks run: a local pool of processes, or a Dask cluster.

Both take a job and its chunks and yield each chunk's records as the chunk finishes (in any
order: the records say which item they are about). Both survive a worker that dies: the local
pool starts new processes and runs the lost chunks again (alone, so that a chunk that kills its
worker every time is found and ends as error records instead of killing the batch); Dask's
scheduler gives a dead worker's tasks to the others.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections import deque
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

from pencilbox.batch.work import Item, Job, error_record, run_chunk, warm
from pencilbox.errors import PuzzleError
from pencilbox.inputs import describe

Chunk = Sequence[Item]
MAX_LONE_FAILURES = 2
"""A chunk whose worker dies this many times while it runs alone becomes error records."""


class Executor(Protocol):
    workers: int

    def run(self, job: Job, chunks: Sequence[Chunk]) -> Iterator[list[dict[str, Any]]]: ...

    def close(self) -> None: ...


def failed_chunk(job: Job, chunk: Chunk, message: str) -> list[dict[str, Any]]:
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

    def run(self, job: Job, chunks: Sequence[Chunk]) -> Iterator[list[dict[str, Any]]]:
        waiting = deque(range(len(chunks)))
        suspects: deque[int] = deque()  # chunks in flight when a worker died: run alone
        lone_failures: dict[int, int] = {}
        running: dict[Future[list[dict[str, Any]]], int] = {}
        pool = self._start()
        while waiting or suspects or running:
            broken = False
            if suspects and not running:
                index = suspects.popleft()
                if not self._submit(pool, running, job, chunks, index):
                    suspects.appendleft(index)
                    broken = True
            while not broken and waiting and not suspects and len(running) < 2 * self.workers:
                index = waiting.popleft()
                if not self._submit(pool, running, job, chunks, index):
                    waiting.appendleft(index)
                    broken = True
            if not broken:
                alone = len(running) == 1
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    index = running.pop(future)
                    try:
                        yield future.result()
                    except BrokenProcessPool:
                        broken = True
                        if alone:
                            lone_failures[index] = lone_failures.get(index, 0) + 1
                        if lone_failures.get(index, 0) >= MAX_LONE_FAILURES:
                            message = f"the worker process died {MAX_LONE_FAILURES} times on it"
                            yield failed_chunk(job, chunks[index], message)
                        else:
                            suspects.append(index)
                    except Exception as error:
                        message = f"internal error: {describe(error)}"
                        yield failed_chunk(job, chunks[index], message)
            if broken:
                suspects.extend(running.values())
                running.clear()
                self._stop()
                pool = self._start()

    @staticmethod
    def _submit(
        pool: ProcessPoolExecutor,
        running: dict[Future[list[dict[str, Any]]], int],
        job: Job,
        chunks: Sequence[Chunk],
        index: int,
    ) -> bool:
        """Hand a chunk to the pool; False when the pool has just lost a worker."""
        try:
            running[pool.submit(run_chunk, job, chunks[index])] = index
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
            self._client: Any = dask.Client(address, timeout="10s")
        except (OSError, TimeoutError, ValueError) as error:
            self.close()
            raise PuzzleError(
                f"cannot reach the Dask scheduler at {scheduler!r}: {describe(error)}"
            ) from None
        self.workers = max(1, len(self._client.scheduler_info().get("workers", {})))
        self._client.run(warm)  # each worker imports pencilbox now, not during the first task

    def run(self, job: Job, chunks: Sequence[Chunk]) -> Iterator[list[dict[str, Any]]]:
        as_completed = _distributed().as_completed
        futures = [self._client.submit(run_chunk, job, chunk, pure=False) for chunk in chunks]
        index = {future.key: number for number, future in enumerate(futures)}
        try:
            for future in as_completed(futures):
                try:
                    yield future.result()
                except Exception as error:  # KilledWorker after repeated deaths, or a bug
                    message = f"the cluster could not run it: {describe(error)}"
                    yield failed_chunk(job, chunks[index[future.key]], message)
                future.release()
        finally:
            self._client.cancel([future for future in futures if not future.done()])

    def close(self) -> None:
        client = getattr(self, "_client", None)
        if client is not None:
            client.close()
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None


def _distributed() -> Any:
    """Dask's distributed module (untyped, hence Any), an optional extra."""
    import importlib

    return importlib.import_module("distributed")


def executor_for(workers: int | None, scheduler: str | None) -> Executor:
    if scheduler:
        return DaskCluster(scheduler)
    return LocalPool(workers or multiprocessing.cpu_count())
