"""The technique ladder: solve path, grade and hint."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from pencilbox.core.step import Step

from . import (
    als,
    chains,
    coloring,
    fish,
    forcing,
    franken,
    intersections,
    sdc,
    sdp,
    singles,
    subsets,
    templates,
    uniqueness,
    wings,
)
from .state import State
from .techniques import LEVEL_MAX_SCORE, LEVELS, TECHNIQUES

Finder = Callable[[State], Iterator[Step]]

LADDER: list[tuple[str, Finder]] = [
    ("Full House", singles.find_full_house),
    ("Naked Single", singles.find_naked_single),
    ("Hidden Single", singles.find_hidden_single),
    ("Locked Pair", intersections.find_locked_pair),
    ("Locked Triple", intersections.find_locked_triple),
    ("Locked Candidates Type 1 (Pointing)", intersections.find_pointing),
    ("Locked Candidates Type 2 (Claiming)", intersections.find_claiming),
    ("Naked Pair", subsets.find_naked_pair),
    ("Naked Triple", subsets.find_naked_triple),
    ("Hidden Pair", subsets.find_hidden_pair),
    ("Hidden Triple", subsets.find_hidden_triple),
    ("Naked Quadruple", subsets.find_naked_quadruple),
    ("Hidden Quadruple", subsets.find_hidden_quadruple),
    ("X-Wing", fish.find_x_wing),
    ("Swordfish", fish.find_swordfish),
    ("Jellyfish", fish.find_jellyfish),
    ("Remote Pair", chains.find_remote_pair),
    ("Bivalue Universal Grave + 1", uniqueness.find_bug_plus_one),
    ("Skyscraper", sdp.find_skyscraper),
    ("2-String Kite", sdp.find_two_string_kite),
    ("Turbot Fish", sdp.find_turbot_fish),
    ("Empty Rectangle", sdp.find_empty_rectangle),
    ("W-Wing", wings.find_w_wing),
    ("XY-Wing", wings.find_xy_wing),
    ("XYZ-Wing", wings.find_xyz_wing),
    ("Uniqueness Test 1", uniqueness.find_ur1),
    ("Uniqueness Test 2", uniqueness.find_ur2),
    ("Uniqueness Test 3", uniqueness.find_ur3),
    ("Uniqueness Test 4", uniqueness.find_ur4),
    ("Uniqueness Test 5", uniqueness.find_ur5),
    ("Uniqueness Test 6", uniqueness.find_ur6),
    ("Hidden Rectangle", uniqueness.find_hidden_rectangle),
    ("Avoidable Rectangle Type 1", uniqueness.find_ar1),
    ("Avoidable Rectangle Type 2", uniqueness.find_ar2),
    ("Finned X-Wing", fish.find_finned_x_wing),
    ("Sashimi X-Wing", fish.find_sashimi_x_wing),
    ("Finned Swordfish", fish.find_finned_swordfish),
    ("Sashimi Swordfish", fish.find_sashimi_swordfish),
    ("Finned Jellyfish", fish.find_finned_jellyfish),
    ("Sashimi Jellyfish", fish.find_sashimi_jellyfish),
    ("Sue de Coq", sdc.find_sue_de_coq),
    ("Simple Colors", coloring.find_simple_colors),
    ("Multi-Colors", coloring.find_multi_colors),
    ("X-Chain", chains.find_x_chain),
    ("XY-Chain", chains.find_xy_chain),
    ("AIC", chains.find_aic),
    ("Grouped AIC", chains.find_grouped_aic),
    ("ALS-XZ", als.find_als_xz),
    ("ALS-XY-Wing", als.find_als_xy_wing),
    ("Forcing Chain", forcing.find_forcing_chain),
    ("Forcing Net", forcing.find_forcing_net),
]


def _siamese(name: str) -> Finder:
    def finder(state: State) -> Iterator[Step]:
        return (s for s in fish.find_siamese(state) if s.technique == name)

    return finder


def _franken(name: str, k: int, mutant: bool) -> Finder:
    def finder(state: State) -> Iterator[Step]:
        return (s for s in franken.general_fish(state, k, mutant) if s.technique == name)

    return finder


# Techniques found by name (`FINDERS`, checked against the HoDoKu library) but left out of the
# ladder: Franken/mutant fish, ALS-XY-Chain and death blossoms cost too much time per step for
# what they add before the forcing chains (HoDoKu's own defaults leave out mutant fish, death
# blossoms and templates); duals and siamese fish are two steps reported as one; nice loops
# find nothing the AIC search before them has not found (each of their eliminations is that
# of an AIC between other ends).
EXTRA_FINDERS: list[tuple[str, Finder]] = [
    *(
        (f"{fin}{kind} {fish_name}", _franken(f"{fin}{kind} {fish_name}", k, kind == "Mutant"))
        for kind in ("Franken", "Mutant")
        for fin in ("", "Finned ")
        for k, fish_name in ((2, "X-Wing"), (3, "Swordfish"), (4, "Jellyfish"))
    ),
    ("ALS-XY-Chain", als.find_als_xy_chain),
    ("Death Blossom", als.find_death_blossom),
    ("Template Set", templates.find_template_set),
    ("Template Delete", templates.find_template_delete),
    ("Dual 2-String Kite", sdp.find_dual_kite),
    ("Dual Empty Rectangle", sdp.find_dual_empty_rectangle),
    *(
        (name, _siamese(name))
        for name in (
            "Siamese Finned X-Wing",
            "Siamese Finned Swordfish",
            "Siamese Finned Jellyfish",
            "Siamese Sashimi X-Wing",
            "Siamese Sashimi Swordfish",
            "Siamese Sashimi Jellyfish",
        )
    ),
    ("Continuous Nice Loop", chains.find_cnl),
    ("Discontinuous Nice Loop", chains.find_dnl),
    ("Grouped Continuous Nice Loop", chains.find_grouped_cnl),
    ("Grouped Discontinuous Nice Loop", chains.find_grouped_dnl),
]

FINDERS: dict[str, Finder] = dict(LADDER + EXTRA_FINDERS)

BRUTE_FORCE_SCORE = 10000
"""Added to the score when logic gets stuck (HoDoKu counts a brute-force step that way)."""


def _allowed(name: str, max_level: str | int | None) -> bool:
    if max_level is None:
        return True
    tech = TECHNIQUES[name]
    if isinstance(max_level, int):
        return tech.rank <= max_level
    return LEVELS.index(tech.level) <= LEVELS.index(max_level)


UNIQUENESS = frozenset(
    name
    for name in TECHNIQUES
    if name.startswith(("Uniqueness Test", "Avoidable Rectangle"))
    or name in ("Hidden Rectangle", "Bivalue Universal Grave + 1")
)
"""Techniques that assume the puzzle has exactly one solution."""


def next_step(
    state: State, max_level: str | int | None = None, uniqueness: bool = True
) -> Step | None:
    """The easiest step available in this state, or None when stuck."""
    for name, finder in LADDER:
        if not _allowed(name, max_level) or (not uniqueness and name in UNIQUENESS):
            continue
        step = next(finder(state), None)
        if step is not None:
            return step
    return None


def solve_state(
    state: State, max_level: str | int | None = None, uniqueness: bool = True
) -> list[Step]:
    """Apply the easiest available technique until solved or stuck; mutates state."""
    if max_level is not None and isinstance(max_level, str) and max_level not in LEVELS:
        raise ValueError(f"unknown level {max_level!r}; use one of {', '.join(LEVELS)}")
    path: list[Step] = []
    limit = state.geo.ncells * state.geo.size * 2
    while not state.is_solved() and len(path) < limit:
        if not state.is_consistent():
            break
        step = next_step(state, max_level, uniqueness)
        if step is None:
            break
        state.apply(step)
        path.append(step)
    return path


def solve_path(
    n: int, givens: Sequence[int], max_level: str | int | None = None, uniqueness: bool = True
) -> list[Step]:
    """The logical solving path of a puzzle (box size n, givens row-major with 0 for empty).

    `max_level` limits the techniques by HoDoKu level name ("easy" .. "extreme") or by
    technique rank; the path stops early when no allowed technique applies. Uniqueness
    techniques (unique/avoidable/hidden rectangles, BUG+1) assume a single solution; pass
    `uniqueness=False` for a puzzle not yet known to be unique (e.g. while generating).
    """
    return solve_state(State.from_givens(n, givens), max_level, uniqueness)


@dataclass(frozen=True, slots=True)
class Grade:
    level: str
    score: int
    hardest: str | None
    solved_by_logic: bool
    steps: int


def grade_path(path: Sequence[Step], solved: bool) -> Grade:
    score = 0
    level = 0
    hardest: str | None = None
    hardest_key = (-1, -1)
    for step in path:
        tech = TECHNIQUES[step.technique]
        score += tech.score
        lv = LEVELS.index(tech.level)
        level = max(level, lv)
        key = (lv, tech.score)
        if key > hardest_key:
            hardest_key = key
            hardest = tech.name
    if not solved:
        score += BRUTE_FORCE_SCORE
        level = LEVELS.index("extreme")
    while level < len(LEVELS) - 1 and score > LEVEL_MAX_SCORE[LEVELS[level]]:
        level += 1
    return Grade(LEVELS[level], score, hardest, solved, len(path))


def grade(n: int, givens: Sequence[int], uniqueness: bool = True) -> Grade:
    """HoDoKu-style grade: level of the hardest technique, raised while the score is high."""
    state = State.from_givens(n, givens)
    path = solve_state(state, uniqueness=uniqueness)
    return grade_path(path, state.is_solved())


def hint(n: int, givens: Sequence[int], level: int = 1) -> str | None:
    """A hint for the next step: 1 = technique, 2 = where to look, 3 = the whole step."""
    state = State.from_givens(n, givens)
    step = next_step(state)
    if step is None:
        return None
    if level <= 1:
        return f"Try: {step.technique}"
    if level == 2:
        if step.clue:
            return f"{step.technique}: look at {step.clue}"
        cells = ", ".join(f"r{r + 1}c{c + 1}" for r, c in step.reasons)
        return f"{step.technique}: look at {cells}"
    return step.sentence


def accept_singles(n: int, values: Sequence[int]) -> tuple[list[int], list[Step]]:
    """Place every single available now (full houses, naked and hidden singles) as one move."""
    state = State.from_givens(n, values)
    steps: list[Step] = []
    done: set[int] = set()
    for finder in (singles.find_full_house, singles.find_naked_single, singles.find_hidden_single):
        for step in finder(state):
            (r, c), _ = step.changes[0]
            if r * state.size + c not in done:
                done.add(r * state.size + c)
                steps.append(step)
    out = list(state.values)
    for step in steps:
        for (r, c), d in step.changes:
            out[r * state.size + c] = d
    return out, steps
