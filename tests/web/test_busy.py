"""A busy server: a time limit counts from the request, the wait for a free worker included,
and a request that gets no worker within its limit answers 503 with Retry-After (a full job
board answers 429 with Retry-After)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from pencilbox.core.timing import Deadline
from pencilbox.web import jobs
from pencilbox.web.app import GENERATE_TIME_LIMIT, MAX_JOBS, RETRY_AFTER_S
from tests.web.conftest import TestClient, puzzle_id
from tests.web.test_jobs import finished, start


@pytest.fixture
def one_worker() -> Iterator[jobs._Pool]:
    """A pool of one worker, to be made busy by holding its only slot."""
    pool = jobs._Pool(1)
    yield pool
    pool.close()


@pytest.fixture
def busy(client: TestClient, monkeypatch: pytest.MonkeyPatch, one_worker: jobs._Pool) -> jobs._Pool:
    """The app's workers, all busy until the test releases the slot."""
    monkeypatch.setattr(jobs, "_pool", one_worker)
    one_worker._slots.acquire()
    return one_worker


def assert_busy_answer(answer: Any) -> None:
    assert answer.status_code == 503, answer.text
    assert answer.headers["Retry-After"] == str(RETRY_AFTER_S)
    assert "no solver was free within the time limit" in answer.json()["error"]


# -- the pool -----------------------------------------------------------------------------------
def test_a_worker_gets_what_is_left_of_the_time_limit(one_worker: jobs._Pool) -> None:
    """`float(seconds_left)` run in the worker hands back the limit the job's function got:
    the time spent waiting for the worker is taken from it."""
    one_worker._slots.acquire()
    deadline = Deadline(30.0)
    answers: list[float] = []
    waiting = threading.Thread(
        target=lambda: answers.append(one_worker.run(float, (), deadline, None, None))
    )
    waiting.start()
    time.sleep(1.0)
    released = time.monotonic()
    one_worker._slots.release()
    waiting.join(timeout=60)
    assert deadline.end is not None and answers
    waited = released - (deadline.end - 30.0)
    assert 0 < answers[0] <= 30.0 - waited
    assert waited >= 1.0


def test_no_worker_within_the_limit(one_worker: jobs._Pool) -> None:
    one_worker._slots.acquire()
    with pytest.raises(jobs.NoWorker, match="server is busy"):
        one_worker.run(float, (), Deadline(0.3), None, None)
    one_worker._slots.release()
    assert one_worker.run(float, (), Deadline(20.0), None, None) > 0  # the slot is free again


# -- over HTTP ----------------------------------------------------------------------------------
def test_the_time_limit_counts_from_the_request(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever holds a request up before its solve starts (a free thread, the library) is
    part of its time limit: the solver is handed a deadline that began when the request came."""
    library = client.app.state.library  # type: ignore[attr-defined]
    pid = puzzle_id(client, "data148")
    entry = library.entry(pid)
    slow_entry_s = 1.0
    calls: list[int] = []

    def held_up(puzzle_id: int) -> Any:
        """Slow the first look-up only: the one before the endpoint starts its solve."""
        if not calls:
            time.sleep(slow_entry_s)
        calls.append(puzzle_id)
        return entry

    given: list[float] = []
    solve = jobs.solve

    def recorded(puzzle: Any, deadline: Deadline, cancel: Any = None) -> Any:
        given.append(deadline.remaining() or 0.0)
        return solve(puzzle, deadline, cancel)

    monkeypatch.setattr(library, "entry", held_up)
    monkeypatch.setattr(jobs, "solve", recorded)
    answer = client.get(f"/api/puzzles/{pid}/solve?time_limit=10")
    assert answer.status_code == 200 and answer.json()["status"] == "unique"
    assert given and given[0] <= 10 - slow_entry_s


def test_requests_that_get_no_worker_in_time_answer_503(
    client: TestClient, busy: jobs._Pool
) -> None:
    pid = puzzle_id(client, "data148")
    assert_busy_answer(client.get(f"/api/puzzles/{pid}/solve?time_limit=0.3"))
    assert_busy_answer(client.get(f"/api/puzzles/{pid}/grade?time_limit=0.3"))
    assert_busy_answer(client.get(f"/api/puzzles/{pid}/steps?time_limit=0.3"))
    assert_busy_answer(client.post(f"/api/games/{pid}/solve", json={"time_limit": 0.3}))
    made = client.post("/api/generate", json={"genre": "sudoku", "time_limit": 0.3})
    assert_busy_answer(made)
    job = finished(client, start(client, kind="solve", puzzle_id=pid, time_limit=0.3))
    assert job["state"] == "timeout" and "no solver was free" in job["error"]
    with client.stream("GET", f"/api/puzzles/{pid}/steps/stream?time_limit=0.3") as streamed:
        text = "".join(streamed.iter_text())
    assert "event: error" in text and "no solver was free" in text
    library = client.app.state.library  # type: ignore[attr-defined]
    # every job slot is given back: the stream's once the server has seen the client leave,
    # a moment after the response ends (a CI run found it still held when looked at at once)
    deadline = time.monotonic() + 60
    while library._jobs._value < MAX_JOBS and time.monotonic() < deadline:
        time.sleep(0.02)
    assert library._jobs._value == MAX_JOBS
    busy._slots.release()
    solved = client.get(f"/api/puzzles/{pid}/solve?time_limit=30")
    assert solved.status_code == 200 and solved.json()["status"] == "unique"


def test_checks_and_hints_go_on_without_the_solution(client: TestClient, busy: jobs._Pool) -> None:
    """A check or hint needs the solution only to compare; with no worker to find it they
    answer from the game alone."""
    pid = puzzle_id(client, "data148")
    checked = client.get(f"/api/games/{pid}/check")
    assert checked.status_code == 200 and checked.json()["solved"] is False
    hinted = client.post(f"/api/games/{pid}/hint")
    assert hinted.status_code == 200 and hinted.json()["step"] is not None


def test_a_full_job_board_answers_429_with_retry_after(client: TestClient) -> None:
    library = client.app.state.library  # type: ignore[attr-defined]
    library._jobs = threading.BoundedSemaphore(1)
    library._jobs.acquire()
    pid = puzzle_id(client, "data148")
    for answer in (
        client.get(f"/api/puzzles/{pid}/solve"),
        client.post("/api/jobs", json={"kind": "solve", "puzzle_id": pid}),
        client.post("/api/generate", json={"genre": "sudoku", "options": {"seed": 1}}),
    ):
        assert answer.status_code == 429 and answer.headers["Retry-After"] == str(RETRY_AFTER_S)
        assert "jobs are running or waiting already" in answer.json()["error"]


@pytest.mark.parametrize("limit", ["0", "-5", "nan", "inf"])
def test_time_limits_that_are_not_a_positive_number(client: TestClient, limit: str) -> None:
    pid = puzzle_id(client, "data148")
    answer = client.get(f"/api/puzzles/{pid}/solve?time_limit={limit}")
    assert answer.status_code == 422 and "time_limit must be a number" in answer.json()["error"]
    body = json.dumps({"time_limit": float(limit)}) if limit in ("0", "-5") else None
    if body is not None:
        posted = client.post(f"/api/games/{pid}/solve", content=body, headers=JSON)
        assert posted.status_code == 422


JSON = {"content-type": "application/json"}


def test_generation_has_its_own_longer_limit(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Generators take no time limit of their own (a 30x30 Double Choco may take a while):
    by default their worker gets GENERATE_TIME_LIMIT, or the time_limit asked for."""
    given: list[float] = []
    generate = jobs.generate

    def recorded(genre: str, options: Any, deadline: Deadline, cancel: Any = None) -> Any:
        given.append(deadline.remaining() or 0.0)
        return generate(genre, options, deadline, cancel)

    monkeypatch.setattr(jobs, "generate", recorded)
    made = client.post("/api/generate", json={"genre": "sudoku", "options": {"seed": 2}})
    assert made.status_code == 201, made.text
    asked = client.post("/api/generate", json={"genre": "sudoku", "time_limit": 30})
    assert asked.status_code == 201, asked.text
    assert GENERATE_TIME_LIMIT - 5 < given[0] <= GENERATE_TIME_LIMIT and 25 < given[1] <= 30
    zero = client.post("/api/generate", json={"genre": "sudoku", "time_limit": 0})
    assert zero.status_code == 422 and "time_limit" in zero.json()["error"]
