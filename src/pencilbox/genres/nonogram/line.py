"""The exact line solver: the cells fixed in every placement of a clue on a partly known line.

Instead of listing placements (exponential on long lines), two tables answer "can runs 0..j-1
fit in the first i cells?" (forward) and "can runs j.. fit in the cells from i on?" (backward).
A run j may start at s when both halves fit around it; a cell may be empty when some split of
the runs leaves it in a gap. Both tables and the marking take O(length x runs).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from pencilbox.genres.nonogram.model import EMPTY, FILLED, UNKNOWN, Clue

Line = tuple[int, ...]


@dataclass(frozen=True)
class Placements:
    """Where each run of a clue may start on a line (None when no placement fits)."""

    starts: tuple[tuple[int, ...], ...]
    can_fill: tuple[bool, ...]
    can_empty: tuple[bool, ...]


def solve_line(clue: Clue, line: Line) -> Line | None:
    """The line with every forced cell set; None when no placement agrees with the line."""
    return _solve_cached(clue, line)


@lru_cache(maxsize=200_000)
def _solve_cached(clue: Clue, line: Line) -> Line | None:
    found = placements(clue, line)
    if found is None:
        return None
    result = []
    for value, fill, empty in zip(line, found.can_fill, found.can_empty):
        if value != UNKNOWN:
            result.append(value)
        elif not fill:
            result.append(EMPTY)
        elif not empty:
            result.append(FILLED)
        else:
            result.append(UNKNOWN)
    return tuple(result)


def placements(clue: Clue, line: Line) -> Placements | None:
    n = len(line)
    k = len(clue)
    empties = [0] * (n + 1)  # empties[i] = known-empty cells among line[:i]
    filleds = [0] * (n + 1)
    for i, value in enumerate(line):
        empties[i + 1] = empties[i] + (value == EMPTY)
        filleds[i + 1] = filleds[i] + (value == FILLED)
    if k == 0:
        if filleds[n]:
            return None
        return Placements((), (False,) * n, (True,) * n)

    not_filled = [value != FILLED for value in line]

    # forward[j][i]: runs 0..j-1 fit inside line[:i], covering every filled cell there.
    forward = [[False] * (n + 1) for _ in range(k + 1)]
    for i in range(n + 1):
        if filleds[i]:
            break
        forward[0][i] = True
    for j in range(1, k + 1):
        length = clue[j - 1]
        row, prev = forward[j], forward[j - 1]
        first_run = j == 1
        for i in range(length, n + 1):
            if i > length and not_filled[i - 1] and row[i - 1]:
                row[i] = True
                continue
            s = i - length
            if empties[i] != empties[s]:
                continue
            if s == 0:
                row[i] = first_run
            elif not_filled[s - 1] and prev[s - 1]:
                row[i] = True

    # backward[j][i]: runs j..k-1 fit inside line[i:], covering every filled cell there.
    backward = [[False] * (n + 2) for _ in range(k + 1)]
    for i in range(n, -1, -1):
        if filleds[n] != filleds[i]:
            break
        backward[k][i] = True
    for j in range(k - 1, -1, -1):
        length = clue[j]
        row, nxt = backward[j], backward[j + 1]
        last_run = j == k - 1
        for i in range(n - length, -1, -1):
            if i < n - length and not_filled[i] and row[i + 1]:
                row[i] = True
                continue
            e = i + length
            if empties[e] != empties[i]:
                continue
            if e == n:
                row[i] = last_run
            elif not_filled[e] and nxt[e + 1]:
                row[i] = True

    if not forward[k][n]:
        return None

    starts: list[tuple[int, ...]] = []
    cover = [0] * (n + 1)
    for j, length in enumerate(clue):
        valid = []
        before, after = forward[j], backward[j + 1]
        for s in range(n - length + 1):
            e = s + length
            if empties[e] != empties[s]:
                continue
            if s == 0:
                if j != 0:
                    continue
            elif not (not_filled[s - 1] and before[s - 1]):
                continue
            if e == n:
                if j != k - 1:
                    continue
            elif not (not_filled[e] and after[e + 1]):
                continue
            valid.append(s)
            cover[s] += 1
            cover[e] -= 1
        starts.append(tuple(valid))

    can_fill = []
    running = 0
    for i in range(n):
        running += cover[i]
        can_fill.append(running > 0)
    can_empty = [
        not_filled[c] and any(forward[j][c] and backward[j][c + 1] for j in range(k + 1))
        for c in range(n)
    ]
    return Placements(tuple(starts), tuple(can_fill), tuple(can_empty))


def runs_covering(clue: Clue, found: Placements, cell: int) -> list[int]:
    """Indices of the runs that cover `cell` in at least one placement."""
    return [
        j
        for j, (length, valid) in enumerate(zip(clue, found.starts))
        if any(s <= cell < s + length for s in valid)
    ]
