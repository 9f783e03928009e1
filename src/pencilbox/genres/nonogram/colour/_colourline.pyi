"""Type stub of the compiled colour line solver (_colourline.c)."""

def solve_line(
    clue: tuple[tuple[int, int], ...], line: tuple[int, ...], /
) -> tuple[int, ...] | None:
    """The line narrowed to the colours some placement of the clue gives each cell (the same
    tuple when nothing changes), or None when no placement fits."""

def run_starts(
    clue: tuple[tuple[int, int], ...], line: tuple[int, ...], /
) -> tuple[list[int], ...] | None:
    """The starts each run may take, ascending, or None when no placement fits."""
