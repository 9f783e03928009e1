"""Logical steps: every deduction agrees with the known answer; placements are complete."""

from __future__ import annotations

import re
from itertools import combinations
from pathlib import Path

import pytest

import pencilbox
from pencilbox.core.step import Step
from pencilbox.genres.dbchoco.formats import read
from pencilbox.genres.dbchoco.logic import EDGE_RULES, State, deduce, propagate, rules_up_to
from pencilbox.genres.dbchoco.logic.blocks import small_placements
from pencilbox.genres.dbchoco.logic.state import AREA, GRADE_OF, REACH, components
from pencilbox.genres.dbchoco.logic.trial import contradiction
from pencilbox.genres.dbchoco.model import OPEN, UNDECIDED, WALL, DoubleChoco
from pencilbox.genres.dbchoco.placements import Board, blocks_for
from pencilbox.genres.dbchoco.shapes import congruent
from tests.genres.dbchoco._data import files, load

SMALL = [p for p in files() if load(p)["width"] * load(p)["height"] <= 150]
UNIQUE_SMALL = [p for p in SMALL if load(p)["solver_status"] == "unique"]


@pytest.mark.parametrize("path", UNIQUE_SMALL, ids=lambda p: p.stem)
def test_every_deduction_agrees_with_the_answer(path: Path) -> None:
    puzzle = pencilbox.load(str(path))
    assert isinstance(puzzle, DoubleChoco) and puzzle.answer is not None
    state = deduce(puzzle, probe_seconds=5.0)
    for e, value in enumerate(state.edges):
        if value != UNDECIDED:
            assert (value == WALL) == puzzle.answer.is_wall(e), puzzle.geometry.edge_name(e)
    for step in state.steps:
        assert step.sentence and step.extra["edges"]


def test_placements_solve_small_puzzles_without_search() -> None:
    solved = []
    for path in SMALL:
        puzzle = pencilbox.load(str(path))
        assert isinstance(puzzle, DoubleChoco)
        if UNDECIDED not in deduce(puzzle, probe_seconds=5.0).edges:
            solved.append(path.stem)
    # measured: the placement technique lets logic alone finish these
    assert {
        "asSqr_puzz_sqr_01_6x6",
        "asSqr_puzz_sqr_04_8x8",
        "asSqr_puzz_sqr_05_6x6",
        "kevinychen_nikoli-puzzle-solver_02_8x8",
        "robx_pzprjs_01_6x6",
        "semiexp_cspuz_core_01_6x6",
    } <= set(solved)


def test_placement_step_says_how_many_ways() -> None:
    puzzle = read("https://puzz.link/p?dbchoco/6/6/ueoq8p30g42j4n5s22j")
    steps = deduce(puzzle, probe_seconds=5.0).steps
    placement = [s for s in steps if s.technique == "placement"]
    assert placement
    assert "fits in" in placement[0].sentence and "block of the" in placement[0].sentence


def test_small_placements_are_local_and_finish_what_the_other_local_steps_cannot() -> None:
    # found by search: local logic without placing the numbers up to 3 stalls on it
    puzzle = read("https://puzz.link/p?dbchoco/4/4/glt0j2i2h1j")
    assert set(rules_up_to("local")) == {*EDGE_RULES, small_placements}
    stalled = State(puzzle, [UNDECIDED] * puzzle.geometry.count)
    propagate(stalled, None, EDGE_RULES)
    assert UNDECIDED in stalled.edges
    state = deduce(puzzle, level="local")
    assert UNDECIDED not in state.edges and state.grade() == "local"
    small = [s for s in state.steps if s.technique == "small_placement"]
    assert small and all("fits in" in s.sentence for s in small)
    assert GRADE_OF["small_placement"] == "local"


def _brute_force_blocks(
    puzzle: DoubleChoco, start: tuple[int, int], n: int
) -> set[frozenset[tuple[int, int]]]:
    """Every pair (area of n cells holding start, congruent area of the other colour) that
    touch, on an undecided board: by trying all cell subsets."""
    cells = [(r, c) for r in range(puzzle.height) for c in range(puzzle.width)]
    colour = puzzle.is_gray(*start)
    mine = [c for c in cells if puzzle.is_gray(*c) == colour]
    theirs = [c for c in cells if puzzle.is_gray(*c) != colour]

    def connected(group: tuple[tuple[int, int], ...]) -> bool:
        seen, todo = {group[0]}, [group[0]]
        while todo:
            r, c = todo.pop()
            for nxt in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if nxt in group and nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return len(seen) == len(group)

    def ok_numbers(group: tuple[tuple[int, int], ...]) -> bool:
        return all(puzzle.number(*c) in (None, n) for c in group)

    found = set()
    for area in combinations(mine, n):
        if start not in area or not connected(area) or not ok_numbers(area):
            continue
        for other in combinations(theirs, n):
            fits = ok_numbers(other) and connected(other) and congruent(area, other)
            if fits and connected(area + other):
                found.add(frozenset(area + other))
    return found


def test_placements_match_brute_force_on_a_small_board() -> None:
    puzzle = read("3 . # #\n. # #2 .\n# . 2 #\n# # . .\n", "text")
    board = Board(puzzle, [UNDECIDED] * puzzle.geometry.count)
    numbered = [(r, c) for r in range(4) for c in range(4) if isinstance(puzzle.number(r, c), int)]
    assert numbered
    for cell in numbered:
        listed = blocks_for(board, cell)
        number = puzzle.number(*cell)
        assert listed is not None and isinstance(number, int)
        assert set(listed) == _brute_force_blocks(puzzle, cell, number)


def test_pocket_placements_match_brute_force() -> None:
    # the white cell at r1c1 is boxed in by gray: its area has one cell
    puzzle = read("# # # .\n# . # .\n# # . .\n. . . #\n", "text")
    board = Board(puzzle, [UNDECIDED] * puzzle.geometry.count)
    listed = blocks_for(board, (1, 1))
    assert listed is not None
    assert set(listed) == _brute_force_blocks(puzzle, (1, 1), 1)
    assert all(len(block) == 2 for block in listed)


def test_a_decided_edge_narrows_the_placements() -> None:
    puzzle = read("https://puzz.link/p?dbchoco/6/6/ueoq8p30g42j4n5s22j")
    edges = [UNDECIDED] * puzzle.geometry.count
    start = next((r, c) for r in range(6) for c in range(6) if isinstance(puzzle.number(r, c), int))
    before = blocks_for(Board(puzzle, edges), start)
    assert before
    first = sorted(before[0])
    inner = next(
        puzzle.geometry.between(a, b)
        for a in first
        for b in first
        if abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
    )
    edges[inner] = WALL
    after = blocks_for(Board(puzzle, edges), start)
    assert after is not None and before[0] not in after and set(after) < set(before)
    edges[inner] = OPEN
    opened = blocks_for(Board(puzzle, edges), start)
    assert opened is not None and set(opened) <= set(before)


def _steps_of(technique: str) -> list[tuple[DoubleChoco, Step]]:
    found = []
    for path in UNIQUE_SMALL:
        puzzle = pencilbox.load(str(path))
        assert isinstance(puzzle, DoubleChoco)
        found += [
            (puzzle, s) for s in deduce(puzzle, probe_seconds=5.0).steps if s.technique == technique
        ]
    return found


def test_size_bound_steps_wall_off_what_would_outgrow_a_number() -> None:
    found = _steps_of("sizes")
    assert found, "the size bound fires on the committed puzzles"
    for puzzle, step in found:
        assert "more than" in step.sentence
        assert all(value == WALL for _, value in step.extra["edges"])
        assert puzzle.answer is not None
        assert all(puzzle.answer.is_wall(e) for e, _ in step.extra["edges"])


def test_balance_steps_open_an_edge_whose_wall_cuts_off_an_unequal_region() -> None:
    found = _steps_of("balance")
    assert found
    for puzzle, step in found:
        [(edge, value)] = step.extra["edges"]
        assert value == OPEN and "white and" in step.sentence and "gray cells" in step.sentence
        assert puzzle.answer is not None and not puzzle.answer.is_wall(edge)
        # the cut-off side the sentence counts really is unequal
        white, gray = (
            int(w) for w in re.findall(r"hold (\d+) white and (\d+) gray", step.sentence)[0]
        )
        assert white != gray


def test_a_trial_tells_its_short_proof() -> None:
    # trials straight from the empty grid of a small puzzle: each step says what was
    # assumed, what followed and which rule broke, and decides the edge the other way
    puzzle = pencilbox.load(str(next(p for p in UNIQUE_SMALL if "pzprjs_01" in p.stem)))
    assert isinstance(puzzle, DoubleChoco) and puzzle.answer is not None
    state = State(puzzle, [UNDECIDED] * puzzle.geometry.count)
    for _ in range(3):
        assert contradiction(state, propagate)
    for step in state.steps:
        assert step.technique == "contradiction"
        [(edge, value)] = step.extra["edges"]
        name = puzzle.geometry.edge_name(edge)
        assumed = "open" if value == WALL else "a wall"
        assert step.sentence.startswith(f"if {name} were {assumed},")
        assert step.sentence.endswith(f"so {name} is {'a wall' if value == WALL else 'open'}")
        assert edge in step.extra["focus_edges"]
        assert puzzle.answer.is_wall(edge) == (value == WALL)


def test_trial_sweeps_go_round_from_the_last_finding() -> None:
    puzzle = pencilbox.load(str(next(p for p in UNIQUE_SMALL if "pzprjs_01" in p.stem)))
    assert isinstance(puzzle, DoubleChoco)
    state = State(puzzle, [UNDECIDED] * puzzle.geometry.count)
    assert contradiction(state, propagate)
    first = state.steps[-1].extra["edges"][0][0]
    assert state.next_trial == first + 1


def test_components_follow_every_decided_edge() -> None:
    """The partitions are kept per version of the edges: a decision shows at once."""
    puzzle = read("https://puzz.link/p?dbchoco/4/4/0c4g2g")
    state = State(puzzle, [UNDECIDED] * puzzle.geometry.count)
    assert len(components(state, same_colour=False, through=AREA)) == 16
    state.set({puzzle.geometry.right(0, 0): OPEN}, "area", "", [])
    groups = components(state, same_colour=False, through=AREA)
    assert [(0, 0), (0, 1)] in groups and len(groups) == 15
    walled = {puzzle.geometry.right(r, c): WALL for r in range(4) for c in range(3) if c != 0}
    walled |= {puzzle.geometry.down(r, c): WALL for r in range(3) for c in range(4)}
    state.set(walled, "area", "", [])
    reach = components(state, same_colour=False, through=REACH)
    assert sorted(map(len, reach)) == [1] * 8 + [2] * 4


def test_neighbours_name_the_edge_between() -> None:
    geo = read("https://puzz.link/p?dbchoco/4/4/0c4g2g").geometry
    for r in range(4):
        for c in range(4):
            around = geo.neighbours(r, c)
            assert len(around) == 4 - (r in (0, 3)) - (c in (0, 3))
            assert all(geo.between((r, c), cell) == e for cell, e in around)


def test_a_closed_area_joins_its_only_possible_partner() -> None:
    """Two 2x2 halves side by side, both numbered 4: each area is found whole (exact
    reach), the white one is walled off from its colour, and the only gray cells it can
    join are in one gray area: the two edges between them are open, as the `area` step
    tells, before `balance` would."""
    from pencilbox.genres.dbchoco.model import make_puzzle

    gray = [[False, False, True, True], [False, False, True, True]]
    puzzle = make_puzzle(gray, [[4, None, None, 4], [None, None, None, None]])
    state = deduce(puzzle, level="local")
    partner = [s for s in state.steps if "other half of its block" in s.sentence]
    assert partner and partner[0].technique == "area"
    assert sorted(name for name in partner[0].extra["edge_names"]) == ["r1c2|r1c3", "r2c2|r2c3"]
    assert state.solved() and state.grade() == "local"
    assert not any(step.technique == "balance" for step in state.steps)


def test_a_closed_area_bounds_its_block_as_a_number_would() -> None:
    """No numbers at all: the white pair on the left of the top row is walled off from the
    white cells below it, so its block has two gray cells, and the gray pair it is joined to
    already has them: both gray cells are walled off from the gray row below."""
    from pencilbox.genres.dbchoco.logic.rules import sizes
    from pencilbox.genres.dbchoco.model import make_puzzle

    gray = [[False, False, True, True], [False, False, True, True]]
    puzzle = make_puzzle(gray, [[None] * 4, [None] * 4])
    geo = puzzle.geometry
    state = State(puzzle, [UNDECIDED] * geo.count)
    opened = {geo.right(0, c): OPEN for c in range(3)}
    walled = {geo.down(0, 0): WALL, geo.down(0, 1): WALL}
    state.set(opened | walled, "area", "", [])
    assert sizes(state)
    found = state.steps[1:]
    assert [name for step in found for name in step.extra["edge_names"]] == [
        "r1c3|r2c3",
        "r1c4|r2c4",
    ]
    for step in found:
        assert step.technique == "sizes"
        assert "3 gray cells in the block whose closed area at r1c1 has 2 cells, more than 2" in (
            step.sentence
        )
    assert not sizes(state)  # nothing more to bound: the white pair below is not closed


def test_blocks_of_different_known_sizes_are_walled_apart() -> None:
    """One row: a white cell joined to a gray one, then a gray 2, then a lone white cell.
    The first white cell and the last are closed areas of one cell (no white neighbour across
    an edge that is not a wall), so their blocks are a 1's: neither can join the 2."""
    from pencilbox.genres.dbchoco.logic.rules import sizes
    from pencilbox.genres.dbchoco.model import make_puzzle

    gray = [[False, True, True, False]]
    puzzle = make_puzzle(gray, [[None, None, 2, None]])
    geo = puzzle.geometry
    state = State(puzzle, [UNDECIDED] * geo.count)
    state.set({geo.right(0, 0): OPEN}, "area", "", [])
    assert sizes(state)
    found = state.steps[1:]
    assert [step.extra["edge_names"] for step in found] == [["r1c2|r1c3"], ["r1c3|r1c4"]]
    assert all("different sizes" in step.sentence for step in found)
    assert "closed area at r1c1 has 1 cell " in found[0].sentence
    assert "the block of the 2 at r1c3" in found[1].sentence


def test_a_known_block_size_takes_all_the_cells_its_other_half_can_reach() -> None:
    """One row, white white gray gray, no numbers: the white pair is closed (two cells), and
    the first gray cell is joined to it, so the gray half has two cells and can reach only
    the two gray cells: the edge between them is open."""
    from pencilbox.genres.dbchoco.logic.rules import _exact_reach
    from pencilbox.genres.dbchoco.model import make_puzzle

    puzzle = make_puzzle([[False, False, True, True]], [[None] * 4])
    geo = puzzle.geometry
    state = State(puzzle, [UNDECIDED] * geo.count)
    state.set({geo.right(0, 0): OPEN, geo.right(0, 1): OPEN}, "area", "", [])
    assert _exact_reach(state)
    [step] = state.steps[1:]
    assert step.technique == "area" and step.extra["edge_names"] == ["r1c3|r1c4"]
    assert step.sentence.startswith("the block whose closed area at r1c1 has 2 cells can only")


def test_a_hints_patience_is_spent_by_work_not_by_waiting() -> None:
    # with other work slowing the machine, a hint's trials waited past 2 s of the wall
    # clock and the hint traced the puzzle from its empty grid instead (a CI run): the
    # patience counts this thread's CPU time, so waiting spends none of it
    import time

    from pencilbox.genres.dbchoco.logic.trial import Patience

    patience = Patience(0.05)
    time.sleep(0.1)
    assert not patience.expired()
    started = time.thread_time()
    while time.thread_time() - started < 0.06:
        pass
    assert patience.expired()
    patience.found()  # a find starts it again
    assert not patience.expired()
