"""The exact line solver against brute-force enumeration of every filling."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from pencilbox.genres.nonogram import line as engine_line
from pencilbox.genres.nonogram.line import solve_plain_line as solve_line
from pencilbox.genres.nonogram.model import EMPTY, FILLED, UNKNOWN, runs_of


def brute_force(clue: tuple[int, ...], line: tuple[int, ...]) -> tuple[int, ...] | None:
    fits = [
        bits
        for bits in itertools.product((FILLED, EMPTY), repeat=len(line))
        if runs_of(bits) == clue and all(k in (UNKNOWN, b) for k, b in zip(line, bits))
    ]
    if not fits:
        return None
    return tuple(
        fits[0][i] if all(f[i] == fits[0][i] for f in fits) else UNKNOWN for i in range(len(line))
    )


cells = st.sampled_from((UNKNOWN, UNKNOWN, UNKNOWN, FILLED, EMPTY))


@settings(max_examples=1500, deadline=None)
@given(
    truth=st.lists(st.booleans(), min_size=1, max_size=11),
    known=st.lists(cells, min_size=11, max_size=11),
    other_clue=st.one_of(st.none(), st.lists(st.integers(1, 4), max_size=4)),
)
def test_line_solver_matches_brute_force(
    truth: list[bool], known: list[int], other_clue: list[int] | None
) -> None:
    line = tuple(known[: len(truth)])
    clue = runs_of(tuple(FILLED if t else EMPTY for t in truth))
    if other_clue is not None:  # also clues that may not fit, to exercise contradictions
        clue = tuple(other_clue)
    assert solve_line(clue, line) == brute_force(clue, line)


def test_empty_clue_and_exact_fit() -> None:
    assert solve_line((), (UNKNOWN,) * 4) == (EMPTY,) * 4
    assert solve_line((), (UNKNOWN, FILLED)) is None
    assert solve_line((2, 1), (UNKNOWN,) * 4) == (FILLED, FILLED, EMPTY, FILLED)


def test_long_line_overlap() -> None:
    # a run of 8 on 10 cells always covers cells 3-8
    line = solve_line((8,), (UNKNOWN,) * 10)
    assert line == (UNKNOWN, UNKNOWN) + (FILLED,) * 6 + (UNKNOWN, UNKNOWN)


def test_long_lines_are_fast_enough_to_not_enumerate() -> None:
    # 40 runs of 1 on 200 cells has astronomically many placements; the DP must not list them
    clue = (1,) * 40
    assert solve_line(clue, (UNKNOWN,) * 200) == (UNKNOWN,) * 200


@settings(max_examples=400, deadline=None)
@given(
    truth=st.lists(st.booleans(), min_size=1, max_size=300),
    known=st.lists(cells, min_size=300, max_size=300),
    grow=st.integers(0, 3),
)
def test_compiled_bit_parallel_lines_match_the_python_solver(
    truth: list[bool], known: list[int], grow: int
) -> None:
    """Lines up to 300 cells (several 64-bit words): the compiled engine's one-colour solver
    gives the Python bit-set solver's answer, contradictions included."""
    if engine_line.KERNEL is None:
        return
    clue = engine_line.plain_clue(runs_of(tuple(FILLED if t else EMPTY for t in truth)))
    if grow and clue:  # a run made longer: often no placement at all
        j = grow % len(clue)
        clue = (*clue[:j], (clue[j][0] + grow, 1), *clue[j + 1 :])
    line = tuple(engine_line.MASK_OF_VALUE[v] for v in known[: len(truth)])
    assert engine_line.KERNEL.solve_line(clue, line) == engine_line.solve_line_python(clue, line)
