"""Type stub of the compiled Sudoku search kernel (_kernel.c)."""

from collections.abc import Sequence

def solve(
    givens: Sequence[int], n: int, limit: int, max_nodes: int, max_seconds: float, /
) -> tuple[list[list[int]], int, int, bool]:
    """Up to `limit` solutions of the givens (N*N ints, 0 = empty) for box size n: (solutions,
    search nodes, stop: 0 finished / 1 past max_nodes / 2 past max_seconds, whether naked and
    hidden singles alone fill the grid). max_nodes 0 and max_seconds 0.0: no budget."""

def solve_batch(
    givens: bytes,
    n: int,
    start: int,
    limit: int,
    max_nodes: int,
    max_seconds: float,
    want_singles: bool,
    slice_seconds: float,
    /,
) -> tuple[int, bytes, bytes, bytes, bytes, bytes, bytes]:
    """The grids of `givens` (N*N digit bytes each) from index `start`, each solved like
    solve(), until all are done or `slice_seconds` passed: (done, found as uint32s, stop codes,
    singles flags, nodes as int64s, seconds as float64s, every solution's digits in order)."""

def solve_lines(
    givens: bytes,
    n: int,
    start: int,
    limit: int,
    max_nodes: int,
    max_seconds: float,
    slice_seconds: float,
    symbols: bytes,
    keep: int,
    /,
) -> tuple[int, bytes, list[list[str]], bytes]:
    """solve_batch() for sudoku.solve_many: (done, a verdict byte per puzzle: 0 none, 1 unique,
    2 multiple, 3 out of time, 4 past max_nodes; each puzzle's first `keep` solutions as lines
    of `symbols` (none when it stopped early); nodes as int64s)."""
