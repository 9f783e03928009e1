"""Print: one puzzle of the library (empty or as far as played, with or without its solution)
or a selection of them, as a PDF to download. The layout is the command line's (`pencilbox
print`): pencilbox.printing lays the pages out, each genre draws its own puzzle."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response
from pydantic import Field

from pencilbox.core.drawing import PrintStyle
from pencilbox.core.pages import PAPER_MM
from pencilbox.printing.document import (
    SOLUTIONS,
    Entry,
    Options,
    Section,
    document,
)
from pencilbox.session import playable
from pencilbox.web.answers import drawable
from pencilbox.web.bodies import MAX_ID, Body, Id
from pencilbox.web.deps import LibraryDep
from pencilbox.web.errors import ApiError
from pencilbox.web.library import Library
from pencilbox.web.limits import deadline_for

router = APIRouter()
MOST_PRINTED = 200
"""Puzzles in one printed selection (each is solved and graded for its page)."""


class PrintRequest(Body):
    ids: list[int] = Field(min_length=1, max_length=MOST_PRINTED)
    solutions: str = "back"
    page: str = "a4"
    title: str | None = Field(default=None, max_length=200)
    hatch: bool = False


@router.get("/api/puzzles/{puzzle_id}/print", response_model=None)
def print_puzzle(
    library: LibraryDep,
    puzzle_id: Id,
    state: str = "game",
    solution: str = "none",
    page: str = "a4",
    hatch: bool = False,
) -> Response:
    """One puzzle on a page: `state` game (as far as played) or empty; `solution` none,
    upside-down (at the page's foot) or after (on the next page)."""
    if state not in ("game", "empty"):
        raise ApiError(422, f"state must be game or empty, not {state!r}")
    if solution not in ("none", "upside-down", "after"):
        raise ApiError(422, f"solution must be none, upside-down or after, not {solution!r}")
    entry = _entry(library, puzzle_id, 1, state == "game", solution != "none")
    options = _options(solution, page, None, hatch, per_page=1)
    return _pdf(document([Section("", [entry])], options).pdf, f"puzzle-{puzzle_id}.pdf")


@router.post("/api/print", response_model=None)
def print_selected(library: LibraryDep, body: PrintRequest) -> Response:
    """The selected puzzles (empty), as many a page as fit, their solutions where asked."""
    if any(not 0 <= puzzle_id <= MAX_ID for puzzle_id in body.ids):
        raise ApiError(422, "ids must be puzzle ids")
    options = _options(body.solutions, body.page, body.title, body.hatch)
    solve = body.solutions != "none"
    entries = [
        _entry(library, puzzle_id, number, False, solve)
        for number, puzzle_id in enumerate(body.ids, start=1)
    ]
    return _pdf(document([Section("", entries)], options).pdf, "puzzles.pdf")


def _options(
    solutions: str, page: str, title: str | None, hatch: bool, per_page: int | None = None
) -> Options:
    if solutions not in SOLUTIONS:
        raise ApiError(422, f"solutions must be one of {', '.join(SOLUTIONS)}, not {solutions!r}")
    if page not in PAPER_MM:
        raise ApiError(422, f"page must be one of {', '.join(PAPER_MM)}, not {page!r}")
    return Options(page, per_page, solutions, title, PrintStyle(hatch))


def _entry(library: Library, puzzle_id: int, number: int, played: bool, solve: bool) -> Entry:
    """The puzzle as its page prints it: its library title, grade, state and solution."""
    row = library.row(puzzle_id)
    puzzle = library.entry(puzzle_id).puzzle
    state, note = None, ""
    if played and playable(puzzle.genre):
        with library.playing(puzzle_id) as (_, game):
            if game.progress() > 0:
                state, note = drawable(puzzle, game), "as played"
    deadline = deadline_for(None)
    result = library.result(puzzle_id, deadline)
    solution = result.solutions[0] if solve and result.status == "unique" else None
    grade: Any = library.report(puzzle_id, deadline).get("level") or result.grade
    return Entry(puzzle, number, grade, state, solution, note, row.get("title"))


def _pdf(data: bytes, filename: str) -> Response:
    return Response(
        data,
        media_type="application/pdf",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )
