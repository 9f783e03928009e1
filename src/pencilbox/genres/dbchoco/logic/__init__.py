"""Logical deductions on the edges, as Steps for hints, `explain` and the animation.

Techniques, easiest first, in three levels (the grade of a puzzle is the level of the
hardest technique it needs, `search` when logic stops short):

Level `local` (rules.py and, for 6, blocks.py), each looking at one edge, corner, area or
cut, or at the few shapes a small number can take:
1. `numbers`: a wall between two cells whose blocks so far hold different numbers; a wall
   between a 1 and its neighbours of the same colour.
2. `dead_end`: no wall ends inside a block (at an inner corner).
3. `area`: a cell walled on three sides joins the fourth; a complete area is closed; a
   number that can reach exactly its size takes it all; a 1 with one partner left; an
   area walled off from its colour whose only possible partner is one area joins it.
4. `sizes`: size bounds from a number: two areas (or two blocks so far) whose union would
   outgrow the number are walled apart. An area walled off from its own colour is whole, so
   its size bounds its block as a number would, and blocks so far of different known
   sizes are walled apart.
5. `balance`: every block has as many white cells as gray ones, so an edge whose wall would
   cut off an unbalanced region is open.
6. `small_placement`: technique 7 for the numbers 1 to 3 only, whose areas are a cell, a
   domino or a tromino (blocks.SMALL_NUMBER says why that is local).

Level `placement` (blocks.py), whole blocks:
7. `placement`: every way to place a number's block (or a small pocket's) is listed, the
   ways that break a rule at once are dropped, and what all the others share is decided.
8. `shape`: a growing area's partner holds a turned or mirrored copy of it; the cells that
   every possible copy uses are in its block.

Level `contradiction` (trial.py):
9. `contradiction`: bounded trial: an edge set one way breaks a rule after the techniques
   above, so it is the other way (the step tells the short proof).

Level `search`:
10. `backbone`: the labelled last resort: the complete search shows the remaining edges
   take the same value in every answer.

Within a level the order follows cost and how local the reasoning is (bench/results/
dbchoco.md counts the steps of each). The first five local techniques are one level because
none of them can finish a puzzle with only the ones before it: `numbers` and `sizes` only
ever draw walls, `dead_end` opens an edge only beside three open ones, and `area` opens
only where walls already close a cell in, so until `balance` nothing opens the edges
between the white and the gray half of a block. Measured on 20 generated 6x6 tilings with a
clue in every cell (before `area` knew the only partner): the techniques up to `numbers`,
`dead_end`, `area` and `sizes` finish none, up to `balance` 4, up to `placement` 13; as
levels of their own the first four could never be a puzzle's grade. (The only-partner rule
then took the local level from 0 to 6 of 20 such 8x8 tilings, which is what lets the
generator make `local` puzzles of 8x8; `small_placement` then brought the fewest clues a
local 8x8 needs from 17 to 12, the human setters' median being 8.) Trial is last because
each try runs all the others.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from pencilbox.core.grid import Cell
from pencilbox.core.step import Step
from pencilbox.core.timing import Deadline, TimeLimitReached
from pencilbox.genres.dbchoco.board import UNDECIDED, Walls
from pencilbox.genres.dbchoco.logic.blocks import placements, shape, small_placements
from pencilbox.genres.dbchoco.logic.checks import broken, quick_check
from pencilbox.genres.dbchoco.logic.rules import areas, balance, dead_ends, numbers, sizes
from pencilbox.genres.dbchoco.logic.state import GRADE_OF, GRADES, LEVELS, Broken, State
from pencilbox.genres.dbchoco.logic.trial import Budget, Patience, TrialBudget, contradiction

if TYPE_CHECKING:
    from pencilbox.genres.dbchoco.model import DoubleChoco

__all__ = [
    "EDGE_RULES",
    "GRADES",
    "GRADE_OF",
    "LEVELS",
    "PROBE_SECONDS",
    "RULES",
    "Broken",
    "State",
    "contradiction",
    "deduce",
    "deduce_more",
    "first_step",
    "propagate",
    "trial_propagate",
]

EDGE_RULES = (numbers, dead_ends, areas, sizes, balance)
"""The local techniques that look at one edge, corner, area or cut: the local level without
the small numbers' placements, which list blocks and cost several times as much (what the
generator orders clues by)."""

RULES = (*EDGE_RULES, small_placements, placements, shape)
"""The techniques below trial, easiest first: each pass starts again from the first."""
RULE_TECHNIQUES = (
    "numbers",
    "dead_end",
    "area",
    "sizes",
    "balance",
    "small_placement",
    "placement",
    "shape",
)
"""The technique each of RULES records its steps as."""

PROBE_SECONDS = 10.0
"""Trials are pure Python and slow on big grids: a trace gives up on them when this long
passes without a find (its `patience`), and the labelled last resort (backbone) finishes the
grid. Each find starts the wait again, so a puzzle that trials finish is explained to the
end (the shared 16x16: 48 finds in ~20 s, never more than ~2 s between two)."""


def rules_up_to(grade: str) -> tuple[Callable[[State], bool], ...]:
    """The techniques of RULES whose level is `grade` or easier."""
    top = GRADES.index(grade) + 1
    return tuple(
        rule for rule, name in zip(RULES, RULE_TECHNIQUES, strict=True) if LEVELS[name] <= top
    )


def propagate(
    state: State,
    deadline: Deadline | None = None,
    rules: tuple[Callable[[State], bool], ...] = RULES,
    *,
    checked: bool = True,
    light: bool = False,
) -> None:
    """Apply the techniques until nothing changes; raises Broken on a contradiction, checked
    after every pass (a trial stops at its first broken rule). With `checked=False` no rule is
    checked: on clues true to a known answer every deduction is sound and the checks can find
    nothing, yet they list the blocks of every cell each time (they were nearly all the time
    of the generator's level checks)."""
    while True:
        if deadline is not None and deadline.expired():
            raise TimeLimitReached
        if not any(rule(state) for rule in rules):
            break
        if light:
            quick_check(state)
        elif checked:
            broken(state)
    if checked:
        broken(state)


def trial_propagate(state: State, deadline: Deadline | None = None) -> None:
    """A trial's propagation: after each pass only the compiled check (microseconds), the
    whole check (milliseconds on a 16x16) once at the end. A rule broken midway stays broken
    as edges are decided, so the trial breaks all the same (the same contradictions on the
    shared puzzles), and most trials break nothing and paid for every pass's check."""
    propagate(state, deadline, light=True)


def deduce(
    puzzle: DoubleChoco,
    *,
    probes: bool = True,
    deadline: Deadline | None = None,
    solution: Walls | None = None,
    backbone: bool = False,
    probe_seconds: float | None = None,
    level: str | None = None,
    max_trials: int | None = None,
    patience: float | None = None,
) -> State:
    """Logic from the empty grid: the techniques, then (with `probes`) trials, repeatedly.

    With `backbone` (and a known `solution`, e.g. from the solver when it proved uniqueness),
    the remaining edges are then filled in one step labelled `backbone`. With `level` (a
    grade below `contradiction`) only that level's techniques and the easier ones run, with no
    trials and no rule checks: it is the generator's check that a puzzle whose clues are true
    to a known answer stays within a grade (a broken rule cannot happen there). `max_trials`
    bounds the edges the trials try in all (a deterministic budget, unlike `probe_seconds`);
    `patience` the seconds of trials without a find (what a player waits for)."""
    state = State(puzzle, [UNDECIDED] * puzzle.geometry.count)
    budget: Budget | None = None
    if max_trials is not None:
        budget = TrialBudget(max_trials)
    elif probe_seconds is not None:
        budget = Deadline(probe_seconds)
    elif patience is not None:
        budget = Patience(patience)
    if level is not None:
        probes = False
    try:
        if level is None:
            propagate(state, deadline)
        else:  # the generator's check, on clues true to a known answer
            propagate(state, deadline, rules_up_to(level), checked=False)
        while (
            probes
            and not state.solved()
            and contradiction(state, trial_propagate, deadline, budget)
        ):
            propagate(state, deadline)
    except Broken as error:
        state.steps.append(
            Step("contradiction", LEVELS["contradiction"], (), f"no answer: {error.reason}")
        )
        return state
    if backbone and solution is not None and not state.solved():
        rest = {e: solution.edges[e] for e in range(state.geo.count) if state.edges[e] == UNDECIDED}
        state.set(
            rest,
            "backbone",
            f"last resort (complete search): the remaining {len(rest)} edges take the same "
            "value in every answer",
            [],
        )
    return state


def deduce_more(puzzle: DoubleChoco, before: State, added: Cell, level: str) -> State:
    """What logic up to `level` finds on `puzzle`, going on from `before`: the state it
    reached on the same puzzle without the clue at `added` (the generator's additions, clues
    true to a known answer as in `deduce(level=...)`). What was decided stays true with one
    more clue, and the block lists kept stay sound (a list made without the new number holds
    every block that is still possible, and maybe some that no longer are): so each addition
    costs a few passes, not a whole deduction with every list made again. The result can
    fall short of what `deduce` finds from the empty grid, never beyond it; the generator
    checks its final clue set with `deduce`."""
    state = State(puzzle, before.edges.copy(), placements=before.placements.copy())
    state.placements.forget(added)
    propagate(state, None, rules_up_to(level), checked=False)
    return state


def first_step(puzzle: DoubleChoco, time_limit: float | None = 10.0) -> Step | None:
    """The easiest step from the empty grid (a hint): the first technique that applies,
    else the first trial that breaks; None when neither finds anything in time."""
    state = State(puzzle, [UNDECIDED] * puzzle.geometry.count)
    deadline = Deadline(time_limit)
    try:
        if any(rule(state) for rule in RULES) or contradiction(state, propagate, deadline):
            return state.steps[0]
    except (Broken, TimeLimitReached):
        return None
    return None
