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

def propagate(n: int, values: list[int], cands: list[int], /) -> bool:
    """Naked and hidden singles until none is left, written into `values` (digits, 0 = open)
    and `cands` (candidate masks); False on a contradiction (logic/forcing.py's propagate)."""

def implications_all(
    nodes: Sequence[int],
    weak: dict[int, int],
    strong: dict[int, int],
    groups: list[int],
    limit: int,
    /,
) -> list[tuple[int, int, int, int]]:
    """Per node (being true): the masks of the nodes implied true and false, the lowest node
    both true and false (-1: none) and, when there is none, the index of the first group all
    of whose nodes are false (-1: none); node ids below `limit` (logic/forcing.py)."""

def chain_scan(
    nodes: Sequence[int],
    strong: dict[int, int],
    weak: dict[int, int],
    full_weak: dict[int, int],
    present: int,
    size: int,
    base: int,
    mode: int,
    skip: int,
    start: int,
    limit: int,
    /,
) -> tuple[int, int, list[tuple[int, tuple[int, ...]]]] | None:
    """The chains (logic/chains.py) of the first start from nodes[start:] that has any which
    eliminates something: (index after it, the start node, [(end node, path), ...]); None
    when no start has one. mode: 0 x, 1 xy, 2 aic, 3 grouped (node ids from `base` are
    groups)."""
