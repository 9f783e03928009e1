"""Full house, naked single, hidden single."""

from __future__ import annotations

from collections.abc import Iterator

from pencilbox.core.step import Step

from .state import State, cell_name, unit_name
from .techniques import make_step


def find_full_house(state: State) -> Iterator[Step]:
    geo = state.geo
    size = geo.size
    values = state.values
    for u, unit in enumerate(geo.units):
        empty = [i for i in unit if not values[i]]
        if len(empty) != 1:
            continue
        i = empty[0]
        m = state.cands[i]
        if m and not m & (m - 1):
            d = m.bit_length()
            yield make_step(
                "Full House",
                f"Full house: {cell_name(i, size)} is the last empty cell of "
                f"{unit_name(u, size)}, so it holds {d}",
                size,
                place=[(i, d)],
                reasons=[j for j in unit if j != i],
                clue=unit_name(u, size),
            )


def find_naked_single(state: State) -> Iterator[Step]:
    size = state.geo.size
    for i, m in enumerate(state.cands):
        if m and not m & (m - 1):
            d = m.bit_length()
            yield make_step(
                "Naked Single",
                f"Naked single: {d} is the only candidate left in {cell_name(i, size)}",
                size,
                place=[(i, d)],
                reasons=[i],
                clue=cell_name(i, size),
            )


def find_hidden_single(state: State) -> Iterator[Step]:
    geo = state.geo
    size = geo.size
    cands = state.cands
    # boxes first, as people look for them first
    order = list(range(2 * size, 3 * size)) + list(range(2 * size))
    for u in order:
        unit = geo.units[u]
        once = 0
        twice = 0
        for i in unit:
            m = cands[i]
            twice |= once & m
            once |= m
        single = once & ~twice
        while single:
            low = single & -single
            single ^= low
            d = low.bit_length()
            i = next(j for j in unit if cands[j] & low)
            yield make_step(
                "Hidden Single",
                f"Hidden single: in {unit_name(u, size)} only {cell_name(i, size)} can hold {d}",
                size,
                place=[(i, d)],
                reasons=[j for j in unit if j != i],
                clue=unit_name(u, size),
            )


def find(state: State) -> Iterator[Step]:
    yield from find_full_house(state)
    yield from find_naked_single(state)
    yield from find_hidden_single(state)
