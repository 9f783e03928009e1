"""How a Double Choco is played in a session: the state is one value per inner edge, moves
name edges (v3,4=1), hints come from the logic rules, then the solver's trace."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from pencilbox.core.grid import Cell, Grid
from pencilbox.core.step import Step
from pencilbox.errors import MoveError, PuzzleError

_EDGE = re.compile(r"([vh])(\d{1,4}),(\d{1,4})=([012])")


class DbchocoPlay:
    """Double Choco: the state is a Grid of one row with one value per inner edge, in the
    engine's edge order (the `vertical` strings row after row, then the `horizontal` ones):
    0 undecided (no wall drawn), 1 wall, 2 marked open. Its text (`symbols`) is therefore the
    answer's edge characters `?`, `1`, `0` in one word.

    Moves: `v3,4=1` sets the edge right of r3c4 (between r3c4 and r3c5), `h2,5=1` the edge below
    r2c5 (between r2c5 and r3c5); `=1` wall, `=2` marked open, `=0` erased. Several words make
    one move. `clear` and `grid EDGES` as for the other genres."""

    genre = "dbchoco"
    symbols = "?10"

    def initial(self, puzzle: Any) -> Grid:
        return Grid(puzzle.geometry.count, 1, (0,) * puzzle.geometry.count)

    def cleared(self, puzzle: Any, grid: Grid) -> Grid:
        return self.initial(puzzle)

    def editable(self, puzzle: Any, cell: Cell) -> bool:
        return True

    def walls(self, puzzle: Any, grid: Grid) -> Any:
        """The state as the engine's Walls (undecided edges stay `?`)."""
        from pencilbox.genres.dbchoco.model import Walls

        return Walls(puzzle.width, puzzle.height, tuple(self.symbols[v] for v in grid.cells))

    def solution_state(self, puzzle: Any, solution: Any) -> Grid:
        """A solver's Walls as a state."""
        return Grid(len(solution.edges), 1, tuple(self.symbols.index(e) for e in solution.edges))

    def edge_word(self, puzzle: Any, edge: int, value: int) -> str:
        geo = puzzle.geometry
        (r, c), (r2, _) = geo.cells(edge)
        return f"{'v' if r == r2 else 'h'}{r + 1},{c + 1}={value}"

    def changes_move(self, puzzle: Any, changes: Sequence[tuple[Cell, int]]) -> str:
        """The move that sets these edges (cells (0, edge) of the state)."""
        return " ".join(self.edge_word(puzzle, edge, value) for (_, edge), value in changes)

    def step_move(self, puzzle: Any, step: Step) -> str | None:
        """The move that plays a logic step (edges in `extra["edges"]`)."""
        edges = step.extra.get("edges") or []
        if not edges:
            return None
        values = {"1": 1, "0": 2, "?": 0}
        return " ".join(self.edge_word(puzzle, int(e), values[str(v)]) for e, v in edges)

    def apply(self, puzzle: Any, grid: Grid, move: str) -> tuple[Grid, str]:
        if not isinstance(move, str) or not move.strip():
            raise MoveError("empty move")
        words = move.split()
        if words == ["clear"]:
            return self.cleared(puzzle, grid), "clear"
        if words[0] == "grid":
            if len(words) != 2:
                raise MoveError("a grid move is 'grid' and one word of edges (?, 1, 0)")
            count = puzzle.geometry.count
            if len(words[1]) != count or any(ch not in self.symbols for ch in words[1]):
                raise MoveError(
                    f"a Double Choco grid move needs {count} edge characters, each ?, 1 or 0"
                )
            new = Grid(count, 1, tuple(self.symbols.index(ch) for ch in words[1]))
            return new, "grid " + "".join(self.symbols[v] for v in new.cells)
        geo = puzzle.geometry
        changes: dict[int, int] = {}
        for word in words:
            match = _EDGE.fullmatch(word)
            if not match:
                raise MoveError(
                    f"cannot read {word[:40]!r}: a Double Choco move is 'clear', 'grid EDGES' "
                    "or edges like v3,4=1 (right of r3c4) and h2,5=0 (below r2c5)"
                )
            kind, row, col, value = match.groups()
            r, c = int(row) - 1, int(col) - 1
            last_row = puzzle.height - (1 if kind == "h" else 0)
            last_col = puzzle.width - (1 if kind == "v" else 0)
            if not (0 <= r < last_row and 0 <= c < last_col):
                side = "right of" if kind == "v" else "below"
                raise MoveError(
                    f"{word}: there is no inner edge {side} r{r + 1}c{c + 1} in a "
                    f"{puzzle.width}x{puzzle.height} grid"
                )
            edge = geo.right(r, c) if kind == "v" else geo.down(r, c)
            changes[edge] = int(value)
        normal = " ".join(self.edge_word(puzzle, e, v) for e, v in sorted(changes.items()))
        return grid.with_cells(((0, e), v) for e, v in changes.items()), normal

    def hint(self, puzzle: Any, grid: Grid, solution: Any) -> Step | None:
        """Wrong edges first (against the unique solution), then the first rule of the logic
        that fires from these edges, then a trial from these edges, then the first step of
        the trace not yet on the board."""
        from pencilbox.genres.dbchoco import logic

        geo = puzzle.geometry
        walls = self.walls(puzzle, grid)
        if solution is not None:
            wrong = [e for e, v in enumerate(walls.edges) if v != "?" and v != solution.edges[e]]
            if wrong:
                names = ", ".join(geo.edge_name(e) for e in wrong[:6])
                more = f" and {len(wrong) - 6} more" if len(wrong) > 6 else ""
                one = len(wrong) == 1
                cells = tuple(sorted({cell for e in wrong for cell in geo.cells(e)}))
                return Step(
                    "mistake",
                    0,
                    (),
                    f"The edge{'' if one else 's'} {names}{more} {'is' if one else 'are'} "
                    "wrong: erase and think again.",
                    reasons=cells,
                    extra={"edges": [[e, "?"] for e in wrong]},
                )
        if walls.complete() or (solution is not None and "?" not in walls.edges):
            return None
        state = logic.State(puzzle, list(walls.edges))
        try:
            for rule in logic.RULES:
                if rule(state) and state.steps:
                    first: Step = state.steps[0]
                    return first
        except logic.Broken as broken:
            return Step(
                "contradiction",
                1,
                (),
                f"These walls break a rule: {broken.reason}. Look for a mistake.",
                reasons=tuple(broken.cells),
            )
        trial = _trial_step(state)
        if trial is not None:
            return trial
        for step in puzzle.steps(time_limit=5.0):
            edges = step.extra.get("edges") or []
            pending = [(e, v) for e, v in edges if walls.edges[e] != v]
            if pending and all(walls.edges[e] in ("?", "0") for e, _ in pending):
                found: Step = step
                return found
        return None

    def single_pass(self, puzzle: Any, grid: Grid) -> tuple[list[Step], Grid]:
        """One round of the logic rules from this state."""
        from pencilbox.genres.dbchoco import logic

        state = logic.State(puzzle, list(self.walls(puzzle, grid).edges))
        try:
            for rule in logic.RULES:
                rule(state)
        except logic.Broken as broken:
            return [Step("contradiction", 1, (), broken.reason)], grid
        return state.steps, self.solution_state(puzzle, state.walls())

    def check(self, puzzle: Any, grid: Grid, solution: Any) -> dict[str, Any]:
        """The checker's violations (undecided edges count as open) with their cells; `wrong`
        lists the cells beside edges that differ from the unique solution."""
        from pencilbox.genres.dbchoco.model import Walls

        played = Walls(
            puzzle.width, puzzle.height, tuple("1" if v == 1 else "0" for v in grid.cells)
        )
        found = puzzle.check(played)
        wrong: list[Cell] = []
        if solution is not None:
            geo = puzzle.geometry
            edges = [e for e, v in enumerate(played.edges) if v == "1" and solution.edges[e] != v]
            wrong = sorted({cell for e in edges for cell in geo.cells(e)})
        return {
            "solved": not found,
            "violations": [v.message for v in found],
            "blocks": [v.to_json() for v in found],
            "lines": [],
            "wrong": [list(c) for c in wrong],
            "unknown": grid.cells.count(0),
        }

    def progress(self, puzzle: Any, grid: Grid) -> float:
        if not grid.cells:
            return 1.0
        answer = puzzle.answer
        if answer is not None:
            needed = answer.edges.count("1")
            done = sum(
                1 for v, a in zip(grid.cells, answer.edges, strict=False) if v == 1 and a == "1"
            )
            return done / needed if needed else 1.0
        return 1.0 - grid.cells.count(0) / len(grid.cells)

    def puzzle_json(self, puzzle: Any) -> dict[str, Any]:
        try:
            url = puzzle.to("url").strip()
        except PuzzleError:
            url = None
        return {
            "genre": self.genre,
            "title": puzzle.title,
            "width": puzzle.width,
            "height": puzzle.height,
            "colors": puzzle.colour_rows(),
            "numbers": puzzle.number_rows(),
            "edges": puzzle.geometry.count,
            "url": url,
        }


HINT_PATIENCE = 2.0
"""Seconds a hint's trials may go without a find before the trace is asked instead (a
trial from the player's own edges is one step, where the trace deduces from the empty
grid: seconds on a 16x16)."""


def _trial_step(state: Any) -> Step | None:
    """The first trial that breaks from the player's edges (a `contradiction` step)."""
    from pencilbox.genres.dbchoco import logic
    from pencilbox.genres.dbchoco.logic.trial import Patience

    try:
        found = logic.contradiction(state, logic.trial_propagate, None, Patience(HINT_PATIENCE))
    except logic.Broken:
        return None
    step: Step | None = state.steps[-1] if found and state.steps else None
    return step
