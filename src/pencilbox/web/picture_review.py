"""The review screen's calls (issue 11): a picture of a puzzle in, what was read out; the
user's corrections in, a fresh verdict out. Both answers are `pictures.review` documents
(see pencilbox.pictures) plus `text`, the puzzle in its genre's usual notation, which the
page imports into the library (POST /api/puzzles) when the user accepts.

The server keeps nothing between the calls: the page sends back the document it got.
"""

from __future__ import annotations

import threading
from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from pencilbox import pictures
from pencilbox.core.vision.reading import Reading
from pencilbox.errors import PuzzleError
from pencilbox.genres import base

router = APIRouter()

READERS = threading.BoundedSemaphore(2)
"""Pictures read at once (each takes a core for up to a few seconds)."""


class Corrections(BaseModel):
    document: dict[str, Any] = Field(description="the review document the page was given")
    edits: dict[int, int | None] = Field(
        default_factory=dict,
        description="positions in document.numbers -> the value the user set (null: none)",
    )


def _with_text(document: dict[str, Any]) -> dict[str, Any]:
    """The document and the puzzle's text (None when nothing could be read)."""
    text = None
    if document.get("status") != "error":
        text = pictures.puzzle_text(Reading.from_json(document))
    return document | {"text": text}


def _review(data: bytes, genre: str | None, name: str) -> dict[str, Any]:
    with READERS:
        document = pictures.review(data, genre=genre)
    document["file"] = name
    return _with_text(document)


def _corrected(body: Corrections) -> dict[str, Any]:
    with READERS:
        return _with_text(pictures.review_edits(body.document, body.edits))


@router.get("/api/pictures")
def picture_genres() -> dict[str, Any]:
    """The genres whose puzzles are read from pictures, with their titles."""
    found = [g for g in base.all_genres() if g.picture_reader is not None]
    return {"genres": [{"name": g.name, "title": g.title or g.name} for g in found]}


@router.post("/api/pictures/read")
async def read_picture(request: Request, genre: str | None = None, name: str = "") -> Any:
    """The picture is the request body (PNG, JPEG or WebP; detected by content). `genre`
    names the puzzle's genre (else it is detected). A picture that cannot be read is a
    document with status "error" and the reason, not an HTTP error."""
    data = await request.body()
    if not data:
        return JSONResponse({"error": "the request has no picture in its body"}, 422)
    return await run_in_threadpool(_review, data, genre or None, name[:200])


@router.post("/api/pictures/check")
async def check_corrections(body: Corrections) -> Any:
    """A fresh verdict for the user's corrections."""
    try:
        return await run_in_threadpool(_corrected, body)
    except (KeyError, IndexError, TypeError, ValueError) as error:
        return JSONResponse({"error": f"the review document cannot be read: {error}"}, 422)
    except PuzzleError as error:
        return JSONResponse({"error": str(error)}, 422)
