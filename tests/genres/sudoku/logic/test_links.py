"""The chain and forcing searches follow links through lists of partners: they must reach
exactly what the plain bitset breadth-first search reaches."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pencilbox.genres.sudoku.formats import parse_many
from pencilbox.genres.sudoku.logic import State
from pencilbox.genres.sudoku.logic.chains import chains_from, full_links, graph
from pencilbox.genres.sudoku.logic.forcing import implications
from pencilbox.genres.sudoku.logic.state import set_bits
from tests.conftest import TEST_DATA


def _states() -> list[State]:
    states = []
    for name, every in (("magictour_top1465.txt", 40), ("sudoku16_20.txt", 10)):
        text = (TEST_DATA / "sudoku" / name).read_text()
        for _, puzzle in list(parse_many(text, filename=name))[::every][:3]:
            states.append(State.from_givens(puzzle.n, puzzle.values()))
    return states


def _masked_implications(
    weak: dict[int, int], strong: dict[int, int], node: int
) -> tuple[int, int]:
    on_set, off_set = 1 << node, 0
    frontier_on: list[int] = [node]
    frontier_off: list[int] = []
    while frontier_on or frontier_off:
        for x in frontier_on:
            m = weak[x] & ~off_set
            off_set |= m
            frontier_off += set_bits(m)
        new_on = []
        for x in frontier_off:
            m = strong[x] & ~on_set
            on_set |= m
            new_on += set_bits(m)
        frontier_on, frontier_off = new_on, []
        if on_set & off_set:
            break
    return on_set, off_set


def test_implications_equal_the_bitset_search() -> None:
    for state in _states():
        _, nodes, weak, strong = full_links(state)
        outs: tuple[dict[int, list[int]], dict[int, list[int]]] = ({}, {})
        for node in nodes[:: max(1, len(nodes) // 60)]:
            on_set, off_set, off_nodes = implications(weak, strong, node, True, outs)
            assert (on_set, off_set) == _masked_implications(weak, strong, node)
            assert sorted(off_nodes) == set_bits(off_set)


def test_chains_reach_what_the_bitset_search_reaches() -> None:
    for state in _states():
        g = graph(state, "aic")
        for start in g.nodes[:: max(1, len(g.nodes) // 30)]:
            reached = [e for e, _, _ in chains_from(g, start, min_links=1)]
            on_seen, off_seen, frontier, expected = 0, 1 << start, [start], []
            while frontier:
                new_on = []
                for x in frontier:
                    m = g.strong.get(x, 0) & ~on_seen
                    on_seen |= m
                    new_on += set_bits(m)
                expected += [e for e in new_on if e != start]
                frontier = []
                for y in new_on:
                    m = g.weak.get(y, 0) & ~off_seen
                    off_seen |= m
                    frontier += set_bits(m)
            assert reached == expected


@given(st.sets(st.integers(min_value=0, max_value=15_624), max_size=300))
def test_set_bits_lists_every_bit_in_order(bits: set[int]) -> None:
    mask = sum(1 << b for b in bits)
    assert set_bits(mask) == sorted(bits)
