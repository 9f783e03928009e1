"""How a sudoku is played in a session: digits in the open cells, pencil marks, hints from the
technique ladder."""

from __future__ import annotations

from typing import Any

from pencilbox.core.grid import Cell, Grid, cell_name, cells_of
from pencilbox.core.step import Step

SUDOKU_SYMBOLS = ".123456789ABCDEFGHIJKLMNOP"
"""State symbols for every board size: "." empty, then digits 1..25 (not the puzzle's alphabet,
which the page uses for display)."""


class SudokuPlay:
    genre = "sudoku"
    symbols = SUDOKU_SYMBOLS
    marks = True
    """Pencil marks (candidates the player notes in a cell) are moves too: r3c4+5, r3c4-5."""

    def initial(self, puzzle: Any) -> Grid:
        return Grid(puzzle.size, puzzle.size, tuple(puzzle.values()))

    def cleared(self, puzzle: Any, grid: Grid) -> Grid:
        given: Grid = puzzle.givens
        return given

    def editable(self, puzzle: Any, cell: Cell) -> bool:
        return not puzzle.givens[cell]

    def value_count(self, puzzle: Any) -> int:
        return int(puzzle.size) + 1

    def hint(self, puzzle: Any, grid: Grid, solution: Grid | None) -> Step | None:
        """The next step of the technique ladder from this state (entries count as givens);
        wrong entries (against the unique solution) or duplicates come first."""
        from pencilbox.genres.sudoku.logic import State, next_step
        from pencilbox.genres.sudoku.model import duplicate_messages

        wrong: list[Cell] = []
        if solution is not None:
            wrong = [c for c in cells_of(grid) if grid[c] and grid[c] != solution[c]]
        if wrong:
            names = ", ".join(cell_name(c) for c in wrong[:8])
            more = f" and {len(wrong) - 8} more" if len(wrong) > 8 else ""
            one = len(wrong) == 1
            return Step(
                "mistake",
                0,
                tuple((cell, 0) for cell in wrong),
                f"{names}{more} {'is' if one else 'are'} wrong: clear "
                f"{'it' if one else 'them'} and think again.",
                reasons=tuple(wrong),
            )
        values = list(grid.cells)
        duplicates = duplicate_messages(values, puzzle.n, puzzle.alphabet)
        if duplicates:
            return Step("contradiction", 1, (), duplicates[0] + ": clear one of them.")
        if 0 not in values:
            return None
        state = State.from_givens(puzzle.n, values)
        if not state.is_consistent():
            return Step(
                "contradiction",
                1,
                (),
                "Some cell has no candidate left: an entry is wrong, look for a mistake.",
            )
        return next_step(state)

    def single_pass(self, puzzle: Any, grid: Grid) -> tuple[list[Step], Grid]:
        """Accept singles: every full house, naked and hidden single of this state at once."""
        from pencilbox.genres.sudoku.logic import accept_singles
        from pencilbox.genres.sudoku.model import duplicate_messages

        values = list(grid.cells)
        if duplicate_messages(values, puzzle.n, puzzle.alphabet):
            return [], grid
        out, steps = accept_singles(puzzle.n, values)
        return steps, Grid(grid.width, grid.height, tuple(out))

    def check(self, puzzle: Any, grid: Grid, solution: Grid | None) -> dict[str, Any]:
        from pencilbox.genres.sudoku.model import duplicate_messages

        values = list(grid.cells)
        violations = duplicate_messages(values, puzzle.n, puzzle.alphabet)
        wrong: list[Cell] = []
        if solution is not None:
            wrong = [c for c in cells_of(grid) if grid[c] and grid[c] != solution[c]]
        unknown = values.count(0)
        return {
            "solved": unknown == 0 and not violations,
            "violations": violations,
            "lines": [],
            "wrong": [list(c) for c in wrong],
            "unknown": unknown,
        }

    def progress(self, puzzle: Any, grid: Grid) -> float:
        open_cells = int(puzzle.givens.cells.count(0))
        if not open_cells:
            return 1.0
        return 1.0 - grid.cells.count(0) / open_cells

    def puzzle_json(self, puzzle: Any) -> dict[str, Any]:
        return {
            "genre": self.genre,
            "title": puzzle.title,
            "n": puzzle.n,
            "size": puzzle.size,
            "width": puzzle.size,
            "height": puzzle.size,
            "alphabet": puzzle.alphabet,
            "symbols": self.symbols[: puzzle.size + 1],
            "givens": "".join(self.symbols[v] for v in puzzle.givens.cells),
            "line": puzzle.line(),
        }
