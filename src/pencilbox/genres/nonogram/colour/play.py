"""How a colour nonogram is played: the play rules of play.py (`NonogramPlay`) hand colour
puzzles to these functions.

A game holds one small value per cell, as black-and-white games do, and black-and-white is the
case with one colour: 0 unknown, 1 the first colour, 2 crossed (the background), and 3, 4, ...
the second, third, ... colours. The engines work on colour masks (bit k: colour k still
possible, bit 0 the background), so a state is turned into masks for them and back; a cell the
player has not decided is every colour at once. Hints and passes only ever set cells the logic
decides: the player's grid has no "red or blue" cells.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pencilbox.core.grid import Cell, Grid, cell_name, cells_of
from pencilbox.core.step import Step
from pencilbox.genres.nonogram.check import played_report
from pencilbox.genres.nonogram.colour.cells import BACKGROUND
from pencilbox.genres.nonogram.explain import LEVELS, line_steps, probe_step
from pencilbox.genres.nonogram.line import solve_line
from pencilbox.genres.nonogram.logic import decided, find_probe, propagate_all, read_line

if TYPE_CHECKING:
    from pencilbox.genres.nonogram.colour.model import ColourNonogram

UNKNOWN = 0
CROSSED = 2
SYMBOLS = "?#.3456789ABCDEFGHIJKLMNOPQRSTUVWX"
"""One character per cell value in saved games and `grid` moves (the first three are the
black-and-white game's)."""
MAX_COLOURS = len(SYMBOLS) - 2
"""32: the page's animation keeps a cell's colour mask (a bit per colour and the background) in
a JavaScript number, exact up to 53 bits."""


def value_count(puzzle: ColourNonogram) -> int:
    """Cell values of this puzzle's games: unknown, crossed and one per colour."""
    return len(puzzle.colours) + 1


def check_playable(puzzle: ColourNonogram) -> None:
    from pencilbox.errors import PuzzleError

    colours = len(puzzle.colours) - 1
    if colours > MAX_COLOURS:
        raise PuzzleError(
            f"the puzzle has {colours} colours; a game can be played with at most {MAX_COLOURS}"
        )


def value_of_colour(colour: int) -> int:
    """The cell value that paints colour `colour` (0 is the background: crossed)."""
    if colour == BACKGROUND:
        return CROSSED
    return 1 if colour == 1 else colour + 1


def colour_of_value(value: int) -> int | None:
    """The colour a cell value paints (BACKGROUND for a cross), None for unknown."""
    if value == UNKNOWN:
        return None
    if value == CROSSED:
        return BACKGROUND
    return 1 if value == 1 else value - 1


def masks_of(puzzle: ColourNonogram, grid: Grid) -> list[int]:
    full = puzzle.full_mask
    out = []
    for value in grid.cells:
        colour = colour_of_value(value)
        out.append(full if colour is None else 1 << colour)
    return out


def value_of_mask(mask: int) -> int:
    """The cell value of a decided mask, UNKNOWN for a cell with several colours left."""
    if not mask or not decided(mask):
        return UNKNOWN
    return value_of_colour(mask.bit_length() - 1)


def state_of_masks(puzzle: ColourNonogram, masks: Grid) -> Grid:
    """A grid of masks (a solution, a solver's partial grid) as a game state."""
    return Grid(masks.width, masks.height, tuple(value_of_mask(m) for m in masks.cells))


def mask_grid(puzzle: ColourNonogram, grid: Grid) -> Grid:
    """The game state as masks, the form the colour renderer and checker take."""
    return Grid(grid.width, grid.height, tuple(masks_of(puzzle, grid)))


def step_changes(step: Step) -> list[tuple[Cell, int]]:
    """The cell values a step of masks sets (cells it only narrows are left out); a mask of
    every colour (a mistake to clear) is UNKNOWN."""
    out = []
    for cell, mask in step.changes:
        value = value_of_mask(mask)
        if value != UNKNOWN or step.technique == "mistake":
            out.append((cell, value))
    return out


def cell_move(changes: Sequence[tuple[Cell, int]]) -> str:
    """The session's move that sets these cells: `r3c4=1 r3c5=2`."""
    return " ".join(f"r{r + 1}c{c + 1}={value}" for (r, c), value in changes)


# -- hints and passes -------------------------------------------------------------------------
def hint(puzzle: ColourNonogram, grid: Grid, solution: Grid | None) -> Step | None:
    """A mistake first (when the solution is known), then the first line that decides a cell
    alone, then what the lines decide together, then a probe, then the solver's trace. Steps
    carry masks, as the colour trace does."""
    cells = masks_of(puzzle, grid)
    if solution is not None:
        found = _mistakes(puzzle, grid, solution)
        if found is not None:
            return found
    for kind, count in (("row", puzzle.height), ("column", puzzle.width)):
        for index in range(count):
            before = read_line(puzzle, cells, kind, index)
            after = solve_line(puzzle.line_clue(kind, index), before)
            if after is None:
                return _contradiction(puzzle, kind, index, "cannot be completed")
            if after != before:
                step = _deciding(line_steps(puzzle, kind, index, before, after))
                if step is not None:
                    return step
    if all(decided(mask) for mask in cells):
        return None
    recorded: list[Step] = []

    def record(kind: str, index: int, before: tuple[int, ...], after: tuple[int, ...]) -> None:
        recorded.extend(line_steps(puzzle, kind, index, before, after))

    broken = propagate_all(puzzle, cells, record=record)
    if broken is not None:
        return _contradiction(puzzle, broken.kind, broken.index, "cannot be completed")
    step = _deciding(recorded)
    if step is not None:
        return _together(step)
    probe = find_probe(puzzle, cells)
    if probe is not None:
        narrowed = cells[probe.cell] & ~(1 << probe.tried)
        if decided(narrowed):
            return probe_step(puzzle, probe.cell, probe.tried, narrowed, probe.broken)
    for traced in puzzle.steps(time_limit=5.0):
        pending = [(c, v) for c, v in step_changes(traced) if grid[c] != v]
        if pending and all(grid[c] == UNKNOWN for c, _ in pending):
            return traced
    return None


def _mistakes(puzzle: ColourNonogram, grid: Grid, solution: Grid) -> Step | None:
    wrong = [c for c in cells_of(grid) if grid[c] != UNKNOWN and grid[c] != _value(solution, c)]
    if not wrong:
        return None
    names = ", ".join(cell_name(c) for c in wrong[:8])
    more = f" and {len(wrong) - 8} more" if len(wrong) > 8 else ""
    one = len(wrong) == 1
    return Step(
        "mistake",
        0,
        tuple((cell, puzzle.full_mask) for cell in wrong),
        f"{names}{more} {'is' if one else 'are'} marked wrongly: "
        f"clear {'it' if one else 'them'} and think again.",
        reasons=tuple(wrong),
    )


def _value(solution: Grid, cell: Cell) -> int:
    return value_of_mask(solution[cell])


def _contradiction(puzzle: ColourNonogram, kind: str, index: int, what: str) -> Step:
    length = puzzle.width if kind == "row" else puzzle.height
    line = [(index, i) if kind == "row" else (i, index) for i in range(length)]
    clue = puzzle.format_clue(puzzle.line_clue(kind, index))
    return Step(
        "contradiction",
        LEVELS["contradiction"],
        (),
        f"{kind.capitalize()} {index + 1} ({clue}) {what} with the cells marked so far: "
        "look for a mistake there.",
        reasons=tuple(line),
        clue=f"{kind} {index + 1}",
    )


def _deciding(steps: list[Step]) -> Step | None:
    """The first step that decides cells, with only its decided cells."""
    for step in steps:
        changes = tuple((cell, mask) for cell, mask in step.changes if decided(mask))
        if changes:
            return Step(
                step.technique,
                step.level,
                changes,
                step.sentence,
                reasons=step.reasons,
                clue=step.clue,
            )
    return None


def _together(step: Step) -> Step:
    """A line step that needed what other lines rule out (colours a cell cannot have), which
    the player's grid does not show."""
    return Step(
        step.technique,
        step.level,
        step.changes,
        "Counting the colours the crossing lines rule out: " + step.sentence,
        reasons=step.reasons,
        clue=step.clue,
    )


def single_pass(puzzle: ColourNonogram, grid: Grid) -> tuple[list[Step], Grid]:
    """Line logic, all rows then all columns, from this state; passes go on while they only
    narrow cells (rule colours out) without deciding one, since the grid keeps decided cells
    only and the next pass would start from scratch."""
    cells = masks_of(puzzle, grid)
    steps: list[Step] = []

    def record(kind: str, index: int, before: tuple[int, ...], after: tuple[int, ...]) -> None:
        steps.extend(line_steps(puzzle, kind, index, before, after))

    while True:
        before = cells.copy()
        broken = propagate_all(puzzle, cells, record=record, max_passes=1)
        if broken is not None:
            clue = puzzle.format_clue(puzzle.line_clue(broken.kind, broken.index))
            steps.append(
                Step(
                    "contradiction",
                    LEVELS["contradiction"],
                    (),
                    f"{broken.describe().capitalize()} ({clue}) cannot be satisfied with the "
                    "cells marked so far.",
                    clue=broken.describe(),
                )
            )
            break
        newly = any(decided(b) != decided(a) for a, b in zip(before, cells))
        if newly or cells == before:
            break
    values = tuple(
        old if old != UNKNOWN else value_of_mask(mask) for old, mask in zip(grid.cells, cells)
    )
    return steps, Grid(grid.width, grid.height, values)


# -- checking ---------------------------------------------------------------------------------
def check(puzzle: ColourNonogram, grid: Grid, solution: Grid | None) -> dict[str, Any]:
    # A player need not cross out every background cell: unknown counts as background.
    background = 1 << BACKGROUND
    masks = masks_of(puzzle, grid)
    as_played = Grid(
        grid.width,
        grid.height,
        tuple(background if v == UNKNOWN else m for v, m in zip(grid.cells, masks)),
    )
    broken = puzzle.check(as_played)
    problems = [
        p
        for p in puzzle.check(Grid(grid.width, grid.height, tuple(masks)))
        if not p.endswith("still undecided")
    ]
    wrong: list[Cell] = []
    if solution is not None:
        wrong = [c for c in cells_of(grid) if grid[c] != UNKNOWN and grid[c] != _value(solution, c)]
    return played_report(broken, problems, wrong, grid.cells.count(UNKNOWN))


def puzzle_json(puzzle: ColourNonogram) -> dict[str, Any]:
    """What the page needs: the palette (index 0 the background) with each colour's cell
    value, and clues as [length, colour index] pairs."""
    return {
        "genre": puzzle.genre,
        "title": puzzle.title,
        "width": puzzle.width,
        "height": puzzle.height,
        "symbols": SYMBOLS[: value_count(puzzle)],
        "colors": [
            {"name": c.name, "char": c.char, "hex": c.hex, "value": value_of_colour(i)}
            for i, c in enumerate(puzzle.colours)
        ],
        "rows": [[list(run) for run in clue] for clue in puzzle.rows],
        "cols": [[list(run) for run in clue] for clue in puzzle.cols],
        "rows_text": ",".join(puzzle.format_clue(c) for c in puzzle.rows),
        "cols_text": ",".join(puzzle.format_clue(c) for c in puzzle.cols),
    }
