"""X-chains, XY-chains and alternating inference chains (AIC).

A candidate is a node `cell * N + digit - 1`; sets of nodes are Python ints used as bitsets.
A weak link (not both true) joins candidates of one digit in cells that see each other and
the candidates of one cell; a strong link (not both false) joins the two candidates of a
bivalue cell and the two places of a digit in a unit. A chain starting with a strong link from
an "off" start and ending "on" says: start or end is true; every candidate weakly linked to
both ends is false.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from pencilbox.core.step import Step

from . import compiled
from .memo import digit_places, known_empty, note_empty
from .state import Geometry, State, cell_name, geometry, peer_masks, set_bits
from .techniques import elim_text, make_step


@dataclass(slots=True)
class Graph:
    size: int
    present: int
    nodes: list[int]
    weak: dict[int, int]
    strong: dict[int, int]
    full_weak: dict[int, int]
    groups: dict[int, tuple[int, tuple[int, ...]]] | None = None
    strong_out: dict[int, list[int]] = field(default_factory=dict)
    """The nodes of each strong mask as a list (filled as searches reach them)."""
    weak_out: dict[int, list[int]] = field(default_factory=dict)
    """The same for the weak masks."""


def listed(masks: dict[int, int], lists: dict[int, list[int]], node: int) -> list[int]:
    """The nodes of masks[node] in ascending order, listed once per graph: a search from
    every start visits the same nodes many times, and on big boards the masks are thousands
    of bits long, so testing a short list against the seen nodes is cheaper than masking."""
    out = lists.get(node)
    if out is None:
        out = lists[node] = set_bits(masks.get(node, 0))
    return out


def node_name(
    node: int, size: int, groups: dict[int, tuple[int, tuple[int, ...]]] | None = None
) -> str:
    if groups and node in groups:
        d, cells = groups[node]
        rows = sorted({i // size + 1 for i in cells})
        cols = sorted({i % size + 1 for i in cells})
        return f"({d})r{''.join(map(str, rows))}c{''.join(map(str, cols))}"
    return f"({node % size + 1}){cell_name(node // size, size)}"


Links = tuple[int, list[int], dict[int, int], dict[int, int]]


def full_links(state: State) -> Links:
    """All candidates with their weak and strong link masks (cached on the state)."""
    cached = state.cache.get("links")
    if cached is None:
        cached = _full_links(state)
        state.cache["links"] = cached
    return cached  # type: ignore[return-value]


def _full_links(state: State) -> Links:
    geo = state.geo
    size = geo.size
    cands = state.cands
    places = digit_places(state)
    peers = peer_masks(geo.n)
    present = 0
    nodes: list[int] = []
    weak: dict[int, int] = {}
    strong: dict[int, int] = {}
    if len(_LINKS) > _LINKS_MAX:
        _LINKS.clear()
    for i, m in enumerate(cands):
        if not m:
            continue
        seen = peers[i]
        for d0 in range(size):
            if m >> d0 & 1:
                node = i * size + d0
                nodes.append(node)
                present |= 1 << node
                key = (size, node, m, places[d0] & seen)
                links = _LINKS.get(key)
                if links is None:
                    links = _LINKS[key] = _links_of(geo, i, d0, m, places[d0])
                weak[node], strong[node] = links
    return present, nodes, weak, strong


_LINKS: dict[tuple[int, int, int, int], tuple[int, int]] = {}
"""(size, node, its cell's candidates, its digit's places among the cell's peers) -> (weak,
strong): a node's links depend on nothing else, and most stay the same from step to step."""
_LINKS_MAX = 60_000


def _links_of(geo: Geometry, i: int, d0: int, m: int, places: int) -> tuple[int, int]:
    """The weak and strong link masks of candidate d0+1 of cell i (candidates m); `places`
    are the cells where that digit can go."""
    size = geo.size
    w = 0
    for e in range(size):
        if e != d0 and m >> e & 1:
            w |= 1 << (i * size + e)
    for p in set_bits(places & peer_masks(geo.n)[i]):
        w |= 1 << (p * size + d0)
    s = 0
    if m.bit_count() == 2:
        e = (m & ~(1 << d0)).bit_length() - 1
        s |= 1 << (i * size + e)
    unit_masks = _unit_masks(geo.n)
    for u in geo.cell_units[i]:
        here = places & unit_masks[u]
        if here.bit_count() == 2:
            j = (here & ~(1 << i)).bit_length() - 1
            s |= 1 << (j * size + d0)
    return w, s


@lru_cache(maxsize=8)
def _intersections(n: int) -> list[tuple[int, ...]]:
    """The cells of every box-line intersection, box by box, rows then columns."""
    geo = geometry(n)
    size = geo.size
    out = []
    for b in range(2 * size, 3 * size):
        for line in range(2 * size):
            inter = tuple(i for i in geo.units[line] if i in geo.unit_sets[b])
            if inter:
                out.append(inter)
    return out


@lru_cache(maxsize=8)
def _unit_masks(n: int) -> list[int]:
    return [sum(1 << i for i in unit) for unit in geometry(n).units]


def _group_links(
    g: int,
    d0: int,
    units: set[int],
    group_cells: dict[int, int],
    places: list[int],
    unit_masks: list[int],
    by_unit_digit: dict[tuple[int, int], list[int]],
    size: int,
) -> tuple[int, int]:
    """A group's weak and strong links: in each unit holding it, weak to every other place
    of its digit and every group apart from it; strong to the rest when that is one
    candidate or exactly one other group."""
    mine = group_cells[g]
    w = 0
    s = 0
    for u in units:
        rest = unit_masks[u] & places[d0] & ~mine
        for i in set_bits(rest):
            w |= 1 << (i * size + d0)
        for h in by_unit_digit.get((u, d0), ()):
            if h != g and not mine & group_cells[h]:
                w |= 1 << h
                if rest == group_cells[h]:
                    s |= 1 << h
        if rest.bit_count() == 1:
            s |= 1 << ((rest.bit_length() - 1) * size + d0)
    return w, s


def grouped_graph(state: State) -> Graph:
    """The AIC graph plus group nodes: the 2+ candidates of a digit in a box-line
    intersection act as one node (true when one of them is)."""
    geo = state.geo
    size = geo.size
    cands = state.cands
    present, nodes, weak0, strong0 = full_links(state)
    weak = dict(weak0)
    strong = dict(strong0)
    base = geo.ncells * size
    groups: dict[int, tuple[int, tuple[int, ...]]] = {}
    loops = compiled.LOOPS
    if loops is not None and 2 <= geo.n <= 5:
        found, group_weak, group_strong = loops.grouped_links(geo.n, cands)
        groups = {base + k: group for k, group in enumerate(found)}
        for x, m in group_weak.items():
            weak[x] = weak.get(x, 0) | m
        for x, m in group_strong.items():
            strong[x] = strong.get(x, 0) | m
        return Graph(size, present, nodes + sorted(groups), weak, strong, weak, groups)
    # items per (unit, digit): candidate nodes and groups lying in the unit
    for inter in _intersections(geo.n):
        for d0 in range(size):
            cells = tuple(i for i in inter if cands[i] >> d0 & 1)
            if len(cells) >= 2:
                groups[base + len(groups)] = (d0 + 1, cells)
    # the units holding the whole of each group, and the groups of each unit and digit
    group_units: dict[int, set[int]] = {}
    group_cells: dict[int, int] = {}
    by_unit_digit: dict[tuple[int, int], list[int]] = {}
    for g, (d, cells) in groups.items():
        units = set(geo.cell_units[cells[0]])
        for i in cells[1:]:
            units &= set(geo.cell_units[i])
        group_units[g] = units
        group_cells[g] = sum(1 << i for i in cells)
        for u in units:
            by_unit_digit.setdefault((u, d - 1), []).append(g)
    places = digit_places(state)
    unit_masks = _unit_masks(geo.n)
    for g, (d, _cells) in groups.items():
        weak[g], strong[g] = _group_links(
            g, d - 1, group_units[g], group_cells, places, unit_masks, by_unit_digit, size
        )
        # links back from the candidates and groups to this group
        for x in set_bits(weak[g]):
            weak[x] = weak.get(x, 0) | 1 << g
        for x in set_bits(strong[g]):
            strong[x] = strong.get(x, 0) | 1 << g
    return Graph(size, present, nodes + sorted(groups), weak, strong, weak, groups)


def graph(state: State, mode: str, skip: frozenset[int] = frozenset()) -> Graph:
    """mode: "x" (single digit, conjugate links; without the digits d-1 in `skip`), "xy"
    (bivalue cells), "aic" or "grouped"."""
    size = state.geo.size
    cands = state.cands
    if mode == "grouped":
        return grouped_graph(state)
    present, nodes, weak, strong = full_links(state)
    if mode == "aic":
        return Graph(size, present, nodes, weak, strong, weak)
    w2: dict[int, int] = {}
    s2: dict[int, int] = {}
    if mode == "x":
        nodes = [node for node in nodes if node % size not in skip]
        same_digit = [0] * size
        for node in nodes:
            same_digit[node % size] |= 1 << node
        for node in nodes:
            same = same_digit[node % size]
            w2[node] = weak[node] & same
            s2[node] = strong[node] & same
        return Graph(size, present, nodes, w2, s2, weak)
    biv = 0
    for node in nodes:
        if cands[node // size].bit_count() == 2:
            biv |= 1 << node
    keep = [node for node in nodes if biv >> node & 1]
    for node in keep:
        i = node // size
        cell_mask = 0
        for e in range(size):
            cell_mask |= 1 << (i * size + e)
        w2[node] = weak[node] & biv & ~cell_mask
        s2[node] = strong[node] & cell_mask
    return Graph(size, present, keep, w2, s2, weak)


def chains_from(
    g: Graph, start: int, min_links: int = 3
) -> Iterator[tuple[int, dict[int, int], dict[int, int]]]:
    """Breadth-first: every node proven "on" when start is "off", with the parent maps to
    rebuild the chain to it (see `_path`). The parent maps double as the sets of nodes seen
    on and off."""
    on_parent: dict[int, int] = {}
    off_parent: dict[int, int] = {start: -1}
    frontier = [start]
    links = 0
    strong, strong_out = g.strong, g.strong_out
    weak, weak_out = g.weak, g.weak_out
    while frontier:
        new_on: list[int] = []
        for x in frontier:
            ys = strong_out.get(x)
            if ys is None:
                ys = listed(strong, strong_out, x)
            for y in ys:
                if y not in on_parent:
                    on_parent[y] = x
                    new_on.append(y)
        links += 1
        if links >= min_links:
            for e in new_on:
                if e != start:
                    yield e, on_parent, off_parent
        frontier = []
        for y in new_on:
            zs = weak_out.get(y)
            if zs is None:
                zs = listed(weak, weak_out, y)
            for z in zs:
                if z not in off_parent:
                    off_parent[z] = y
                    frontier.append(z)
        links += 1


def _path(e: int, on_parent: dict[int, int], off_parent: dict[int, int]) -> list[int]:
    path = [e]
    on = True
    node = e
    while True:
        node = on_parent[node] if on else off_parent[node]
        if node < 0:
            break
        path.append(node)
        on = not on
    path.reverse()
    return path


def chain_text(
    path: list[int], size: int, groups: dict[int, tuple[int, tuple[int, ...]]] | None = None
) -> str:
    parts = [node_name(path[0], size, groups)]
    for k, node in enumerate(path[1:]):
        parts.append("=" if k % 2 == 0 else "-")
        parts.append(node_name(node, size, groups))
    return "".join(parts)


def _search(state: State, mode: str, name: str) -> Iterator[Step]:
    if mode != "x":
        yield from _chains(state, mode, name, skip=frozenset())
        return
    # An X-chain lies on one digit: digits whose places gave no chain before are skipped, and
    # after a whole search every digit that gave none is remembered (see memo.py).
    size = state.geo.size
    places = digit_places(state)
    skip = frozenset(d0 for d0 in range(size) if known_empty("x-chain", size, d0 + 1, places[d0]))
    if len(skip) == size:
        return
    found: set[int] = set()
    for step in _chains(state, mode, name, skip):
        found.add(step.extra["digits"][0] - 1)
        yield step
    for d0 in range(size):
        if d0 not in skip and d0 not in found:
            note_empty("x-chain", size, d0 + 1, places[d0])


_MODES = {"x": 0, "xy": 1, "aic": 2, "grouped": 3}
"""The chain_scan code of each graph mode (_kernel_logic.c)."""


def _chain_ends(
    g: Graph, mode: str, skip: frozenset[int], base: int
) -> Iterator[tuple[int, int, list[int]]]:
    """(start, end, path) of every chain of the graph that eliminates something, start by
    start (g.nodes order, digits in skip left out), ends in breadth-first order; for "xy"
    only ends of the start's digit, for "x" and "xy" only ends in another cell, for "grouped"
    only chains through a group. Node ids below `base` are candidates, the rest groups."""
    loops = compiled.LOOPS
    size = g.size
    if loops is not None:
        limit = max(base, max(g.nodes, default=0) + 1)
        skip_mask = sum(1 << d0 for d0 in skip)
        at = 0
        while True:
            found = loops.chain_scan(
                g.nodes, g.strong, g.weak, g.full_weak, g.present, size, base,
                _MODES[mode], skip_mask, at, limit,
            )  # fmt: skip
            if found is None:
                return
            at, s, ends = found
            for e, path in ends:
                yield s, e, list(path)
    for s in g.nodes:
        if not g.strong.get(s) or s % size in skip:
            continue
        ws = g.full_weak[s] & g.present & ~(1 << s)
        if not ws:
            continue
        for e, on_parent, off_parent in chains_from(g, s):
            if not ws & g.full_weak[e] & ~(1 << e):
                continue
            if mode == "xy" and (e % size != s % size or e // size == s // size):
                continue
            if mode == "x" and e // size == s // size:
                continue
            path = _path(e, on_parent, off_parent)
            if mode == "grouped" and not any(node >= base for node in path):
                continue
            yield s, e, path


def _chains(state: State, mode: str, name: str, skip: frozenset[int]) -> Iterator[Step]:
    """The chains of the graph of `mode`, from every start node whose digit is not in skip."""
    g = graph(state, mode, skip)
    size = g.size
    groups = g.groups or {}
    seen: set[frozenset[int]] = set()

    def cells_of(node: int) -> tuple[int, ...]:
        return groups[node][1] if node in groups else (node // size,)

    def digit_of(node: int) -> int:
        return groups[node][0] if node in groups else node % size + 1

    for s, e, path in _chain_ends(g, mode, skip, state.geo.ncells * size):
        ws = g.full_weak[s] & g.present & ~(1 << s)
        elim = ws & g.full_weak[e] & ~(1 << e)
        key = frozenset(set_bits(elim))
        if key in seen:
            continue
        seen.add(key)
        el = [(node // size, node % size + 1) for node in set_bits(elim)]
        cells = sorted({i for node in path for i in cells_of(node)})
        digits = sorted({digit_of(node) for node in path})
        label = {
            "x": f"X-Chain on {digits[0]}",
            "xy": "XY-Chain",
            "aic": "AIC",
            "grouped": "Grouped AIC",
        }[mode]
        yield make_step(
            name,
            f"{label}: {chain_text(path, size, groups)}, so {node_name(s, size, groups)} or "
            f"{node_name(e, size, groups)} is true: {elim_text(el, size)}",
            size,
            eliminate=el,
            reasons=cells,
            digits=digits,
            chain=[
                [[i // size, i % size] for i in cells_of(node)] + [digit_of(node)] for node in path
            ],
        )


def find_grouped_aic(state: State) -> Iterator[Step]:
    return _search(state, "grouped", "Grouped AIC")


def find_x_chain(state: State) -> Iterator[Step]:
    return _search(state, "x", "X-Chain")


def find_xy_chain(state: State) -> Iterator[Step]:
    return _search(state, "xy", "XY-Chain")


def find_aic(state: State) -> Iterator[Step]:
    return _search(state, "aic", "AIC")


def find_remote_pair(state: State, max_cells: int = 10) -> Iterator[Step]:
    """A chain of cells holding the same two digits, each seeing the next: cells an odd
    number of links apart hold different digits, so both digits leave their common peers."""
    geo = state.geo
    size = geo.size
    cands = state.cands
    peers = geo.peer_sets
    by_mask: dict[int, list[int]] = {}
    for i, m in enumerate(cands):
        if m.bit_count() == 2:
            by_mask.setdefault(m, []).append(i)
    seen: set[frozenset[tuple[int, int]]] = set()
    for m, cells in by_mask.items():
        if len(cells) < 4:
            continue
        adj = {i: [j for j in cells if j in peers[i]] for i in cells}
        a, b = (d0 + 1 for d0 in range(size) if m >> d0 & 1)
        stack: list[list[int]] = [[i] for i in cells]
        budget = 20000
        while stack and budget:
            budget -= 1
            path = stack.pop()
            if len(path) >= 4:
                el: set[tuple[int, int]] = set()
                on_path = set(path)
                for x in range(len(path)):
                    for y in range(x + 3, len(path), 2):
                        for t in peers[path[x]] & peers[path[y]]:
                            if t not in on_path:
                                for d in (a, b):
                                    if cands[t] >> (d - 1) & 1:
                                        el.add((t, d))
                key = frozenset(el)
                if el and key not in seen:
                    seen.add(key)
                    yield make_step(
                        "Remote Pair",
                        f"Remote pair {a}{b}: "
                        + "-".join(cell_name(i, size) for i in path)
                        + f" alternate between {a} and {b}, so their common peers hold neither: "
                        + elim_text(el, size),
                        size,
                        eliminate=el,
                        reasons=path,
                        digits=[a, b],
                    )
            if len(path) < max_cells:
                for j in adj[path[-1]]:
                    if j not in path:
                        stack.append([*path, j])


def _loop_back(g: Graph, c: int, start_on: bool) -> list[tuple[int, bool]] | None:
    """Breadth-first implications from c on (or off) until c itself flips; the chain as
    (node, is_on) pairs, or None."""
    parent: dict[tuple[int, bool], tuple[int, bool] | None] = {(c, start_on): None}
    frontier = [(c, start_on)]
    while frontier:
        nxt: list[tuple[int, bool]] = []
        for node, on in frontier:
            m = g.weak.get(node, 0) if on else g.strong.get(node, 0)
            for y in set_bits(m):
                state = (y, not on)
                if state in parent:
                    continue
                parent[state] = (node, on)
                if y == c:
                    path = [state]
                    back = parent[state]
                    while back is not None:
                        path.append(back)
                        back = parent[back]
                    path.reverse()
                    return path
                nxt.append(state)
        frontier = nxt
    return None


def _loop_text(path: list[tuple[int, bool]], g: Graph) -> str:
    parts = []
    for k, (node, _on) in enumerate(path):
        if k:
            parts.append("=" if path[k - 1][1] is False else "-")
        parts.append(node_name(node, g.size, g.groups))
    return "".join(parts)


def _dnl(state: State, grouped: bool) -> Iterator[Step]:
    g = grouped_graph(state) if grouped else graph(state, "aic")
    size = g.size
    groups = g.groups or {}
    name = "Grouped Discontinuous Nice Loop" if grouped else "Discontinuous Nice Loop"
    for c in g.nodes:
        if c in groups:
            continue
        i, d = c // size, c % size + 1
        for start_on in (False, True):
            path = _loop_back(g, c, start_on)
            if path is None or len(path) < 4:
                continue
            if grouped and not any(node in groups for node, _ in path):
                continue
            if start_on:
                el = [(i, d)]
                what = f"{node_name(c, size)} being true makes it false"
            else:
                el = [(i, x) for x in range(1, size + 1) if x != d and state.has(i, x)]
                what = f"{node_name(c, size)} being false makes it true"
            if not el:
                continue
            yield make_step(
                name,
                f"{name}: {_loop_text(path, g)}: {what}: {elim_text(el, size)}",
                size,
                eliminate=el,
                reasons=sorted(
                    {
                        j
                        for node, _ in path
                        for j in (groups[node][1] if node in groups else (node // size,))
                    }
                ),
                digits=[d],
            )


def find_dnl(state: State) -> Iterator[Step]:
    return _dnl(state, False)


def find_grouped_dnl(state: State) -> Iterator[Step]:
    return _dnl(state, True)


def _cnl(state: State, grouped: bool) -> Iterator[Step]:
    """Continuous nice loops: an AIC whose ends are weakly linked closes into a loop; then
    every weak link of the loop is strong too, and what sees both its ends goes."""
    g = grouped_graph(state) if grouped else graph(state, "aic")
    size = g.size
    groups = g.groups or {}
    name = "Grouped Continuous Nice Loop" if grouped else "Continuous Nice Loop"
    seen: set[frozenset[int]] = set()
    for s in g.nodes:
        if not g.strong.get(s):
            continue
        for e, on_parent, off_parent in chains_from(g, s):
            if not g.weak.get(e, 0) >> s & 1:
                continue
            path = _path(e, on_parent, off_parent)
            if len(set(path)) != len(path):
                continue
            if grouped and not any(node in groups for node in path):
                continue
            loop = set(path)
            elim = 0
            # weak links: path[1]-path[2], path[3]-path[4], ..., and the closing e-s
            pairs = [(path[k], path[k + 1]) for k in range(1, len(path) - 1, 2)]
            pairs.append((e, s))
            for u, v in pairs:
                elim |= g.full_weak[u] & g.full_weak[v]
            elim &= g.present
            for node in loop:
                elim &= ~(1 << node)
            if not elim:
                continue
            key = frozenset(set_bits(elim))
            if key in seen:
                continue
            seen.add(key)
            el = [(node // size, node % size + 1) for node in set_bits(elim)]
            yield make_step(
                name,
                f"{name}: {chain_text(path, size, groups)}-{node_name(s, size, groups)}: "
                f"{elim_text(el, size)}",
                size,
                eliminate=el,
                reasons=sorted(
                    {
                        j
                        for node in path
                        for j in (groups[node][1] if node in groups else (node // size,))
                    }
                ),
            )


def find_cnl(state: State) -> Iterator[Step]:
    return _cnl(state, False)


def find_grouped_cnl(state: State) -> Iterator[Step]:
    return _cnl(state, True)


def find(state: State) -> Iterator[Step]:
    yield from find_remote_pair(state)
    yield from find_x_chain(state)
    yield from find_xy_chain(state)
    yield from find_aic(state)
    yield from find_grouped_aic(state)
    yield from find_cnl(state)
    yield from find_dnl(state)
