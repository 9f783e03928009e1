"""The JSON of the shared data: `width`, `height`, `colors` (rows of `w`/`g`), `numbers`
(rows of null, a size, or "?"), optional `answer` with `vertical`/`horizontal` wall strings;
other descriptive fields (id, source, url...) are kept in `meta`."""

from __future__ import annotations

import json
from typing import Any

from pencilbox.core.notation import json_kind, json_object
from pencilbox.errors import FormatError, InvalidPuzzle
from pencilbox.genres.dbchoco.model import (
    DEFAULT_MAX_SIZE,
    QUESTION,
    DoubleChoco,
    Walls,
    make_puzzle,
)

_META_KEYS = ("id", "source", "licence", "note", "url", "solver_status")


def looks_like(text: str) -> bool:
    stripped = text.lstrip()
    return stripped.startswith("{") and '"colors"' in text and '"numbers"' in text


def parse(text: str, *, max_size: int | None = DEFAULT_MAX_SIZE) -> DoubleChoco:
    data = json_object(text, "a Double Choco JSON file holds an object with 'colors' and 'numbers'")
    return from_json(data, max_size=max_size)


def from_json(data: dict[str, Any], *, max_size: int | None = DEFAULT_MAX_SIZE) -> DoubleChoco:
    colors = data.get("colors")
    if not isinstance(colors, list) or not colors or not all(isinstance(r, str) for r in colors):
        raise FormatError("'colors' must be a list of strings of 'w' and 'g'")
    width = len(colors[0])
    gray: list[list[bool]] = []
    for r, row in enumerate(colors):
        if len(row) != width:
            raise InvalidPuzzle(
                f"has {len(row)} cells, row 1 has {width}", where=f"colors row {r + 1}"
            )
        for c, ch in enumerate(row):
            if ch not in "wg":
                raise InvalidPuzzle(
                    f"character {c + 1} is {ch!r}; use w (white) or g (gray)",
                    where=f"colors row {r + 1}",
                )
        gray.append([ch == "g" for ch in row])
    raw_numbers = data.get("numbers")
    if raw_numbers is None:
        raw_numbers = [[None] * width for _ in colors]
    if not isinstance(raw_numbers, list) or len(raw_numbers) != len(colors):
        raise FormatError(f"'numbers' must be {len(colors)} rows of {width} entries")
    numbers: list[list[int | None]] = []
    for r, row in enumerate(raw_numbers):
        if not isinstance(row, list) or len(row) != width:
            raise InvalidPuzzle(f"must hold {width} entries", where=f"numbers row {r + 1}")
        out_row: list[int | None] = []
        for c, value in enumerate(row):
            if value is None:
                out_row.append(None)
            elif value == "?":
                out_row.append(QUESTION)
            elif isinstance(value, int) and not isinstance(value, bool):
                out_row.append(value)
            else:
                raise InvalidPuzzle(
                    f"{json_kind(value)} is not a number, '?' or null", where=f"r{r + 1}c{c + 1}"
                )
        numbers.append(out_row)
    for key, size in (("width", width), ("height", len(colors))):
        if key in data and data[key] != size:
            raise InvalidPuzzle(f"'{key}' is {json_kind(data[key])} but the colours give {size}")
    answer = None
    raw_answer = data.get("answer")
    if isinstance(raw_answer, dict) and "vertical" in raw_answer:
        answer = answer_from_json(raw_answer, width, len(colors))
    meta = {key: data[key] for key in _META_KEYS if key in data}
    title = data.get("title") or data.get("id")
    return make_puzzle(
        gray,
        numbers,
        title=title if isinstance(title, str) else None,
        answer=answer,
        meta=meta,
        max_size=max_size,
    )


def answer_from_json(data: dict[str, Any], width: int, height: int) -> Walls:
    vertical = data.get("vertical")
    horizontal = data.get("horizontal")
    if not isinstance(vertical, list) or not isinstance(horizontal, list):
        raise InvalidPuzzle("needs 'vertical' and 'horizontal' lists of strings", where="answer")
    return Walls.from_strings(width, height, vertical, horizontal)


def to_json(puzzle: DoubleChoco, answer: Walls | None = None) -> dict[str, Any]:
    from pencilbox.genres.dbchoco.formats.puzzlink import write as url

    data: dict[str, Any] = {}
    if puzzle.title:
        data["id"] = puzzle.title
    data.update({k: v for k, v in puzzle.meta.items() if k != "url"})
    data["url"] = url(puzzle)
    data["width"] = puzzle.width
    data["height"] = puzzle.height
    data["colors"] = puzzle.colour_rows()
    data["numbers"] = puzzle.number_rows()
    answer = answer if answer is not None else puzzle.answer
    if answer is not None:
        data["answer"] = {**answer.to_json(), "blocks": answer.block_ids()}
    return data


def write(puzzle: DoubleChoco) -> str:
    return json.dumps(to_json(puzzle), indent=1) + "\n"
