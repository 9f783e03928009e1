"""What the API's answers look like: puzzles, games, solve results, traces and genres as
JSON. A genre shapes its own puzzle and game through its play rules (`Genre.play`); these
functions only ask it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pencilbox.errors import PuzzleError
from pencilbox.genres import base
from pencilbox.genres.base import SolveResult, dimensions
from pencilbox.session import Game, marks_json, play_rules, state_text
from pencilbox.web.jobs import Trace


def puzzle_json(puzzle: Any) -> dict[str, Any]:
    rules = play_rules(puzzle.genre)
    if rules is not None:
        return rules.puzzle_json(puzzle)
    width, height = dimensions(puzzle)
    return {"genre": puzzle.genre, "title": puzzle.title, "width": width, "height": height}


def game_json(puzzle_id: int, puzzle: Any, game: Game, **extra: Any) -> dict[str, Any]:
    return {
        "puzzle_id": puzzle_id,
        "genre": puzzle.genre,
        "state": state_text(game.rules, game.state),
        "history": len(game.history),
        "position": game.position,
        "can_undo": game.can_undo,
        "can_redo": game.can_redo,
        "progress": round(game.progress(), 4),
        "solved": game.solved(),
        **({"marks": marks_json(game.marks)} if getattr(game.rules, "marks", False) else {}),
        **({"notice": game.notice} if game.notice else {}),
        **extra,
    }


def drawable(puzzle: Any, game: Game) -> Any:
    """The game state in the form the genre's renderer takes (its play
    rules' `walls`, when it has them)."""
    convert = getattr(game.rules, "walls", None)
    return convert(puzzle, game.state) if convert is not None else game.state


def result_json(puzzle: Any, result: SolveResult) -> dict[str, Any]:
    try:
        differences = [list(c) for c in result.differences()]
    except (AttributeError, TypeError):  # solutions that are not grids (walls, ...)
        differences = []
    return {
        "status": result.status,
        "grade": result.grade,
        "time_s": round(result.time_s, 4),
        "stats": result.stats,
        "solutions": [puzzle.solution_json(s) for s in result.solutions[:2]],
        "differences": differences,
    }


def trace_json(trace: Trace) -> dict[str, Any]:
    return {
        "count": len(trace.steps),
        "steps": [s.to_json() for s in trace.steps],
        "complete": trace.complete,
    }


def default_title(puzzle: Any) -> str:
    width, height = dimensions(puzzle)
    return f"{puzzle.genre} {width}x{height}" if width else f"{puzzle.genre} puzzle"


def summary(row: dict[str, Any]) -> dict[str, Any]:
    """A library row without its source text."""
    return {k: v for k, v in row.items() if k != "source"}


def genre_json(genre: base.Genre) -> dict[str, Any]:
    page = page_of(genre.name)
    return {
        "name": genre.name,
        "aliases": list(genre.aliases),
        "formats": list(genre.formats),
        "playable": genre.play is not None,
        "generator": genre.generate is not None,
        "options": [o.to_json() for o in genre.options()] if genre.generate else [],
        "title": genre.title or genre.name,
        "page": f"/{genre.name}" if page else None,
        "new_page": (genre.new_page or f"/{genre.name}") if page else None,
    }


def page_of(name: str) -> Path | None:
    """The page file of the genre called `name` (not an alias), if it has one."""
    try:
        genre = base.get(name) if name.isalnum() else None
    except PuzzleError:
        return None
    if genre is None or genre.name != name or genre.page is None:
        return None
    page = genre.page / f"{name}.html"
    return page if page.is_file() else None
