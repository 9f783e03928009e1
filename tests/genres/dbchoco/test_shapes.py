"""Shapes: the canonical form decides congruence exactly like a brute-force search."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pencilbox.core.grid import Cell
from pencilbox.genres.dbchoco.shapes import canonical, congruent, normalise

cell_sets = st.frozensets(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=7)


def brute_force_congruent(a: frozenset[Cell], b: frozenset[Cell]) -> bool:
    """Try every rotation/reflection written out by hand, and every translation."""
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (c, -r),
        lambda r, c: (-r, -c),
        lambda r, c: (-c, r),
        lambda r, c: (r, -c),
        lambda r, c: (-r, c),
        lambda r, c: (c, r),
        lambda r, c: (-c, -r),
    ]
    if len(a) != len(b):
        return False
    target = set(b)
    for f in maps:
        image = [f(r, c) for r, c in a]
        for dr in range(-12, 13):
            for dc in range(-12, 13):
                if {(r + dr, c + dc) for r, c in image} == target:
                    return True
    return False


@settings(max_examples=150, deadline=None)
@given(cell_sets, cell_sets)
def test_canonical_form_matches_brute_force(a: frozenset[Cell], b: frozenset[Cell]) -> None:
    assert congruent(a, b) == brute_force_congruent(a, b)


@settings(max_examples=100, deadline=None)
@given(cell_sets, st.integers(-3, 3), st.integers(-3, 3), st.integers(0, 7))
def test_canonical_form_is_invariant(a: frozenset[Cell], dr: int, dc: int, turn: int) -> None:
    moved = {(r + dr, c + dc) for r, c in a}
    for _ in range(turn % 4):
        moved = {(c, -r) for r, c in moved}
    if turn >= 4:
        moved = {(r, -c) for r, c in moved}
    assert canonical(moved) == canonical(a)


def test_normalise_translates_to_the_origin() -> None:
    assert normalise([(3, 4), (4, 4), (4, 5)]) == ((0, 0), (1, 0), (1, 1))
