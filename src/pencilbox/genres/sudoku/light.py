"""How a photo's light tints the print from place to place, measured on the ruled lines.

Uneven light (a shadow, a lamp's colour, a page bending away from the lens) moves the print's
colour by place: the givens in one corner of a photo come out greener and bolder than the
rest, and measured against all the givens they look like another kind of ink (a player's
entry). The ruled lines are print too, and they run through every part of the board: how
their colour moves from place to place is how the light moves the print's. So a glyph's
tint is measured against the lines' tint where it stands, not against the whole board's.

The lines' tint is measured cell by cell (the lines within a cell of it) and a smooth
surface is fitted to it, so that the noise of one cell (a small JPEG's blocks) does not move
a glyph. Only the surface's changes count, not its level: an app may rule its lines in
another colour than its givens, the same everywhere. And where the surface explains none of
the givens' spread (an evenly lit screenshot), the tints are left as they were: removing a
surface made of noise would blur real differences.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from pencilbox.core.vision.glyphs import Blob

LEAST_PIXELS = 5
"""The fewest line pixels (and ground pixels) for a cell's line colour to be measured."""
STEADIER = 0.8
"""The givens' tints are taken in their local light only when that leaves them at most this
share of the spread they have as measured."""


def line_shifts(
    colour: npt.NDArray[Any],
    mask: npt.NDArray[Any],
    glyphs: list[Blob],
    cell: int,
    size: int,
) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
    """For every cell of a straightened board (`size` cells of `cell` pixels a side; row by
    row), how far the ruled lines' pixels within a cell of it lie from the ground there, in
    LAB (the means of both); and whether there were enough of them to tell. `mask` is the
    board's ink, `glyphs` the characters' boxes, left out (a line is ink that is no
    character)."""
    lab = cv2.cvtColor(colour, cv2.COLOR_BGR2LAB).astype(np.float32)
    lines = mask > 0
    for box in glyphs:
        lines[max(0, box.y0 - 2) : box.y1 + 2, max(0, box.x0 - 2) : box.x1 + 2] = False
    ground = cv2.dilate(mask, np.ones((3, 3), np.uint8)) == 0
    line_sum, line_count = _around_each_cell(lab, lines, cell, size)
    ground_sum, ground_count = _around_each_cell(lab, ground, cell, size)
    measured = (line_count >= LEAST_PIXELS) & (ground_count >= LEAST_PIXELS)
    shifts = np.zeros((size * size, 3), np.float32)
    shifts[measured] = (
        line_sum[measured] / line_count[measured, None]
        - ground_sum[measured] / ground_count[measured, None]
    )
    return shifts, measured


def _around_each_cell(
    lab: npt.NDArray[Any], where: npt.NDArray[Any], cell: int, size: int
) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
    """The sum of `lab` over the pixels `where` is set, and their count, in each cell's
    block of three by three cells (cut at the board's edge), one row a cell."""
    kept = lab * where[..., None]
    # the rows within each cell first: summing both axes at once is twice as slow
    sums = kept.reshape(size, cell, size, cell, 3).sum(axis=1).sum(axis=2, dtype=np.float64)
    counts = where.reshape(size, cell, size, cell).sum(axis=(1, 3)).astype(np.float64)
    return _three_by_three(sums).reshape(-1, 3), _three_by_three(counts).reshape(-1)


def _three_by_three(grid: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """Each cell's value summed with its eight neighbours' (none beyond the edge)."""
    padded = np.pad(grid, [(1, 1), (1, 1)] + [(0, 0)] * (grid.ndim - 2))
    rows, cols = grid.shape[:2]
    total: npt.NDArray[Any] = sum(
        (padded[dr : dr + rows, dc : dc + cols] for dr in range(3) for dc in range(3)),
        np.zeros_like(grid),
    )
    return total


def smooth_surface(
    values: npt.NDArray[Any], measured: npt.NDArray[Any], size: int
) -> npt.NDArray[Any]:
    """A quadratic surface over the board fitted to `values` (one row a cell, row by row)
    where `measured`, its value at every cell. Fitted by reweighted least squares, so that
    a few cells whose lines are not the print's (a highlighted cell, a pen stroke) do not
    bend it."""
    places = np.array([(r, c) for r in range(size) for c in range(size)], np.float64)
    terms = _quadratic_terms(places / max(size - 1, 1) - 0.5)
    rows, known = terms[measured], values[measured].astype(np.float64)
    weights = np.ones(len(known))
    for _ in range(5):
        root = np.sqrt(weights)[:, None]
        coefficients = np.linalg.lstsq(rows * root, known * root, rcond=None)[0]
        residual = known - rows @ coefficients
        scale = 1.4826 * np.median(np.abs(residual), axis=0) + 1e-3
        off = np.linalg.norm(residual / scale, axis=1)
        weights = np.minimum(1.0, 2.0 / np.maximum(off, 1e-9))  # Huber's, at 2 spreads
    surface: npt.NDArray[Any] = terms @ coefficients
    return surface


def _quadratic_terms(points: npt.NDArray[Any]) -> npt.NDArray[Any]:
    y, x = points[:, 0], points[:, 1]
    return np.column_stack([np.ones(len(points)), y, x, y * y, x * x, y * x])


def in_local_light(tints: npt.NDArray[Any], lines: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """The glyphs' `tints` measured against the lines' tint where each stands (`lines`, the
    surface at their cells): less the surface's departure from its median over them. As
    measured when that leaves their spread (the summed deviation of each axis) no smaller
    than STEADIER times what it was."""
    if len(tints) < 2:
        return tints
    local: npt.NDArray[Any] = tints - (lines - np.median(lines, axis=0))
    if float(local.std(axis=0).sum()) < STEADIER * float(tints.std(axis=0).sum()):
        return local
    return tints
