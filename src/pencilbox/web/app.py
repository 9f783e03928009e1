"""The HTTP API. It calls only the genre interface (`pencilbox.genres.base`), the session (mid-end)
and the store; genre knowledge stays in the genres (their play rules: `Genre.play`).

Endpoints are plain `def` functions, which FastAPI runs in its thread pool, so the event loop
keeps answering; solves and traces go further, to worker processes (`jobs`), so that their
pure-Python work does not hold the GIL the server needs. They have a time limit, and at most
`MAX_JOBS` run or wait at once (429 beyond that). Long work can also run as a background job
(`/api/jobs`: start, poll, cancel), and a trace can stream as server-sent events while it is
found (`/steps/stream`). Bad input is a 4xx JSON answer
`{"error": message, "line", "column", "where"}`, never a 500.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager, suppress
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlsplit

import anyio
from fastapi import Body as BodyParam
from fastapi import FastAPI, Request
from fastapi import Path as PathParameter
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import (
    FileResponse,
    JSONResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field, field_validator
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import pencilbox
from pencilbox.core.grid import Grid
from pencilbox.core.step import Step
from pencilbox.core.timing import Deadline, TimeLimitReached
from pencilbox.errors import (
    FormatError,
    InvalidPuzzle,
    LimitExceeded,
    PuzzleError,
    UnknownFormat,
    shorten,
)
from pencilbox.genres import base
from pencilbox.genres.base import SolveResult
from pencilbox.session import (
    Game,
    marks_json,
    parse_text,
    play_rules,
    playable,
    set_move,
    state_text,
)
from pencilbox.store import GAME_FORMAT, LibraryError, Store, default_path
from pencilbox.web import jobs, picture_review
from pencilbox.web.board import Board, Job, State, Work
from pencilbox.web.fetch import FetchRefused, fetch_text
from pencilbox.web.security import Guard, host_names

STATIC = Path(__file__).parent / "static"
MAX_BODY = 2_000_000
"""Largest request body in bytes."""
MAX_GRID = 200
"""Largest grid side accepted from users."""
MAX_JOBS = 12
"""Solves and traces running at once."""
SOLVE_TIME_LIMIT = 20.0
GENERATE_TIME_LIMIT = 60.0
"""Generators take no time limit of their own: their worker is stopped after this long."""
HINT_SOLVE_LIMIT = 5.0
"""How long a hint or a check may wait for the solution it compares against."""
MAX_TIME_LIMIT = 60.0
CACHE_SIZE = 64
LIVE_GAMES = 32
"""Games kept in memory (each with its history); the others are read again when played."""

log = logging.getLogger("pencilbox.web")


RETRY_AFTER_S = 5
"""What a busy server asks a client to wait before trying again (Retry-After)."""


class ApiError(Exception):
    def __init__(
        self, status: int, message: str, headers: dict[str, str] | None = None, **extra: Any
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers
        self.extra = extra


# -- request bodies ---------------------------------------------------------------------------
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


# -- per-puzzle memory ------------------------------------------------------------------------
@dataclass
class Entry:
    puzzle: Any
    result: SolveResult | None = None
    trace: list[Step] | None = None
    """The whole trace, once one was found within its time limit."""
    report: dict[str, Any] | None = None
    """The genre's logical grade (`grade_report`)."""


@dataclass
class Slot:
    """Where one puzzle's game lives while the server runs. Its lock is held for every read
    and change of the game, saving included, so that no answer shows a move that is not
    saved yet; slots are never dropped (the game in them is, when not used for a while), so
    two threads never play on two copies of one game."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    game: Game | None = None


class Library:
    """The store plus a small cache of parsed puzzles, their solve results and live games."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._entries: OrderedDict[int, Entry] = OrderedDict()
        self._lock = threading.Lock()
        self._jobs = threading.BoundedSemaphore(MAX_JOBS)
        self._slots: dict[int, Slot] = {}
        self._live: OrderedDict[int, None] = OrderedDict()

    def row(self, puzzle_id: int) -> dict[str, Any]:
        row = self.store.get_puzzle(puzzle_id)
        if row is None:
            raise ApiError(404, f"no puzzle with id {puzzle_id}")
        return row

    def entry(self, puzzle_id: int) -> Entry:
        with self._lock:
            if puzzle_id in self._entries:
                self._entries.move_to_end(puzzle_id)
                return self._entries[puzzle_id]
        row = self.row(puzzle_id)
        puzzle = parse_puzzle(row["source"], row["genre"], row["format"], row["filename"])
        entry = Entry(puzzle)
        with self._lock:
            entry = self._entries.setdefault(puzzle_id, entry)
            while len(self._entries) > CACHE_SIZE:
                self._entries.popitem(last=False)
        return entry

    def forget(self, puzzle_id: int) -> None:
        with self._lock:
            self._entries.pop(puzzle_id, None)

    def delete(self, puzzle_id: int) -> bool:
        """Remove a puzzle and its game (after any move on it in progress)."""
        slot = self._slot(puzzle_id)
        with slot.lock:
            deleted = self.store.delete_puzzle(puzzle_id)
            slot.game = None
        self.forget(puzzle_id)
        return deleted

    def claim(self) -> None:
        """Take one of the `MAX_JOBS` job slots (429 when none is free); `release` gives it
        back."""
        if not self._jobs.acquire(blocking=False):
            raise ApiError(
                429,
                f"{MAX_JOBS} solver jobs are running or waiting already; try again soon",
                headers={"Retry-After": str(RETRY_AFTER_S)},
            )

    def release(self) -> None:
        self._jobs.release()

    @contextmanager
    def job(self) -> Iterator[None]:
        self.claim()
        try:
            yield
        finally:
            self.release()

    def result(self, puzzle_id: int, deadline: Deadline) -> SolveResult:
        entry = self.entry(puzzle_id)
        if entry.result is None or entry.result.status == "timeout":
            with self.job():
                return self.solve_now(puzzle_id, entry, deadline)
        return entry.result

    def solve_now(
        self,
        puzzle_id: int,
        entry: Entry,
        deadline: Deadline,
        cancel: threading.Event | None = None,
    ) -> SolveResult:
        """Solve in a worker and remember the verdict; the caller holds a job slot."""
        started = time.monotonic()
        try:
            result = jobs.solve(entry.puzzle, deadline, cancel)
        except TimeLimitReached:
            result = SolveResult("timeout", [], None, time_s=time.monotonic() - started)
        entry.result = result
        if result.status != "timeout":
            self.store.set_verdict(puzzle_id, result.status, result.grade)
        return result

    def trace(self, puzzle_id: int, deadline: Deadline) -> jobs.Trace:
        entry = self.entry(puzzle_id)
        if entry.trace is not None:
            return jobs.Trace(entry.trace, complete=True)
        with self.job():
            return self.trace_now(entry, deadline)

    def trace_now(
        self,
        entry: Entry,
        deadline: Deadline,
        cancel: threading.Event | None = None,
        on_step: Callable[[Step], None] | None = None,
    ) -> jobs.Trace:
        """Trace in a worker, handing each step to `on_step` as it comes; a whole trace is
        kept. The caller holds a job slot."""
        found = jobs.trace(entry.puzzle, deadline, cancel, on_step)
        if found.complete:
            entry.trace = found.steps
        return found

    def report(self, puzzle_id: int, deadline: Deadline) -> dict[str, Any]:
        """The genre's logical grade (level, score, hardest technique), for genres that have
        one; {} when it took longer than the time limit."""
        entry = self.entry(puzzle_id)
        if entry.report is None and hasattr(entry.puzzle, "grade_report"):
            with self.job():
                try:
                    entry.report = jobs.grade_report(entry.puzzle, deadline)
                except TimeLimitReached:
                    return {}
        return entry.report or {}

    def solution(self, puzzle_id: int) -> Grid | None:
        """The unique solution when it is known or cheap to find (for checks and hints);
        None when the solver is busy or slow."""
        entry = self.entry(puzzle_id)
        if entry.result is None:
            with suppress(ApiError, jobs.NoWorker):
                self.result(puzzle_id, deadline_for(HINT_SOLVE_LIMIT))
        if entry.result is not None and entry.result.status == "unique":
            solved: Grid = entry.result.solutions[0]
            return solved
        return None

    # -- games ----------------------------------------------------------------------------
    @contextmanager
    def playing(self, puzzle_id: int) -> Iterator[tuple[Entry, Game]]:
        """The puzzle's game, loaded when needed, with its lock held."""
        entry = self.entry(puzzle_id)
        if not playable(entry.puzzle.genre):
            raise ApiError(409, f"the {entry.puzzle.genre} genre cannot be played here yet")
        slot = self._slot(puzzle_id)
        with slot.lock:
            if slot.game is None:
                slot.game = self._load(puzzle_id, entry.puzzle)
            self._used(puzzle_id)
            yield entry, slot.game

    def save(self, puzzle_id: int, game: Game) -> None:
        """Write what changed since the last save (the caller holds the game's lock). When
        that fails the game is dropped from memory, to be read again from the file: memory
        never runs ahead of what is saved."""
        try:
            self.store.write_game(
                puzzle_id,
                keep=game.unsaved_from,
                moves=[change.move for change in game.history[game.unsaved_from :]],
                position=game.position,
                progress=game.progress(),
                solved=game.solved(),
            )
        except BaseException:
            self._slot(puzzle_id).game = None
            raise
        game.unsaved_from = len(game.history)

    def _load(self, puzzle_id: int, puzzle: Any) -> Game:
        """Read a saved game. One saved the old way (a JSON list) is converted; one that
        cannot be read whole is copied aside (`damaged_games`), continued from what could be
        read, and the player is told."""
        if self.store.get_puzzle(puzzle_id) is None:  # deleted while we waited
            raise ApiError(404, f"no puzzle with id {puzzle_id}")
        saved = self.store.load_game(puzzle_id)
        if saved is None:
            return Game.new(puzzle)
        game, problem = Game.replay(puzzle, saved.moves, saved.position)
        problem = saved.problem or problem
        if problem:
            log.warning("puzzle %d: the saved game cannot be read whole: %s", puzzle_id, problem)
            self.store.keep_damaged(puzzle_id, problem)
            game.notice = (
                f"The saved game could not be read whole: {problem}. It goes on from the "
                f"{len(game.history)} moves that could be read; the saved record is kept in "
                "the library file (table damaged_games)."
            )
        if problem or saved.format != GAME_FORMAT:
            game.unsaved_from = 0
            self.save(puzzle_id, game)
        return game

    def _slot(self, puzzle_id: int) -> Slot:
        with self._lock:
            return self._slots.setdefault(puzzle_id, Slot())

    def _used(self, puzzle_id: int) -> None:
        """Keep at most `LIVE_GAMES` games in memory: drop the least recently used ones that
        nobody is playing right now (they are saved)."""
        with self._lock:
            self._live[puzzle_id] = None
            self._live.move_to_end(puzzle_id)
            idle = [i for i in self._live if i != puzzle_id][: max(0, len(self._live) - LIVE_GAMES)]
        for old in idle:
            slot = self._slot(old)
            if slot.lock.acquire(blocking=False):
                try:
                    slot.game = None
                finally:
                    slot.lock.release()
                with self._lock:
                    self._live.pop(old, None)


def _limit(time_limit: float | None) -> float:
    if time_limit is None:
        return SOLVE_TIME_LIMIT
    if not math.isfinite(time_limit) or time_limit <= 0:
        raise ApiError(422, f"time_limit must be a number of seconds above 0, not {time_limit!r}")
    return max(0.01, min(float(time_limit), MAX_TIME_LIMIT))


# -- time limits count from the request -------------------------------------------------------
_arrived: ContextVar[float | None] = ContextVar("pencilbox_request_arrived", default=None)


class Arrival:
    """Notes when each request arrived (before it waits for a thread or a worker), so that
    a time limit counts from there."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            _arrived.set(time.monotonic())
        await self.app(scope, receive, send)


def deadline_for(time_limit: float | None) -> Deadline:
    """The deadline of a request's work: its time limit (checked; SOLVE_TIME_LIMIT when
    none) from the moment the request arrived."""
    seconds = _limit(time_limit)
    arrived = _arrived.get()
    waited = time.monotonic() - arrived if arrived is not None else 0.0
    return Deadline(seconds - waited)


def _generate_deadline(time_limit: float | None) -> Deadline:
    return deadline_for(GENERATE_TIME_LIMIT if time_limit is None else time_limit)


# -- helpers ----------------------------------------------------------------------------------
PUZZLINK_HOSTS = ("puzz.link", "pzv.jp", "pzprxs.vercel.app", "pzplus.tck.mn")
"""Hosts of puzz.link-style URLs: their puzzle is in the URL itself, so they are never fetched."""


def _load_text(body: PuzzleText, allow_fetch: bool = False) -> Any:
    """Parse pasted or uploaded text; a plain http(s) URL that no notation reads is fetched
    when the server was started with --allow-fetch (see `fetch`)."""
    text = body.text
    if not text.strip():
        raise ApiError(422, "the puzzle text is empty")
    try:
        return _parse(text, body)
    except UnknownFormat:
        stripped = text.strip()
        if not stripped.lower().startswith(("http://", "https://")) or "\n" in stripped:
            raise
        if _is_puzzlink(stripped):
            raise UnknownFormat(
                "pencilbox reads puzz.link URLs itself (it never fetches them) and does not "
                "know this URL's puzzle type"
            ) from None
        if not allow_fetch:
            raise ApiError(
                422,
                "this server does not fetch URLs: paste the puzzle's text instead, or start "
                "it with `pencilbox serve --allow-fetch`",
            ) from None
        try:
            fetched = fetch_text(stripped)
        except FetchRefused as refused:
            raise ApiError(422, str(refused)) from None
        body.text = fetched
        return _parse(fetched, body)


def _is_puzzlink(url: str) -> bool:
    try:
        host = (urlsplit(url).hostname or "").rstrip(".")
    except ValueError:
        return False
    return any(host == known or host.endswith("." + known) for known in PUZZLINK_HOSTS)


def _parse(text: str, body: PuzzleText) -> Any:
    return parse_puzzle(text, body.genre or None, body.format or None, body.filename)


PARSE_ERRORS = (ValueError, OSError, RecursionError)
"""What a parser bug could still raise instead of a PuzzleError: answered as bad input (422)."""


def parse_puzzle(text: str, genre: str | None, format: str | None, filename: str | None) -> Any:
    with reading():
        return parse_text(text, genre, format, filename, max_size=MAX_GRID)


@contextmanager
def reading() -> Iterator[None]:
    """The safety net under every parser: an error that is not a PuzzleError is still the
    input's fault, so it is a 422 in one sentence (never a 500 with a traceback)."""
    try:
        yield
    except PuzzleError:
        raise
    except PARSE_ERRORS as error:
        cause = shorten(f"{type(error).__name__}: {error}", 80)
        raise FormatError(f"cannot read this puzzle ({cause})") from None


def _puzzle_json(puzzle: Any) -> dict[str, Any]:
    rules = play_rules(puzzle.genre)
    if rules is not None:
        return rules.puzzle_json(puzzle)
    width, height = _dimensions(puzzle)
    return {"genre": puzzle.genre, "title": puzzle.title, "width": width, "height": height}


def _game_json(puzzle_id: int, entry: Entry, game: Game, **extra: Any) -> dict[str, Any]:
    return {
        "puzzle_id": puzzle_id,
        "genre": entry.puzzle.genre,
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


def _drawable(entry: Entry, game: Game) -> Any:
    """The game state in the form the genre's renderer takes (its play
    rules' `walls`, when it has them)."""
    convert = getattr(game.rules, "walls", None)
    return convert(entry.puzzle, game.state) if convert is not None else game.state


def _result_json(puzzle: Any, result: SolveResult) -> dict[str, Any]:
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


def _dimensions(puzzle: Any) -> tuple[int | None, int | None]:
    """Width and height, for genres that name them so or only have a `size`."""
    width = getattr(puzzle, "width", None)
    height = getattr(puzzle, "height", None)
    size = getattr(puzzle, "size", None)
    if width is None and isinstance(size, int):
        width = height = size
    return width, height


def _default_title(puzzle: Any) -> str:
    width, height = _dimensions(puzzle)
    return f"{puzzle.genre} {width}x{height}" if width else f"{puzzle.genre} puzzle"


def _summary(row: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in row.items() if k != "source"}


def _generator(name: str) -> str:
    chosen = base.get(name)
    if chosen.generate is None:
        raise ApiError(422, f"the {chosen.name} genre has no generator yet")
    return chosen.name


def _trace_json(trace: jobs.Trace) -> dict[str, Any]:
    return {
        "count": len(trace.steps),
        "steps": [s.to_json() for s in trace.steps],
        "complete": trace.complete,
    }


# -- background jobs --------------------------------------------------------------------------
def _job(board: Board, job_id: int) -> Job:
    job = board.get(job_id)
    if job is None:
        raise ApiError(404, f"no job with id {job_id}")
    return job


def _solve_work(
    library: Library,
    puzzle_id: int,
    entry: Entry,
    deadline: Deadline,
    cancel: threading.Event,
) -> tuple[State, Any]:
    result = entry.result
    if result is None or result.status == "timeout":
        result = library.solve_now(puzzle_id, entry, deadline, cancel)
    state: State = "timeout" if result.status == "timeout" else "done"
    return state, _result_json(entry.puzzle, result)


def _trace_work(
    library: Library, entry: Entry, deadline: Deadline, cancel: threading.Event
) -> tuple[State, Any]:
    if entry.trace is not None:
        trace = jobs.Trace(entry.trace, complete=True)
    else:
        trace = library.trace_now(entry, deadline, cancel)
    return ("done" if trace.complete else "timeout"), _trace_json(trace)


# -- server-sent events -----------------------------------------------------------------------
def _event(name: str, data: Any) -> str:
    return f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


async def _replay(trace: list[Step]) -> AsyncIterator[str]:
    """A trace found before, sent at once."""
    yield "".join(_event("step", s.to_json()) for s in trace)
    yield _event("done", {"count": len(trace), "complete": True})


class _StepFeed:
    """Events made in a worker thread, handed to the event loop as they come."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.inbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.cancel = threading.Event()

    def put(self, chunk: str | None) -> None:
        """From the worker thread; None ends the stream."""
        with suppress(RuntimeError):  # the loop is closed: nobody listens any more
            self.loop.call_soon_threadsafe(self.inbox.put_nowait, chunk)

    async def events(self) -> AsyncIterator[str]:
        """What has piled up goes out in one write; leaving (the client went) stops the job."""
        try:
            while True:
                chunk = await self.inbox.get()
                parts: list[str] = []
                while chunk is not None:
                    parts.append(chunk)
                    if self.inbox.empty():
                        break
                    chunk = self.inbox.get_nowait()
                if parts:
                    yield "".join(parts)
                if chunk is None:
                    return
        finally:
            self.cancel.set()


def _feed_trace(library: Library, entry: Entry, deadline: Deadline, feed: _StepFeed) -> None:
    """Run in a thread of its own that holds a job slot (released here when it ends)."""
    try:
        found = library.trace_now(
            entry, deadline, feed.cancel, lambda step: feed.put(_event("step", step.to_json()))
        )
        feed.put(_event("done", {"count": len(found.steps), "complete": found.complete}))
    except jobs.Cancelled:
        pass
    except TimeLimitReached:
        feed.put(_event("done", {"count": 0, "complete": False}))
    except jobs.NoWorker as busy:
        feed.put(_event("error", {"error": str(busy)}))
    except Exception as error:
        feed.put(_event("error", {"error": str(error) or type(error).__name__}))
    finally:
        feed.put(None)
        library.release()


class EventStream(StreamingResponse):
    """A `text/event-stream` answer that stops as soon as the client disconnects, whatever
    ASGI version the server speaks (so that the work behind it stops too)."""

    media_type = "text/event-stream"

    def __init__(self, content: AsyncIterator[str]) -> None:
        super().__init__(content, headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async with anyio.create_task_group() as group:

            async def stream() -> None:
                with suppress(OSError):  # the client went while we wrote
                    await self.stream_response(send)
                group.cancel_scope.cancel()

            group.start_soon(stream)
            await self.listen_for_disconnect(receive)
            group.cancel_scope.cancel()


# -- the body-size limit ----------------------------------------------------------------------
class BodyLimit:
    """Refuse request bodies above `limit` bytes with 413, declared or streamed."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length" and value.isdigit() and int(value) > self.limit:
                await _too_large(self.limit, send)
                return
        received = 0
        refused = False

        async def limited() -> Message:
            nonlocal received, refused
            message = await receive()
            if message["type"] == "http.request" and not refused:
                received += len(message.get("body", b""))
                if received > self.limit:
                    refused = True
                    await _too_large(self.limit, send)
            if refused:
                return {"type": "http.disconnect"}
            return message

        async def guarded(message: Message) -> None:
            if not refused:  # the 413 is the whole answer
                await send(message)

        try:
            await self.app(scope, limited, guarded)
        except Exception:
            if not refused:
                raise


async def _too_large(limit: int, send: Send) -> None:
    response = JSONResponse({"error": f"the request is larger than {limit} bytes"}, 413)
    await response({"type": "http"}, _no_receive, send)


async def _no_receive() -> Message:
    return {"type": "http.disconnect"}


def _answer_errors(app: FastAPI) -> None:
    """Every error a request can meet, as a JSON answer: bad input is 4xx, a busy or failing
    server 503 with Retry-After, never a 500 with a traceback."""

    @app.exception_handler(ApiError)
    async def api_error(request: Request, error: ApiError) -> JSONResponse:
        return JSONResponse(
            {"error": error.message, **error.extra}, error.status, headers=error.headers
        )

    @app.exception_handler(jobs.NoWorker)
    async def no_worker(request: Request, error: jobs.NoWorker) -> JSONResponse:
        return JSONResponse({"error": str(error)}, 503, headers={"Retry-After": str(RETRY_AFTER_S)})

    @app.exception_handler(LibraryError)
    async def library_error(request: Request, error: LibraryError) -> JSONResponse:
        """The library file failed under us (disk full, removed, made read-only): nothing
        was changed; the client may try again."""
        return JSONResponse({"error": str(error)}, 503, headers={"Retry-After": "5"})

    @app.exception_handler(PuzzleError)
    async def puzzle_error(request: Request, error: PuzzleError) -> JSONResponse:
        body: dict[str, Any] = {"error": str(error), "kind": type(error).__name__}
        if isinstance(error, FormatError):
            body.update(line=error.line, column=error.column, reason=error.reason)
        if isinstance(error, InvalidPuzzle):
            body.update(where=error.where, reason=error.reason)
        status = 413 if isinstance(error, LimitExceeded) else 422
        return JSONResponse(body, status)

    @app.exception_handler(TimeLimitReached)
    async def too_slow(request: Request, error: TimeLimitReached) -> JSONResponse:
        return JSONResponse({"error": "no answer within the time limit"}, 504)

    @app.exception_handler(jobs.WorkerLost)
    async def worker_lost(request: Request, error: jobs.WorkerLost) -> JSONResponse:
        retry = {"Retry-After": str(RETRY_AFTER_S)}
        return JSONResponse({"error": f"{error}; try again"}, 503, headers=retry)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, error: RequestValidationError) -> JSONResponse:
        problems = error.errors()
        first = problems[0] if problems else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        message = f"{where}: {first.get('msg', 'invalid request')}" if where else "bad request"
        detail = [{k: v for k, v in p.items() if k in ("loc", "msg", "type")} for p in problems]
        return JSONResponse({"error": message, "detail": detail}, 422)


# -- the app ----------------------------------------------------------------------------------
def _genre_json(genre: base.Genre) -> dict[str, Any]:
    page = _page_of(genre.name)
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


def _page_of(name: str) -> Path | None:
    """The page file of the genre called `name` (not an alias), if it has one."""
    try:
        genre = base.get(name) if name.isalnum() else None
    except PuzzleError:
        return None
    if genre is None or genre.name != name or genre.page is None:
        return None
    page = genre.page / f"{name}.html"
    return page if page.is_file() else None


def _static_files() -> StaticFiles:
    """/static/: the shared files (static/), then each genre's page folder, so that a page
    and its modules live in the genre's package."""
    files = StaticFiles(directory=STATIC)
    pages = [g.page for g in base.all_genres() if g.page is not None and g.page.is_dir()]
    files.all_directories = [*files.all_directories, *pages]
    return files


def create_app(
    db_path: str | Path | None = None,
    *,
    seed: bool = True,
    host: str | None = None,
    allowed_hosts: Sequence[str] = (),
    allow_fetch: bool = False,
) -> FastAPI:
    """The app on the library file `db_path`. It answers to the Host names 127.0.0.1,
    localhost and [::1] on the port it listens on, to `host` (the address it was started
    on) and to `allowed_hosts` (`name` or `name:port`); `allow_fetch` lets the import box
    fetch pasted URLs (public addresses only)."""
    names = host_names(host, allowed_hosts)
    store = Store(db_path or default_path())
    if seed:
        store.seed()
    library = Library(store)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        jobs.prewarm()
        try:
            yield
        finally:
            store.close()  # (and its lock: another server may use the file now)

    app = FastAPI(
        lifespan=lifespan,
        title="pencilbox",
        version=pencilbox.__version__,
        description="Solve, explain, hint, animate and play grid logic puzzles.",
    )
    app.state.library = library
    board = Board()
    app.state.board = board
    app.add_middleware(BodyLimit)
    app.add_middleware(Arrival)
    app.add_middleware(Guard, names=names)  # added last: runs first

    _answer_errors(app)

    # -- pages ------------------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/play/{puzzle_id}", include_in_schema=False)
    def play(puzzle_id: Id) -> RedirectResponse:
        genre = library.row(puzzle_id)["genre"]
        return RedirectResponse(f"/{genre}?id={puzzle_id}")

    @app.get("/{genre}", include_in_schema=False)
    def genre_page(genre: str) -> FileResponse:
        """A genre's page is {genre}.html in its package's page folder (`Genre.page`):
        adding a genre adds no route."""
        page = _page_of(genre)
        if page is None:
            raise ApiError(404, f"no page {genre!r}")
        return FileResponse(page)

    app.mount("/static", _static_files(), name="static")
    app.include_router(picture_review.router)  # (before /api/{genre}/{name}, which is last)

    # -- genres and parsing -----------------------------------------------------------------
    @app.get("/api/health")
    def health() -> dict[str, Any]:
        return {"ok": True, "version": pencilbox.__version__}

    @app.get("/api/genres")
    def genres() -> list[dict[str, Any]]:
        return [_genre_json(g) for g in base.all_genres()]

    @app.post("/api/parse")
    def parse(body: PuzzleText) -> dict[str, Any]:
        puzzle = _load_text(body, allow_fetch)
        return {"puzzle": _puzzle_json(puzzle)}

    @app.post("/api/convert", response_model=None)
    def convert(body: ConvertRequest) -> Response:
        puzzle = _load_text(body, allow_fetch)
        if body.to == "svg":
            return Response(puzzle.render(None, "svg"), media_type="image/svg+xml")
        if body.to == "png":
            return Response(puzzle.render_png(None), media_type="image/png")
        with reading():
            return JSONResponse({"format": body.to, "text": puzzle.to(body.to)})

    @app.post("/api/generate", status_code=201)
    def generate(body: GenerateRequest) -> dict[str, Any]:
        """Make a new puzzle with the genre's generator and add it to the library."""
        genre = _generator(body.genre)
        with library.job():
            return generated(genre, body, _generate_deadline(body.time_limit))

    def generated(
        genre: str, body: GenerateRequest, deadline: Deadline, cancel: threading.Event | None = None
    ) -> dict[str, Any]:
        """Generate in a worker and add the puzzle to the library; the caller holds a slot."""
        made = jobs.generate(genre, dict(body.options), deadline, cancel)
        puzzle = parse_puzzle(made["text"], made["genre"], made["format"], None)
        seed = made["info"].get("seed")
        title = body.title or f"generated {made['genre']}" + (f" (seed {seed})" if seed else "")
        puzzle_id, _ = store.add_puzzle(
            genre=made["genre"],
            source=made["text"],
            format=made["format"],
            title=title,
            width=_dimensions(puzzle)[0],
            height=_dimensions(puzzle)[1],
        )
        return {**_summary(library.row(puzzle_id)), "generator": made["info"]}

    # -- the library ------------------------------------------------------------------------
    @app.get("/api/puzzles")
    def list_puzzles() -> list[dict[str, Any]]:
        return [_summary(row) for row in store.list_puzzles()]

    @app.post("/api/puzzles", status_code=201)
    def import_puzzle(body: PuzzleText) -> dict[str, Any]:
        puzzle = _load_text(body, allow_fetch)
        title = body.title or puzzle.title or (Path(body.filename).stem if body.filename else None)
        puzzle_id, created = store.add_puzzle(
            genre=puzzle.genre,
            source=body.text,
            format=body.format or None,
            filename=body.filename,
            title=title or _default_title(puzzle),
            width=_dimensions(puzzle)[0],
            height=_dimensions(puzzle)[1],
        )
        return {**_summary(library.row(puzzle_id)), "new": created}

    @app.get("/api/puzzles/{puzzle_id}")
    def get_puzzle(puzzle_id: Id) -> dict[str, Any]:
        row = library.row(puzzle_id)
        entry = library.entry(puzzle_id)
        return {**row, "puzzle": _puzzle_json(entry.puzzle)}

    @app.delete("/api/puzzles/{puzzle_id}")
    def delete_puzzle(puzzle_id: Id) -> dict[str, Any]:
        if not library.delete(puzzle_id):
            raise ApiError(404, f"no puzzle with id {puzzle_id}")
        return {"deleted": puzzle_id}

    @app.get("/api/puzzles/{puzzle_id}/thumbnail.svg")
    def thumbnail(puzzle_id: Id) -> Response:
        entry = library.entry(puzzle_id)
        state = None
        if playable(entry.puzzle.genre):
            with library.playing(puzzle_id) as played:
                state = _drawable(*played)
        svg = entry.puzzle.render(state, "svg")
        return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "no-store"})

    @app.get("/api/puzzles/{puzzle_id}/export", response_model=None)
    def export(puzzle_id: Id, format: str = "svg", state: str = "game") -> Response:
        entry = library.entry(puzzle_id)
        grid = None
        if state == "game" and playable(entry.puzzle.genre):
            with library.playing(puzzle_id) as played:
                grid = _drawable(*played)
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

    @app.get("/api/puzzles/{puzzle_id}/solve")
    def solve_puzzle(puzzle_id: Id, time_limit: float | None = None) -> dict[str, Any]:
        entry = library.entry(puzzle_id)
        return _result_json(entry.puzzle, library.result(puzzle_id, deadline_for(time_limit)))

    @app.get("/api/puzzles/{puzzle_id}/grade")
    def grade(puzzle_id: Id, time_limit: float | None = None) -> dict[str, Any]:
        """The solver's verdict and grade, and the genre's logical grade where it has one
        (a level, a score and the hardest technique)."""
        deadline = deadline_for(time_limit)
        result = library.result(puzzle_id, deadline)
        report = library.report(puzzle_id, deadline)
        logical = {k: report[k] for k in ("level", "score", "hardest") if report.get(k) is not None}
        return {"status": result.status, "grade": result.grade, **logical}

    @app.get("/api/puzzles/{puzzle_id}/steps")
    def steps(puzzle_id: Id, time_limit: float | None = None) -> dict[str, Any]:
        try:
            return _trace_json(library.trace(puzzle_id, deadline_for(time_limit)))
        except TimeLimitReached:
            limit = _limit(time_limit)
            raise ApiError(504, f"no trace within the time limit of {limit:g} s") from None

    @app.get("/api/puzzles/{puzzle_id}/steps/stream", response_model=None)
    async def stream_steps(puzzle_id: Id, time_limit: float | None = None) -> EventStream:
        """The trace as server-sent events while the worker finds it: `step` events (the
        items of /steps), then `done` {"count", "complete"}, or `error` {"error"}. The work
        stops when the client goes away."""
        deadline = deadline_for(time_limit)
        entry = await run_in_threadpool(library.entry, puzzle_id)
        if entry.trace is not None:
            return EventStream(_replay(entry.trace))
        feed = _StepFeed(asyncio.get_running_loop())
        library.claim()
        threading.Thread(
            target=_feed_trace, args=(library, entry, deadline, feed), daemon=True
        ).start()
        return EventStream(feed.events())

    # -- background jobs --------------------------------------------------------------------
    @app.post("/api/jobs", status_code=202)
    def start_job(body: JobRequest) -> dict[str, Any]:
        """Start a solve, generate or steps job; poll it with GET, stop it with DELETE."""
        work = job_work(body)
        library.claim()
        job = board.start(body.kind, work, library.release)
        return {"id": job.id, "state": "running"}

    @app.get("/api/jobs/{job_id}")
    def get_job(job_id: Id) -> dict[str, Any]:
        return _job(board, job_id).to_json()

    @app.delete("/api/jobs/{job_id}")
    def cancel_job(job_id: Id) -> dict[str, Any]:
        job = _job(board, job_id)
        if job.state != "running":
            raise ApiError(409, f"job {job_id} is over already ({job.state})", state=job.state)
        cancelled = board.cancel(job_id)
        return (cancelled or job).to_json()

    def job_work(body: JobRequest) -> Work:
        """Check the request now (so that mistakes are 4xx answers, not failed jobs) and
        return the work to run in the background."""
        if body.kind not in JOB_KINDS:
            raise ApiError(422, f"kind must be one of {', '.join(JOB_KINDS)}, not {body.kind!r}")
        if body.kind == "generate":
            if not body.genre:
                raise ApiError(422, "a generate job needs a genre")
            genre = _generator(body.genre)
            request = GenerateRequest(genre=genre, options=body.options, title=body.title)
            deadline = _generate_deadline(body.time_limit)
            return lambda cancel: ("done", generated(genre, request, deadline, cancel))
        if body.puzzle_id is None:
            raise ApiError(422, f"a {body.kind} job needs a puzzle_id")
        puzzle_id = body.puzzle_id
        entry = library.entry(puzzle_id)
        deadline = deadline_for(body.time_limit)
        if body.kind == "solve":
            return lambda cancel: _solve_work(library, puzzle_id, entry, deadline, cancel)
        return lambda cancel: _trace_work(library, entry, deadline, cancel)

    # -- games ------------------------------------------------------------------------------
    @app.get("/api/games/{puzzle_id}")
    def get_game(puzzle_id: Id) -> dict[str, Any]:
        with library.playing(puzzle_id) as (entry, game):
            return _game_json(puzzle_id, entry, game)

    @app.get("/api/games/{puzzle_id}/moves")
    def game_moves(puzzle_id: Id) -> dict[str, Any]:
        """The history: every move as saved (a `grid` move as the cells it changed), and how
        many of them are played (the rest can be redone)."""
        with library.playing(puzzle_id) as (_, game):
            return {"puzzle_id": puzzle_id, "moves": game.moves, "position": game.position}

    def _change(puzzle_id: int, action: Callable[[Game], Any], **extra: Any) -> dict[str, Any]:
        """Change the game, save it and answer, all under the game's lock: an answer never
        shows a move that is not saved."""
        with library.playing(puzzle_id) as (entry, game):
            game.notice = None  # told once, with the answer that follows it
            outcome = action(game)
            library.save(puzzle_id, game)
            return _game_json(puzzle_id, entry, game, changed=bool(outcome), **extra)

    @app.post("/api/games/{puzzle_id}/move")
    def move(puzzle_id: Id, body: MoveRequest) -> dict[str, Any]:
        return _change(puzzle_id, lambda game: game.play(body.move))

    @app.post("/api/games/{puzzle_id}/undo")
    def undo(puzzle_id: Id) -> dict[str, Any]:
        return _change(puzzle_id, lambda game: game.undo())

    @app.post("/api/games/{puzzle_id}/redo")
    def redo(puzzle_id: Id) -> dict[str, Any]:
        return _change(puzzle_id, lambda game: game.redo())

    def _reset(game: Game) -> bool:
        game.reset()
        return True

    @app.post("/api/games/{puzzle_id}/reset")
    def reset(puzzle_id: Id) -> dict[str, Any]:
        return _change(puzzle_id, _reset)

    @app.post("/api/games/{puzzle_id}/hint")
    def hint(puzzle_id: Id) -> dict[str, Any]:
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

    @app.post("/api/games/{puzzle_id}/pass")
    def single_pass(puzzle_id: Id) -> dict[str, Any]:
        found: list[Step] = []
        before: list[str] = []

        def one_pass(game: Game) -> bool:
            before.append(state_text(game.rules, game.state))
            found.extend(game.single_pass())
            return bool(found)

        answer = _change(puzzle_id, one_pass)
        return {**answer, "before": before[0], "steps": [s.to_json() for s in found]}

    @app.post("/api/games/{puzzle_id}/solve")
    def solve_game(puzzle_id: Id, body: SolveRequest | None = None) -> dict[str, Any]:
        request = body or SolveRequest()
        result = library.result(puzzle_id, deadline_for(request.time_limit))
        entry = library.entry(puzzle_id)
        answer = _change(puzzle_id, lambda game: request.apply and game.solve(result))
        return {**answer, "result": _result_json(entry.puzzle, result)}

    @app.get("/api/games/{puzzle_id}/check")
    def check(puzzle_id: Id) -> dict[str, Any]:
        solution = library.solution(puzzle_id)
        with library.playing(puzzle_id) as (_, game):
            return game.check(solution)

    @app.post("/api/{genre}/{name}")  # (last: it must not hide another route)
    def genre_action(
        genre: str, name: str, body: Annotated[dict[str, Any], BodyParam()]
    ) -> dict[str, Any]:
        """A genre's own endpoint (`Genre.actions`): its page may ask its package things
        the other endpoints do not cover (the clue boxes checked as the user types, say)."""
        return _genre_action(genre, name, body)

    return app


def _genre_action(genre: str, name: str, body: dict[str, Any]) -> dict[str, Any]:
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
