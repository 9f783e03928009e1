"""Type stub of the compiled nonogram engine (_engine.c): line solving, propagation and
probing on colour masks (black-and-white is the one-colour case)."""

from collections.abc import Callable, Iterable, Sequence

Clue = tuple[tuple[int, int], ...]
Broken = tuple[str, int]
Counts = tuple[int, int, int]
"""(probes, passes, line solves) since the last answer"""

def solve_line(clue: Clue, line: tuple[int, ...], /) -> tuple[int, ...] | None:
    """The line narrowed to the colours some placement of the clue gives each cell (the same
    tuple when nothing changes), or None when no placement fits."""

def run_starts(clue: Clue, line: tuple[int, ...], /) -> tuple[list[int], ...] | None:
    """The starts each run may take, ascending, or None when no placement fits."""

class Engine:
    """One puzzle's clues (colours = palette size, background included, 2 to 64)."""

    def __init__(
        self,
        row_clues: Sequence[Clue],
        col_clues: Sequence[Clue],
        width: int,
        height: int,
        colours: int,
        /,
    ) -> None: ...
    def propagate(
        self, cells: list[int], rows: Iterable[int], cols: Iterable[int], max_passes: int, /
    ) -> tuple[Broken | None, int, int, list[int], list[int]]:
        """Solve the dirty rows, then the dirty columns, and again with the lines whose cells
        changed, until nothing changes or after `max_passes` passes (< 0: no limit); `cells`
        is narrowed in place. Returns (the broken line or None, passes, line solves, the rows
        and the columns still to solve)."""

    def find_probe(
        self,
        cells: list[int],
        start: int,
        solution: list[int] | None,
        ink_first: bool,
        seconds: float,
        /,
    ) -> tuple[int, int, int, Broken | None, Counts]:
        """The first open cell from `start` (wrapping) with a colour that breaks a line:
        (status 0 none / 1 found / 2 out of `seconds` (< 0: no limit), cell, colour, broken,
        counts). Colours are tried from the background up, or the inks first; with a
        solution, only the wrong ones. Probes are remembered across calls while `cells` only
        narrows."""

    def solve_by_logic(
        self, cells: list[int], solution: list[int] | None, ink_first: bool, seconds: float, /
    ) -> tuple[int, Broken | None, Counts]:
        """Lines to a fixpoint, then probes, until solved or stuck; `cells` narrowed in place.
        Returns (status 0 stuck or solved / 1 contradiction / 2 out of time, broken, counts)."""

    def forget(self) -> None:
        """Empty the probe memo."""
    def forget_lines(self) -> None:
        """Drop the remembered line answers (each line state's answer is kept across calls,
        in at most 4 MB; benchmarks drop them to time a cold start)."""
    def violation(self, cells: list[int], /) -> Broken | None:
        """The first line, rows first, whose runs differ from its clue (an undecided cell
        breaks its line), or None when the grid fits every clue."""

class LinePropagator:
    """The line solver inside CaDiCaL's search (python-sat's external-propagator protocol):
    `variables[cell * colours + colour]` is the variable "the cell has this colour" (0: none,
    the cell decided in `cells`). The search ends with the empty clause after `seconds`
    (<= 0: no limit) or when `interrupted()` is true; `stopped` says which."""

    is_lazy: bool
    counts: dict[str, int]
    stopped: str | None
    model: list[int] | None
    """The solution found (literals, variable v at index v - 1), None before one."""

    def __init__(
        self,
        engine: Engine,
        cells: list[int],
        variables: Sequence[int],
        seconds: float,
        interrupted: Callable[[], bool],
        /,
    ) -> None: ...
    def on_assignment(self, lit: int, fixed: bool = False, /) -> None: ...
    def on_new_level(self) -> None: ...
    def on_backtrack(self, level: int, /) -> None: ...
    def propagate(self) -> list[int]: ...
    def provide_reason(self, lit: int, /) -> list[int]: ...
    def check_model(self, model: list[int], /) -> bool: ...
    def decide(self) -> int: ...
    def has_clause(self) -> bool: ...
    def add_clause(self) -> list[int]: ...
