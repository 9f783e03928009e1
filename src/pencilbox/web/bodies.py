"""The request bodies and path ids the API accepts, checked before any route runs (a wrong
type, an id beyond SQLite's range or a lone surrogate is a 422 naming the field)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any

from fastapi import Path as PathParameter
from pydantic import BaseModel, Field, field_validator

from pencilbox.web.limits import GENERATE_TIME_LIMIT

MAX_ID = 2**63 - 1
"""The largest id SQLite can hold; a larger one in a path or a body is a 422, not a 500."""
Id = Annotated[int, PathParameter(ge=0, le=MAX_ID)]


class Body(BaseModel):
    """A request body whose text is valid Unicode: JSON may carry a lone surrogate
    ("\\ud800"), which no file or database can store."""

    @field_validator("*", mode="after")
    @classmethod
    def _unicode(cls, value: Any) -> Any:
        for text in _strings(value):
            try:
                text.encode("utf-8")
            except UnicodeEncodeError as error:
                raise ValueError(
                    f"not valid Unicode (a lone surrogate at character {error.start + 1})"
                ) from None
        return value


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(key)
            yield from _strings(item)


class PuzzleText(Body):
    text: str = Field(default="", description="the puzzle in any supported notation, or a URL")
    genre: str | None = None
    format: str | None = None
    filename: str | None = Field(default=None, description="an uploaded file's name (a hint)")
    title: str | None = None


class ConvertRequest(PuzzleText):
    to: str = Field(description="a text notation of the genre, or svg or png")


class MoveRequest(Body):
    move: str


class GenerateRequest(Body):
    genre: str
    options: dict[str, str | int | float | bool | None] = Field(
        default_factory=dict, description="the genre generator's options, e.g. size, grade, seed"
    )
    title: str | None = None
    time_limit: float | None = Field(
        default=None, description=f"seconds ({GENERATE_TIME_LIMIT:g} if not given)"
    )
    preview: bool = Field(
        default=False,
        description="make the puzzle and answer it with a picture of its solution, without "
        "adding it to the library (POST its text to /api/puzzles to keep it)",
    )


class SolveRequest(Body):
    apply: bool = True
    time_limit: float | None = None


JOB_KINDS = ("solve", "generate", "steps")


class JobRequest(Body):
    kind: str = Field(description="solve, generate or steps")
    puzzle_id: int | None = Field(default=None, ge=0, le=MAX_ID, description="for solve and steps")
    genre: str | None = Field(default=None, description="for generate")
    options: dict[str, str | int | float | bool | None] = Field(
        default_factory=dict, description="for generate: the generator's options"
    )
    title: str | None = Field(default=None, description="for generate: the new puzzle's title")
    time_limit: float | None = None
