"""How a nonogram is played in a session: cells are unknown, filled or empty; hints come from
line logic, then probes, then the solver's trace. A colour puzzle's game has one value per
colour (colour/play.py says how), and every rule below hands colour puzzles over there."""

from __future__ import annotations

from typing import Any

from pencilbox.core.grid import Cell, Grid, cell_name, cells_of
from pencilbox.core.step import Step
from pencilbox.genres.nonogram.check import played_report
from pencilbox.genres.nonogram.colour import play as colour
from pencilbox.genres.nonogram.colour.model import ColourNonogram


class NonogramPlay:
    genre = "nonogram"
    symbols = colour.SYMBOLS
    """UNKNOWN, FILLED, EMPTY (`?#.`), then a colour puzzle's further colours."""

    def value_count(self, puzzle: Any) -> int:
        return colour.value_count(puzzle) if isinstance(puzzle, ColourNonogram) else 3

    def initial(self, puzzle: Any) -> Grid:
        if isinstance(puzzle, ColourNonogram):
            colour.check_playable(puzzle)
            return Grid.filled_with(puzzle.width, puzzle.height, colour.UNKNOWN)
        grid: Grid = puzzle.empty_grid()
        return grid

    def solution_state(self, puzzle: Any, solution: Grid) -> Grid:
        """A solver's solution as a game state (a colour solution holds masks)."""
        if isinstance(puzzle, ColourNonogram):
            return colour.state_of_masks(puzzle, solution)
        return solution

    def walls(self, puzzle: Any, grid: Grid) -> Grid:
        """The game state as the renderer takes it (masks for a colour puzzle)."""
        if isinstance(puzzle, ColourNonogram):
            return colour.mask_grid(puzzle, grid)
        return grid

    def step_move(self, puzzle: Any, step: Step) -> str:
        """The move that plays a hint (a colour step's masks become cell values)."""
        if isinstance(puzzle, ColourNonogram):
            return colour.cell_move(colour.step_changes(step))
        return colour.cell_move(step.changes)

    def cleared(self, puzzle: Any, grid: Grid) -> Grid:
        return self.initial(puzzle)

    def editable(self, puzzle: Any, cell: Cell) -> bool:
        return True

    def hint(self, puzzle: Any, grid: Grid, solution: Grid | None) -> Step | None:
        """The next deduction from this state: a mistake first (when the solution is known),
        then the first line that logic can advance, then a probe, then the solver's trace."""
        if isinstance(puzzle, ColourNonogram):
            return colour.hint(puzzle, grid, solution)
        from pencilbox.genres.nonogram.explain import _line_cell as line_cell
        from pencilbox.genres.nonogram.explain import line_steps
        from pencilbox.genres.nonogram.line import solve_plain_line as solve_line
        from pencilbox.genres.nonogram.logic import find_probe, other, read_line
        from pencilbox.genres.nonogram.model import UNKNOWN, format_clue

        if solution is not None:
            wrong = [
                cell
                for cell in cells_of(grid)
                if grid[cell] != UNKNOWN and grid[cell] != solution[cell]
            ]
            if wrong:
                names = ", ".join(cell_name(c) for c in wrong[:8])
                more = f" and {len(wrong) - 8} more" if len(wrong) > 8 else ""
                return Step(
                    "mistake",
                    0,
                    tuple((cell, UNKNOWN) for cell in wrong),
                    f"{names}{more} {'is' if len(wrong) == 1 else 'are'} marked wrongly: "
                    f"clear {'it' if len(wrong) == 1 else 'them'} and think again.",
                    reasons=tuple(wrong),
                )
        cells = list(grid.cells)
        for kind, count in (("row", puzzle.height), ("column", puzzle.width)):
            for index in range(count):
                before = read_line(puzzle, cells, kind, index)
                clue = puzzle.line_clue(kind, index)
                after = solve_line(clue, before)
                if after is None:
                    line = tuple(line_cell(kind, index, i) for i in range(len(before)))
                    return Step(
                        "contradiction",
                        1,
                        (),
                        f"{kind.capitalize()} {index + 1} ({format_clue(clue)}) cannot be "
                        "completed with the cells marked so far: look for a mistake there.",
                        reasons=line,
                        clue=f"{kind} {index + 1}",
                    )
                if after != before:
                    first: Step = line_steps(puzzle, kind, index, before, after)[0]
                    return first
        if UNKNOWN not in cells:
            return None
        found = find_probe(puzzle, cells)
        if found is not None:
            cell = divmod(found.cell, puzzle.width)
            words = {1: "filled", 2: "empty"}
            result = other(found.tried)
            return Step(
                "probe",
                2,
                ((cell, result),),
                f"Probe {cell_name(cell)}: {words[found.tried]} makes "
                f"{found.broken.describe()} impossible, so it is {words[result]}.",
                reasons=(cell,),
                clue=found.broken.describe(),
            )
        for step in puzzle.steps(time_limit=5.0):
            pending = [(c, v) for c, v in step.changes if grid[c] != v]
            if pending and all(grid[c] == UNKNOWN for c, _ in pending):
                found_step: Step = step
                return found_step
        return None

    def single_pass(self, puzzle: Any, grid: Grid) -> tuple[list[Step], Grid]:
        """One pass of line logic (all rows, then all columns) from this state."""
        if isinstance(puzzle, ColourNonogram):
            return colour.single_pass(puzzle, grid)
        from pencilbox.genres.nonogram.explain import line_steps
        from pencilbox.genres.nonogram.line import Line
        from pencilbox.genres.nonogram.logic import propagate_all
        from pencilbox.genres.nonogram.model import format_clue

        steps: list[Step] = []
        cells = list(grid.cells)

        def record(kind: str, index: int, before: Line, after: Line) -> None:
            steps.extend(line_steps(puzzle, kind, index, before, after))

        broken = propagate_all(puzzle, cells, record=record, max_passes=1)
        if broken is not None:
            clue = puzzle.line_clue(broken.kind, broken.index)
            steps.append(
                Step(
                    "contradiction",
                    1,
                    (),
                    f"{broken.describe().capitalize()} ({format_clue(clue)}) cannot be "
                    "satisfied with the cells marked so far.",
                    clue=broken.describe(),
                )
            )
        return steps, Grid(grid.width, grid.height, tuple(cells))

    def check(self, puzzle: Any, grid: Grid, solution: Grid | None) -> dict[str, Any]:
        if isinstance(puzzle, ColourNonogram):
            return colour.check(puzzle, grid, solution)
        from pencilbox.genres.nonogram.model import EMPTY, UNKNOWN

        # A player need not cross out every empty cell: unknown counts as empty for "solved".
        as_played = Grid(
            grid.width, grid.height, tuple(EMPTY if v == UNKNOWN else v for v in grid.cells)
        )
        broken = puzzle.check(as_played)
        problems = [p for p in puzzle.check(grid) if not p.endswith("still unknown")]
        wrong: list[Cell] = []
        if solution is not None:
            wrong = [c for c in cells_of(grid) if grid[c] != UNKNOWN and grid[c] != solution[c]]
        return played_report(broken, problems, wrong, grid.cells.count(UNKNOWN))

    def progress(self, puzzle: Any, grid: Grid) -> float:
        return 1.0 - grid.cells.count(0) / max(1, len(grid.cells))

    def puzzle_json(self, puzzle: Any) -> dict[str, Any]:
        if isinstance(puzzle, ColourNonogram):
            return colour.puzzle_json(puzzle)
        from pencilbox.genres.nonogram.model import format_clue

        return {
            "genre": self.genre,
            "title": puzzle.title,
            "width": puzzle.width,
            "height": puzzle.height,
            "rows": [list(c) for c in puzzle.rows],
            "cols": [list(c) for c in puzzle.cols],
            "rows_text": ",".join(format_clue(c) for c in puzzle.rows),
            "cols_text": ",".join(format_clue(c) for c in puzzle.cols),
            "symbols": self.symbols[:3],
        }


# -- the page's clue boxes (POST /api/nonogram/clues, one of Genre.actions) ------------------
def check_clue_boxes(body: dict[str, Any], max_size: int) -> dict[str, Any]:
    """Validate the two clue boxes as the user types: every problem, each with its box,
    line (row or column number) and character position; the puzzle when there is none."""
    from pencilbox.errors import FormatError, PuzzleError
    from pencilbox.genres.nonogram.formats.clues import parse_clue_list
    from pencilbox.genres.nonogram.model import make_puzzle

    rows, cols = body.get("rows"), body.get("cols")
    if not isinstance(rows, str) or not isinstance(cols, str):
        raise PuzzleError("the clue boxes are two texts, rows and cols")
    errors: list[dict[str, Any]] = []
    lists: dict[str, list[list[int]]] = {}
    for box, kind, text in (("rows", "row", rows), ("cols", "column", cols)):
        try:
            lists[box] = parse_clue_list(1, text, kind=kind)
        except FormatError as error:
            errors.append({"box": box, "message": error.reason, "column": error.column})
    if len(lists.get("rows", [])) > max_size or len(lists.get("cols", [])) > max_size:
        errors.append({"box": None, "message": f"at most {max_size} rows and columns"})
    if errors:
        return {"ok": False, "errors": errors}
    for box, kind, length in (
        ("rows", "row", len(lists["cols"])),
        ("cols", "column", len(lists["rows"])),
    ):
        for index, runs in enumerate(lists[box]):
            clue = [r for r in runs if r > 0]
            need = sum(clue) + len(clue) - 1
            if need > length:
                text = " ".join(map(str, clue))
                errors.append(
                    {
                        "box": box,
                        "index": index,
                        "message": f"{kind} {index + 1}: clue {text} needs {need} cells, "
                        f"the {kind} has {length}",
                    }
                )
    if errors:
        return {"ok": False, "errors": errors}
    try:
        puzzle = make_puzzle(lists["rows"], lists["cols"], max_size=max_size)
    except PuzzleError as error:
        return {"ok": False, "errors": [{"box": None, "message": str(error)}]}
    return {"ok": True, "errors": [], "puzzle": NonogramPlay().puzzle_json(puzzle)}
