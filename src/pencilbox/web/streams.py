"""A trace as server-sent events while a worker finds it (`/steps/stream`): the steps go out
as they come, and the work stops as soon as the client goes away."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator
from contextlib import suppress
from typing import Any

import anyio
from fastapi.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from pencilbox.core.step import Step
from pencilbox.core.timing import Deadline, TimeLimitReached
from pencilbox.web import jobs
from pencilbox.web.library import Entry, Library


def event(name: str, data: Any) -> str:
    return f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


async def replay(trace: list[Step]) -> AsyncIterator[str]:
    """A trace found before, sent at once."""
    yield "".join(event("step", s.to_json()) for s in trace)
    yield event("done", {"count": len(trace), "complete": True})


class StepFeed:
    """Events made in a worker thread, handed to the event loop as they come."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.inbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.cancel = threading.Event()

    def put(self, chunk: str | None) -> None:
        """From the worker thread; None ends the stream."""
        with suppress(RuntimeError):  # the loop is closed: nobody listens any more
            self.loop.call_soon_threadsafe(self.inbox.put_nowait, chunk)

    async def events(self) -> AsyncIterator[str]:
        """What has piled up goes out in one write; leaving (the client went) stops the job."""
        try:
            while True:
                chunk = await self.inbox.get()
                parts: list[str] = []
                while chunk is not None:
                    parts.append(chunk)
                    if self.inbox.empty():
                        break
                    chunk = self.inbox.get_nowait()
                if parts:
                    yield "".join(parts)
                if chunk is None:
                    return
        finally:
            self.cancel.set()


def feed_trace(library: Library, entry: Entry, deadline: Deadline, feed: StepFeed) -> None:
    """Run in a thread of its own that holds a job slot (released here when it ends)."""
    try:
        found = library.trace_now(
            entry, deadline, feed.cancel, lambda step: feed.put(event("step", step.to_json()))
        )
        feed.put(event("done", {"count": len(found.steps), "complete": found.complete}))
    except jobs.Cancelled:
        pass
    except TimeLimitReached:
        feed.put(event("done", {"count": 0, "complete": False}))
    except jobs.NoWorker as busy:
        feed.put(event("error", {"error": str(busy)}))
    except Exception as error:
        feed.put(event("error", {"error": str(error) or type(error).__name__}))
    finally:
        feed.put(None)
        library.release()


class EventStream(StreamingResponse):
    """A `text/event-stream` answer that stops as soon as the client disconnects, whatever
    ASGI version the server speaks (so that the work behind it stops too)."""

    media_type = "text/event-stream"

    def __init__(self, content: AsyncIterator[str]) -> None:
        super().__init__(content, headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async with anyio.create_task_group() as group:

            async def stream() -> None:
                with suppress(OSError):  # the client went while we wrote
                    await self.stream_response(send)
                group.cancel_scope.cancel()

            group.start_soon(stream)
            await self.listen_for_disconnect(receive)
            group.cancel_scope.cancel()
