"""Checking a grid against the clues: every violation, named by its line."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from pencilbox.core.grid import Cell, Grid
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


def played_report(
    broken: list[str], problems: list[str], wrong: list[Cell], unknown: int
) -> dict[str, Any]:
    """The verdict on a played grid as the page shows it, either kind: solved when nothing is
    `broken` with the open cells taken as empty; `problems`, the clues that the player's marks
    already break, with their lines marked; the cells unlike the solution, if it is known."""
    return {
        "solved": not broken,
        "violations": problems,
        "lines": broken_lines(broken) if problems else [],
        "wrong": [list(c) for c in wrong],
        "unknown": unknown,
    }
