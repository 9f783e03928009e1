"""Naked and hidden pairs, triples and quadruples."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations

from pencilbox.core.step import Step

from .memo import each_part, unit_keys
from .state import State, cell_name, cells_text, digits_of, unit_name
from .techniques import elim_text, make_step

_NAKED = {2: "Naked Pair", 3: "Naked Triple", 4: "Naked Quadruple"}
_HIDDEN = {2: "Hidden Pair", 3: "Hidden Triple", 4: "Hidden Quadruple"}


def _is_locked(state: State, cells: tuple[int, ...]) -> bool:
    geo = state.geo
    box = geo.box[cells[0]]
    if any(geo.box[i] != box for i in cells):
        return False
    return all(geo.row[i] == geo.row[cells[0]] for i in cells) or all(
        geo.col[i] == geo.col[cells[0]] for i in cells
    )


def naked(state: State, k: int) -> Iterator[Step]:
    """Unit by unit; a unit that found nothing is skipped until its candidates change."""
    return _unit_by_unit(state, f"naked {k}", lambda u: _naked_in(state, k, u))


def hidden(state: State, k: int) -> Iterator[Step]:
    """Unit by unit; a unit that found nothing is skipped until its candidates change."""
    return _unit_by_unit(state, f"hidden {k}", lambda u: _hidden_in(state, k, u))


def _unit_by_unit(
    state: State, search: str, on_unit: Callable[[int], Iterator[Step]]
) -> Iterator[Step]:
    """The steps of every unit in order: a unit's subsets depend only on its candidates."""
    size = state.geo.size
    keys = unit_keys(state)
    parts = ((u, (size, u, key)) for u, key in enumerate(keys))
    return each_part(search, parts, on_unit)


def _naked_in(state: State, k: int, u: int) -> Iterator[Step]:
    geo = state.geo
    size = geo.size
    cands = state.cands
    name = _NAKED[k]
    unit = geo.units[u]
    pool = [i for i in unit if cands[i] and cands[i].bit_count() <= k]
    if len(pool) < k:
        return
    for combo in combinations(pool, k):
        m = 0
        for i in combo:
            m |= cands[i]
        if m.bit_count() != k:
            continue
        if k <= 3 and _is_locked(state, combo):
            continue  # a locked pair/triple
        cs = set(combo)
        el = [(i, d) for i in unit if i not in cs for d in digits_of(cands[i] & m)]
        if el:
            ds = digits_of(m)
            yield make_step(
                name,
                f"{name}: in {unit_name(u, size)} {cells_text(combo, size)} hold only "
                f"{', '.join(map(str, ds))}: {elim_text(el, size)}",
                size,
                eliminate=el,
                reasons=combo,
                clue=unit_name(u, size),
                digits=ds,
            )


def _positions_in(cands: list[int], unit: tuple[int, ...]) -> tuple[list[int], dict[int, int]]:
    """A unit's free cells and, per digit, the mask of free-cell indices holding it."""
    free = [i for i in unit if cands[i]]
    positions: dict[int, int] = {}
    for j, i in enumerate(free):
        m = cands[i]
        while m:
            low = m & -m
            d = low.bit_length()
            positions[d] = positions.get(d, 0) | 1 << j
            m ^= low
    return free, positions


def _hidden_in(state: State, k: int, u: int) -> Iterator[Step]:
    size = state.geo.size
    cands = state.cands
    name = _HIDDEN[k]
    free, positions = _positions_in(cands, state.geo.units[u])
    if len(free) <= k:
        return
    where = {d: pos for d, pos in positions.items() if pos.bit_count() <= k}
    if len(where) < k:
        return
    for combo in combinations(sorted(where), k):
        pos = 0
        for d in combo:
            pos |= where[d]
        if pos.bit_count() != k:
            continue
        dm = 0
        for d in combo:
            dm |= 1 << (d - 1)
        cells = [free[j] for j in range(len(free)) if pos >> j & 1]
        el = [(i, d) for i in cells for d in digits_of(cands[i] & ~dm)]
        if el:
            yield make_step(
                name,
                f"{name}: in {unit_name(u, size)} digits {', '.join(map(str, combo))} "
                f"fit only in {', '.join(cell_name(i, size) for i in cells)}: "
                f"{elim_text(el, size)}",
                size,
                eliminate=el,
                reasons=cells,
                clue=unit_name(u, size),
                digits=list(combo),
            )


def find_naked_pair(state: State) -> Iterator[Step]:
    return naked(state, 2)


def find_naked_triple(state: State) -> Iterator[Step]:
    return naked(state, 3)


def find_naked_quadruple(state: State) -> Iterator[Step]:
    return naked(state, 4)


def find_hidden_pair(state: State) -> Iterator[Step]:
    return hidden(state, 2)


def find_hidden_triple(state: State) -> Iterator[Step]:
    return hidden(state, 3)


def find_hidden_quadruple(state: State) -> Iterator[Step]:
    return hidden(state, 4)


def find(state: State) -> Iterator[Step]:
    for k in (2, 3, 4):
        yield from naked(state, k)
        yield from hidden(state, k)
