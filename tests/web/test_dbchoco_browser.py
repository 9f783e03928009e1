"""The Double Choco page in a real browser (Debian's chromium driven by Playwright).

Uses the server and browser fixtures of test_browser (one server per module, fresh library).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.web import test_browser as shared

ARTIFACTS = shared.ARTIFACTS
browser = shared.browser  # the fixtures, shared with the nonogram browser tests
server = shared.server
page = shared.page

pytestmark = pytest.mark.browser

TITLE = "robx_pzprjs_01_6x6"
FILE = Path(__file__).resolve().parents[2] / "examples" / f"{TITLE}.json"
SYNCED_JS = "() => window.pencilbox && window.pencilbox.pending === 0"
STATE_JS = "() => window.pencilbox.state.map(v => '?10'[v]).join('')"
CELL, PAD = 44, 6  # as in dbchoco.js


def answer_edges() -> str:
    answer = json.loads(FILE.read_text(encoding="utf-8"))["answer"]
    return "".join(answer["vertical"]) + "".join(answer["horizontal"])


def open_dbchoco(page: Any, server: str) -> None:
    page.goto(f"{server}/")
    page.locator(".card", has_text=TITLE).get_by_role("link", name="Open").click()
    page.wait_for_selector("body[data-ready]")
    page.wait_for_selector("#board svg")


def state(page: Any) -> str:
    page.wait_for_function(SYNCED_JS)
    text: str = page.evaluate(STATE_JS)
    return text


def click_edge(page: Any, x: float, y: float) -> None:
    """Click the board at (x, y) in cell units from its top-left corner."""
    page.locator("#board svg").click(position={"x": PAD + x * CELL, "y": PAD + y * CELL})


def test_draw_undo_check_solve_and_reload(page: Any, server: str) -> None:
    open_dbchoco(page, server)
    assert page.locator("#board svg rect.gray").count() == 18
    assert page.locator("#board svg text.num").all_text_contents()[:2] == ["4", "2"]
    assert page.locator("#url").input_value().startswith("https://puzz.link/p?dbchoco/6/6/")
    assert state(page) == "?" * 60
    click_edge(page, 2, 0.5)  # the line right of r1c2: v1,2 (edge 1)
    page.wait_for_function("() => window.pencilbox.game.moves.length === 1")
    assert state(page)[1] == "1" and page.locator("#board line.wall").count() == 1
    # drag along the line below row 1, from under r1c3 to under r1c5: three walls in one move
    box = page.locator("#board svg").bounding_box()
    y = box["y"] + PAD + CELL
    page.mouse.move(box["x"] + PAD + 2.5 * CELL, y)
    page.mouse.down()
    page.mouse.move(box["x"] + PAD + 3.5 * CELL, y, steps=5)
    page.mouse.move(box["x"] + PAD + 4.5 * CELL, y, steps=5)
    page.mouse.up()
    page.wait_for_function("() => window.pencilbox.game.moves.length === 2")
    assert state(page)[32:35] == "111"
    page.click("#undo")
    page.wait_for_function("() => window.pencilbox.game.position === 1")
    assert state(page)[32:35] == "???" and state(page)[1] == "1"
    click_edge(page, 2, 0.5)  # clicking a wall erases it
    page.wait_for_function("() => window.pencilbox.game.position === 2")
    assert state(page) == "?" * 60
    page.click("#check")
    page.wait_for_selector("#problems li")
    assert "problem" in page.inner_text("#info")
    assert page.locator("#board rect.hl-wrong").count() > 0
    page.click("#hint")
    page.wait_for_function("() => window.pencilbox.hint !== null")
    assert len(page.inner_text("#sentence")) > 20
    page.click("#solve")
    page.wait_for_selector("#info.ok")
    assert state(page) == answer_edges()
    assert "one solution" in page.inner_text("#info")
    page.click("#check")
    page.wait_for_function("() => document.querySelector('#info').textContent.includes('Solved')")
    page.reload()
    page.wait_for_selector("body[data-ready]")
    assert state(page) == answer_edges()
    ARTIFACTS.mkdir(exist_ok=True)
    for k, scheme in enumerate(("light", "dark")):
        page.emulate_media(color_scheme=scheme)
        page.wait_for_timeout(100)
        page.screenshot(path=str(ARTIFACTS / f"dbchoco-{scheme}.png"), full_page=True)
        page.click("#undo")  # back to the empty board, then one wrong wall and a check
        page.wait_for_function("() => window.pencilbox.game.can_redo")
        click_edge(page, 1 + k, 0.5)  # v1,1 then v1,2 (the first one stays from light)
        page.wait_for_function("() => !window.pencilbox.game.can_redo")
        page.click("#check")
        page.wait_for_selector("#problems li")
        page.screenshot(path=str(ARTIFACTS / f"dbchoco-check-{scheme}.png"), full_page=True)
        page.click("#solve")
        page.wait_for_selector("#info.ok")
        assert state(page) == answer_edges()


def test_url_import_hint_and_generate(page: Any, server: str) -> None:
    page.goto(f"{server}/dbchoco")
    page.wait_for_selector("body[data-ready]")
    assert page.locator("#undo").is_disabled()
    page.click("#load")
    assert "puzz.link" in page.inner_text("#url-msg")
    url = json.loads(FILE.read_text(encoding="utf-8"))["url"]
    page.fill("#url", url)
    page.click("#load")
    page.wait_for_selector("#board svg")
    assert "id=" in page.url and page.locator("#board svg text.num").count() == 6
    page.click("#hint")
    page.wait_for_selector("#hint-actions:not(.hidden)")
    page.click("#hint-apply")
    page.wait_for_function("() => window.pencilbox.game.moves.length === 1")
    assert "1" in state(page)
    page.fill("#gen-width", "4")
    page.fill("#gen-height", "4")
    page.click("#generate")
    page.wait_for_function("() => window.pencilbox.width === 4 && window.pencilbox.height === 4")
    page.wait_for_selector("#board svg")
    assert state(page) == "?" * 24
    assert page.locator("#url").input_value().startswith("https://puzz.link/p?dbchoco/4/4/")
