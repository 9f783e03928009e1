"""The puzzle's layout as a witness for its givens.

Most published sudokus place their givens symmetrically: a cell holds a given exactly when
the cell turned half round the grid's centre does (50 of the 66 newspaper photos of
../shared/data). A player fills empty cells, and in a symmetric puzzle the partner of an
empty cell is empty: so a glyph whose partner is a given, in a grid whose givens all have
their partner, is a given by the layout, whatever its ink looks like. This is evidence of
another kind than the ink's looks: the picture reader (genres/sudoku/picture.py) takes a
glyph it doubted for its colour alone for a given when the layout says so, and when it
does not also look another kind (ink_kinds.unlike_votes). The givens of an asymmetric
puzzle almost never all have their partner by chance (a few dozen cells out of 81), so
there the doubts stay as they were.
"""

from __future__ import annotations

Cell = tuple[int, int]


def partner(cell: Cell, size: int) -> Cell:
    """The cell turned half round the centre of a grid of `size`."""
    return (size - 1 - cell[0], size - 1 - cell[1])


SURE_PAIRS = 0.75
"""The share of the sure givens whose partner is a sure given too, at the least, for a
symmetric layout: a grid that a player has mostly filled with entries close to the givens'
ink has every cell held, symmetric or not, but there the sure givens pair up only by chance
(about as often as a cell holds a given)."""


def symmetric(sure: set[Cell], doubted: set[Cell], size: int, least: int) -> bool:
    """True when the grid's `sure` givens (at least `least` of them) all have a partner
    that holds a glyph, sure or `doubted`, and most (SURE_PAIRS) a sure one."""
    held = sure | doubted
    if len(sure) < least or not all(partner(cell, size) in held for cell in sure):
        return False
    paired = sum(1 for cell in sure if partner(cell, size) in sure)
    return paired >= SURE_PAIRS * len(sure)


def givens_by_layout(sure: set[Cell], doubted: set[Cell], size: int, least: int) -> set[Cell]:
    """The `doubted` cells whose partner is a `sure` given, in a grid laid out
    symmetrically (`symmetric`); none otherwise. The centre cell is its own partner and
    has no witness."""
    if not doubted or not symmetric(sure, doubted, size, least):
        return set()
    return {cell for cell in doubted if partner(cell, size) in sure and partner(cell, size) != cell}
