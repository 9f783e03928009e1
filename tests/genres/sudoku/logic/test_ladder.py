"""The ladder: solve paths, grades, hints, sentences, other sizes."""

from __future__ import annotations

import json
import re

import pytest

from pencilbox.core.step import Step
from pencilbox.genres.sudoku.logic import (
    LADDER,
    TECHNIQUES,
    State,
    accept_singles,
    geometry,
    grade,
    hint,
    solve_path,
)
from pencilbox.genres.sudoku.logic.fish import find_x_wing
from pencilbox.genres.sudoku.logic.forcing import brute_force
from pencilbox.genres.sudoku.logic.ladder import UNIQUENESS, grade_path, solve_state
from pencilbox.genres.sudoku.logic.reglib import LibraryLine, read_library
from pencilbox.genres.sudoku.logic.singles import find_hidden_single
from tests.conftest import TEST_DATA

EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
EASY_SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"


def _digits(text: str) -> list[int]:
    return [0 if ch in ".0" else int(ch) for ch in text]


def test_state_geometry_and_candidates() -> None:
    geo = geometry(3)
    assert geo.size == 9 and len(geo.units) == 27
    assert all(len(p) == 20 for p in geo.peers)
    assert geometry(3) is geo  # cached
    assert len(geometry(4).peers[0]) == 39
    state = State.from_givens(3, _digits(EASY))
    assert not state.has(0, 3)  # 3 is given in row 1
    twin = state.copy()
    twin.place(0, 4)
    assert state.values[0] == 0 and twin.values[0] == 4
    assert not twin.has(1, 4)


def test_easy_puzzle_solves_with_singles() -> None:
    path = solve_path(3, _digits(EASY))
    state = State.from_givens(3, _digits(EASY))
    for step in path:
        state.apply(step)
    assert "".join(map(str, state.values)) == EASY_SOLUTION
    assert {s.technique for s in path} <= {"Full House", "Naked Single", "Hidden Single"}
    g = grade(3, _digits(EASY))
    assert g.level == "easy" and g.solved_by_logic
    assert g.score == sum(TECHNIQUES[s.technique].score for s in path)


def test_step_shape_and_sentence() -> None:
    state = State.from_givens(3, _digits(EASY))
    step = next(find_hidden_single(state))
    ((r, c), d) = step.changes[0]
    assert step.technique == "Hidden Single"
    assert step.sentence.startswith("Hidden single: in ")
    assert f"r{r + 1}c{c + 1} can hold {d}" in step.sentence
    assert step.extra["code"] == "0002"
    data = step.to_json()
    assert data["changes"] == [[r, c, d]]


def _library_line(code: str) -> LibraryLine:
    for line in read_library(str(TEST_DATA / "sudoku" / "hodoku_reglib-1.3.txt")):
        if line.code == code:
            return line
    raise AssertionError(code)


def test_x_wing_sentence_names_rows_columns_and_cells() -> None:
    state = _library_line("0300").state()
    steps = list(find_x_wing(state))
    assert steps
    for step in steps:
        assert re.match(
            r"X-Wing on \d in (rows|columns) \d and \d, (columns|rows) \d and \d: remove \d from r",
            step.sentence,
        ), step.sentence


def test_grade_levels_follow_score_thresholds() -> None:
    g = grade_path([], solved=False)
    assert g.level == "extreme" and not g.solved_by_logic
    givens = _library_line("0800").givens
    steps = solve_path(3, givens, max_level="easy")
    assert all(TECHNIQUES[s.technique].level == "easy" for s in steps)
    medium = grade_path([_fake("Naked Pair")] * 10, solved=True)  # 600 points, medium
    assert medium.level == "medium" and medium.hardest == "Naked Pair"
    raised = grade_path([_fake("Naked Pair")] * 17, solved=True)  # 1020 > 1000: raised
    assert raised.level == "hard" and raised.score == 1020


def _fake(name: str) -> Step:
    return Step(name, TECHNIQUES[name].rank, (), name)


def test_hint_levels() -> None:
    givens = _digits(EASY)
    h1 = hint(3, givens, 1)
    h2 = hint(3, givens, 2)
    h3 = hint(3, givens, 3)
    assert h1 is not None and h1.startswith("Try: ")
    assert h2 is not None and "look at" in h2
    assert h3 is not None and h3 == solve_path(3, givens)[0].sentence
    assert hint(3, _digits(EASY_SOLUTION), 1) is None


def test_accept_singles_places_every_current_single() -> None:
    values, steps = accept_singles(3, _digits(EASY))
    assert steps and len(steps) == sum(1 for a, b in zip(values, _digits(EASY)) if a != b)
    for v, s in zip(values, EASY_SOLUTION):
        assert v == 0 or str(v) == s


def test_harder_puzzle_uses_advanced_techniques_and_is_sound() -> None:
    # first puzzle of magictour top1465
    givens = _digits(
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
    )
    solved = brute_force(State.from_givens(3, givens))
    assert solved is not None
    path = solve_path(3, givens)
    state = State.from_givens(3, givens)
    for step in path:
        state.apply(step)
    assert state.is_solved() and state.values == solved.values
    g = grade(3, givens)
    assert g.level == "extreme" and g.hardest is not None
    for step in path:  # every step serialises (the CLI and web app send them as JSON)
        json.dumps(step.to_json())


def test_ladder_order_matches_table() -> None:
    ranks = [TECHNIQUES[name].rank for name, _ in LADDER]
    assert len(set(ranks)) == len(ranks)
    assert all(step_name in TECHNIQUES for step_name, _ in LADDER)


def test_four_by_four() -> None:
    givens = [1, 0, 0, 0, 0, 0, 3, 0, 0, 4, 0, 0, 0, 0, 0, 2]
    path = solve_path(2, givens)
    state = State.from_givens(2, givens)
    for step in path:
        state.apply(step)
    assert state.is_solved()
    assert all(sorted(state.values[i] for i in unit) == [1, 2, 3, 4] for unit in state.geo.units)


def _big(path_name: str, n: int) -> list[list[int]]:
    alphabet = "123456789ABCDEFGHIJKLMNOP"[: n * n]
    lines = (TEST_DATA / "sudoku" / path_name).read_text().split()
    return [[0 if ch == "." else alphabet.index(ch) + 1 for ch in line] for line in lines]


def test_sixteen_medium_steps_are_sound() -> None:
    givens = _big("sudoku16_20.txt", 4)[4]
    solved = brute_force(State.from_givens(4, givens))
    assert solved is not None
    path = solve_path(4, givens, max_level="hard")
    assert len(path) > 20
    for step in path:
        for (r, c), d in step.changes:
            assert solved.values[r * 16 + c] == d
        for r, c, d in step.extra.get("eliminations", ()):
            assert solved.values[r * 16 + c] != d


def test_twenty_five_solves() -> None:
    givens = _big("sudoku25_5.txt", 5)[0]
    state = State.from_givens(5, givens)
    for step in solve_path(5, givens):
        state.apply(step)
    assert state.is_solved()
    assert all(len({state.values[i] for i in unit}) == 25 for unit in state.geo.units)


def test_bad_level_rejected() -> None:
    with pytest.raises(ValueError):
        solve_path(3, _digits(EASY), max_level="impossible")


def test_uniqueness_techniques_can_be_switched_off() -> None:
    state = _library_line("0600").state()
    with_ur = solve_state(state.copy())
    without = solve_state(state.copy(), uniqueness=False)
    assert any(s.technique in UNIQUENESS for s in with_ur)
    assert not any(s.technique in UNIQUENESS for s in without)
