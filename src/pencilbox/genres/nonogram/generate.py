"""Generate Nonograms with exactly one solution, reproducibly from a seed.

1. A picture: uniform noise blurred with a 3x3 box (each cell's score is the mean of the noise
   around it), then the `density` share of cells with the highest scores is filled. The blur
   makes neighbours agree, so the picture has blobs and long runs instead of the salt and
   pepper of raw noise (which makes short, ambiguous clues); ranking the scores keeps the fill
   ratio at the one asked for.
2. Clues from the picture, then our solver (`solve(limit=2)`). While it finds two solutions,
   one random cell where they differ is flipped in the picture (filled <-> empty), which
   changes that cell's row and column clues and so breaks that ambiguity; the new clues are
   checked again. After `MAX_FIXES` flips the picture is dropped and a fresh one is drawn
   from the same random stream.
3. The grade is the solver's (line / probe / search). With `grade=` further seeds are tried
   (core.seeds: not the next numbers, which are a batch's next puzzles) until one gives
   that grade; the seed reported is the one that did, and the same seed
   without `grade` gives the same puzzle (the grade never steers the generation itself).
"""

from __future__ import annotations

import random
import time
from typing import Any

from pencilbox.core.grid import Grid
from pencilbox.core.notation import whole_value
from pencilbox.core.seeds import attempt_seed
from pencilbox.errors import PuzzleError, quote
from pencilbox.genres.base import SolveResult
from pencilbox.genres.nonogram.model import (
    EMPTY,
    FILLED,
    Nonogram,
    clues_of,
    grid_to_strings,
    make_puzzle,
)
from pencilbox.genres.nonogram.solve import GRADES, solve

MIN_SIDE, MAX_SIDE = 2, 100
MAX_FIXES = 200
"""Repair rounds for one picture before a fresh picture is drawn."""
MAX_PICTURES = 20
"""Fresh pictures per seed before the seed is given up (never reached in the tests)."""
ATTEMPTS = 100
"""Seeds tried in search of the requested grade."""
BLUR_CELLS = 20
"""The blur reaches one cell further per this many cells of the shorter side (1 up to 29),
so a big picture has shapes as big, for its size, as a small one."""
TEXT_FORMAT = "clues"
"""The notation of the `text` field: the seed tool's two clue lines, short and readable."""


def generate(
    size: Any = None,
    seed: Any = None,
    grade: str | None = None,
    density: Any = 0.5,
    *,
    width: Any = None,
    height: Any = None,
    attempts: Any = ATTEMPTS,
    from_: Any = None,
    colors: Any = None,
    threshold: Any = None,
    dither: Any = None,
    palette: Any = None,
    max_changes: Any = None,
    **unused: Any,
) -> dict[str, Any]:
    """A unique puzzle: {"puzzle", "clues", "solution", "grade", "seed", "attempts", "fixes",
    "density", "size", "text", "time_s"}. Same arguments and seed, same puzzle.

    With `from_` (the bytes of a picture) the puzzle is made from that picture instead
    (fromimage/: --colors, --threshold, --dither, --palette and --max-changes go there, and
    --grade is the hardest grade allowed)."""
    started = time.perf_counter()
    if unused:
        names = ", ".join(f"--{name.rstrip('_').replace('_', '-')}" for name in sorted(unused))
        raise PuzzleError(
            f"generate nonogram: unknown option(s) {names}; known: --size, --seed, --grade, "
            "--density, --attempts, --from and its --colors, --threshold, --dither, --palette, "
            "--max-changes"
        )
    picture_options = {
        "colors": colors,
        "threshold": threshold,
        "dither": dither,
        "palette": palette,
        "max_changes": max_changes,
    }
    if from_ is not None:
        from pencilbox.genres.nonogram.fromimage import generate_from_image

        given = {name: value for name, value in picture_options.items() if value is not None}
        return generate_from_image(from_, size=size, grade=grade, seed=seed, **given)
    needless = [f"--{name.replace('_', '-')}" for name, v in picture_options.items() if v]
    if needless:
        raise PuzzleError(f"{', '.join(needless)}: only with --from IMAGE")
    w, h = _parse_size(size, width, height)
    fill = _parse_density(density)
    if grade is not None and grade not in GRADES:
        raise PuzzleError(f"unknown Nonogram grade {grade!r}; choose one of {', '.join(GRADES)}")
    tries = whole_value(attempts, "--attempts", minimum=1)
    base_seed = whole_value(seed, "--seed") if seed is not None else random.randrange(1 << 30)
    for attempt in range(tries if grade else 1):
        made = generate_one(w, h, fill, attempt_seed(base_seed, attempt))
        if grade is None or made["grade"] == grade:
            made["attempts"] = attempt + 1
            made["time_s"] = time.perf_counter() - started
            return made
    raise PuzzleError(
        f"no {w}x{h} Nonogram of grade {grade!r} in {tries} attempts from seed {base_seed} "
        "(raise --attempts, or try another --density)"
    )


def generate_one(w: int, h: int, density: float, seed: int) -> dict[str, Any]:
    """The puzzle of one seed, whatever its grade."""
    rng = random.Random(seed)
    for _picture in range(MAX_PICTURES):
        grid = picture(w, h, density, rng)
        found = make_unique(grid, rng)
        if found is not None:
            return _result(*found, seed)
    raise PuzzleError(  # pragma: no cover - every measured seed settles in the first picture
        f"seed {seed}: no unique {w}x{h} Nonogram after {MAX_PICTURES} pictures"
    )


def _result(
    grid: Grid, puzzle: Nonogram, result: SolveResult, fixes: int, seed: int
) -> dict[str, Any]:
    return {
        "puzzle": puzzle,
        "clues": {"rows": [list(c) for c in puzzle.rows], "cols": [list(c) for c in puzzle.cols]},
        "solution": grid_to_strings(grid),
        "grade": result.grade or "search",
        "seed": seed,
        "fixes": fixes,
        "density": round(grid.cells.count(FILLED) / len(grid.cells), 3),
        "size": f"{grid.width}x{grid.height}",
        "text": puzzle.to(TEXT_FORMAT),
        "time_s": 0.0,
    }


def picture(w: int, h: int, density: float, rng: random.Random) -> Grid:
    """Blurred noise, its top `density` share filled (see the module's step 1)."""
    reach = max(1, round(min(w, h) / BLUR_CELLS))
    noise = [[rng.random() for _ in range(w)] for _ in range(h)]
    # Sums over any rectangle in O(1): table[r][c] is the sum of noise[:r][:c].
    table = [[0.0] * (w + 1) for _ in range(h + 1)]
    for r in range(h):
        for c in range(w):
            table[r + 1][c + 1] = noise[r][c] + table[r][c + 1] + table[r + 1][c] - table[r][c]
    scores = []
    for r in range(h):
        top, bottom = max(0, r - reach), min(h, r + reach + 1)
        for c in range(w):
            left, right = max(0, c - reach), min(w, c + reach + 1)
            total = table[bottom][right] - table[top][right] - table[bottom][left]
            total += table[top][left]
            scores.append((total / ((bottom - top) * (right - left)), r * w + c))
    # At least one cell filled and one empty: an all-empty or all-full grid is no puzzle.
    count = min(max(round(density * w * h), 1), w * h - 1)
    filled = {index for _, index in sorted(scores, reverse=True)[:count]}
    return Grid(w, h, tuple(FILLED if i in filled else EMPTY for i in range(w * h)))


def make_unique(grid: Grid, rng: random.Random) -> tuple[Grid, Nonogram, SolveResult, int] | None:
    """Repair the picture until its clues have one solution (step 2): (grid, puzzle, the
    solver's result, flips made), or None when `MAX_FIXES` rounds do not settle it."""
    for fixes in range(MAX_FIXES):  # one flip per round: the rounds so far are the flips
        rows, cols = clues_of(grid)
        puzzle = make_puzzle(rows, cols, goal=grid, max_size=None)
        result = solve(puzzle, limit=2)
        if result.status == "unique":
            return grid, puzzle, result, fixes
        if result.status == "timeout":  # no time limit is set: `solve` caught a Ctrl-C
            raise KeyboardInterrupt
        if result.status != "multiple":  # the grid itself fits its clues: a solver bug
            raise AssertionError(f"the solver says {result.status} for a generated grid")
        # One cell only: the cells where two solutions differ are often one ambiguity (the
        # four corners of a switchable rectangle), and flipping all of them would just turn
        # the picture into the other solution.
        cell = rng.choice(result.differences())
        grid = grid.with_cells([(cell, FILLED if grid[cell] == EMPTY else EMPTY)])
    return None


def _parse_size(size: Any, width: Any, height: Any) -> tuple[int, int]:
    if size is not None:
        text = str(size).strip().lower()
        width, _, height = text.partition("x") if "x" in text else (text, "", text)
    try:
        w = whole_value(width if width is not None else 10, "--size")
        h = whole_value(height if height is not None else 10, "--size")
    except PuzzleError:
        shown = quote(str(size)) if size is not None else f"{width!r}x{height!r}"
        raise PuzzleError(f"--size must be WxH (like 15x10) or N, got {shown}") from None
    if not (MIN_SIDE <= w <= MAX_SIDE and MIN_SIDE <= h <= MAX_SIDE):
        raise PuzzleError(
            f"cannot generate a {w}x{h} Nonogram: each side must be {MIN_SIDE} to {MAX_SIDE}"
        )
    return w, h


def _parse_density(density: Any) -> float:
    try:
        value = float(density)
    except (TypeError, ValueError):
        raise PuzzleError(f"--density must be a number between 0 and 1, got {density!r}") from None
    if not 0 < value < 1:  # also false for nan
        raise PuzzleError(f"--density must be above 0 and below 1, got {density!r}")
    return value
