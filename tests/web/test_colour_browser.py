"""A colour nonogram played on the nonogram page in a real browser: the palette by click and
by key, painting by click and drag, the clue numbers on their colours crossing off, solved by
hand, undo and redo, a reload that keeps the game, check, hints and the step animation in
colour.

The puzzle is the bundled colour example (Take two: black, then orange). Uses the server and
browser fixtures of test_browser (one server per module, fresh library).
"""

from __future__ import annotations

from itertools import groupby
from typing import Any

import pytest

from tests.web import test_browser as shared
from tests.web.conftest import COLOUR_EXAMPLE, WAIT_MS, known_solution
from tests.web.test_phone_browser import (
    PHONE,
    Fingers,
    assert_fits,
    cell_center,
    open_page,
    synced,
)

browser = shared.browser
server = shared.server
page = shared.page

pytestmark = pytest.mark.browser

# What each cell holds, as the screen reader hears it ("row 1, column 2: black").
CELLS_JS = """() => [...document.querySelectorAll('#board .cell')]
    .map(n => n.getAttribute('aria-label').split(': ')[1])"""
WORDS = {"#": "black", "o": "orange", ".": "unknown"}
KEYS = {"#": "1", "o": "2"}
ORANGE = "rgb(247, 137, 0)"


def cells(page: Any) -> list[str]:
    found: list[str] = page.evaluate(CELLS_JS)
    return found


def cell(page: Any, r: int, c: int) -> Any:
    return page.locator(f"#board .cell[data-r='{r}'][data-c='{c}']")


def drag(page: Any, r: int, first: int, last: int) -> None:
    """Press on (r, first), move to (r, last), release: one stroke along the row."""
    start, end = cell(page, r, first).bounding_box(), cell(page, r, last).bounding_box()
    page.mouse.move(start["x"] + 5, start["y"] + 5)
    page.mouse.down()
    page.mouse.move(end["x"] + 5, end["y"] + 6, steps=3)
    page.mouse.up()


def pressed(page: Any) -> list[str]:
    found: list[str] = page.evaluate(
        "() => [...document.querySelectorAll('#palette [aria-pressed=true], "
        "#mode-cross[aria-pressed=true]')].map(b => b.getAttribute('aria-label') || b.id)"
    )
    return found


def open_fresh(page: Any, server: str) -> None:
    open_page(page, server, "nonogram", COLOUR_EXAMPLE)
    page.click("#reset")
    synced(page)


def test_a_colour_puzzle_is_painted_by_hand_to_solved_and_kept(page: Any, server: str) -> None:
    open_fresh(page, server)
    rows = known_solution(COLOUR_EXAMPLE)
    swatches = page.locator("#palette button")
    assert swatches.count() == 2 and page.locator("#mode-fill").is_hidden()
    assert pressed(page) == ["Paint black (key 1)"]
    # the clue numbers stand on their colours: row 3 is 1 black, 1 orange, 4 black, 1 orange
    numbers = page.evaluate(
        "() => [...document.querySelectorAll('#board .rowclue')[2].children].map(n => "
        "[n.textContent, getComputedStyle(n).backgroundColor, getComputedStyle(n).color])"
    )
    assert numbers == [
        ["1", "rgb(0, 0, 0)", "rgb(255, 255, 255)"],
        ["1", ORANGE, "rgb(0, 0, 0)"],
        ["4", "rgb(0, 0, 0)", "rgb(255, 255, 255)"],
        ["1", ORANGE, "rgb(0, 0, 0)"],
    ]
    page.check("#autocross")  # lines whose runs are complete cross their other cells
    cell(page, 0, 0).click(button="right")  # a cross
    page.keyboard.press("2")  # the key chooses orange
    assert pressed(page) == ["Paint orange (key 2)"]
    page.locator("#palette button", has_text="black").click()  # and a click black again
    assert pressed(page) == ["Paint black (key 1)"]
    for r, row in enumerate(rows):
        position = 0
        for char, run in groupby(row):
            length = len(list(run))
            if char != ".":
                if pressed(page) != [f"Paint {WORDS[char]} (key {KEYS[char]})"]:
                    page.keyboard.press(KEYS[char])
                drag(page, r, position, position + length - 1)
            position += length
        synced(page)
        if r == 2:  # a finished row crosses off all its numbers (auto-cross settles it)
            page.wait_for_function(
                "() => document.querySelectorAll('#board .rowclue')[2]"
                ".querySelectorAll('span.cc.done').length === 4"
            )
    page.wait_for_function("() => document.querySelector('#info').textContent.includes('Solved')")
    expected = [WORDS[ch] if ch != "." else "crossed" for ch in "".join(rows)]
    assert cells(page) == expected
    assert page.locator("#board .clue span.cc:not(.done)").count() == 0
    painted = page.evaluate(
        "() => getComputedStyle(document.querySelector('#cell-8-0')).backgroundColor"
    )
    assert painted == ORANGE
    page.keyboard.press("Control+z")  # the last stroke (row 15's last run) goes
    synced(page)
    undone = cells(page)
    assert undone != expected and undone[-2:] == ["unknown", "unknown"]
    assert page.locator("#board .rowclue.done").count() < 15
    page.keyboard.press("Control+y")
    synced(page)
    assert cells(page) == expected
    page.reload()
    page.wait_for_selector("body[data-ready]")
    page.wait_for_function(f"() => ({CELLS_JS})().every((w, i) => w === {expected!r}[i])")
    assert page.evaluate("() => window.pencilbox.game.solved")
    # a share link carries the colour puzzle: opened, it is the same puzzle with its palette
    rows_clues = page.evaluate("() => window.pencilbox.puzzle.rows")
    page.click("#share")
    link = page.input_value("#share-url")
    assert "#puzzle=" in link
    page.goto(link)
    page.wait_for_selector("body[data-ready]")
    page.wait_for_selector("#palette button")
    assert page.evaluate("() => window.pencilbox.puzzle.rows") == rows_clues
    assert page.locator("#palette button").count() == 2


def test_check_hints_and_the_animation_are_in_colour(page: Any, server: str) -> None:
    open_fresh(page, server)
    rows = known_solution(COLOUR_EXAMPLE)
    assert rows[2][8] == "o"
    board = page.locator("#board")
    board.focus()
    for _ in range(2):
        page.keyboard.press("ArrowDown")
    for _ in range(8):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")  # black where orange belongs
    synced(page)
    assert cells(page)[2 * 15 + 8] == "black"
    page.click("#check")
    page.wait_for_selector("#cell-2-8.hl-wrong")
    assert "1 cells are wrong" in page.inner_text("#info")
    page.click("#hint")
    page.wait_for_function("() => document.querySelector('#sentence').textContent.includes('r3c9')")
    page.click("#hint-apply")
    synced(page)
    assert cells(page)[2 * 15 + 8] == "unknown"
    page.click("#hint")
    page.wait_for_function(
        "() => /black|orange|empty/.test(document.querySelector('#sentence').textContent)"
    )
    changed = page.evaluate("() => window.pencilbox.hint.step.changes.map(([r, c]) => r * 15 + c)")
    page.click("#hint-apply")
    synced(page)
    truth = {i: WORDS[ch] if ch != "." else "crossed" for i, ch in enumerate("".join(rows))}
    assert changed and all(cells(page)[i] == truth[i] for i in changed)
    # the animation paints each step's cells in their colours, and ends on the solution
    page.fill("#p-speed", "100")
    page.click("#solve")
    page.wait_for_selector("#player:not(.hidden)")
    page.wait_for_function(
        f"() => [...document.querySelectorAll('#board .cell.k')]"
        f".some(n => getComputedStyle(n).backgroundColor === '{ORANGE}')",
        timeout=WAIT_MS,
    )
    page.click("#p-last")
    page.wait_for_function("() => window.pencilbox.game && window.pencilbox.game.solved")
    assert [w if w != "crossed" else "unknown" for w in cells(page)] == [
        WORDS[ch] for ch in "".join(rows)
    ]


def test_a_phone_paints_colours_by_touch(browser: Any, server: str) -> None:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        open_fresh(page, server)
        assert_fits(page)
        page.locator("#palette button[data-colour='2']").tap()  # orange, from the docked bar
        fingers = Fingers(page)
        fingers.drag([cell_center(page, 8, 0), cell_center(page, 8, 1), cell_center(page, 8, 2)])
        fingers.drag([cell_center(page, 8, 5)], hold_ms=700)  # a long press crosses
        synced(page)
        page.wait_for_function(f"() => ({CELLS_JS})()[8 * 15 + 5] === 'crossed'")
        assert cells(page)[8 * 15 : 8 * 15 + 6] == ["orange"] * 3 + ["unknown"] * 2 + ["crossed"]
    finally:
        context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
