"""Background jobs: start, poll, cancel; the same results as the synchronous endpoints, and
4xx answers for bad requests."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from pencilbox.web.app import MAX_JOBS
from tests.web.conftest import TestClient, known_solution, puzzle_id

HARD = "nonogram/pynogram-examples/frans_faase.json"


def finished(client: TestClient, job_id: int, within: float = 60.0) -> dict[str, Any]:
    deadline = time.monotonic() + within
    while True:
        job: dict[str, Any] = client.get(f"/api/jobs/{job_id}").json()
        if job["state"] != "running":
            return job
        assert time.monotonic() < deadline, f"job {job_id} still runs after {within} s"
        time.sleep(0.05)


def start(client: TestClient, **body: Any) -> int:
    answer = client.post("/api/jobs", json=body)
    assert answer.status_code == 202, answer.text
    assert answer.json()["state"] == "running"
    job_id: int = answer.json()["id"]
    return job_id


def test_solve_and_steps_jobs_answer_as_the_endpoints(client: TestClient) -> None:
    pid = puzzle_id(client, "data148")
    solved = finished(client, start(client, kind="solve", puzzle_id=pid))
    assert solved["kind"] == "solve" and solved["state"] == "done"
    assert solved["result"]["solutions"] == [known_solution("data148")]
    assert solved["result"] == client.get(f"/api/puzzles/{pid}/solve").json()
    assert solved["elapsed_s"] >= 0 and "error" not in solved
    traced = finished(client, start(client, kind="steps", puzzle_id=pid, time_limit=30))
    assert traced["state"] == "done"
    assert traced["result"] == client.get(f"/api/puzzles/{pid}/steps").json()


def test_generate_job_adds_a_puzzle(client: TestClient) -> None:
    job = finished(
        client, start(client, kind="generate", genre="sudoku", options={"seed": 3}, title="made")
    )
    assert job["state"] == "done", job
    made = job["result"]
    assert made["genre"] == "sudoku" and made["title"] == "made" and made["generator"]["seed"] == 3
    assert client.get(f"/api/puzzles/{made['id']}/solve").json()["status"] == "unique"


@pytest.mark.parametrize(
    ("body", "status", "fragment"),
    [
        ({"kind": "dance"}, 422, "kind must be one of solve, generate, steps"),
        ({}, 422, "kind"),
        ({"kind": "solve"}, 422, "needs a puzzle_id"),
        ({"kind": "steps", "puzzle_id": 4242}, 404, "no puzzle with id 4242"),
        ({"kind": "generate"}, 422, "needs a genre"),
        ({"kind": "generate", "genre": "chess"}, 422, "unknown genre"),
        ({"kind": "solve", "puzzle_id": "x"}, 422, "puzzle_id"),
    ],
)
def test_bad_job_requests(client: TestClient, body: Any, status: int, fragment: str) -> None:
    answer = client.post("/api/jobs", json=body)
    assert answer.status_code == status
    assert fragment in answer.json()["error"]


def test_unknown_jobs(client: TestClient) -> None:
    assert client.get("/api/jobs/999").status_code == 404
    gone = client.delete("/api/jobs/999")
    assert gone.status_code == 404 and "no job" in gone.json()["error"]


def test_too_many_jobs(client: TestClient) -> None:
    library = client.app.state.library  # type: ignore[attr-defined]
    library._jobs = threading.BoundedSemaphore(1)
    library._jobs.acquire()
    pid = puzzle_id(client, "data000")
    busy = client.post("/api/jobs", json={"kind": "solve", "puzzle_id": pid})
    assert busy.status_code == 429 and "jobs are running" in busy.json()["error"]
    library._jobs.release()
    assert finished(client, start(client, kind="solve", puzzle_id=pid))["state"] == "done"


def test_failed_job_says_why(client: TestClient) -> None:
    job = finished(client, start(client, kind="generate", genre="sudoku", options={"size": 7}))
    assert job["state"] == "failed" and job["error"]
    assert "result" not in job


def test_cancel_a_long_job_then_the_next_one_runs(client: TestClient, puzzle_data: Path) -> None:
    text = (puzzle_data / HARD).read_text()
    hard = client.post("/api/puzzles", json={"text": text}).json()["id"]
    job_id = start(client, kind="steps", puzzle_id=hard, time_limit=60)
    time.sleep(1.0)  # well into the trace, which takes minutes
    assert client.get(f"/api/jobs/{job_id}").json()["state"] == "running"
    cancelled = client.delete(f"/api/jobs/{job_id}")
    assert cancelled.status_code == 200 and cancelled.json()["state"] == "cancelled"
    library = client.app.state.library  # type: ignore[attr-defined]
    deadline = time.monotonic() + 60  # a cap for a loaded machine, not a timing
    while library._jobs._value < MAX_JOBS:  # the worker is killed, the slot given back
        assert time.monotonic() < deadline, "the cancelled job went on"
        time.sleep(0.05)
    assert client.get(f"/api/jobs/{job_id}").json()["state"] == "cancelled"
    again = client.delete(f"/api/jobs/{job_id}")
    assert again.status_code == 409 and again.json()["state"] == "cancelled"
    pid = puzzle_id(client, "data148")
    after = finished(client, start(client, kind="solve", puzzle_id=pid))
    assert after["state"] == "done" and after["result"]["status"] == "unique"


def test_cancel_a_finished_job(client: TestClient) -> None:
    pid = puzzle_id(client, "data148")
    job_id = start(client, kind="solve", puzzle_id=pid)
    assert finished(client, job_id)["state"] == "done"
    answer = client.delete(f"/api/jobs/{job_id}")
    assert answer.status_code == 409
    assert "over already (done)" in answer.json()["error"] and answer.json()["state"] == "done"
    assert client.get(f"/api/jobs/{job_id}").json()["state"] == "done"


def test_a_trace_cut_by_its_time_limit(client: TestClient, puzzle_data: Path) -> None:
    text = (puzzle_data / HARD).read_text()
    hard = client.post("/api/puzzles", json={"text": text}).json()["id"]
    job = finished(client, start(client, kind="steps", puzzle_id=hard, time_limit=1))
    assert job["state"] == "timeout" and not job["result"]["complete"]
    assert job["result"]["count"] == len(job["result"]["steps"]) > 0  # what was found so far
