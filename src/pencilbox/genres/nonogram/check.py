"""Checking a grid against the clues: every violation, named by its line."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from pencilbox.core.grid import Grid
from pencilbox.genres.nonogram.cells import UNKNOWN, format_clue, runs_of

if TYPE_CHECKING:
    from pencilbox.genres.nonogram.model import Nonogram


def violations(puzzle: Nonogram, grid: Grid) -> list[str]:
    """Lines whose filled cells do not form their clue ("row 3: has 2 1, the clue is 3")."""
    problems = []
    if (grid.width, grid.height) != (puzzle.width, puzzle.height):
        return [
            f"the grid is {grid.width}x{grid.height}, the puzzle {puzzle.width}x{puzzle.height}"
        ]
    if UNKNOWN in grid.cells:
        unknown = grid.cells.count(UNKNOWN)
        problems.append(f"{unknown} cells are still unknown")
    for kind, clues, lines in (
        ("row", puzzle.rows, list(grid.rows())),
        ("column", puzzle.cols, [grid.column(c) for c in range(grid.width)]),
    ):
        for index, (clue, line) in enumerate(zip(clues, lines)):
            if UNKNOWN in line:
                continue
            runs = runs_of(line)
            if runs != clue:
                problems.append(
                    f"{kind} {index + 1}: has {format_clue(runs)}, the clue is {format_clue(clue)}"
                )
    return problems


def broken_lines(problems: list[str]) -> list[dict[str, Any]]:
    """The lines that `violations` (or a colour puzzle's check) names, as the page marks them:
    {"kind": "row" | "column", "index": 0-based}."""
    lines = []
    for problem in problems:
        match = re.match(r"(row|column) (\d+):", problem)
        if match:
            lines.append({"kind": match.group(1), "index": int(match.group(2)) - 1})
    return lines
