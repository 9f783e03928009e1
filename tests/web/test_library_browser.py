"""The Library page with thousands of puzzles, in a real browser: search, filters, sort and
pages (the address keeps them), several files imported at once (chosen or dropped), the
whole library exported as a zip, all of it by keyboard too and on a phone.

A library of 5,000 made nonograms plus the bundled examples (tests/web/many_puzzles.py) is
served for the module; the import and export test has its own fresh library.
"""

from __future__ import annotations

import json
import urllib.request
import zipfile
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web import many_puzzles
from tests.web import test_browser as shared
from tests.web.conftest import WAIT_MS

browser = shared.browser
server = shared.server
page = shared.page

pytestmark = pytest.mark.browser

MADE = 5000
BUNDLED = many_puzzles.BUNDLED


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("big") / "library.sqlite3"
    many_puzzles.fill(db, MADE)
    with shared.serving(db) as url:
        yield url


def api(server: str, query: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server}/api/library?{query}") as answer:
        found: dict[str, Any] = json.load(answer)
    return found


def titles(page: Any) -> list[str]:
    found: list[str] = page.locator(".card h3").all_inner_texts()
    return found


def shown(page: Any, expected: str) -> None:
    """Wait until the status line says `expected` (the page asks the server on every change)."""
    page.wait_for_function(
        "(s) => document.querySelector('#library-status').textContent.startsWith(s)", arg=expected
    )


def test_thousands_of_puzzles_by_search_filters_sort_and_pages(page: Any, big: str) -> None:
    page.goto(f"{big}/")
    page.wait_for_selector("body[data-ready]")
    total = MADE + BUNDLED
    shown(page, f"1–24 of {total:,} puzzles")
    assert page.locator(".card").count() == 24
    # the page grades the shown puzzles that miss a grade (here the bundled ones)
    page.wait_for_function(
        "() => ![...document.querySelectorAll('.card .meta')]"
        ".some(m => /not known/.test(m.textContent))",
        timeout=60_000,
    )
    # pages: the next one, the address keeps it across a reload
    page.locator(".pager [data-go=next]").click()
    shown(page, "25–48 of")
    assert "page=2" in page.url
    page.reload()
    page.wait_for_selector("body[data-ready]")
    shown(page, "25–48 of")
    assert page.locator(".pager [data-go=prev]").is_enabled()
    # search: words of the title in any order; a search starts again at page 1
    page.fill("#search", "0040 heron")
    shown(page, "1–1 of 1 matching")
    assert titles(page) == ["heron 0040"]
    page.fill("#search", "otter")
    shown(page, "1–24 of 500 matching")
    # filters, with their counts in the menus: otters of 25x25 (k = 11 mod 20)
    assert page.locator("#filter-size option[value=large]").inner_text().startswith("Large")
    page.select_option("#filter-size", "large")
    shown(page, "1–24 of 250 matching")
    assert all(t.startswith("otter") for t in titles(page))
    assert all("25×25" in m for m in page.locator(".card .meta").all_inner_texts()[::2])
    page.click("#clear-filters")
    shown(page, f"1–24 of {total:,} puzzles")
    assert page.input_value("#search") == ""
    page.select_option("#filter-grade", "probe")
    probes = api(big, "grade=probe")["total"]
    assert probes == MADE * 3 // 10 + 1  # and seed-a, graded on the first page
    shown(page, f"1–24 of {probes:,} matching")
    assert all("grade probe" in m for m in page.locator(".card .meta").all_inner_texts()[::2])
    page.select_option("#filter-grade", "")
    page.select_option("#filter-state", "solved")
    shown(page, f"1–{many_puzzles.SOLVED} of {many_puzzles.SOLVED} matching")
    assert all("solved" in t for t in page.locator(".card").all_inner_texts())
    page.select_option("#filter-state", "started")
    shown(page, f"1–24 of {many_puzzles.STARTED} matching")
    page.select_option("#filter-state", "")
    page.select_option("#filter-genre", "sudoku")
    shown(page, "1–2 of 2 matching")
    page.select_option("#filter-genre", "")
    # sort: by title A to Z, by size (the largest on the last page), by grade (easiest first)
    page.select_option("#sort", "title")
    shown(page, "1–24 of")
    first = titles(page)
    assert first == sorted(first, key=str.casefold) and first[0] == "badger 0005"
    page.select_option("#filter-genre", "nonogram")
    page.select_option("#sort", "grade")
    shown(page, "1–24 of")
    assert all("grade line" in m for m in page.locator(".card .meta").all_inner_texts()[::2])
    page.goto(f"{big}/?sort=grade&genre=nonogram&page=209")
    page.wait_for_selector("body[data-ready]")
    assert all("grade search" in m for m in page.locator(".card .meta").all_inner_texts()[::2])
    # the largest last: the 25x25 made ones, then the two bundled 30x30
    last_page = -(-total // 24)
    page.goto(f"{big}/?sort=size&page={last_page}")
    page.wait_for_selector("body[data-ready]")
    shown(page, f"{(last_page - 1) * 24 + 1:,}–{total:,} of")
    sizes = [m.split(" · ")[1] for m in page.locator(".card .meta").all_inner_texts()[::2]]
    assert sizes == ["25×25"] * (len(sizes) - 2) + ["30×30"] * 2
    assert page.locator(".pager [data-go=next]").is_disabled()
    # every thumbnail on the page is drawn (an SVG of the puzzle)
    page.locator(".card img").last.scroll_into_view_if_needed()
    page.wait_for_function(
        "() => [...document.querySelectorAll('.card img')].every(i => i.complete && i.naturalWidth)"
    )


def test_the_library_by_keyboard_on_a_phone(browser: Any, big: str) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    try:
        page.goto(f"{big}/")
        page.wait_for_selector("body[data-ready]")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        # on a phone the import box starts folded, so the shelf is near the top
        assert not page.evaluate("() => document.querySelector('#import-panel').open")
        page.locator("#search").focus()
        page.keyboard.type("wren 0008")
        shown(page, "1–1 of 1 matching")
        for _ in range(12):  # Tab on to the card's Open link and follow it
            page.keyboard.press("Tab")
            if page.evaluate("() => document.activeElement.textContent") == "Open":
                break
        assert page.evaluate("() => document.activeElement.getAttribute('aria-label')") == (
            "Open wren 0008"
        )
        page.keyboard.press("Enter")
        page.wait_for_selector("body[data-ready]")
        assert page.inner_text("h1").startswith("wren 0008")
        page.go_back()
        page.wait_for_selector("body[data-ready]")
        assert page.input_value("#search") == "wren 0008"  # the search is kept in the address
    finally:
        context.close()


def test_several_files_at_once_and_the_whole_library_out(page: Any, server: str) -> None:
    page.goto(f"{server}/")
    page.wait_for_selector("body[data-ready]")
    files = [
        {"name": "one.clues", "mimeType": "text/plain", "buffer": b"1\n1\n"},
        {"name": "two.clues", "mimeType": "text/plain", "buffer": b"2,1 1,2\n2,1 1,2\n"},
        {"name": "broken.clues", "mimeType": "text/plain", "buffer": b"1 x\n1\n"},
    ]
    page.set_input_files("#import-file", files=files)
    page.locator("#import-msg.error").wait_for()
    message = page.inner_text("#import-msg")
    assert message.startswith("Imported 2 puzzles.") and "1 failed: broken.clues:" in message
    assert "'x' is not a number" in message
    # the newest first: both new puzzles are on screen
    assert titles(page)[:2] == ["two", "one"]
    # files dropped on the page: one new, one already there
    page.evaluate(
        """([a, b]) => {
        const data = new DataTransfer();
        data.items.add(new File([a], 'three.clues', {type: 'text/plain'}));
        data.items.add(new File([b], 'again.clues', {type: 'text/plain'}));
        document.querySelector('main').dispatchEvent(
          new DragEvent('drop', {dataTransfer: data, bubbles: true, cancelable: true}));
        }""",
        ["3\n1,1,1\n", "1\n1\n"],
    )
    page.wait_for_function(
        "() => document.querySelector('#import-msg').textContent.includes('already')"
    )
    assert page.inner_text("#import-msg") == "Imported 1 puzzle. 1 already in the library."
    # export: a zip with every puzzle's text as imported, and the index
    with page.expect_download() as waiting:
        page.click("#export-library")
    download = waiting.value
    assert download.suggested_filename.startswith("pencilbox-library-")
    archive = zipfile.ZipFile(download.path())
    index = json.loads(archive.read("index.json"))
    with urllib.request.urlopen(f"{server}/api/puzzles") as answer:
        library = json.load(answer)
    assert len(index["puzzles"]) == len(library) == BUNDLED + 3
    by_title = {entry["title"]: entry for entry in index["puzzles"]}
    assert archive.read(by_title["two"]["file"]).decode() == "2,1 1,2\n2,1 1,2\n"
    assert by_title["three"]["file"].endswith(".clues")
    assert sorted(archive.namelist()) == sorted(
        ["index.json", *(entry["file"] for entry in index["puzzles"])]
    )
