"""A small reader for HoDoKu library lines (9x9 only).

`:<code>[-variant]:<digits>:<grid, '+' before placed non-givens>:<deleted 'drc'>:`
`<eliminations 'drc'>:<placements 'drc'>:<extra>`; candidate triples are digit, row, column
(1-based), separated by blanks.
"""

from __future__ import annotations

from dataclasses import dataclass

from .state import State


@dataclass(frozen=True, slots=True)
class LibraryLine:
    code: str
    variant: str
    digits: tuple[int, ...]
    values: tuple[int, ...]
    givens: tuple[int, ...]
    deleted: tuple[tuple[int, int], ...]
    eliminations: frozenset[tuple[int, int]]
    placements: frozenset[tuple[int, int]]
    text: str

    @property
    def fail_case(self) -> bool:
        return self.variant == "x"

    def state(self) -> State:
        return State.from_pm(3, self.values, self.deleted, self.givens)


def _triples(field: str) -> list[tuple[int, int]]:
    out = []
    for tok in field.split():
        if len(tok) != 3 or not tok.isdigit():
            raise ValueError(f"bad candidate {tok!r}")
        d, r, c = int(tok[0]), int(tok[1]), int(tok[2])
        out.append(((r - 1) * 9 + (c - 1), d))
    return out


def parse_line(line: str) -> LibraryLine:
    text = line.strip()
    if not text.startswith(":"):
        raise ValueError("a library line starts with ':'")
    parts = text.split(":")
    if len(parts) < 7:
        raise ValueError(f"expected at least 6 fields, got {len(parts) - 1}")
    code_field, digits_field, grid, deleted, elims, places = parts[1:7]
    code, _, variant = code_field.partition("-")
    values: list[int] = []
    givens: list[int] = []
    plus = False
    for ch in grid:
        if ch == "+":
            plus = True
            continue
        v = 0 if ch in ".0" else int(ch)
        values.append(v)
        givens.append(0 if plus else v)
        plus = False
    if len(values) != 81:
        raise ValueError(f"grid has {len(values)} cells, expected 81")
    return LibraryLine(
        code=code,
        variant=variant,
        digits=tuple(int(ch) for ch in digits_field if ch.isdigit()),
        values=tuple(values),
        givens=tuple(givens),
        deleted=tuple(_triples(deleted)),
        eliminations=frozenset(_triples(elims)),
        placements=frozenset(_triples(places)),
        text=text,
    )


def read_library(path: str) -> list[LibraryLine]:
    out = []
    with open(path, encoding="utf-8") as fh:
        for raw in fh:
            if raw.startswith(":"):
                out.append(parse_line(raw))
    return out
