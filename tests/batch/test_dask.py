"""`pencilbox batch` on a real Dask cluster: a scheduler and two workers started as separate
processes on 127.0.0.1, one worker killed mid-batch; every record must be there once and right."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from distributed import Client

from pencilbox.batch.chunks import Chunker
from pencilbox.batch.executors import DaskCluster
from pencilbox.batch.work import Item, Job
from pencilbox.errors import PuzzleError
from pencilbox.genres import base
from pencilbox.records import generated_record
from tests.batch.conftest import PENCILBOX, kill_quietly, records, wait_for_records

DASK = [str(Path(sys.executable).with_name("dask"))]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def cluster() -> Iterator[tuple[str, list[subprocess.Popen[bytes]]]]:
    """tcp://127.0.0.1:PORT of a scheduler with two single-thread workers (no nanny, so a
    killed worker stays dead)."""
    address = f"tcp://127.0.0.1:{_free_port()}"
    port = address.rsplit(":", 1)[1]
    started = [
        subprocess.Popen(
            [*DASK, "scheduler", "--host", "127.0.0.1", "--port", port, "--no-dashboard"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    ]
    try:
        for name in ("w1", "w2"):
            worker = [*DASK, "worker", address, "--nthreads", "1", "--no-nanny", "--name", name]
            started.append(
                subprocess.Popen(
                    [*worker, "--no-dashboard", "--host", "127.0.0.1"],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
        with Client(address, timeout="120s") as client:  # generous: a busy machine
            client.wait_for_workers(2, timeout=120)
        yield address, started
    finally:
        for process in started:  # nothing to save: no graceful shutdown
            kill_quietly(process.pid)
            process.wait(timeout=20)


def test_a_killed_worker_loses_nothing(
    cluster: tuple[str, list[subprocess.Popen[bytes]]], tmp_path: Path
) -> None:
    address, processes = cluster
    out = tmp_path / "made.jsonl"
    count = 24
    command = [*PENCILBOX, "batch", "generate", "sudoku", "--count", str(count), "--seed", "3"]
    process = subprocess.Popen(  # one seed a task: the kill finds tasks running and queued
        [*command, "--out", str(out), "--scheduler", address, "--chunk", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        at_kill = wait_for_records(out, 2, process)
        assert at_kill < count  # mid-batch
        kill_quietly(processes[1].pid)  # worker w1, whatever it was doing
        _, stderr = process.communicate(timeout=240)
    finally:
        kill_quietly(process.pid)
    assert process.returncode == 0, stderr
    final = records(out)
    assert [r["seed"] for r in final] == list(range(3, 3 + count))  # each once, in order
    sudoku = base.get("sudoku")
    for record in final:
        want = generated_record(sudoku, sudoku.generate(seed=str(record["seed"])))
        assert record.pop("status") == "generated"
        assert _without_times(record) == _without_times(want)


def _without_times(record: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in record.items() if key != "time_s"}


def test_generation_gives_the_same_records_on_every_executor(tmp_path: Path) -> None:
    """Seeds are a promise: Double Choco puzzles from the same seeds are the same with one
    local worker, two, or a Dask cluster (whatever the chunks and the load)."""
    made = {}
    for name, where in (
        ("one", ["--workers", "1"]),
        ("two", ["--workers", "2"]),
        ("dask", ["--scheduler", "local:2"]),
    ):
        out = tmp_path / f"{name}.jsonl"
        command = ["generate", "dbchoco", "--size", "6x6", "--count", "3", "--seed", "1"]
        done = subprocess.run(
            [*PENCILBOX, "batch", *command, "--out", str(out), *where],
            capture_output=True,
            text=True,
            timeout=240,
        )
        assert done.returncode == 0, done.stderr
        made[name] = [_without_times(record) for record in records(out)]
    assert [record["seed"] for record in made["one"]] == [1, 2, 3]
    assert len({record["url"] for record in made["one"]}) == 3
    assert made["two"] == made["one"]
    assert made["dask"] == made["one"]


def test_solving_gives_the_same_records_on_every_executor(tmp_path: Path, list_file: Path) -> None:
    results = {}
    for name, where in (
        ("one", ["--workers", "1"]),
        ("two", ["--workers", "2"]),
        ("dask", ["--scheduler", "local:2"]),
    ):
        out = tmp_path / f"{name}.jsonl"
        done = subprocess.run(
            [*PENCILBOX, "batch", "solve", str(list_file), "--out", str(out), *where],
            capture_output=True,
            text=True,
            timeout=240,
        )
        assert done.returncode == 2, done.stderr  # the bad line
        results[name] = [_without_times(record) for record in records(out)]
    assert [record["line"] for record in results["one"]] == list(range(1, 42))
    assert results["one"][20]["status"] == "error"
    assert results["two"] == results["one"]
    assert results["dask"] == results["one"]


def test_a_local_cluster_leaves_the_cpu_to_the_tasks() -> None:
    """local:N passes QUIET to its workers (through their nannies, at start): no profiler
    sampling the task's stack every 10 ms, the 20 ms tick at 1 s; its client shares the
    scheduler's thread; and the results are right."""

    def periodic(dask_worker: Any) -> dict[str, Any]:
        callbacks = dask_worker.periodic_callbacks
        return {
            "profile": "profile" in callbacks,
            "tick ms": callbacks["tick"].callback_time,
            "monitor ms": callbacks["monitor"].callback_time,
            "memory ms": callbacks["memory_monitor"].callback_time,
        }

    cluster = DaskCluster("local:1")
    try:
        # The client on the scheduler's event-loop thread, not on a second one of its own.
        assert cluster._client.loop is cluster._cluster.loop
        seen = list(cluster._client.run(periodic).values())
        items = [Item(file="list.txt", line=1, puzzle=PuzzleError("not a puzzle"))]
        done = [record for part in cluster.run(Job("solve"), Chunker(items, 1)) for record in part]
    finally:
        cluster.close()
    want = {"profile": False, "tick ms": 1000, "monitor ms": 5000, "memory ms": 1000}
    assert seen == [want]
    assert [(record["status"], record["error"]) for record in done] == [("error", "not a puzzle")]
