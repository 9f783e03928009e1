"""The finders' compiled loops (the kernel's propagate, implications_all, chain_scan) give the
same steps, in the same order, as their pure-Python loops; without a C compiler only the latter
run, so both must stay right."""

from __future__ import annotations

import random
import shutil
from collections.abc import Callable, Iterator

import pytest

from pencilbox.core.step import Step
from pencilbox.genres.sudoku.formats import parse_many
from pencilbox.genres.sudoku.logic import (
    State,
    als,
    chains,
    compiled,
    fish,
    forcing,
    memo,
    next_step,
    sdc,
    solve_path,
)
from pencilbox.genres.sudoku.logic.reglib import read_library
from pencilbox.genres.sudoku.logic.reglib_check import check
from tests.conftest import TEST_DATA

needs_loops = pytest.mark.skipif(compiled.LOOPS is None, reason="the C kernel is not built")

Finder = Callable[[State], Iterator[Step]]
FINDERS: list[Finder] = [
    chains.find_x_chain,
    chains.find_xy_chain,
    chains.find_aic,
    chains.find_grouped_aic,
    forcing.find_forcing_chain,
    forcing.find_forcing_net,
    als.find_als_xz,
    als.find_als_xy_wing,
    sdc.find_sue_de_coq,
    fish.find_x_wing,
    fish.find_swordfish,
    fish.find_jellyfish,
    lambda state: fish.fish(state, 2, True),
    lambda state: fish.fish(state, 3, True),
    lambda state: fish.fish(state, 4, True),
]


def _puzzle(name: str, index: int) -> tuple[int, list[int]]:
    path = TEST_DATA / "sudoku" / name
    found = [p for _, p in parse_many(path.read_text(), filename=name)]
    puzzle = found[index]
    return puzzle.n, puzzle.values()  # type: ignore[union-attr]


def _steps(finder: Finder, state: State) -> list[tuple[object, ...]]:
    memo.forget()  # searches skipped as known empty would hide a difference
    return [
        (s.technique, s.changes, s.extra, s.sentence, s.reasons, s.clue)
        for s in finder(state.copy())
    ]


LOOPED = {
    "X-Chain",
    "XY-Chain",
    "AIC",
    "Grouped AIC",
    "Forcing Chain",
    "Forcing Net",
    "ALS-XZ",
    "ALS-XY-Wing",
    "Sue de Coq",
}


def _states_before_chains(n: int, givens: list[int], count: int) -> list[State]:
    """The states of the solving path just before its first `count` chain or forcing steps."""
    state = State.from_givens(n, givens)
    out: list[State] = []
    while len(out) < count:
        step = next_step(state)
        if step is None:
            break
        if step.technique in LOOPED:
            out.append(state.copy())
        state.apply(step)
    return out


def test_the_loops_are_built_where_there_is_a_compiler() -> None:
    if shutil.which("cc") or shutil.which("gcc"):
        assert compiled.LOOPS is not None, "a C compiler is present but the kernel lacks them"


@needs_loops
@pytest.mark.parametrize(
    ("name", "index"),
    [
        ("norvig_top95.txt", 30),
        ("norvig_top95.txt", 7),
        ("qqwing_expert.sdm", 5),
        ("17clue_2000.txt", 65),
        ("sudoku16_20.txt", 0),
    ],
)
def test_every_step_of_the_chain_and_forcing_finders_is_the_same(name: str, index: int) -> None:
    found = 0
    for state in _states_before_chains(*_puzzle(name, index), count=3):
        for finder in FINDERS:
            fast = _steps(finder, state)
            with compiled.pure_python():
                slow = _steps(finder, state)
            assert fast == slow, finder
            found += len(fast)
    assert found >= 10


@needs_loops
def test_solving_paths_are_the_same_with_and_without_the_compiled_loops() -> None:
    for index in (10, 15, 34):
        n, givens = _puzzle("norvig_top95.txt", index)
        fast = [(s.technique, s.sentence, s.extra) for s in solve_path(n, givens)]
        with compiled.pure_python():
            slow = [(s.technique, s.sentence, s.extra) for s in solve_path(n, givens)]
        assert fast == slow
        assert any(t.startswith("Forcing") for t, _, _ in fast)


@needs_loops
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_propagate_reaches_the_same_grid_or_the_same_contradiction(n: int) -> None:
    rng = random.Random(n)
    name = {2: None, 3: "norvig_top95.txt", 4: "sudoku16_20.txt", 5: "sudoku25_5.txt"}[n]
    givens = _puzzle(name, 0)[1] if name else [0] * 16
    base = State.from_givens(n, givens)
    open_cells = [i for i, m in enumerate(base.cands) if m]
    verdicts = set()
    for _ in range(30):
        fast = base.copy()
        for i in rng.sample(open_cells, 3):
            digits = [d for d in range(1, n * n + 1) if fast.has(i, d)]
            if digits:
                fast.place(i, rng.choice(digits))
        slow = fast.copy()
        ok = forcing.propagate(fast)
        with compiled.pure_python():
            assert forcing.propagate(slow) == ok
        verdicts.add(ok)
        if ok:
            assert (fast.values, fast.cands) == (slow.values, slow.cands)
    assert True in verdicts


@needs_loops
def test_bad_arguments_are_refused_not_crashed_on() -> None:
    loops = compiled.LOOPS
    assert loops is not None
    with pytest.raises(ValueError):
        loops.propagate(7, [0] * 81, [0] * 81)
    with pytest.raises(ValueError):
        loops.propagate(3, [0] * 80, [0] * 80)
    with pytest.raises(ValueError):
        loops.chain_scan([5], {5: 1 << 900}, {}, {}, 0, 9, 729, 2, 0, 0, 729)
    with pytest.raises(ValueError):
        loops.implications_all([1], {1: -1}, {}, [], 729)


COMPILED_CODES = (
    *("0300", "0301", "0302", "0310", "0311", "0312", "0320", "0321", "0322"),
    *("0701", "0702", "0708", "0711", "0901", "0902", "1101"),
)
"""The HoDoKu library codes of the finders with compiled loops."""


@needs_loops
def test_library_lines_pass_or_fail_alike_with_and_without_the_compiled_loops() -> None:
    lines = [
        line
        for line in read_library(str(TEST_DATA / "sudoku" / "hodoku_reglib-1.3.txt"))
        if line.code in COMPILED_CODES
    ]
    assert len({line.code for line in lines}) == len(COMPILED_CODES)
    fast = [check(line) for line in lines]
    with compiled.pure_python():
        slow = [check(line) for line in lines]
    assert fast == slow
    assert False not in fast and fast.count(True) >= 200  # None: variants the check skips
