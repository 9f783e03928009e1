"""How the items of a batch are cut into tasks: sized from the time the first ones took.

A task has a cost of its own (a few tenths of a millisecond on the local pool, several
milliseconds on Dask, more on a busy machine), so tiny items (a compiled sudoku solve takes
a tenth of a millisecond) must travel many to a task; long items (a 10x10 Double Choco takes
seconds) must travel alone, or a worker would be left idle at the end. Nothing tells in
advance which, so each kind of item is first sent in small probes (as many as the executors
keep in flight, list entries in doubling sizes, so that no worker waits idle for the first
answer), and once a worker says how long its probe took, tasks carry about TARGET_SECONDS of
work each. Near the end they shrink, so that the workers finish together.

Items of one kind share a chunk: the entries of one list file (one compiled `solve_many`
call), puzzle files, or seeds.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from pencilbox.batch.work import Item

TARGET_SECONDS = 1.0
"""The work a task carries once the time per item is known: against Dask's few ms a task
(50 ms on a busy machine) an overhead of a few per cent, and no more than a second of
work lost per worker when a batch is interrupted."""
SMALLEST_SECONDS = 0.05
"""Near the end tasks shrink to balance the workers, but not below this much work (a tenth
of a millisecond a task on the local pool, 5 ms on Dask)."""
PROBE = {"list": 8, "files": 1, "seeds": 1}
"""Items in a first task of a kind, before its time per item is known."""
IN_FLIGHT = 2
"""Tasks the executors keep in flight a worker (one running, the next waiting)."""
GROWTH = 16
RAMP_SECONDS = 0.1
"""A task holds at most GROWTH times the items of the largest one measured of its kind, or
RAMP_SECONDS of work at the measured pace if that is more: a fast start (easy puzzles first)
does not make the next task enormous, and tiny items (a tenth of a millisecond) reach a
useful size in one step instead of three round trips."""
MAX_CHUNK = 4096


def kind(item: Item) -> str:
    """Which items may share a task and a time-per-item estimate."""
    if item.seed is not None:
        return "seeds"
    return "files" if item.line is None else f"list {item.file}"


def _run_ends(items: Sequence[Item]) -> list[int]:
    """For each item, the index after the last item of the run of its kind it is in."""
    ends = [0] * len(items)
    end, group = len(items), None
    for index in range(len(items) - 1, -1, -1):
        here = kind(items[index])
        if here != group:
            end, group = index + 1, here
        ends[index] = end
    return ends


class Chunker:
    """Hands out the items as chunks, sized from what the finished ones took.

    take() gives the next chunk, or None when there is none to give now (all handed out, or
    the first chunk of a kind is still running and its time is needed); every chunk taken
    must be reported once to finished(), with the seconds its work took (None if it failed).
    `size` fixes the number of items a chunk (the --chunk option)."""

    def __init__(self, items: Sequence[Item], workers: int, size: int | None = None) -> None:
        self._items = list(items)
        self._next = 0
        self._run_ends = _run_ends(self._items)
        """Where each item's run of one kind ends (found once: take() is called from the
        loop that feeds the workers, where a look at every item cost 5 us an item, 0.5 s
        of the command's own CPU for 100,000 sudokus, taken from the workers' 2 cores)."""
        self._workers = max(1, workers)
        self._size = size
        self._seconds: dict[str, float] = {}  # measured work per kind
        self._counted: Counter[str] = Counter()  # items measured per kind
        self._largest: Counter[str] = Counter()  # largest measured chunk per kind
        self._probing: Counter[str] = Counter()  # probes out, per kind not yet measured
        self._probed: Counter[str] = Counter()  # probes sent, per kind
        self.taken = 0
        """How many chunks were handed out."""

    @property
    def left(self) -> int:
        """Items not handed out yet."""
        return len(self._items) - self._next

    def take(self) -> list[Item] | None:
        if not self.left:
            return None
        group = kind(self._items[self._next])
        if self._size is not None:
            count = self._size
        elif self._counted[group]:
            count = self._sized(group)
        elif self._probing[group] < IN_FLIGHT * self._workers:
            count = self._probe_size(group)
            self._probing[group] += 1
            self._probed[group] += 1
        else:
            return None  # the probes of this kind will say how many
        end = min(self._next + count, self._run_ends[self._next])
        chunk = self._items[self._next : end]
        self._next = end
        self.taken += 1
        return chunk

    def _probe_size(self, group: str) -> int:
        prefix = group.split(" ", 1)[0]
        if prefix != "list":  # files and seeds may take seconds each: one at a time
            return PROBE[prefix]
        doublings: int = min(self._probed[group], 3)
        return PROBE[prefix] << doublings

    def _sized(self, group: str) -> int:
        per_item = self._seconds.get(group, 0.0) / self._counted[group]
        if per_item <= 0:
            return min(MAX_CHUNK, GROWTH * self._largest[group])
        target = TARGET_SECONDS / per_item
        balanced = self.left / (2 * self._workers)  # the last tasks shrink...
        smallest = SMALLEST_SECONDS / per_item  # ...but stay worth sending
        count = max(smallest, min(target, balanced))
        ramp = max(GROWTH * self._largest[group], RAMP_SECONDS / per_item)
        count = min(count, ramp, MAX_CHUNK)
        return max(1, math.ceil(count))

    def finished(self, chunk: Sequence[Item], seconds: float | None) -> None:
        """A chunk is done: `seconds` of work (None when it failed and says nothing)."""
        if not chunk:
            return
        group = kind(chunk[0])
        if self._probing[group]:
            self._probing[group] -= 1
        if seconds is None:
            return
        self._seconds[group] = self._seconds.get(group, 0.0) + seconds
        self._counted[group] += len(chunk)
        self._largest[group] = max(self._largest[group], len(chunk))
