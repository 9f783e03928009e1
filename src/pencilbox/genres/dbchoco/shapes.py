"""Shapes of cell sets: normalising, the 8 symmetries of the square, a canonical form.

`canonical(cells)` is the smallest of the 8 normalised images (each translated so that its
minimum row and minimum column are 0, then sorted), so two cell sets are congruent under
translation, rotation and reflection exactly when their canonical forms are equal.
"""

from __future__ import annotations

from collections.abc import Iterable

from pencilbox.core.grid import Cell

Shape = tuple[Cell, ...]

TRANSFORMS: tuple[tuple[int, int, int, int], ...] = (
    (1, 0, 0, 1),  # identity
    (0, 1, -1, 0),  # rotate 90
    (-1, 0, 0, -1),  # rotate 180
    (0, -1, 1, 0),  # rotate 270
    (1, 0, 0, -1),  # mirror left-right
    (-1, 0, 0, 1),  # mirror up-down
    (0, 1, 1, 0),  # transpose
    (0, -1, -1, 0),  # anti-transpose
)
"""Each as a matrix (a, b, c, d): (r, c) -> (a*r + b*c, c'*r + d*c)."""


def apply(transform: int, vector: Cell) -> Cell:
    a, b, c, d = TRANSFORMS[transform]
    r, col = vector
    return (a * r + b * col, c * r + d * col)


def inverse(transform: int) -> int:
    for t in range(len(TRANSFORMS)):
        if apply(t, apply(transform, (1, 0))) == (1, 0) and apply(t, apply(transform, (0, 1))) == (
            0,
            1,
        ):
            return t
    raise AssertionError("every transform has an inverse")


INVERSE: tuple[int, ...] = tuple(inverse(t) for t in range(len(TRANSFORMS)))


def normalise(cells: Iterable[Cell]) -> Shape:
    """Translate so that the smallest row and column are 0; sorted."""
    items = list(cells)
    if not items:
        return ()
    r0 = min(r for r, _ in items)
    c0 = min(c for _, c in items)
    return tuple(sorted((r - r0, c - c0) for r, c in items))


def images(cells: Iterable[Cell]) -> list[Shape]:
    """The 8 normalised images of a cell set (with repeats for symmetric shapes)."""
    items = list(cells)
    return [normalise(apply(t, cell) for cell in items) for t in range(len(TRANSFORMS))]


def canonical(cells: Iterable[Cell]) -> Shape:
    return min(images(cells))


def congruent(first: Iterable[Cell], second: Iterable[Cell]) -> bool:
    a, b = list(first), list(second)
    return len(a) == len(b) and canonical(a) == canonical(b)
