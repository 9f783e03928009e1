"""Checking a colour grid against the clues: every violation, named by its line."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pencilbox.core.grid import Grid
from pencilbox.genres.nonogram.colour.cells import runs_of

if TYPE_CHECKING:
    from pencilbox.genres.nonogram.colour.model import ColourNonogram


def violations(puzzle: ColourNonogram, grid: Grid) -> list[str]:
    """Lines whose runs differ from their clue ("row 3: has 2 red, the clue is 3 red")."""
    if (grid.width, grid.height) != (puzzle.width, puzzle.height):
        return [
            f"the grid is {grid.width}x{grid.height}, the puzzle {puzzle.width}x{puzzle.height}"
        ]
    problems = []
    single = {1 << colour for colour in range(len(puzzle.colours))}
    open_cells = len(grid.cells) - sum(map(single.__contains__, grid.cells))
    if open_cells:
        problems.append(f"{open_cells} cells are still undecided")
    for kind, clues, lines in (
        ("row", puzzle.rows, grid.rows()),
        ("column", puzzle.cols, (grid.column(c) for c in range(grid.width))),
    ):
        for index, (clue, line) in enumerate(zip(clues, lines)):
            if open_cells and not single.issuperset(line):
                continue
            runs = runs_of(line)
            if runs != clue:
                problems.append(
                    f"{kind} {index + 1}: has {puzzle.format_clue(runs)}, "
                    f"the clue is {puzzle.format_clue(clue)}"
                )
    return problems
