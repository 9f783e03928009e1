"""The pages: the Library, a puzzle's page by id, each genre's own page, and their files."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles

from pencilbox.genres import base
from pencilbox.web.answers import page_of
from pencilbox.web.bodies import Id
from pencilbox.web.deps import StoreDep
from pencilbox.web.errors import ApiError

STATIC = Path(__file__).parents[1] / "static"

router = APIRouter()


@router.get("/", include_in_schema=False)
def index() -> FileResponse:
    return FileResponse(STATIC / "index.html")


@router.get("/play/{puzzle_id}", include_in_schema=False)
def play(store: StoreDep, puzzle_id: Id) -> RedirectResponse:
    row = store.get_puzzle(puzzle_id)
    if row is None:
        raise ApiError(404, f"no puzzle with id {puzzle_id}")
    return RedirectResponse(f"/{row['genre']}?id={puzzle_id}")


@router.get("/{genre}", include_in_schema=False)
def genre_page(genre: str) -> FileResponse:
    """A genre's page is {genre}.html in its package's page folder (`Genre.page`):
    adding a genre adds no route."""
    page = page_of(genre)
    if page is None:
        raise ApiError(404, f"no page {genre!r}")
    return FileResponse(page)


def static_files() -> StaticFiles:
    """/static/: the shared files (static/), then each genre's page folder, so that a page
    and its modules live in the genre's package."""
    files = StaticFiles(directory=STATIC)
    pages = [g.page for g in base.all_genres() if g.page is not None and g.page.is_dir()]
    files.all_directories = [*files.all_directories, *pages]
    return files
