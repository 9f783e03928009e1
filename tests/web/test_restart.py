"""A killed server loses nothing: moves played over HTTP are there after a restart."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from pencilbox.cli import main
from tests.web.conftest import PAGE_HEADERS


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def server(db: Path, env: dict[str, str]) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "pencilbox.cli", "serve", "--port", str(port), "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60  # imports on a loaded machine
        while True:
            try:
                httpx.get(f"{url}/api/health", timeout=1)
                break
            except httpx.TransportError:
                if process.poll() is not None or time.monotonic() > deadline:
                    output = process.stdout.read() if process.stdout else ""
                    raise AssertionError(f"the server did not start:\n{output}") from None
                time.sleep(0.1)
        yield url, process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)
        if process.stdout:
            process.stdout.close()


def children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_moves_survive_a_killed_server(tmp_path: Path) -> None:
    db = tmp_path / "library.sqlite3"
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}
    with server(db, env) as (url, process):
        puzzles = httpx.get(f"{url}/api/puzzles").json()
        pid = next(p["id"] for p in puzzles if p["title"] == "data000")
        for move in ("r1c1=1", "r1c2=2", "r5c5=1"):
            answer = httpx.post(f"{url}/api/games/{pid}/move", json={"move": move})
            assert answer.status_code == 200
        httpx.post(f"{url}/api/games/{pid}/undo", headers=PAGE_HEADERS)
        state = httpx.get(f"{url}/api/games/{pid}").json()["state"]
        port = url.rsplit(":", 1)[1]
        assert main(["serve", "--port", port, "--db", str(tmp_path / "other.sqlite3")]) == 2
        assert httpx.get(f"{url}/api/puzzles/{pid}/solve", timeout=60).status_code == 200
        workers = children(process.pid)  # the solver pool
        assert workers
        os.kill(process.pid, signal.SIGKILL)  # no clean shutdown
        process.wait(timeout=10)
        assert process.stdout is not None
        assert f"{url}/" in process.stdout.readline()  # `serve` prints where it listens
    deadline = time.monotonic() + 60  # a cap for a loaded machine, not a timing
    while any(alive(p) for p in workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not any(alive(p) for p in workers), "solver workers outlived the killed server"
    with server(db, env) as (url, _):
        game = httpx.get(f"{url}/api/games/{pid}").json()
        saved = httpx.get(f"{url}/api/games/{pid}/moves").json()["moves"]
        assert saved == ["r1c1=1", "r1c2=2", "r5c5=1"]
        assert game["position"] == 2 and game["state"] == state
        assert game["state"].startswith("#.")
        redone = httpx.post(f"{url}/api/games/{pid}/redo", headers=PAGE_HEADERS).json()
        assert redone["state"].split("/")[4][4] == "#"
