"""Type stub of the compiled Sudoku search kernel (_kernel.c)."""

from collections.abc import Sequence

def solve(
    givens: Sequence[int], n: int, limit: int, max_nodes: int, max_seconds: float, /
) -> tuple[list[list[int]], int, int, bool]:
    """Up to `limit` solutions of the givens (N*N ints, 0 = empty) for box size n: (solutions,
    search nodes, stop: 0 finished / 1 past max_nodes / 2 past max_seconds, whether the root's
    naked and hidden singles alone filled the grid). max_nodes 0 and max_seconds 0.0: no
    budget."""
