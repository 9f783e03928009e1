"""What a request may take: a body of at most `MAX_BODY` bytes (`BodyLimit`, 413 beyond),
and a time limit that counts from the moment the request arrived (`Arrival`), before it
waited for a thread or a worker (`deadline_for`)."""

from __future__ import annotations

import math
import time
from contextvars import ContextVar

from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pencilbox.core.timing import Deadline
from pencilbox.web.errors import ApiError

MAX_BODY = 2_000_000
"""Largest request body in bytes."""
SOLVE_TIME_LIMIT = 20.0
GENERATE_TIME_LIMIT = 60.0
"""Generators take no time limit of their own: their worker is stopped after this long."""
MAX_TIME_LIMIT = 60.0


def limit_for(time_limit: float | None) -> float:
    """A request's time limit in seconds, checked (SOLVE_TIME_LIMIT when none is given)."""
    if time_limit is None:
        return SOLVE_TIME_LIMIT
    if not math.isfinite(time_limit) or time_limit <= 0:
        raise ApiError(422, f"time_limit must be a number of seconds above 0, not {time_limit!r}")
    return max(0.01, min(float(time_limit), MAX_TIME_LIMIT))


# -- time limits count from the request -------------------------------------------------------
_arrived: ContextVar[float | None] = ContextVar("pencilbox_request_arrived", default=None)


class Arrival:
    """Notes when each request arrived (before it waits for a thread or a worker), so that
    a time limit counts from there."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            _arrived.set(time.monotonic())
        await self.app(scope, receive, send)


def deadline_for(time_limit: float | None) -> Deadline:
    """The deadline of a request's work: its time limit (checked; SOLVE_TIME_LIMIT when
    none) from the moment the request arrived."""
    seconds = limit_for(time_limit)
    arrived = _arrived.get()
    waited = time.monotonic() - arrived if arrived is not None else 0.0
    return Deadline(seconds - waited)


def generate_deadline(time_limit: float | None) -> Deadline:
    return deadline_for(GENERATE_TIME_LIMIT if time_limit is None else time_limit)


# -- the body-size limit ----------------------------------------------------------------------
class BodyLimit:
    """Refuse request bodies above `limit` bytes with 413, declared or streamed."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length" and value.isdigit() and int(value) > self.limit:
                await _too_large(self.limit, send)
                return
        received = 0
        refused = False

        async def limited() -> Message:
            nonlocal received, refused
            message = await receive()
            if message["type"] == "http.request" and not refused:
                received += len(message.get("body", b""))
                if received > self.limit:
                    refused = True
                    await _too_large(self.limit, send)
            if refused:
                return {"type": "http.disconnect"}
            return message

        async def guarded(message: Message) -> None:
            if not refused:  # the 413 is the whole answer
                await send(message)

        try:
            await self.app(scope, limited, guarded)
        except Exception:
            if not refused:
                raise


async def _too_large(limit: int, send: Send) -> None:
    response = JSONResponse({"error": f"the request is larger than {limit} bytes"}, 413)
    await response({"type": "http"}, _no_receive, send)


async def _no_receive() -> Message:
    return {"type": "http.disconnect"}
