"""Background jobs that a client starts, polls and may cancel (`/api/jobs`).

Each job runs in a thread of its own, which waits for a worker process (`jobs`); cancelling
sets the job's flag, and the waiting thread then kills the worker. Finished jobs are kept
(the last `KEEP`) so that a client can still read their result.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from pencilbox.core.timing import TimeLimitReached
from pencilbox.web.jobs import Cancelled, NoWorker

State = Literal["running", "done", "cancelled", "failed", "timeout"]
Work = Callable[[threading.Event], tuple[State, Any]]
"""A job's work: given its cancel flag, the final state and the result's JSON."""

KEEP = 100
"""Finished jobs kept for GET."""

log = logging.getLogger(__name__)


@dataclass
class Job:
    id: int
    kind: str
    started: float = field(default_factory=time.monotonic)
    cancel: threading.Event = field(default_factory=threading.Event)
    state: State = "running"
    result: Any = None
    error: str | None = None
    finished: float | None = None

    def to_json(self) -> dict[str, Any]:
        elapsed = (self.finished or time.monotonic()) - self.started
        body: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "state": self.state,
            "elapsed_s": round(elapsed, 3),
        }
        if self.result is not None:
            body["result"] = self.result
        if self.error is not None:
            body["error"] = self.error
        return body


class Board:
    def __init__(self, keep: int = KEEP) -> None:
        self.keep = keep
        self._jobs: OrderedDict[int, Job] = OrderedDict()
        self._lock = threading.Lock()
        self._last_id = 0

    def start(self, kind: str, work: Work, on_end: Callable[[], None]) -> Job:
        """Run `work` in a new thread; `on_end` runs when it is over, however it ends."""
        with self._lock:
            self._last_id += 1
            job = Job(self._last_id, kind)
            self._jobs[job.id] = job
            self._forget_old()
        threading.Thread(
            target=self._run, args=(job, work, on_end), name=f"job-{job.id}", daemon=True
        ).start()
        return job

    def get(self, job_id: int) -> Job | None:
        with self._lock:
            return self._jobs.get(job_id)

    def cancel(self, job_id: int) -> Job | None:
        """Mark a running job cancelled at once (its worker dies within `jobs.POLL_S`)."""
        with self._lock:
            job = self._jobs.get(job_id)
            if job is not None and job.state == "running":
                job.cancel.set()
                job.state = "cancelled"
                job.finished = time.monotonic()
            return job

    def _run(self, job: Job, work: Work, on_end: Callable[[], None]) -> None:
        result: Any = None
        error: str | None = None
        try:
            state, result = work(job.cancel)
        except Cancelled:
            state = "cancelled"
        except TimeLimitReached:
            state, error = "timeout", "no answer within the time limit"
        except NoWorker as busy:
            state, error = "timeout", str(busy)
        except Exception as problem:
            state, error = "failed", _message(problem)
            if not _expected(problem):
                log.exception("job %d (%s) failed", job.id, job.kind)
        finally:
            on_end()
        with self._lock:
            if job.state == "running":  # a cancelled job stays cancelled
                job.state, job.result, job.error = state, result, error
                job.finished = time.monotonic()

    def _forget_old(self) -> None:
        finished = [i for i, job in self._jobs.items() if job.state != "running"]
        for job_id in finished[: max(0, len(finished) - self.keep)]:
            del self._jobs[job_id]


def _message(problem: Exception) -> str:
    text = getattr(problem, "message", None) or str(problem)
    return str(text) or type(problem).__name__


def _expected(problem: Exception) -> bool:
    """Errors about the input (bad options, unknown genre) are answers, not server faults."""
    from pencilbox.errors import PuzzleError

    return isinstance(problem, PuzzleError) or hasattr(problem, "status")
