"""The HTTP API: `create_app` builds the FastAPI application from its routers, one per
resource (`routes/`: pages, health, puzzles, steps, jobs, games, then each genre's own
endpoints; `picture_review` for pictures), on a library file. The routers are given the
library, the store, the worker pool, the job board and the settings as FastAPI
dependencies (`deps`), which `create_app` puts in the app's state. They call only the genre
interface (`pencilbox.genres.base`), the session (mid-end) and the store: genre knowledge
stays in the genres (their play rules, pages and actions).

Endpoints are plain `def` functions, which FastAPI runs in its thread pool, so the event loop
keeps answering; solves and traces go further, to worker processes (`jobs`), so that their
pure-Python work does not hold the GIL the server needs. They have a time limit (`limits`),
and at most `MAX_JOBS` run or wait at once (429 beyond that). Long work can also run as a
background job (`/api/jobs`: start, poll, cancel), and a trace can stream as server-sent
events while it is found (`/steps/stream`). Bad input is a 4xx JSON answer
`{"error": message, "line", "column", "where"}`, never a 500 (`errors`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import APIRouter, FastAPI

import pencilbox
from pencilbox.store import Store, default_path
from pencilbox.web import jobs, picture_review
from pencilbox.web.board import Board
from pencilbox.web.deps import Settings
from pencilbox.web.errors import RETRY_AFTER_S, answer_errors
from pencilbox.web.library import MAX_JOBS, Library
from pencilbox.web.limits import GENERATE_TIME_LIMIT, MAX_BODY, Arrival, BodyLimit
from pencilbox.web.reading import MAX_GRID
from pencilbox.web.routes import (
    catalogue,
    games,
    genre_actions,
    health,
    pages,
    printing,
    puzzles,
    steps,
)
from pencilbox.web.routes import jobs as background
from pencilbox.web.security import Guard, host_names

__all__ = ["GENERATE_TIME_LIMIT", "MAX_BODY", "MAX_GRID", "MAX_JOBS", "RETRY_AFTER_S", "create_app"]

ROUTERS: tuple[APIRouter, ...] = (
    picture_review.router,
    health.router,
    puzzles.router,
    catalogue.router,
    steps.router,
    background.router,
    games.router,
    printing.router,
    genre_actions.router,  # last: /api/{genre}/{name} must not hide another route
)
"""After the pages and the static files, in this order."""


def create_app(
    db_path: str | Path | None = None,
    *,
    seed: bool = True,
    host: str | None = None,
    allowed_hosts: Sequence[str] = (),
    allow_fetch: bool = False,
) -> FastAPI:
    """The app on the library file `db_path`. It answers to the Host names 127.0.0.1,
    localhost and [::1] on the port it listens on, to `host` (the address it was started
    on) and to `allowed_hosts` (`name` or `name:port`); `allow_fetch` lets the import box
    fetch pasted URLs (public addresses only)."""
    store = Store(db_path or default_path())
    if seed:
        store.seed()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        jobs.prewarm()
        try:
            yield
        finally:
            store.close()  # (and its lock: another server may use the file now)

    app = FastAPI(
        lifespan=lifespan,
        title="pencilbox",
        version=pencilbox.__version__,
        description="Solve, explain, hint, animate and play grid logic puzzles.",
    )
    app.state.library = Library(store, workers=jobs)
    app.state.board = Board()
    app.state.settings = Settings(allow_fetch=allow_fetch)
    app.add_middleware(BodyLimit)
    app.add_middleware(Arrival)
    app.add_middleware(Guard, names=host_names(host, allowed_hosts))  # added last: runs first
    answer_errors(app)
    _add_routes(app, pages.router)
    app.mount("/static", pages.static_files(), name="static")
    for router in ROUTERS:
        _add_routes(app, router)
    return app


def _add_routes(app: FastAPI, router: APIRouter) -> None:
    """The router's routes themselves, not the wrapper `include_router` adds (FastAPI 0.165),
    so that `app.routes` lists every endpoint (the OpenAPI page, the id-route tests)."""
    app.router.routes.extend(router.routes)
