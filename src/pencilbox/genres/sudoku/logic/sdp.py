"""Single-digit patterns: Skyscraper, 2-String Kite, Turbot Fish, Empty Rectangle."""

from __future__ import annotations

from collections.abc import Iterator

from pencilbox.core.step import Step

from .memo import each_digit
from .state import State, cell_name, unit_name
from .techniques import elim_text, make_step


def strong_links(state: State, d: int) -> list[tuple[int, int, int]]:
    """Conjugate pairs on d: (cell a, cell b, unit) with a < b (cached on the state)."""
    key = f"strong{d}"
    cached = state.cache.get(key)
    if cached is None:
        out = []
        b = 1 << (d - 1)
        cands = state.cands
        for u, unit in enumerate(state.geo.units):
            cells = [i for i in unit if cands[i] & b]
            if len(cells) == 2:
                out.append((cells[0], cells[1], u))
        cached = out
        state.cache[key] = cached
    return cached  # type: ignore[return-value]


def _two_links(state: State) -> Iterator[Step]:
    """Skyscrapers, 2-string kites and turbot fish: two strong links on one digit."""
    return each_digit(state, "two links", lambda d: _two_links_on(state, d))


def _two_links_on(state: State, d: int) -> Iterator[Step]:
    geo = state.geo
    size = geo.size
    peers = geo.peer_sets
    dcells = state.digit_cells(d)
    links = strong_links(state, d)
    seen: set[tuple[frozenset[int], tuple[int, int]]] = set()
    for x in range(len(links)):
        for y in range(x + 1, len(links)):
            l1, l2 = links[x], links[y]
            if {l1[0], l1[1]} & {l2[0], l2[1]}:
                continue
            for a1, b1 in ((l1[0], l1[1]), (l1[1], l1[0])):
                for a2, b2 in ((l2[0], l2[1]), (l2[1], l2[0])):
                    if b2 not in peers[b1]:
                        continue
                    four = {a1, b1, a2, b2}
                    el = [
                        (i, d)
                        for i in dcells
                        if i not in four and i in peers[a1] and i in peers[a2]
                    ]
                    if not el:
                        continue
                    k1, k2 = l1[2] // size, l2[2] // size
                    if k1 == k2 and k1 < 2:
                        # parallel lines joined by the crossing line
                        cross = 1 - k1
                        if geo.cell_units[b1][cross] != geo.cell_units[b2][cross]:
                            name = "Turbot Fish"
                        elif geo.cell_units[a1][cross] == geo.cell_units[a2][cross]:
                            continue  # an X-Wing
                        else:
                            name = "Skyscraper"
                    elif {k1, k2} == {0, 1} and geo.box[b1] == geo.box[b2]:
                        name = "2-String Kite"
                    else:
                        name = "Turbot Fish"
                    key = (frozenset(four), (min(a1, a2), max(a1, a2)))
                    if key in seen:
                        continue
                    seen.add(key)
                    yield make_step(
                        name,
                        f"{name} on {d}: strong links "
                        f"{cell_name(a1, size)}={cell_name(b1, size)}"
                        f" in {unit_name(l1[2], size)} and "
                        f"{cell_name(a2, size)}={cell_name(b2, size)} in "
                        f"{unit_name(l2[2], size)}, {cell_name(b1, size)} sees "
                        f"{cell_name(b2, size)}, so one of {cell_name(a1, size)} and "
                        f"{cell_name(a2, size)} is {d}: {elim_text(el, size)}",
                        size,
                        eliminate=el,
                        reasons=sorted(four),
                        digits=[d],
                        box=geo.box[b1],
                        links=sorted([l1[2], l2[2]]),
                    )


def _cached(state: State, name: str) -> Iterator[Step]:
    found = state.cache.get("two_links")
    if found is None:
        found = list(_two_links(state))
        state.cache["two_links"] = found
    assert isinstance(found, list)
    return (s for s in found if s.technique == name)


def find_skyscraper(state: State) -> Iterator[Step]:
    return _cached(state, "Skyscraper")


def find_two_string_kite(state: State) -> Iterator[Step]:
    return _cached(state, "2-String Kite")


def find_turbot_fish(state: State) -> Iterator[Step]:
    return _cached(state, "Turbot Fish")


def find_empty_rectangle(state: State) -> Iterator[Step]:
    return each_digit(state, "empty rectangle", lambda d: _empty_rectangles_on(state, d))


def _empty_rectangles_on(state: State, d: int) -> Iterator[Step]:
    geo = state.geo
    size = geo.size
    n = geo.n
    cands = state.cands
    bitd = 1 << (d - 1)
    links = strong_links(state, d)
    for b in range(size):
        bu = 2 * size + b
        cells = state.cells_with(bu, d)
        if len(cells) < 2:
            continue
        bset = geo.unit_sets[bu]
        rows = sorted({geo.row[i] for i in cells})
        cols = sorted({geo.col[i] for i in cells})
        if len(rows) < 2 or len(cols) < 2:
            continue
        band_rows = range((b // n) * n, (b // n) * n + n)
        stack_cols = range((b % n) * n, (b % n) * n + n)
        for r_er in band_rows:
            for c_er in stack_cols:
                if not all(geo.row[i] == r_er or geo.col[i] == c_er for i in cells):
                    continue
                for a, z, u in links:
                    kind = u // size
                    if kind == 2:
                        continue
                    for p, q in ((a, z), (z, a)):
                        if kind == 1:  # column link: p in row r_er, target (row q, c_er)
                            if geo.col[p] in stack_cols or geo.row[p] != r_er:
                                continue
                            t = geo.row[q] * size + c_er
                        else:  # row link: p in column c_er, target (r_er, column q)
                            if geo.row[p] in band_rows or geo.col[p] != c_er:
                                continue
                            t = r_er * size + geo.col[q]
                        if t in bset or not cands[t] & bitd:
                            continue
                        yield make_step(
                            "Empty Rectangle",
                            f"Empty rectangle on {d} in box {b + 1} (row {r_er + 1}, column "
                            f"{c_er + 1}) with strong link {cell_name(p, size)}="
                            f"{cell_name(q, size)} in {unit_name(u, size)}: "
                            f"{elim_text([(t, d)], size)}",
                            size,
                            eliminate=[(t, d)],
                            reasons=[*cells, p, q],
                            clue=unit_name(bu, size),
                            digits=[d],
                            box=b,
                        )


def _duals(steps: list[Step], name: str, size: int) -> Iterator[Step]:
    """Two patterns on one digit through the same box, reported as one step."""
    for x in range(len(steps)):
        for y in range(x + 1, len(steps)):
            a, b = steps[x], steps[y]
            if a.extra["digits"] != b.extra["digits"] or a.extra["box"] != b.extra["box"]:
                continue
            ea = {(r * size + c, d) for r, c, d in a.extra["eliminations"]}
            eb = {(r * size + c, d) for r, c, d in b.extra["eliminations"]}
            if ea <= eb or eb <= ea:
                continue
            el = ea | eb
            yield make_step(
                name,
                f"{name}: {a.sentence.split(':')[0]}; {b.sentence.split(':')[0]}: "
                f"{elim_text(el, size)}",
                size,
                eliminate=el,
                reasons=[r * size + c for r, c in a.reasons + b.reasons],
                digits=a.extra["digits"],
            )


def find_dual_kite(state: State) -> Iterator[Step]:
    kites = list(find_two_string_kite(state))
    return _duals(kites, "Dual 2-String Kite", state.geo.size)


def find_dual_empty_rectangle(state: State) -> Iterator[Step]:
    ers = list(find_empty_rectangle(state))
    return _duals(ers, "Dual Empty Rectangle", state.geo.size)


def find(state: State) -> Iterator[Step]:
    yield from _two_links(state)
    yield from find_empty_rectangle(state)
