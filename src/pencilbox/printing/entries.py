"""A puzzle made ready to print: solved (a solution printed is a proven one: only a puzzle
with a unique solution gets one) and graded, for its caption."""

from __future__ import annotations

from typing import Any

from pencilbox.core.pages import Notice
from pencilbox.printing.document import Entry
from pencilbox.records import grade_record


def prepared(
    puzzle: Any,
    number: int,
    *,
    grade: str | None = None,
    state: Any = None,
    solve: bool = True,
    time_limit: float | None = None,
    note: str = "",
) -> tuple[Entry, Notice | None]:
    """The entry, and what the user should know about it (no unique solution, no grade in
    time). `grade` None: graded here (the genre's level, as `pencilbox grade` says it)."""
    notice = None
    solution = None
    if solve:
        result = puzzle.solve(limit=2, time_limit=time_limit)
        if result.status == "unique":
            solution = result.solutions[0]
        else:
            said = {"multiple": "more than one solution", "none": "no solution"}
            reason = said.get(result.status, "no verdict within the time limit")
            notice = Notice(f"{number}.", f"{reason}: printed without one")
    if grade is None:
        record = grade_record(number, puzzle, time_limit)
        grade = record.get("level")
    entry = Entry(puzzle, number, grade, state, solution, note)
    return entry, notice
