"""The pages on phones and tablets, their icons and the play conveniences, in a real browser.

Phones and tablets are chromium contexts with the screen size and touch of the device; the
fingers are touch events sent through the DevTools protocol (Input.dispatchTouchEvent), so the
page sees what a finger sends: touchstart/move/end and the pointer events made from them.
Uses the server and browser fixtures of test_browser (one server per module, fresh library).
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from tests.web import test_browser as shared
from tests.web.conftest import WAIT_MS, known_solution, tap_until

browser = shared.browser
server = shared.server
page = shared.page
ARTIFACTS = shared.ARTIFACTS
DATA = Path(__file__).resolve().parents[1] / "data"

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 768, "height": 1024}
SYNCED_JS = "() => window.pencilbox && window.pencilbox.pending === 0"
LONG_PRESS_MS = 450
"""The nonogram page's long press (nonogram.js)."""
GRID_JS = shared.GRID_JS
# A character a font may lack draws as an empty box: labels keep to Latin letters and signs.
PLAIN = set(" \t\n-()…·×:,.'/?+") | {chr(c) for c in range(0x30, 0x7B)}


def ids(server: str) -> dict[str, int]:
    import urllib.request

    with urllib.request.urlopen(f"{server}/api/puzzles") as answer:
        rows = json.load(answer)
    return {row["title"]: row["id"] for row in rows}


@pytest.fixture
def device(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A page on a touch screen of the size the test is parametrized with (phone by default)."""
    size = getattr(request, "param", PHONE)
    context = browser.new_context(viewport=size, has_touch=True, is_mobile=True)
    opened = context.new_page()
    opened.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


STEADY_JS = """() => {
  const view = document.querySelector('.zoom-viewport').getBoundingClientRect();
  const stage = document.querySelector('.zoom-stage').getBoundingClientRect();
  const layout = [view.top, view.width, view.height, stage.width, stage.height].join(',');
  window.__frames = window.__layout === layout ? (window.__frames || 0) + 1 : 0;
  window.__layout = layout;
  return window.__frames >= 3;
}"""


def open_page(page: Any, server: str, genre: str, title: str) -> None:
    open_id(page, server, genre, ids(server)[title])


def open_fresh(page: Any, server: str, genre: str, title: str) -> None:
    """As `open_page`, with the puzzle's game reset first: the server keeps every game played
    (another test may have left this one solved), and a test that plays needs empty cells."""
    reset_game(server, title)
    open_page(page, server, genre, title)


def reset_game(server: str, title: str) -> None:
    import urllib.request

    url = f"{server}/api/games/{ids(server)[title]}/reset"
    reset = urllib.request.Request(url, method="POST", headers={"X-Pencilbox": "1"})
    with urllib.request.urlopen(reset) as answer:
        assert answer.status == 200


def open_id(page: Any, server: str, genre: str, puzzle_id: int) -> None:
    """A genre's page with a library puzzle, once its board is fitted and stands still."""
    page.goto(f"{server}/{genre}?id={puzzle_id}")
    page.wait_for_selector("body[data-ready]")
    page.wait_for_function("() => document.querySelector('.zoom-viewport')?.dataset.scale")
    # the board refits when its drawing changes size (a ResizeObserver, called before a later
    # frame): measure once the layout has stood still for a few frames
    page.wait_for_function(STEADY_JS, polling="raf")


def synced(page: Any) -> None:
    page.wait_for_function(SYNCED_JS)


def rect(page: Any, selector: str) -> dict[str, float]:
    box: dict[str, float] = page.evaluate(
        "(s) => { const r = document.querySelector(s).getBoundingClientRect();"
        " return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; }",
        selector,
    )
    return box


def center(page: Any, selector: str) -> tuple[float, float]:
    box = rect(page, selector)
    return (box["left"] + box["right"]) / 2, (box["top"] + box["bottom"]) / 2


class Fingers:
    """Touches through the DevTools protocol: what a touch screen sends to the page."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.cdp = page.context.new_cdp_session(page)

    def send(self, kind: str, points: list[tuple[float, float]]) -> None:
        touch_points = [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]
        self.cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": touch_points})

    def drag(self, path: list[tuple[float, float]], hold_ms: int = 0) -> None:
        """A finger down at the path's start, moved along it and lifted; held `hold_ms` first
        (a long press). The page's long press is the usual one when this holds, and a minute
        otherwise: each touch event is sent on its own, and on a loaded machine a tap's two
        once came more than the 450 ms of a press apart."""
        press_ms = LONG_PRESS_MS if hold_ms else 60_000
        assert not hold_ms or hold_ms > LONG_PRESS_MS
        self.page.evaluate("ms => { document.documentElement.dataset.longPressMs = ms; }", press_ms)
        self.send("touchStart", path[:1])
        if hold_ms:
            self.page.wait_for_timeout(hold_ms)
        for point in path[1:]:
            self.send("touchMove", [point])
        self.send("touchEnd", [])

    def two(self, start: list[tuple[float, float]], end: list[tuple[float, float]]) -> None:
        """Two fingers land at `start` and move to `end` in ten steps."""
        self.send("touchStart", start[:1])
        self.send("touchStart", start)
        for k in range(1, 11):
            t = k / 10
            self.send(
                "touchMove",
                [(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t) for a, b in zip(start, end)],
            )
        self.send("touchEnd", [])


def cell_center(page: Any, r: int, c: int) -> tuple[float, float]:
    return center(page, f"#board .cell[data-r='{r}'][data-c='{c}']")


def select_by_touch(page: Any, fingers: Fingers, r: int, c: int) -> None:
    """A tap on a sudoku cell, once the page has settled, checked: the cell is the selected
    one. (On a loaded machine a tap landed once without selecting its cell, and the digit
    typed next went elsewhere; the tap is tried again then, as a player would.)"""
    selected = f"#board .cell.sel[data-r='{r}'][data-c='{c}']"
    synced(page)
    for _ in range(3):
        fingers.drag([cell_center(page, r, c)])
        try:
            page.wait_for_selector(selected, timeout=3000)
            return
        except Exception:
            continue
    assert page.locator(selected).count() == 1, f"r{r + 1}c{c + 1} was not selected by a tap"


def entered(page: Any, cell: int, digit: int) -> None:
    """Wait for a digit tapped on the pad to reach its cell (a tap's click comes after its
    touches, later on a loaded machine), then for the move to be saved."""
    page.wait_for_function(f"() => window.pencilbox.state[{cell}] === {digit}", timeout=WAIT_MS)
    synced(page)


def scale(page: Any) -> float:
    return float(page.get_attribute(".zoom-viewport", "data-scale"))


def assert_fits(page: Any) -> None:
    """The whole board is on the screen, above the docked toolbar."""
    page.wait_for_function(STEADY_JS, polling="raf")  # measured once it stands still
    size = page.viewport_size
    board = rect(page, ".zoom-viewport")
    bar = rect(page, ".toolbar.docked[aria-label='Play']")
    assert board["left"] >= 0 and board["right"] <= size["width"], board
    assert board["top"] >= 0 and board["bottom"] <= bar["top"], (board, bar)
    # the board itself, scaled, is inside its viewport
    stage = rect(page, ".zoom-stage")
    assert stage["right"] <= board["right"] + 1 and stage["bottom"] <= board["bottom"] + 1


# -- icons -------------------------------------------------------------------------------------
def ink(png: bytes) -> int:
    """How many pixels of a screenshot differ clearly from its corner (its background)."""
    image = Image.open(io.BytesIO(png)).convert("L")
    pixels = image.tobytes()
    background = pixels[image.width + 1]
    return sum(1 for value in pixels if abs(value - background) > 60)


@pytest.mark.parametrize(
    ("genre", "title"),
    [("nonogram", "seed-a"), ("sudoku", "qqwing-easy"), ("dbchoco", "robx_pzprjs_01_6x6")],
)
def test_every_control_draws_its_icon(page: Any, server: str, genre: str, title: str) -> None:
    open_page(page, server, genre, title)
    page.click("#animate-solve" if genre != "nonogram" else "#solve")
    page.wait_for_selector("#player:not(.hidden)")
    controls = page.evaluate(
        """() => [...document.querySelectorAll('button, a[data-icon]')]
        .filter(b => b.offsetParent !== null)
        .map(b => ({id: b.id || b.getAttribute('aria-label'), text: b.textContent,
                    icon: !!b.querySelector('svg.icon'), name: b.getAttribute('aria-label')
                      || b.textContent.trim()}))"""
    )
    assert len(controls) >= 12
    for control in controls:
        # every label is in plain characters (no glyph a font may lack) and has a name
        assert set(control["text"]) <= PLAIN, control
        assert control["name"], control
    drawn = [c for c in controls if c["icon"]]
    assert {"undo", "redo", "hint", "check", "p-play", "p-first", "p-last", "pause", "theme"} <= {
        c["id"] for c in drawn
    }
    # the step player's button shows its icon: ink on the screenshot. It is taken once the
    # player has stopped at its end, because while it runs the icon and its label swap when
    # the last step is reached, and a screenshot taken across that swap caught half an icon.
    play = page.locator("#p-play svg.icon")
    page.wait_for_selector("#p-play svg.icon[data-name=play]", timeout=60_000)
    assert ink(play.screenshot()) >= 20
    for name in ("undo", "hint", "check", "pause"):
        assert ink(page.locator(f"#{name} svg.icon").screenshot()) >= 15, name
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator(".toolbar.docked[aria-label='Play']").screenshot(
        path=str(ARTIFACTS / f"icons-{genre}.png")
    )
    reset_game(server, title)  # the step player ran to its end: the game is left solved


# -- phones and tablets ----------------------------------------------------------------------------
@pytest.mark.parametrize("device", [PHONE, TABLET], indirect=True, ids=["phone", "tablet"])
def test_a_30x30_nonogram_fits_and_plays_by_touch(device: Any, server: str) -> None:
    page = device
    open_page(page, server, "nonogram", "seed-a")
    page.click("#reset")
    synced(page)
    assert_fits(page)
    fitted = scale(page)
    assert fitted < 1
    fingers = Fingers(page)
    fingers.drag([cell_center(page, 0, 0)])  # a tap fills
    fingers.drag([cell_center(page, 1, 0), cell_center(page, 1, 1), cell_center(page, 1, 2)])
    fingers.drag([cell_center(page, 2, 5)], hold_ms=700)  # a long press crosses
    synced(page)
    page.wait_for_function(f"() => ({GRID_JS})()[65] === '.'")
    grid = page.evaluate(GRID_JS)
    assert grid[0] == "#" and grid[30:33] == "###" and grid[65] == "."
    # two fingers apart: the board zooms around them, the clue strip shows the row under them
    x, y = cell_center(page, 10, 10)
    fingers.two([(x - 20, y), (x + 20, y)], [(x - 90, y), (x + 90, y)])
    zoomed = scale(page)
    assert zoomed > fitted * 3
    assert rect(page, ".zoom-stage")["right"] > page.viewport_size["width"]
    assert_viewport_inside(page)
    fingers.drag([cell_center(page, 12, 12)])  # a tap on the zoomed board plays there
    synced(page)
    assert page.evaluate(GRID_JS)[12 * 30 + 12] == "#"
    strip = page.inner_text(".clue-strip")
    assert strip.startswith("Row 13") and "Column 13" in strip
    # two fingers moving together pan the board; nothing is played by them
    before = rect(page, ".zoom-stage")
    fingers.two([(x - 30, y), (x + 30, y)], [(x + 30, y + 40), (x + 90, y + 40)])
    after = rect(page, ".zoom-stage")
    assert after["left"] > before["left"] + 20 and after["top"] > before["top"] + 20
    assert abs(scale(page) - zoomed) < 0.05 * zoomed
    synced(page)
    assert page.evaluate(GRID_JS).count("#") == 5
    page.click(".zoom-button[aria-label^='Fit']")
    assert abs(scale(page) - fitted) < 0.01
    page.evaluate("() => window.scrollTo(0, 0)")
    assert_fits(page)


def assert_viewport_inside(page: Any) -> None:
    board = rect(page, ".zoom-viewport")
    assert board["left"] >= 0 and board["right"] <= page.viewport_size["width"]


@pytest.mark.parametrize("device", [PHONE, TABLET], indirect=True, ids=["phone", "tablet"])
def test_sudoku_and_double_choco_fit_and_play_by_touch(device: Any, server: str) -> None:
    page = device
    open_fresh(page, server, "sudoku", "qqwing-easy")
    assert_fits(page)
    empty = page.evaluate(
        "() => [...document.querySelectorAll('#board .cell')].findIndex(n => !n.textContent)"
    )
    r, c = divmod(empty, 9)
    fingers = Fingers(page)
    select_by_touch(page, fingers, r, c)
    tap_until(
        page, "#pad button[data-digit='5']", f"() => window.pencilbox.state[{r * 9 + c}] === 5"
    )
    entered(page, r * 9 + c, 5)
    assert page.inner_text(f"#board .cell[data-r='{r}'][data-c='{c}']") == "5"
    page.click("#undo")
    synced(page)

    open_fresh(page, server, "dbchoco", "robx_pzprjs_01_6x6")
    assert_fits(page)
    svg = rect(page, "#board svg")
    # the vertical edge right of r1c1 (6 cells of 44 and two pads of 6: 276 across)
    x = svg["left"] + (svg["right"] - svg["left"]) * (6 + 44) / 276
    y = svg["top"] + (svg["bottom"] - svg["top"]) * (6 + 22) / 276
    fingers.drag([(x, y)])
    synced(page)
    assert page.evaluate("() => window.pencilbox.state[0]") == 1
    page.click("#undo")
    synced(page)


# -- conveniences ----------------------------------------------------------------------------------
def test_clue_numbers_cross_off_and_auto_check(page: Any, server: str) -> None:
    open_page(page, server, "nonogram", "data148")
    page.click("#reset")
    synced(page)
    solution = known_solution("data148")
    row = solution[0]
    first = row.index("#")
    end = row.index(".", first) if "." in row[first:] else len(row)
    clue = page.locator("#board .rowclue[data-index='0'] span")
    # the row's first run, closed by a cross (or the edge) and crossed before: its number is done
    for c in range(0, end + 1):
        if c < len(row):
            page.locator(f"#board .cell[data-r='0'][data-c='{c}']").click(
                button="left" if row[c] == "#" else "right"
            )
    synced(page)
    assert "done" in (clue.nth(0).get_attribute("class") or "")
    if clue.count() > 1:
        assert "done" not in (clue.nth(1).get_attribute("class") or "")
    # a line with more filled cells than its clue asks for contradicts it: red
    for c in range(8):
        cell = page.locator(f"#board .cell[data-r='5'][data-c='{c}']")
        if "f" not in (cell.get_attribute("class") or "").split():
            cell.click()
    synced(page)
    assert "contra" in (page.get_attribute("#board .rowclue[data-index='5']", "class") or "")
    page.click("#reset")
    synced(page)
    # auto-check: a filled cell that the solution leaves empty is marked as soon as it is played
    page.check("#autocheck")
    wrong = next(i for i, ch in enumerate("".join(solution)) if ch == ".")
    r, c = divmod(wrong, 8)
    page.locator(f"#board .cell[data-r='{r}'][data-c='{c}']").click()
    page.wait_for_selector(f"#board .cell[data-r='{r}'][data-c='{c}'].hl-wrong")
    assert page.locator("#board .cell.hl-wrong").count() == 1
    page.uncheck("#autocheck")
    page.click("#reset")
    synced(page)


def test_timer_pauses_and_is_kept_per_game(page: Any, server: str) -> None:
    pid = ids(server)["data000"]
    page.goto(f"{server}/")
    page.evaluate(f"() => localStorage.setItem('pencilbox-timer-{pid}', '{{\"ms\": 65000}}')")
    open_page(page, server, "nonogram", "data000")
    assert page.inner_text("#clock").startswith("1:0")
    page.click("#pause")
    assert page.evaluate("() => document.body.classList.contains('paused')")
    assert not page.locator(".zoom-stage").is_visible()
    shown = page.inner_text("#clock")
    page.reload()
    page.wait_for_selector("body[data-ready]")
    # still paused after a reload, at the same time
    assert page.evaluate("() => document.body.classList.contains('paused')")
    assert page.inner_text("#clock") == shown
    page.click("#pause")
    assert not page.evaluate("() => document.body.classList.contains('paused')")
    assert page.locator(".zoom-stage").is_visible()
    # another game has its own clock
    open_page(page, server, "nonogram", "data001")
    assert page.inner_text("#clock").startswith("0:0")


def test_sudoku_highlights_the_digit_and_its_units(page: Any, server: str) -> None:
    open_page(page, server, "sudoku", "qqwing-easy")
    digits = page.evaluate("() => window.pencilbox.state")
    given = next(i for i, d in enumerate(digits) if d)
    r, c = divmod(given, 9)
    page.locator(f"#board .cell[data-r='{r}'][data-c='{c}']").click()
    same = page.evaluate(
        "() => [...document.querySelectorAll('#board .cell.same')].map(n => n.textContent)"
    )
    assert same and set(same) == {str(digits[given])}
    assert len(same) == digits.count(digits[given]) - 1
    assert page.locator("#board .cell.peer").count() == 20  # row, column and box
    assert page.locator("#pad button.same").count() == 1


def test_double_choco_shades_blocks_and_shows_mistakes(page: Any, server: str) -> None:
    open_page(page, server, "dbchoco", "robx_pzprjs_01_6x6")
    page.click("#reset")
    synced(page)
    page.check("#mistakes")
    assert page.locator("#board rect.block").count() == 0
    board = page.locator("#board")
    board.focus()
    # the keyboard draws: Shift+arrow walls the cursor cell's side (r1c1: right, then below)
    page.keyboard.press("Shift+ArrowRight")
    synced(page)
    assert page.locator("#board rect.block").count() == 0  # not closed yet
    page.keyboard.press("Shift+ArrowDown")
    synced(page)
    # r1c1 is closed: a block of one cell, shaded, and a broken rule (no gray half) shown
    assert page.locator("#board rect.block").count() == 1
    page.wait_for_selector("#problems li")
    assert page.locator("#board rect.hl-wrong").count() >= 1
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Alt+Shift+ArrowDown")  # an open mark below r1c2
    synced(page)
    state = page.evaluate("() => window.pencilbox.state")
    assert state[0] == 1 and state.count(1) == 2 and state.count(2) == 1
    page.uncheck("#mistakes")
    assert page.locator("#problems li").count() == 0
    page.click("#reset")
    synced(page)


# -- the largest boards ----------------------------------------------------------------------------
def add(server: str, text: str, title: str) -> int:
    import urllib.request

    request = urllib.request.Request(
        f"{server}/api/puzzles",
        data=json.dumps({"text": text, "title": title}).encode(),
        headers={"Content-Type": "application/json", "X-Pencilbox": "1"},
    )
    with urllib.request.urlopen(request) as answer:
        made: int = json.load(answer)["id"]
    return made


@pytest.mark.parametrize("device", [PHONE, TABLET], indirect=True, ids=["phone", "tablet"])
def test_a_50x50_nonogram_and_a_25x25_sudoku_fit_and_play(device: Any, server: str) -> None:
    import random

    from tests.web.many_puzzles import nonogram_text

    page = device
    width = page.viewport_size["width"]
    fifty = add(server, nonogram_text(50, random.Random(50)), "fifty")
    open_id(page, server, "nonogram", fifty)
    assert_fits(page)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    fingers = Fingers(page)
    fingers.drag([cell_center(page, 49, 49)])  # the far corner, a few pixels wide on a phone
    synced(page)
    assert page.evaluate(GRID_JS)[-1] == "#"
    page.click("#undo")
    synced(page)

    sudoku = (DATA / "sudoku" / "sudoku25_5.txt").read_text().splitlines()[0]
    open_id(page, server, "sudoku", add(server, sudoku, "twenty-five"))
    assert_fits(page)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    state = page.evaluate("() => window.pencilbox.state")
    empty = len(state) - 1 - state[::-1].index(0)  # the last empty cell
    r, c = divmod(empty, 25)
    select_by_touch(page, fingers, r, c)
    tap_until(page, "#pad button[data-digit='25']", f"() => window.pencilbox.state[{empty}] === 25")
    entered(page, empty, 25)
    assert page.evaluate("() => window.pencilbox.state")[empty] == 25
    assert page.inner_text(f"#board .cell[data-r='{r}'][data-c='{c}']") == "P"
    page.click("#undo")
    synced(page)


def test_auto_cross_finishes_a_line_in_the_same_move(page: Any, server: str) -> None:
    open_page(page, server, "nonogram", "data148")
    page.click("#reset")
    synced(page)
    page.check("#autocross")
    row = known_solution("data148")[0]
    filled = [c for c, ch in enumerate(row) if ch == "#"]
    for c in filled[:-1]:
        page.locator(f"#board .cell[data-r='0'][data-c='{c}']").click()
    synced(page)
    assert page.evaluate(GRID_JS)[:8].count(".") == 0  # not finished: nothing crossed
    page.locator(f"#board .cell[data-r='0'][data-c='{filled[-1]}']").click()
    synced(page)
    assert page.evaluate(GRID_JS)[:8] == row  # the last run in: the rest crossed
    page.click("#undo")  # one move: the last fill and the crosses go together
    synced(page)
    assert page.evaluate(GRID_JS)[:8].count(".") == 0
    assert page.evaluate(GRID_JS)[:8].count("#") == len(filled) - 1
    # by keyboard too, and kept for the next visit
    page.locator("#board").focus()
    cursor = page.evaluate("() => window.pencilbox.cursor")
    assert cursor["r"] == 0
    step = "ArrowRight" if filled[-1] > cursor["c"] else "ArrowLeft"
    for _ in range(abs(filled[-1] - cursor["c"])):
        page.keyboard.press(step)
    page.keyboard.press("Space")
    synced(page)
    assert page.evaluate(GRID_JS)[:8] == row
    page.reload()
    page.wait_for_selector("body[data-ready]")
    assert page.is_checked("#autocross")
    page.uncheck("#autocross")
    page.click("#reset")
    synced(page)
