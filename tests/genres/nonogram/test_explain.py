"""The step trace: replaying it from the empty grid reaches a solution, in order."""

from __future__ import annotations

import re

import pytest

import pencilbox
from pencilbox.core.grid import Grid
from pencilbox.core.step import Step
from pencilbox.genres.nonogram.model import UNKNOWN, Nonogram, clues_of, make_puzzle
from tests.conftest import TEST_DATA

NONOGRAMS = TEST_DATA / "nonogram"


def replay(puzzle: Nonogram, steps: list[Step]) -> Grid:
    grid = puzzle.empty_grid()
    for step in steps:
        if step.technique == "backtrack":
            # a backtrack undoes its guess: the cell it names gets the other value
            grid = grid.with_cells(step.changes)
            continue
        for cell, _ in step.changes:
            if step.technique != "decision":
                assert grid[cell] == UNKNOWN, f"step re-sets a known cell: {step.sentence}"
        grid = grid.with_cells(step.changes)
    return grid


def test_seed_a_trace_reaches_the_solution_with_readable_sentences() -> None:
    puzzle = pencilbox.load(NONOGRAMS / "seed/seed-a.json")
    steps = puzzle.steps()
    assert replay(puzzle, steps) == puzzle.goal
    first = steps[0]
    assert first.technique == "line" and first.level == 1
    assert re.fullmatch(
        r"Row \d+ \([\d ]+\): cells? [\d\-, and]+ (is|are) (filled|empty) — .+\.", first.sentence
    )
    assert first.clue and first.clue.startswith("row")
    assert all(step.sentence and step.changes for step in steps)


@pytest.mark.parametrize(
    "name", ["survey/webpbn-06574.json", "survey/webpbn-00065.json", "seed/seed-b.json"]
)
def test_hard_traces_use_probes_and_decisions_and_end_in_a_solution(name: str) -> None:
    puzzle = pencilbox.load(NONOGRAMS / name)
    steps = puzzle.steps()
    final = replay(puzzle, steps)
    assert UNKNOWN not in final.cells
    assert clues_of(final) == (puzzle.rows, puzzle.cols)
    kinds = {step.technique for step in steps}
    assert "probe" in kinds or "decision" in kinds
    for step in steps:
        if step.technique == "probe":
            assert re.fullmatch(
                r"Probe r\d+c\d+: (filled|empty) makes (row|column) \d+ impossible, "
                r"so it is (filled|empty)\.",
                step.sentence,
            )


def test_a_puzzle_without_solution_ends_with_the_contradiction() -> None:
    puzzle = make_puzzle([[1, 1], [1, 1], [1, 1]], [[], [3], [3]])
    steps = puzzle.steps()
    assert steps[-1].technique == "contradiction"
    assert "no solution" in steps[-1].sentence


def test_single_pass_is_rows_then_columns() -> None:
    puzzle = pencilbox.load(NONOGRAMS / "seed/seed-a.json")
    one = puzzle.logic_grid(max_passes=1)
    full = puzzle.logic_grid()
    known_one = sum(v != UNKNOWN for v in one.cells)
    known_full = sum(v != UNKNOWN for v in full.cells)
    assert 0 < known_one < known_full
    for cell_one, cell_full in zip(one.cells, full.cells):
        assert cell_one in (UNKNOWN, cell_full)


def test_probe_memo_skips_only_while_the_fixpoint_still_agrees() -> None:
    from pencilbox.genres.nonogram.logic import ProbeMemo

    memo = ProbeMemo()
    memo.remember(4, 1, [1, 2, 1, 0, 1])
    assert memo.known_safe(4, 1)  # nothing learned since
    memo.record_changes([0, 0, 0, 0, 0], [1, 2, 0, 0, 0])  # agrees with the fixpoint
    assert memo.known_safe(4, 1)
    memo.record_changes([1, 2, 0, 0, 0], [1, 2, 2, 0, 0])  # cell 2 now disagrees
    assert not memo.known_safe(4, 1)
    assert not memo.known_safe(4, 2)  # never remembered


def test_hard_trace_and_grade_agree_on_probes() -> None:
    # the trace's probes (both values tried, memo on) and the grader (wrong value only)
    # must reach the same conclusion: webpbn #803 needs probes but no decision
    puzzle = pencilbox.load(NONOGRAMS / "survey/webpbn-00803.json")
    kinds = {step.technique for step in puzzle.steps()}
    assert "probe" in kinds and "decision" not in kinds
    assert puzzle.grade() == "probe"
