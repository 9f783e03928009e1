"""The whole solving path as Steps: line deductions, probes, and search decisions.

This is what `explain` prints, what a hint shows and what the web app animates. The order is
the order of the work: passes of line logic; when lines are stuck, a probe (a cell tried both
ways); when probes are stuck too, a decision. Decisions are checked with the SAT back end
before they are taken: a guess from which no solution follows is shown, then undone
(a backtrack), so the trace never wanders into a dead branch for long.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pencilbox.core.grid import Cell, describe_spans
from pencilbox.core.sat import SatSolver
from pencilbox.core.step import Step
from pencilbox.core.timing import Deadline, TimeLimitReached
from pencilbox.genres.nonogram.cells import EMPTY, FILLED, UNKNOWN, format_clue
from pencilbox.genres.nonogram.line import Line, placements, runs_covering
from pencilbox.genres.nonogram.logic import (
    Contradiction,
    ProbeMemo,
    assume,
    find_probe,
    other,
    propagate_all,
)
from pencilbox.genres.nonogram.search import Unsatisfiable, encode

if TYPE_CHECKING:
    from pencilbox.genres.nonogram.model import Nonogram

LEVELS = {"line": 1, "probe": 2, "decision": 3, "backtrack": 3, "contradiction": 1}
VALUE_WORD = {FILLED: "filled", EMPTY: "empty"}


def trace(
    puzzle: Nonogram,
    time_limit: float | None = None,
    max_passes: int | None = None,
    *,
    steps: list[Step] | None = None,
) -> list[Step]:
    """Steps from the empty grid to a solution (or to the proof that there is none).

    `steps` is the list the steps are appended to as they are found: a caller that streams
    them (the web app's animation) passes a list that forwards each one at once.
    """
    steps = [] if steps is None else steps
    cells = [UNKNOWN] * (puzzle.width * puzzle.height)
    deadline = Deadline(time_limit)
    recorder = _LineRecorder(puzzle, steps)
    try:
        broken = propagate_all(
            puzzle, cells, record=recorder, max_passes=max_passes, deadline=deadline
        )
        if max_passes is None:
            broken = broken or _probe_and_search(puzzle, cells, steps, recorder, deadline)
    except (TimeLimitReached, KeyboardInterrupt):
        return steps
    if broken is not None:
        steps.append(_contradiction_step(puzzle, broken))
    return steps


def _probe_and_search(
    puzzle: Nonogram,
    cells: list[int],
    steps: list[Step],
    recorder: _LineRecorder,
    deadline: Deadline,
) -> Contradiction | None:
    solver: SatSolver | None = None
    cell_vars: list[int] = []
    memo = ProbeMemo()
    start = 0
    try:
        while UNKNOWN in cells:
            found = find_probe(puzzle, cells, start, deadline=deadline, memo=memo)
            if found is not None:
                start = found.cell  # go on from here, as a player scanning the grid would
                steps.append(_probe_step(puzzle, found.cell, found.tried, found.broken))
                before = cells.copy()
                broken = assume(
                    puzzle,
                    cells,
                    found.cell,
                    other(found.tried),
                    record=recorder,
                    deadline=deadline,
                )
                memo.record_changes(before, cells)
                if broken:
                    return broken
                continue
            if solver is None:
                solver = SatSolver()
                try:
                    cell_vars = encode(puzzle, cells, solver)
                except Unsatisfiable:
                    return propagate_all(puzzle, cells, deadline=deadline)
            before = cells.copy()
            broken = _decide(puzzle, cells, steps, recorder, solver, cell_vars, deadline)
            memo.record_changes(before, cells)
            if broken:
                return broken
    finally:
        if solver is not None:
            solver.close()
    return None


def _decide(
    puzzle: Nonogram,
    cells: list[int],
    steps: list[Step],
    recorder: _LineRecorder,
    solver: SatSolver,
    cell_vars: list[int],
    deadline: Deadline,
) -> Contradiction | None:
    """Guess the first unknown cell filled; if search refutes that, show the backtrack."""
    cell = cells.index(UNKNOWN)
    name = _cell(puzzle, cell)
    known = [
        cell_vars[i] if v == FILLED else -cell_vars[i] for i, v in enumerate(cells) if v != UNKNOWN
    ]
    steps.append(
        Step(
            "decision",
            LEVELS["decision"],
            ((name, FILLED),),
            f"Logic is stuck: guess that {_cell_text(name)} is filled.",
            reasons=(),
            extra={"guess": True},
        )
    )
    if solver.solve([*known, cell_vars[cell]], deadline=deadline):
        return assume(puzzle, cells, cell, FILLED, record=recorder, deadline=deadline)
    steps.append(
        Step(
            "backtrack",
            LEVELS["backtrack"],
            ((name, EMPTY),),
            f"No solution follows from {_cell_text(name)} filled (the search proves "
            "every continuation breaks a clue), so undo the guess: it is empty.",
            reasons=(name,),
        )
    )
    return assume(puzzle, cells, cell, EMPTY, record=recorder, deadline=deadline)


class _LineRecorder:
    """Turns each line solve that changed cells into Steps with reasons."""

    def __init__(self, puzzle: Nonogram, steps: list[Step]) -> None:
        self.puzzle = puzzle
        self.steps = steps

    def __call__(self, kind: str, index: int, before: Line, after: Line) -> None:
        self.steps.extend(line_steps(self.puzzle, kind, index, before, after))


def line_steps(puzzle: Nonogram, kind: str, index: int, before: Line, after: Line) -> list[Step]:
    clue = puzzle.line_clue(kind, index)
    found = placements(clue, before)
    groups: dict[tuple[int, str], list[int]] = {}
    for i, (a, b) in enumerate(zip(before, after)):
        if a == b:
            continue
        reason = _reason(clue, b, runs_covering(clue, found, i) if found else [])
        groups.setdefault((b, reason), []).append(i)
    title = f"{kind.capitalize()} {index + 1} ({format_clue(clue)})"
    known = tuple(_line_cell(kind, index, i) for i, v in enumerate(before) if v != UNKNOWN)
    steps = []
    for (value, reason), positions in groups.items():
        plural = len(positions) > 1
        verb = "are" if plural else "is"
        reason_text = reason.replace("{them}", "them" if plural else "it")
        sentence = (
            f"{title}: {describe_spans(positions)} {verb} {VALUE_WORD[value]} — {reason_text}."
        )
        changes = tuple((_line_cell(kind, index, i), value) for i in positions)
        steps.append(
            Step(
                "line", LEVELS["line"], changes, sentence, reasons=known, clue=f"{kind} {index + 1}"
            )
        )
    return steps


def _reason(clue: tuple[int, ...], value: int, covering: list[int]) -> str:
    if value == FILLED:
        if len(covering) == 1:
            return f"every placement of the {_run_name(clue, covering[0])} covers {{them}}"
        return "every placement of the clue fills {them}"
    if not covering:
        return "no run can reach {them}"
    return "every placement of the clue leaves {them} empty"


def _run_name(clue: tuple[int, ...], j: int) -> str:
    length = clue[j]
    if clue.count(length) == 1:
        return str(length)
    nth = sum(1 for run in clue[: j + 1] if run == length)
    ordinals = {1: "first", 2: "second", 3: "third"}
    return f"{ordinals.get(nth, f'{nth}th')} {length}"


def _line_cell(kind: str, index: int, position: int) -> Cell:
    return (index, position) if kind == "row" else (position, index)


def _cell(puzzle: Nonogram, flat: int) -> Cell:
    row, col = divmod(flat, puzzle.width)
    return (row, col)


def _cell_text(cell: Cell) -> str:
    return f"r{cell[0] + 1}c{cell[1] + 1}"


def _probe_step(puzzle: Nonogram, flat: int, tried: int, broken: Contradiction) -> Step:
    cell = _cell(puzzle, flat)
    result = other(tried)
    sentence = (
        f"Probe {_cell_text(cell)}: {VALUE_WORD[tried]} makes {broken.describe()} "
        f"impossible, so it is {VALUE_WORD[result]}."
    )
    return Step(
        "probe",
        LEVELS["probe"],
        ((cell, result),),
        sentence,
        reasons=(cell,),
        clue=broken.describe(),
    )


def _contradiction_step(puzzle: Nonogram, broken: Contradiction) -> Step:
    clue = puzzle.line_clue(broken.kind, broken.index)
    return Step(
        "contradiction",
        LEVELS["contradiction"],
        (),
        f"{broken.describe().capitalize()} ({format_clue(clue)}) cannot be satisfied: "
        "the puzzle has no solution.",
        clue=broken.describe(),
    )
