"""The web app under load, and what a saved game costs, against a real server (`pencilbox
serve` in its own process, on a fresh library):

* load: C clients on loopback, each with its own connection, for S seconds: reads of the
  library, the games and thumbnails, moves on a few shared games (several clients per game),
  undo/redo, parses and hints. Reports requests, 4xx, 5xx (must be 0), transport errors and
  the p50/p95/max latency.
* history: a 200x200 Nonogram played move by move: the server's memory (VmRSS) and the
  library file (database + WAL) after M one-cell moves and after G whole-grid moves (what the
  pages send when an animation is applied), per move.

Writes bench/results/web_load.md. Run: .venv/bin/python bench/web_load.py [--clients 50]
[--seconds 20] [--moves 400] [--grid-moves 100].
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results" / "web_load.md"
HEADERS = {"X-Pencilbox": "1"}  # what the app's pages send with every change


# -- the server ---------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def server(workdir: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    port = free_port()
    env = {**os.environ, "XDG_DATA_HOME": str(workdir / "data")}
    db = workdir / "library.sqlite3"
    process = subprocess.Popen(
        [sys.executable, "-m", "pencilbox.cli", "serve", "--port", str(port), "--db", str(db)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(f"{url}/api/health", timeout=1)
                break
            except httpx.TransportError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.1)
        time.sleep(2.0)  # let the solver workers finish starting
        yield url, process
    finally:
        process.terminate()
        process.wait(timeout=10)


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def library_bytes(workdir: Path) -> int:
    """The library file's size once its write-ahead log is folded in (the log's own size
    says little: it is reused, not grown, after each checkpoint)."""
    db = sqlite3.connect(workdir / "library.sqlite3")
    try:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        db.close()
    return (workdir / "library.sqlite3").stat().st_size


# -- load -------------------------------------------------------------------------------------
@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    transport_errors: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, seconds: float, status: int) -> None:
        with self.lock:
            self.latencies.append(seconds)
            self.statuses[status] += 1


def client_loop(url: str, games: list[int], seed: int, end: float, tally: Tally) -> None:
    chooser = random.Random(seed)
    game = games[seed % len(games)]  # several clients share each game
    row = seed % 10 + 1
    with httpx.Client(base_url=url, timeout=60, headers=HEADERS) as client:
        while time.monotonic() < end:
            kind = chooser.random()
            col = chooser.randint(1, 10)
            started = time.perf_counter()
            try:
                if kind < 0.45:
                    value = chooser.randint(0, 2)
                    answer = client.post(
                        f"/api/games/{game}/move", json={"move": f"r{row}c{col}={value}"}
                    )
                elif kind < 0.55:
                    answer = client.post(f"/api/games/{game}/{chooser.choice(['undo', 'redo'])}")
                elif kind < 0.75:
                    answer = client.get(f"/api/games/{game}")
                elif kind < 0.85:
                    answer = client.get("/api/puzzles")
                elif kind < 0.92:
                    answer = client.get(f"/api/puzzles/{game}/thumbnail.svg")
                elif kind < 0.97:
                    answer = client.post("/api/parse", json={"text": "1\n1\n"})
                else:
                    answer = client.post(f"/api/games/{game}/hint")
            except httpx.TransportError:
                with tally.lock:
                    tally.transport_errors += 1
                continue
            tally.add(time.perf_counter() - started, answer.status_code)


def run_load(clients: int, seconds: float) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp, server(Path(tmp)) as (url, _):
        puzzles = httpx.get(f"{url}/api/puzzles", timeout=30).json()
        games = [p["id"] for p in puzzles if p["genre"] == "nonogram" and p["width"] == 10]
        for game in games:  # solve once, so hints do not wait for the solver
            httpx.get(f"{url}/api/puzzles/{game}/solve", timeout=60)
        tally = Tally()
        end = time.monotonic() + seconds
        threads = [
            threading.Thread(target=client_loop, args=(url, games, seed, end, tally))
            for seed in range(clients)
        ]
        started = time.monotonic()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - started
    latencies = sorted(tally.latencies)
    count = len(latencies)
    return {
        "clients": clients,
        "games": len(games),
        "seconds": round(elapsed, 1),
        "requests": count,
        "per_second": round(count / elapsed),
        "2xx": sum(n for s, n in tally.statuses.items() if 200 <= s < 300),
        "4xx": sum(n for s, n in tally.statuses.items() if 400 <= s < 500),
        "5xx": sum(n for s, n in tally.statuses.items() if s >= 500),
        "transport_errors": tally.transport_errors,
        "p50_ms": round(1000 * statistics.median(latencies), 1) if count else None,
        "p95_ms": round(1000 * latencies[int(0.95 * (count - 1))], 1) if count else None,
        "max_ms": round(1000 * latencies[-1], 1) if count else None,
    }


# -- history ----------------------------------------------------------------------------------
def big_nonogram(size: int, seed: int = 1) -> str:
    """A random size x size picture's clues, in the clues notation (rows line, cols line)."""
    chooser = random.Random(seed)
    cells = [[chooser.random() < 0.55 for _ in range(size)] for _ in range(size)]

    def runs(line: list[bool]) -> str:
        found, count = [], 0
        for filled in [*line, False]:
            if filled:
                count += 1
            elif count:
                found.append(str(count))
                count = 0
        return " ".join(found) or "0"

    rows = ",".join(runs(row) for row in cells)
    cols = ",".join(runs([cells[r][c] for r in range(size)]) for c in range(size))
    return f"{rows}\n{cols}\n"


def run_history(moves: int, grid_moves: int, size: int = 200) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp, server(Path(tmp)) as (url, process):
        workdir = Path(tmp)
        made = httpx.post(
            f"{url}/api/puzzles",
            json={"text": big_nonogram(size), "format": "clues", "genre": "nonogram"},
            timeout=60,
        )
        made.raise_for_status()
        pid = made.json()["id"]
        with httpx.Client(base_url=url, timeout=60, headers=HEADERS) as client:
            client.get(f"/api/games/{pid}").raise_for_status()
            rss0, disk0 = rss_bytes(process.pid), library_bytes(workdir)
            started = time.perf_counter()
            for i in range(moves):
                r, c = divmod(i, size)
                answer = client.post(f"/api/games/{pid}/move", json={"move": f"r{r + 1}c{c + 1}=1"})
                answer.raise_for_status()
            cell_seconds = (time.perf_counter() - started) / max(1, moves)
            rss1, disk1 = rss_bytes(process.pid), library_bytes(workdir)
            chooser = random.Random(2)
            started = time.perf_counter()
            for _ in range(grid_moves):
                rows = "/".join(
                    "".join(chooser.choice("?#.") for _ in range(size)) for _ in range(size)
                )
                answer = client.post(f"/api/games/{pid}/move", json={"move": f"grid {rows}"})
                answer.raise_for_status()
            grid_seconds = (time.perf_counter() - started) / max(1, grid_moves)
            rss2, disk2 = rss_bytes(process.pid), library_bytes(workdir)
            last = client.get(f"/api/games/{pid}")
            response_bytes = len(last.content)
    return {
        "size": f"{size}x{size}",
        "cell_moves": moves,
        "rss_per_cell_move_kb": round((rss1 - rss0) / max(1, moves) / 1024, 2),
        "file_per_cell_move_bytes": round((disk1 - disk0) / max(1, moves)),
        "ms_per_cell_move": round(1000 * cell_seconds, 1),
        "grid_moves": grid_moves,
        "rss_per_grid_move_kb": round((rss2 - rss1) / max(1, grid_moves) / 1024, 1),
        "file_per_grid_move_kb": round((disk2 - disk1) / max(1, grid_moves) / 1024, 1),
        "ms_per_grid_move": round(1000 * grid_seconds, 1),
        "game_response_kb": round(response_bytes / 1024, 1),
    }


# -- the report -------------------------------------------------------------------------------
def table(record: dict[str, object]) -> str:
    head = "| " + " | ".join(record) + " |"
    rule = "|" + "---|" * len(record)
    row = "| " + " | ".join(str(v) for v in record.values()) + " |"
    return "\n".join((head, rule, row))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--grid-moves", type=int, default=100)
    parser.add_argument("--only", choices=("load", "history"))
    parser.add_argument("--no-write", action="store_true", help="print, do not write results")
    args = parser.parse_args()
    parts = [
        "# Web app: load and saved-game cost",
        "",
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.processor() or platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}; client and server share "
        "the machine.",
    ]
    if args.only in (None, "load"):
        load = run_load(args.clients, args.seconds)
        print(load, flush=True)
        parts += ["", "## Load (loopback)", "", table(load)]
    if args.only in (None, "history"):
        history = run_history(args.moves, args.grid_moves)
        print(history, flush=True)
        parts += ["", "## A 200x200 game's history", "", table(history)]
    if not args.no_write:
        RESULTS.write_text("\n".join(parts) + "\n")
        print(f"wrote {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
