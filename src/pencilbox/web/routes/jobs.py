"""Background jobs (solve, generate, steps): start one, poll it, cancel it."""

from __future__ import annotations

import threading
from typing import Any

from fastapi import APIRouter

from pencilbox.core.timing import Deadline
from pencilbox.store import Store
from pencilbox.web.answers import result_json, summary, trace_json
from pencilbox.web.board import Board, Job, State, Work
from pencilbox.web.bodies import JOB_KINDS, Id, JobRequest
from pencilbox.web.deps import BoardDep, LibraryDep, StoreDep, WorkersDep
from pencilbox.web.errors import ApiError
from pencilbox.web.jobs import Trace
from pencilbox.web.library import Entry, Library, Workers, generate_puzzle, generator_name
from pencilbox.web.limits import deadline_for, generate_deadline

router = APIRouter()


@router.post("/api/jobs", status_code=202)
def start_job(
    library: LibraryDep, store: StoreDep, workers: WorkersDep, board: BoardDep, body: JobRequest
) -> dict[str, Any]:
    """Start a solve, generate or steps job; poll it with GET, stop it with DELETE."""
    work = _work(body, library, store, workers)
    library.claim()
    job = board.start(body.kind, work, library.release)
    return {"id": job.id, "state": "running"}


@router.get("/api/jobs/{job_id}")
def get_job(board: BoardDep, job_id: Id) -> dict[str, Any]:
    return _job(board, job_id).to_json()


@router.delete("/api/jobs/{job_id}")
def cancel_job(board: BoardDep, job_id: Id) -> dict[str, Any]:
    job = _job(board, job_id)
    if job.state != "running":
        raise ApiError(409, f"job {job_id} is over already ({job.state})", state=job.state)
    cancelled = board.cancel(job_id)
    return (cancelled or job).to_json()


def _job(board: Board, job_id: int) -> Job:
    job = board.get(job_id)
    if job is None:
        raise ApiError(404, f"no job with id {job_id}")
    return job


def _work(body: JobRequest, library: Library, store: Store, workers: Workers) -> Work:
    """Check the request now (so that mistakes are 4xx answers, not failed jobs) and
    return the work to run in the background."""
    if body.kind not in JOB_KINDS:
        raise ApiError(422, f"kind must be one of {', '.join(JOB_KINDS)}, not {body.kind!r}")
    if body.kind == "generate":
        if not body.genre:
            raise ApiError(422, "a generate job needs a genre")
        genre = generator_name(body.genre)
        options, title = dict(body.options), body.title
        deadline = generate_deadline(body.time_limit)

        def generate(cancel: threading.Event) -> tuple[State, Any]:
            made, info = generate_puzzle(store, workers, genre, options, title, deadline, cancel)
            return "done", {**summary(library.row(made)), "generator": info}

        return generate
    if body.puzzle_id is None:
        raise ApiError(422, f"a {body.kind} job needs a puzzle_id")
    puzzle_id = body.puzzle_id
    entry = library.entry(puzzle_id)
    deadline = deadline_for(body.time_limit)
    if body.kind == "solve":
        return lambda cancel: _solve(library, puzzle_id, entry, deadline, cancel)
    return lambda cancel: _trace(library, entry, deadline, cancel)


def _solve(
    library: Library,
    puzzle_id: int,
    entry: Entry,
    deadline: Deadline,
    cancel: threading.Event,
) -> tuple[State, Any]:
    result = entry.result
    if result is None or result.status == "timeout":
        result = library.solve_now(puzzle_id, entry, deadline, cancel)
    state: State = "timeout" if result.status == "timeout" else "done"
    return state, result_json(entry.puzzle, result)


def _trace(
    library: Library, entry: Entry, deadline: Deadline, cancel: threading.Event
) -> tuple[State, Any]:
    if entry.trace is not None:
        trace = Trace(entry.trace, complete=True)
    else:
        trace = library.trace_now(entry, deadline, cancel)
    return ("done" if trace.complete else "timeout"), trace_json(trace)
