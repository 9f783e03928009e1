"""No Step ever removes the true digit or places a wrong one (checked on known solutions)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from pencilbox.genres.sudoku.logic.forcing import brute_force
from pencilbox.genres.sudoku.logic.ladder import next_step
from pencilbox.genres.sudoku.logic.state import State
from tests.conftest import TEST_DATA

DATA = TEST_DATA / "sudoku"


def _puzzles(path: Path, count: int, step: int = 1) -> list[list[int]]:
    out = []
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        out.append([0 if ch in ".0" else int(ch) for ch in line[:81]])
    return out[::step][:count]


def _walk(givens: list[int], solution: list[int], used: Counter[str]) -> bool:
    state = State.from_givens(3, givens)
    while not state.is_solved():
        step = next_step(state)
        if step is None:
            break
        used[step.technique] += 1
        for (r, c), d in step.changes:
            assert solution[r * 9 + c] == d, f"wrong placement: {step.sentence}"
        for r, c, d in step.extra.get("eliminations", ()):
            assert solution[r * 9 + c] != d, f"true digit removed: {step.sentence}"
        state.apply(step)
    return state.is_solved()


def test_kaggle_steps_are_sound() -> None:
    used: Counter[str] = Counter()
    lines = (DATA / "kaggle_1000.csv").read_text().splitlines()[1:301]
    for line in lines:
        quiz, sol = line.split(",")
        assert _walk([int(ch) for ch in quiz], [int(ch) for ch in sol], used)
    assert used["Naked Single"] + used["Hidden Single"] + used["Full House"] > 0


def test_hard_puzzles_steps_are_sound() -> None:
    used: Counter[str] = Counter()
    puzzles = _puzzles(DATA / "magictour_top1465.txt", 10, step=10)
    puzzles += _puzzles(DATA / "qqwing_expert.sdm", 20, step=3)
    puzzles += _puzzles(DATA / "forum_hardest_1106.txt", 3, step=30)
    for givens in puzzles:
        solved = brute_force(State.from_givens(3, givens))
        assert solved is not None
        _walk(givens, solved.values, used)
    # the sample must exercise more than the singles
    advanced = {t for t in used if t not in {"Full House", "Naked Single", "Hidden Single"}}
    assert len(advanced) >= 10, used


def test_every_instance_of_every_family_is_sound() -> None:
    """Not only the step the ladder picks: every Step each family yields, mid-solve."""
    from itertools import islice

    from pencilbox.genres.sudoku.logic import (
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
    from pencilbox.genres.sudoku.logic.ladder import solve_state

    families = [
        singles.find,
        intersections.find,
        subsets.find,
        fish.find,
        fish.find_siamese,
        sdp.find,
        sdp.find_dual_kite,
        sdp.find_dual_empty_rectangle,
        wings.find,
        coloring.find,
        uniqueness.find,
        chains.find,
        als.find,
        sdc.find,
        templates.find,
        forcing.find,
        lambda s: franken.general_fish(s, 2, False),
        lambda s: franken.general_fish(s, 3, False, max_fins=2),
    ]
    puzzles = _puzzles(DATA / "magictour_top1465.txt", 4, step=21)
    checked = 0
    for givens in puzzles:
        solved = brute_force(State.from_givens(3, givens))
        assert solved is not None
        state = State.from_givens(3, givens)
        solve_state(state, max_level="medium")
        for family in families:
            for step in islice(family(state.copy()), 150):
                checked += 1
                for (r, c), d in step.changes:
                    assert solved.values[r * 9 + c] == d, step.sentence
                for r, c, d in step.extra.get("eliminations", ()):
                    assert solved.values[r * 9 + c] != d, step.sentence
    assert checked > 200
