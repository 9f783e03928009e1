"""Locked candidates (pointing, claiming) and locked pairs/triples."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from pencilbox.core.step import Step

from .memo import digit_places, each_part, known_empty, note_empty, unit_keys
from .state import State, box_lines, cells_text, digits_of, unit_name
from .techniques import elim_text, make_step


def find_pointing(state: State) -> Iterator[Step]:
    """Type 1: a digit of a box confined to one row or column leaves the rest of that line."""
    geo = state.geo
    size = geo.size
    cands = state.cands
    searched = _digits_to_search(state, "pointing")
    found: set[int] = set()
    for b in range(2 * size, 3 * size):
        for d in searched:
            cells = state.cells_with(b, d)
            if len(cells) < 2:
                continue
            for line in (geo.cell_units[cells[0]][0], geo.cell_units[cells[0]][1]):
                lset = geo.unit_sets[line]
                if all(i in lset for i in cells):
                    bset = geo.unit_sets[b]
                    bitd = 1 << (d - 1)
                    el = [(i, d) for i in geo.units[line] if i not in bset and cands[i] & bitd]
                    if el:
                        found.add(d)
                        yield make_step(
                            "Locked Candidates Type 1 (Pointing)",
                            f"Locked candidates (pointing): in {unit_name(b, size)} digit {d} "
                            f"lies only in {unit_name(line, size)} ({cells_text(cells, size)}): "
                            f"{elim_text(el, size)}",
                            size,
                            eliminate=el,
                            reasons=cells,
                            clue=unit_name(b, size),
                            digits=[d],
                        )
    _note_empty_digits(state, "pointing", searched, found)


def find_claiming(state: State) -> Iterator[Step]:
    """Type 2: a digit of a row or column confined to one box leaves the rest of that box."""
    geo = state.geo
    size = geo.size
    cands = state.cands
    searched = _digits_to_search(state, "claiming")
    found: set[int] = set()
    for line in range(2 * size):
        for d in searched:
            cells = state.cells_with(line, d)
            if len(cells) < 2:
                continue
            b = geo.cell_units[cells[0]][2]
            bset = geo.unit_sets[b]
            if all(i in bset for i in cells):
                lset = geo.unit_sets[line]
                bitd = 1 << (d - 1)
                el = [(i, d) for i in geo.units[b] if i not in lset and cands[i] & bitd]
                if el:
                    found.add(d)
                    yield make_step(
                        "Locked Candidates Type 2 (Claiming)",
                        f"Locked candidates (claiming): in {unit_name(line, size)} digit {d} "
                        f"lies only in {unit_name(b, size)} ({cells_text(cells, size)}): "
                        f"{elim_text(el, size)}",
                        size,
                        eliminate=el,
                        reasons=cells,
                        clue=unit_name(line, size),
                        digits=[d],
                    )
    _note_empty_digits(state, "claiming", searched, found)


def _digits_to_search(state: State, search: str) -> list[int]:
    """The digits not known to give nothing: locked candidates of a digit depend only on its
    places, so a digit whose places gave nothing before is left out (memo.py)."""
    size = state.geo.size
    places = digit_places(state)
    return [d for d in range(1, size + 1) if not known_empty(search, size, d, places[d - 1])]


def _note_empty_digits(state: State, search: str, searched: list[int], found: set[int]) -> None:
    """After a whole search: remember the digits searched that gave nothing."""
    size = state.geo.size
    places = digit_places(state)
    for d in searched:
        if d not in found:
            note_empty(search, size, d, places[d - 1])


def locked_sets(state: State, k: int) -> Iterator[Step]:
    """k cells of one box and one line holding exactly k digits between them. A box-line pair
    reads only its box and line: one that found nothing is skipped until they change."""
    size = state.geo.size
    keys = unit_keys(state)
    parts = (
        ((b, line), (size, b, line, keys[b], keys[line])) for b, line in box_lines(state.geo.n)
    )
    return each_part(f"locked {k}", parts, lambda part: _locked_in(state, k, *part))


def _locked_in(state: State, k: int, b: int, line: int) -> Iterator[Step]:
    geo = state.geo
    size = geo.size
    cands = state.cands
    name = "Locked Pair" if k == 2 else "Locked Triple"
    bset = geo.unit_sets[b]
    lset = geo.unit_sets[line]
    inter = [i for i in geo.units[line] if i in bset and cands[i]]
    if len(inter) < k:
        return
    for combo in combinations(inter, k):
        m = 0
        for i in combo:
            m |= cands[i]
        if m.bit_count() != k or any(cands[i].bit_count() < 2 for i in combo):
            continue
        cs = set(combo)
        el = [
            (i, d)
            for i in sorted(bset | lset)
            if i not in cs and cands[i] & m
            for d in digits_of(cands[i] & m)
        ]
        if el:
            ds = digits_of(m)
            yield make_step(
                name,
                f"{name}: {cells_text(combo, size)} in {unit_name(b, size)} and "
                f"{unit_name(line, size)} hold only {', '.join(map(str, ds))}: "
                f"{elim_text(el, size)}",
                size,
                eliminate=el,
                reasons=combo,
                clue=unit_name(b, size),
                digits=ds,
            )


def find_locked_pair(state: State) -> Iterator[Step]:
    return locked_sets(state, 2)


def find_locked_triple(state: State) -> Iterator[Step]:
    return locked_sets(state, 3)


def find(state: State) -> Iterator[Step]:
    yield from find_locked_pair(state)
    yield from find_locked_triple(state)
    yield from find_pointing(state)
    yield from find_claiming(state)
