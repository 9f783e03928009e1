"""Reading Double Choco boards from puzz.link-style screenshots."""

from __future__ import annotations

import pytest

from pencilbox import pictures
from tests.pictures import draw, matches, never_silently_wrong


@pytest.mark.parametrize("style", ["dbchoco-puzzlink", "dbchoco-walls", "dbchoco-render"])
def test_boards_are_read_into_the_url(tmp_path, style):
    path, truth = draw(style, 3, tmp_path)
    reading = pictures.read(path)
    assert reading.genre == "dbchoco"
    assert matches(reading, truth), pictures.puzzle_text(reading)
    assert reading.status == "ok"
    assert pictures.puzzle_text(reading).startswith("https://puzz.link/p?dbchoco/")


def test_a_small_jpeg_board_is_right_or_flagged(tmp_path):
    path, truth = draw("dbchoco-jpeg", 1, tmp_path)
    never_silently_wrong(pictures.read(path, genre="dbchoco"), truth)


def test_cells_that_cannot_be_counted_are_an_error_not_a_made_up_board(tmp_path):
    from pencilbox.errors import FormatError

    # the dashed lines of this board repeat at half a cell across: 16x8 cells would be made
    # up (and without a number, since the digits no longer fit a cell); refused instead
    path, _ = draw("dbchoco-puzzlink", 1006, tmp_path)
    with pytest.raises(FormatError, match="are not square"):
        pictures.read(path, genre="dbchoco")
