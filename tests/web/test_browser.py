"""The pages in a real browser (Debian's chromium driven by Playwright).

One server (in a thread, on a fresh library) and one browser serve the whole module; each
test opens its own browser context. Screenshots go to artifacts/ (git-ignored).
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import WAIT_MS, known_solution

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
GRID_JS = """() => [...document.querySelectorAll('#board .cell')].map(n =>
    n.classList.contains('f') ? '#' : n.classList.contains('x') ? '.' : '?').join('')"""
SYNCED_JS = "() => window.pencilbox && window.pencilbox.pending === 0"


@contextmanager
def serving(db: Path) -> Iterator[str]:
    """The app on the library file `db`, served by uvicorn in a thread; yields its URL."""
    import uvicorn

    from pencilbox.web import create_app

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    config = uvicorn.Config(create_app(db), host="127.0.0.1", port=port, log_level="warning")
    instance = uvicorn.Server(config)
    thread = threading.Thread(target=instance.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not instance.started:
        if time.monotonic() > deadline:
            raise AssertionError("the test server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        instance.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(tmp_path_factory.mktemp("browser") / "library.sqlite3") as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip("chromium is not installed (make test installs it with apt-get)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1300, "height": 950})
    opened = context.new_page()
    opened.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def open_puzzle(page: Any, server: str, title: str) -> None:
    page.goto(f"{server}/")
    page.locator(".card", has_text=title).get_by_role("link", name="Open").click()
    page.wait_for_selector("body[data-ready]")
    page.wait_for_selector("#board .cell")


def grid(page: Any) -> str:
    text: str = page.evaluate(GRID_JS)
    return text


def cell(page: Any, r: int, c: int) -> Any:
    return page.locator(f"#board .cell[data-r='{r}'][data-c='{c}']")


def synced(page: Any) -> None:
    page.wait_for_function(SYNCED_JS)


def test_play_with_mouse_and_keyboard(page: Any, server: str) -> None:
    open_puzzle(page, server, "data148")
    assert grid(page) == "?" * 72
    cell(page, 0, 1).click()  # fill
    cell(page, 0, 0).click(button="right")  # cross
    box_a, box_b = cell(page, 2, 1).bounding_box(), cell(page, 2, 3).bounding_box()
    page.mouse.move(box_a["x"] + 5, box_a["y"] + 5)
    page.mouse.down()
    page.mouse.move(box_b["x"] + 5, box_b["y"] + 8, steps=6)  # drag along row 3
    page.mouse.up()
    synced(page)
    assert grid(page)[:8] == ".#??????" and grid(page)[16:24] == "?###????"
    page.keyboard.press("ArrowUp")  # the cursor is where the drag began: r3c2
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("x")
    synced(page)
    played = grid(page)
    assert played[8:16] == "??#.????" and played[16:24] == "?###????"
    page.click("#undo")
    synced(page)
    assert grid(page)[8:16] == "??#?????"
    page.keyboard.press("Control+z")
    synced(page)
    assert grid(page)[8:16] == "????????"
    page.click("#redo")
    page.click("#redo")
    synced(page)
    assert grid(page) == played
    assert page.locator("#redo").is_disabled()
    page.reload()
    page.wait_for_selector("body[data-ready]")
    assert grid(page) == played  # autosaved: the game is as it was
    page.click("#reset")
    synced(page)
    assert grid(page) == "?" * 72
    page.click("#undo")
    synced(page)
    assert grid(page) == played


def test_hint_highlights_and_applies(page: Any, server: str) -> None:
    open_puzzle(page, server, "data147")
    page.click("#hint")
    page.wait_for_selector("#board .cell.hl-change")
    sentence = page.locator("#sentence").inner_text()
    assert sentence.startswith("Hint: ") and " — " in sentence
    changed = page.locator("#board .cell.hl-change").count()
    assert changed >= 1 and page.locator(".clue.active").count() == 1
    page.click("#hint-apply")
    synced(page)
    assert grid(page).count("?") == 100 - changed
    assert page.locator("#board .cell.hl-change").count() == 0


def test_full_solve_animation(page: Any, server: str) -> None:
    open_puzzle(page, server, "data057")
    page.fill("#p-speed", "100")
    page.click("#solve")
    page.wait_for_selector("#player:not(.hidden)")
    page.wait_for_function("() => /^[1-9]/.test(document.querySelector('#p-pos').textContent)")
    assert page.locator("#board .cell.hl-change").count() >= 1  # the current step is shown
    assert page.locator("#sentence").inner_text()[0].isdigit()
    page.wait_for_function(
        "() => { const [a, b] = document.querySelector('#p-pos').textContent.split(' / ');"
        " return a === b && Number(b) > 0; }",
        timeout=WAIT_MS,
    )
    solution = "".join(known_solution("data057")).replace(".", "?")
    assert grid(page).replace(".", "?") == solution
    total = int(page.locator("#p-pos").inner_text().split(" / ")[1])
    page.click("#p-back")
    assert page.locator("#p-pos").inner_text() == f"{total - 1} / {total}"
    page.click("#p-first")
    assert grid(page) == "?" * 225
    page.click("#p-last")
    assert page.locator("#p-pos").inner_text() == f"{total} / {total}"
    page.wait_for_function("() => /grade/.test(document.querySelector('#info').textContent)")
    assert "one solution" in page.locator("#info").inner_text()
    page.click("#p-close")
    synced(page)
    assert grid(page).replace(".", "?") == solution  # the solve became a move
    page.reload()
    page.wait_for_selector("body[data-ready]")
    assert grid(page).replace(".", "?") == solution


def test_more_than_one_solution(page: Any, server: str) -> None:
    open_puzzle(page, server, "data001")
    page.click("#solve")
    page.wait_for_selector("#solutions:not(.hidden)")
    assert "More than one solution" in page.locator("#solutions").inner_text()
    assert page.locator("#solutions .mini").count() == 2
    assert page.locator("#solutions .mini div.diff").count() >= 2
    assert "more than one solution" in page.locator("#info").inner_text()


def test_clue_boxes_validate_as_you_type(page: Any, server: str) -> None:
    page.goto(f"{server}/nonogram")
    page.wait_for_selector("body[data-ready]")
    page.fill("#cols-clues", ",".join(["1"] * 12))
    page.fill("#rows-clues", ",".join(["1"] * 6 + ["5 4 3"] + ["1"] * 5))
    message = page.locator("#rows-msg")
    message.filter(has_text="needs").wait_for()
    assert message.inner_text() == "row 7: clue 5 4 3 needs 14 cells, the row has 12"
    assert "invalid" in (page.locator("#rows-clues").get_attribute("class") or "")
    assert page.locator("#load").is_disabled()
    page.fill("#rows-clues", "1,2 x")
    message.filter(has_text="not a number").wait_for()
    assert "row 2: 'x' is not a number" in message.inner_text()
    page.fill("#rows-clues", ",".join(["1"] * 12))
    page.wait_for_function("() => !document.querySelector('#load').disabled")
    assert message.inner_text() == ""
    page.click("#load")
    page.wait_for_selector("#board .cell")
    assert "?id=" in page.url and page.locator("#board .cell").count() == 144
    page.click(".rowclue[data-index='2']")  # a clue opens its text for editing
    focused = page.evaluate(
        "() => { const t = document.activeElement;"
        " return [t.id, t.selectionStart, t.value.slice(t.selectionStart, t.selectionEnd)]; }"
    )
    assert focused == ["rows-clues", 4, "1"]


def test_share_link_opens_the_puzzle(page: Any, browser: Any, server: str) -> None:
    page.goto(f"{server}/nonogram#clues=1%201%2C1%0A1%2C1%2C1&title=shared")
    page.wait_for_selector("#board .cell")
    assert "?id=" in page.url and page.locator("#board .cell").count() == 6
    open_puzzle(page, server, "data148")
    page.click("#share")
    link = page.locator("#share-url").input_value()
    assert "/nonogram#clues=" in link
    fresh = browser.new_context()  # the link opens the same puzzle in a fresh browser
    other = fresh.new_page()
    other.goto(link)
    other.wait_for_selector("#board .cell")
    assert "?id=" in other.url and other.locator("#board .cell").count() == 72
    clues = "() => [window.pencilbox.puzzle.rows_text, window.pencilbox.puzzle.cols_text]"
    assert other.evaluate(clues) == page.evaluate(clues)
    fresh.close()
    page.click("#theme")
    theme = page.evaluate("() => document.documentElement.dataset.theme")
    assert theme in ("dark", "light")
    page.reload()
    page.wait_for_selector("body[data-ready]")
    assert page.evaluate("() => document.documentElement.dataset.theme") == theme


def test_screenshots_and_timings(browser: Any, server: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    timings: dict[str, Any] = {}
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport={"width": 1300, "height": 950}, color_scheme=scheme)
        page = context.new_page()
        page.goto(f"{server}/")
        page.wait_for_selector(".card img")
        page.wait_for_timeout(300)
        page.screenshot(path=str(ARTIFACTS / f"library-{scheme}.png"), full_page=True)
        href = page.locator(".card", has_text="seed-a").get_by_role("link").get_attribute("href")
        page.goto(f"{server}{href}")
        page.wait_for_selector("body[data-ready]")
        timings[f"seed-a-30x30-{scheme}"] = page.evaluate(
            """() => ({
            first_paint_ms: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
            dom_content_loaded_ms: performance.getEntriesByType('navigation')[0]
                .domContentLoadedEventEnd,
            interactive_board_ms: window.pencilbox.readyMs,
        })"""
        )
        cell(page, 0, 6).click()
        cell(page, 0, 7).click()
        cell(page, 1, 1).click(button="right")
        page.click("#hint")
        page.wait_for_selector("#board .cell.hl-change")
        page.screenshot(path=str(ARTIFACTS / f"nonogram-{scheme}.png"), full_page=True)
        page.click("#solve")
        page.wait_for_selector("#player:not(.hidden)")
        page.wait_for_function("() => window.pencilbox.firstFrameMs !== undefined")
        timings[f"seed-a-30x30-{scheme}"]["first_animation_frame_ms"] = round(
            page.evaluate("() => window.pencilbox.firstFrameMs")
        )
        page.wait_for_timeout(600)
        page.click("#p-play")
        page.screenshot(path=str(ARTIFACTS / f"nonogram-animation-{scheme}.png"), full_page=True)
        context.close()
    (ARTIFACTS / "timings.json").write_text(json.dumps(timings, indent=1), encoding="utf-8")
    for name in ("library-light", "library-dark", "nonogram-light", "nonogram-dark"):
        assert (ARTIFACTS / f"{name}.png").stat().st_size > 10_000


def test_library_import_and_delete(page: Any, server: str) -> None:
    page.goto(f"{server}/")
    page.wait_for_selector(".card")
    page.fill("#import-text", "1 x\n1\n")
    page.click("#import-button")
    page.locator("#import-msg.error").wait_for()
    assert "'x' is not a number" in page.locator("#import-msg").inner_text()
    page.fill("#import-text", "2,1 1,2\n2,1 1,2\n")
    page.click("#import-button")
    page.locator("#import-msg.ok").wait_for()
    card = page.locator(".card", has_text="nonogram 3x3")
    card.wait_for()
    assert card.count() == 1 and "3×3" in card.inner_text()
    page.on("dialog", lambda dialog: dialog.accept())
    card.get_by_role("button", name="Delete").click()
    card.wait_for(state="detached")
    page.set_input_files(
        "#import-file",
        files=[{"name": "tiny.clues", "mimeType": "text/plain", "buffer": b"1\n1\n"}],
    )
    page.locator(".card", has_text="tiny").wait_for()
    line = b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n"
    page.set_input_files(
        "#import-file", files=[{"name": "grid.txt", "mimeType": "text/plain", "buffer": line}]
    )
    sudoku = page.locator(".card", has_text="grid")  # its content, not `.txt`, says Sudoku
    sudoku.wait_for()
    assert "9×9" in sudoku.inner_text()
    assert sudoku.get_by_role("link", name="Open").get_attribute("href").startswith("/sudoku?")


def test_touch_and_export(browser: Any, server: str) -> None:
    context = browser.new_context(
        viewport={"width": 800, "height": 900}, has_touch=True, accept_downloads=True
    )
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    open_puzzle(page, server, "data000")
    page.click("#mode-cross")
    cell(page, 9, 9).tap()
    page.click("#mode-fill")
    cell(page, 9, 8).tap()
    synced(page)
    assert grid(page)[-2:] == "#."
    with page.expect_download() as download:
        page.select_option("#export", "svg")
    path = download.value.path()
    assert path is not None and "<svg" in Path(path).read_text(encoding="utf-8")
    assert download.value.suggested_filename == "data000.svg"
    page.select_option("#export-state", "solution")
    with page.expect_download() as png:
        page.select_option("#export", "png")
    png_path = png.value.path()
    assert png_path is not None and Path(png_path).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert png.value.suggested_filename == "data000-solution.png"
    with page.expect_download() as text:
        page.select_option("#export", "clues")
    text_path = text.value.path()
    assert text_path is not None
    assert Path(text_path).read_text(encoding="utf-8").strip() == page.evaluate(
        "() => `${window.pencilbox.puzzle.rows_text}\\n${window.pencilbox.puzzle.cols_text}`"
    )
    context.close()


def test_generate_form_from_the_schema(page: Any, server: str) -> None:
    """The generate panel shows the chosen genre's options as fields (built from the
    schema in /api/genres) and sends the filled ones."""
    page.goto(f"{server}/")
    page.wait_for_selector(".card")
    page.select_option("#generate-genre", "sudoku")
    page.locator("#generate-options [data-option='symmetry']").wait_for()
    page.select_option("#generate-options [data-option='symmetry']", "mirror")
    page.fill("#generate-options [data-option='seed']", "11")
    page.click("#generate-button")
    page.locator("#generate-msg.ok").wait_for(timeout=60_000)
    assert "generated sudoku (seed 11)" in page.locator("#generate-msg").inner_text()
    page.select_option("#generate-genre", "nonogram")
    page.locator("#generate-options [data-option='density']").wait_for()
    assert page.locator("#generate-options [data-option='symmetry']").count() == 0
