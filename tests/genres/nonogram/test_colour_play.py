"""The play rules of colour nonograms (genres/nonogram/colour/play.py through NonogramPlay): the
cell values of a game, grid moves in their symbols, passes that never stall on colours ruled
out but not decided, and a palette too large to play."""

from __future__ import annotations

import pytest

from pencilbox.errors import MoveError, PuzzleError
from pencilbox.genres.nonogram.colour import play
from pencilbox.genres.nonogram.colour.model import Colour, make_colour_puzzle
from pencilbox.genres.nonogram.logic import decided, propagate_all
from pencilbox.session import Game, state_text

RED, BLUE = Colour("red", "r", "#ff0000"), Colour("blue", "b", "#0000ff")


def test_values_and_colours_map_both_ways() -> None:
    assert [play.value_of_colour(c) for c in range(5)] == [2, 1, 3, 4, 5]
    assert [play.colour_of_value(v) for v in range(6)] == [None, 1, 0, 2, 3, 4]
    assert play.value_of_mask(0b110) == play.UNKNOWN and play.value_of_mask(0b100) == 3


def test_a_game_plays_grid_moves_in_its_symbols() -> None:
    puzzle = make_colour_puzzle(
        [RED, BLUE], [[(1, "red"), (1, "blue")], [(1, "blue")]], [[(1, "red")], [(2, "blue")]]
    )
    game = Game.new(puzzle)
    assert game.play("grid #3/.3")
    assert state_text(game.rules, game.state) == "#3/.3" and game.solved()
    with pytest.raises(MoveError, match="'4' is not one of"):
        game.play("grid #4/.3")
    game.undo()
    assert game.play("r2c1=2") and not game.solved()


def test_a_single_pass_goes_on_until_it_decides_a_cell() -> None:
    # The first pass of lines only rules colours out of cells (decides none): the game keeps
    # decided cells only, so the pass goes on with what it ruled out until cells are decided.
    puzzle = make_colour_puzzle(
        [RED, BLUE],
        [[(2, "blue")], [(1, "blue"), (1, "red")], [(1, "blue")], [(1, "blue"), (2, "red")]],
        [[(1, "blue")], [(1, "blue")]] + [[(1, "blue"), (1, "red")]] * 3,
    )
    masks = [puzzle.full_mask] * 20
    propagate_all(puzzle, masks, max_passes=1)
    assert masks != [puzzle.full_mask] * 20 and not any(decided(m) for m in masks)
    game = Game.new(puzzle)
    steps = game.single_pass()
    assert steps and game.progress() > 0 and "?" in state_text(game.rules, game.state)


def test_a_palette_too_large_to_play_is_refused() -> None:
    colours = [Colour(f"c{i}", ch, "#000000") for i, ch in enumerate(play.SYMBOLS[3:] + "!@#")]
    colours = colours[: play.MAX_COLOURS + 1]
    runs = [[(1, c.name)] for c in colours]
    puzzle = make_colour_puzzle(colours, [[(1, c.name) for c in colours]], runs)
    with pytest.raises(PuzzleError, match=f"at most {play.MAX_COLOURS}"):
        Game.new(puzzle)
