"""Print in a real browser: the Print button of every genre's page and the library's Print
selected download a PDF, which is opened and read (pdfinfo, pdftotext) as a user would."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web import test_browser as shared

browser = shared.browser  # the fixtures, shared with the other browser tests
server = shared.server

pytestmark = pytest.mark.browser

PUZZLES = {"sudoku": "qqwing-easy", "nonogram": "data000", "dbchoco": "robx_pzprjs_01_6x6"}
SYNCED_JS = "() => window.pencilbox && window.pencilbox.pending === 0"


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1300, "height": 950}, accept_downloads=True)
    opened = context.new_page()
    opened.set_default_timeout(20_000)
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def _open(page: Any, server: str, title: str) -> None:
    page.goto(f"{server}/")
    page.locator(".card", has_text=title).get_by_role("link", name="Open").click()
    page.wait_for_selector("body[data-ready]")
    page.wait_for_function("() => window.pencilbox && window.pencilbox.id")


def _downloaded(download: Any) -> tuple[int, str]:
    """The downloaded file's page count and text; it must be a PDF."""
    path = download.path()
    assert path is not None and Path(path).read_bytes().startswith(b"%PDF-")
    info = subprocess.run(["pdfinfo", path], capture_output=True, text=True, check=True).stdout
    text = subprocess.run(["pdftotext", "-layout", path, "-"], capture_output=True, text=True,
                          check=True).stdout  # fmt: skip
    return int(info.split("Pages:")[1].split()[0]), text


@pytest.mark.parametrize("genre", sorted(PUZZLES))
def test_the_print_button_downloads_this_puzzle_with_its_solution(
    page: Any, server: str, genre: str
) -> None:
    title = PUZZLES[genre]
    _open(page, server, title)
    page.select_option("#print-state", "empty")
    page.select_option("#print-solution", "after")
    with page.expect_download() as download:
        page.click("#print")
    pages, text = _downloaded(download.value)
    assert download.value.suggested_filename == f"{title}.pdf"
    assert pages == 2 and "1. " in text and title in text and "1. solution" in text


def test_a_sudoku_prints_as_far_as_played(page: Any, server: str) -> None:
    _open(page, server, PUZZLES["sudoku"])
    pid = page.evaluate("() => window.pencilbox.id")
    answer = page.request.get(f"{server}/api/puzzles/{pid}/solve").json()["solutions"][0]
    page.locator("#board .cell[data-r='0'][data-c='0']").click()
    page.keyboard.press(answer[0])
    page.wait_for_function(SYNCED_JS)
    page.select_option("#print-solution", "upside-down")
    with page.expect_download() as download:
        page.click("#print")
    pages, text = _downloaded(download.value)
    assert pages == 1 and "(as played)" in text and "1. solution" in text


def test_print_selected_in_the_library(page: Any, server: str) -> None:
    page.goto(f"{server}/")
    button = page.locator("#print-selected")
    page.wait_for_selector(".card")
    assert button.is_disabled()
    for title in (PUZZLES["nonogram"], PUZZLES["sudoku"]):
        page.get_by_label(f"Select {title} to print").check()
    page.wait_for_function("() => !document.querySelector('#print-selected').disabled")
    assert "(2)" in button.inner_text()
    page.select_option("#print-solutions", "back")
    with page.expect_download() as download:
        button.click()
    pages, text = _downloaded(download.value)
    assert download.value.suggested_filename == "puzzles.pdf"
    assert "1. Nonogram" in text and "2. Sudoku" in text and "Solutions" in text
    assert pages == 2
