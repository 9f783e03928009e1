"""How a batch cuts its items into tasks: probes first, then about a second of work a task,
smaller near the end; never two kinds of item (or two list files) in one task."""

from __future__ import annotations

from pencilbox.batch.chunks import (
    MAX_CHUNK,
    PROBE,
    RAMP_SECONDS,
    SMALLEST_SECONDS,
    TARGET_SECONDS,
    Chunker,
)
from pencilbox.batch.work import Item


def _entries(count: int, file: str = "list.txt") -> list[Item]:
    return [Item(file, line) for line in range(1, count + 1)]


def _seeds(count: int) -> list[Item]:
    return [Item(seed=seed) for seed in range(1, count + 1)]


def test_probes_first_then_about_a_second_of_work_a_task() -> None:
    chunker = Chunker(_entries(100_000), workers=2)
    probes = [chunker.take() for _ in range(4)]  # two in flight a worker, doubling
    assert [len(p or []) for p in probes] == [PROBE["list"] * 2**k for k in range(4)]
    assert chunker.take() is None  # waits for a probe's time
    chunker.finished(probes[0] or [], 0.001 * PROBE["list"])  # 1 ms an item
    sizes = []
    for _ in range(6):
        chunk = chunker.take() or []
        sizes.append(len(chunk))
        chunker.finished(chunk, 0.001 * len(chunk))
    # grows by at most 16x a step (or to 0.1 s of work), up to a second of work (1,000 items
    # of 1 ms)
    assert sizes[0] == 16 * PROBE["list"]
    assert sizes[-1] == round(TARGET_SECONDS / 0.001)
    assert max(sizes) <= MAX_CHUNK


def _simulate(chunker: Chunker, workers: int, per_item: float) -> tuple[list[float], int]:
    """Run the chunker as the executors do (two tasks in flight a worker, the first free
    worker takes the oldest), on items of `per_item` seconds: when each worker ends, and
    how many tasks there were."""
    clock = [0.0] * workers
    queue: list[list[Item]] = []
    tasks = 0
    while True:
        while len(queue) < 2 * workers and (chunk := chunker.take()) is not None:
            queue.append(chunk)
        if not queue:
            return clock, tasks
        worker = clock.index(min(clock))
        chunk = queue.pop(0)
        clock[worker] += per_item * len(chunk)
        tasks += 1
        chunker.finished(chunk, per_item * len(chunk))


def test_tasks_shrink_at_the_end_so_the_workers_finish_together() -> None:
    for count, per_item in ((10_000, 0.0002), (1_000, 0.1), (200, 0.01)):
        ends, tasks = _simulate(Chunker(_seeds(count), workers=2), 2, per_item)
        work = count * per_item
        assert max(ends) - min(ends) <= max(SMALLEST_SECONDS, per_item) + 1e-9
        # about a second of work a task (a few probes and small tasks at the ends)
        assert tasks <= work / TARGET_SECONDS + 24, (count, per_item, tasks)


def test_tiny_items_reach_a_useful_size_in_one_step() -> None:
    chunker = Chunker(_entries(100_000), workers=2)
    probe = chunker.take() or []
    chunker.finished(probe, 0.00005 * len(probe))  # 50 microseconds an item
    assert len(chunker.take() or []) == round(RAMP_SECONDS / 0.00005)


def test_long_items_go_alone() -> None:
    chunker = Chunker(_seeds(10), workers=2)
    sizes = []
    while (chunk := chunker.take()) is not None:
        sizes.append(len(chunk))
        chunker.finished(chunk, 11.0 * len(chunk))
    assert sizes == [1] * 10


def test_a_task_holds_one_kind_and_one_list_file() -> None:
    items = _entries(5, "a.txt") + _entries(5, "b.txt") + [Item("x.json", None)] + _seeds(3)
    chunker = Chunker(items, workers=1, size=100)
    chunks = []
    while (chunk := chunker.take()) is not None:
        chunks.append(chunk)
        chunker.finished(chunk, 0.0)
    assert [len(c) for c in chunks] == [5, 5, 1, 3]
    assert {c[0].file for c in chunks[:2]} == {"a.txt", "b.txt"}


def test_a_failed_probe_is_sent_again_and_nothing_is_left_behind() -> None:
    chunker = Chunker(_entries(40), workers=1)
    probes = [chunker.take() or [], chunker.take() or []]  # two in flight for one worker
    assert chunker.take() is None
    chunker.finished(probes[0], None)  # its worker died: no time known
    again = chunker.take()
    assert again is not None and again[0].line == len(probes[0]) + len(probes[1]) + 1
    handed = len(probes[0]) + len(probes[1]) + len(again)
    chunker.finished(probes[1], 0.0001 * len(probes[1]))
    chunker.finished(again, 0.0001 * len(again))
    while (chunk := chunker.take()) is not None:
        handed += len(chunk)
        chunker.finished(chunk, 0.0001 * len(chunk))
    assert handed == 40 and chunker.left == 0
