"""Solving whole lists of Sudoku puzzles in compiled code (validation mode).

    solve_many(lines, limit=2, time_limit=None) -> ManySolved
        puzzle lines (N*N symbols: digits, then letters for 16x16 and 25x25; '.' or '0' for an
        empty cell) to statuses and solution lines, in order;
    solve_puzzles(puzzles, limit=2, time_limit=None) -> Iterator[SolveResult]
        the genre interface's batch call (`pencilbox solve LIST --jsonl`): one SolveResult per
        Sudoku, the same as `Sudoku.solve` would give.

Both hand the kernel (solver.solve_batch) a whole list at once, so a puzzle costs no Python
call of its own: the kernel answers in C a slice of puzzles at a time (Ctrl-C is noticed
between slices). Without the compiled kernel they solve one puzzle at a time in Python.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pencilbox.core.grid import Grid
from pencilbox.errors import FormatError
from pencilbox.genres.sudoku import solver
from pencilbox.genres.sudoku.model import DEFAULT_ALPHABETS, SIZES, Sudoku, size_for_length

if TYPE_CHECKING:
    from pencilbox.genres.base import SolveResult, Status

BLANK_SYMBOLS = ".0"


@dataclass(frozen=True)
class ManySolved:
    """The outcome of `solve_many`, one entry per line, in order."""

    statuses: list[Status]
    """unique, multiple, none, or timeout (the time limit ran out first)."""
    solutions: list[list[str]]
    """Up to `limit` solutions per puzzle, each a line of N*N symbols."""
    nodes: list[int]
    """Search nodes per puzzle (0 when the puzzle went to SAT or timed out before)."""

    def __len__(self) -> int:
        return len(self.statuses)

    def __iter__(self) -> Iterator[tuple[Status, list[str]]]:
        return iter(zip(self.statuses, self.solutions))


def _status(found: int, timed_out: bool) -> Status:
    """The verdict of a search that looked for at least two solutions."""
    if timed_out:
        return "timeout"
    return "none" if found == 0 else "unique" if found == 1 else "multiple"


def _digit_table(size: int) -> bytes:
    """bytes.translate table: each symbol of the default alphabet (either case) to its digit,
    the blanks to 0, everything else to 255 (refused)."""
    table = bytearray([255] * 256)
    for digit, symbol in enumerate(DEFAULT_ALPHABETS[size], start=1):
        table[ord(symbol)] = table[ord(symbol.lower())] = digit
    for blank in BLANK_SYMBOLS:
        table[ord(blank)] = 0
    return bytes(table)


def _read_lines(lines: Sequence[str]) -> tuple[int, bytes]:
    """(box size, the digits of every line) for lines of one size; FormatError names the line
    and column of the first symbol that is not a digit of that size."""
    stripped = [line.strip() for line in lines]
    size = size_for_length(len(stripped[0])) if stripped else 9
    table = _digit_table(size)
    for number, line in enumerate(stripped, start=1):
        if len(line) != size * size:
            raise FormatError(
                f"{len(line)} symbols where a {size}x{size} sudoku line has {size * size}",
                line=number,
            )
    data = "".join(stripped).encode("latin-1", errors="replace").translate(table)
    bad = data.find(255)
    if bad >= 0:
        number, column = divmod(bad, size * size)
        raise FormatError(
            f"{stripped[number][column]!r} is not a symbol of a {size}x{size} sudoku "
            f"({DEFAULT_ALPHABETS[size]}, blanks {BLANK_SYMBOLS})",
            line=number + 1,
            column=column + 1,
        )
    n = next(n for n, big in SIZES.items() if big == size)
    return n, data


def solve_many(lines: Iterable[str], limit: int = 2, time_limit: float | None = None) -> ManySolved:
    """Solve every puzzle line in validation mode (two solutions are looked for, so "unique"
    is a proof); up to `limit` solutions are kept per puzzle.

    Lines hold one puzzle each, all of one size, in the default symbols of that size ('.' or
    '0' for an empty cell); a bad line raises FormatError naming its line number and column.
    `time_limit` is in seconds per puzzle."""
    n, data = _read_lines(list(lines))
    to_symbols = bytes.maketrans(bytes(range(1, n * n + 1)), DEFAULT_ALPHABETS[n * n].encode())
    many = ManySolved([], [], [])
    if solver.KERNEL_LINES is None or (time_limit is not None and time_limit <= 0):
        cells = n**4
        boards = [data[i : i + cells] for i in range(0, len(data), cells)]
        for solved in solver.solve_batch(boards, n, max(limit, 2), time_limit):
            _keep(many, solved, to_symbols, limit)
        return many
    symbols = DEFAULT_ALPHABETS[n * n]
    for part in solver.kernel_line_slices(data, n, time_limit, symbols, max(limit, 1)):
        many.statuses.extend(part.verdicts)  # type: ignore[arg-type]
        many.solutions.extend(part.solutions)
        many.nodes.extend(part.nodes)
        if "budget" in part.verdicts:  # past the kernel's node budget: SAT settles it
            _settle_with_sat(many, part, n, data, to_symbols, limit, time_limit)
    return many


def _keep(many: ManySolved, solved: solver.BatchSolved, to_symbols: bytes, limit: int) -> None:
    many.statuses.append(_status(len(solved.solutions), solved.timed_out))
    grids = solved.solutions[: max(limit, 1)]
    many.solutions.append([bytes(grid).translate(to_symbols).decode() for grid in grids])
    many.nodes.append(solved.stats.get("nodes", 0))


def _settle_with_sat(
    many: ManySolved,
    part: solver.LinesSlice,
    n: int,
    data: bytes,
    to_symbols: bytes,
    limit: int,
    time_limit: float | None,
) -> None:
    cells = n**4
    for k, verdict in enumerate(part.verdicts):
        if verdict != "budget":
            continue
        index = part.first + k
        board = data[index * cells : (index + 1) * cells]
        sat = solver.sat_after_kernel(board, n, max(limit, 2), time_limit, part.nodes[k])
        many.statuses[index] = _status(len(sat.solutions), sat.timed_out)
        grids = sat.solutions[: max(limit, 1)]
        many.solutions[index] = [bytes(grid).translate(to_symbols).decode() for grid in grids]


def solve_puzzles(
    puzzles: Sequence[Sudoku], limit: int = 2, time_limit: float | None = None
) -> Iterator[SolveResult]:
    """One SolveResult per puzzle, in order, as `Sudoku.solve` gives them (validation mode, so
    at least two solutions are looked for), with the puzzles of each size solved as a batch.
    Ctrl-C during the batch gives a last result with status "timeout" and
    stats["interrupted"] = 1, and ends the results."""
    from pencilbox.genres.base import SolveResult

    index = 0
    try:
        for size_group in _runs_of_one_size(puzzles):
            n = size_group[0].n
            boards = [p.values() for p in size_group]
            found = solver.solve_batch(boards, n, max(limit, 2), time_limit, singles=True)
            for puzzle, solved in zip(size_group, found):
                yield _result(puzzle, solved, limit)
                index += 1
    except KeyboardInterrupt:
        if index < len(puzzles):
            puzzle = puzzles[index]
            size = puzzle.size
            partial = Grid(size, size, tuple(puzzle.values()))
            yield SolveResult("timeout", [], None, stats={"interrupted": 1}, partial=partial)


def _runs_of_one_size(puzzles: Sequence[Sudoku]) -> Iterator[list[Sudoku]]:
    """The puzzles in order, cut where the size changes."""
    run: list[Sudoku] = []
    for puzzle in puzzles:
        if run and run[0].n != puzzle.n:
            yield run
            run = []
        run.append(puzzle)
    if run:
        yield run


def _result(puzzle: Sudoku, solved: solver.BatchSolved, limit: int) -> SolveResult:
    """The SolveResult that `solve_puzzle` gives for this puzzle (same fields, same stats)."""
    from pencilbox.genres.base import SolveResult

    size = puzzle.size
    if solved.timed_out:
        partial = Grid(size, size, tuple(puzzle.values()))
        return SolveResult(
            "timeout", [], None, stats=solved.stats, time_s=solved.seconds, partial=partial
        )
    found = solved.solutions
    status = _status(len(found), False)
    seconds = solved.seconds
    grade = None
    if status == "unique":
        by_singles = solved.stats.get("singles")
        if by_singles is None:  # SAT settled it: ask the singles alone, as solve_puzzle does
            started = time.perf_counter()
            by_singles = solver.singles_solve(puzzle.values(), puzzle.n) is not None
            seconds += time.perf_counter() - started
        grade = "singles" if by_singles else "search"
    grids = [Grid(size, size, tuple(v)) for v in found[: max(limit, 1)]]
    return SolveResult(status, grids, grade, stats=solved.stats, time_s=seconds)
