"""`pencilbox batch` on the local process pool: the records, resume, errors, Parquet, seeds,
Ctrl-C and a worker that dies."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
from pathlib import Path

import pyarrow.parquet as pq

from tests.batch.conftest import (
    PENCILBOX,
    children,
    kill_quietly,
    records,
    run_batch,
    wait_for_records,
)

NONOGRAMS = ("data000.json", "data002.json", "data004.json")


def _solve_jsonl(*paths: str) -> list[dict[str, object]]:
    done = subprocess.run(
        [*PENCILBOX, "solve", *paths, "--jsonl"], capture_output=True, text=True, timeout=240
    )
    return [json.loads(line) for line in done.stdout.splitlines()]


def _same(record: dict[str, object]) -> tuple[object, ...]:
    return (record["file"], record.get("line"), record["status"], record["solutions"])


def test_solve_writes_the_records_of_solve_jsonl_in_input_order(
    list_file: Path, puzzle_data: Path, tmp_path: Path
) -> None:
    nonograms = [str(puzzle_data / "nonogram" / "jwilk" / name) for name in NONOGRAMS]
    out = tmp_path / "results.jsonl"
    done = run_batch("solve", str(list_file), *nonograms, "--out", str(out), "--workers", "2")
    assert done.returncode == 2, done.stderr  # one bad line: a record, and exit 2 at the end
    got = records(out)
    expected = _solve_jsonl(str(list_file), *nonograms)
    assert [_same(r) for r in got] == [_same(r) for r in expected]
    assert len(got) == 41 + 3
    bad = got[20]
    assert (bad["line"], bad["status"]) == (21, "error")
    assert "not a sudoku" in bad["error"] or "line 21" in bad["error"]
    assert all(r["status"] == "unique" for r in got if r is not bad)
    assert "unique 43" in done.stderr and "error 1" in done.stderr  # the summary
    assert "slowest:" in done.stderr


def test_resume_keeps_finished_records_drops_a_torn_line_and_duplicates_nothing(
    list_file: Path, tmp_path: Path
) -> None:
    out = tmp_path / "results.jsonl"
    run_batch("solve", str(list_file), "--out", str(out), "--workers", "1")
    full = records(out)
    # As an interrupted run leaves it: the first 12 records (one marked, to see that it is
    # kept rather than solved again) and half of the 13th.
    kept = [dict(record) for record in full[:12]]
    kept[3]["time_s"] = 12345.0
    torn = json.dumps(full[12])[:40]
    out.write_text("".join(json.dumps(r) + "\n" for r in kept) + torn)
    done = run_batch("solve", str(list_file), "--out", str(out), "--workers", "2")
    assert done.returncode == 2, done.stderr
    again = records(out)
    assert [r["line"] for r in again] == [r["line"] for r in full]  # each once, input order
    assert again[3]["time_s"] == 12345.0
    assert [_same(r) for r in again] == [_same(r) for r in full]
    assert "this run: 29 in" in done.stderr  # 41 - 12 done before


def test_a_file_that_is_not_a_batch_output_is_left_alone(list_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "notes.txt"
    out.write_text("my notes\nsecond line\n")
    done = run_batch("solve", str(list_file), "--out", str(out))
    assert done.returncode == 2
    assert "line 1: not a batch record" in done.stderr and "Traceback" not in done.stderr
    assert out.read_text() == "my notes\nsecond line\n"


def test_bad_items_are_error_records(tmp_path: Path, puzzle_data: Path) -> None:
    broken = tmp_path / "broken.non"
    broken.write_text("width 5\nheight x\n")
    missing = tmp_path / "missing.json"
    good = puzzle_data / "nonogram" / "jwilk" / NONOGRAMS[0]
    out = tmp_path / "out.jsonl"
    done = run_batch("check", str(broken), str(missing), str(good), "--out", str(out))
    assert done.returncode == 2
    got = records(out)
    assert [r["status"] for r in got] == ["error", "error", "unique"]
    assert "no such file" in got[1]["error"]
    assert "solutions" not in got[2]  # check: the verdict, no solutions
    assert "Traceback" not in done.stderr


def test_unwritable_output_is_one_line_exit_2(list_file: Path, tmp_path: Path) -> None:
    done = run_batch("solve", str(list_file), "--out", str(tmp_path / "no" / "such" / "x.jsonl"))
    assert done.returncode == 2
    assert done.stderr.startswith("pencilbox: cannot write") and "Traceback" not in done.stderr


def test_grade_to_parquet_and_resume_from_it(list_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "grades.parquet"
    done = run_batch("grade", str(list_file), "--out", str(out), "--workers", "2")
    assert done.returncode == 2, done.stderr
    table = pq.read_table(out)
    rows = table.to_pylist()
    assert len(rows) == 41
    assert [row["line"] for row in rows] == list(range(1, 42))
    single = subprocess.run(
        [*PENCILBOX, "grade", str(list_file), "--jsonl"], capture_output=True, text=True
    )
    expected = [json.loads(line) for line in single.stdout.splitlines()]
    for row, want in zip(rows, expected, strict=True):
        assert (row["level"], row["score"], row["hardest"]) == (
            want["level"],
            want["score"],
            want["hardest"],
        )
    assert rows[20]["status"] == "error" and rows[0]["status"] == "graded"
    assert not (tmp_path / "grades.parquet.partial.jsonl").exists()
    # Run again: everything is there, nothing is graded twice.
    again = run_batch("grade", str(list_file), "--out", str(out))
    assert "this run: 0 in" in again.stderr
    assert pq.read_table(out).to_pylist() == rows


def test_generate_from_consecutive_seeds_is_reproducible(tmp_path: Path) -> None:
    out = tmp_path / "made.jsonl"
    args = ["--size", "8x8"]
    done = run_batch(
        "generate", "nonogram", "--count", "3", "--seed", "7", *args, "--out", str(out)
    )
    assert done.returncode == 0, done.stderr
    got = records(out)
    assert [r["seed"] for r in got] == [7, 8, 9]
    for record in got:
        single = subprocess.run(
            [*PENCILBOX, "generate", "nonogram", "--seed", str(record["seed"]), *args, "--json"],
            capture_output=True,
            text=True,
        )
        want = json.loads(single.stdout)
        for key in ("time_s", "status"):
            record.pop(key)
            want.pop(key, None)
        assert record == want


def test_ctrl_c_exits_130_and_the_same_command_goes_on(tmp_path: Path) -> None:
    out = tmp_path / "made.jsonl"
    # enough work that the batch is still going when Ctrl-C comes, even on a loaded machine
    # where the test notices the first records late
    count = 200
    command = [*PENCILBOX, "batch", "generate", "sudoku", "--count", str(count), "--out", str(out)]
    process = subprocess.Popen(
        [*command, "--workers", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        at_stop = wait_for_records(out, 2, process)
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=120)
    finally:
        kill_quietly(process.pid)
    assert process.returncode == 130, stderr
    assert "run the same command again" in stderr and "Traceback" not in stderr
    first = records(out)  # every line whole
    assert at_stop <= len(first) < count
    done = subprocess.run([*command, "--workers", "2"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    final = records(out)
    assert [r["seed"] for r in final] == list(range(1, count + 1))
    by_seed = {r["seed"]: r for r in final}
    assert all(by_seed[r["seed"]] == r for r in first)  # kept, not made again


def test_a_batch_killed_with_all_its_processes_goes_on_when_run_again(tmp_path: Path) -> None:
    """A lost machine: the command and its workers die at once (SIGKILL, no clean-up); the
    same command again finishes the batch, keeping what was written, with nothing twice."""
    out = tmp_path / "made.jsonl"
    command = [*PENCILBOX, "batch", "generate", "sudoku", "--count", "20", "--out", str(out)]
    process = subprocess.Popen(
        [*command, "--workers", "2", "--chunk", "1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own process group: the pool's processes die with it
    )
    try:
        at_kill = wait_for_records(out, 3, process)
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=60)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    assert at_kill < 20  # mid-batch
    first = [json.loads(line) for line in out.read_text().splitlines()[:at_kill]]
    done = subprocess.run([*command, "--workers", "2"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    final = records(out)
    assert [r["seed"] for r in final] == list(range(1, 21))
    assert {r["status"] for r in final} == {"generated"}
    by_seed = {r["seed"]: r for r in final}
    assert all(by_seed[r["seed"]] == r for r in first)  # kept as written, not made again


def test_a_worker_that_dies_is_replaced_and_its_task_retried(tmp_path: Path) -> None:
    out = tmp_path / "made.jsonl"
    command = [*PENCILBOX, "batch", "generate", "sudoku", "--count", "16", "--out", str(out)]
    process = subprocess.Popen(
        [*command, "--workers", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        at_kill = wait_for_records(out, 1, process)
        # The pool's workers are the forkserver's children (grandchildren of the command).
        workers = [pid for child in children(process.pid) for pid in children(child)]
        assert workers and at_kill < 16
        kill_quietly(workers[0])
        _, stderr = process.communicate(timeout=240)
    finally:
        kill_quietly(process.pid)
    assert process.returncode == 0, stderr
    final = records(out)
    assert [r["seed"] for r in final] == list(range(1, 17))
    assert {r["status"] for r in final} == {"generated"}


def test_steps_go_into_the_records(tmp_path: Path, puzzle_data: Path) -> None:
    out = tmp_path / "traces.jsonl"
    nonogram = puzzle_data / "nonogram" / "jwilk" / NONOGRAMS[1]
    done = run_batch("solve", str(nonogram), "--steps", "--out", str(out), "--workers", "1")
    assert done.returncode == 0, done.stderr
    (record,) = records(out)
    explained = subprocess.run(
        [*PENCILBOX, "explain", str(nonogram), "--json"], capture_output=True, text=True
    )
    assert record["steps"] == [step["sentence"] for step in json.loads(explained.stdout)]
    assert record["status"] == "unique" and record["steps"]


def test_batch_solve_grades_double_choco_only_when_asked(tmp_path: Path, puzzle_data: Path) -> None:
    boards = [str(puzzle_data / "dbchoco" / name) for name in ("robx_pzprjs_01_6x6.json",)]
    plain, graded = tmp_path / "plain.jsonl", tmp_path / "graded.jsonl"
    assert run_batch("solve", *boards, "--out", str(plain), "--workers", "1").returncode == 0
    done = run_batch("solve", *boards, "--out", str(graded), "--workers", "1", "--grade")
    assert done.returncode == 0, done.stderr
    (fast,), (slow,) = records(plain), records(graded)
    assert fast["status"] == slow["status"] == "unique"
    assert fast["grade"] is None and slow["grade"] in ("local", "placement", "contradiction")
    assert [_same(r) for r in records(plain)] == [_same(r) for r in _solve_jsonl(*boards)]


def test_a_batch_holds_no_puzzle_twice_when_a_seed_retries(tmp_path: Path) -> None:
    """Seed 1 of an 8x8 local Double Choco with blocks of at most 8 cells misses its grade
    and retries; the retry used to be seed 2, the batch's next puzzle, so both records held
    one puzzle."""
    out = tmp_path / "made.jsonl"
    options = ["--size", "8x8", "--grade", "local", "--max-block", "8"]
    done = run_batch(
        "generate", "dbchoco", *options, "--count", "2", "--seed", "1", "--out", str(out)
    )
    assert done.returncode == 0, done.stderr
    made = records(out)
    assert [r["seed"] for r in made] == [1, 2]
    assert all(r["grade"] == "local" for r in made)
    assert made[0]["url"] != made[1]["url"]
