"""Each genre's own endpoints (`Genre.actions`), at /api/{genre}/{name}: a genre's page may
ask its package things the other endpoints do not cover (the clue boxes checked as the user
types, say). Included last, so that it hides no other route."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter
from fastapi import Body as BodyParam

from pencilbox.errors import PuzzleError
from pencilbox.genres import base
from pencilbox.web.errors import ApiError
from pencilbox.web.reading import MAX_GRID, reading

router = APIRouter()


@router.post("/api/{genre}/{name}")
def genre_action(
    genre: str, name: str, body: Annotated[dict[str, Any], BodyParam()]
) -> dict[str, Any]:
    """A genre's own endpoint (`Genre.actions`), given the request's JSON body."""
    try:
        found = base.get(genre)
    except PuzzleError:
        found = None
    action = found.actions.get(name) if found is not None and found.name == genre else None
    if action is None:
        raise ApiError(404, f"no endpoint /api/{genre}/{name}")
    try:  # (JSON may carry a lone surrogate, which no text can hold)
        json.dumps(body, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as error:
        message = f"not valid Unicode (a lone surrogate at character {error.start + 1})"
        raise ApiError(422, message) from None
    with reading():
        return action(body, MAX_GRID)
