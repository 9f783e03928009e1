"""The trace as server-sent events: the same steps as /steps, a done or error event at the end,
the first step long before the end, and the work stopped when the client goes."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from pencilbox.web import create_app, jobs
from pencilbox.web.app import MAX_JOBS
from tests.web.conftest import TestClient, puzzle_id

HARD = "nonogram/pynogram-examples/frans_faase.json"  # 95x80: its trace takes minutes


def events(lines: Iterator[str]) -> list[tuple[str, Any]]:
    """(event name, parsed data) for each event of a text/event-stream."""
    found: list[tuple[str, Any]] = []
    name = None
    for line in lines:
        if line.startswith("event: "):
            name = line.removeprefix("event: ")
        elif line.startswith("data: "):
            assert name is not None, "data before its event line"
            found.append((name, json.loads(line.removeprefix("data: "))))
            name = None
    return found


def stream(client: TestClient, url: str) -> list[tuple[str, Any]]:
    with client.stream("GET", url) as answer:
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/event-stream")
        return events(answer.iter_lines())


def test_stream_sends_the_steps_then_done(client: TestClient) -> None:
    pid = puzzle_id(client, "data148")
    streamed = stream(client, f"/api/puzzles/{pid}/steps/stream")
    *steps, (last, done) = streamed
    assert last == "done" and done == {"count": len(steps), "complete": True}
    assert {name for name, _ in steps} == {"step"}
    listed = client.get(f"/api/puzzles/{pid}/steps").json()  # from the cache the stream filled
    assert [data for _, data in steps] == listed["steps"] and listed["complete"]
    assert stream(client, f"/api/puzzles/{pid}/steps/stream") == streamed  # replayed


def test_stream_of_other_genres(client: TestClient) -> None:
    pid = puzzle_id(client, "qqwing-expert")
    *steps, (last, done) = stream(client, f"/api/puzzles/{pid}/steps/stream")
    assert last == "done" and done["complete"] and done["count"] == len(steps) > 0
    assert [d for _, d in steps] == client.get(f"/api/puzzles/{pid}/steps").json()["steps"]


def test_stream_cut_by_the_time_limit(client: TestClient, puzzle_data: Path) -> None:
    made = client.post("/api/puzzles", json={"text": (puzzle_data / HARD).read_text()}).json()
    *steps, (last, done) = stream(client, f"/api/puzzles/{made['id']}/steps/stream?time_limit=1")
    assert last == "done" and done == {"count": len(steps), "complete": False}
    assert steps  # line logic finds plenty within a second


def test_stream_reports_failures(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> object:
        raise RuntimeError("the trace broke")

    monkeypatch.setattr(jobs, "trace", broken)
    pid = puzzle_id(client, "data000")
    assert stream(client, f"/api/puzzles/{pid}/steps/stream") == [
        ("error", {"error": "the trace broke"})
    ]
    library = client.app.state.library  # type: ignore[attr-defined]
    # the job slot is given back (just after the error event went out, so look a little while)
    given_back = time.monotonic() + 10
    while library._jobs._value != MAX_JOBS and time.monotonic() < given_back:
        time.sleep(0.01)
    assert library._jobs._value == MAX_JOBS


def test_stream_bad_requests(client: TestClient) -> None:
    missing = client.get("/api/puzzles/4242/steps/stream")
    assert missing.status_code == 404 and "no puzzle" in missing.json()["error"]
    pid = puzzle_id(client, "data148")
    assert client.get(f"/api/puzzles/{pid}/steps/stream?time_limit=soon").status_code == 422
    library = client.app.state.library  # type: ignore[attr-defined]
    library._jobs = threading.BoundedSemaphore(1)
    library._jobs.acquire()
    busy = client.get(f"/api/puzzles/{pid}/steps/stream")
    assert busy.status_code == 429 and "jobs" in busy.json()["error"]


# -- over a real socket: timing and disconnects -----------------------------------------------
@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    """A uvicorn server in a thread (TestClient hands a stream over only when it has ended)."""
    import uvicorn

    app = create_app(tmp_path_factory.mktemp("stream") / "library.sqlite3")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the test server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", app
    server.should_exit = True
    thread.join(timeout=10)


def hard_puzzle(url: str, puzzle_data: Path) -> int:
    made = httpx.post(f"{url}/api/puzzles", json={"text": (puzzle_data / HARD).read_text()})
    found: int = made.json()["id"]
    return found


def test_first_step_comes_long_before_the_end(live: tuple[str, Any], puzzle_data: Path) -> None:
    url, _ = live
    pid = hard_puzzle(url, puzzle_data)
    started = time.monotonic()
    first = None
    with httpx.stream("GET", f"{url}/api/puzzles/{pid}/steps/stream?time_limit=4", timeout=60) as r:
        for line in r.iter_lines():
            if first is None and line == "event: step":
                first = time.monotonic() - started
    ended = time.monotonic() - started
    assert first is not None and ended >= 4
    assert first < ended - 2, f"the first step came after {first:.2f} s of {ended:.2f} s"


def test_a_client_that_leaves_stops_the_work(live: tuple[str, Any], puzzle_data: Path) -> None:
    url, app = live
    pid = hard_puzzle(url, puzzle_data)
    library = app.state.library
    with httpx.stream("GET", f"{url}/api/puzzles/{pid}/steps/stream?time_limit=60") as r:
        lines = r.iter_lines()
        assert next(lines) == "event: step"
        assert library._jobs._value == MAX_JOBS - 1  # the stream holds a job slot
    deadline = time.monotonic() + 60  # a cap for a loaded machine, not a timing
    while library._jobs._value < MAX_JOBS:  # released once the worker is killed
        assert time.monotonic() < deadline, "the trace went on after the client left"
        time.sleep(0.05)
    data148 = next(
        p["id"] for p in httpx.get(f"{url}/api/puzzles").json() if p["title"] == "data148"
    )
    answer = httpx.get(f"{url}/api/puzzles/{data148}/solve", timeout=60).json()
    assert answer["status"] == "unique"  # the workers still serve
