"""The web app's responsiveness, measured in Debian's chromium (Playwright) against a real
server (`pencilbox serve` in its own process, on a fresh library):

* navigation to first paint and to an interactive board (the page sets `body[data-ready]`
  and `pencilbox.readyMs` once the board is built and the game loaded), for a 30x30 Nonogram
  and a 9x9 Sudoku;
* a click on "Full solve" to the first animation frame on the Nonogram page (the first cell
  the animation fills or crosses), for a puzzle whose trace is not cached yet;
* the median and p95 latency of GET /api/health, idle and while 10 solve jobs on 10 different
  hard nonograms are queued and running (`POST /api/jobs`).

Writes bench/results/web.md. Run: `make bench-web` (or .venv/bin/python bench/web.py).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
RESULTS = ROOT / "bench" / "results" / "web.md"
CHROMIUM = "/usr/bin/chromium"

NONOGRAM_30 = "nonogram/hakank/gondola.json"
SUDOKU_9 = "sudoku/qqwing_expert.sdm"
LOAD = [  # hard nonograms: 1 to 20+ s each for the solver
    "nonogram/pynogram-examples/frans_faase.json",
    "nonogram/pynogram-examples/MLP.json",
    "nonogram/survey/webpbn-00803.json",
    "nonogram/picross-solver/webpbn-35105-wild.json",
    "nonogram/picross-solver/webpbn-29723-mozaic.json",
    "nonogram/survey/webpbn-00065.json",
    "nonogram/survey/webpbn-00436.json",
    "nonogram/pynogram-examples/lancaster.json",
    "nonogram/survey/webpbn-01611.json",
    "nonogram/survey/webpbn-06574.json",
]
LOAD_TIME_LIMIT = 20.0


# -- the server ---------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def server(workdir: Path, start_within: float = 30.0) -> Iterator[str]:
    port = free_port()
    env = {**os.environ, "XDG_DATA_HOME": str(workdir / "data")}
    command = [sys.executable, "-m", "pencilbox.cli", "serve", "--port", str(port)]
    process = subprocess.Popen(
        [*command, "--db", str(workdir / "library.sqlite3")],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + start_within
        while True:
            try:
                httpx.get(f"{url}/api/health", timeout=1)
                break
            except httpx.TransportError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.1)
        time.sleep(2.0)  # let the solver workers finish starting
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


def add_puzzle(url: str, text: str, title: str) -> int:
    answer = httpx.post(f"{url}/api/puzzles", json={"text": text, "title": title}, timeout=30)
    answer.raise_for_status()
    found: int = answer.json()["id"]
    return found


def renamed(json_text: str, run: int) -> str:
    """The same puzzle under another name: a new library entry, so nothing is cached yet."""
    data = json.loads(json_text)
    data["name"] = f"{data.get('name', 'puzzle')} (bench {run})"
    return json.dumps(data)


# -- the browser --------------------------------------------------------------------------------
PAINT_JS = """() => Object.fromEntries(
    performance.getEntriesByType('paint').map(e => [e.name, e.startTime]))"""
WATCH_FIRST_FRAME_JS = """() => {
    window.benchClick = undefined;
    window.benchFrame = undefined;
    document.querySelector('#solve').addEventListener(
        'click', () => { window.benchClick = performance.now(); }, { capture: true });
    const board = document.querySelector('#board');
    new MutationObserver((changes, observer) => {
        if (window.benchClick !== undefined && board.querySelector('.cell.f, .cell.x')) {
            window.benchFrame = performance.now();
            observer.disconnect();
        }
    }).observe(board, { subtree: true, attributes: true, childList: true });
}"""


def open_page(browser: Any, url: str, cells: int) -> tuple[Any, Any, dict[str, float]]:
    """Navigate in a fresh context (nothing cached); the page and its timings in ms."""
    context = browser.new_context(viewport={"width": 1300, "height": 950})
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(url)
    page.wait_for_function(
        f"() => document.body.dataset.ready === '1' && "
        f"document.querySelectorAll('#board .cell').length === {cells}"
    )
    paints = page.evaluate(PAINT_JS)
    ready = page.evaluate("() => window.pencilbox.readyMs")
    timings = {
        "first_paint": float(paints.get("first-paint", float("nan"))),
        "first_contentful_paint": float(paints.get("first-contentful-paint", float("nan"))),
        "interactive": float(ready),
    }
    return context, page, timings


def page_loads(browser: Any, url: str, path: str, cells: int, runs: int) -> list[dict[str, float]]:
    found = []
    for _ in range(runs):
        context, _, timings = open_page(browser, f"{url}{path}", cells)
        found.append(timings)
        context.close()
    return found


def first_frames(browser: Any, url: str, text: str, runs: int) -> list[dict[str, float]]:
    """Click Full solve on a fresh copy of the puzzle; ms to the first animated cell."""
    found = []
    for run in range(runs):
        pid = add_puzzle(url, renamed(text, run), f"bench first frame {run}")
        context, page, _ = open_page(browser, f"{url}/nonogram?id={pid}", 900)
        page.evaluate(WATCH_FIRST_FRAME_JS)
        page.click("#solve")
        page.wait_for_function("() => window.benchFrame !== undefined")
        frame = page.evaluate("() => window.benchFrame - window.benchClick")
        step = page.evaluate("() => window.pencilbox.firstFrameMs")
        found.append({"first_frame": float(frame), "first_step": float(step)})
        context.close()
    return found


# -- /api/health under load ---------------------------------------------------------------------
def health_latencies(url: str, until: Any, at_most: float) -> list[float]:
    """Sequential GET /api/health (ms) every 20 ms while `until()` is false."""
    latencies = []
    started = time.monotonic()
    with httpx.Client(timeout=30) as client:
        while not until() and time.monotonic() - started < at_most:
            before = time.perf_counter()
            client.get(f"{url}/api/health").raise_for_status()
            latencies.append((time.perf_counter() - before) * 1000)
            time.sleep(0.02)
    return latencies


def under_load(url: str) -> tuple[list[float], list[float], dict[str, int]]:
    idle = health_latencies(url, lambda: False, at_most=3.0)
    ids = [add_puzzle(url, (SHARED / name).read_text(), f"load {name}") for name in LOAD]
    jobs = []
    for pid in ids:
        body = {"kind": "solve", "puzzle_id": pid, "time_limit": LOAD_TIME_LIMIT}
        answer = httpx.post(f"{url}/api/jobs", json=body, timeout=30)
        answer.raise_for_status()
        jobs.append(answer.json()["id"])
    states: dict[int, str] = {}
    checked = [0.0]

    def all_over() -> bool:
        """Ask for the jobs' states twice a second (not between every health request)."""
        if time.monotonic() - checked[0] >= 0.5:
            checked[0] = time.monotonic()
            for job in jobs:
                if states.get(job, "running") == "running":
                    states[job] = httpx.get(f"{url}/api/jobs/{job}", timeout=30).json()["state"]
        return len(states) == len(jobs) and all(s != "running" for s in states.values())

    loaded = health_latencies(url, all_over, at_most=120.0)
    counts: dict[str, int] = {}
    for state in states.values():
        counts[state] = counts.get(state, 0) + 1
    return idle, loaded, counts


# -- the report ---------------------------------------------------------------------------------
def median(values: list[float]) -> float:
    return statistics.median(values)


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def row(name: str, values: list[float]) -> str:
    return f"| {name} | {median(values):.0f} | {min(values):.0f} | {max(values):.0f} |"


def report(
    loads: dict[str, list[dict[str, float]]],
    frames: list[dict[str, float]],
    idle: list[float],
    loaded: list[float],
    counts: dict[str, int],
    runs: int,
) -> str:
    load_avg = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    lines = [
        "# Web app: page load, first animation frame, API latency under load",
        "",
        f"Measured {datetime.now(UTC):%Y-%m-%d %H:%M} UTC by `bench/web.py` (`make bench-web`) on "
        f"{os.cpu_count()} CPUs ({platform.machine()}, Python {platform.python_version()}, "
        f"load average {load_avg} at the end), Debian's chromium headless via Playwright, "
        "against `pencilbox serve` in its own process on a fresh library. Each browser run "
        f"uses a fresh context (no HTTP cache); {runs} runs per line, times in ms.",
        "",
        "## Page load",
        "",
        "From navigation start: first paint, first contentful paint, and the interactive board "
        "(`pencilbox.readyMs`: board built, game loaded, controls enabled).",
        "",
        "| page | measure | median | min | max |",
        "|---|---|---:|---:|---:|",
    ]
    for page, runs_found in loads.items():
        for key, label in (
            ("first_paint", "first paint"),
            ("first_contentful_paint", "first contentful paint"),
            ("interactive", "interactive board"),
        ):
            lines.append(f"| {page} " + row(label, [r[key] for r in runs_found]))
    lines += [
        "",
        "## Full solve to the first animation frame",
        "",
        f"Nonogram page, 30x30 puzzle (`{NONOGRAM_30}`, each run a fresh copy, so the trace is "
        "computed, not cached): from the click on Full solve to the first cell the animation "
        "fills or crosses, and to the first step received over the event stream "
        "(`/api/puzzles/{id}/steps/stream`, the page's `pencilbox.firstFrameMs`).",
        "",
        "| measure | median | min | max |",
        "|---|---:|---:|---:|",
        row("click → first animated cell", [f["first_frame"] for f in frames]),
        row("click → first step received", [f["first_step"] for f in frames]),
        "",
        "## GET /api/health latency",
        "",
        f"Sequential requests every 20 ms: idle, then while 10 solve jobs (`POST /api/jobs`, "
        f"time limit {LOAD_TIME_LIMIT:g} s) on 10 different hard nonograms are queued and "
        'running in the solver workers (until every job is over). "Idle" means no solver '
        "jobs on this server; the machine's other load (the load average above) shows in "
        "both lines. Job outcomes: "
        + ", ".join(f"{n} {state}" for state, n in sorted(counts.items()))
        + ".",
        "",
        "| server | requests | median | p95 | max |",
        "|---|---:|---:|---:|---:|",
        f"| idle | {len(idle)} | {median(idle):.1f} | {p95(idle):.1f} | {max(idle):.1f} |",
        f"| 10 solve jobs | {len(loaded)} | {median(loaded):.1f} | {p95(loaded):.1f} | "
        f"{max(loaded):.1f} |",
        "",
        "Puzzles: " + ", ".join(f"`{name}`" for name in LOAD) + ".",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="browser runs per measure")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    nonogram_text = (SHARED / NONOGRAM_30).read_text()
    sudoku_text = (SHARED / SUDOKU_9).read_text().splitlines()[0]
    with tempfile.TemporaryDirectory() as tmp, server(Path(tmp)) as url:
        nonogram = add_puzzle(url, nonogram_text, "bench 30x30")
        sudoku = add_puzzle(url, sudoku_text, "bench 9x9")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, args=["--no-sandbox", "--headless"]
            )
            page_loads(browser, url, f"/nonogram?id={nonogram}", 900, 1)  # warm the server up
            loads = {
                "Nonogram 30x30": page_loads(
                    browser, url, f"/nonogram?id={nonogram}", 900, args.runs
                ),
                "Sudoku 9x9": page_loads(browser, url, f"/sudoku?id={sudoku}", 81, args.runs),
            }
            frames = first_frames(browser, url, nonogram_text, args.runs)
            browser.close()
        idle, loaded, counts = under_load(url)
    text = report(loads, frames, idle, loaded, counts, args.runs)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
