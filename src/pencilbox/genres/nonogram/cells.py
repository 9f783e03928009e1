"""The values of a black-and-white nonogram, below the puzzle class: the cell states
(UNKNOWN, FILLED, EMPTY), a clue (the run lengths of a line) and the text of grids and clues.
The engines (line, logic, search, check, render, explain) work on these; they know the puzzle
class (`model.Nonogram`) only as a type."""

from __future__ import annotations

from pencilbox.core.grid import Grid

UNKNOWN, FILLED, EMPTY = 0, 1, 2
SYMBOLS = {UNKNOWN: "?", FILLED: "#", EMPTY: "."}

Clue = tuple[int, ...]


def format_clue(clue: Clue) -> str:
    return " ".join(map(str, clue)) if clue else "0"


def clues_of(grid: Grid) -> tuple[tuple[Clue, ...], tuple[Clue, ...]]:
    """The row and column clues that a complete grid has."""
    rows = tuple(runs_of(grid.row(r)) for r in range(grid.height))
    cols = tuple(runs_of(grid.column(c)) for c in range(grid.width))
    return rows, cols


def runs_of(line: tuple[int, ...]) -> Clue:
    runs: list[int] = []
    length = 0
    for value in line:
        if value == FILLED:
            length += 1
        elif length:
            runs.append(length)
            length = 0
    if length:
        runs.append(length)
    return tuple(runs)


def grid_to_strings(grid: Grid) -> list[str]:
    return ["".join(SYMBOLS[v] for v in row) for row in grid.rows()]


def grid_from_strings(rows: list[str]) -> Grid:
    values = {"#": FILLED, "1": FILLED, "X": FILLED, ".": EMPTY, "0": EMPTY, "?": UNKNOWN}
    return Grid.from_rows([[values.get(ch, EMPTY) for ch in row] for row in rows])
