"""The library of puzzles: parse, convert, generate, import, list, read, delete, draw,
export, solve and grade."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from pencilbox.core.timing import Deadline
from pencilbox.genres.base import dimensions
from pencilbox.session import playable
from pencilbox.web.answers import (
    default_title,
    drawable,
    puzzle_json,
    result_json,
    summary,
)
from pencilbox.web.bodies import ConvertRequest, GenerateRequest, Id, PuzzleText
from pencilbox.web.deps import LibraryDep, SettingsDep, StoreDep, WorkersDep
from pencilbox.web.errors import ApiError
from pencilbox.web.library import generate_puzzle, generator_name, made_title
from pencilbox.web.limits import deadline_for, generate_deadline
from pencilbox.web.reading import load_text, parse_puzzle, reading

router = APIRouter()


@router.post("/api/parse")
def parse(settings: SettingsDep, body: PuzzleText) -> dict[str, Any]:
    puzzle = load_text(body, settings.allow_fetch)
    return {"puzzle": puzzle_json(puzzle)}


@router.post("/api/convert", response_model=None)
def convert(settings: SettingsDep, body: ConvertRequest) -> Response:
    puzzle = load_text(body, settings.allow_fetch)
    if body.to == "svg":
        return Response(puzzle.render(None, "svg"), media_type="image/svg+xml")
    if body.to == "png":
        return Response(puzzle.render_png(None), media_type="image/png")
    with reading():
        return JSONResponse({"format": body.to, "text": puzzle.to(body.to)})


@router.post("/api/generate", status_code=201)
def generate(
    library: LibraryDep,
    store: StoreDep,
    workers: WorkersDep,
    body: GenerateRequest,
    response: Response,
) -> dict[str, Any]:
    """Make a new puzzle with the genre's generator and add it to the library (or, with
    `preview`, show it without adding it)."""
    genre = generator_name(body.genre)
    deadline = generate_deadline(body.time_limit)
    if body.preview:
        with library.job():
            shown = workers.generate(genre, dict(body.options), deadline)
            response.status_code = 200
            return _preview(shown, body.title, deadline)
    with library.job():
        made, info = generate_puzzle(
            store, workers, genre, dict(body.options), body.title, deadline
        )
    return {**summary(library.row(made)), "generator": info}


def _preview(made: dict[str, Any], title: str | None, deadline: Deadline) -> dict[str, Any]:
    """A generated puzzle not yet in the library: its text (to import as it is), size, what
    the generator said, and an SVG of its solution (of the empty grid if none comes in time)."""
    puzzle = parse_puzzle(made["text"], made["genre"], made["format"], None)
    result = puzzle.solve(limit=1, time_limit=deadline.remaining(), grade=False)
    solution = result.solutions[0] if result.solutions else None
    width, height = dimensions(puzzle)
    return {
        "preview": True,
        "genre": made["genre"],
        "format": made["format"],
        "text": made["text"],
        "title": title or made_title(made),
        "width": width,
        "height": height,
        "generator": made["info"],
        "svg": puzzle.render(solution, "svg"),
    }


@router.get("/api/puzzles")
def list_puzzles(store: StoreDep) -> list[dict[str, Any]]:
    return [summary(row) for row in store.list_puzzles()]


@router.post("/api/puzzles", status_code=201)
def import_puzzle(
    library: LibraryDep, store: StoreDep, settings: SettingsDep, body: PuzzleText
) -> dict[str, Any]:
    puzzle = load_text(body, settings.allow_fetch)
    title = body.title or puzzle.title or (Path(body.filename).stem if body.filename else None)
    width, height = dimensions(puzzle)
    puzzle_id, created = store.add_puzzle(
        genre=puzzle.genre,
        source=body.text,
        format=body.format or None,
        filename=body.filename,
        title=title or default_title(puzzle),
        width=width,
        height=height,
    )
    return {**summary(library.row(puzzle_id)), "new": created}


@router.get("/api/puzzles/{puzzle_id}")
def get_puzzle(library: LibraryDep, puzzle_id: Id) -> dict[str, Any]:
    row = library.row(puzzle_id)
    entry = library.entry(puzzle_id)
    return {**row, "puzzle": puzzle_json(entry.puzzle)}


@router.delete("/api/puzzles/{puzzle_id}")
def delete_puzzle(library: LibraryDep, puzzle_id: Id) -> dict[str, Any]:
    if not library.delete(puzzle_id):
        raise ApiError(404, f"no puzzle with id {puzzle_id}")
    return {"deleted": puzzle_id}


@router.get("/api/puzzles/{puzzle_id}/thumbnail.svg")
def thumbnail(library: LibraryDep, puzzle_id: Id) -> Response:
    entry = library.entry(puzzle_id)
    state = None
    if playable(entry.puzzle.genre):
        with library.playing(puzzle_id) as (_, game):
            state = drawable(entry.puzzle, game)
    svg = entry.puzzle.render(state, "svg")
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "no-store"})


@router.get("/api/puzzles/{puzzle_id}/export", response_model=None)
def export(
    library: LibraryDep, puzzle_id: Id, format: str = "svg", state: str = "game"
) -> Response:
    entry = library.entry(puzzle_id)
    grid = None
    if state == "game" and playable(entry.puzzle.genre):
        with library.playing(puzzle_id) as (_, game):
            grid = drawable(entry.puzzle, game)
    elif state == "solution":
        result = library.result(puzzle_id, deadline_for(None))
        grid = result.solutions[0] if result.solutions else None
    elif state not in ("empty", "game"):
        raise ApiError(422, f"state must be empty, game or solution, not {state!r}")
    if format == "svg":
        return Response(entry.puzzle.render(grid, "svg"), media_type="image/svg+xml")
    if format == "png":
        return Response(entry.puzzle.render_png(grid), media_type="image/png")
    text = entry.puzzle.to(format)
    return Response(text, media_type="text/plain; charset=utf-8")


@router.get("/api/puzzles/{puzzle_id}/solve")
def solve_puzzle(
    library: LibraryDep, puzzle_id: Id, time_limit: float | None = None
) -> dict[str, Any]:
    entry = library.entry(puzzle_id)
    return result_json(entry.puzzle, library.result(puzzle_id, deadline_for(time_limit)))


@router.get("/api/puzzles/{puzzle_id}/grade")
def grade(library: LibraryDep, puzzle_id: Id, time_limit: float | None = None) -> dict[str, Any]:
    """The solver's verdict and grade, and the genre's logical grade where it has one
    (a level, a score and the hardest technique)."""
    deadline = deadline_for(time_limit)
    result = library.result(puzzle_id, deadline)
    report = library.report(puzzle_id, deadline)
    logical = {k: report[k] for k in ("level", "score", "hardest") if report.get(k) is not None}
    return {"status": result.status, "grade": result.grade, **logical}
