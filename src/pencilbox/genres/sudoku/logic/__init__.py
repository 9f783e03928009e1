"""Human-style Sudoku solving: a candidate state, one module per technique family, the ladder.

Works from plain inputs: a box size n (N = n*n) and the givens as N*N ints (0 = empty).
Steps use `changes` for placements ((row, col), digit) and `extra["eliminations"]` for removed
candidates as [row, col, digit] (cells 0-based, digits 1-based); `extra["code"]` is the
technique's HoDoKu code.

    solve_path(n, givens, max_level=None) -> list[Step]
    grade(n, givens) -> Grade(level, score, hardest, solved_by_logic, steps)
    hint(n, givens, level) -> str | None
"""

from .ladder import LADDER, Grade, accept_singles, grade, hint, next_step, solve_path
from .state import State, geometry
from .techniques import TECHNIQUES, Technique

__all__ = [
    "LADDER",
    "TECHNIQUES",
    "Grade",
    "State",
    "Technique",
    "accept_singles",
    "geometry",
    "grade",
    "hint",
    "next_step",
    "solve_path",
]
