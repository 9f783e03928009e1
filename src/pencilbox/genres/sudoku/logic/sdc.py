"""Sue de Coq: two or three cells of a box-line intersection holding at least two more
digits than cells, completed by cells of the line and cells of the box whose digits do not
overlap. The union holds as many digits as cells, so every digit lands exactly once: the
line's digits leave the rest of the line and the box's digits the rest of the box."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from pencilbox.core.step import Step

from . import compiled
from .memo import each_part, unit_keys
from .state import State, box_lines, cells_text, digits_of, unit_name
from .techniques import elim_text, make_step


def _all_subsets(cells: list[int], cands: list[int]) -> list[tuple[tuple[int, ...], int]]:
    """Subsets of up to 4 cells with their digits."""
    out = []
    for k in range(1, min(4, len(cells)) + 1):
        for combo in combinations(cells, k):
            m = 0
            for i in combo:
                m |= cands[i]
            out.append((combo, m))
    return out


Subset = tuple[tuple[int, ...], int]


def _sharing(subsets: list[Subset], vmask: int) -> list[tuple[int, tuple[int, ...], int]]:
    """(slack, cells, digits) of the subsets sharing a digit with the intersection and adding
    no more digits than cells, in their order; slack = cells minus the digits they add."""
    out = []
    for combo, m in subsets:
        if m & vmask:
            slack = len(combo) - (m & ~vmask).bit_count()
            if slack >= 0:
                out.append((slack, combo, m))
    return out


def _by_slack(subsets: list[Subset], vmask: int) -> dict[int, list[Subset]]:
    """The same subsets grouped by slack, each group in their order."""
    out: dict[int, list[Subset]] = {}
    for slack, combo, m in _sharing(subsets, vmask):
        out.setdefault(slack, []).append((combo, m))
    return out


def find_sue_de_coq(state: State) -> Iterator[Step]:
    """Box by box, line by line; a box-line pair reads only the candidates of its box and
    line, so a pair that found nothing is skipped until one of them changes (memo.py)."""
    size = state.geo.size
    keys = unit_keys(state)
    parts = (
        ((b, line), (size, b, line, keys[b], keys[line])) for b, line in box_lines(state.geo.n)
    )
    return each_part("sue de coq", parts, lambda part: _pair_steps(state, *part))


Found = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
"""(intersection cells, line cells, box cells) of a Sue de Coq."""


def _pair_sets(
    state: State, b: int, line: int, inter: list[int], line_rest: list[int], box_rest: list[int]
) -> Iterator[Found]:
    """The cell sets of the Sue de Coq of one box and line, in order: intersection cores of 2
    then 3 cells, line parts, box parts (each in itertools.combinations order, 1..4 cells);
    with the compiled loops only those that eliminate something."""
    geo = state.geo
    cands = state.cands
    loops = compiled.LOOPS
    if loops is not None and geo.size <= 32:
        line_cells, box_cells = list(geo.units[line]), list(geo.units[b])
        yield from loops.sdc_pair(inter, line_rest, box_rest, line_cells, box_cells, cands)
        return
    line_subsets: list[tuple[tuple[int, ...], int]] | None = None
    box_subsets: list[tuple[tuple[int, ...], int]] | None = None
    for k in (2, 3):
        for core in combinations(inter, k):
            v = 0
            for i in core:
                v |= cands[i]
            spare = v.bit_count() - k
            if spare < 2:
                continue
            if line_subsets is None or box_subsets is None:
                line_subsets = _all_subsets(line_rest, cands)
                box_subsets = _all_subsets(box_rest, cands)
            # only box parts whose slack completes the line part's can make the
            # union hold as many digits as cells: look those up, in their order
            box_slack = _by_slack(box_subsets, v)
            for sl, lcells, vl in _sharing(line_subsets, v):
                for bcells, vb in box_slack.get(spare - sl, ()):
                    if vl & vb:
                        continue
                    total = v | vl | vb
                    if total.bit_count() == k + len(lcells) + len(bcells):
                        yield core, lcells, bcells


def _pair_steps(state: State, b: int, line: int) -> Iterator[Step]:
    """The Sue de Coq of one box and one line crossing it."""
    geo = state.geo
    size = geo.size
    cands = state.cands
    bset = geo.unit_sets[b]
    lset = geo.unit_sets[line]
    inter = [i for i in geo.units[line] if i in bset and cands[i]]
    if len(inter) < 2:
        return
    line_rest = [i for i in geo.units[line] if i not in bset and cands[i]]
    box_rest = [i for i in geo.units[b] if i not in lset and cands[i]]
    for core, lcells, bcells in _pair_sets(state, b, line, inter, line_rest, box_rest):
        v = vl = vb = 0
        for i in core:
            v |= cands[i]
        for i in lcells:
            vl |= cands[i]
        for i in bcells:
            vb |= cands[i]
        total = v | vl | vb
        line_digits = vl | (v & ~vb)
        box_digits = vb | (v & ~vl)
        used = set(core) | set(lcells) | set(bcells)
        el = [
            (i, d)
            for i in geo.units[line]
            if i not in used
            for d in digits_of(cands[i] & line_digits)
        ]
        el += [
            (i, d) for i in geo.units[b] if i not in used for d in digits_of(cands[i] & box_digits)
        ]
        if not el:
            continue
        yield make_step(
            "Sue de Coq",
            f"Sue de Coq: {cells_text(core, size)} in {unit_name(b, size)} "
            f"and {unit_name(line, size)} hold "
            f"{''.join(map(str, digits_of(v)))}; with "
            f"{cells_text(lcells, size)} "
            f"({''.join(map(str, digits_of(vl)))}) in the line and "
            f"{cells_text(bcells, size)} "
            f"({''.join(map(str, digits_of(vb)))}) in the box every digit "
            f"is placed once: {elim_text(el, size)}",
            size,
            eliminate=el,
            reasons=sorted(used),
            clue=unit_name(b, size),
            digits=digits_of(total),
        )


def find(state: State) -> Iterator[Step]:
    return find_sue_de_coq(state)
