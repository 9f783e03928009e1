"""Sudoku generator: a random full grid, then clues removed while the solution stays unique.

Reproducible: every random choice comes from one `random.Random(seed)`. The full grid is the
solution of random diagonal boxes (independent of each other) found by the bitboard search, then
shuffled by validity-preserving moves (digit relabelling, rows within bands, bands, columns
within stacks, stacks, transposition). Clues are removed in a random order by symmetry orbit
(`none`: one cell; `rotational`: the cell and its 180-degree image; `mirror`: the cell and its
left-right image); an orbit is put back when removing it makes the puzzle non-unique. For 4x4,
9x9 and 16x16 the result is minimal for its symmetry (no further orbit can be removed); 25x25
puzzles keep every clue that singles need (see `remove_clues`).

Grade targeting: with `grade` (a HoDoKu level), a clue is only removed while the technique
ladder limited to that level still solves the puzzle; the finished puzzle is then graded (by
`grader`, default the puzzle's own HoDoKu grade) and generation retries, with the same random
stream, until the grade equals the target (the score can lift a puzzle above its hardest
technique's level, and a puzzle may come out easier than asked).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from pencilbox.core.notation import whole_value
from pencilbox.errors import PuzzleError, quote
from pencilbox.genres.sudoku.logic.techniques import LEVELS
from pencilbox.genres.sudoku.model import Sudoku, box_size, make_sudoku
from pencilbox.genres.sudoku.solver import (
    BitboardSolver,
    Values,
    bitboard_engine,
    is_valid_solution,
    sat_engine,
)

SYMMETRIES = ("none", "rotational", "mirror")
MAX_ATTEMPTS = 200
"""Puzzles generated in search of the requested grade before giving up."""
_BUDGET = 64
"""Bitboard nodes per uniqueness check before handing the check to SAT."""


def generate(
    size: int = 9,
    symmetry: str = "none",
    seed: int | None = None,
    grade: str | None = None,
    grader: Callable[[Sudoku], str] | None = None,
    alphabet: str | None = None,
    max_attempts: int = MAX_ATTEMPTS,
) -> dict[str, Any]:
    """A unique puzzle: {"puzzle", "line", "givens", "time_s", "seed", "size", "symmetry",
    "grade", "attempts"}. Same arguments and seed, same puzzle."""
    started = time.perf_counter()
    n = box_size(whole_value(size, "--size"))
    if not isinstance(symmetry, str) or symmetry not in SYMMETRIES:
        raise PuzzleError(
            f"unknown symmetry {quote(str(symmetry))}; choose one of {', '.join(SYMMETRIES)}"
        )
    if alphabet is not None and not isinstance(alphabet, str):
        raise PuzzleError("--alphabet must be a string of symbols, e.g. 0123456789ABCDEF")
    max_attempts = whole_value(max_attempts, "--max-attempts", minimum=1)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    seed = whole_value(seed, "--seed")
    rng = random.Random(seed)
    judge = grader or (lambda puzzle: puzzle.grade())
    found_grade: str | None = None
    attempt = 0
    while True:
        attempt += 1
        solution = full_grid(n, rng)
        # A custom grader may use its own names: only HoDoKu levels limit the removal.
        level = grade if grade in LEVELS else None
        givens = remove_clues(solution, n, symmetry, rng, level=level)
        puzzle = make_sudoku(givens, size=n * n, alphabet=alphabet, solution=solution)
        if grade is None:
            break
        found_grade = judge(puzzle)
        if found_grade == grade:
            break
        if attempt >= max_attempts:
            raise PuzzleError(
                f"no {grade} puzzle in {max_attempts} attempts (seed {seed}); the last was "
                f"{found_grade}"
            )
    return {
        "puzzle": puzzle,
        "line": puzzle.line(),
        "givens": puzzle.given_count,
        "time_s": time.perf_counter() - started,
        "seed": seed,
        "size": n * n,
        "symmetry": symmetry,
        "grade": found_grade,
        "attempts": attempt,
    }


def full_grid(n: int, rng: random.Random) -> Values:
    """A random complete grid of box size n."""
    size = n * n
    if n >= 4:
        # Big boards: the search from random diagonal boxes can wander; a pattern grid
        # (shifted rows) under the random moves below is still a valid, shuffled grid.
        pattern = [(n * (r % n) + r // n + c) % size + 1 for r in range(size) for c in range(size)]
        return shuffle(pattern, n, rng)
    values = [0] * (size * size)
    for b in range(n):
        digits = rng.sample(range(1, size + 1), size)
        for i, d in enumerate(digits):
            r, c = b * n + i // n, b * n + i % n
            values[r * size + c] = d
    found = BitboardSolver(n).solve(values, 1, max_nodes=20000)
    if found:
        grid = found[0]
    else:  # pragma: no cover - the search settles random diagonals quickly in practice
        grid = [(n * (r % n) + r // n + c) % size + 1 for r in range(size) for c in range(size)]
    return shuffle(grid, n, rng)


def shuffle(grid: Values, n: int, rng: random.Random) -> Values:
    """The grid under random validity-preserving moves."""
    size = n * n
    relabel = [0, *rng.sample(range(1, size + 1), size)]

    def order() -> list[int]:
        bands = rng.sample(range(n), n)
        return [band * n + i for band in bands for i in rng.sample(range(n), n)]

    rows, cols = order(), order()
    transpose = rng.random() < 0.5
    out = []
    for r in range(size):
        for c in range(size):
            rr, cc = rows[r], cols[c]
            if transpose:
                rr, cc = cc, rr
            out.append(relabel[grid[rr * size + cc]])
    return out


def orbits(size: int, symmetry: str) -> list[tuple[int, ...]]:
    seen: set[int] = set()
    result = []
    for cell in range(size * size):
        if cell in seen:
            continue
        r, c = divmod(cell, size)
        if symmetry == "rotational":
            images = {cell, (size - 1 - r) * size + (size - 1 - c)}
        elif symmetry == "mirror":
            images = {cell, r * size + (size - 1 - c)}
        else:
            images = {cell}
        seen |= images
        result.append(tuple(sorted(images)))
    return result


def remove_clues(
    solution: Values, n: int, symmetry: str, rng: random.Random, level: str | None = None
) -> Values:
    """Two passes over the orbits in one random order: first remove what keeps the puzzle
    solvable by singles (one propagation, cheap), then try the rest with a full uniqueness
    check (skipped for 25x25, where a check costs seconds: those puzzles stay singles-only)."""
    size = n * n
    givens = list(solution)
    groups = orbits(size, symmetry)
    rng.shuffle(groups)
    singles = BitboardSolver(n)
    left = []
    for group in groups:
        kept = [givens[c] for c in group]
        for c in group:
            givens[c] = 0
        if not singles.solve(givens, 2, max_nodes=1):
            for c, v in zip(group, kept):
                givens[c] = v
            left.append(group)
    if n >= 5:
        return givens
    for group in left:
        kept = [givens[c] for c in group]
        for c in group:
            givens[c] = 0
        if not is_unique(givens, n) or (level and not solvable_within(givens, n, level)):
            for c, v in zip(group, kept):
                givens[c] = v
    return givens


def solvable_within(givens: Values, n: int, level: str) -> bool:
    """True when the technique ladder limited to `level` solves the (unique) puzzle."""
    from pencilbox.genres.sudoku.logic import State
    from pencilbox.genres.sudoku.logic.ladder import solve_state

    if level not in LEVELS:
        raise PuzzleError(f"unknown grade {level!r}; choose one of {', '.join(LEVELS)}")
    state = State.from_givens(n, givens)
    solve_state(state, level)
    return state.is_solved()


def is_unique(givens: Values, n: int) -> bool:
    """One solution exactly (bitboard search within a node budget, then SAT)."""
    found = bitboard_engine(n).solve(givens, 2, max_nodes=_BUDGET)
    if found is None:
        found = sat_engine(n).solve(givens, 2)
    if len(found) == 1 and not is_valid_solution(found[0], n, givens):
        raise AssertionError("the Sudoku search produced an invalid grid")  # pragma: no cover
    return len(found) == 1
