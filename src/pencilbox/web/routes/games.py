"""Games: the state, moves, undo/redo, reset, hints, one pass of logic, solve as a move, and
the check against the solution. The genre's play rules (`Genre.play`) do the genre's part."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter

from pencilbox.core.step import Step
from pencilbox.session import Game, set_move, state_text
from pencilbox.web.answers import game_json, result_json
from pencilbox.web.bodies import Id, MoveRequest, SolveRequest
from pencilbox.web.deps import LibraryDep
from pencilbox.web.library import Library
from pencilbox.web.limits import deadline_for

router = APIRouter()


@router.get("/api/games/{puzzle_id}")
def get_game(library: LibraryDep, puzzle_id: Id) -> dict[str, Any]:
    with library.playing(puzzle_id) as (entry, game):
        return game_json(puzzle_id, entry.puzzle, game)


@router.get("/api/games/{puzzle_id}/moves")
def game_moves(library: LibraryDep, puzzle_id: Id) -> dict[str, Any]:
    """The history: every move as saved (a `grid` move as the cells it changed), and how
    many of them are played (the rest can be redone)."""
    with library.playing(puzzle_id) as (_, game):
        return {"puzzle_id": puzzle_id, "moves": game.moves, "position": game.position}


def _change(
    library: Library, puzzle_id: int, action: Callable[[Game], Any], **extra: Any
) -> dict[str, Any]:
    """Change the game, save it and answer, all under the game's lock: an answer never
    shows a move that is not saved."""
    with library.playing(puzzle_id) as (entry, game):
        game.notice = None  # told once, with the answer that follows it
        outcome = action(game)
        library.save(puzzle_id, game)
        return game_json(puzzle_id, entry.puzzle, game, changed=bool(outcome), **extra)


@router.post("/api/games/{puzzle_id}/move")
def move(library: LibraryDep, puzzle_id: Id, body: MoveRequest) -> dict[str, Any]:
    return _change(library, puzzle_id, lambda game: game.play(body.move))


@router.post("/api/games/{puzzle_id}/undo")
def undo(library: LibraryDep, puzzle_id: Id) -> dict[str, Any]:
    return _change(library, puzzle_id, lambda game: game.undo())


@router.post("/api/games/{puzzle_id}/redo")
def redo(library: LibraryDep, puzzle_id: Id) -> dict[str, Any]:
    return _change(library, puzzle_id, lambda game: game.redo())


def _reset(game: Game) -> bool:
    game.reset()
    return True


@router.post("/api/games/{puzzle_id}/reset")
def reset(library: LibraryDep, puzzle_id: Id) -> dict[str, Any]:
    return _change(library, puzzle_id, _reset)


@router.post("/api/games/{puzzle_id}/hint")
def hint(library: LibraryDep, puzzle_id: Id) -> dict[str, Any]:
    solution = library.solution(puzzle_id)
    with library.playing(puzzle_id) as (entry, game):
        rules, state = game.rules, game.state
    step = rules.hint(entry.puzzle, state, solution)  # (slow logic: not under the lock)
    payload: dict[str, Any] = {"step": step.to_json() if step else None}
    mover = getattr(rules, "step_move", None)
    if step is not None and mover is not None:
        move = mover(entry.puzzle, step)
        if move:
            payload["move"] = move
    elif step is not None and step.changes:
        payload["move"] = set_move(step.changes)
    if step is None:
        done = rules.check(entry.puzzle, state, solution)["solved"]
        payload["message"] = "Solved: nothing left to deduce." if done else "No hint found."
    return payload


@router.post("/api/games/{puzzle_id}/pass")
def single_pass(library: LibraryDep, puzzle_id: Id) -> dict[str, Any]:
    found: list[Step] = []
    before: list[str] = []

    def one_pass(game: Game) -> bool:
        before.append(state_text(game.rules, game.state))
        found.extend(game.single_pass())
        return bool(found)

    answer = _change(library, puzzle_id, one_pass)
    return {**answer, "before": before[0], "steps": [s.to_json() for s in found]}


@router.post("/api/games/{puzzle_id}/solve")
def solve_game(
    library: LibraryDep, puzzle_id: Id, body: SolveRequest | None = None
) -> dict[str, Any]:
    request = body or SolveRequest()
    result = library.result(puzzle_id, deadline_for(request.time_limit))
    entry = library.entry(puzzle_id)
    answer = _change(library, puzzle_id, lambda game: request.apply and game.solve(result))
    return {**answer, "result": result_json(entry.puzzle, result)}


@router.get("/api/games/{puzzle_id}/check")
def check(library: LibraryDep, puzzle_id: Id) -> dict[str, Any]:
    solution = library.solution(puzzle_id)
    with library.playing(puzzle_id) as (_, game):
        return game.check(solution)
