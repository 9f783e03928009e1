"""The library as the web app holds it: the store, a small cache of parsed puzzles with their
solve results, traces and grades, the live games (one lock each), and the job slots. Solving,
tracing, grading and generating run in the worker pool it is given (`jobs`)."""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from typing import Any, Protocol

from pencilbox.core.grid import Grid
from pencilbox.core.step import Step
from pencilbox.core.timing import Deadline, TimeLimitReached
from pencilbox.genres import base
from pencilbox.genres.base import SolveResult, dimensions
from pencilbox.session import Game, playable
from pencilbox.store import GAME_FORMAT, Store
from pencilbox.web import jobs
from pencilbox.web.errors import RETRY_AFTER_S, ApiError
from pencilbox.web.limits import deadline_for
from pencilbox.web.reading import parse_puzzle

MAX_JOBS = 12
"""Solves and traces running at once."""
HINT_SOLVE_LIMIT = 5.0
"""How long a hint or a check may wait for the solution it compares against."""
CACHE_SIZE = 64
LIVE_GAMES = 32
"""Games kept in memory (each with its history); the others are read again when played."""

log = logging.getLogger("pencilbox.web")


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


class Workers(Protocol):
    """The worker pool (the `jobs` module): the long work, each with its deadline and a flag
    that cancels it."""

    def solve(
        self, puzzle: Any, deadline: Deadline, cancel: threading.Event | None = None
    ) -> SolveResult: ...

    def trace(
        self,
        puzzle: Any,
        deadline: Deadline,
        cancel: threading.Event | None = None,
        on_step: Callable[[Step], None] | None = None,
    ) -> jobs.Trace: ...

    def grade_report(
        self, puzzle: Any, deadline: Deadline, cancel: threading.Event | None = None
    ) -> dict[str, Any]: ...

    def generate(
        self,
        genre: str,
        options: dict[str, Any],
        deadline: Deadline,
        cancel: threading.Event | None = None,
    ) -> dict[str, Any]: ...


def generator_name(name: str) -> str:
    """The genre called `name` (or an alias), which must have a generator."""
    chosen = base.get(name)
    if chosen.generate is None:
        raise ApiError(422, f"the {chosen.name} genre has no generator yet")
    return chosen.name


def generate_puzzle(
    store: Store,
    workers: Workers,
    genre: str,
    options: dict[str, Any],
    title: str | None,
    deadline: Deadline,
    cancel: threading.Event | None = None,
) -> tuple[int, dict[str, Any]]:
    """Generate in a worker and add the puzzle to the store (the caller holds a job slot):
    its id and what the generator told about it (seed, grade...)."""
    made = workers.generate(genre, options, deadline, cancel)
    puzzle = parse_puzzle(made["text"], made["genre"], made["format"], None)
    title = title or made_title(made)
    width, height = dimensions(puzzle)
    puzzle_id, _ = store.add_puzzle(
        genre=made["genre"],
        source=made["text"],
        format=made["format"],
        title=title,
        width=width,
        height=height,
    )
    info: dict[str, Any] = made["info"]
    return puzzle_id, info


def made_title(made: dict[str, Any]) -> str:
    """The title of a generated puzzle the user did not name."""
    seed = made["info"].get("seed")
    return f"generated {made['genre']}" + (f" (seed {seed})" if seed else "")


class Library:
    """The store plus a small cache of parsed puzzles, their solve results and live games."""

    def __init__(self, store: Store, workers: Workers = jobs) -> None:
        self.store = store
        self.workers = workers
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
            result = self.workers.solve(entry.puzzle, deadline, cancel)
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
        found = self.workers.trace(entry.puzzle, deadline, cancel, on_step)
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
                    entry.report = self.workers.grade_report(entry.puzzle, deadline)
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
