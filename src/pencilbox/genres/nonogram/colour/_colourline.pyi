"""Type stub of the compiled colour line solver (_colourline.c)."""

from collections.abc import Iterable, Sequence

def solve_line(
    clue: tuple[tuple[int, int], ...], line: tuple[int, ...], /
) -> tuple[int, ...] | None:
    """The line narrowed to the colours some placement of the clue gives each cell (the same
    tuple when nothing changes), or None when no placement fits."""

def run_starts(
    clue: tuple[tuple[int, int], ...], line: tuple[int, ...], /
) -> tuple[list[int], ...] | None:
    """The starts each run may take, ascending, or None when no placement fits."""

def propagate(
    row_clues: Sequence[tuple[tuple[int, int], ...]],
    col_clues: Sequence[tuple[tuple[int, int], ...]],
    width: int,
    cells: list[int],
    rows: Iterable[int],
    cols: Iterable[int],
    max_passes: int,
    /,
) -> tuple[tuple[str, int] | None, int, int, list[int], list[int]]:
    """Solve the dirty rows, then the dirty columns, and again with the lines whose cells
    changed, until nothing changes or after `max_passes` passes (< 0: no limit); `cells` is
    narrowed in place. Returns (the broken line as ("row" | "column", index) or None, passes,
    line solves, the rows and the columns still to solve)."""
