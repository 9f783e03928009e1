"""The whole solving path as Steps: line deductions, probes, and search decisions, for
black-and-white and colour puzzles alike.

This is what `explain` prints, what a hint shows and what the web app animates. The order is
the order of the work: passes of line logic; when lines are stuck, a probe (a colour tried in a
cell and struck out because it breaks a line); when probes are stuck too, a decision. Decisions
are checked with the SAT back end before they are taken: a guess from which no solution follows
is shown, then undone (a backtrack), so the trace never wanders into a dead branch for long.

The engine works on colour masks; a `Wording` says the steps in the puzzle's own words and
values: "filled" and "empty", clues as run lengths, for black-and-white; the colours' names,
clues as "2 red, 3 blue", and masks in the changes, for colour puzzles.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pencilbox.core.grid import Cell, cell_name, describe_spans
from pencilbox.core.sat import SatSolver
from pencilbox.core.step import Step
from pencilbox.core.timing import Deadline, TimeLimitReached
from pencilbox.genres.nonogram.cells import format_clue
from pencilbox.genres.nonogram.colour.cells import BACKGROUND, ColourClue
from pencilbox.genres.nonogram.line import MASK_OF_VALUE, VALUE_OF_MASK, Line, placements
from pencilbox.genres.nonogram.logic import (
    Board,
    Contradiction,
    LinePuzzle,
    ProbeMemo,
    assume,
    colours_of,
    decided,
    find_probe_board,
    propagate_board,
    undecided,
)
from pencilbox.genres.nonogram.search import CellVars, Unsatisfiable, encode, is_colour

LEVELS = {"line": 1, "probe": 2, "decision": 3, "backtrack": 3, "contradiction": 1}
VALUE_WORD = {1: "filled", 2: "empty"}
"""The black-and-white cell values (FILLED, EMPTY) in words."""


@dataclass(frozen=True)
class Wording:
    """How steps name a puzzle's colours and clues, and which values their changes carry."""

    board: Board
    names: tuple[str, ...]
    """The word of each colour: the background is "empty"."""

    @property
    def plain(self) -> bool:
        return self.board.plain

    def clue_text(self, clue: ColourClue) -> str:
        if self.plain:
            return format_clue(tuple(length for length, _ in clue))
        return ", ".join(f"{n} {self.names[c]}" for n, c in clue) if clue else "0"

    def run_label(self, length: int, colour: int) -> str:
        return str(length) if self.plain else f"{self.names[colour]} {length}"

    def mask_words(self, mask: int) -> str:
        """`red`, `empty`, or `red or blue`."""
        words = [self.names[c] for c in colours_of(mask)]
        return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]

    def value(self, mask: int) -> int:
        """A mask as a step's change carries it (a cell value for black-and-white)."""
        return VALUE_OF_MASK[mask] if self.plain else mask


def wording_of(puzzle: Any) -> Wording:
    board: Board = puzzle.board
    if board.plain:
        return Wording(board, ("empty", "filled"))
    names = ("empty", *(colour.name for colour in puzzle.colours[1:]))
    return Wording(board, names)


def trace(
    puzzle: LinePuzzle,
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
    wording = wording_of(puzzle)
    board = wording.board
    cells = [board.full_mask] * (board.width * board.height)
    deadline = Deadline(time_limit)
    recorder = _LineRecorder(wording, steps)
    try:
        broken = propagate_board(
            board, cells, record=recorder, max_passes=max_passes, deadline=deadline
        )
        if max_passes is None and broken is None:
            broken = _probe_and_search(wording, cells, steps, recorder, deadline)
    except (TimeLimitReached, KeyboardInterrupt):
        return steps
    if broken is not None:
        steps.append(contradiction_step(wording, broken))
    return steps


def _probe_and_search(
    wording: Wording,
    cells: list[int],
    steps: list[Step],
    recorder: _LineRecorder,
    deadline: Deadline,
) -> Contradiction | None:
    board = wording.board
    solver: SatSolver | None = None
    cell_vars: CellVars = []
    memo = ProbeMemo()
    start = 0
    try:
        while undecided(cells):
            before = cells.copy()
            found = find_probe_board(board, cells, start, deadline=deadline, memo=memo)
            if found is not None:
                start = found.cell  # go on from here, as a player scanning the grid would
                narrowed = cells[found.cell] & ~(1 << found.tried)
                steps.append(_probe_step(wording, found.cell, found.tried, narrowed, found.broken))
                broken = assume(
                    board, cells, found.cell, narrowed, record=recorder, deadline=deadline
                )
            else:
                if solver is None:
                    solver = SatSolver()
                    try:
                        cell_vars = encode(board, cells, solver)
                    except Unsatisfiable:
                        return propagate_board(board, cells, deadline=deadline)
                broken = _decide(wording, cells, steps, recorder, solver, cell_vars, deadline)
            memo.record_changes(before, cells)
            if broken:
                return broken
    finally:
        if solver is not None:
            solver.close()
    return None


def _decide(
    wording: Wording,
    cells: list[int],
    steps: list[Step],
    recorder: _LineRecorder,
    solver: SatSolver,
    cell_vars: CellVars,
    deadline: Deadline,
) -> Contradiction | None:
    """Guess the first undecided cell has its first colour (the ink first for black-and-white);
    if search refutes that, show the backtrack."""
    board = wording.board
    cell = next(i for i, mask in enumerate(cells) if not decided(mask))
    colour = board.colour_order(cells[cell])[0]
    name = _cell(board, cell)
    word = wording.names[colour]
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
            ((name, wording.value(1 << colour)),),
            f"Logic is stuck: guess that {cell_name(name)} is {word}.",
            extra={"guess": True},
        )
    )
    if solver.solve([*known, *is_colour(cell_vars, cell, colour)], deadline=deadline):
        return assume(board, cells, cell, 1 << colour, record=recorder, deadline=deadline)
    rest = cells[cell] & ~(1 << colour)
    steps.append(
        Step(
            "backtrack",
            LEVELS["backtrack"],
            ((name, wording.value(rest)),),
            f"No solution follows from {cell_name(name)} {word} (the search proves every "
            f"continuation breaks a clue), so undo the guess: it is {wording.mask_words(rest)}.",
            reasons=(name,),
        )
    )
    return assume(board, cells, cell, rest, record=recorder, deadline=deadline)


class _LineRecorder:
    """Turns each line solve that changed cells into Steps with reasons."""

    def __init__(self, wording: Wording, steps: list[Step]) -> None:
        self.wording = wording
        self.steps = steps

    def __call__(self, kind: str, index: int, before: Line, after: Line) -> None:
        self.steps.extend(_line_steps(self.wording, kind, index, before, after))


def line_steps(
    puzzle: LinePuzzle, kind: str, index: int, before: Sequence[int], after: Sequence[int]
) -> list[Step]:
    """The steps of one line solve, the lines in the puzzle's own values."""
    wording = wording_of(puzzle)
    if wording.plain:
        before = tuple(MASK_OF_VALUE[v] for v in before)
        after = tuple(MASK_OF_VALUE[v] for v in after)
    return _line_steps(wording, kind, index, tuple(before), tuple(after))


def _line_steps(wording: Wording, kind: str, index: int, before: Line, after: Line) -> list[Step]:
    """One step per (new mask, reason) among the cells the line solve changed: "Row 4
    (2 red, 3 blue): cells 5-6 are red — every placement of the red 2 covers them."."""
    clue = wording.board.line_clue(kind, index)
    found = placements(clue, before)
    groups: dict[tuple[int, int, str], list[int]] = {}
    for i, (a, b) in enumerate(zip(before, after)):
        if a != b:
            covering = found.runs_covering(clue, i) if found else []
            reason = _reason(wording, clue, b, covering)
            groups.setdefault((b, a & ~b if not decided(b) else 0, reason), []).append(i)
    title = f"{kind.capitalize()} {index + 1} ({wording.clue_text(clue)})"
    known = tuple(_line_cell(kind, index, i) for i, v in enumerate(before) if decided(v))
    steps = []
    for (mask, struck, reason), positions in groups.items():
        plural = len(positions) > 1
        text = reason.replace("{them}", "them" if plural else "it")
        if struck:  # still open: say which colours are ruled out
            verb = "cannot be"
            words = wording.mask_words(struck)
        else:
            verb, words = ("are" if plural else "is"), wording.mask_words(mask)
        sentence = f"{title}: {describe_spans(positions)} {verb} {words} — {text}."
        changes = tuple((_line_cell(kind, index, i), wording.value(mask)) for i in positions)
        steps.append(
            Step(
                "line", LEVELS["line"], changes, sentence, reasons=known, clue=f"{kind} {index + 1}"
            )
        )
    return steps


def _reason(wording: Wording, clue: ColourClue, mask: int, covering: list[int]) -> str:
    if mask == 1 << BACKGROUND:
        if not covering:
            return "no run can reach {them}"
        if wording.plain:
            return "every placement of the clue leaves {them} empty"
        return "every placement leaves {them} empty"
    if decided(mask):
        runs = [j for j in covering if 1 << clue[j][1] == mask]
        if len(runs) == 1:
            return f"every placement of the {_run_name(wording, clue, runs[0])} covers {{them}}"
        if wording.plain:
            return "every placement of the clue fills {them}"
        return "every placement of the clue gives {them} that colour"
    return "no placement of the clue gives {them} that colour"


def _run_name(wording: Wording, clue: ColourClue, j: int) -> str:
    """`3` or `red 2`, or `second red 2` when the clue has several red 2s."""
    run = clue[j]
    name = wording.run_label(*run)
    if clue.count(run) == 1:
        return name
    nth = clue[: j + 1].count(run)
    ordinals = {1: "first", 2: "second", 3: "third"}
    return f"{ordinals.get(nth, f'{nth}th')} {name}"


def _line_cell(kind: str, index: int, position: int) -> Cell:
    return (index, position) if kind == "row" else (position, index)


def _cell(board: Board, flat: int) -> Cell:
    row, col = divmod(flat, board.width)
    return (row, col)


def probe_step(
    puzzle: LinePuzzle, flat: int, tried: int, narrowed: int, broken: Contradiction
) -> Step:
    """The step of a probe of a colour puzzle (`tried` a colour, `narrowed` a mask)."""
    return _probe_step(wording_of(puzzle), flat, tried, narrowed, broken)


def _probe_step(
    wording: Wording, flat: int, tried: int, narrowed: int, broken: Contradiction
) -> Step:
    cell = _cell(wording.board, flat)
    sentence = (
        f"Probe {cell_name(cell)}: {wording.names[tried]} makes {broken.describe()} "
        f"impossible, so it is {wording.mask_words(narrowed)}."
    )
    return Step(
        "probe",
        LEVELS["probe"],
        ((cell, wording.value(narrowed)),),
        sentence,
        reasons=(cell,),
        clue=broken.describe(),
    )


def contradiction_step(wording: Wording, broken: Contradiction) -> Step:
    clue = wording.clue_text(wording.board.line_clue(broken.kind, broken.index))
    return Step(
        "contradiction",
        LEVELS["contradiction"],
        (),
        f"{broken.describe().capitalize()} ({clue}) cannot be satisfied: "
        "the puzzle has no solution.",
        clue=broken.describe(),
    )
