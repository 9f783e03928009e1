"""Grids travel between processes (batch workers) as their fields, and come back equal."""

from __future__ import annotations

import copy
import pickle

import pytest

from pencilbox.core.grid import Grid


def test_a_grid_survives_pickling_and_copying() -> None:
    grid = Grid(3, 2, (0, 1, -1, 255, 256, 7))
    for again in (pickle.loads(pickle.dumps(grid)), copy.copy(grid), copy.deepcopy(grid)):
        assert again == grid
        assert hash(again) == hash(grid)
        assert isinstance(again, Grid)


def test_an_unpickled_grid_is_checked_like_a_new_one() -> None:
    broken = pickle.dumps(Grid(2, 2, (1, 2, 3, 4))).replace(b"K\x02K\x02", b"K\x02K\x03")
    with pytest.raises(ValueError, match="needs 6 cells"):
        pickle.loads(broken)
