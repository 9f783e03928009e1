"""Uniqueness: unique rectangles types 1-4 and BUG+1.

These rely on the puzzle having exactly one solution: four unsolved cells in two rows, two
columns and two boxes can never end up as the pattern a b / b a (swapping a and b would give a
second solution), and neither can a grid where every unsolved cell holds two candidates that
each appear twice in every unit.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from pencilbox.core.step import Step

from .state import State, cell_name, cells_text, digits_of, unit_name
from .techniques import elim_text, make_step

Rect = tuple[int, int, int, int]


def rectangles(state: State) -> Iterator[tuple[Rect, int]]:
    """(cells, pair mask) for every rectangle of unsolved cells with two corners holding
    exactly the same two candidates (the floor needed by every type)."""
    geo = state.geo
    size = geo.size
    cands = state.cands
    values = state.values
    by_mask: dict[int, list[int]] = {}
    for i, m in enumerate(cands):
        if m.bit_count() == 2:
            by_mask.setdefault(m, []).append(i)
    seen: set[tuple[Rect, int]] = set()
    for m, cells in by_mask.items():
        for x in range(len(cells)):
            for y in range(x + 1, len(cells)):
                a, b = cells[x], cells[y]
                ra, ca = divmod(a, size)
                rb, cb = divmod(b, size)
                if ra == rb:
                    options = [(ra, r2, ca, cb) for r2 in range(size) if r2 != ra]
                elif ca == cb:
                    options = [(r1, r2, ca, c2) for r1, r2 in [(ra, rb)] for c2 in range(size)]
                    options = [o for o in options if o[3] != ca]
                else:
                    options = [(ra, rb, ca, cb)]
                for r1, r2, c1, c2 in options:
                    rect = tuple(
                        sorted((r1 * size + c1, r1 * size + c2, r2 * size + c1, r2 * size + c2))
                    )
                    if len({geo.box[i] for i in rect}) != 2:
                        continue
                    if any(values[i] for i in rect):
                        continue
                    key = ((rect[0], rect[1], rect[2], rect[3]), m)
                    if key in seen:
                        continue
                    seen.add(key)
                    yield key


def _shared_units(state: State, x: int, y: int) -> list[int]:
    ux, uy = state.geo.cell_units[x], state.geo.cell_units[y]
    return [u for u in ux if u in uy]


def find_unique_rectangles(state: State) -> Iterator[Step]:
    """Unique rectangles, types 1 to 4, rectangle by rectangle."""
    cands = state.cands
    for rect, pair in rectangles(state):
        floor = [i for i in rect if cands[i] == pair]
        roof = [i for i in rect if cands[i] != pair]
        if len(floor) == 3:
            yield from _ur_type1(state, rect, pair, roof[0])
            continue
        if len(floor) != 2:
            continue
        x, y = roof
        if not cands[x] & ~pair or not cands[y] & ~pair:
            continue
        yield from _ur_type2(state, rect, pair, x, y)
        shared = _shared_units(state, x, y)
        yield from _ur_type4(state, rect, pair, x, y, shared)
        yield from _ur_type3(state, rect, pair, x, y, shared)


def _ur_type1(state: State, rect: Rect, pair: int, t: int) -> Iterator[Step]:
    """Three corners hold only the pair: the fourth must hold something else."""
    size = state.geo.size
    cands = state.cands
    a, b = digits_of(pair)
    el = [(t, d) for d in (a, b) if cands[t] & (1 << (d - 1))]
    if el and cands[t] & ~pair:
        yield make_step(
            "Uniqueness Test 1",
            f"Unique rectangle {a}{b} in {cells_text(rect, size)}: {cell_name(t, size)} must "
            f"not be {a} or {b}: {elim_text(el, size)}",
            size,
            eliminate=el,
            reasons=rect,
            digits=[a, b],
        )


def _ur_type2(state: State, rect: Rect, pair: int, x: int, y: int) -> Iterator[Step]:
    """The same single extra digit c in both roof cells: c leaves their common peers."""
    size = state.geo.size
    cands = state.cands
    extra_x, extra_y = cands[x] & ~pair, cands[y] & ~pair
    if extra_x != extra_y or extra_x.bit_count() != 1:
        return
    a, b = digits_of(pair)
    c = extra_x.bit_length()
    peers = state.geo.peer_sets
    el = [(i, c) for i in peers[x] & peers[y] if i not in rect and cands[i] & extra_x]
    if el:
        yield make_step(
            "Uniqueness Test 2",
            f"Unique rectangle {a}{b} in {cells_text(rect, size)}: {cell_name(x, size)} or "
            f"{cell_name(y, size)} must be {c}: {elim_text(el, size)}",
            size,
            eliminate=el,
            reasons=rect,
            digits=[a, b],
        )


def _ur_type4(
    state: State, rect: Rect, pair: int, x: int, y: int, shared: list[int]
) -> Iterator[Step]:
    """One rectangle digit confined to the roof cells in a shared unit: the other leaves
    both roof cells."""
    geo = state.geo
    size = geo.size
    cands = state.cands
    a, b = digits_of(pair)
    for u in shared:
        for keep, drop in ((a, b), (b, a)):
            kb = 1 << (keep - 1)
            if not (cands[x] & kb and cands[y] & kb):
                continue
            if all(i in (x, y) for i in geo.units[u] if cands[i] & kb):
                el = [(i, drop) for i in (x, y) if cands[i] & (1 << (drop - 1))]
                if el:
                    yield make_step(
                        "Uniqueness Test 4",
                        f"Unique rectangle {a}{b} in {cells_text(rect, size)}: in "
                        f"{unit_name(u, size)} {keep} lies only in {cell_name(x, size)} and "
                        f"{cell_name(y, size)}, so neither can be {drop}: "
                        f"{elim_text(el, size)}",
                        size,
                        eliminate=el,
                        reasons=rect,
                        digits=[a, b],
                    )


def _ur_type3(
    state: State, rect: Rect, pair: int, x: int, y: int, shared: list[int]
) -> Iterator[Step]:
    """The roof's extra digits act as one cell of a naked subset in a shared unit."""
    geo = state.geo
    size = geo.size
    cands = state.cands
    a, b = digits_of(pair)
    extra = (cands[x] | cands[y]) & ~pair
    done: set[frozenset[int]] = set()
    for u in shared:
        others = [i for i in geo.units[u] if cands[i] and i not in (x, y)]
        for k in range(1, 4):
            for combo in combinations(others, k):
                m = extra
                for i in combo:
                    m |= cands[i]
                if m.bit_count() != k + 1:
                    continue
                cs = frozenset(combo)
                if cs in done:
                    continue
                done.add(cs)
                el = []
                names = []
                for u2 in shared:
                    if u2 != u and not all(i in geo.unit_sets[u2] for i in combo):
                        continue
                    names.append(unit_name(u2, size))
                    el += [
                        (i, d)
                        for i in geo.units[u2]
                        if i not in cs and i != x and i != y
                        for d in digits_of(cands[i] & m)
                    ]
                if el:
                    yield make_step(
                        "Uniqueness Test 3",
                        f"Unique rectangle {a}{b} in {cells_text(rect, size)}: "
                        f"{cell_name(x, size)} or {cell_name(y, size)} holds one of "
                        f"{', '.join(map(str, digits_of(extra)))}, a naked subset with "
                        f"{cells_text(combo, size)} in {' and '.join(names)}: "
                        f"{elim_text(el, size)}",
                        size,
                        eliminate=el,
                        reasons=[*rect, *combo],
                        digits=[a, b],
                    )


def _named(state: State, name: str) -> Iterator[Step]:
    found = state.cache.get("ur")
    if found is None:
        found = list(find_unique_rectangles(state))
        state.cache["ur"] = found
    assert isinstance(found, list)
    return (s for s in found if s.technique == name)


def find_ur1(state: State) -> Iterator[Step]:
    return _named(state, "Uniqueness Test 1")


def find_ur2(state: State) -> Iterator[Step]:
    return _named(state, "Uniqueness Test 2")


def find_ur3(state: State) -> Iterator[Step]:
    return _named(state, "Uniqueness Test 3")


def find_ur4(state: State) -> Iterator[Step]:
    return _named(state, "Uniqueness Test 4")


def find_bug_plus_one(state: State) -> Iterator[Step]:
    geo = state.geo
    size = geo.size
    cands = state.cands
    triple = -1
    for i, m in enumerate(cands):
        if not m:
            continue
        c = m.bit_count()
        if c == 2:
            continue
        if c == 3 and triple < 0:
            triple = i
            continue
        return
    if triple < 0:
        return
    tunits = set(geo.cell_units[triple])
    extra = 0
    for u, unit in enumerate(geo.units):
        for d in range(1, size + 1):
            bd = 1 << (d - 1)
            count = sum(1 for i in unit if cands[i] & bd)
            if count in (0, 2):
                continue
            if count == 3 and u in tunits and cands[triple] & bd:
                extra |= bd
                continue
            return
    if extra.bit_count() != 1:
        return
    d = extra.bit_length()
    el = [(triple, x) for x in digits_of(cands[triple] & ~extra)]
    yield make_step(
        "Bivalue Universal Grave + 1",
        f"BUG+1: every other unsolved cell holds two candidates, and {d} appears three times "
        f"in the units of {cell_name(triple, size)}, so it must be {d}: {elim_text(el, size)}",
        size,
        eliminate=el,
        reasons=[triple],
        clue=cell_name(triple, size),
        digits=[d],
    )


def rectangles_any(state: State) -> Iterator[tuple[Rect, int]]:
    """(cells, pair mask) for every rectangle of unsolved cells with at least one corner
    holding exactly that pair and every other corner holding at least one of the two."""
    geo = state.geo
    size = geo.size
    cands = state.cands
    box = geo.box
    seen: set[tuple[Rect, int]] = set()
    for a, m in enumerate(cands):
        if m.bit_count() != 2:
            continue
        r1, c1 = divmod(a, size)
        row_mates = [j for j in geo.units[r1] if j != a and cands[j] & m]
        col_mates = [j for j in geo.units[size + c1] if j != a and cands[j] & m]
        for x in row_mates:
            c2 = x % size
            for y in col_mates:
                r2 = y // size
                z = r2 * size + c2
                if not cands[z] & m:
                    continue
                cells = sorted((a, x, y, z))
                if len({box[i] for i in cells}) != 2:
                    continue
                key = ((cells[0], cells[1], cells[2], cells[3]), m)
                if key not in seen:
                    seen.add(key)
                    yield key


def _opposite(rect: Rect, i: int, size: int) -> int:
    r, c = divmod(i, size)
    for j in rect:
        if j // size != r and j % size != c:
            return j
    raise ValueError("not a rectangle corner")


def find_ur5_ur6_hidden(state: State) -> Iterator[Step]:
    """Uniqueness Test 5 and 6 and Hidden Rectangle."""
    for rect, pair in rectangles_any(state):
        yield from _ur_type5(state, rect, pair)
        yield from _ur_type6(state, rect, pair)
        yield from _hidden_rectangle(state, rect, pair)


def _ur_type5(state: State, rect: Rect, pair: int) -> Iterator[Step]:
    """One extra digit c in the roof cells (2 diagonal or 3), nothing else: one of them is c,
    so c leaves the cells that see them all."""
    geo, cands, size = state.geo, state.cands, state.geo.size
    roof = [i for i in rect if cands[i] != pair]
    if len(roof) not in (2, 3):
        return
    extra = 0
    for i in roof:
        extra |= cands[i] & ~pair
    diagonal = len(roof) == 3 or (
        geo.row[roof[0]] != geo.row[roof[1]] and geo.col[roof[0]] != geo.col[roof[1]]
    )
    if extra.bit_count() == 1 and diagonal and all(cands[i] & extra for i in roof):
        a, b = digits_of(pair)
        c = extra.bit_length()
        common = set(range(geo.ncells))
        for i in roof:
            common &= geo.peer_sets[i]
        el = [(i, c) for i in sorted(common) if i not in rect and cands[i] & extra]
        if el:
            yield make_step(
                "Uniqueness Test 5",
                f"Unique rectangle {a}{b} in {cells_text(rect, size)}: one of "
                f"{cells_text(roof, size)} must be {c}: {elim_text(el, size)}",
                size,
                eliminate=el,
                reasons=rect,
                digits=[a, b],
            )


def _ur_type6(state: State, rect: Rect, pair: int) -> Iterator[Step]:
    """Diagonal floor, and a UR digit confined to the rectangle in both rows (or both
    columns): it must sit on the floor, so it leaves the roof."""
    geo, cands, size = state.geo, state.cands, state.geo.size
    floor = [i for i in rect if cands[i] == pair]
    roof = [i for i in rect if cands[i] != pair]
    if len(floor) != 2 or len(roof) != 2:
        return
    f0, f1 = floor
    if geo.row[f0] == geo.row[f1] or geo.col[f0] == geo.col[f1]:
        return
    a, b = digits_of(pair)
    rows = {geo.row[i] for i in rect}
    cols = {geo.col[i] for i in rect}
    for x in (a, b):
        xb = 1 << (x - 1)
        if not all(cands[i] & xb for i in roof):
            continue
        in_rows = all(all(i in rect for i in geo.units[r] if cands[i] & xb) for r in rows)
        in_cols = all(all(i in rect for i in geo.units[size + c] if cands[i] & xb) for c in cols)
        if in_rows or in_cols:
            el = [(i, x) for i in roof]
            yield make_step(
                "Uniqueness Test 6",
                f"Unique rectangle {a}{b} in {cells_text(rect, size)}: {x} lies only in the "
                f"rectangle in both {'rows' if in_rows else 'columns'}, so it must "
                f"take the bivalue corners: {elim_text(el, size)}",
                size,
                eliminate=el,
                reasons=rect,
                digits=[a, b],
            )


def _hidden_rectangle(state: State, rect: Rect, pair: int) -> Iterator[Step]:
    """A bivalue corner; at the opposite corner one UR digit is strongly linked along both
    sides, so the other digit leaves that corner."""
    geo, cands, size = state.geo, state.cands, state.geo.size
    a, b = digits_of(pair)
    for f in (i for i in rect if cands[i] == pair):
        o = _opposite(rect, f, size)
        orow, ocol = geo.row[o], geo.col[o]
        for x, y in ((a, b), (b, a)):
            xb = 1 << (x - 1)
            if not cands[o] & (1 << (y - 1)):
                continue
            row_x = [i for i in geo.units[orow] if cands[i] & xb]
            col_x = [i for i in geo.units[size + ocol] if cands[i] & xb]
            if len(row_x) == 2 and len(col_x) == 2 and all(i in rect for i in row_x + col_x):
                el = [(o, y)]
                yield make_step(
                    "Hidden Rectangle",
                    f"Hidden rectangle {a}{b} in {cells_text(rect, size)}: {x} is strongly "
                    f"linked along row {orow + 1} and column {ocol + 1}, so "
                    f"{cell_name(o, size)} cannot be {y}: {elim_text(el, size)}",
                    size,
                    eliminate=el,
                    reasons=rect,
                    digits=[a, b],
                )


def _named2(state: State, name: str) -> Iterator[Step]:
    found = state.cache.get("ur56")
    if found is None:
        found = list(find_ur5_ur6_hidden(state))
        state.cache["ur56"] = found
    assert isinstance(found, list)
    return (s for s in found if s.technique == name)


def find_ur5(state: State) -> Iterator[Step]:
    return _named2(state, "Uniqueness Test 5")


def find_ur6(state: State) -> Iterator[Step]:
    return _named2(state, "Uniqueness Test 6")


def find_hidden_rectangle(state: State) -> Iterator[Step]:
    return _named2(state, "Hidden Rectangle")


def _ar_rects(state: State) -> Iterator[tuple[int, int, int, int]]:
    """(r1, r2, c1, c2) with r1 < r2, c1 < c2 for rectangles over two boxes with two placed
    non-given cells in one row or one column, no given cell and at most three placed cells:
    pairs of such cells in cell order (a row's pair before a column's), then the other line
    in order (a rectangle may come again)."""
    geo = state.geo
    n, size = geo.n, geo.size
    values, givens = state.values, state.givens
    placed = [i for i, v in enumerate(values) if v and not givens[i]]
    # per cell: 0 open, 1 placed (not a given), 2 given
    kind = [(2 if g else 1) if v else 0 for v, g in zip(values, givens, strict=True)]
    in_row: list[list[int]] = [[] for _ in range(size)]
    in_col: list[list[int]] = [[] for _ in range(size)]
    for i in placed:
        in_row[i // size].append(i % size)
        in_col[i % size].append(i // size)
    for a in placed:
        ra, ca = divmod(a, size)
        # two boxes: the other line lies in the same band (stack) exactly when the pair's
        # cells lie in different boxes
        for cb in in_row[ra]:
            if cb > ca:
                same_stack = ca // n == cb // n
                for r2 in range(size):
                    if r2 != ra and (r2 // n == ra // n) != same_stack:
                        k1, k2 = kind[r2 * size + ca], kind[r2 * size + cb]
                        if k1 + k2 <= 1:
                            yield min(ra, r2), max(ra, r2), ca, cb
        for rb in in_col[ca]:
            if rb > ra:
                same_band = ra // n == rb // n
                for c2 in range(size):
                    if c2 != ca and (c2 // n == ca // n) != same_band:
                        k1, k2 = kind[ra * size + c2], kind[rb * size + c2]
                        if k1 + k2 <= 1:
                            yield ra, rb, min(ca, c2), max(ca, c2)


def find_avoidable_rectangles(state: State) -> Iterator[Step]:
    """Avoidable rectangles: solved non-given cells must not complete a deadly pattern."""
    geo = state.geo
    size = geo.size
    cands = state.cands
    values = state.values
    givens = state.givens
    peers = geo.peer_sets

    def placed(i: int) -> int:
        return values[i] if values[i] and not givens[i] else 0

    done: set[tuple[int, int, int, int]] = set()
    for r1, r2, c1, c2 in _ar_rects(state):
        rect = (r1 * size + c1, r1 * size + c2, r2 * size + c1, r2 * size + c2)
        if rect in done:
            continue
        done.add(rect)
        solved = [i for i in rect if placed(i)]
        if not 2 <= len(solved) <= 3:
            continue
        if any(values[i] and not placed(i) for i in rect):
            continue
        where = cells_text(rect, size)
        if len(solved) == 3:
            w = next(i for i in rect if not values[i])
            x = _opposite(rect, w, size)
            y, z = (i for i in solved if i != x)
            a, b = values[x], values[y]
            if values[z] == b and a != b and cands[w] & (1 << (a - 1)):
                el = [(w, a)]
                yield make_step(
                    "Avoidable Rectangle Type 1",
                    f"Avoidable rectangle {a}{b} in {where}: {a} in "
                    f"{cell_name(w, size)} would make a deadly pattern of "
                    f"non-given cells: {elim_text(el, size)}",
                    size,
                    eliminate=el,
                    reasons=rect,
                    digits=[a, b],
                )
            continue
        x, y = solved
        if geo.row[x] != geo.row[y] and geo.col[x] != geo.col[y]:
            continue
        a, b = values[x], values[y]
        if a == b:
            continue
        x2 = next(i for i in rect if i not in solved and i in peers[x] and i != y)
        y2 = next(i for i in rect if i not in solved and i != x2)
        mx, my = cands[x2], cands[y2]
        bb, ab = 1 << (b - 1), 1 << (a - 1)
        if mx.bit_count() != 2 or my.bit_count() != 2:
            continue
        if not mx & bb or not my & ab:
            continue
        cm = (mx & ~bb) & (my & ~ab)
        if not cm or mx & ~bb != cm or my & ~ab != cm:
            continue
        c = cm.bit_length()
        el = [(i, c) for i in peers[x2] & peers[y2] if i not in rect and cands[i] & cm]
        if el:
            yield make_step(
                "Avoidable Rectangle Type 2",
                f"Avoidable rectangle {a}{b} in {where}: {cell_name(x2, size)} or "
                f"{cell_name(y2, size)} must be {c}: {elim_text(el, size)}",
                size,
                eliminate=el,
                reasons=rect,
                digits=[a, b],
            )


def _ar_cached(state: State, suffix: str) -> Iterator[Step]:
    found = state.cache.get("ar")
    if found is None:
        found = list(find_avoidable_rectangles(state))
        state.cache["ar"] = found
    assert isinstance(found, list)
    return (s for s in found if s.technique.endswith(suffix))


def find_ar1(state: State) -> Iterator[Step]:
    return _ar_cached(state, "Type 1")


def find_ar2(state: State) -> Iterator[Step]:
    return _ar_cached(state, "Type 2")


def find(state: State) -> Iterator[Step]:
    yield from find_bug_plus_one(state)
    yield from find_unique_rectangles(state)
    yield from find_ur5_ur6_hidden(state)
    yield from find_avoidable_rectangles(state)
