"""Colour nonograms: the line solver, propagation, search verdicts, grades, steps and hints,
each checked against something independent (listing placements, a plain SAT model)."""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pencilbox.core.grid import Grid
from pencilbox.core.timing import Stats
from pencilbox.genres.nonogram import line as colour_line
from pencilbox.genres.nonogram import logic as colour_logic
from pencilbox.genres.nonogram.colour.model import (
    NAMED_HEX,
    Colour,
    ColourNonogram,
    clues_of,
    make_colour_puzzle,
    runs_of,
)
from pencilbox.genres.nonogram.formats import read
from pencilbox.genres.nonogram.line import solve_line, solve_line_python
from pencilbox.genres.nonogram.model import FILLED, Nonogram
from tests.conftest import TEST_DATA
from tests.genres.nonogram import colour_automaton
from tests.genres.nonogram.colour_reference import count_solutions

PALETTE = [Colour(name, name[0], NAMED_HEX[name]) for name in ("red", "blue", "green")]


def puzzle_of(picture: list[list[int]], colours: int) -> ColourNonogram:
    """The puzzle whose solution is `picture` (colour indices, 0 background)."""
    grid = Grid.from_rows([[1 << c for c in row] for row in picture])
    rows, cols = clues_of(grid)
    named = PALETTE[:colours]

    def names(clue: tuple[tuple[int, int], ...]) -> list[tuple[int, str]]:
        return [(n, named[c - 1].name) for n, c in clue]

    return make_colour_puzzle(named, [names(c) for c in rows], [names(c) for c in cols])


def brute_line(clue: tuple[tuple[int, int], ...], line: tuple[int, ...], colours: int):  # type: ignore[no-untyped-def]
    """Every colour each cell takes over all colourings that fit the line and the clue."""
    union = [0] * len(line)
    fits = False
    for cells in itertools.product(range(colours), repeat=len(line)):
        allowed = all(mask >> c & 1 for mask, c in zip(line, cells))
        if allowed and runs_of([1 << c for c in cells]) == clue:
            fits = True
            union = [u | 1 << c for u, c in zip(union, cells)]
    return tuple(union) if fits else None


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_line_solver_agrees_with_listing_every_colouring(data: st.DataObject) -> None:
    colours = data.draw(st.integers(2, 4))
    length = data.draw(st.integers(1, 7))
    picture = data.draw(st.lists(st.integers(0, colours - 1), min_size=length, max_size=length))
    clue = runs_of([1 << c for c in picture])
    if data.draw(st.booleans()):  # a clue that may not fit the known cells
        clue = tuple((n, data.draw(st.integers(1, colours - 1))) for n, _ in clue)
    full = (1 << colours) - 1
    line = tuple(
        data.draw(st.sampled_from([full, full, data.draw(st.integers(1, full))]))
        for _ in range(length)
    )
    assert solve_line(clue, line) == brute_line(clue, line, colours)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_compiled_and_python_line_solvers_agree(data: st.DataObject) -> None:
    colours = data.draw(st.integers(2, 11))
    length = data.draw(st.integers(1, 30))
    picture = data.draw(st.lists(st.integers(0, colours - 1), min_size=length, max_size=length))
    clue = runs_of([1 << c for c in picture])
    if data.draw(st.booleans()):
        clue = tuple((n, data.draw(st.integers(1, colours - 1))) for n, _ in clue)
    full = (1 << colours) - 1
    line = tuple(
        data.draw(st.sampled_from([full, full, full, data.draw(st.integers(1, full))]))
        for _ in range(length)
    )
    python = solve_line_python(clue, line)
    assert solve_line(clue, line) == python
    found = colour_line.placements(clue, line)
    starts = None if found is None else [colour_line._bits(m) for m in found.start_masks]
    assert colour_line.run_starts(clue, line) == (None if starts is None else tuple(starts))
    if colour_line._compiled is not None:
        assert colour_line._compiled(clue, line) == python


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_lines_nothing_has_narrowed_yet_agree_with_the_python_solver(data: st.DataObject) -> None:
    """The compiled solver's shortcut for a line whose every cell still allows the background
    and each colour of its clue (as every row is at the start): the same answer."""
    colours = data.draw(st.integers(2, 6))
    length = data.draw(st.integers(1, 40))
    picture = data.draw(st.lists(st.integers(0, colours - 1), min_size=length, max_size=length))
    clue = runs_of([1 << c for c in picture])
    if data.draw(st.booleans()):  # longer runs or other colours: often no fit at all
        clue = tuple(
            (n + data.draw(st.integers(0, 2)), data.draw(st.integers(1, colours - 1)))
            for n, _ in clue
        )
    full = (1 << colours) - 1
    needed = 1 | sum({1 << c for _, c in clue})
    # every cell allows what the clue needs, some cells more colours besides
    line = tuple(needed | data.draw(st.integers(0, full)) for _ in range(length))
    assert solve_line(clue, line) == solve_line_python(clue, line)


def test_more_colours_than_the_compiled_solver_holds_fall_back_to_python() -> None:
    full = (1 << 71) - 1
    narrowed = solve_line(((1, 70), (1, 9)), (full,) * 3)
    assert narrowed == (1 << 70 | 1, 1 << 70 | 1 << 9 | 1, 1 << 9 | 1)


@pytest.mark.skipif(colour_line.KERNEL is None, reason="built without C")
@pytest.mark.parametrize("seed", range(3))
def test_compiled_propagation_reaches_the_python_loops_fixpoint(seed: int) -> None:
    """Same cells, same broken line, same passes and line solves, with and without a pass
    limit; some clues are perturbed so that propagation runs into contradictions."""
    rnd = random.Random(seed)
    outcomes = set()
    for picture, colours in random_pictures(30, seed) + one_colour_pictures(12, seed):
        puzzle = puzzle_of(picture, colours)
        if rnd.random() < 0.4:  # one column's clue made wrong: a contradiction, or none
            cols = list(puzzle.cols)
            c = rnd.randrange(len(cols))
            cols[c] = tuple((n + 1, colour) for n, colour in cols[c])
            puzzle = dataclasses.replace(puzzle, cols=tuple(cols))
        for max_passes in (None, 1, 2):
            compiled_cells = [puzzle.full_mask] * (puzzle.width * puzzle.height)
            python_cells = compiled_cells.copy()
            compiled_stats, python_stats = Stats(), Stats()
            compiled = colour_logic.propagate_board(
                puzzle.board, compiled_cells, compiled_stats, max_passes=max_passes
            )
            python = colour_logic.propagate_python(
                puzzle.board,
                python_cells,
                set(range(puzzle.height)),
                set(range(puzzle.width)),
                python_stats,
                max_passes=max_passes,
                line_solver=solve_line_python,
            )
            assert compiled == python
            assert compiled_cells == python_cells
            assert compiled_stats.to_json() == python_stats.to_json()
            outcomes.add(compiled is None)
    assert outcomes == {True, False}


def test_touching_colours_need_no_gap_but_equal_colours_do() -> None:
    red, blue = 1, 2
    full = 0b111
    # 2 red then 2 blue fill a 4-cell line exactly; 2 red twice cannot.
    assert solve_line(((2, red), (2, blue)), (full,) * 4) == (2, 2, 4, 4)
    assert solve_line(((2, red), (2, red)), (full,) * 4) is None
    assert solve_line(((2, red), (2, red)), (full,) * 5) == (2, 2, 1, 2, 2)


def random_pictures(count: int, seed: int) -> list[tuple[list[list[int]], int]]:
    rnd = random.Random(seed)
    pictures = []
    for _ in range(count):
        colours = rnd.randint(2, 3)
        width, height = rnd.randint(2, 6), rnd.randint(2, 6)
        weights = [2] + [1] * colours
        picture = [rnd.choices(range(colours + 1), weights, k=width) for _ in range(height)]
        pictures.append((picture, colours))
    return pictures


def one_colour_pictures(count: int, seed: int) -> list[tuple[list[list[int]], int]]:
    """Black-and-white pictures, some with lines longer than a 64-bit word (the compiled
    engine solves these bit-parallel)."""
    rnd = random.Random(seed)
    pictures = []
    for _ in range(count):
        width, height = rnd.randint(2, 70), rnd.randint(2, 70)
        picture = [rnd.choices((0, 1), (3, 2), k=width) for _ in range(height)]
        pictures.append((picture, 1))
    return pictures


@pytest.mark.parametrize("seed", range(4))
def test_verdicts_match_an_independent_sat_model(seed: int) -> None:
    seen = set()
    for picture, colours in random_pictures(40, seed):
        puzzle = puzzle_of(picture, colours)
        result = puzzle.solve()
        count, _ = count_solutions(puzzle.rows, puzzle.cols, colours + 1)
        expected = {1: "unique", 2: "multiple"}[count]
        assert result.status == expected, (picture, result.status)
        seen.add(result.status)
        if result.status == "multiple":
            first, second = result.solutions
            assert first != second and result.differences()
        for grid in result.solutions:
            assert puzzle.check(grid) == []
    assert seen == {"unique", "multiple"}


def test_a_puzzle_without_solution_is_none_as_the_model_says() -> None:
    # Every clue fits its line and the colour totals agree, but no grid fits all lines.
    rows = [[(1, "red"), (1, "blue")], [], [(2, "blue"), (1, "red")]]
    cols = [[(2, "red")], [(2, "blue")], [(1, "blue")]]
    puzzle = make_colour_puzzle(PALETTE[:2], rows, cols)
    assert count_solutions(puzzle.rows, puzzle.cols, 3)[0] == 0
    result = puzzle.solve()
    assert result.status == "none" and result.solutions == []


def test_one_colour_gives_the_black_and_white_verdicts() -> None:
    for path in sorted((TEST_DATA / "nonogram" / "survey").glob("*.json"))[:4]:
        plain = read(path.read_text(), filename=path.name)
        assert isinstance(plain, Nonogram)
        black = [Colour("black", "#", "#000000")]
        rows = [[(n, "black") for n in clue] for clue in plain.rows]
        cols = [[(n, "black") for n in clue] for clue in plain.cols]
        coloured = make_colour_puzzle(black, rows, cols)
        want, got = plain.solve(), coloured.solve()
        assert (got.status, got.grade) == (want.status, want.grade)
        as_plain = [[FILLED if mask == 2 else 2 for mask in grid.cells] for grid in got.solutions]
        assert as_plain == [list(grid.cells) for grid in want.solutions]


def replay(puzzle: ColourNonogram) -> Grid:
    cells = list(puzzle.empty_grid().cells)
    for step in puzzle.steps():
        for (r, c), mask in step.changes:
            cells[r * puzzle.width + c] = mask
    return Grid(puzzle.width, puzzle.height, tuple(cells))


def test_a_probe_puzzle_is_graded_probe_and_explained_to_its_solution() -> None:
    picture = [[2, 0, 0, 1, 0], [0, 2, 1, 1, 0], [0, 2, 0, 0, 2], [0, 2, 0, 0, 0], [2, 0, 0, 0, 0]]
    puzzle = puzzle_of(picture, 2)
    result = puzzle.solve()
    assert (result.status, result.grade) == ("unique", "probe")
    assert count_solutions(puzzle.rows, puzzle.cols, 3)[0] == 1
    probes = [step for step in puzzle.steps() if step.technique == "probe"]
    assert probes and "impossible, so it is" in probes[0].sentence
    assert replay(puzzle) == result.solutions[0]
    assert puzzle.grade() == "probe" and puzzle.grade_report()["level"] == "probe"


def test_a_puzzle_of_two_solutions_is_explained_with_a_decision() -> None:
    puzzle = puzzle_of([[1, 0, 2], [0, 1, 2]], 2)
    result = puzzle.solve()
    assert result.status == "multiple"
    assert sorted(result.differences()) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    decisions = [step for step in puzzle.steps() if step.technique == "decision"]
    assert decisions and decisions[0].sentence.startswith("Logic is stuck: guess that r1c1 is")
    assert puzzle.check(replay(puzzle)) == []


def test_steps_and_hints_name_the_colours() -> None:
    puzzle = read((TEST_DATA / "nonogram-colour" / "pynogram-uk.txt").read_text(), "pynogram")
    assert isinstance(puzzle, ColourNonogram)
    steps = puzzle.steps()
    assert steps and all(step.technique == "line" for step in steps)
    covered = [s.sentence for s in steps if "every placement of the" in s.sentence]
    assert any(" red " in s and "are red" in s for s in covered)
    assert puzzle.hint(1) == "Use line logic."
    assert puzzle.hint(2) == f"Look at {steps[0].clue}."
    sentence = puzzle.hint(3)
    assert sentence is not None and sentence.startswith("Row 1 (3 red, 11 blue, 3 red")


def test_a_zero_time_limit_is_a_timeout_with_the_partial_grid() -> None:
    puzzle = read((TEST_DATA / "nonogram-colour" / "missing.xml").read_text(), "webpbn")
    result = puzzle.solve(time_limit=0)
    assert result.status == "timeout" and result.partial is not None
    assert puzzle.solve().status == "unique"


def test_contradiction_step_for_an_impossible_puzzle() -> None:
    rows = [[(1, "red"), (1, "blue")], [], [(2, "blue"), (1, "red")]]
    cols = [[(2, "red")], [(2, "blue")], [(1, "blue")]]
    puzzle = make_colour_puzzle(PALETTE[:2], rows, cols)
    last = puzzle.steps()[-1]
    assert last.technique == "contradiction"
    assert "cannot be satisfied" in last.sentence and "red" in last.sentence


@pytest.mark.parametrize("seed", range(2))
def test_the_two_independent_models_agree_with_the_solver(seed: int) -> None:
    """The automaton model (any size, used by the benchmark on every puzzle) against the
    placement-listing model and the solver, on small pictures and on clues made wrong."""
    rnd = random.Random(seed)
    seen = set()
    for picture, colours in random_pictures(25, seed + 10):
        puzzle = puzzle_of(picture, colours)
        if rnd.random() < 0.3:
            cols = list(puzzle.cols)
            c = rnd.randrange(len(cols))
            cols[c] = tuple((n, colours + 1 - colour) for n, colour in cols[c])
            puzzle = dataclasses.replace(puzzle, cols=tuple(cols))
        listed, _ = count_solutions(puzzle.rows, puzzle.cols, colours + 1)
        counted, grids = colour_automaton.count_solutions(puzzle.rows, puzzle.cols, colours + 1)
        verdict = {0: "none", 1: "unique", 2: "multiple"}[counted]
        assert counted == listed
        assert puzzle.solve().status == verdict
        for grid in grids:
            masks = Grid(puzzle.width, puzzle.height, tuple(1 << c for c in grid))
            assert puzzle.check(masks) == []
        seen.add(verdict)
    assert seen == {"none", "unique", "multiple"}
