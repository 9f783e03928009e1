"""Templates: every way to place one digit once in each row, column and box that agrees
with the candidates. A cell in all of them holds the digit (template set); a candidate in none
of them goes (template delete). Exhaustive, so HoDoKu rates it as a last resort."""

from __future__ import annotations

from collections.abc import Iterator

from pencilbox.core.step import Step

from .state import State, cell_name, set_bits
from .techniques import elim_text, make_step


def digit_templates(
    state: State, d: int, blocked: int = 0, limit: int = 200000
) -> tuple[int, int, int] | None:
    """(cells in every template, cells in some template, count) as bitsets; None if too many.
    Cells in `blocked` (known to hold other digits) are not used."""
    geo = state.geo
    size = geo.size
    n = geo.n
    b = 1 << (d - 1)
    rows: list[list[int]] = []
    for r in range(size):
        row = geo.units[r]
        fixed = [i for i in row if state.values[i] == d]
        rows.append(
            fixed if fixed else [i for i in row if state.cands[i] & b and not blocked >> i & 1]
        )
    every = -1
    some = 0
    count = 0
    chosen: list[int] = []

    def rec(r: int, cols: int, boxes: int, cells: int) -> bool:
        nonlocal every, some, count
        if r == size:
            every &= cells
            some |= cells
            count += 1
            return count < limit
        for i in rows[r]:
            c = i % size
            bx = (r // n) * n + c // n
            if cols >> c & 1 or boxes >> bx & 1:
                continue
            chosen.append(i)
            go_on = rec(r + 1, cols | 1 << c, boxes | 1 << bx, cells | 1 << i)
            chosen.pop()
            if not go_on:
                return False
        return True

    if not rec(0, 0, 0, 0):
        return None
    if count == 0:
        return 0, 0, 0
    return every, some, count


def find_templates(state: State) -> Iterator[Step]:
    size = state.geo.size
    if size > 9:
        return
    # refine: a cell in every template of one digit is not free for the others
    results: dict[int, tuple[int, int, int]] = {}
    every_of = dict.fromkeys(range(1, size + 1), 0)
    changed = True
    while changed:
        changed = False
        for d in range(1, size + 1):
            blocked = 0
            for j, m in every_of.items():
                if j != d:
                    blocked |= m
            res = digit_templates(state, d, blocked)
            if res is None:
                return
            if res[2] == 0:
                return  # no template at all: the grid is broken, nothing sound to say
            results[d] = res
            if res[0] != every_of[d]:
                every_of[d] = res[0]
                changed = True
    for d in range(1, size + 1):
        every, some, count = results[d]
        place = [(i, d) for i in set_bits(every) if not state.values[i]]
        if place:
            yield make_step(
                "Template Set",
                f"Template set: all {count} placements of {d} that fit the candidates use "
                + ", ".join(cell_name(i, size) for i, _ in place),
                size,
                place=place,
                digits=[d],
            )
        el = [(i, d) for i in state.digit_cells(d) if not some >> i & 1]
        if el:
            yield make_step(
                "Template Delete",
                f"Template delete: none of the {count} placements of {d} that fit the "
                f"candidates uses these cells: {elim_text(el, size)}",
                size,
                eliminate=el,
                digits=[d],
            )


def find_template_set(state: State) -> Iterator[Step]:
    return (s for s in find_templates(state) if s.technique == "Template Set")


def find_template_delete(state: State) -> Iterator[Step]:
    return (s for s in find_templates(state) if s.technique == "Template Delete")


def find(state: State) -> Iterator[Step]:
    return find_templates(state)
