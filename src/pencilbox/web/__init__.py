"""The pencilbox web app: a JSON API over the genre interface and the session, and static
ES-module pages (no build step). `create_app(db_path)` builds the FastAPI application.

Adding a genre: its engine registers with `pencilbox.genres.base` (the library, import, solve,
steps, grade, export and generate endpoints then work for it at once); its play rules
(`Genre.play`, from `genres/<name>/play.py`) make it playable (games, moves, hints, check);
its page (`Genre.page`: a folder in its package with `{genre}.html`, its modules and styles)
is served at `/{genre}` and linked from the Library. No route changes.

Long work runs in worker processes (`jobs`): synchronously behind the solve, grade, steps and
generate endpoints, as background jobs a client can poll and cancel (`/api/jobs`, kept in
`board`), or streamed step by step as server-sent events (`/api/puzzles/{id}/steps/stream`).

The app module is imported on first use, so that solver worker processes, which import
`pencilbox.web.jobs`, do not pay for importing FastAPI.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fastapi import FastAPI

__all__ = ["create_app"]


def create_app(db_path: str | Path | None = None, **options: Any) -> FastAPI:
    from pencilbox.web.app import create_app as make

    return make(db_path, **options)
