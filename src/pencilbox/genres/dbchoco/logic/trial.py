"""Bounded trial: "if this edge were a wall (open), these steps follow, and then a rule
breaks; so it is open (a wall)".

Each undecided edge is tried both ways on a copy of the state; the easier techniques run to
their fixpoint and the rule checks look for a break. The first edge that breaks gives a
`contradiction` step whose sentence is the short proof: the trial's own steps (at most
PROOF_STEPS of them are told) and the rule that broke.
"""

from __future__ import annotations

from collections.abc import Callable

from pencilbox.core.timing import Deadline, work_seconds
from pencilbox.genres.dbchoco.board import OPEN, UNDECIDED, WALL
from pencilbox.genres.dbchoco.logic.state import Broken, State

PROOF_STEPS = 4
"""Steps of a trial told in its sentence (the rest are summed up as 'and N more')."""

Propagate = Callable[[State, Deadline | None], None]


class TrialBudget:
    """A probing budget counted in edges tried, not in seconds: the generator's level check
    gives up after the same trials on every machine, so its puzzles depend on the seed only."""

    def __init__(self, edges: int) -> None:
        self.left = edges

    def expired(self) -> bool:
        """Called once for every edge a sweep is about to try: counts it."""
        self.left -= 1
        return self.left < 0


class Patience:
    """A probing budget in seconds of trials that find nothing, counted in the thread's CPU
    time (`work_seconds`: a busy machine gives the hint an idle one gives): each find starts
    the clock again. A puzzle that logic finishes keeps finding (a few seconds at most
    between finds on the shared 16x16), while one it cannot finish stops within `seconds`
    of its last find (a total budget would cut the first short as soon as it has many finds
    to make)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.end = work_seconds() + seconds

    def expired(self) -> bool:
        return work_seconds() >= self.end

    def found(self) -> None:
        self.end = work_seconds() + self.seconds


Budget = Deadline | TrialBudget | Patience


def contradiction(
    state: State,
    propagate: Propagate,
    deadline: Deadline | None = None,
    budget: Budget | None = None,
) -> bool:
    """One edge set by trying the opposite; False when none breaks (or the probing
    `budget` ran out). The sweep goes round from where the last one found something, so
    the edges that led nowhere are not tried again before every other edge has been.

    A trial that breaks nothing leaves what it decided as fruitless guesses too: setting one
    of those edges its way decides no more than the whole trial did (the techniques only add
    to what is known), so it breaks nothing either and is not tried (most trials break
    nothing: on the shared 16x16, five of six). `budget` (a time, a count of edges tried, or
    a time without a find) spans all the sweeps it is passed to."""
    count = state.geo.count
    fruitless: set[tuple[int, str]] = set()
    for e in (state.next_trial + i for i in range(count)):
        e %= count
        if state.edges[e] != UNDECIDED:
            continue
        if budget is not None and budget.expired():
            return False
        for guess, other in ((WALL, OPEN), (OPEN, WALL)):
            if (e, guess) in fruitless:
                continue
            proof = state.copy(record=state.record)
            broken = _try(state, e, guess, propagate, deadline, proof, fruitless)
            if broken is None:
                continue
            sentence = broken.reason
            if state.record:
                sentence = _proof(state, e, guess, other, proof, broken)
            state.set({e: other}, "contradiction", sentence, broken.cells, focus=[e, *broken.edges])
            state.next_trial = e + 1
            if isinstance(budget, Patience):
                budget.found()
            return True
    return False


def _try(
    state: State,
    edge: int,
    guess: str,
    propagate: Propagate,
    deadline: Deadline | None,
    trial: State,
    seen: set[tuple[int, str]],
) -> Broken | None:
    """The rule the guess breaks on `trial` (a copy of `state`), or None; then the edges the
    trial decided go into `seen`. A trial keeps its steps when the state does (they are the
    proof a step tells: recording costs far less than trying the edge again)."""
    try:
        trial.set({edge: guess}, "contradiction", "", [])
        propagate(trial, deadline)
    except Broken as broken:
        return broken
    seen.update(
        (e, value)
        for e, (value, before) in enumerate(zip(trial.edges, state.edges, strict=True))
        if value != before
    )
    return None


def _proof(state: State, edge: int, guess: str, other: str, trial: State, broken: Broken) -> str:
    name = state.geo.edge_name(edge)
    what = "a wall" if guess == WALL else "open"
    told = [step.sentence for step in trial.steps[1 : 1 + PROOF_STEPS]]
    more = len(trial.steps) - 1 - len(told)
    chain = "; then ".join(told)
    if more > 0:
        chain += f"; and {more} more step{'s' if more > 1 else ''}"
    middle = f" then {chain};" if chain else ""
    return (
        f"if {name} were {what},{middle} {broken.reason}; "
        f"so {name} is {'a wall' if other == WALL else 'open'}"
    )
