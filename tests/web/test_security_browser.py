"""In a real browser: a page from another origin (another port on 127.0.0.1) cannot change a
game, by fetch or by a form, while the app's own page still can; and a DNS-rebinding page (its
name pointed at 127.0.0.1 after it loaded) can neither read nor change the library."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest

from tests.web.conftest import PAGE_HEADERS, WAIT_MS
from tests.web.test_browser import (
    ARGS,
    CHROMIUM,
    browser,
    cell,
    open_puzzle,
    page,
    server,
    synced,
)

__all__ = ["browser", "page", "server"]  # fixtures shared with test_browser

pytestmark = pytest.mark.browser

ATTACK = """<!doctype html><meta charset="utf-8"><title>another site</title>
<iframe name="sink"></iframe>
<form id="form" method="POST" target="sink" action="{app}/api/games/{pid}/reset">
  <input name="a" value="b">
</form>
<form id="json-form" method="POST" target="sink" enctype="text/plain"
      action="{app}/api/games/{pid}/move">
  <input name='{{"move": "r8c8=1", "x": "' value='"}}'>
</form>
<script>
async function attempt(name, url, options) {{
  try {{
    const answer = await fetch(url, options);
    return [name, answer.type === "opaque" ? "opaque" : answer.status];
  }} catch (error) {{
    return [name, "blocked"];
  }}
}}
window.attack = async () => {{
  const game = "{app}/api/games/{pid}";
  const form = "application/x-www-form-urlencoded";
  const results = await Promise.all([
    attempt("no-cors solve", `${{game}}/solve`,
            {{ method: "POST", mode: "no-cors", headers: {{ "Content-Type": form }}, body: "" }}),
    attempt("no-cors reset", `${{game}}/reset`, {{ method: "POST", mode: "no-cors" }}),
    attempt("no-cors move", `${{game}}/move`, {{ method: "POST", mode: "no-cors",
            headers: {{ "Content-Type": "text/plain" }}, body: '{{"move": "r8c8=1"}}' }}),
    attempt("cors json move", `${{game}}/move`, {{ method: "POST",
            headers: {{ "Content-Type": "application/json" }}, body: '{{"move": "r8c8=1"}}' }}),
    attempt("cors header undo", `${{game}}/undo`,
            {{ method: "POST", headers: {{ "X-Pencilbox": "1" }} }}),
    attempt("delete", "{app}/api/puzzles/{pid}", {{ method: "DELETE", mode: "no-cors" }}),
    attempt("read", "{app}/api/puzzles", {{}}),
  ]);
  for (const id of ["form", "json-form"]) {{
    await new Promise((done) => {{
      document.querySelector("iframe").addEventListener("load", done, {{ once: true }});
      document.getElementById(id).submit();
    }});
  }}
  return Object.fromEntries(results);
}};
</script>
"""


@pytest.fixture
def other_site() -> Iterator[tuple[str, dict[str, str]]]:
    """A second web server on 127.0.0.1 (another port, so another origin); the test puts
    the page to serve in the dict."""
    pages: dict[str, str] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = pages.get(self.path, "").encode()
            with contextlib.suppress(OSError):
                self.send_response(200 if body else 404)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    site = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    site.daemon_threads = True
    threading.Thread(target=site.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{site.server_address[1]}", pages
    site.shutdown()
    site.server_close()


def game_of(app: str, pid: int) -> dict[str, Any]:
    answer: dict[str, Any] = httpx.get(f"{app}/api/games/{pid}", timeout=30).json()
    return answer


def test_another_origin_cannot_change_a_game(
    page: Any, server: str, other_site: tuple[str, dict[str, str]]
) -> None:
    puzzles = httpx.get(f"{server}/api/puzzles", timeout=30).json()
    pid = next(p["id"] for p in puzzles if p["title"] == "data001")
    played = httpx.post(
        f"{server}/api/games/{pid}/move", json={"move": "r1c1=2"}, headers=PAGE_HEADERS
    )
    assert played.status_code == 200
    before = game_of(server, pid)

    site, pages = other_site
    pages["/attack.html"] = ATTACK.format(app=server, pid=pid)
    page.goto(f"{site}/attack.html")
    results = page.evaluate("window.attack()")

    after = game_of(server, pid)
    assert after["state"] == before["state"] and after["position"] == before["position"]
    assert httpx.get(f"{server}/api/puzzles/{pid}", timeout=30).status_code == 200
    # the browser never let the other page read or preflight its way in
    assert results["cors json move"] == "blocked" and results["cors header undo"] == "blocked"
    assert results["read"] == "blocked"

    # ... while the app's own page still plays the same game
    open_puzzle(page, server, "data001")
    cell(page, 1, 1).click()
    synced(page)
    mine = game_of(server, pid)
    assert mine["position"] == before["position"] + 1
    assert mine["state"] != before["state"]


REBOUND = "rebound.example"
"""A name an attacker controls, pointed at 127.0.0.1 after its page was loaded (DNS rebinding):
chromium resolves it to 127.0.0.1 here (--host-resolver-rules)."""

REBINDING = """<!doctype html><meta charset="utf-8"><title>a rebound site</title>
<script>
window.attack = async () => {{
  const send = async (url, options) => {{
    try {{
      const answer = await fetch(url, options);
      return [answer.status, (await answer.text()).slice(0, 300)];
    }} catch (error) {{
      return ["blocked", String(error)];
    }}
  }};
  const own = {{ "X-Pencilbox": "1", "Content-Type": "application/json" }};
  return {{
    read: await send("/api/puzzles", {{}}),
    game: await send("/api/games/{pid}", {{}}),
    reset: await send("/api/games/{pid}/reset", {{ method: "POST", headers: own }}),
    move: await send("/api/games/{pid}/move",
                     {{ method: "POST", headers: own, body: '{{"move": "r8c8=1"}}' }}),
    delete: await send("/api/puzzles/{pid}", {{ method: "DELETE", headers: own }}),
  }};
}};
</script>
"""


@pytest.fixture
def rebound_page(browser: Any) -> Iterator[Any]:
    """A page in a chromium that resolves REBOUND to 127.0.0.1 and, like browsers without Local
    Network Access checks (Firefox, Chromium before 2025), lets a page reach 127.0.0.1: the
    app itself must refuse."""
    rules = f"--host-resolver-rules=MAP {REBOUND} 127.0.0.1"
    lna_off = "--disable-features=LocalNetworkAccessChecks"
    rebound = browser.browser_type.launch(
        executable_path=str(CHROMIUM), args=[*ARGS, rules, lna_off]
    )
    opened = rebound.new_page()
    opened.set_default_timeout(WAIT_MS)
    yield opened
    rebound.close()


def test_a_rebound_name_cannot_read_or_change_the_library(rebound_page: Any, server: str) -> None:
    """The attacker's page was served under its own name; the name now points at the app, so
    its same-origin requests (which may carry any header) reach the app's port, with the
    attacker's name in Host: every one of them is refused with 400."""
    puzzles = httpx.get(f"{server}/api/puzzles", timeout=30).json()
    pid = next(p["id"] for p in puzzles if p["title"] == "data001")
    played = httpx.post(
        f"{server}/api/games/{pid}/move", json={"move": "r1c1=2"}, headers=PAGE_HEADERS
    )
    assert played.status_code == 200
    before = game_of(server, pid)

    port = server.rsplit(":", 1)[1]
    attacker = f"http://{REBOUND}:{port}"
    rebound_page.route(  # the page as the attacker's own server sent it, before the rebinding
        f"{attacker}/attack.html",
        lambda route: route.fulfill(
            status=200, content_type="text/html", body=REBINDING.format(pid=pid)
        ),
    )
    rebound_page.goto(f"{attacker}/attack.html")
    results = rebound_page.evaluate("window.attack()")

    for name, (status, text) in results.items():
        assert status == 400, (name, status, text)
        assert "does not answer to the host name" in text and "data001" not in text, name
    after = game_of(server, pid)
    assert after["state"] == before["state"] and after["position"] == before["position"]
    assert httpx.get(f"{server}/api/puzzles/{pid}", timeout=30).status_code == 200
