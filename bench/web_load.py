"""The web app under load, and what a saved game costs, against a real server (`pencilbox
serve` in its own process, on a fresh library):

* load: C clients on loopback, each with its own connection, for S seconds: reads of the
  library, the games and thumbnails, moves on a few shared games (several clients per game),
  undo/redo, parses and hints. Reports requests, 4xx, 5xx (must be 0), transport errors and
  the p50/p95/max latency.
* history: a 200x200 Nonogram played move by move: the server's memory (VmRSS) and the
  library file (database + WAL) after M one-cell moves and after G whole-grid moves (what the
  pages send when an animation is applied), per move.
* time limits: K clients ask at once, again and again, for solves with a time limit of L
  seconds of puzzles that take longer (the hardest of ../shared/data), so that most wait for
  one of the few workers. Reports each answer's status and how long after the request it
  came, against L: a limit counts from the request, the wait for a worker included, and who
  gets no worker in time has 503 with Retry-After.
* kill -9: C clients on each of G games play for P seconds, the server is killed mid-play
  and started again (tests/web/test_kill.py, longer and repeated R times): moves
  acknowledged, lost (must be 0), answers that showed an unsaved move (must be 0).

Writes bench/results/web_load.md. Run: .venv/bin/python bench/web_load.py [--clients 50]
[--seconds 20] [--moves 400] [--grid-moves 100] [--limit 5 --limit-clients 16]
[--kill-rounds 3 --kill-clients 6 --kill-seconds 5] [--only load|history|timelimit|kill].
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
sys.path.insert(0, str(ROOT))  # for the kill -9 run, which is the test's, made longer
DATA = ROOT.parent / "shared" / "data"
HARD_NONOGRAMS = (
    "nonogram/pynogram-examples/frans_faase.json",
    "nonogram/pynogram-examples/MLP.json",
    "nonogram/pynogram-examples/w.json",
)
"""Puzzles that may take longer than the time limit asked for; those that do are the ones
asked for (a timed-out verdict is not kept, so every request solves again)."""
RESULTS = ROOT / "bench" / "results" / "web_load.md"
LIMIT_NOTE = (
    "200 with timeout: the worker stopped at the limit, or was stopped 3 s after it (jobs.GRACE_S;"
    " workers run at nice 10 above the server's, so on a loaded machine they overrun); 503: no"
    " worker was free within the limit; 429: the job board was full. Both carry Retry-After."
)
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


# -- time limits under load ----------------------------------------------------------------------
def limit_client(
    url: str, ids: list[int], limit: float, seed: int, end: float, found: list[dict[str, object]]
) -> None:
    chooser = random.Random(seed)
    with httpx.Client(base_url=url, timeout=120, headers=HEADERS) as client:
        while time.monotonic() < end:
            pid = chooser.choice(ids)
            started = time.monotonic()
            try:
                answer = client.get(f"/api/puzzles/{pid}/solve", params={"time_limit": limit})
            except httpx.TransportError:
                found.append({"status": "transport", "seconds": time.monotonic() - started})
                continue
            status = answer.json().get("status") if answer.status_code == 200 else None
            found.append(
                {
                    "status": answer.status_code,
                    "verdict": status,
                    "seconds": time.monotonic() - started,
                    "retry_after": answer.headers.get("Retry-After"),
                }
            )


def run_time_limits(clients: int, limit: float, seconds: float) -> list[dict[str, object]]:
    """One row per answer status: count, answer time p50/p95/max against the limit. Only
    puzzles that time out at the limit take part (a solved puzzle's verdict is kept, and
    later requests for it would measure nothing but the cache)."""
    with tempfile.TemporaryDirectory() as tmp, server(Path(tmp)) as (url, _):
        ids = []
        for name in HARD_NONOGRAMS:
            made = httpx.post(
                f"{url}/api/puzzles",
                json={"text": (DATA / name).read_text()},
                headers=HEADERS,
                timeout=60,
            )
            made.raise_for_status()
            pid = made.json()["id"]
            tried = httpx.get(
                f"{url}/api/puzzles/{pid}/solve", params={"time_limit": limit}, timeout=120
            )
            if tried.status_code == 200 and tried.json()["status"] == "timeout":
                ids.append(pid)
        if not ids:
            raise SystemExit(f"every puzzle of HARD_NONOGRAMS solves within {limit:g} s")
        found: list[dict[str, object]] = []
        end = time.monotonic() + seconds
        threads = [
            threading.Thread(target=limit_client, args=(url, ids, limit, seed, end, found))
            for seed in range(clients)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    rows = []
    for status in sorted({str(f["status"]) for f in found}):
        group = [f for f in found if str(f["status"]) == status]
        times = sorted(float(str(f["seconds"])) for f in group)
        verdicts = Counter(str(f["verdict"]) for f in group if f.get("verdict"))
        rows.append(
            {
                "clients": clients,
                "limit_s": limit,
                "status": status,
                "answers": len(group),
                "verdicts": " ".join(f"{k}:{v}" for k, v in sorted(verdicts.items())) or "-",
                "with_retry_after": sum(1 for f in group if f.get("retry_after")),
                "p50_s": round(statistics.median(times), 2),
                "p95_s": round(times[int(0.95 * (len(times) - 1))], 2),
                "max_s": round(times[-1], 2),
                "max_over_limit_s": round(times[-1] - limit, 2),
            }
        )
    return rows


# -- kill -9 ------------------------------------------------------------------------------------
def run_kills(rounds: int, clients: int, seconds: float) -> list[dict[str, object]]:
    from tests.web.test_kill import kill_run

    rows: list[dict[str, object]] = []
    for number in range(1, rounds + 1):
        with tempfile.TemporaryDirectory() as tmp:
            run = kill_run(Path(tmp), clients_per_game=clients, seconds=seconds)
        rows.append(
            {
                "round": number,
                "games": run.games,
                "clients": run.clients,
                "play_s": seconds,
                "acknowledged": run.acknowledged,
                "lost": run.lost,
                "shown_unsaved": run.shown_early,
                "refused": len(run.refused),
            }
        )
        print(rows[-1], flush=True)
    return rows


# -- the report -------------------------------------------------------------------------------
def table(*records: dict[str, object]) -> str:
    head = "| " + " | ".join(records[0]) + " |"
    rule = "|" + "---|" * len(records[0])
    rows = ["| " + " | ".join(str(v) for v in record.values()) + " |" for record in records]
    return "\n".join((head, rule, *rows))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--grid-moves", type=int, default=100)
    parser.add_argument("--limit", type=float, default=5.0, help="time limit asked (s)")
    parser.add_argument("--limit-clients", type=int, default=16)
    parser.add_argument("--limit-seconds", type=float, default=30.0)
    parser.add_argument("--kill-rounds", type=int, default=3)
    parser.add_argument("--kill-clients", type=int, default=6, help="clients per game")
    parser.add_argument("--kill-seconds", type=float, default=5.0)
    parser.add_argument("--only", choices=("load", "history", "timelimit", "kill"))
    parser.add_argument("--no-write", action="store_true", help="print, do not write results")
    args = parser.parse_args()
    parts = [
        "# Web app: load and saved-game cost",
        "",
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.processor() or platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}; client and server share "
        f"the machine (load average {os.getloadavg()[0]:.1f} at the start). "
        f"Command: `nice -n 10 .venv/bin/python bench/web_load.py {' '.join(sys.argv[1:])}`"
        " (`make bench-web-load` passes --kill-rounds 5).",
    ]
    if args.only in (None, "load"):
        load = run_load(args.clients, args.seconds)
        print(load, flush=True)
        parts += ["", "## Load (loopback)", "", table(load)]
    if args.only in (None, "history"):
        history = run_history(args.moves, args.grid_moves)
        print(history, flush=True)
        parts += ["", "## A 200x200 game's history", "", table(history)]
    if args.only in (None, "timelimit"):
        limits = run_time_limits(args.limit_clients, args.limit, args.limit_seconds)
        print(limits, flush=True)
        parts += [
            "",
            "## Time limits under load",
            "",
            f"{args.limit_clients} clients ask for {args.limit:g} s solves of puzzles that take "
            f"longer, for {args.limit_seconds:g} s; answer times count from the client's request "
            f"(load average {os.getloadavg()[0]:.1f} at the end).",
            "",
            table(*limits),
            "",
            LIMIT_NOTE,
        ]
    if args.only in (None, "kill"):
        kills = run_kills(args.kill_rounds, args.kill_clients, args.kill_seconds)
        parts += ["", "## kill -9 mid-play", "", table(*kills)]
    if not args.no_write:
        RESULTS.write_text("\n".join(parts) + "\n")
        print(f"wrote {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
