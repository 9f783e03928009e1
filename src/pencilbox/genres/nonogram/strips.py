"""The clue strips of a nonogram picture: for each row the band left of the grid, one row
tall, and for each column the band above it, one column wide, cut from the straightened
picture (ink dark on a light ground) for a reader of whole clue lines (core/vision/lines).

Where a strip begins outside is where the clue area begins: its ruled edge if the lattice
rules it, else a little beyond the outermost character found beside the grid (open clue
areas, as on puzz.link, are mostly empty page; the page beyond them holds menus and
margins that are no clue)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from pencilbox.core.vision.lines import LineReading
from pencilbox.core.vision.reading import ReadNumber

MARGIN = 0.4
"""How far beyond the outermost character a strip reaches, in cells."""
BORDER = 0.12
"""How far short of the grid's edge line a strip ends, in cells: a grid's border is often
thick, and it is no part of a clue."""


@dataclass(frozen=True)
class Strip:
    kind: str
    """"row" or "col"."""
    line: int
    pixels: npt.NDArray[np.uint8]

    @property
    def vertical(self) -> bool:
        return self.kind == "col"


def clue_strips(
    turned: npt.NDArray[Any],
    xs: Sequence[float],
    ys: Sequence[float],
    pitch: float,
    outer: tuple[float | None, float | None],
) -> list[Strip]:
    """Every row's strip (top to bottom), then every column's (left to right). `outer` is
    the left edge of the row clues and the top of the column clues (None: no clue found
    there, so the strips are one cell deep)."""
    left, top = outer
    x0, x1 = _start(left, xs[0], pitch), xs[0] - BORDER * pitch
    y0, y1 = _start(top, ys[0], pitch), ys[0] - BORDER * pitch
    strips = [Strip("row", r, _crop(turned, x0, x1, ys[r], ys[r + 1])) for r in range(len(ys) - 1)]
    strips += [Strip("col", c, _crop(turned, xs[c], xs[c + 1], y0, y1)) for c in range(len(xs) - 1)]
    return strips


def _start(outermost: float | None, grid_edge: float, pitch: float) -> float:
    if outermost is None:
        return max(0.0, grid_edge - pitch)
    return max(0.0, min(outermost - MARGIN * pitch, grid_edge - pitch))


def _crop(image: npt.NDArray[Any], x0: float, x1: float, y0: float, y1: float) -> Any:
    h, w = image.shape[:2]
    a, b = max(0, round(x0)), min(w, round(x1))
    c, d = max(0, round(y0)), min(h, round(y1))
    return np.ascontiguousarray(image[c:d, a:b], dtype=np.uint8)


# -- the line reader as a second reader ---------------------------------------------------------
LineKey = tuple[str, int]
"""("row" or "col", line index)."""

SURE_LINE = 0.9
"""How sure the line reader must be of a line to doubt the glyph reading of it."""
SURE_TO_CONFIRM = 0.99
"""How sure it must be to settle the glyph reader's doubts where both read the same: on
drawn strips of fonts it never saw, none of its readings this sure was wrong, while at 0.9
a few in a hundred were (bench/results/lines.md)."""


def _by_line(numbers: Sequence[ReadNumber]) -> dict[LineKey, list[int]]:
    lines: dict[LineKey, list[int]] = {}
    for i, number in enumerate(numbers):
        lines.setdefault((number.kind, number.line), []).append(i)
    return lines


def _values(numbers: Sequence[ReadNumber], at: list[int]) -> tuple[int | None, ...]:
    """A line's numbers as read (a line read blank is the empty tuple)."""
    return tuple(numbers[i].value for i in at if numbers[i].value is not None or len(at) > 1)


def second_opinion(
    numbers: Sequence[ReadNumber], opinions: Mapping[LineKey, Sequence[LineReading]]
) -> list[ReadNumber]:
    """The numbers weighed against the line reader's readings of their lines. Where it is
    sure of the same numbers, a doubt of the glyph reader's is settled (two readers that
    work unlike each other, one cutting glyphs by hand-set gaps, one taught on whole lines,
    agreeing); where it is sure of other numbers, every number of the line is doubted."""
    out = list(numbers)
    for key, at in _by_line(numbers).items():
        readings = opinions.get(key)
        if not readings or readings[0].probability < SURE_LINE:
            continue
        best = readings[0]
        if _values(numbers, at) == best.numbers:
            if best.probability < SURE_TO_CONFIRM:
                continue
            for i, sure in zip(at, best.number_probabilities or (best.probability,), strict=False):
                if not out[i].confident and not out[i].changed:
                    out[i] = replace(out[i], confidence=max(out[i].confidence, sure))
        else:
            heard = " ".join(map(str, best.numbers)) or "no number"
            for i in at:
                # a line found blank, or a mark read as no number, keeps saying so
                keep = out[i].value is None and out[i].reason is not None
                out[i] = replace(
                    out[i],
                    confidence=min(out[i].confidence, 0.5),
                    reason=out[i].reason if keep else f"{DISAGREE}: {heard}",
                )
    return out


DISAGREE = "the line reader reads this line otherwise"


def _replaced_line(
    numbers: Sequence[ReadNumber], at: list[int], reading: LineReading
) -> list[ReadNumber]:
    """The line's numbers as the line reader reads it, marked as changed (placed where the
    line's first number was)."""
    first = numbers[at[0]]
    was = " ".join(str(numbers[i].value) for i in at if numbers[i].value is not None)
    reason = (
        f"read as {was or 'no number'} glyph by glyph; the line reader's "
        f"{' '.join(map(str, reading.numbers)) or 'no number'} makes the clues agree"
    )
    values: Sequence[int | None] = reading.numbers or (None,)
    sures = reading.number_probabilities or (reading.probability,) * len(values)
    return [
        replace(
            first,
            index=k,
            value=value,
            confidence=min(reading.probability, sures[min(k, len(sures) - 1)]),
            alternatives=(),
            changed=True,
            read_as=numbers[at[k]].value if k < len(at) else None,
            reason=reason,
        )
        for k, value in enumerate(values)
    ]


def with_lines(
    numbers: Sequence[ReadNumber], choice: Mapping[LineKey, LineReading]
) -> tuple[ReadNumber, ...]:
    """`numbers` with the lines of `choice` read as the line reader reads them."""
    lines = _by_line(numbers)
    out: list[ReadNumber] = []
    for i, number in enumerate(numbers):
        key = (number.kind, number.line)
        if key not in choice:
            out.append(number)
        elif lines[key][0] == i:
            out += _replaced_line(numbers, lines[key], choice[key])
    return tuple(out)


def line_repairs(
    numbers: Sequence[ReadNumber], opinions: Mapping[LineKey, Sequence[LineReading]]
) -> list[dict[LineKey, LineReading]]:
    """The line readings to try, most likely first, where the glyph reading broke the rules:
    every line the line reader is sure it reads otherwise, all at once; then each line it
    reads otherwise alone, surest first; then each with its second reading. At most
    `TRIES` (each is a solve)."""
    lines = _by_line(numbers)
    differing = sorted(
        (
            key
            for key, at in lines.items()
            if opinions.get(key) and opinions[key][0].numbers != _values(numbers, at)
        ),
        key=lambda key: -opinions[key][0].probability,
    )
    sure = [key for key in differing if opinions[key][0].probability >= SURE_LINE]
    tries: list[dict[LineKey, LineReading]] = []
    if len(sure) > 1:
        tries.append({key: opinions[key][0] for key in sure})
    tries += [{key: opinions[key][0]} for key in differing]
    tries += [{key: opinions[key][1]} for key in differing if len(opinions[key]) > 1]
    return tries[:TRIES]


TRIES = 12
