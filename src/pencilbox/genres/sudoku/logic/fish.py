"""Basic fish (X-Wing, Swordfish, Jellyfish) and their finned and sashimi forms."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from pencilbox.core.step import Step

from . import compiled
from .memo import each_digit
from .state import State, cells_text, set_bits
from .techniques import elim_text, make_step

_BASIC = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}


def _all_line_masks(state: State) -> tuple[list[list[int]], list[list[int]]]:
    """Per digit (index d-1): for each row the column mask holding it, and vice versa."""
    cached = state.cache.get("line_masks")
    if cached is None:
        size = state.geo.size
        rows = [[0] * size for _ in range(size)]
        cols = [[0] * size for _ in range(size)]
        for i, m in enumerate(state.cands):
            if m:
                r, c = divmod(i, size)
                while m:
                    low = m & -m
                    d0 = low.bit_length() - 1
                    rows[d0][r] |= 1 << c
                    cols[d0][c] |= 1 << r
                    m ^= low
        cached = (rows, cols)
        state.cache["line_masks"] = cached
    return cached  # type: ignore[return-value]


def _line_masks(state: State, d: int, by_rows: bool) -> list[int]:
    """For each base line, the mask of cross positions holding d."""
    rows, cols = _all_line_masks(state)
    return rows[d - 1] if by_rows else cols[d - 1]


def _cell(line: int, pos: int, size: int, by_rows: bool) -> int:
    return line * size + pos if by_rows else pos * size + line


def _names(idx: list[int], by_rows: bool, cover: bool) -> str:
    kind = ("columns" if by_rows else "rows") if cover else ("rows" if by_rows else "columns")
    nums = [str(i + 1) for i in idx]
    text = ", ".join(nums[:-1]) + " and " + nums[-1] if len(nums) > 1 else nums[0]
    return f"{kind} {text}"


def _bases(
    pool: list[int], masks: list[int], k: int, limit: int
) -> list[tuple[tuple[int, ...], int]]:
    """k-subsets of base lines whose union of positions has at most `limit` members."""
    out: list[tuple[tuple[int, ...], int]] = []
    chosen: list[int] = []

    def rec(start: int, union: int) -> None:
        if len(chosen) == k:
            out.append((tuple(chosen), union))
            return
        for j in range(start, len(pool) - (k - len(chosen)) + 1):
            u = union | masks[pool[j]]
            if u.bit_count() <= limit:
                chosen.append(pool[j])
                rec(j + 1, u)
                chosen.pop()

    rec(0, 0)
    return out


def fish(state: State, k: int, finned: bool) -> Iterator[Step]:
    """Fish of k base lines on every digit, rows then columns as base, finned or not."""

    def on_digit(d: int) -> Iterator[Step]:
        for by_rows in (True, False):
            yield from _fish_on(state, k, finned, d, by_rows, _line_masks(state, d, by_rows))

    return each_digit(state, f"fish {k} {finned}", on_digit)


def _fish_on(
    state: State, k: int, finned: bool, d: int, by_rows: bool, masks: list[int]
) -> Iterator[Step]:
    """The fish of one digit with rows (or columns) as base lines."""
    lines = [i for i in range(state.geo.size) if masks[i]]
    if len(lines) <= k:
        return
    loops = compiled.LOOPS
    if loops is not None and 2 <= state.geo.n <= 5:
        # the bases (and fins) that eliminate something, in the order of the loops below
        for base, bits in loops.fish_scan(masks, k, state.geo.n, finned):
            if finned:
                union = bits
                for line in base:
                    union |= masks[line]
                yield from _finned(state, k, d, by_rows, masks, base, union, only_fins=bits)
            else:
                yield from _basic(state, k, d, by_rows, masks, lines, base, bits)
        return
    limit = k + state.geo.n if finned else k
    pool = [i for i in lines if masks[i].bit_count() <= limit]
    for base, union in _bases(pool, masks, k, limit):
        if finned:
            yield from _finned(state, k, d, by_rows, masks, base, union)
        elif union.bit_count() == k:
            yield from _basic(state, k, d, by_rows, masks, lines, base, union)


def _basic(
    state: State,
    k: int,
    d: int,
    by_rows: bool,
    masks: list[int],
    lines: list[int],
    base: tuple[int, ...],
    union: int,
) -> Iterator[Step]:
    """A basic fish: k base lines covered by k cross lines; d leaves the cover's other cells."""
    size = state.geo.size
    basic = _BASIC.get(k, f"{k}-Fish")
    cover = set_bits(union)
    el = [
        (_cell(line, pos, size, by_rows), d)
        for pos in cover
        for line in lines
        if line not in base and masks[line] >> pos & 1
    ]
    if el:
        base_cells = [
            _cell(line, pos, size, by_rows) for line in base for pos in set_bits(masks[line])
        ]
        yield make_step(
            basic,
            f"{basic} on {d} in {_names(list(base), by_rows, False)}, "
            f"{_names(cover, by_rows, True)}: {elim_text(el, size)}",
            size,
            eliminate=el,
            reasons=base_cells,
            digits=[d],
        )


def _finned(
    state: State,
    k: int,
    d: int,
    by_rows: bool,
    masks: list[int],
    base: tuple[int, ...],
    union: int,
    only_fins: int | None = None,
) -> Iterator[Step]:
    """Finned and sashimi fish: the base lines' extra positions (fins) lie in one box, so
    only cells of the cover that see every fin lose d (`only_fins`: just those fins)."""
    size = state.geo.size
    n = state.geo.n
    ucount = union.bit_count()
    if not k < ucount <= k + n:
        return
    basic = _BASIC.get(k, f"{k}-Fish")
    # fins: cross positions of one stack (band) removed from the union
    for stack in range(n):
        smask = ((1 << n) - 1) << (stack * n)
        avail = union & smask
        nfins = ucount - k
        if avail.bit_count() < nfins:
            continue
        for fin_pos in combinations(set_bits(avail), nfins):
            fmask = 0
            for p in fin_pos:
                fmask |= 1 << p
            if only_fins is not None and fmask != only_fins:
                continue
            cmask = union & ~fmask
            if not cmask & smask:
                continue
            fin_lines = [line for line in base if masks[line] & fmask]
            band = fin_lines[0] // n
            if any(line // n != band for line in fin_lines):
                continue
            el = [
                (_cell(line, pos, size, by_rows), d)
                for line in range(band * n, band * n + n)
                if line not in base
                for pos in set_bits(masks[line] & cmask & smask)
            ]
            if not el:
                continue
            fins = [
                _cell(line, pos, size, by_rows)
                for line in fin_lines
                for pos in set_bits(masks[line] & fmask)
            ]
            cover = set_bits(cmask)
            sashimi = any((masks[line] & cmask).bit_count() < 2 for line in base)
            name = ("Sashimi " if sashimi else "Finned ") + basic
            base_cells = [
                _cell(line, pos, size, by_rows)
                for line in base
                for pos in set_bits(masks[line] & cmask)
            ]
            yield make_step(
                name,
                f"{name} on {d} in {_names(list(base), by_rows, False)}, "
                f"{_names(cover, by_rows, True)} with fin "
                f"{cells_text(fins, size)}: {elim_text(el, size)}",
                size,
                eliminate=el,
                reasons=base_cells + fins,
                digits=[d],
                fins=[[i // size, i % size] for i in fins],
                base=["row" if by_rows else "column", *base],
            )


def find_x_wing(state: State) -> Iterator[Step]:
    return fish(state, 2, False)


def find_swordfish(state: State) -> Iterator[Step]:
    return fish(state, 3, False)


def find_jellyfish(state: State) -> Iterator[Step]:
    return fish(state, 4, False)


def _named(state: State, k: int, name: str) -> Iterator[Step]:
    key = f"finned{k}"
    found = state.cache.get(key)
    if found is None:
        found = list(fish(state, k, True))
        state.cache[key] = found
    assert isinstance(found, list)
    return (s for s in found if s.technique == name)


def find_finned_x_wing(state: State) -> Iterator[Step]:
    return _named(state, 2, "Finned X-Wing")


def find_sashimi_x_wing(state: State) -> Iterator[Step]:
    return _named(state, 2, "Sashimi X-Wing")


def find_finned_swordfish(state: State) -> Iterator[Step]:
    return _named(state, 3, "Finned Swordfish")


def find_sashimi_swordfish(state: State) -> Iterator[Step]:
    return _named(state, 3, "Sashimi Swordfish")


def find_finned_jellyfish(state: State) -> Iterator[Step]:
    return _named(state, 4, "Finned Jellyfish")


def find_sashimi_jellyfish(state: State) -> Iterator[Step]:
    return _named(state, 4, "Sashimi Jellyfish")


def find_siamese(state: State) -> Iterator[Step]:
    """Siamese fish: two finned fish on the same digit and base lines, reported together."""
    size = state.geo.size
    for k in (2, 3, 4):
        groups: dict[tuple[object, ...], list[Step]] = {}
        for step in fish(state, k, True):
            key = (tuple(step.extra["digits"]), tuple(step.extra["base"]))
            groups.setdefault(key, []).append(step)
        for steps in groups.values():
            for x in range(len(steps)):
                for y in range(x + 1, len(steps)):
                    a, b = steps[x], steps[y]
                    ea = {(r * size + c, d) for r, c, d in a.extra["eliminations"]}
                    eb = {(r * size + c, d) for r, c, d in b.extra["eliminations"]}
                    if ea == eb or ea <= eb or eb <= ea:
                        continue
                    el = ea | eb
                    for name in sorted({"Siamese " + a.technique, "Siamese " + b.technique}):
                        yield make_step(
                            name,
                            f"{name}: {a.sentence.split(':')[0]} and {b.sentence.split(':')[0]}: "
                            f"{elim_text(el, size)}",
                            size,
                            eliminate=el,
                            reasons=[r * size + c for r, c in a.reasons + b.reasons],
                            digits=a.extra["digits"],
                        )


def find(state: State) -> Iterator[Step]:
    for k in (2, 3, 4):
        yield from fish(state, k, False)
    for k in (2, 3, 4):
        yield from fish(state, k, True)
