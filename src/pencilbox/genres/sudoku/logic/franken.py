"""Franken and mutant fish (also finned): base and cover sets mixing lines and boxes.

Base: k units with disjoint candidates of a digit, so the digit sits exactly k times in them.
Cover: k units, each holding the digit at most once. When every base candidate is covered,
the k base digits fill the cover units, and cover candidates outside the base go; base
candidates left uncovered are fins, and then only cover candidates seeing every fin go.
Franken: base rows and boxes with cover columns and boxes (or the transpose); mutant: any mix.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from pencilbox.core.step import Step

from .state import State, cells_text, set_bits, unit_name
from .techniques import elim_text, make_step

_SIZE_NAMES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish", 5: "Squirmbag", 6: "Whale"}


def _peer_masks(state: State) -> list[int]:
    cached = state.cache.get("peer_masks")
    if cached is None:
        out = []
        for ps in state.geo.peers:
            m = 0
            for p in ps:
                m |= 1 << p
            out.append(m)
        cached = out
        state.cache["peer_masks"] = cached
    return cached  # type: ignore[return-value]


def general_fish(
    state: State, k: int, mutant: bool, max_fins: int = 3, digits: tuple[int, ...] = ()
) -> Iterator[Step]:
    """Franken (or mutant) fish of size k, on the given digits (default: all)."""
    geo = state.geo
    size = geo.size
    pm = _peer_masks(state)
    for d in digits or range(1, size + 1):
        b = 1 << (d - 1)
        um = []
        for unit in geo.units:
            m = 0
            for i in unit:
                if state.cands[i] & b:
                    m |= 1 << i
            um.append(m)
        rows = list(range(size))
        cols = list(range(size, 2 * size))
        boxes = list(range(2 * size, 3 * size))
        if mutant:
            orientations = [(rows + cols + boxes, rows + cols + boxes)]
        else:
            orientations = [(rows + boxes, cols + boxes), (cols + boxes, rows + boxes)]
        seen: set[frozenset[int]] = set()
        for base_pool, cover_pool in orientations:
            pool = [u for u in base_pool if um[u]]
            for base in combinations(pool, k):
                kinds = {u // size for u in base}
                bmask = 0
                ok = True
                for u in base:
                    if bmask & um[u]:
                        ok = False
                        break
                    bmask |= um[u]
                if not ok:
                    continue
                base_set = set(base)
                covers = [u for u in cover_pool if u not in base_set and um[u] & bmask]
                for cover, fins in _covers(bmask, um, covers, k, geo.cell_units, max_fins):
                    ckinds = {u // size for u in cover}
                    if _kind(kinds, ckinds) != ("Mutant" if mutant else "Franken"):
                        continue
                    cmask = 0
                    for u in cover:
                        cmask |= um[u]
                    target = cmask & ~bmask
                    for f in set_bits(fins):
                        target &= pm[f]
                    if not target:
                        continue
                    key = frozenset(set_bits(target)) | {-1 - u for u in base}
                    if key in seen:
                        continue
                    seen.add(key)
                    kind = "Mutant" if mutant else "Franken"
                    name = f"{'Finned ' if fins else ''}{kind} {_SIZE_NAMES.get(k, str(k))}"
                    el = [(i, d) for i in set_bits(target)]
                    base_text = ", ".join(unit_name(u, size) for u in base)
                    cover_text = ", ".join(unit_name(u, size) for u in cover)
                    fin_text = f" with fins {cells_text(set_bits(fins), size)}" if fins else ""
                    yield make_step(
                        name,
                        f"{name} on {d}: base {base_text}, cover {cover_text}{fin_text}: "
                        f"{elim_text(el, size)}",
                        size,
                        eliminate=el,
                        reasons=set_bits(bmask),
                        digits=[d],
                    )


def _kind(base: set[int], cover: set[int]) -> str:
    """basic, Franken or Mutant from the unit kinds (0 row, 1 column, 2 box) used."""
    for line, other in ((0, 1), (1, 0)):
        if base <= {line, 2} and cover <= {other, 2}:
            return "basic" if 2 not in base | cover else "Franken"
    return "Mutant"


def _covers(
    bmask: int,
    um: list[int],
    covers: list[int],
    k: int,
    cell_units: tuple[tuple[int, int, int], ...],
    max_fins: int,
) -> Iterator[tuple[list[int], int]]:
    """Choices of k cover units covering every base candidate but at most max_fins fins."""
    allowed = set(covers)
    chosen: list[int] = []

    def rec(left: int, fins: int) -> Iterator[tuple[list[int], int]]:
        if not left:
            if len(chosen) == k:
                yield list(chosen), fins
            return
        low = left & -left
        cell = low.bit_length() - 1
        if len(chosen) < k:
            for u in cell_units[cell]:
                if u in allowed and u not in chosen:
                    chosen.append(u)
                    yield from rec(left & ~um[u], fins)
                    chosen.pop()
        if fins.bit_count() < max_fins:
            yield from rec(left & ~low, fins | low)

    yield from rec(bmask, 0)


def find(state: State) -> Iterator[Step]:
    for mutant in (False, True):
        for k in (2, 3, 4):
            yield from general_fish(state, k, mutant)
