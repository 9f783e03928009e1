"""The web app on a phone, measured in Debian's chromium (Playwright) against `pencilbox serve`
in its own process: a 390x844 touch screen (is_mobile, has_touch), fingers sent as DevTools
touch events, each page load in a fresh context (no HTTP cache).

* page weight (bytes over the wire and unpacked, requests) and load timings (first
  contentful paint, the interactive board: `pencilbox.readyMs`) of a 50x50 Nonogram, a 25x25
  Sudoku and the Library holding 5,000 and 20,000 puzzles;
* interactions: a tap on a 50x50 Nonogram cell to the cell drawn and to the move saved, a
  drag across 10 cells, a two-finger pinch (time per zoom frame), a 25x25 Sudoku digit from
  the pad to the cell;
* the Library API at 5,000 and 20,000 puzzles: the first page, a search, a filtered and
  sorted page, the export of the whole library (time and zip size), and in the browser a
  search typed to its results shown and the next page.

Writes bench/results/web_phone.md. Run: `make bench-phone` (or .venv/bin/python
bench/web_phone.py --runs 5).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web import many_puzzles  # noqa: E402
from tests.web.test_phone_browser import Fingers  # noqa: E402  (touches through DevTools)

import web as web_bench  # noqa: E402  (bench/web.py: the server in its own process)

SHARED = Path(os.environ.get("PENCILBOX_SHARED", ROOT.parent / "shared" / "data"))
RESULTS = ROOT / "bench" / "results" / "web_phone.md"
CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
SUDOKU_25 = "sudoku/sudoku25_5.txt"
LIBRARIES = (5_000, 20_000)

WEIGHT_JS = """() => {
  const entries = [...performance.getEntriesByType('navigation'),
                   ...performance.getEntriesByType('resource')];
  return {requests: entries.length,
          transferred: entries.reduce((s, e) => s + (e.transferSize || 0), 0),
          unpacked: entries.reduce((s, e) => s + (e.decodedBodySize || 0), 0),
          fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
          ready: window.pencilbox?.readyMs};
}"""
# Time stamps in the page: the finger's pointerdown, the first frame the cell is drawn in.
WATCH_JS = """(selector) => {
  window.bench = {};
  document.addEventListener('pointerdown', () => { window.bench.down = performance.now(); },
    {capture: true});
  const target = document.querySelector(selector);
  new MutationObserver((_, observer) => {
    if (window.bench.down !== undefined && target.matches('.f, :not(:empty)')) {
      window.bench.drawn = performance.now();
      observer.disconnect();
    }
  }).observe(target, {attributes: true, childList: true, characterData: true, subtree: true});
}"""


def nonogram_50(rng: random.Random) -> str:
    """A 50x50 picture's clues (the page load does not depend on what the picture is)."""
    return many_puzzles.nonogram_text(50, rng)


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def phone(browser: Any) -> tuple[Any, Any]:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(120_000)
    return context, page


def center(page: Any, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def refit(page: Any) -> None:
    """Back to the fitted board (the Fit button shows only while zoomed)."""
    fit = page.locator(".zoom-button[aria-label^='Fit']")
    if fit.is_visible():
        fit.click()


def synced(page: Any) -> None:
    page.wait_for_function("() => window.pencilbox && window.pencilbox.pending === 0")


# -- page loads ---------------------------------------------------------------------------------
def load(browser: Any, url: str, ready_js: str, runs: int) -> dict[str, list[float]]:
    found: dict[str, list[float]] = {k: [] for k in ("fcp", "ready", "transferred", "unpacked")}
    found["requests"] = []
    for _ in range(runs):
        context, page = phone(browser)
        page.goto(url)
        page.wait_for_function(ready_js)
        page.wait_for_load_state("networkidle")
        weight = page.evaluate(WEIGHT_JS)
        for key in found:
            found[key].append(float(weight[key] if weight[key] is not None else "nan"))
        context.close()
    return found


# -- interactions -------------------------------------------------------------------------------
def nonogram_taps(browser: Any, url: str, runs: int) -> dict[str, list[float]]:
    """Taps on 50x50 cells as fitted to the phone (a few pixels a cell)."""
    context, page = phone(browser)
    page.goto(url)
    page.wait_for_function("() => window.pencilbox && window.pencilbox.readyMs")
    page.click("#reset")
    synced(page)
    fingers = Fingers(page)
    found: dict[str, list[float]] = {"drawn": [], "saved": [], "drag10": [], "pinch_frame": []}
    for run in range(runs):
        cell = f"#board .cell[data-r='{2 + run}'][data-c='3']"
        page.evaluate(WATCH_JS, cell)
        started = time.perf_counter()
        fingers.drag([center(page, cell)])
        page.wait_for_function("() => window.bench.drawn !== undefined")
        found["drawn"].append(page.evaluate("() => window.bench.drawn - window.bench.down"))
        synced(page)
        found["saved"].append((time.perf_counter() - started) * 1000)
    for run in range(runs):  # a drag along 10 cells of a row
        r = 15 + run
        path = [center(page, f"#board .cell[data-r='{r}'][data-c='{c}']") for c in range(2, 12)]
        started = time.perf_counter()
        fingers.send("touchStart", path[:1])
        for point in path[1:]:
            fingers.send("touchMove", [point])
        fingers.send("touchEnd", [])
        page.wait_for_function(
            f"() => document.querySelectorAll(\"#board .cell.f[data-r='{r}']\").length >= 10"
        )
        synced(page)
        found["drag10"].append((time.perf_counter() - started) * 1000)
    refit(page)
    for _ in range(runs):  # two fingers apart, 10 moves: ms per move (the board redrawn)
        x, y = center(page, ".zoom-viewport")
        started = time.perf_counter()
        fingers.send("touchStart", [(x - 20, y)])
        fingers.send("touchStart", [(x - 20, y), (x + 20, y)])
        for k in range(1, 11):
            fingers.send("touchMove", [(x - 20 - 6 * k, y), (x + 20 + 6 * k, y)])
        fingers.send("touchEnd", [])
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => r(0)))")
        found["pinch_frame"].append((time.perf_counter() - started) * 1000 / 10)
        refit(page)
    page.locator("#reset").dispatch_event("click")
    synced(page)
    context.close()
    return found


def sudoku_digits(browser: Any, url: str, runs: int) -> dict[str, list[float]]:
    context, page = phone(browser)
    page.goto(url)
    page.wait_for_function("() => window.pencilbox && window.pencilbox.readyMs")
    fingers = Fingers(page)
    empties = [i for i, v in enumerate(page.evaluate("() => window.pencilbox.state")) if not v]
    found: dict[str, list[float]] = {"drawn": [], "saved": []}
    for run in range(runs):
        r, c = divmod(empties[run], 25)
        cell = f"#board .cell[data-r='{r}'][data-c='{c}']"
        page.locator(cell).scroll_into_view_if_needed()
        fingers.drag([center(page, cell)])
        pad = "#pad button[data-digit='1']"
        page.locator(pad).scroll_into_view_if_needed()
        page.evaluate(WATCH_JS, cell)
        started = time.perf_counter()
        fingers.drag([center(page, pad)])
        page.wait_for_function("() => window.bench.drawn !== undefined")
        found["drawn"].append(page.evaluate("() => window.bench.drawn - window.bench.down"))
        synced(page)
        found["saved"].append((time.perf_counter() - started) * 1000)
    page.locator("#reset").dispatch_event("click")
    synced(page)
    context.close()
    return found


# -- the library --------------------------------------------------------------------------------
def api_times(url: str, runs: int) -> dict[str, list[float]]:
    queries = {
        "first page": "",
        "search 'otter 12'": "q=otter+12",
        "large, graded probe, by title": "size=large&grade=probe&sort=title",
        "page 100 by size": "sort=size&offset=2376&limit=24",
    }
    found: dict[str, list[float]] = {name: [] for name in queries}
    with httpx.Client(timeout=120) as client:
        for name, query in queries.items():
            for _ in range(runs):
                started = time.perf_counter()
                client.get(f"{url}/api/library?limit=24&{query}").raise_for_status()
                found[name].append((time.perf_counter() - started) * 1000)
        found["export (zip)"] = []
        found["export size (KB)"] = []
        for _ in range(max(1, runs // 2)):
            started = time.perf_counter()
            answer = client.get(f"{url}/api/library/export")
            answer.raise_for_status()
            found["export (zip)"].append((time.perf_counter() - started) * 1000)
            found["export size (KB)"].append(len(answer.content) / 1024)
    return found


def library_browser(browser: Any, url: str, runs: int) -> dict[str, list[float]]:
    found: dict[str, list[float]] = {"search shown": [], "next page shown": []}
    for run in range(runs):
        context, page = phone(browser)
        page.goto(f"{url}/")
        page.wait_for_selector("body[data-ready]")
        started = time.perf_counter()
        page.fill("#search", f"heron {run}")
        page.wait_for_function(
            "(s) => document.querySelector('#library-status').textContent.includes('matching')"
            " && new URLSearchParams(location.search).get('q') === s",
            arg=f"heron {run}",
        )
        found["search shown"].append((time.perf_counter() - started) * 1000)
        page.fill("#search", "")
        page.wait_for_function("() => !location.search.includes('q=')")
        started = time.perf_counter()
        page.locator(".pager [data-go=next]").first.click()
        page.wait_for_function("() => location.search.includes('page=2')")
        found["next page shown"].append((time.perf_counter() - started) * 1000)
        context.close()
    return found


# -- the report ---------------------------------------------------------------------------------
def row(name: str, values: list[float], unit: str = "ms") -> str:
    if not values:
        return f"| {name} | not measured | | | |"
    digits = 0 if unit in ("bytes", "") else 1
    cells = [f"{v:,.{digits}f}" for v in (median(values), min(values), max(values))]
    return f"| {name} | {' | '.join(cells)} | {unit} |"


def report(results: dict[str, Any], runs: int, seconds: float) -> str:
    load_avg = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    lines = [
        "# Web app on a phone: page weight, load and touch timings, the Library at scale",
        "",
        f"Measured {datetime.now(UTC):%Y-%m-%d %H:%M} UTC by `bench/web_phone.py` "
        f"(`make bench-phone`, {runs} runs a line, {seconds:.0f} s) on {os.cpu_count()} CPUs "
        f"({platform.machine()}, Python {platform.python_version()}, load average {load_avg} "
        "at the end), Debian's chromium headless through Playwright on a 390x844 touch "
        "screen (is_mobile), against `pencilbox serve` in its own process. Each page load in "
        "a fresh browser context (nothing cached); fingers are DevTools touch events. Median, "
        "min and max.",
        "",
        "## Page weight and load",
        "",
        "Transferred: bytes over the wire (headers and bodies) for the page and everything it "
        "loads until the network is idle; unpacked: the bodies as the browser decoded them. "
        "Interactive: `pencilbox.readyMs` (the board built, the game loaded, the controls "
        "live; on the Library: the first page of cards shown).",
        "",
        "| page | measure | median | min | max | unit |",
        "|---|---|---:|---:|---:|---|",
    ]
    for page, found in results["loads"].items():
        for key, unit, name in (
            ("fcp", "ms", "first contentful paint"),
            ("ready", "ms", "interactive"),
            ("transferred", "bytes", "transferred"),
            ("unpacked", "bytes", "unpacked"),
            ("requests", "", "requests"),
        ):
            lines.append(row(f"{page} | {name}", found[key], unit))
    lines += [
        "",
        "## Touch",
        "",
        "Drawn: from the finger's pointerdown to the first moment the cell shows the change "
        "(in the page's clock); saved: from sending the touch to the server's answer for the "
        "move (`pencilbox.pending === 0`, in the bench's clock, so it includes the DevTools "
        "round trip). The 50x50 board is tapped as fitted to the screen.",
        "",
        "| interaction | median | min | max | unit |",
        "|---|---:|---:|---:|---|",
    ]
    names = {
        "drawn": "tap → cell drawn",
        "saved": "tap → move saved",
        "drag10": "drag across 10 cells → all saved",
        "pinch_frame": "two-finger pinch, per move (10 moves)",
    }
    for key, values in results["nonogram touch"].items():
        lines.append(row(f"Nonogram 50x50: {names[key]}", values))
    for key, values in results["sudoku touch"].items():
        lines.append(row(f"Sudoku 25x25: pad digit {names[key].split(' ', 1)[1]}", values))
    lines += [
        "",
        "## The Library at scale",
        "",
        "Made nonograms (5x5 to 25x25, titled by animal and number, graded, some played: "
        "`tests/web/many_puzzles.py`) plus the 10 bundled examples. API: GET /api/library "
        "(24 cards a page) from a Python client; browser: the phone, from typing a search to "
        "its results shown (after the page's 200 ms typing pause), and from Next to the "
        "second page shown.",
        "",
        "| library | measure | median | min | max | unit |",
        "|---|---|---:|---:|---:|---|",
    ]
    for size, found in results["library"].items():
        for key, values in found.items():
            unit = "KB" if "KB" in key else "ms"
            lines.append(row(f"{size:,} puzzles | {key.replace(' (KB)', '')}", values, unit))
    return "\n".join(lines) + "\n"


def measure(runs: int, libraries: tuple[int, ...]) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    rng = random.Random(50)
    sudoku = (SHARED / SUDOKU_25).read_text().splitlines()[0]
    results: dict[str, Any] = {"loads": {}, "library": {}}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--headless"]
        )
        with (
            tempfile.TemporaryDirectory() as folder,
            web_bench.server(Path(folder), start_within=180) as url,
        ):
            nono = web_bench.add_puzzle(url, nonogram_50(rng), "bench 50x50")
            sudo = web_bench.add_puzzle(url, sudoku, "bench 25x25")
            ready = "() => window.pencilbox && window.pencilbox.readyMs"
            results["loads"]["Nonogram 50x50"] = load(
                browser, f"{url}/nonogram?id={nono}", ready, runs
            )
            results["loads"]["Sudoku 25x25"] = load(browser, f"{url}/sudoku?id={sudo}", ready, runs)
            results["nonogram touch"] = nonogram_taps(browser, f"{url}/nonogram?id={nono}", runs)
            results["sudoku touch"] = sudoku_digits(browser, f"{url}/sudoku?id={sudo}", runs)
        for count in libraries:
            with tempfile.TemporaryDirectory() as folder:
                many_puzzles.fill(Path(folder) / "library.sqlite3", count)
                with web_bench.server(Path(folder), start_within=180) as url:
                    results["loads"][f"Library, {count:,} puzzles"] = load(
                        browser, f"{url}/", ready, runs
                    )
                    found = api_times(url, runs)
                    found.update(library_browser(browser, url, runs))
                    results["library"][count] = found
        browser.close()
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs a line (default 5)")
    parser.add_argument(
        "--libraries", default=",".join(map(str, LIBRARIES)), help="library sizes, e.g. 5000"
    )
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    started = time.monotonic()
    sizes = tuple(int(n) for n in args.libraries.split(","))
    results = measure(args.runs, sizes)
    text = report(results, args.runs, time.monotonic() - started)
    args.out.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
