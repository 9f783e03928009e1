"""XY-Wing, XYZ-Wing and W-Wing."""

from __future__ import annotations

from collections.abc import Iterator

from pencilbox.core.step import Step

from .sdp import strong_links
from .state import State, cell_name, digits_of, unit_name
from .techniques import elim_text, make_step


def _bivalue(state: State) -> list[int]:
    return [i for i, m in enumerate(state.cands) if m.bit_count() == 2]


def find_xy_wing(state: State) -> Iterator[Step]:
    geo = state.geo
    size = geo.size
    cands = state.cands
    peers = geo.peer_sets
    bv = _bivalue(state)
    for pivot in bv:
        pm = cands[pivot]
        wings = [i for i in bv if i in peers[pivot] and (cands[i] & pm).bit_count() == 1]
        for ai in range(len(wings)):
            for bi in range(ai + 1, len(wings)):
                a, b = wings[ai], wings[bi]
                ma, mb = cands[a], cands[b]
                if ma & mb & pm or (ma | mb) & pm != pm:
                    continue
                zm = ma & mb & ~pm
                if not zm:
                    continue
                z = zm.bit_length()
                el = [(i, z) for i in peers[a] & peers[b] if cands[i] & zm and i != pivot]
                if el:
                    x, y = digits_of(pm)
                    yield make_step(
                        "XY-Wing",
                        f"XY-Wing: pivot {cell_name(pivot, size)} ({x}{y}) with pincers "
                        f"{cell_name(a, size)} and {cell_name(b, size)}: one pincer is {z}, "
                        f"{elim_text(el, size)}",
                        size,
                        eliminate=el,
                        reasons=[pivot, a, b],
                        digits=[x, y, z],
                    )


def find_xyz_wing(state: State) -> Iterator[Step]:
    geo = state.geo
    size = geo.size
    cands = state.cands
    peers = geo.peer_sets
    bv = _bivalue(state)
    for pivot, pm in enumerate(cands):
        if pm.bit_count() != 3:
            continue
        wings = [i for i in bv if i in peers[pivot] and cands[i] & pm == cands[i]]
        for ai in range(len(wings)):
            for bi in range(ai + 1, len(wings)):
                a, b = wings[ai], wings[bi]
                ma, mb = cands[a], cands[b]
                if ma == mb:
                    continue
                zm = ma & mb
                if zm.bit_count() != 1:
                    continue
                z = zm.bit_length()
                common = peers[a] & peers[b] & peers[pivot]
                el = [(i, z) for i in common if cands[i] & zm]
                if el:
                    yield make_step(
                        "XYZ-Wing",
                        f"XYZ-Wing: pivot {cell_name(pivot, size)} "
                        f"({''.join(map(str, digits_of(pm)))}) with pincers "
                        f"{cell_name(a, size)} and {cell_name(b, size)}: one of them is {z}, "
                        f"{elim_text(el, size)}",
                        size,
                        eliminate=el,
                        reasons=[pivot, a, b],
                        digits=digits_of(pm),
                    )


def find_w_wing(state: State) -> Iterator[Step]:
    geo = state.geo
    size = geo.size
    cands = state.cands
    peers = geo.peer_sets
    bv = _bivalue(state)
    links_by_digit: dict[int, list[tuple[int, int, int]]] = {}
    for ai in range(len(bv)):
        for bi in range(ai + 1, len(bv)):
            a, b = bv[ai], bv[bi]
            if cands[a] != cands[b] or b in peers[a]:
                continue
            m = cands[a]
            common = peers[a] & peers[b]
            for y, x in (digits_of(m), digits_of(m)[::-1]):
                # a strong link on y with one end seeing a and the other seeing b
                if y not in links_by_digit:
                    links_by_digit[y] = strong_links(state, y)
                el = [(i, x) for i in common if cands[i] >> (x - 1) & 1]
                if not el:
                    continue
                for p, q, u in links_by_digit[y]:
                    if {p, q} & {a, b}:
                        continue
                    if (p in peers[a] and q in peers[b]) or (p in peers[b] and q in peers[a]):
                        yield make_step(
                            "W-Wing",
                            f"W-Wing: {cell_name(a, size)} and {cell_name(b, size)} hold "
                            f"{x}{y} and the strong link on {y} {cell_name(p, size)}="
                            f"{cell_name(q, size)} in {unit_name(u, size)} joins them, so one "
                            f"of them is {x}: {elim_text(el, size)}",
                            size,
                            eliminate=el,
                            reasons=[a, b, p, q],
                            digits=sorted((x, y)),
                        )
                        break


def find(state: State) -> Iterator[Step]:
    yield from find_xy_wing(state)
    yield from find_xyz_wing(state)
    yield from find_w_wing(state)
