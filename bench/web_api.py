"""What a web API request costs inside the app (no network): the median time of each kind of
request, and of `import pencilbox`, for this tree and, with --against, another one (e.g. the
commit before a refactoring, exported with `git archive`), measured in alternating fresh
processes so that both see the same machine load.

Each round starts one process per tree: an app on a fresh seeded library (`create_app`),
driven by FastAPI's TestClient; the request kinds are sent in turn, --requests times each
after a warm-up, and the process reports each kind's median. The table gives, per request
kind, the median over the rounds for each tree and their ratio (against / this).

Writes bench/results/web_api.md. Run: .venv/bin/python bench/web_api.py [--against
OTHER/src] [--rounds 5] [--requests 200] [--no-write].
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"
RESULTS = HERE / "results" / "web_api.md"
PUZZLE_TEXT = "width 3\nheight 2\nrows\n3\n1\ncolumns\n1\n2\n1\n"


def requests(client: Any) -> dict[str, Callable[[], Any]]:
    """The request kinds, on the first nonogram of the seeded library."""
    rows = client.get("/api/puzzles").json()
    pid = next(row["id"] for row in rows if row["genre"] == "nonogram")
    client.post(f"/api/games/{pid}/hint")  # (solves once; later hints use the cached answer)
    return {
        "GET /api/health": lambda: client.get("/api/health"),
        "GET /api/genres": lambda: client.get("/api/genres"),
        "GET /api/puzzles": lambda: client.get("/api/puzzles"),
        "GET /api/puzzles/{id}": lambda: client.get(f"/api/puzzles/{pid}"),
        "GET /api/games/{id}": lambda: client.get(f"/api/games/{pid}"),
        "POST move + undo": lambda: (
            client.post(f"/api/games/{pid}/move", json={"move": "r1c1=1"}),
            client.post(f"/api/games/{pid}/undo"),
        ),
        "POST /api/games/{id}/hint": lambda: client.post(f"/api/games/{pid}/hint"),
        "GET /api/games/{id}/check": lambda: client.get(f"/api/games/{pid}/check"),
        "POST /api/parse": lambda: client.post("/api/parse", json={"text": PUZZLE_TEXT}),
        "GET thumbnail.svg": lambda: client.get(f"/api/puzzles/{pid}/thumbnail.svg"),
        "GET /no-such-page (404)": lambda: client.get("/no-such-page"),
    }


def child(count: int) -> None:
    """One process's medians in microseconds, as JSON on stdout."""
    started = time.perf_counter()
    from pencilbox.web import create_app

    imported = time.perf_counter() - started
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(Path(folder) / "library.sqlite3")
        headers = {"X-Pencilbox": "1"}
        with TestClient(app, base_url="http://127.0.0.1:8000", headers=headers) as client:
            kinds = requests(client)
            times: dict[str, list[float]] = {name: [] for name in kinds}
            for turn in range(10 + count):  # (kinds in turn: a burst of load hits them all)
                for name, send in kinds.items():
                    tick = time.perf_counter()
                    send()
                    if turn >= 10:
                        times[name].append(time.perf_counter() - tick)
            medians = {name: statistics.median(found) * 1e6 for name, found in times.items()}
    medians["import pencilbox.web.app (ms)"] = imported * 1e3
    print(json.dumps(medians))


def measure(src: Path, count: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    command = [sys.executable, __file__, "--child", "--requests", str(count)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def table(this: list[dict[str, float]], other: list[dict[str, float]] | None) -> str:
    lines = [
        "| request | this tree (us) | against (us) | ratio against/this |",
        "|---|---:|---:|---:|",
    ]
    for name in this[0]:
        mine = statistics.median(r[name] for r in this)
        if other:
            theirs = statistics.median(r[name] for r in other)
            lines.append(f"| {name} | {mine:.0f} | {theirs:.0f} | {theirs / mine:.2f} |")
        else:
            lines.append(f"| {name} | {mine:.0f} | not measured | |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, help="the src/ folder of another tree")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--no-write", action="store_true", help="print, do not write results")
    args = parser.parse_args()
    if args.child:
        child(args.requests)
        return
    this: list[dict[str, float]] = []
    other: list[dict[str, float]] = []
    for round in range(args.rounds):
        this.append(measure(SRC, args.requests))
        if args.against:
            other.append(measure(args.against, args.requests))
        print(f"round {round + 1}/{args.rounds} done", file=sys.stderr)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    report = (
        "# Web API requests inside the app\n\n"
        f"`bench/web_api.py --rounds {args.rounds} --requests {args.requests}"
        f"{' --against ...' if args.against else ''}`: medians over rounds of per-process "
        f"medians, Python {platform.python_version()}, load average {load:.1f} at the end "
        "(a shared machine: compare the columns, measured in alternating processes, rather "
        "than the absolute times).\n\n" + table(this, other or None) + "\n"
    )
    print(report)
    if not args.no_write:
        RESULTS.write_text(report, encoding="utf-8")


if __name__ == "__main__":
    main()
