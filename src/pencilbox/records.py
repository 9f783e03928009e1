"""The JSON records the command lines print: one per puzzle solved (`solve --jsonl`), graded
(`grade --jsonl`) or generated (`generate --json`). `pencilbox batch` writes the very same
objects, so they are built here once, for both.

Every record is plain JSON (str, numbers, bools, None, lists, dicts): it can be printed,
sent between processes and machines, and written to JSON Lines or Parquet as it is.
"""

from __future__ import annotations

import json
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from pencilbox.errors import PuzzleError
from pencilbox.genres import base
from pencilbox.genres.base import SolveResult
from pencilbox.inputs import describe

T = TypeVar("T")

SolveTask = tuple[str, int | None, Any, int, float | None, bool, bool]
"""(file, line, puzzle or PuzzleError, solutions to look for, time limit, single pass, grade
too)."""


# -- solve ------------------------------------------------------------------------------------
def empty_record(item: str) -> dict[str, Any]:
    """A solve record with nothing found yet (status "error" until something is)."""
    return {
        "file": item,
        "status": "error",
        "solutions": [],
        "grade": None,
        "time_s": 0.0,
        "stats": {},
        "error": None,
    }


def solve_record(item: str, number: int | None, puzzle: Any, result: SolveResult) -> dict[str, Any]:
    """The record of a finished search."""
    record: dict[str, Any] = {"file": item, "line": number, **empty_record(item)}
    if number is None:
        del record["line"]
    record.update(
        status=result.status,
        solutions=[puzzle.solution_json(g) for g in result.solutions],
        grade=result.grade,
        time_s=round(result.time_s, 6),
        stats=result.stats,
    )
    return record


def solve_records(tasks: Sequence[SolveTask]) -> Iterator[dict[str, Any]]:
    """The records of the tasks in order. A genre that solves lists (`solve_many`) gets the
    puzzles in one call; bad lines stay error records in their place."""
    puzzles = [task[2] for task in tasks if not isinstance(task[2], PuzzleError)]
    genre = base.get(puzzles[0].genre) if puzzles else None
    same_genre = genre is not None and all(p.genre == genre.name for p in puzzles)
    if genre is None or not same_genre or tasks[0][5] or genre.solve_many is None:
        yield from map(_solve_task, tasks)
        return
    results = genre.solve_many(puzzles, limit=tasks[0][3], time_limit=tasks[0][4])
    for task in tasks:
        if isinstance(task[2], PuzzleError):
            yield _solve_task(task)
            continue
        yield solve_record(task[0], task[1], task[2], next(results))


def _solve_task(task: SolveTask) -> dict[str, Any]:
    item, number, found, limit, time_limit, single_pass, grade = task
    record: dict[str, Any] = {"file": item, "line": number, **empty_record(item)}
    if isinstance(found, PuzzleError):
        record["error"] = str(found)
        return record
    if single_pass:
        record.update(status="partial", solutions=[found.solution_json(found.logic_grid(1))])
        return record
    result = found.solve(limit=limit, time_limit=time_limit, grade=grade)
    return solve_record(item, number, found, result)


# -- grade ------------------------------------------------------------------------------------
def grade_record(number: int, puzzle: Any, time_limit: float | None) -> dict[str, Any]:
    """What `grade --jsonl` prints for one puzzle (or the PuzzleError that stood for it)."""
    record: dict[str, Any] = {"line": number}
    if isinstance(puzzle, PuzzleError):
        record.update(
            level=None,
            score=None,
            hardest=None,
            solved_by_logic=False,
            time_s=0.0,
            error=str(puzzle),
        )
        return record
    started = time.perf_counter()
    report = within(time_limit, puzzle.grade_report)
    if report is None:
        record.update(level=None, score=None, hardest=None, solved_by_logic=False)
        record["timeout"] = True
    else:
        record.update(report)
    record["time_s"] = round(time.perf_counter() - started, 6)
    return record


def within(seconds: float | None, work: Callable[[], T]) -> T | None:
    """`work()`, or None when it has not finished within `seconds`. For work without a
    deadline of its own (a grade that walks a whole technique ladder): it runs in a forked
    child, which is stopped at the limit or on Ctrl-C."""
    if seconds is None:
        return work()
    import multiprocessing

    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_run_child, args=(work, sender), daemon=True)
    child.start()
    sender.close()
    try:
        if not receiver.poll(seconds):
            return None
        kind, value = receiver.recv()
    except EOFError:
        kind, value = "error", f"the worker process ended with status {child.exitcode}"
    finally:
        if child.is_alive():
            child.terminate()
        child.join()
        receiver.close()
    if kind == "puzzle error":
        raise PuzzleError(value)
    if kind == "error":
        raise RuntimeError(value)
    result: T = value
    return result


def _run_child(work: Callable[[], Any], sender: Any) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops us; it sees Ctrl-C itself
    try:
        sender.send(("ok", work()))
    except PuzzleError as error:
        sender.send(("puzzle error", str(error)))
    except Exception as error:
        sender.send(("error", describe(error)))


# -- generate ---------------------------------------------------------------------------------
def generated_data(genre: base.Genre, made: dict[str, Any]) -> dict[str, Any]:
    """What a generator said about its puzzle (everything but the puzzle object), with the
    genre's name and the time rounded."""
    data = {key: value for key, value in made.items() if key != "puzzle"}
    data["genre"] = genre.name
    data["time_s"] = round(float(data.get("time_s", 0.0)), 6)
    return data


def generated_record(genre: base.Genre, made: dict[str, Any]) -> dict[str, Any]:
    """What `generate --json` prints: the generator's details and the puzzle as text."""
    data = generated_data(genre, made)
    data.setdefault("text", made["puzzle"].to(genre.formats[0]) if "line" not in data else None)
    plain: dict[str, Any] = json.loads(json.dumps(data, default=str))
    return {key: value for key, value in plain.items() if value is not None}
