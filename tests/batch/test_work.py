"""The worker's side of a batch: what travels to a Dask worker and back."""

from __future__ import annotations

import pickle
from pathlib import Path

from pencilbox.batch.command import puzzle_items
from pencilbox.batch.executors import _error
from pencilbox.batch.work import Item, Job, pack, run_chunk, run_packed


def test_a_packed_chunk_gives_the_records_of_the_chunk(list_file: Path) -> None:
    items = list(puzzle_items([str(list_file)], None, 200))
    job = Job("solve")
    packed_records, seconds = pickle.loads(run_packed(pack(job, items)))
    plain_records, _ = run_chunk(job, items)
    assert seconds > 0
    assert packed_records == [
        {**record, "time_s": packed["time_s"]}
        for record, packed in zip(plain_records, packed_records, strict=True)
    ]
    assert [record["status"] for record in packed_records].count("error") == 1  # the bad line


def test_a_failed_task_s_answer_gives_its_exception() -> None:
    error = ValueError("boom")
    assert _error((ValueError, error, None)) is error
    assert _error(error) is error
    assert "odd" in str(_error("odd"))


def test_items_travel_whole(list_file: Path) -> None:
    items = [*puzzle_items([str(list_file)], None, 200), Item(seed=7)]
    again = pickle.loads(pickle.dumps(items))
    assert [item.key() for item in again] == [item.key() for item in items]
    assert [str(item.puzzle) for item in again] == [str(item.puzzle) for item in items]
