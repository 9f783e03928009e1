"""Almost locked sets: the ALS-XZ rule (singly and doubly linked).

An almost locked set (ALS) is k cells of one unit holding k+1 digits between them. Two ALS
joined by a restricted common digit x (every x of one sees every x of the other, so at most
one holds x) make every other common digit z true in one of them: z leaves the cells that see
all z of both. With two restricted common digits both sets become locked.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations

from pencilbox.core.step import Step

from . import compiled
from .memo import digit_places
from .state import State, cell_name, cells_text, digits_of, peer_masks, set_bits
from .techniques import elim_text, make_step


@dataclass(frozen=True, slots=True)
class Als:
    cells: tuple[int, ...]
    mask: int  # cells as bitset
    digits: int  # digit bitmask
    where: tuple[int, ...]  # per digit (index d-1): cells holding it, as bitset
    seen: tuple[int, ...]  # per digit: cells that see every cell of the ALS holding it
    packed: bytes  # mask, where and seen as little-endian words (for the compiled rcc map)


def _peer_masks(state: State) -> list[int]:
    """For each cell, the mask of its peers."""
    return list(peer_masks(state.geo.n))


def find_als(state: State, max_cells: int | None = None) -> list[Als]:
    """Every ALS of up to max_cells cells (default 8 on 9x9, 3 on bigger boards), unit by
    unit (rows, columns, boxes), each cell set once."""
    if max_cells is None:
        max_cells = 8 if state.geo.size <= 9 else 3
    cands = state.cands
    out: list[Als] = []
    seen: set[int] = set()
    for u, unit in enumerate(state.geo.units):
        key = (state.geo.n, u, max_cells, *(cands[i] for i in unit))
        found = _UNIT_ALS.get(key)
        if found is None:
            if len(_UNIT_ALS) > _UNIT_ALS_MAX:
                _UNIT_ALS.clear()
            found = _UNIT_ALS[key] = _unit_als(state, unit, max_cells)
        for als in found:
            if als.mask not in seen:
                seen.add(als.mask)
                out.append(als)
    return out


_UNIT_ALS: dict[tuple[int, ...], list[Als]] = {}
"""The ALS of a unit by its candidates: a step changes few units, the others are looked up."""
_UNIT_ALS_MAX = 50_000


def _unit_als(state: State, unit: tuple[int, ...], max_cells: int) -> list[Als]:
    """The ALS of one unit (they depend only on the candidates of its cells)."""
    size = state.geo.size
    cands = state.cands
    pm = _peer_masks(state)
    full = (1 << state.geo.ncells) - 1
    width = _words(state.geo.ncells) * 8
    free = [i for i in unit if cands[i]]
    out = []
    for k in range(1, min(len(free) - 1, max_cells) + 1):
        for combo in combinations(free, k):
            m = 0
            for i in combo:
                m |= cands[i]
            if m.bit_count() != k + 1:
                continue
            cmask = 0
            for i in combo:
                cmask |= 1 << i
            where = []
            seen_by = []
            for d0 in range(size):
                w = 0
                s = full
                if m >> d0 & 1:
                    for i in combo:
                        if cands[i] >> d0 & 1:
                            w |= 1 << i
                            s &= pm[i]
                else:
                    s = 0
                where.append(w)
                seen_by.append(s)
            packed = b"".join(x.to_bytes(width, "little") for x in (cmask, *where, *seen_by))
            out.append(Als(combo, cmask, m, tuple(where), tuple(seen_by), packed))
    return out


def _words(ncells: int) -> int:
    """How many 64-bit words hold a cell mask."""
    return (ncells + 63) // 64


def _cached_als(state: State) -> tuple[list[Als], list[int], dict[int, dict[int, int]]]:
    """ALS list, digit cell masks and restricted-common map (cached on the state)."""
    cached = state.cache.get("als")
    if cached is None:
        alss = find_als(state)
        digit_cells = _digit_cells(state)
        size = state.geo.size
        loops = compiled.LOOPS
        if loops is not None:
            packed = [a.packed for a in alss]
            rcc = loops.als_rcc(packed, size, _words(state.geo.ncells), digit_cells)
        else:
            rcc = rcc_map(alss, size, digit_cells)
        cached = (alss, digit_cells, rcc)
        state.cache["als"] = cached
    return cached  # type: ignore[return-value]


def _xz_pairs(state: State) -> Iterator[tuple[int, int]]:
    """The (a, b) index pairs of ALS-XZ to look at, sorted: with the compiled loops only those
    that eliminate something."""
    alss, digit_cells, rcc = _cached_als(state)
    loops = compiled.LOOPS
    if loops is not None:
        packed = [a.packed for a in alss]
        words = _words(state.geo.ncells)
        yield from loops.als_scan(packed, state.geo.size, words, digit_cells, rcc, 0)
        return
    for ia in sorted(rcc):
        for ib in sorted(rcc[ia]):
            if ib >= ia:
                yield ia, ib


def find_als_xz(state: State) -> Iterator[Step]:
    size = state.geo.size
    alss, digit_cells, rcc = _cached_als(state)
    for ia, ib in _xz_pairs(state):
        rmask = rcc[ia][ib]
        a, b = alss[ia], alss[ib]
        x0 = (rmask & -rmask).bit_length() - 1
        common = a.digits & b.digits
        rccs = set_bits(rmask)
        outside = ~(a.mask | b.mask)
        el: set[tuple[int, int]] = set()
        for d0 in range(size):
            if not common >> d0 & 1 or d0 in rccs:
                continue
            tgt = a.seen[d0] & b.seen[d0] & digit_cells[d0] & outside
            el.update((i, d0 + 1) for i in set_bits(tgt))
        doubly = len(rccs) >= 2
        if doubly:
            for d0 in rccs:
                tgt = a.seen[d0] & b.seen[d0] & digit_cells[d0] & outside
                el.update((i, d0 + 1) for i in set_bits(tgt))
            for s in (a, b):
                for d0 in range(size):
                    if s.digits >> d0 & 1 and d0 not in rccs:
                        tgt = s.seen[d0] & digit_cells[d0] & outside
                        el.update((i, d0 + 1) for i in set_bits(tgt))
        if not el:
            continue
        xs = ", ".join(str(d0 + 1) for d0 in (rccs if doubly else [x0]))
        yield make_step(
            "ALS-XZ",
            f"ALS-XZ{' (doubly linked)' if doubly else ''}: sets "
            f"{cells_text(a.cells, size)} ({''.join(map(str, digits_of(a.digits)))}) and "
            f"{cells_text(b.cells, size)} ({''.join(map(str, digits_of(b.digits)))}) with "
            f"restricted common {xs}: {elim_text(el, size)}",
            size,
            eliminate=el,
            reasons=[*a.cells, *b.cells],
            digits=digits_of(common),
        )


def _digit_cells(state: State) -> list[int]:
    """For each digit (index d-1), the mask of the cells that may hold it."""
    return list(digit_places(state))


def rcc_map(alss: list[Als], size: int, digit_cells: list[int]) -> dict[int, dict[int, int]]:
    """For each ALS index: the non-overlapping ALS it shares restricted common digits with,
    and those digits as a bitmask."""
    owners: list[dict[int, list[int]]] = [{} for _ in range(size)]
    holders: list[list[int]] = [[] for _ in range(size)]
    for idx, a in enumerate(alss):
        for d0 in range(size):
            w = a.where[d0]
            if w:
                low = (w & -w).bit_length() - 1
                owners[d0].setdefault(low, []).append(idx)
                holders[d0].append(idx)
    out: dict[int, dict[int, int]] = {}
    for x0 in range(size):
        own = owners[x0]
        for ia in holders[x0]:
            a = alss[ia]
            reach = a.seen[x0] & digit_cells[x0] & ~a.mask
            for c in set_bits(reach):
                for ib in own.get(c, ()):
                    b = alss[ib]
                    if a.mask & b.mask or b.where[x0] & ~a.seen[x0]:
                        continue
                    out.setdefault(ia, {})
                    out[ia][ib] = out[ia].get(ib, 0) | 1 << x0
    return out


def _xy_wings(state: State) -> Iterator[tuple[int, int, int, int, int]]:
    """(pivot, a, b, x, y) of ALS-XY-Wing to look at, in order: pivots in the rcc map's order,
    partners a < b sorted, their restricted commons x != y ascending; with the compiled loops
    only those that eliminate something."""
    alss, digit_cells, rcc = _cached_als(state)
    loops = compiled.LOOPS
    if loops is not None:
        packed = [a.packed for a in alss]
        words = _words(state.geo.ncells)
        yield from loops.als_scan(packed, state.geo.size, words, digit_cells, rcc, 1)
        return
    for ic, partners in rcc.items():
        items = sorted(partners.items())
        for p in range(len(items)):
            ia, xa = items[p]
            a = alss[ia]
            for q in range(p + 1, len(items)):
                ib, xb = items[q]
                b = alss[ib]
                if a.mask & b.mask:
                    continue
                if (xa | xb).bit_count() < 2:
                    continue  # needs two different restricted commons
                if not a.digits & b.digits:
                    continue  # no digit z to eliminate, whatever x and y are
                for x0 in set_bits(xa):
                    for y0 in set_bits(xb):
                        if y0 != x0:
                            yield ic, ia, ib, x0, y0


def find_als_xy_wing(state: State) -> Iterator[Step]:
    """Pivot ALS C with restricted commons x (to A) and y (to B), x != y: a digit z common to
    A and B leaves the cells that see all z of A and B."""
    size = state.geo.size
    alss, digit_cells, _ = _cached_als(state)
    seen: set[frozenset[tuple[int, int]]] = set()
    for ic, ia, ib, x0, y0 in _xy_wings(state):
        a, b, c = alss[ia], alss[ib], alss[ic]
        outside = ~(a.mask | b.mask | c.mask)
        common = a.digits & b.digits & ~(1 << x0) & ~(1 << y0)
        el: set[tuple[int, int]] = set()
        for z0 in set_bits(common):
            tgt = a.seen[z0] & b.seen[z0] & digit_cells[z0] & outside
            if tgt:
                el.update((i, z0 + 1) for i in set_bits(tgt))
        if not el:
            continue
        key = frozenset(el)
        if key in seen:
            continue
        seen.add(key)
        yield make_step(
            "ALS-XY-Wing",
            f"ALS-XY-Wing: pivot {cells_text(c.cells, size)} "
            f"({''.join(map(str, digits_of(c.digits)))}) linked by {x0 + 1} to "
            f"{cells_text(a.cells, size)} "
            f"({''.join(map(str, digits_of(a.digits)))}) and by {y0 + 1} to "
            f"{cells_text(b.cells, size)} "
            f"({''.join(map(str, digits_of(b.digits)))}): "
            f"{elim_text(el, size)}",
            size,
            eliminate=el,
            reasons=[*a.cells, *b.cells, *c.cells],
            digits=digits_of(common),
        )


def find_death_blossom(state: State, max_stem: int = 3) -> Iterator[Step]:
    """A stem cell whose every candidate x has a petal: an ALS holding x with all its x
    seeing the stem. Whatever the stem holds, that petal locks, so a digit z in every petal
    leaves the cells that see all z of all petals."""
    geo = state.geo
    size = geo.size
    cands = state.cands
    alss, digit_cells, _ = _cached_als(state)
    seen: set[frozenset[tuple[int, int]]] = set()
    for stem, m in enumerate(cands):
        if not 2 <= m.bit_count() <= max_stem:
            continue
        sbit = 1 << stem
        stem_digits = digits_of(m)
        petals: dict[int, list[Als]] = {}
        for x in stem_digits:
            x0 = x - 1
            petals[x] = [
                a
                for a in alss
                if a.where[x0] and not a.mask & sbit and not a.where[x0] & ~geo_peers(state)[stem]
            ]
        for z0 in range(size):
            if m >> z0 & 1:
                continue
            options = [[a for a in petals[x] if a.digits >> z0 & 1] for x in stem_digits]
            if any(not o for o in options):
                continue
            yield from _blossoms(state, stem, stem_digits, options, z0, digit_cells, seen)


def geo_peers(state: State) -> list[int]:
    cached = state.cache.get("peer_masks")
    if cached is None:
        cached = _peer_masks(state)
        state.cache["peer_masks"] = cached
    return cached  # type: ignore[return-value]


def _blossoms(
    state: State,
    stem: int,
    stem_digits: list[int],
    options: list[list[Als]],
    z0: int,
    digit_cells: list[int],
    seen: set[frozenset[tuple[int, int]]],
) -> Iterator[Step]:
    size = state.geo.size
    chosen: list[Als] = []
    budget = [20000]

    def rec(k: int, used: int, target: int) -> Iterator[Step]:
        budget[0] -= 1
        if budget[0] < 0 or not target:
            return
        if k == len(options):
            tgt = target & ~used & ~(1 << stem)
            el = {(i, z0 + 1) for i in set_bits(tgt)}
            key = frozenset(el)
            if el and key not in seen:
                seen.add(key)
                parts = [f"{x}: {cells_text(a.cells, size)}" for x, a in zip(stem_digits, chosen)]
                yield make_step(
                    "Death Blossom",
                    f"Death blossom: stem {cell_name(stem, size)} with petals "
                    f"{'; '.join(parts)}; each petal holds {z0 + 1} when the stem takes its "
                    f"digit: {elim_text(el, size)}",
                    size,
                    eliminate=el,
                    reasons=[stem, *(i for a in chosen for i in a.cells)],
                    digits=[z0 + 1],
                )
            return
        for a in options[k]:
            if a.mask & used:
                continue
            chosen.append(a)
            yield from rec(k + 1, used | a.mask, target & a.seen[z0])
            chosen.pop()

    yield from rec(0, 0, digit_cells[z0])


def find_als_xy_chain(state: State, max_sets: int = 6, budget: int = 60000) -> Iterator[Step]:
    """A chain of disjoint ALS, each joined to the next by a restricted common digit that
    differs from the one joining it to the previous: one of the end sets is locked on each
    side, so a digit z in both end sets (other than their link digits) leaves the cells that
    see all z of both."""
    size = state.geo.size
    alss, digit_cells, rcc = _cached_als(state)
    seen: set[frozenset[tuple[int, int]]] = set()
    chain: list[int] = []
    links: list[int] = []
    left = [budget]

    def rec(cur: int, used: int, last: int) -> Iterator[Step]:
        left[0] -= 1
        if left[0] < 0:
            return
        if len(chain) >= 3:
            a, b = alss[chain[0]], alss[chain[-1]]
            zs = a.digits & b.digits & ~(1 << links[0]) & ~(1 << links[-1])
            el: set[tuple[int, int]] = set()
            outside = ~(a.mask | b.mask)
            for z0 in set_bits(zs):
                tgt = a.seen[z0] & b.seen[z0] & digit_cells[z0] & outside
                el.update((i, z0 + 1) for i in set_bits(tgt))
            key = frozenset(el)
            if el and key not in seen:
                seen.add(key)
                parts = [cells_text(alss[k].cells, size) for k in chain]
                text = parts[0]
                for x0, p in zip(links, parts[1:]):
                    text += f" -{x0 + 1}- {p}"
                yield make_step(
                    "ALS-XY-Chain",
                    f"ALS-XY-Chain: {text}: {elim_text(el, size)}",
                    size,
                    eliminate=el,
                    reasons=[i for k in chain for i in alss[k].cells],
                    digits=sorted({d for _, d in el}),
                )
        if len(chain) >= max_sets:
            return
        for nxt, rmask in rcc.get(cur, {}).items():
            b = alss[nxt]
            if b.mask & used:
                continue
            for x0 in set_bits(rmask):
                if x0 == last:
                    continue
                chain.append(nxt)
                links.append(x0)
                yield from rec(nxt, used | b.mask, x0)
                chain.pop()
                links.pop()

    for start in sorted(rcc):
        chain.append(start)
        yield from rec(start, alss[start].mask, -1)
        chain.pop()


def find(state: State) -> Iterator[Step]:
    yield from find_als_xz(state)
    yield from find_als_xy_wing(state)
    yield from find_als_xy_chain(state)
    yield from find_death_blossom(state)
