"""The solving path of a colour nonogram as Steps, with the colours in every sentence.

Same order as the black-and-white trace (explain.py): passes of line logic; when lines are
stuck, a probe (a colour tried in a cell and struck out because it breaks a line); when probes
are stuck too, a decision checked with the SAT back end first (a refuted guess is shown and
undone). A step's changes carry the cells' new colour masks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pencilbox.core.grid import Cell, cell_name, describe_spans
from pencilbox.core.sat import SatSolver
from pencilbox.core.step import Step
from pencilbox.core.timing import Deadline, TimeLimitReached
from pencilbox.genres.nonogram.colour.cells import BACKGROUND, ColourClue
from pencilbox.genres.nonogram.colour.line import Line, placements
from pencilbox.genres.nonogram.colour.logic import (
    assume,
    colours_of,
    decided,
    find_probe,
    propagate_all,
    undecided,
)
from pencilbox.genres.nonogram.colour.search import CellVars, encode, is_colour
from pencilbox.genres.nonogram.explain import LEVELS
from pencilbox.genres.nonogram.logic import Contradiction, ProbeMemo
from pencilbox.genres.nonogram.search import Unsatisfiable

if TYPE_CHECKING:
    from pencilbox.genres.nonogram.colour.model import ColourNonogram


def trace(
    puzzle: ColourNonogram,
    time_limit: float | None = None,
    max_passes: int | None = None,
    *,
    steps: list[Step] | None = None,
) -> list[Step]:
    """Steps from the empty grid to a solution (or to the proof that there is none)."""
    steps = [] if steps is None else steps
    cells = [puzzle.full_mask] * (puzzle.width * puzzle.height)
    deadline = Deadline(time_limit)
    recorder = _LineRecorder(puzzle, steps)
    try:
        broken = propagate_all(
            puzzle, cells, record=recorder, max_passes=max_passes, deadline=deadline
        )
        if max_passes is None and broken is None:
            broken = _probe_and_search(puzzle, cells, steps, recorder, deadline)
    except (TimeLimitReached, KeyboardInterrupt):
        return steps
    if broken is not None:
        clue = puzzle.format_clue(puzzle.line_clue(broken.kind, broken.index))
        steps.append(
            Step(
                "contradiction",
                LEVELS["contradiction"],
                (),
                f"{broken.describe().capitalize()} ({clue}) cannot be satisfied: "
                "the puzzle has no solution.",
                clue=broken.describe(),
            )
        )
    return steps


def _probe_and_search(
    puzzle: ColourNonogram,
    cells: list[int],
    steps: list[Step],
    recorder: _LineRecorder,
    deadline: Deadline,
) -> Contradiction | None:
    solver: SatSolver | None = None
    cell_vars: CellVars = []
    memo = ProbeMemo()
    start = 0
    try:
        while undecided(cells):
            before = cells.copy()
            found = find_probe(puzzle, cells, start, deadline=deadline, memo=memo)
            if found is not None:
                start = found.cell
                narrowed = cells[found.cell] & ~(1 << found.tried)
                steps.append(probe_step(puzzle, found.cell, found.tried, narrowed, found.broken))
                broken = assume(
                    puzzle, cells, found.cell, narrowed, record=recorder, deadline=deadline
                )
            else:
                if solver is None:
                    solver = SatSolver()
                    try:
                        cell_vars = encode(puzzle, cells, solver)
                    except Unsatisfiable:
                        return propagate_all(puzzle, cells, deadline=deadline)
                broken = _decide(puzzle, cells, steps, recorder, solver, cell_vars, deadline)
            memo.record_changes(before, cells)
            if broken:
                return broken
    finally:
        if solver is not None:
            solver.close()
    return None


def _decide(
    puzzle: ColourNonogram,
    cells: list[int],
    steps: list[Step],
    recorder: _LineRecorder,
    solver: SatSolver,
    cell_vars: CellVars,
    deadline: Deadline,
) -> Contradiction | None:
    """Guess the first undecided cell has its first colour; if search refutes that, undo."""
    cell = next(i for i, mask in enumerate(cells) if not decided(mask))
    colour = colours_of(cells[cell])[0]
    name = _cell(puzzle, cell)
    word = _colour_word(puzzle, colour)
    known = [
        literal
        for i, mask in enumerate(cells)
        if decided(mask)
        for literal in is_colour(cell_vars, i, colours_of(mask)[0])
    ]
    steps.append(
        Step(
            "decision",
            LEVELS["decision"],
            ((name, 1 << colour),),
            f"Logic is stuck: guess that {cell_name(name)} is {word}.",
            extra={"guess": True},
        )
    )
    if solver.solve([*known, *is_colour(cell_vars, cell, colour)], deadline=deadline):
        return assume(puzzle, cells, cell, 1 << colour, record=recorder, deadline=deadline)
    rest = cells[cell] & ~(1 << colour)
    steps.append(
        Step(
            "backtrack",
            LEVELS["backtrack"],
            ((name, rest),),
            f"No solution follows from {cell_name(name)} {word} (the search proves every "
            f"continuation breaks a clue), so undo the guess: it is {_mask_words(puzzle, rest)}.",
            reasons=(name,),
        )
    )
    return assume(puzzle, cells, cell, rest, record=recorder, deadline=deadline)


class _LineRecorder:
    """Turns each line solve that changed cells into Steps with reasons."""

    def __init__(self, puzzle: ColourNonogram, steps: list[Step]) -> None:
        self.puzzle = puzzle
        self.steps = steps

    def __call__(self, kind: str, index: int, before: Line, after: Line) -> None:
        self.steps.extend(line_steps(self.puzzle, kind, index, before, after))


def line_steps(
    puzzle: ColourNonogram, kind: str, index: int, before: Line, after: Line
) -> list[Step]:
    """One step per (new mask, reason) among the cells the line solve changed: "Row 4
    (2 red, 3 blue): cells 5-6 are red — every placement of the red 2 covers them."."""
    clue = puzzle.line_clue(kind, index)
    found = placements(clue, before)
    groups: dict[tuple[int, int, str], list[int]] = {}
    for i, (a, b) in enumerate(zip(before, after)):
        if a != b:
            covering = found.runs_covering(clue, i) if found else []
            reason = _reason(puzzle, clue, b, covering)
            groups.setdefault((b, a & ~b if not decided(b) else 0, reason), []).append(i)
    title = f"{kind.capitalize()} {index + 1} ({puzzle.format_clue(clue)})"
    known = tuple(_line_cell(kind, index, i) for i, v in enumerate(before) if decided(v))
    steps = []
    for (mask, struck, reason), positions in groups.items():
        plural = len(positions) > 1
        text = reason.replace("{them}", "them" if plural else "it")
        if struck:  # still open: say which colours are ruled out
            verb = "cannot be"
            words = _mask_words(puzzle, struck)
        else:
            verb, words = ("are" if plural else "is"), _mask_words(puzzle, mask)
        sentence = f"{title}: {describe_spans(positions)} {verb} {words} — {text}."
        changes = tuple((_line_cell(kind, index, i), mask) for i in positions)
        steps.append(
            Step(
                "line", LEVELS["line"], changes, sentence, reasons=known, clue=f"{kind} {index + 1}"
            )
        )
    return steps


def _reason(puzzle: ColourNonogram, clue: ColourClue, mask: int, covering: list[int]) -> str:
    if mask == 1 << BACKGROUND:
        return "no run can reach {them}" if not covering else "every placement leaves {them} empty"
    if decided(mask):
        runs = [j for j in covering if 1 << clue[j][1] == mask]
        if len(runs) == 1:
            return f"every placement of the {_run_name(puzzle, clue, runs[0])} covers {{them}}"
        return "every placement of the clue gives {them} that colour"
    return "no placement of the clue gives {them} that colour"


def _run_name(puzzle: ColourNonogram, clue: ColourClue, j: int) -> str:
    """`red 2`, or `second red 2` when the clue has several red 2s."""
    run = clue[j]
    name = f"{puzzle.colours[run[1]].name} {run[0]}"
    if clue.count(run) == 1:
        return name
    nth = clue[: j + 1].count(run)
    ordinals = {1: "first", 2: "second", 3: "third"}
    return f"{ordinals.get(nth, f'{nth}th')} {name}"


def _colour_word(puzzle: ColourNonogram, colour: int) -> str:
    return "empty" if colour == BACKGROUND else puzzle.colours[colour].name


def _mask_words(puzzle: ColourNonogram, mask: int) -> str:
    """`red`, `empty`, or `red or blue` (`empty` stands for the background)."""
    words = [_colour_word(puzzle, c) for c in colours_of(mask)]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _line_cell(kind: str, index: int, position: int) -> Cell:
    return (index, position) if kind == "row" else (position, index)


def _cell(puzzle: ColourNonogram, flat: int) -> Cell:
    row, col = divmod(flat, puzzle.width)
    return (row, col)


def probe_step(
    puzzle: ColourNonogram, flat: int, tried: int, narrowed: int, broken: Contradiction
) -> Step:
    cell = _cell(puzzle, flat)
    sentence = (
        f"Probe {cell_name(cell)}: {_colour_word(puzzle, tried)} makes {broken.describe()} "
        f"impossible, so it is {_mask_words(puzzle, narrowed)}."
    )
    return Step(
        "probe",
        LEVELS["probe"],
        ((cell, narrowed),),
        sentence,
        reasons=(cell,),
        clue=broken.describe(),
    )
