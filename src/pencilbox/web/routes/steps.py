"""A puzzle's solving steps: all at once, or as server-sent events while they are found."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from fastapi import APIRouter
from fastapi.concurrency import run_in_threadpool

from pencilbox.core.timing import TimeLimitReached
from pencilbox.web.answers import trace_json
from pencilbox.web.bodies import Id
from pencilbox.web.deps import LibraryDep
from pencilbox.web.errors import ApiError
from pencilbox.web.limits import deadline_for, limit_for
from pencilbox.web.streams import EventStream, StepFeed, feed_trace, replay

router = APIRouter()


@router.get("/api/puzzles/{puzzle_id}/steps")
def steps(library: LibraryDep, puzzle_id: Id, time_limit: float | None = None) -> dict[str, Any]:
    try:
        return trace_json(library.trace(puzzle_id, deadline_for(time_limit)))
    except TimeLimitReached:
        limit = limit_for(time_limit)
        raise ApiError(504, f"no trace within the time limit of {limit:g} s") from None


@router.get("/api/puzzles/{puzzle_id}/steps/stream", response_model=None)
async def stream_steps(
    library: LibraryDep, puzzle_id: Id, time_limit: float | None = None
) -> EventStream:
    """The trace as server-sent events while the worker finds it: `step` events (the
    items of /steps), then `done` {"count", "complete"}, or `error` {"error"}. The work
    stops when the client goes away."""
    deadline = deadline_for(time_limit)
    entry = await run_in_threadpool(library.entry, puzzle_id)
    if entry.trace is not None:
        return EventStream(replay(entry.trace))
    feed = StepFeed(asyncio.get_running_loop())
    library.claim()
    threading.Thread(target=feed_trace, args=(library, entry, deadline, feed), daemon=True).start()
    return EventStream(feed.events())
