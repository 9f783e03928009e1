"""The review screen in a real browser: a picture dropped on the library, pasted on a genre
page or taken with the phone's camera input is read, shown with each number over its place,
corrected by click and keyboard with a live verdict, and accepted into the library.

The pictures are the CLI tests' (tests/test_cli_read.py): the same corpus drawings and the
newspaper photo of tests/data/pictures.
"""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import pytest

from tests.pictures import DATA, draw
from tests.web import test_browser as shared

browser = shared.browser  # one server and one browser per module, as in the other page tests
server = shared.server
page = shared.page

pytestmark = pytest.mark.browser

SETTLED = "() => window.pencilboxReview && window.pencilboxReview.pending === 0"
BOARD_JS = """() => [...document.querySelectorAll('#board .cell')].map(n =>
    n.querySelector('.marks') ? '.' : (n.textContent || '.')).join('')"""
HAND_OVER = """async ([kind, b64, name, type]) => {
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const data = new DataTransfer();
  data.items.add(new File([bytes], name, { type }));
  const options = { bubbles: true, cancelable: true };
  if (kind === "paste") {
    document.dispatchEvent(new ClipboardEvent("paste", { ...options, clipboardData: data }));
  } else {
    document.body.dispatchEvent(new DragEvent("dragenter", { ...options, dataTransfer: data }));
    document.body.dispatchEvent(new DragEvent("drop", { ...options, dataTransfer: data }));
  }
}"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("pictures")


def hand_over(page: Any, kind: str, path: Path) -> None:
    """Drop the picture on the page, or paste it as if it were in the clipboard."""
    kind_of_file = "image/jpeg" if path.suffix == ".jpg" else "image/png"
    encoded = base64.b64encode(path.read_bytes()).decode()
    page.evaluate(HAND_OVER, [kind, encoded, path.name, kind_of_file])
    settle(page)


def settle(page: Any) -> None:
    page.wait_for_selector(".review:not([hidden]) .review-side > *, .review-status.error")
    page.wait_for_function(SETTLED)


def check(page: Any, name: str) -> str:
    found: str = page.locator(f".review-checks li[data-check='{name}']").get_attribute("class")
    return found


def edit(page: Any, at: int, text: str) -> None:
    page.locator(f".review-num[data-at='{at}']").click()
    field = page.locator(".review-edit")
    assert field.evaluate("node => node === document.activeElement")
    field.fill(text)
    field.press("Enter")
    page.wait_for_function(SETTLED)


def test_drop_a_screenshot_edit_a_digit_and_accept(page: Any, server: str, folder: Path) -> None:
    path, truth = draw("sudoku-print", 3, folder)
    page.goto(f"{server}/")
    page.wait_for_selector("body[data-pictures=ready]")
    hand_over(page, "drop", path)
    marks = page.locator(".review-num")
    assert marks.count() == sum(ch != "." for ch in truth["givens"])
    assert page.locator(".review-num.doubt").count() == 0
    assert check(page, "unique") == "yes"
    # every number is drawn over its own place in the picture
    picture = page.locator(".review-stage img").bounding_box()
    first = page.locator(".review-num[data-at='0']")
    box = first.bounding_box()
    assert picture["x"] <= box["x"] < picture["x"] + picture["width"]
    assert picture["y"] <= box["y"] < picture["y"] + picture["height"]
    row = first.get_attribute("data-where")  # e.g. r1c3
    value = first.inner_text()
    other = next(
        m.inner_text()
        for m in marks.all()
        if m.get_attribute("data-where").startswith(row.split("c")[0] + "c")
        and m.inner_text() != value
    )
    edit(page, 0, other)  # the same digit twice in a row: the verdict says so at once
    assert check(page, "no_clash") == "no"
    assert "edited" in first.get_attribute("class")
    first.focus()  # keyboard: a focused number takes a typed digit
    page.keyboard.press(value)
    page.keyboard.press("Enter")
    page.wait_for_function(SETTLED)
    assert check(page, "no_clash") == "yes" and check(page, "unique") == "yes"
    page.locator(".review-title").fill("from a screenshot")
    page.locator(".review-accept").click()
    page.wait_for_url("**/sudoku?id=*")
    page.wait_for_selector("body[data-ready]")
    page.wait_for_selector("#board .cell")
    assert page.evaluate(BOARD_JS) == truth["givens"]
    assert page.locator("#title").inner_text().startswith("from a screenshot")


def test_paste_on_a_genre_page_and_fix_a_whole_clue(page: Any, server: str, folder: Path) -> None:
    path, truth = draw("nonogram-render", 1, folder)
    page.goto(f"{server}/nonogram")
    page.wait_for_selector("body[data-pictures=ready]")
    hand_over(page, "paste", path)
    assert page.locator(".review-genre").count() == 0  # the page's genre: no choice offered
    assert check(page, "totals_agree") == "yes" and check(page, "unique") == "yes"
    numbers = sum(len(line) for line in truth["rows"] + truth["cols"])
    assert page.locator(".review-num").count() == numbers
    page.locator(".review-line").select_option("row 1")
    line = page.locator(".review-line-text")
    assert line.input_value() == " ".join(map(str, truth["rows"][0]))
    line.fill(" ".join(map(str, [*truth["rows"][0], 1])))
    line.press("Enter")
    page.wait_for_function(SETTLED)
    assert check(page, "totals_agree") == "no"
    assert "add up to" in page.locator(".review-side").inner_text()
    page.locator(".review-line").select_option("row 1")
    page.locator(".review-line-text").fill(" ".join(map(str, truth["rows"][0])))
    page.locator(".review-line-text").press("Enter")
    page.wait_for_function(SETTLED)
    assert check(page, "totals_agree") == "yes" and check(page, "unique") == "yes"
    page.locator(".review-accept").click()
    page.wait_for_url("**/nonogram?id=*")
    page.wait_for_selector("body[data-ready]")
    assert page.locator("#board .cell").count() == len(truth["rows"]) * len(truth["cols"])


def test_a_phone_photo_through_the_camera_input(page: Any, server: str) -> None:
    photo = DATA / "newspaper-sudoku-10.jpg"
    page.goto(f"{server}/")
    page.wait_for_selector("body[data-pictures=ready]")
    camera = page.locator("input.review-camera")
    assert camera.get_attribute("capture") == "environment"
    assert camera.get_attribute("accept") == "image/*"
    camera.set_input_files(str(photo))
    settle(page)
    assert page.locator(".review-num").count() >= 17
    assert page.locator(".review-checks li").count() == 3
    page.locator(".review-close").click()
    assert page.locator(".review").is_hidden()


def test_a_picture_without_a_puzzle_says_why(page: Any, server: str, tmp_path: Path) -> None:
    import cv2
    import numpy as np

    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((300, 400, 3), 255, np.uint8))
    page.goto(f"{server}/")
    page.wait_for_selector("body[data-pictures=ready]")
    page.locator("#import-file").set_input_files(str(blank))  # the import box's own File input
    page.wait_for_selector(".review-status.error")
    assert "no puzzle grid found" in page.locator(".review-status").inner_text()
    assert page.locator("#import-msg").inner_text() == ""  # the text importer never saw it
