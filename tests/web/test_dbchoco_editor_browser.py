"""The Double Choco editor (/dbchoco?edit) in a real browser (Debian's chromium + Playwright).

Uses the server and browser fixtures of test_browser (one server per module, fresh library).
The puzzle painted is the 4x4 of kevinychen/nikoli-puzzle-solver from the shared data: unique
with its four numbers, two solutions without the 2 (differing at two edges of row 3).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.conftest import TEST_DATA
from tests.web import test_browser as shared
from tests.web.conftest import WAIT_MS

ARTIFACTS = shared.ARTIFACTS
browser = shared.browser  # the fixtures, shared with the other browser tests
server = shared.server
page = shared.page

pytestmark = pytest.mark.browser

DATA = TEST_DATA / "dbchoco" / "kevinychen_nikoli-puzzle-solver_01_4x4.json"
CELL, PAD = 44, 6  # as in dbchoco-editor.js
VALIDATED_JS = """() => { const p = window.pencilbox;
    return p && p.editor && p.editor.validated === p.editorText(); }"""
BOTH_BUTTONS_JS = """() => { document.querySelector('#edit-check').click();
    document.querySelector('#edit-save').click(); }"""
COLOURS_JS = """() => { const e = window.pencilbox.editor; const rows = [];
    for (let r = 0; r < e.height; r++)
        rows.push(e.gray.slice(r * e.width, (r + 1) * e.width).map(g => g ? 'g' : 'w').join(''));
    return rows; }"""


def known() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
    return data


def open_editor(page: Any, server: str) -> None:
    page.goto(f"{server}/")
    page.click("#new-dbchoco")
    page.wait_for_selector("body[data-ready]")
    page.wait_for_selector("#edit-board svg")
    assert page.url.endswith("/dbchoco?edit")


def set_size(page: Any, width: int, height: int) -> None:
    page.fill("#edit-width", str(width))
    page.press("#edit-width", "Tab")  # the size applies on change
    page.fill("#edit-height", str(height))
    page.press("#edit-height", "Tab")
    page.wait_for_function(
        f"() => window.pencilbox.editor.width === {width} && "
        f"window.pencilbox.editor.height === {height}"
    )
    validated(page)  # the server's answer redraws the board: wait for it before pointing at it


def point(r: float, c: float) -> dict[str, float]:
    return {"x": PAD + (c + 0.5) * CELL, "y": PAD + (r + 0.5) * CELL}


def click_cell(page: Any, r: int, c: int) -> None:
    page.locator("#edit-board svg").click(position=point(r, c))


def drag(page: Any, start: tuple[int, int], end: tuple[int, int]) -> None:
    board = page.locator("#edit-board svg")
    board.wait_for(state="visible")
    box = board.bounding_box()  # None while a redraw replaces the board: look again
    for _ in range(100):
        if box is not None:
            break
        page.wait_for_timeout(50)
        box = board.bounding_box()
    assert box is not None, "the editor's board stayed hidden"
    a, b = point(*start), point(*end)
    page.mouse.move(box["x"] + a["x"], box["y"] + a["y"])
    page.mouse.down()
    page.mouse.move(box["x"] + b["x"], box["y"] + b["y"], steps=6)
    page.mouse.up()


def colours(page: Any) -> list[str]:
    rows: list[str] = page.evaluate(COLOURS_JS)
    return rows


def validated(page: Any) -> str:
    """The server's message about the board as it is now."""
    page.wait_for_function(VALIDATED_JS)
    text: str = page.inner_text("#edit-msg")
    return text


def check(page: Any) -> str:
    page.click("#edit-check")
    page.wait_for_selector("#edit-verdict[data-status]")
    status: str = page.get_attribute("#edit-verdict", "data-status")
    return status


def paint_known(page: Any) -> None:
    """The colours of the 4x4 by clicks and drags, then three of its four numbers by keys."""
    drag(page, (0, 2), (0, 3))  # one drag paints both
    for r, c in ((0, 0), (1, 0), (1, 3), (2, 2)):
        click_cell(page, r, c)
    drag(page, (3, 1), (3, 2))
    assert colours(page) == known()["colors"]
    page.click("#edit-select")  # numbers mode: a click only selects
    click_cell(page, 0, 0)
    page.keyboard.press("1")
    click_cell(page, 0, 2)
    page.keyboard.press("3")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")  # r2c4
    page.keyboard.press("3")
    assert colours(page) == known()["colors"]  # selecting painted nothing
    assert page.locator("#edit-board text.num").all_text_contents() == ["1", "3", "3"]


def test_make_check_and_save_a_puzzle(page: Any, server: str) -> None:
    open_editor(page, server)
    assert page.locator("#edit-board rect.sq").count() == 36  # a blank 6x6 to start
    assert page.locator("#edit-board rect.gray").count() == 0
    assert page.locator("#board").is_hidden() and page.locator("#undo").is_hidden()
    set_size(page, 4, 4)
    assert page.locator("#edit-board rect.white").count() == 16
    paint_known(page)
    assert validated(page) == "The puzzle reads fine."
    # without the 2 there are two answers: the two edges where they differ are marked
    assert check(page) == "multiple"
    assert "Not unique" in page.inner_text("#edit-verdict")
    diff = page.locator("#edit-board line.wall.diff")
    assert sorted(int(e) for e in diff.evaluate_all("(ns) => ns.map(n => n.dataset.edge)")) == [
        22,
        23,
    ]  # h3,3 and h3,4: 12 vertical edges, then the horizontal ones row by row
    assert page.locator("#edit-board rect.hl-change").count() == 4
    assert "2 edges" in page.inner_text("#edit-verdict")
    page.keyboard.press("ArrowDown")  # r3c4
    page.keyboard.press("2")
    assert "changed" in page.inner_text("#edit-verdict")
    assert page.locator("#edit-board line.wall.diff").count() == 0
    assert validated(page) == "The puzzle reads fine."
    assert page.locator("#edit-url").input_value() == known()["url"]
    assert check(page) == "unique"
    assert "Unique" in page.inner_text("#edit-verdict")
    answer = known()["answer"]
    walls = "".join(answer["vertical"]) + "".join(answer["horizontal"])
    drawn = page.locator("#edit-board line.wall.answer").evaluate_all(
        "(ns) => ns.map(n => Number(n.dataset.edge))"
    )
    assert sorted(drawn) == [e for e, v in enumerate(walls) if v == "1"]
    titles = [row["title"] for row in page.request.get(f"{server}/api/puzzles").json()]
    assert "draft (uniqueness check)" not in titles  # the check's draft is gone again
    page.fill("#edit-title", "my first choco")
    page.click("#edit-save")
    page.wait_for_url("**/dbchoco?id=*")
    page.wait_for_selector("body[data-ready]")
    page.wait_for_selector("#board svg")
    assert page.locator("#edit-board").is_hidden()
    assert "my first choco" in page.inner_text("#title")
    assert page.locator("#board svg rect.gray").count() == 8
    assert page.locator("#board svg text.num").all_text_contents() == ["1", "3", "3", "2"]
    assert page.locator("#url").input_value() == known()["url"]
    page.click("#solve")
    page.wait_for_selector("#info.ok")
    assert "one solution" in page.inner_text("#info")
    page.goto(f"{server}/")
    card = page.locator(".card", has_text="my first choco")
    card.first.wait_for()  # the library draws its cards after its own request
    assert card.count() == 1 and "4×4" in card.inner_text()


def test_server_messages_none_and_restore(page: Any, server: str) -> None:
    open_editor(page, server)
    set_size(page, 4, 4)
    click_cell(page, 1, 1)  # paint mode: the click paints and selects
    page.keyboard.press("9")
    message = validated(page)
    assert message == "r2c2: the number 9 is larger than half the grid (8 cells)"
    assert page.locator("#edit-msg.error").count() == 1
    assert page.locator("#edit-board rect.hl-wrong").count() == 1
    page.click("#edit-save")
    page.wait_for_function(
        "() => document.querySelector('#edit-msg').textContent.startsWith('Not saved')"
    )
    assert "larger than half the grid" in page.inner_text("#edit-msg")
    assert page.url.endswith("/dbchoco?edit")
    assert check(page) == "error" and "larger than half" in page.inner_text("#edit-verdict")
    page.keyboard.press("Backspace")
    assert validated(page) == "The puzzle reads fine."
    assert page.locator("#edit-board rect.hl-wrong").count() == 0
    page.keyboard.press("0")
    assert "not a positive whole number" in validated(page)
    page.keyboard.press("Delete")
    page.keyboard.type("?")
    assert validated(page) == "The puzzle reads fine."
    assert page.locator("#edit-board text.num").all_text_contents() == ["?"]
    # two digits in a row make one number; the 2x2 keeps the top-left corner
    set_size(page, 2, 2)
    assert colours(page) == ["ww", "wg"]
    page.click("#edit-clear")
    assert colours(page) == ["ww", "ww"] and page.locator("#edit-board text.num").count() == 0
    click_cell(page, 0, 1)  # "1 #" / ". ." has no solution
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("1")
    page.keyboard.press("2")
    assert "the number 12 is larger" in validated(page)
    page.keyboard.press("Backspace")
    page.keyboard.press("1")
    assert check(page) == "none"
    assert "No solution" in page.inner_text("#edit-verdict")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")
    page.keyboard.press(" ")  # Space flips the colour: "1 #" / ". #" is unique
    assert colours(page) == ["wg", "wg"]
    assert check(page) == "unique"
    page.reload()  # the board survives a reload of the tab
    page.wait_for_selector("#edit-board svg")
    assert colours(page) == ["wg", "wg"]
    assert page.locator("#edit-board text.num").all_text_contents() == ["1"]
    # Save pressed while a check runs: the check's draft is this very puzzle, so Save waits
    # for the check to delete it, then stores the puzzle under its own title
    page.fill("#edit-title", "saved during a check")
    page.evaluate(BOTH_BUTTONS_JS)
    page.wait_for_url("**/dbchoco?id=*")
    page.wait_for_selector("#board svg")
    assert "saved during a check" in page.inner_text("#title")
    assert page.locator("#board svg rect.gray").count() == 2


def test_touch_paints_and_pad_numbers(browser: Any, server: str) -> None:
    context = browser.new_context(viewport={"width": 800, "height": 1000}, has_touch=True)
    opened = context.new_page()
    opened.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.goto(f"{server}/dbchoco?edit")
    opened.wait_for_selector("#edit-board svg")
    set_size(opened, 2, 2)
    opened.locator("#edit-board svg").tap(position=point(0, 1))
    opened.locator("#edit-board svg").tap(position=point(1, 1))
    assert colours(opened) == ["wg", "wg"]
    opened.locator("#edit-select").tap()
    opened.locator("#edit-board svg").tap(position=point(0, 0))
    assert colours(opened) == ["wg", "wg"]
    opened.locator("#edit-pad button", has_text="1").first.tap()
    assert validated(opened) == "The puzzle reads fine."
    assert opened.locator("#edit-board text.num").all_text_contents() == ["1"]
    assert check(opened) == "unique"
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def test_editor_screenshots(browser: Any, server: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport={"width": 1300, "height": 800}, color_scheme=scheme)
        opened = context.new_page()
        opened.set_default_timeout(WAIT_MS)
        open_editor(opened, server)
        set_size(opened, 4, 4)
        paint_known(opened)
        assert check(opened) == "multiple"  # the two answers' differences on the picture
        assert validated(opened) == "The puzzle reads fine."
        assert (
            opened.locator("#edit-url").input_value()
            == "https://puzz.link/p?dbchoco/4/4/n4j01g3j3n"
        )
        path = ARTIFACTS / f"dbchoco-editor-{scheme}.png"
        opened.screenshot(path=str(path), full_page=True)
        context.close()
        assert path.stat().st_size > 10_000
