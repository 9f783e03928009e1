"""Single-digit searches skip the digits whose places have not changed since they found nothing.

Fish, skyscrapers, kites, empty rectangles, colourings and X-chains look at one digit at a
time, and what they find on a digit depends only on the cells where that digit can still go.
Between two steps of a solving path most digits keep their places, so a search that found
nothing on a digit before finds nothing again: `each_digit` remembers (search, digit, places)
that gave nothing and goes straight to the next digit. The steps found, and their order, are
exactly those of the full search.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator
from typing import TypeVar

from pencilbox.core.step import Step

from .state import State

_NOTHING: set[tuple[str, int, int, int]] = set()
"""(search, board size, digit, cell mask of its places) known to give nothing."""
_NOTHING_MAX = 200_000
"""Past this many entries the set starts again (a few megabytes at most)."""


def digit_places(state: State) -> list[int]:
    """For each digit (index d-1), the mask of the cells where it can still go (cached)."""
    cached = state.cache.get("digit_places")
    if cached is None:
        places = [0] * state.geo.size
        for i, m in enumerate(state.cands):
            while m:
                low = m & -m
                places[low.bit_length() - 1] |= 1 << i
                m ^= low
        cached = state.cache["digit_places"] = places
    return cached  # type: ignore[return-value]


def known_empty(search: str, size: int, digit: int, places: int) -> bool:
    if len(_NOTHING) > _NOTHING_MAX:
        _NOTHING.clear()
    return (search, size, digit, places) in _NOTHING


def note_empty(search: str, size: int, digit: int, places: int) -> None:
    _NOTHING.add((search, size, digit, places))


def each_digit(
    state: State, search: str, on_digit: Callable[[int], Iterator[Step]]
) -> Iterator[Step]:
    """The steps of `on_digit(d)` for d = 1..N in order, skipping digits known to give none.

    `on_digit(d)` must depend only on the places of d (its cells), never on other digits."""
    size = state.geo.size
    places = digit_places(state)
    for d in range(1, size + 1):
        if known_empty(search, size, d, places[d - 1]):
            continue
        found = False
        for step in on_digit(d):
            found = True
            yield step
        if not found:
            note_empty(search, size, d, places[d - 1])


def forget() -> None:
    """Drop every remembered empty search (tests compare with and without them)."""
    _NOTHING.clear()
    _PARTS.clear()


def unit_keys(state: State) -> list[int]:
    """For each unit, its cells' candidates packed into one int (cached): two states whose
    unit has the same key hold the same candidates there."""
    cached = state.cache.get("unit_keys")
    if cached is None:
        cands = state.cands
        size = state.geo.size
        keys = []
        for unit in state.geo.units:
            key = 0
            for i in unit:
                key = key << size | cands[i]
            keys.append(key)
        cached = state.cache["unit_keys"] = keys
    return cached  # type: ignore[return-value]


Part = TypeVar("Part")


def each_part(
    search: str,
    parts: Iterable[tuple[Part, Hashable]],
    on_part: Callable[[Part], Iterator[Step]],
) -> Iterator[Step]:
    """The steps of `on_part(p)` for every (p, key) of `parts` in order, skipping the parts
    whose key is known to give none.

    The key must hold everything `on_part(p)` reads (e.g. the unit keys of the units it looks
    at), so that equal keys give equal steps."""
    for part, key in parts:
        entry = (search, key)
        if entry in _PARTS:
            continue
        found = False
        for step in on_part(part):
            found = True
            yield step
        if not found:
            if len(_PARTS) > _NOTHING_MAX:
                _PARTS.clear()
            _PARTS.add(entry)


_PARTS: set[tuple[str, Hashable]] = set()
"""(search, key) of the parts of a search (units, box-line pairs) known to give nothing."""
