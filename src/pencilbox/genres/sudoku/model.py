"""The Sudoku puzzle value: box size n, N = n*n symbols, givens, placed digits, alphabet.

Cells hold 0 (empty) or a digit 1..N; the alphabet maps digit k to the symbol shown for it
(`alphabet[k - 1]`), so a 16x16 puzzle written `123456789ABCDEFG` or `0123456789ABCDEF` is the
same value with a different alphabet. Givens cannot change; `placed` holds digits a solver or a
player entered (HoDoKu library lines carry them), kept apart from the givens.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pencilbox.core.grid import Grid, cell_name
from pencilbox.core.timing import Deadline, TimeLimitReached
from pencilbox.errors import FormatError, InvalidPuzzle, quote
from pencilbox.genres import base

if TYPE_CHECKING:
    from pencilbox.core.step import Step
    from pencilbox.genres.base import SolveResult

SIZES = {2: 4, 3: 9, 4: 16, 5: 25}
"""Box size n -> N."""
DEFAULT_ALPHABETS = {
    4: "1234",
    9: "123456789",
    16: "123456789ABCDEFG",
    25: "123456789ABCDEFGHIJKLMNOP",
}
BLANKS = ".0X*_"
"""Symbols that mean an empty cell (unless the alphabet uses them as digits)."""


def box_size(size: int) -> int:
    """n for N = n*n; InvalidPuzzle when N is not one of the supported squares."""
    for n, big_n in SIZES.items():
        if big_n == size:
            return n
    raise InvalidPuzzle(
        f"{size}x{size} is not a Sudoku size: N must be a square with square boxes (4, 9, 16 or 25)"
    )


def default_alphabet(size: int) -> str:
    return DEFAULT_ALPHABETS[size]


def check_alphabet(alphabet: str, size: int) -> str:
    if len(alphabet) != size or len(set(alphabet)) != size:
        raise InvalidPuzzle(
            f"the alphabet {quote(alphabet)} must hold {size} different symbols for a "
            f"{size}x{size} sudoku"
        )
    if any(ch.isspace() or ch == "." for ch in alphabet):
        raise InvalidPuzzle(f"the alphabet {quote(alphabet)} may not use '.' or spaces")
    return alphabet


@dataclass(frozen=True)
class Sudoku:
    n: int
    givens: Grid
    alphabet: str
    title: str | None = field(default=None, compare=False)
    placed: Grid | None = None
    """Digits entered after the givens (not givens themselves); None when there are none."""
    solution: Grid | None = field(default=None, compare=False)
    """A solution shipped with the puzzle (Kaggle CSV), if the source had one."""
    meta: dict[str, str] = field(default_factory=dict, compare=False, hash=False)
    """Descriptive fields a format carries (.sdk author, source, level, ...)."""

    genre = "sudoku"

    @property
    def size(self) -> int:
        """N: the number of symbols, rows and columns."""
        return self.n * self.n

    def values(self) -> list[int]:
        """The board as N*N ints: givens and placed digits, 0 for empty."""
        if self.placed is None:
            return list(self.givens.cells)
        return [g or p for g, p in zip(self.givens.cells, self.placed.cells)]

    @property
    def given_count(self) -> int:
        return sum(1 for v in self.givens.cells if v)

    def symbol(self, digit: int) -> str:
        return self.alphabet[digit - 1] if digit else "."

    def line(self, blank: str = ".") -> str:
        """The board as one string of N*N symbols (givens and placed digits)."""
        return "".join(self.alphabet[v - 1] if v else blank for v in self.values())

    # The methods below are the library's friendly face; the work lives in sibling modules.
    def solve(
        self, limit: int = 2, time_limit: float | None = None, *, grade: bool = True
    ) -> SolveResult:
        # The grade (singles or search) comes with the search itself, asked for or not; the
        # HoDoKu level is grade().
        return solve_puzzle(self, limit=limit, time_limit=time_limit)

    def steps(self, time_limit: float | None = None) -> list[Step]:
        """The logical solving path (the technique ladder), one Step per deduction."""
        from pencilbox.genres.sudoku.logic import solve_path

        return list(solve_path(self.n, self.values()))

    def grade(self) -> str:
        """The HoDoKu-style level: easy, medium, hard, unfair or extreme."""
        return self.grade_report()["level"]  # type: ignore[no-any-return]

    def grade_report(self) -> dict[str, Any]:
        """Level, score, hardest technique and whether logic alone solves it."""
        from pencilbox.genres.sudoku.logic import grade

        found = grade(self.n, self.values())
        return {
            "level": found.level,
            "score": found.score,
            "hardest": found.hardest,
            "solved_by_logic": found.solved_by_logic,
        }

    def hint(self, level: int = 1) -> str | None:
        """1: the technique's name; 2: where to look; 3: the whole step."""
        from pencilbox.genres.sudoku.logic import hint

        return hint(self.n, self.values(), level)

    def to(self, format: str) -> str:
        return base.write(self, format)

    def check(self, grid: Grid) -> list[str]:
        """Rule violations of a filled grid, one sentence each; [] when it is a solution."""
        problems = [
            f"r{r + 1}c{c + 1} must keep the given {self.symbol(g)}"
            for (r, c), g, v in _cells(self.givens, grid)
            if g and g != v
        ]
        problems += [
            f"r{r + 1}c{c + 1} is empty" for (r, c), _, v in _cells(self.givens, grid) if not v
        ]
        problems += duplicate_messages(list(grid.cells), self.n, self.alphabet)
        return problems

    def candidates(self) -> list[int]:
        """The original tool's view: each cell's allowed digits as a bitmask (bit k = k+1)."""
        from pencilbox.genres.sudoku.solver import candidates

        return candidates(self.values(), self.n)

    def accept_singles(self) -> Sudoku:
        """The original tool's "accept singles": every current single placed, as one move."""
        from pencilbox.genres.sudoku.solver import accept_singles

        board = accept_singles(self.values(), self.n)
        placed = [0 if g else v for g, v in zip(self.givens.cells, board)]
        return Sudoku(
            self.n,
            self.givens,
            self.alphabet,
            title=self.title,
            placed=Grid(self.size, self.size, tuple(placed)),
            solution=self.solution,
            meta=dict(self.meta),
        )

    def logic_grid(self, max_passes: int | None = None, probes: bool = False) -> Grid:
        """What singles find: "accept singles" repeated (`max_passes` times, else until
        nothing changes). `probes` is accepted for the CLI's interface and ignored."""
        from pencilbox.genres.sudoku.solver import accept_singles

        board = self.values()
        passes = 0
        while max_passes is None or passes < max_passes:
            passes += 1
            following = accept_singles(board, self.n)
            if following == board or duplicate_messages(following, self.n, self.alphabet):
                break
            board = following
        return Grid(self.size, self.size, tuple(board))

    def render(self, state: Grid | None = None, fmt: str = "text") -> str:
        """A text picture with box borders (the `.ss` picture layout), or an SVG."""
        from pencilbox.genres.sudoku import render

        values = list(state.cells) if state is not None else self.values()
        if fmt == "svg":
            return render.svg(self, values)
        return render.picture(values, self.n, self.alphabet)

    def render_png(self, state: Grid | None = None, scale: int = 2) -> bytes:
        from pencilbox.genres.sudoku import render

        values = list(state.cells) if state is not None else self.values()
        return render.png(self, values, scale=scale)

    def solution_json(self, grid: Grid) -> str:
        """A solution as one string of N*N symbols in the puzzle's alphabet, row-major."""
        return "".join(self.alphabet[v - 1] if v else "." for v in grid.cells)

    def __repr__(self) -> str:
        title = f" {self.title!r}" if self.title else ""
        return f"<Sudoku {self.size}x{self.size}{title} {self.line()}>"


def _cells(a: Grid, b: Grid) -> list[tuple[tuple[int, int], int, int]]:
    return [(divmod(i, a.width), x, y) for i, (x, y) in enumerate(zip(a.cells, b.cells))]


# -- building and validation ---------------------------------------------------------------------
def make_sudoku(
    values: Sequence[int],
    *,
    size: int | None = None,
    alphabet: str | None = None,
    title: str | None = None,
    placed: Sequence[int] | None = None,
    solution: Sequence[int] | None = None,
    meta: dict[str, str] | None = None,
) -> Sudoku:
    """Build a Sudoku and check it; raises InvalidPuzzle naming the unit and cells."""
    if size is None:
        root = round(len(values) ** 0.5)
        if root * root != len(values):
            raise InvalidPuzzle(f"{len(values)} cells do not make a square grid")
        size = root
    n = box_size(size)
    if len(values) != size * size:
        raise InvalidPuzzle(f"{len(values)} cells, a {size}x{size} sudoku needs {size * size}")
    alphabet = check_alphabet(alphabet or default_alphabet(size), size)
    for index, v in enumerate(values):
        if not 0 <= v <= size:
            raise InvalidPuzzle(f"{cell_name(divmod(index, size))} holds {v}, not 0..{size}")
    board = list(values)
    placed_grid = None
    if placed is not None and any(placed):
        for index, (g, p) in enumerate(zip(values, placed)):
            if g and p:
                raise InvalidPuzzle(f"{cell_name(divmod(index, size))} is both given and placed")
        board = [g or p for g, p in zip(values, placed)]
        placed_grid = Grid(size, size, tuple(placed))
    problems = duplicate_messages(board, n, alphabet)
    if problems:
        raise InvalidPuzzle(problems[0])
    solution_grid = None
    if solution is not None:
        solution_grid = Grid(size, size, tuple(solution))
    return Sudoku(
        n,
        Grid(size, size, tuple(values)),
        alphabet,
        title=title,
        placed=placed_grid,
        solution=solution_grid,
        meta=dict(meta or {}),
    )


def duplicate_messages(values: Sequence[int], n: int, alphabet: str) -> list[str]:
    """ "row 4 has two 7s: r4c2 and r4c8" for every digit seen twice in a unit."""
    from pencilbox.genres.sudoku.solver import conflicts

    size = n * n
    kinds = ("row", "column", "box")
    messages = []
    for unit, digit, a, b in conflicts(values, n):
        kind = kinds[unit // size]
        name_a = cell_name(divmod(a, size))
        name_b = cell_name(divmod(b, size))
        messages.append(
            f"{kind} {unit % size + 1} has two {alphabet[digit - 1]}s: {name_a} and {name_b}"
        )
    return messages


def symbols_to_values(
    text: str,
    alphabet: str,
    *,
    line: int | None = None,
    column: int = 1,
    blanks: str = BLANKS,
) -> list[int]:
    """Map each character to 0 (blank) or its digit; FormatError at the first unknown one."""
    lookup = {ch: i + 1 for i, ch in enumerate(alphabet)}
    if not any(ch.islower() for ch in alphabet):
        lookup.update({ch.lower(): i + 1 for i, ch in enumerate(alphabet) if ch.isalpha()})
    for blank in blanks:
        lookup.setdefault(blank, 0)
    values = []
    for offset, ch in enumerate(text):
        try:
            values.append(lookup[ch])
        except KeyError:
            raise FormatError(
                f"{ch!r} is not a digit of this sudoku (alphabet {alphabet}, blanks "
                f"{''.join(b for b in blanks if b not in alphabet)})",
                line=line,
                column=column + offset,
            ) from None
    return values


def size_for_length(length: int) -> int:
    """N for a line of `length` symbols; the nearest size names the error otherwise."""
    for size in SIZES.values():
        if size * size == length:
            return size
    nearest = min(SIZES.values(), key=lambda s: abs(s * s - length))
    raise InvalidPuzzle(f"{length} cells, a {nearest}x{nearest} sudoku needs {nearest * nearest}")


# -- solving -------------------------------------------------------------------------------------
def solve_puzzle(puzzle: Sudoku, limit: int = 2, time_limit: float | None = None) -> SolveResult:
    from pencilbox.genres.base import SolveResult
    from pencilbox.genres.sudoku.solver import singles_solve, solve_values

    started = time.perf_counter()
    board = puzzle.values()
    size = puzzle.size
    deadline = Deadline(time_limit)
    stats: dict[str, Any] = {}
    try:
        # Validation mode: at least two solutions are looked for, so "unique" is a proof.
        solutions = solve_values(board, puzzle.n, max(limit, 2), deadline, stats=stats)
    except (TimeLimitReached, KeyboardInterrupt) as stop:
        if isinstance(stop, KeyboardInterrupt):
            stats["interrupted"] = 1
        return SolveResult(
            "timeout",
            [],
            None,
            stats=stats,
            time_s=time.perf_counter() - started,
            partial=Grid(size, size, tuple(board)),
        )
    status = "none" if not solutions else "unique" if len(solutions) == 1 else "multiple"
    grids = [Grid(size, size, tuple(v)) for v in solutions[: max(limit, 1)]]
    grade = None
    if status == "unique":
        by_singles = stats.get("singles")
        if by_singles is None:
            by_singles = singles_solve(board, puzzle.n) is not None
        grade = "singles" if by_singles else "search"
    return SolveResult(
        status,  # type: ignore[arg-type]
        grids,
        grade,
        stats=stats,
        time_s=time.perf_counter() - started,
    )
