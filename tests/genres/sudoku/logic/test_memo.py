"""The single-digit searches' memory (memo.py) and the ALS cache change no step."""

from __future__ import annotations

from pencilbox.genres.sudoku.formats import parse_many
from pencilbox.genres.sudoku.logic import State, als, memo, solve_path
from pencilbox.genres.sudoku.logic.fish import find_finned_x_wing, find_x_wing
from pencilbox.genres.sudoku.logic.ladder import next_step
from tests.conftest import TEST_DATA


def _puzzles(name: str, every: int) -> list[list[int]]:
    path = TEST_DATA / "sudoku" / name
    found = [p for _, p in parse_many(path.read_text(), filename=name)]
    return [p.values() for p in found[::every]]  # type: ignore[union-attr]


def _forgetful_path(givens: list[int]) -> list[tuple[str, object]]:
    """The solving path with nothing remembered between steps."""
    state = State.from_givens(3, givens)
    path = []
    while not state.is_solved() and state.is_consistent():
        memo.forget()
        als._UNIT_ALS.clear()
        step = next_step(state)
        if step is None:
            break
        state.apply(step)
        path.append((step.technique, step.extra.get("eliminations"), step.changes))
    return path


def test_paths_are_the_same_with_and_without_memory() -> None:
    for givens in _puzzles("magictour_top1465.txt", 30)[:4]:
        memo.forget()
        remembered = [
            (s.technique, s.extra.get("eliminations"), s.changes) for s in solve_path(3, givens)
        ]
        assert remembered == _forgetful_path(givens)


def test_a_digit_that_found_nothing_is_skipped_until_its_places_change() -> None:
    memo.forget()
    state = State.from_givens(3, _puzzles("magictour_top1465.txt", 30)[0])
    assert next(find_x_wing(state), None) is None  # this search went through every digit
    places = memo.digit_places(state)
    assert all(memo.known_empty("fish 2 False", 9, d, places[d - 1]) for d in range(1, 10))
    # removing a candidate of 1 changes the places of 1 only: 1 is searched again
    cell = next(i for i, m in enumerate(state.cands) if m & 1)
    state.eliminate(cell, 1)
    places = memo.digit_places(state)
    assert not memo.known_empty("fish 2 False", 9, 1, places[0])
    assert all(memo.known_empty("fish 2 False", 9, d, places[d - 1]) for d in range(2, 10))
    memo.forget()
    assert list(find_finned_x_wing(state)) == list(find_finned_x_wing(state.copy()))
