"""The step player of common.js: streaming, its fallback and closing, in a real browser.

The steps come from a stand-in EventSource that the test drives event by event (so "the
total grows as steps arrive" is checked exactly, not raced), and once from the real server's
stream. Uses the server and browser fixtures of test_browser (one server per module).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.web import test_browser as shared
from tests.web.conftest import WAIT_MS
from tests.web.test_sudoku_browser import BOARD_JS, open_sudoku, replayed

browser = shared.browser  # the fixtures, shared with the nonogram browser tests
server = shared.server
page = shared.page

pytestmark = pytest.mark.browser

# An EventSource the test drives: window.streams holds every one the page opened.
FAKE_EVENT_SOURCE = """
window.streams = [];
window.EventSource = class {
  constructor(url) {
    this.url = url; this.listeners = {}; this.closed = false; window.streams.push(this);
  }
  addEventListener(name, fn) { (this.listeners[name] ||= []).push(fn); }
  close() { this.closed = true; }
  send(name, data) {
    if (this.closed) return;
    const event = new MessageEvent(name, { data: JSON.stringify(data) });
    for (const fn of this.listeners[name] || []) fn(event);
  }
  fail() { for (const fn of this.listeners.error || []) fn(new Event('error')); }
};
"""


def steps_of(page: Any, server: str) -> list[dict[str, Any]]:
    pid = page.evaluate("() => window.pencilbox.id")
    found: list[dict[str, Any]] = page.request.get(f"{server}/api/puzzles/{pid}/steps").json()[
        "steps"
    ]
    return found


def send(page: Any, name: str, data: Any) -> None:
    page.evaluate("([name, data]) => window.streams.at(-1).send(name, data)", [name, data])


def position(page: Any) -> str:
    text: str = page.inner_text("#p-pos")
    return text


def start_driven_solve(page: Any, server: str) -> tuple[str, list[dict[str, Any]]]:
    """A sudoku's animated solve with the stand-in stream: its givens and the steps to send."""
    page.add_init_script(FAKE_EVENT_SOURCE)
    open_sudoku(page, server)
    givens: str = page.evaluate("() => window.pencilbox.puzzle.givens")
    steps = steps_of(page, server)
    page.click("#animate-solve")
    page.wait_for_selector("#player:not(.hidden)")
    return givens, steps


def test_the_total_grows_as_steps_arrive(page: Any, server: str) -> None:
    givens, steps = start_driven_solve(page, server)
    pid = page.evaluate("() => window.pencilbox.id")
    assert page.evaluate("() => window.streams.at(-1).url") == f"/api/puzzles/{pid}/steps/stream"
    assert position(page) == "0 / 0…" and page.inner_text("#sentence") == "Solving…"
    page.fill("#p-speed", "100")
    send(page, "step", steps[0])
    page.wait_for_function("() => document.querySelector('#p-pos').textContent === '1 / 1…'")
    assert page.evaluate(BOARD_JS) == replayed(givens, steps[:1])  # playing from the first step
    for step in steps[1:5]:
        send(page, "step", step)
    page.wait_for_function("() => document.querySelector('#p-pos').textContent === '5 / 5…'")
    assert page.evaluate("() => document.querySelector('#p-scrub').max") == "5"
    page.click("#p-back")
    assert position(page) == "4 / 5…" and page.evaluate(BOARD_JS) == replayed(givens, steps[:4])
    send(page, "done", {"count": 5, "complete": False})  # the server's time limit stopped it
    assert position(page) == "4 / 5"
    assert "stopped early" in page.inner_text("#p-note")
    assert page.evaluate("() => window.streams.at(-1).closed")


def test_last_pressed_while_steps_arrive_follows_them_to_the_end(page: Any, server: str) -> None:
    # "last" at 3 of a solve whose other steps are still on their way: the player goes to
    # the end once they are in (it stayed at 3, stopped, and the game was never solved)
    givens, steps = start_driven_solve(page, server)
    for step in steps[:3]:
        send(page, "step", step)
    page.click("#p-last")
    assert position(page) == "3 / 3…"
    for step in steps[3:]:
        send(page, "step", step)
    send(page, "done", {"count": len(steps), "complete": True})
    total = len(steps)
    assert position(page) == f"{total} / {total}"
    assert page.evaluate(BOARD_JS) == replayed(givens, steps)
    page.wait_for_function("() => window.pencilbox.game && window.pencilbox.game.solved")
    # "first" while steps arrive takes the player off that course: it stays where it is put
    page.click("#animate-solve")
    page.wait_for_selector("#player:not(.hidden)")
    send(page, "step", steps[0])
    page.click("#p-last")
    page.click("#p-first")
    for step in steps[1:]:
        send(page, "step", step)
    send(page, "done", {"count": len(steps), "complete": True})
    assert position(page) == f"0 / {total}"


def test_no_stream_falls_back_to_the_whole_trace(page: Any, server: str) -> None:
    page.add_init_script(FAKE_EVENT_SOURCE)
    open_sudoku(page, server)
    steps = steps_of(page, server)
    page.click("#animate-solve")
    page.wait_for_selector("#player:not(.hidden)")
    page.evaluate("() => window.streams.at(-1).fail()")  # as a 404 looks to an EventSource
    page.fill("#p-speed", "100")
    total = len(steps)
    page.wait_for_function(
        f"() => document.querySelector('#p-pos').textContent === '{total} / {total}'",
        timeout=WAIT_MS,
    )
    assert page.evaluate("() => window.streams.at(-1).closed")  # no reconnecting
    assert "." not in page.evaluate(BOARD_JS)


def test_a_broken_stream_keeps_its_steps_and_fetches_the_rest(page: Any, server: str) -> None:
    page.add_init_script(FAKE_EVENT_SOURCE)
    open_sudoku(page, server)
    steps = steps_of(page, server)
    page.click("#animate-solve")
    page.wait_for_selector("#player:not(.hidden)")
    page.click("#p-play")  # pause: the position stays where the test puts it
    for step in steps[:3]:
        send(page, "step", step)
    page.evaluate("() => window.streams.at(-1).fail()")
    total = len(steps)
    page.wait_for_function(f"() => document.querySelector('#p-pos').textContent === '0 / {total}'")
    page.click("#p-last")
    assert "." not in page.evaluate(BOARD_JS)
    assert page.inner_text("#sentence") == f"{total}. {steps[-1]['sentence']}"


def test_a_server_error_is_shown_and_close_ends_the_stream(page: Any, server: str) -> None:
    page.add_init_script(FAKE_EVENT_SOURCE)
    open_sudoku(page, server)
    page.click("#animate-solve")
    page.wait_for_selector("#player:not(.hidden)")
    send(page, "error", {"error": "the worker ran out of memory"})
    page.locator("#p-note.error").wait_for()
    assert page.inner_text("#p-note") == "the worker ran out of memory"
    assert page.evaluate("() => window.streams.length") == 1  # no fallback: it would fail too
    page.click("#animate-solve")  # again, then the user closes the player mid-stream
    page.wait_for_function("() => window.streams.length === 2")
    page.click("#p-close")
    assert page.evaluate("() => window.streams.map(s => s.closed)") == [True, True]
    assert page.locator("#player").is_hidden()


def test_the_real_stream_is_used(page: Any, server: str) -> None:
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    shared.open_puzzle(page, server, "data148")
    page.click("#solve")
    page.wait_for_selector("#player:not(.hidden)")
    page.fill("#p-speed", "100")
    page.wait_for_function(
        "() => { const [a, b] = document.querySelector('#p-pos').textContent.split(' / ');"
        " return a === b && Number(b) > 0; }",
        timeout=WAIT_MS,
    )
    assert any(url.endswith("/steps/stream") for url in requests)
    assert not any(url.endswith("/steps") for url in requests)  # no fallback was needed
    assert "?" not in shared.grid(page)
