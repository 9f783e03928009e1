"""Simple colours (trap and wrap) and multi-colours on the conjugate pairs of one digit."""

from __future__ import annotations

from collections.abc import Iterator

from pencilbox.core.step import Step

from .memo import each_digit
from .sdp import strong_links
from .state import State, cells_text
from .techniques import elim_text, make_step

Colouring = tuple[list[int], list[int]]


def colourings(state: State, d: int) -> list[Colouring]:
    """Connected components of the conjugate-pair graph of d, two-coloured."""
    adj: dict[int, list[int]] = {}
    for a, b, _ in strong_links(state, d):
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    colour: dict[int, int] = {}
    out: list[Colouring] = []
    for start in sorted(adj):
        if start in colour:
            continue
        colour[start] = 0
        parts: Colouring = ([start], [])
        stack = [start]
        while stack:
            x = stack.pop()
            for y in adj[x]:
                if y not in colour:
                    colour[y] = 1 - colour[x]
                    parts[colour[y]].append(y)
                    stack.append(y)
        out.append((sorted(parts[0]), sorted(parts[1])))
    return out


def _sees_any(state: State, i: int, cells: list[int]) -> bool:
    ps = state.geo.peer_sets[i]
    return any(j in ps for j in cells)


def find_simple_colors(state: State) -> Iterator[Step]:
    return each_digit(state, "simple colors", lambda d: _simple_colors_on(state, d))


def _simple_colors_on(state: State, d: int) -> Iterator[Step]:
    size = state.geo.size
    peers = state.geo.peer_sets
    dcells = state.digit_cells(d)
    for on, off in colourings(state, d):
        coloured = set(on) | set(off)
        # wrap: two cells of one colour see each other, so that colour is false
        for bad, good in ((on, off), (off, on)):
            if any(b in peers[a] for a in bad for b in bad if a < b):
                el = [(i, d) for i in bad]
                yield make_step(
                    "Simple Colors",
                    f"Simple colors wrap on {d}: {cells_text(bad, size)} share one colour "
                    f"and two of them see each other, so {cells_text(good, size)} hold "
                    f"{d}: {elim_text(el, size)}",
                    size,
                    eliminate=el,
                    reasons=on + off,
                    digits=[d],
                    variant="wrap",
                )
        el = [
            (i, d)
            for i in dcells
            if i not in coloured and _sees_any(state, i, on) and _sees_any(state, i, off)
        ]
        if el:
            yield make_step(
                "Simple Colors",
                f"Simple colors trap on {d}: either {cells_text(on, size)} or "
                f"{cells_text(off, size)} hold {d}: {elim_text(el, size)}",
                size,
                eliminate=el,
                reasons=on + off,
                digits=[d],
                variant="trap",
            )


def find_multi_colors(state: State) -> Iterator[Step]:
    """Two clusters of one digit: all their consequences in one step (as HoDoKu reports)."""
    return each_digit(state, "multi colors", lambda d: _multi_colors_on(state, d))


def _multi_colors_on(state: State, d: int) -> Iterator[Step]:
    size = state.geo.size
    peers = state.geo.peer_sets

    def sees(xs: list[int], ys: list[int]) -> bool:
        return any(y in peers[x] for x in xs for y in ys)

    comps = colourings(state, d)
    if len(comps) < 2:
        return
    dcells = state.digit_cells(d)
    for ci in range(len(comps)):
        for cj in range(ci + 1, len(comps)):
            c1, c2 = comps[ci], comps[cj]
            coloured = set(c1[0]) | set(c1[1]) | set(c2[0]) | set(c2[1])
            el: set[tuple[int, int]] = set()
            notes = []
            false_colours = []
            for mine, theirs in ((c1, c2), (c2, c1)):
                for a in mine:
                    # colour a sees both colours of the other cluster: a is false
                    if sees(a, theirs[0]) and sees(a, theirs[1]):
                        el.update((i, d) for i in a)
                        false_colours.append(a)
                        notes.append(f"{cells_text(a, size)} see both colours of the other")
            for a, a_other in ((c1[0], c1[1]), (c1[1], c1[0])):
                for b, b_other in ((c2[0], c2[1]), (c2[1], c2[0])):
                    # type 2: a sees b, so a_other or b_other holds d
                    if not sees(a, b):
                        continue
                    found = {
                        (i, d)
                        for i in dcells
                        if i not in coloured
                        and _sees_any(state, i, a_other)
                        and _sees_any(state, i, b_other)
                    }
                    if found:
                        el |= found
                        notes.append(
                            f"{cells_text(a_other, size)} or {cells_text(b_other, size)} hold {d}"
                        )
            if el:
                yield make_step(
                    "Multi-Colors",
                    f"Multi-colors on {d} with clusters {cells_text(c1[0] + c1[1], size)} "
                    f"and {cells_text(c2[0] + c2[1], size)}: {'; '.join(notes)}: "
                    f"{elim_text(el, size)}",
                    size,
                    eliminate=el,
                    reasons=sorted(coloured),
                    digits=[d],
                )
            for a in false_colours:
                only = [(i, d) for i in a]
                if len(only) < len(el):
                    yield make_step(
                        "Multi-Colors",
                        f"Multi-colors on {d}: {cells_text(a, size)} see both colours of "
                        f"another cluster, so they cannot hold {d}: {elim_text(only, size)}",
                        size,
                        eliminate=only,
                        reasons=sorted(coloured),
                        digits=[d],
                    )


def find(state: State) -> Iterator[Step]:
    yield from find_simple_colors(state)
    yield from find_multi_colors(state)
