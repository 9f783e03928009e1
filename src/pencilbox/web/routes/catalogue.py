"""The library as a catalogue (issue 15): find a puzzle among thousands, and take the whole
library away.

* GET /api/library: one page of the library's puzzles, searched by title (words, in any
  order, also matching the credit and the file name), filtered by genre, size, grade and play
  state, sorted; with the number that match and the counts per genre, size, grade and state
  (for the filter menus).
* GET /api/library/export: a zip of every puzzle in its own notation (the text as it was
  imported, so nothing is lost in a conversion) and index.json (titles, genres, formats,
  verdicts, progress and the moves of each saved game).

The listing filters and sorts `Store.list_puzzles()` in memory: 5,000 puzzles take a few
milliseconds, and a page never carries more than one page of rows.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from collections import Counter
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from functools import cache
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response

from pencilbox.errors import PuzzleError
from pencilbox.genres import base
from pencilbox.store import Store
from pencilbox.web.deps import StoreDep

router = APIRouter()

Size = Literal["small", "medium", "large", "huge"]
State = Literal["new", "started", "solved"]
Sort = Literal["shelf", "title", "size", "grade", "progress", "added", "played"]
SIZES: dict[str, tuple[int, int]] = {
    "small": (1, 10),
    "medium": (11, 20),
    "large": (21, 30),
    "huge": (31, 10**6),
}
"""Sizes by the longer side of the grid, in cells."""
MAX_PAGE = 200
NEWEST_FIRST = {"added", "played", "progress"}
"""Sorts whose natural order is descending (the latest, the most advanced first)."""
UNGRADED = "none"
"""The grade filter's word for puzzles not graded yet."""


# -- the listing -----------------------------------------------------------------------------
@router.get("/api/library")
def listing(
    store: StoreDep,
    q: Annotated[str, Query(max_length=200, description="words of the title")] = "",
    genre: Annotated[str, Query(max_length=40)] = "",
    size: Size | None = None,
    grade: Annotated[str, Query(max_length=40, description=f"a grade, or {UNGRADED}")] = "",
    state: State | None = None,
    sort: Sort = "shelf",
    order: Literal["asc", "desc"] | None = None,
    offset: Annotated[int, Query(ge=0)] = 0,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 48,
) -> dict[str, Any]:
    """One page of the puzzles that match, in the order asked for (`order` defaults to the
    newest or most advanced first for added, played and progress, A to Z otherwise)."""
    rows = store.list_puzzles()
    tests = _filters(q, genre, size, grade, state)
    matching = [row for row in rows if all(test(row) for test in tests)]
    descending = (order or ("desc" if sort in NEWEST_FIRST else "asc")) == "desc"
    matching.sort(key=_sort_key(sort), reverse=descending)
    return {
        "total": len(matching),
        "offset": offset,
        "limit": limit,
        "puzzles": [_row(row) for row in matching[offset : offset + limit]],
        "counts": _counts(rows),
        "library": len(rows),
    }


def _row(row: dict[str, Any]) -> dict[str, Any]:
    summary = {k: v for k, v in row.items() if k != "source"}
    summary["size"] = size_of(row)
    summary["state"] = state_of(row)
    return summary


def size_of(row: dict[str, Any]) -> str | None:
    side = max(row["width"] or 0, row["height"] or 0)
    for name, (low, high) in SIZES.items():
        if low <= side <= high:
            return name
    return None


def state_of(row: dict[str, Any]) -> str:
    if row["solved"]:
        return "solved"
    return "started" if row["progress"] else "new"


def _filters(
    q: str, genre: str, size: str | None, grade: str, state: str | None
) -> list[Callable[[dict[str, Any]], bool]]:
    tests: list[Callable[[dict[str, Any]], bool]] = []
    words = q.casefold().split()
    if words:

        def found(row: dict[str, Any]) -> bool:
            text = " ".join(str(row[k] or "") for k in ("title", "credit", "filename")).casefold()
            return all(word in text for word in words)

        tests.append(found)
    if genre:
        name = _genre_name(genre)
        tests.append(lambda row: row["genre"] == name)
    if size:
        tests.append(lambda row: size_of(row) == size)
    if grade:
        wanted = None if grade == UNGRADED else grade
        tests.append(lambda row: row["grade"] == wanted)
    if state:
        tests.append(lambda row: state_of(row) == state)
    return tests


def _genre_name(genre: str) -> str:
    """The genre's own name for a name or alias (an unknown one matches nothing)."""
    try:
        return base.get(genre).name
    except PuzzleError:
        return genre


def _grade_rank(genre: str, grade: str | None) -> tuple[int, int, str]:
    """Easiest first: the order of the genre's generator grades where the grade is one of
    them, search after every named step, and puzzles not graded yet last."""
    if grade is None:
        return (2, 0, "")
    if grade == "search":
        return (1, 0, "")
    order = _generator_grades(genre)
    return (0, order.index(grade) if grade in order else len(order), grade)


@cache
def _generator_grades(genre: str) -> tuple[str, ...]:
    try:
        chosen = base.get(genre)
    except PuzzleError:
        return ()
    if chosen.generate is None:
        return ()
    return next((o.choices for o in chosen.options() if o.name == "grade"), ())


def _sort_key(sort: str) -> Callable[[dict[str, Any]], Any]:
    def area(row: dict[str, Any]) -> int:
        return int((row["width"] or 0) * (row["height"] or 0))

    keys: dict[str, Callable[[dict[str, Any]], Any]] = {
        "shelf": lambda r: (r["genre"], not r["bundled"], area(r), r["id"]),
        "title": lambda r: (str(r["title"] or "").casefold(), r["id"]),
        "size": lambda r: (area(r), r["genre"], r["id"]),
        "grade": lambda r: (r["genre"], _grade_rank(r["genre"], r["grade"]), area(r), r["id"]),
        "progress": lambda r: (r["solved"], r["progress"], r["updated"] or "", r["id"]),
        "added": lambda r: (r["created"], r["id"]),
        "played": lambda r: (r["updated"] or "", r["id"]),
    }
    return keys[sort]


def _counts(rows: Iterable[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """How many puzzles of the whole library each filter choice holds."""
    counts: dict[str, Counter[str]] = {k: Counter() for k in ("genre", "size", "grade", "state")}
    for row in rows:
        counts["genre"][row["genre"]] += 1
        counts["size"][size_of(row) or "unknown"] += 1
        counts["grade"][row["grade"] or UNGRADED] += 1
        counts["state"][state_of(row)] += 1
    return {name: dict(sorted(counter.items())) for name, counter in counts.items()}


# -- the export --------------------------------------------------------------------------------
@router.get("/api/library/export", response_model=None)
async def export(store: StoreDep) -> Response:
    """The whole library as pencilbox-library-<date>.zip."""
    data = await run_in_threadpool(library_zip, store)
    stamp = datetime.now(UTC).strftime("%Y-%m-%d")
    return Response(
        data,
        media_type="application/zip",
        headers={"Content-Disposition": f'attachment; filename="pencilbox-library-{stamp}.zip"'},
    )


def library_zip(store: Store) -> bytes:
    """Every puzzle as <genre>/<id>-<title>.<extension> with its text as imported, and
    index.json: one entry per puzzle (its file, its facts and its saved game)."""
    buffer = io.BytesIO()
    entries = []
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for row in store.list_puzzles():
            name = f"{row['genre']}/{row['id']:05d}-{_slug(row['title'])}{_extension(row)}"
            archive.writestr(name, row["source"])
            entry = {k: v for k, v in row.items() if k != "source"}
            entry["file"] = name
            saved = store.load_game(row["id"])
            if saved is not None and saved.problem is None and saved.moves:
                entry["game"] = {"moves": saved.moves, "position": saved.position}
            entries.append(entry)
        index = {"pencilbox": "library", "version": 1, "puzzles": entries}
        archive.writestr("index.json", json.dumps(index, indent=1, ensure_ascii=False))
    return buffer.getvalue()


def _slug(title: str | None) -> str:
    words = re.findall(r"[A-Za-z0-9]+", title or "")
    return "-".join(words)[:60].lower() or "puzzle"


def _extension(row: dict[str, Any]) -> str:
    """The file name's own extension where it had one (it names the notation), else .txt
    (the importer reads the notation from the text)."""
    filename = str(row["filename"] or "")
    match = re.search(r"\.[A-Za-z0-9]{1,8}$", filename)
    return match.group(0).lower() if match else ".txt"
