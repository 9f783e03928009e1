"""How the web app answers when something goes wrong: `ApiError` for what a route refuses,
and one JSON answer for every error a request can meet (bad input is 4xx, a busy or failing
server 503 with Retry-After), never a 500 with a traceback."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from pencilbox.core.timing import TimeLimitReached
from pencilbox.errors import FormatError, InvalidPuzzle, LimitExceeded, PuzzleError
from pencilbox.store import LibraryError
from pencilbox.web import jobs

RETRY_AFTER_S = 5
"""What a busy server asks a client to wait before trying again (Retry-After)."""


class ApiError(Exception):
    def __init__(
        self, status: int, message: str, headers: dict[str, str] | None = None, **extra: Any
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers
        self.extra = extra


def answer_errors(app: FastAPI) -> None:
    """Every error a request can meet, as a JSON answer."""

    @app.exception_handler(ApiError)
    async def api_error(request: Request, error: ApiError) -> JSONResponse:
        return JSONResponse(
            {"error": error.message, **error.extra}, error.status, headers=error.headers
        )

    @app.exception_handler(jobs.NoWorker)
    async def no_worker(request: Request, error: jobs.NoWorker) -> JSONResponse:
        return JSONResponse({"error": str(error)}, 503, headers={"Retry-After": str(RETRY_AFTER_S)})

    @app.exception_handler(LibraryError)
    async def library_error(request: Request, error: LibraryError) -> JSONResponse:
        """The library file failed under us (disk full, removed, made read-only): nothing
        was changed; the client may try again."""
        return JSONResponse({"error": str(error)}, 503, headers={"Retry-After": "5"})

    @app.exception_handler(PuzzleError)
    async def puzzle_error(request: Request, error: PuzzleError) -> JSONResponse:
        body: dict[str, Any] = {"error": str(error), "kind": type(error).__name__}
        if isinstance(error, FormatError):
            body.update(line=error.line, column=error.column, reason=error.reason)
        if isinstance(error, InvalidPuzzle):
            body.update(where=error.where, reason=error.reason)
        status = 413 if isinstance(error, LimitExceeded) else 422
        return JSONResponse(body, status)

    @app.exception_handler(TimeLimitReached)
    async def too_slow(request: Request, error: TimeLimitReached) -> JSONResponse:
        return JSONResponse({"error": "no answer within the time limit"}, 504)

    @app.exception_handler(jobs.WorkerLost)
    async def worker_lost(request: Request, error: jobs.WorkerLost) -> JSONResponse:
        retry = {"Retry-After": str(RETRY_AFTER_S)}
        return JSONResponse({"error": f"{error}; try again"}, 503, headers=retry)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, error: RequestValidationError) -> JSONResponse:
        problems = error.errors()
        first = problems[0] if problems else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        message = f"{where}: {first.get('msg', 'invalid request')}" if where else "bad request"
        detail = [{k: v for k, v in p.items() if k in ("loc", "msg", "type")} for p in problems]
        return JSONResponse({"error": message, "detail": detail}, 422)
