"""What the routers are given as FastAPI dependencies: the library (with its store), the
store itself, the worker pool, the board of background jobs and the server's settings.
`create_app` puts them in the app's state; a route names the ones it needs in its
signature (`library: LibraryDep`), so that no route reaches for a global."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request

from pencilbox.store import Store
from pencilbox.web.board import Board
from pencilbox.web.library import Library, Workers


@dataclass(frozen=True)
class Settings:
    allow_fetch: bool = False
    """Whether the import box may fetch a pasted URL (public addresses only)."""


# (async, so that FastAPI runs them on the event loop, not in its thread pool)
async def _library(request: Request) -> Library:
    library: Library = request.app.state.library
    return library


async def _store(request: Request) -> Store:
    library: Library = request.app.state.library
    return library.store


async def _workers(request: Request) -> Workers:
    library: Library = request.app.state.library
    return library.workers


async def _board(request: Request) -> Board:
    board: Board = request.app.state.board
    return board


async def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


LibraryDep = Annotated[Library, Depends(_library)]
StoreDep = Annotated[Store, Depends(_store)]
WorkersDep = Annotated[Workers, Depends(_workers)]
BoardDep = Annotated[Board, Depends(_board)]
SettingsDep = Annotated[Settings, Depends(_settings)]
