"""The Sudoku page in a real browser (Debian's chromium driven by Playwright).

Uses the server and browser fixtures of test_browser (one server per module, fresh library).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web import test_browser as shared
from tests.web.conftest import WAIT_MS, tap_until

ARTIFACTS = shared.ARTIFACTS
browser = shared.browser  # the fixtures, shared with the nonogram browser tests
server = shared.server
page = shared.page

pytestmark = pytest.mark.browser

EASY = "qqwing-easy"
BOARD_JS = """() => [...document.querySelectorAll('#board .cell')].map(n =>
    n.querySelector('.marks') ? '.' : (n.textContent || '.')).join('')"""
SYNCED_JS = "() => window.pencilbox && window.pencilbox.pending === 0"


def open_sudoku(page: Any, server: str, title: str = EASY) -> None:
    page.goto(f"{server}/")
    page.locator(".card", has_text=title).get_by_role("link", name="Open").click()
    page.wait_for_selector("body[data-ready]")
    page.wait_for_selector("#board .cell")


def board(page: Any) -> str:
    text: str = page.evaluate(BOARD_JS)
    return text


def cell(page: Any, r: int, c: int) -> Any:
    return page.locator(f"#board .cell[data-r='{r}'][data-c='{c}']")


def synced(page: Any) -> None:
    page.wait_for_function(SYNCED_JS)


def solution(page: Any, server: str) -> str:
    pid = page.evaluate("() => window.pencilbox.id")
    answer = page.request.get(f"{server}/api/puzzles/{pid}/solve").json()
    solved: str = answer["solutions"][0]
    return solved


def test_enter_undo_pencil_and_reload(page: Any, server: str) -> None:
    open_sudoku(page, server)
    start = board(page)
    assert (
        len(start) == 81 and start[1] == "8" and "given" in cell(page, 0, 1).get_attribute("class")
    )
    answer = solution(page, server)
    cell(page, 0, 0).click()
    page.keyboard.press(answer[0])
    page.keyboard.press("ArrowRight")  # r1c2 is a given: typing there changes nothing
    page.keyboard.press("ArrowRight")
    page.keyboard.press(answer[2])
    synced(page)
    played = board(page)
    assert played[0] == answer[0] and played[2] == answer[2] and played[1] == "8"
    assert page.locator("#serial").input_value() == played
    assert "given" not in cell(page, 0, 0).get_attribute("class")
    page.click("#undo")
    synced(page)
    assert board(page)[2] == "."
    page.keyboard.press("Control+y")  # focus is on the page, not in a text box
    synced(page)
    assert board(page) == played
    cell(page, 0, 2).click()
    page.keyboard.press("0")
    synced(page)
    assert board(page)[2] == "."
    # pencil marks: P switches the mode, digits toggle marks in the empty cell
    page.keyboard.press("p")
    assert page.locator("#pencil").get_attribute("aria-pressed") == "true"
    page.keyboard.press("2")
    page.keyboard.press("5")
    page.keyboard.press("2")
    synced(page)
    marks = cell(page, 0, 2).locator(".marks span.mine")
    assert marks.all_inner_texts() == ["5"]
    page.keyboard.press("Control+z")  # marks are moves: undo brings the 2 back
    synced(page)
    assert marks.all_inner_texts() == ["2", "5"]
    page.keyboard.press("Control+y")
    synced(page)
    assert marks.all_inner_texts() == ["5"]
    page.click("#show-cands")
    assert cell(page, 0, 2).locator(".marks span").filter(has_text="5").count() >= 1
    page.click("#show-singles")
    assert page.locator("#board .cell.single").count() > 0
    page.reload()
    page.wait_for_selector("body[data-ready]")
    after = board(page)
    assert after[0] == answer[0] and after[2] == "."  # the game (and the marks) survive a reload
    assert cell(page, 0, 2).locator(".marks span.mine").all_inner_texts() == ["5"]


def test_hint_levels_singles_check_and_solve(page: Any, server: str) -> None:
    open_sudoku(page, server, "qqwing-expert")
    page.click("#hint")
    page.wait_for_selector("#sentence[data-level='1']")
    assert "technique" in page.inner_text("#sentence")
    page.click("#hint")
    page.wait_for_selector("#sentence[data-level='2']")
    assert "look at" in page.inner_text("#sentence")
    assert page.locator("#board .cell.hl-reason").count() > 0
    page.click("#hint")
    page.wait_for_selector("#sentence[data-level='3']")
    assert page.locator("#board .cell.hl-change").count() > 0
    assert len(page.inner_text("#sentence")) > 30
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "sudoku-hint.png"), full_page=True)
    before = board(page).count(".")
    page.click("#singles")
    synced(page)
    page.wait_for_function(
        f"() => document.querySelector('#serial').value.split('.').length - 1 < {before}"
    )
    answer = solution(page, server)
    # a wrong entry: check marks it red
    empty = board(page).index(".")
    r, c = divmod(empty, 9)
    wrong = "1" if answer[empty] != "1" else "2"
    cell(page, r, c).click()
    page.keyboard.press(wrong)
    synced(page)
    page.click("#check")
    page.wait_for_selector("#board .cell.hl-wrong")
    assert page.locator("#board .cell.hl-wrong").count() == 1
    assert "wrong" in page.inner_text("#info")
    page.click("#solve")
    page.wait_for_selector("#solve-time")
    assert "ms" in page.inner_text("#solve-time")
    synced(page)
    assert board(page) == answer


def test_sudoku_screenshots(browser: Any, server: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport={"width": 1300, "height": 950}, color_scheme=scheme)
        opened = context.new_page()
        open_sudoku(opened, server)
        cell(opened, 0, 0).click()
        opened.keyboard.press("p")
        opened.keyboard.press("1")
        opened.keyboard.press("6")
        opened.keyboard.press("p")
        cell(opened, 4, 4).click()
        opened.click("#show-singles")
        opened.click("#hint")
        opened.click("#hint")
        opened.click("#hint")
        opened.wait_for_selector("#sentence[data-level='3']")
        opened.screenshot(path=str(ARTIFACTS / f"sudoku-{scheme}.png"), full_page=True)
        context.close()
        assert (ARTIFACTS / f"sudoku-{scheme}.png").stat().st_size > 10_000


def test_load_from_the_serial_box(page: Any, server: str) -> None:
    open_sudoku(page, server, "qqwing-expert")
    page.click("#reset")  # back to the givens (an earlier test solved it)
    synced(page)
    page.wait_for_function("() => window.pencilbox.state.includes(0)")
    line = page.locator("#serial").input_value()
    assert line == board(page) and len(line) == 81
    answer = solution(page, server)
    empty = line.index(".")
    entered = line[:empty] + answer[empty] + line[empty + 1 :]
    page.fill("#serial", entered)
    page.click("#load")
    synced(page)
    page.wait_for_function(f"() => window.pencilbox.state[{empty}] === {int(answer[empty])}")
    assert board(page) == entered
    # another puzzle's line opens it as a new puzzle in the library
    other = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
    page.click("#clear")
    assert page.locator("#serial").input_value() == ""
    page.fill("#serial", other)
    page.click("#load")
    page.wait_for_function("() => location.search !== '' && window.pencilbox.state[2] === 3")
    assert board(page) == other.replace("0", ".")
    assert "added" in page.inner_text("#serial-msg")


def test_a_16x16_board(page: Any, server: str, puzzle_data: Path) -> None:
    line = (puzzle_data / "sudoku" / "sudoku16_20.txt").read_text().split()[0]
    made = page.request.post(f"{server}/api/puzzles", data={"text": line, "genre": "sudoku"})
    page.goto(f"{server}/sudoku?id={made.json()['id']}")
    page.wait_for_selector("body[data-ready]")
    assert page.locator("#board .cell").count() == 256
    assert board(page) == line
    empty = line.index(".")
    cell(page, empty // 16, empty % 16).click()
    page.click("#show-cands")
    page.keyboard.press("g")  # letters are digits on a 16x16 board
    synced(page)
    assert board(page)[empty] == "G"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "sudoku-16x16.png"), full_page=True)


def test_new_sudoku_from_a_pasted_line(page: Any, server: str) -> None:
    page.goto(f"{server}/")
    page.click("#new-sudoku")
    page.wait_for_selector("body[data-ready]")
    assert page.locator("#undo").is_disabled()
    page.fill("#serial", "12")
    page.click("#load")
    assert "needs 81" in page.inner_text("#serial-msg")
    line = "400000805030000000000700000020000060000080400000010000000603070500200000104000000"
    page.fill("#serial", line)
    page.click("#load")
    page.wait_for_selector("#board .cell")
    page.wait_for_function("() => window.pencilbox.state.length === 81")
    assert board(page) == line.replace("0", ".")
    assert "id=" in page.url


POSITION_JS = """() => { const [a, b] = document.querySelector('#p-pos').textContent.split(' / ');
    return a === b && Number(b) > 0; }"""
ELIMINATED_JS = """() => [...document.querySelectorAll('#board .cell')].flatMap((n, i) =>
    [...n.querySelectorAll('.marks span.elim')]
        .map(s => [Math.floor(i / 9), i % 9, Number(s.textContent)]))"""


def replayed(givens: str, steps: list[dict[str, Any]]) -> str:
    """The board after `steps`, computed here from the trace (a 9x9 board)."""
    cells = list(givens)
    for step in steps:
        for r, c, d in step["changes"]:
            cells[r * 9 + c] = str(d)
    return "".join(cells)


def position(page: Any) -> str:
    text: str = page.inner_text("#p-pos")
    return text


def test_animated_solve_steps_back_and_scrubs(page: Any, server: str) -> None:
    open_sudoku(page, server, "qqwing-expert")
    pid = page.evaluate("() => window.pencilbox.id")
    givens = page.evaluate("() => window.pencilbox.puzzle.givens")
    steps = page.request.get(f"{server}/api/puzzles/{pid}/steps").json()["steps"]
    answer = solution(page, server)
    page.click("#animate-solve")
    page.wait_for_selector("#player:not(.hidden)")
    page.fill("#p-speed", "100")
    page.wait_for_function(POSITION_JS, timeout=WAIT_MS)
    total = len(steps)
    assert position(page) == f"{total} / {total}"
    assert board(page) == answer  # the replay ends on the known solution
    assert page.inner_text("#sentence").startswith(f"{total}. ")
    # the first step that eliminates candidates: scrub to it, they are struck out in red
    k = next(i for i, s in enumerate(steps) if s.get("extra", {}).get("eliminations"))
    page.fill("#p-scrub", str(k + 1))
    assert position(page) == f"{k + 1} / {total}"
    assert board(page) == replayed(givens, steps[: k + 1])
    struck = sorted(page.evaluate(ELIMINATED_JS))
    assert struck == sorted(steps[k]["extra"]["eliminations"])
    assert page.inner_text("#sentence") == f"{k + 1}. {steps[k]['sentence']}"
    # one step back is exactly the earlier state: its placement undone, no eliminations shown
    page.click("#p-back")
    assert position(page) == f"{k} / {total}"
    assert board(page) == replayed(givens, steps[:k])
    placed = steps[k - 1]["changes"]
    assert placed and all(
        "hl-change" in (cell(page, r, c).get_attribute("class") or "") for r, c, _ in placed
    )
    page.click("#p-first")
    assert board(page) == givens and position(page) == f"0 / {total}"
    page.click("#p-fwd")
    assert board(page) == replayed(givens, steps[:1])
    page.click("#p-last")
    assert board(page) == answer
    # the finished replay is a move of the game: closing keeps the solved board, undo works
    page.click("#p-close")
    synced(page)
    assert page.locator("#player").is_hidden() and board(page) == answer
    assert page.locator("#undo").is_enabled()


def test_grade_shows_level_and_score(page: Any, server: str) -> None:
    open_sudoku(page, server, "qqwing-expert")
    pid = page.evaluate("() => window.pencilbox.id")
    graded = page.request.get(f"{server}/api/puzzles/{pid}/grade").json()
    page.locator("#grade", has_text="Level").wait_for()
    text = page.inner_text("#grade")
    assert f"Level: {graded['level']}" in text and f"score {graded['score']}" in text
    assert f"hardest: {graded['hardest']}" in text


def test_export_share_and_touch(browser: Any, server: str) -> None:
    context = browser.new_context(
        viewport={"width": 900, "height": 1000}, has_touch=True, accept_downloads=True
    )
    opened = context.new_page()
    opened.set_default_timeout(WAIT_MS)
    open_sudoku(opened, server)
    opened.select_option("#export-state", "solution")
    with opened.expect_download() as svg:
        opened.select_option("#export", "svg")
    assert svg.value.suggested_filename == "qqwing-easy-solution.svg"
    svg_path = svg.value.path()
    assert svg_path is not None and "<svg" in Path(svg_path).read_text(encoding="utf-8")
    with opened.expect_download() as png:
        opened.select_option("#export", "png")
    png_path = png.value.path()
    assert png_path is not None and Path(png_path).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert Path(png_path).stat().st_size > 1000
    with opened.expect_download() as text:
        opened.select_option("#export", "line")
    text_path = text.value.path()
    givens = opened.evaluate("() => window.pencilbox.puzzle.givens")
    assert text_path is not None
    line = Path(text_path).read_text(encoding="utf-8").split()[0]  # then "# title"
    assert line.replace("0", ".") == givens
    # touch: tap a cell, tap a digit on the pad
    empty = board(opened).index(".")
    r, c = divmod(empty, 9)
    cell(opened, r, c).tap()
    # a tap's click follows its touches, later on a loaded machine
    tap_until(opened, "#pad button[data-digit='7']", f"() => window.pencilbox.state[{empty}] === 7")
    synced(opened)
    assert board(opened)[empty] == "7"
    # the share link opens the puzzle in a fresh browser
    opened.click("#share")
    url = opened.locator("#share-url").input_value()
    assert "/sudoku#puzzle=" in url
    fresh = browser.new_context()
    other = fresh.new_page()
    other.goto(url)
    other.wait_for_selector("body[data-ready]")
    other.wait_for_selector("#board .cell")
    assert "?id=" in other.url
    assert other.evaluate("() => window.pencilbox.puzzle.givens") == givens
    fresh.close()
    context.close()


def test_animation_screenshots(browser: Any, server: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport={"width": 1300, "height": 950}, color_scheme=scheme)
        opened = context.new_page()
        open_sudoku(opened, server, "qqwing-expert")
        steps = opened.request.get(
            f"{server}/api/puzzles/{opened.evaluate('() => window.pencilbox.id')}/steps"
        ).json()["steps"]
        k = next(i for i, s in enumerate(steps) if s.get("extra", {}).get("eliminations"))
        opened.click("#animate-solve")
        opened.fill("#p-speed", "100")
        opened.wait_for_function(POSITION_JS, timeout=WAIT_MS)
        opened.fill("#p-scrub", str(k + 1))
        opened.locator("#board .marks span.elim").first.wait_for()
        path = ARTIFACTS / f"sudoku-animation-{scheme}.png"
        opened.screenshot(path=str(path), full_page=True)
        context.close()
        assert path.stat().st_size > 10_000
