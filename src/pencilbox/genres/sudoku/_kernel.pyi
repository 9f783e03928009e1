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

def als_rcc(
    packed: list[bytes], size: int, words: int, digit_cells: list[int], /
) -> dict[int, dict[int, int]]:
    """For each ALS index, the ALS it shares restricted common digits with and those digits
    (logic/als.py's rcc_map, dicts filled in the same order); each ALS packed as its cell mask,
    then its `where` and `seen` masks per digit, `words` little-endian uint64s each."""

def sdc_pair(
    inter: list[int],
    line_rest: list[int],
    box_rest: list[int],
    line: list[int],
    box: list[int],
    cands: list[int],
    /,
) -> list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]]:
    """The Sue de Coq of one box and line (logic/sdc.py) that eliminate something, in order:
    (intersection cells, line cells, box cells)."""

def grouped_links(
    n: int, cands: list[int], /
) -> tuple[list[tuple[int, tuple[int, ...]]], dict[int, int], dict[int, int]]:
    """Grouped AIC's group nodes (logic/chains.py): the (digit, cells) of each, numbered from
    N*N*N, and the weak and strong link masks of each group and of each candidate linked to
    a group (its groups only)."""

def als_scan(
    packed: list[bytes],
    size: int,
    words: int,
    digit_cells: list[int],
    rcc: dict[int, dict[int, int]],
    kind: int,
    /,
) -> list[tuple[int, ...]]:
    """The candidates of logic/als.py's searches that eliminate something, in their order:
    kind 0 ALS-XZ (a, b) pairs; kind 1 ALS-XY-Wing (pivot, a, b, x, y)."""

def fish_scan(
    masks: list[int], k: int, n: int, finned: bool, /
) -> list[tuple[tuple[int, ...], int]]:
    """The fish (logic/fish.py) of one digit and orientation, `masks` holding per base line
    the cross positions of the digit, that eliminate something, in order: (base lines, their
    union) for basic fish, (base lines, the fins' positions) for finned and sashimi ones."""
