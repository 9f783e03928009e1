"""Forcing chains and forcing nets: the last logical resort before search.

Forcing chain: from one assumption follow single implications (a true candidate makes its
weak-link partners false, a false one makes its strong-link partners true). If an assumption
leads to a candidate both true and false, or empties a cell or a unit of a digit, it is false
(contradiction); what follows from every candidate of one cell is true (verity).
Forcing net: assume a digit in a cell and propagate naked and hidden singles on a copy of the
grid; a contradiction removes the digit, placements common to both digits of a bivalue cell
are made.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import chain

from pencilbox.core.step import Step

from . import compiled
from .chains import full_links, listed, node_name
from .state import State, cell_name, digits_of, set_bits
from .techniques import elim_text, make_step

Outs = tuple[dict[int, list[int]], dict[int, list[int]]]
"""Per node, its weak and its strong partners as lists (filled as the searches reach them)."""


def implications(
    weak: dict[int, int], strong: dict[int, int], node: int, on: bool, outs: Outs | None = None
) -> tuple[int, int, list[int]]:
    """(true set, false set, the false nodes as a list) of candidates implied by node being on
    (or off); it stops at the first level that makes a candidate both true and false.

    Nodes are followed through lists of partners and dicts of seen nodes (the masks of big
    boards are thousands of bits long); the sets are made into masks once at the end."""
    weak_out, strong_out = outs if outs is not None else ({}, {})
    on_nodes: dict[int, None] = {}
    off_nodes: dict[int, None] = {}
    if on:
        on_nodes[node] = None
        frontier_on = [node]
        frontier_off: list[int] = []
    else:
        off_nodes[node] = None
        frontier_on = []
        frontier_off = [node]
    clash = False
    while frontier_on or frontier_off:
        for x in frontier_on:
            ys = weak_out.get(x)
            if ys is None:
                ys = listed(weak, weak_out, x)
            for y in ys:
                if y not in off_nodes:
                    off_nodes[y] = None
                    frontier_off.append(y)
                    clash = clash or y in on_nodes
        new_on: list[int] = []
        for x in frontier_off:
            ys = strong_out.get(x)
            if ys is None:
                ys = listed(strong, strong_out, x)
            for y in ys:
                if y not in on_nodes:
                    on_nodes[y] = None
                    new_on.append(y)
                    clash = clash or y in off_nodes
        frontier_on = new_on
        frontier_off = []
        if clash:
            break
    return _mask(on_nodes), _mask(off_nodes), list(off_nodes)


def _mask(nodes: dict[int, None]) -> int:
    """The bitset of some nodes, built as bytes (one big-int operation instead of one each)."""
    if not nodes:
        return 0
    top = max(nodes)
    data = bytearray(top // 8 + 1)
    for x in nodes:
        data[x >> 3] |= 1 << (x & 7)
    return int.from_bytes(data, "little")


def trace(
    weak: dict[int, int], strong: dict[int, int], start: int, goal: tuple[int, bool]
) -> list[tuple[int, bool]]:
    """The shortest implication path from start being true to goal (node, is_true)."""
    parent: dict[tuple[int, bool], tuple[int, bool] | None] = {(start, True): None}
    frontier = [(start, True)]
    while frontier and goal not in parent:
        nxt = []
        for node, on in frontier:
            m = weak[node] if on else strong[node]
            for y in set_bits(m):
                st = (y, not on)
                if st not in parent:
                    parent[st] = (node, on)
                    nxt.append(st)
        frontier = nxt
    if goal not in parent:
        return []
    path = [goal]
    back = parent[goal]
    while back is not None:
        path.append(back)
        back = parent[back]
    path.reverse()
    return path


def path_text(path: list[tuple[int, bool]], size: int) -> str:
    return " -> ".join(
        f"{cell_name(node // size, size)}{'=' if on else '<>'}{node % size + 1}"
        for node, on in path
    )


def _group_masks(state: State) -> list[int]:
    """Node masks of every cell's candidates and of every unit's places of each digit."""
    geo = state.geo
    size = geo.size
    cands = state.cands
    # a cell's candidate d0 is node i * size + d0: its candidates' nodes are its mask shifted
    groups = [m << (i * size) for i, m in enumerate(cands) if m]
    for unit in geo.units:
        places = [0] * size
        for i in unit:
            m = cands[i]
            while m:
                low = m & -m
                places[low.bit_length() - 1] |= low << (i * size)
                m ^= low
        groups += [g for g in places if g]
    return groups


def _membership(groups: list[int]) -> tuple[dict[int, list[int]], list[int]]:
    """For each node, the indices of the groups holding it; and each group's size."""
    group_of: dict[int, list[int]] = {}
    for index, g in enumerate(groups):
        for x in set_bits(g):
            group_of.setdefault(x, []).append(index)
    return group_of, [g.bit_count() for g in groups]


def _first_group_off(
    off_nodes: list[int], group_of: dict[int, list[int]], group_sizes: list[int]
) -> int | None:
    """The index of the first group all of whose nodes are off (None if none): the groups are
    counted node by node (in one Counter pass), cheaper than testing every group on big
    boards."""
    counts = Counter(chain.from_iterable(group_of.get(x, ()) for x in off_nodes))
    return min((index for index, n in counts.items() if n == group_sizes[index]), default=None)


Implied = tuple[int, int, int, int | None, int | None]
"""(node, true set, false set, lowest node both true and false, first group all false)."""


def _implications(
    state: State, nodes: list[int], weak: dict[int, int], strong: dict[int, int], groups: list[int]
) -> Iterator[Implied]:
    """What each node being true implies, node by node: its true and false sets, the lowest
    node both true and false (None if none) and, when there is none, the index of the first
    group (of `groups`) all of whose nodes are false (None if none)."""
    loops = compiled.LOOPS
    if loops is not None:
        limit = state.geo.ncells * state.geo.size
        for node, (on_set, off_set, bad, first) in zip(
            nodes, loops.implications_all(nodes, weak, strong, groups, limit), strict=True
        ):
            yield (
                node,
                on_set,
                off_set,
                None if bad < 0 else bad,
                None if first < 0 or bad >= 0 else first,
            )
        return
    group_of, group_sizes = _membership(groups)
    outs: Outs = ({}, {})
    for node in nodes:
        on_set, off_set, off_nodes = implications(weak, strong, node, True, outs)
        both = on_set & off_set
        if both:
            yield node, on_set, off_set, (both & -both).bit_length() - 1, None
        else:
            yield node, on_set, off_set, None, _first_group_off(off_nodes, group_of, group_sizes)


def find_forcing_chain(state: State) -> Iterator[Step]:
    size = state.geo.size
    present, nodes, weak, strong = full_links(state)
    groups = _group_masks(state)
    on_cache: dict[int, tuple[int, int]] = {}
    # contradictions
    for node, on_set, off_set, bad, first in _implications(state, nodes, weak, strong, groups):
        on_cache[node] = (on_set, off_set)
        why = ""
        if bad is not None:
            why = (
                f"{path_text(trace(weak, strong, node, (bad, True)), size)} but "
                f"{path_text(trace(weak, strong, node, (bad, False)), size)}"
            )
        elif first is not None:
            g = groups[first]
            why = "; ".join(
                path_text(trace(weak, strong, node, (y, False)), size) for y in set_bits(g)
            ) + (f": no place left for {', '.join(node_name(y, size) for y in set_bits(g))}")
        if why:
            i, d = node // size, node % size + 1
            yield make_step(
                "Forcing Chain",
                f"Forcing chain contradiction: if {cell_name(i, size)} were {d}: {why}; so "
                f"{elim_text([(i, d)], size)}",
                size,
                eliminate=[(i, d)],
                reasons=[i],
                clue=cell_name(i, size),
                digits=[d],
            )
    # verities: what every candidate of a cell (or every place of a digit in a unit) implies
    for g in groups:
        members = set_bits(g)
        if len(members) < 2:
            continue
        common_on = present
        common_off = present
        for x in members:
            on_set, off_set = on_cache[x]
            common_on &= on_set
            common_off &= off_set
        common_on &= ~g
        common_off &= ~g
        if not common_on and not common_off:
            continue
        place = [(x // size, x % size + 1) for x in set_bits(common_on)]
        el = [(x // size, x % size + 1) for x in set_bits(common_off)]
        texts = []
        if place:
            texts.append("place " + ", ".join(f"{d} in {cell_name(i, size)}" for i, d in place))
        if el:
            texts.append(elim_text(el, size))
        yield make_step(
            "Forcing Chain",
            f"Forcing chain verity: each of {', '.join(node_name(x, size) for x in members)} "
            f"leads to the same result: {'; '.join(texts)}",
            size,
            place=place,
            eliminate=el,
            reasons=sorted({x // size for x in members}),
        )


def propagate(state: State) -> bool:
    """Place naked and hidden singles until none is left; False on a contradiction.

    Cells in order, then units in order, until a pass changes nothing; placements are
    written straight into the state's lists (this runs once per candidate in a forcing net)."""
    geo = state.geo
    cands = state.cands
    values = state.values
    peers = geo.peers
    full = geo.all_mask
    state.cache.clear()
    loops = compiled.LOOPS
    if loops is not None and 2 <= geo.n <= 5:
        return bool(loops.propagate(geo.n, values, cands))
    changed = True
    while changed:
        changed = False
        for i in range(geo.ncells):
            if not values[i]:
                m = cands[i]
                if not m:
                    return False
                if not m & (m - 1):
                    values[i] = m.bit_length()
                    cands[i] = 0
                    keep = ~m
                    for p in peers[i]:
                        cands[p] &= keep
                    changed = True
        for unit in geo.units:
            once = 0
            twice = 0
            placed = 0
            for i in unit:
                v = values[i]
                if v:
                    b = 1 << (v - 1)
                    if placed & b:
                        return False
                    placed |= b
                else:
                    m = cands[i]
                    twice |= once & m
                    once |= m
            if (once | placed) != full:
                return False
            single = once & ~twice & ~placed
            while single:
                low = single & -single
                single ^= low
                for i in unit:
                    if cands[i] & low:
                        values[i] = low.bit_length()
                        cands[i] = 0
                        keep = ~low
                        for p in peers[i]:
                            cands[p] &= keep
                        changed = True
                        break
    return True


def find_forcing_net(state: State) -> Iterator[Step]:
    size = state.geo.size
    cands = state.cands
    order = sorted((i for i in range(len(cands)) if cands[i]), key=lambda i: cands[i].bit_count())
    results: dict[tuple[int, int], State | None] = {}
    for i in order:
        for d in digits_of(cands[i]):
            trial = state.copy()
            trial.place(i, d)
            ok = propagate(trial)
            results[(i, d)] = trial if ok else None
            if not ok:
                yield make_step(
                    "Forcing Net",
                    f"Forcing net contradiction: placing {d} in {cell_name(i, size)} and "
                    f"following the singles empties a cell or a unit: "
                    f"{elim_text([(i, d)], size)}",
                    size,
                    eliminate=[(i, d)],
                    reasons=[i],
                    clue=cell_name(i, size),
                    digits=[d],
                )
    for i in order:
        branches = [results.get((i, d)) for d in digits_of(cands[i])]
        if any(b is None for b in branches) or len(branches) < 2:
            continue
        common = None
        for b in branches:
            assert b is not None
            here = {(j, v) for j, v in enumerate(b.values) if v and not state.values[j]}
            common = here if common is None else common & here
        common = {(j, v) for j, v in (common or set()) if j != i}
        if common:
            yield make_step(
                "Forcing Net",
                f"Forcing net verity: every candidate of {cell_name(i, size)} leads to "
                + ", ".join(f"{v} in {cell_name(j, size)}" for j, v in sorted(common)),
                size,
                place=sorted(common),
                reasons=[i],
                clue=cell_name(i, size),
            )


def find(state: State) -> Iterator[Step]:
    yield from find_forcing_chain(state)
    yield from find_forcing_net(state)


def brute_force(state: State) -> State | None:
    """A solution by propagation and branching on the cell with fewest candidates (or None).

    Used to check the logic (soundness tests) and never as a solving step.
    """
    trial = state.copy()
    if not propagate(trial):
        return None
    cands = trial.cands
    best = -1
    best_count = 99
    for i, m in enumerate(cands):
        if m:
            c = m.bit_count()
            if c < best_count:
                best, best_count = i, c
    if best < 0:
        return trial if trial.is_solved() else None
    for d in digits_of(cands[best]):
        child = trial.copy()
        child.place(best, d)
        solved = brute_force(child)
        if solved is not None:
            return solved
    return None
