"""The Double Choco page in a real browser (Debian's chromium driven by Playwright).

Uses the server and browser fixtures of test_browser (one server per module, fresh library).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.web import test_browser as shared
from tests.web.conftest import WAIT_MS

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
    page.wait_for_function("() => window.pencilbox.game.history === 1")
    assert state(page)[1] == "1" and page.locator("#board line.wall").count() == 1
    # drag along the line below row 1, from under r1c3 to under r1c5: three walls in one move
    box = page.locator("#board svg").bounding_box()
    y = box["y"] + PAD + CELL
    page.mouse.move(box["x"] + PAD + 2.5 * CELL, y)
    page.mouse.down()
    page.mouse.move(box["x"] + PAD + 3.5 * CELL, y, steps=5)
    page.mouse.move(box["x"] + PAD + 4.5 * CELL, y, steps=5)
    page.mouse.up()
    page.wait_for_function("() => window.pencilbox.game.history === 2")
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
    page.click("#hint")  # three presses: the technique, where to look, the whole step
    page.wait_for_selector("#sentence[data-level='1']")
    assert "technique" in page.inner_text("#sentence")
    assert page.locator("#hint-actions").is_hidden()
    page.click("#hint")
    page.wait_for_selector("#sentence[data-level='2']")
    assert "look at r1c2, r1c3" in page.inner_text("#sentence")
    assert page.locator("#board rect.hl-reason").count() == 2
    page.click("#hint")
    page.wait_for_selector("#hint-actions:not(.hidden)")
    assert page.locator("#board line.hover").count() == 1  # the edge the step decides
    page.click("#hint-apply")
    page.wait_for_function("() => window.pencilbox.game.history === 1")
    assert "1" in state(page)
    page.fill("#gen-width", "4")
    page.fill("#gen-height", "4")
    page.click("#generate")
    page.wait_for_function("() => window.pencilbox.width === 4 && window.pencilbox.height === 4")
    page.wait_for_selector("#board svg")
    assert state(page) == "?" * 24
    assert page.locator("#url").input_value().startswith("https://puzz.link/p?dbchoco/4/4/")


POSITION_JS = """() => { const [a, b] = document.querySelector('#p-pos').textContent.split(' / ');
    return a === b && Number(b) > 0; }"""
# The edges as drawn: a wall line is 1, an open dot 0, nothing ? (in the engine's edge order).
DRAWN_JS = """() => { const out = Array(window.pencilbox.state.length).fill('?');
    for (const n of document.querySelectorAll('#board line.wall')) out[n.dataset.edge] = '1';
    for (const n of document.querySelectorAll('#board circle.open')) out[n.dataset.edge] = '0';
    return out.join(''); }"""


def drawn(page: Any) -> str:
    text: str = page.evaluate(DRAWN_JS)
    return text


def replayed(steps: list[dict[str, Any]], count: int = 60) -> str:
    """The edges after `steps`, computed here from the trace."""
    edges = ["?"] * count
    for step in steps:
        for e, v in step["extra"]["edges"]:
            edges[e] = str(v)
    return "".join(edges)


def test_animated_solve_draws_walls_step_by_step(page: Any, server: str) -> None:
    open_dbchoco(page, server)
    pid = page.evaluate("() => window.pencilbox.id")
    steps = page.request.get(f"{server}/api/puzzles/{pid}/steps").json()["steps"]
    total = len(steps)
    assert total >= 3
    page.click("#animate-solve")
    page.wait_for_selector("#player:not(.hidden)")
    page.fill("#p-speed", "100")
    page.wait_for_function(POSITION_JS, timeout=WAIT_MS)
    assert page.inner_text("#p-pos") == f"{total} / {total}"
    assert drawn(page) == answer_edges()  # the replay ends on the known answer
    page.click("#p-first")
    assert drawn(page) == "?" * 60 and page.locator("#board line.wall").count() == 0
    page.click("#p-fwd")
    first = steps[0]
    assert drawn(page) == replayed(steps[:1])
    assert page.inner_text("#sentence") == f"1. {first['sentence']}"
    walls = [e for e, v in first["extra"]["edges"] if v == "1"]
    hinted = page.evaluate(
        "() => [...document.querySelectorAll('#board .wall.hint')].map(n => Number(n.dataset.edge))"
    )
    assert sorted(hinted) == sorted(walls)  # the step's own walls stand out
    page.fill("#p-scrub", "2")
    assert page.inner_text("#p-pos") == f"2 / {total}" and drawn(page) == replayed(steps[:2])
    page.click("#p-back")  # exactly the earlier state again
    assert drawn(page) == replayed(steps[:1])
    page.click("#p-last")
    assert drawn(page) == answer_edges()
    page.click("#p-close")
    assert page.locator("#player").is_hidden()
    assert state(page) == answer_edges()  # the replay became a move of the game
    assert drawn(page) == answer_edges()


def test_export_share_and_touch(browser: Any, server: str) -> None:
    context = browser.new_context(
        viewport={"width": 900, "height": 1000}, has_touch=True, accept_downloads=True
    )
    opened = context.new_page()
    opened.set_default_timeout(WAIT_MS)
    open_dbchoco(opened, server)
    opened.click("#reset")
    opened.wait_for_function("() => window.pencilbox.state.every(v => v === 0)")
    # touch: a tap on the line right of r1c1 draws a wall there (a touch screen shows the
    # board larger: the tap is placed in the board as drawn)
    board = opened.locator("#board svg")
    scale = board.bounding_box()["width"] / float(board.get_attribute("width"))
    board.tap(position={"x": (PAD + CELL) * scale, "y": (PAD + 0.5 * CELL) * scale})
    opened.wait_for_function("() => window.pencilbox.state[0] === 1")
    assert state(opened)[0] == "1"
    opened.select_option("#export-state", "solution")
    with opened.expect_download() as svg:
        opened.select_option("#export", "svg")
    svg_path = svg.value.path()
    assert svg_path is not None and "<svg" in Path(svg_path).read_text(encoding="utf-8")
    assert svg.value.suggested_filename == f"{TITLE}-solution.svg"
    with opened.expect_download() as png:
        opened.select_option("#export", "png")
    png_path = png.value.path()
    assert png_path is not None and Path(png_path).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with opened.expect_download() as text:
        opened.select_option("#export", "url")
    text_path = text.value.path()
    url = json.loads(FILE.read_text(encoding="utf-8"))["url"]
    assert text_path is not None and Path(text_path).read_text(encoding="utf-8").strip() == url
    opened.click("#share")
    link = opened.locator("#share-url").input_value()
    assert "/dbchoco#puzzle=https%3A%2F%2Fpuzz.link" in link
    fresh = browser.new_context()
    other = fresh.new_page()
    other.goto(link)
    other.wait_for_selector("body[data-ready]")
    other.wait_for_selector("#board svg")
    assert "?id=" in other.url and other.locator("#url").input_value() == url
    assert other.locator("#board svg rect.gray").count() == 18
    fresh.close()
    context.close()


def test_animation_screenshots(browser: Any, server: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport={"width": 1300, "height": 950}, color_scheme=scheme)
        opened = context.new_page()
        open_dbchoco(opened, server)
        opened.click("#animate-solve")
        opened.fill("#p-speed", "100")
        opened.wait_for_function(POSITION_JS, timeout=WAIT_MS)
        opened.click("#p-first")
        opened.click("#p-fwd")
        opened.click("#p-fwd")
        path = ARTIFACTS / f"dbchoco-animation-{scheme}.png"
        opened.screenshot(path=str(path), full_page=True)
        context.close()
        assert path.stat().st_size > 10_000
