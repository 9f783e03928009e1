"""Making a nonogram from a picture in the web app: the Library's generate panel offers the
generator's `from` option as a file field; the chosen picture travels as a data: URL and the
new puzzle lands in the library, unique. A path typed into a request is refused."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw

from pencilbox.genres.nonogram.formats import read
from tests.web.conftest import WAIT_MS
from tests.web.test_browser import browser, page, server  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser

LOGO = [
    "..rrrr....",
    ".rrrrrr...",
    "rryyyrrbbb",
    "rryyyrrbbb",
    ".rrrrrr.b.",
    "..rrrr..b.",
]


def _picture(path: Path, rows: list[str] = LOGO) -> Path:
    colours = {"r": "#d03030", "y": "#f0d020", "b": "#2040c0"}
    image = Image.new("RGB", (100, 60), "white")
    draw = ImageDraw.Draw(image)
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch != ".":
                draw.rectangle((c * 10, r * 10, c * 10 + 9, r * 10 + 9), fill=colours[ch])
    image.save(path)
    return path


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return json.load(answer)


def test_a_picture_uploaded_in_the_generate_panel_becomes_a_puzzle(
    page: Any,  # noqa: F811
    server: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    page.goto(f"{server}/")
    page.wait_for_selector(".card")
    page.select_option("#generate-genre", "nonogram")
    field = page.locator("#generate-options [data-option='from_']")
    field.wait_for()
    assert field.get_attribute("type") == "file"
    assert field.locator("xpath=..").inner_text().strip() == "from"
    field.set_input_files(str(_picture(tmp_path / "logo.png")))
    page.fill("#generate-options [data-option='size']", "10x6")
    page.fill("#generate-options [data-option='colors']", "3")
    page.click("#generate-button")
    page.locator("#generate-msg.ok").wait_for(timeout=60_000)
    newest = max(_get(f"{server}/api/puzzles"), key=lambda p: p["id"])
    assert newest["genre"] == "nonogram" and (newest["width"], newest["height"]) == (10, 6)
    url = f"{server}/api/puzzles/{newest['id']}/export?format=json&state=empty"
    with urllib.request.urlopen(url, timeout=30) as answer:
        puzzle = read(answer.read().decode())
    result = puzzle.solve(limit=2)
    assert result.status == "unique" and puzzle.solution_json(result.solutions[0]) == LOGO


def test_a_path_in_a_request_is_refused(server: str) -> None:  # noqa: F811
    body = json.dumps({"genre": "nonogram", "options": {"from_": "/etc/hostname"}}).encode()
    request = urllib.request.Request(
        f"{server}/api/generate", body, {"Content-Type": "application/json"}
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=30)
    assert refused.value.code == 422
    assert "--from takes a picture file" in refused.value.read().decode()


def test_a_picture_is_previewed_before_it_joins_the_library(
    page: Any,  # noqa: F811
    server: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    page.goto(f"{server}/")
    page.wait_for_selector(".card")
    page.select_option("#generate-genre", "nonogram")
    field = page.locator("#generate-options [data-option='from_']")
    field.wait_for()
    mirrored = [row[::-1] for row in LOGO]  # (not the puzzle the test above adds)
    field.set_input_files(str(_picture(tmp_path / "mirrored.png", mirrored)))
    page.fill("#generate-options [data-option='size']", "10x6")
    page.fill("#generate-options [data-option='colors']", "3")
    before = len(_get(f"{server}/api/puzzles"))
    page.click("#generate-preview")
    page.locator("#preview-box:not(.hidden)").wait_for(timeout=60_000)
    about = page.inner_text("#preview-about")
    assert "10×6 nonogram" in about and "cells changed" in about, about
    assert page.get_attribute("#preview-picture", "src").startswith("data:image/svg+xml")
    page.wait_for_function("() => document.querySelector('#preview-picture').naturalWidth > 0")
    assert len(_get(f"{server}/api/puzzles")) == before  # shown, not kept
    page.click("#preview-discard")
    assert page.locator("#preview-box").is_hidden()
    page.click("#generate-preview")
    page.locator("#preview-box:not(.hidden)").wait_for(timeout=60_000)
    page.click("#preview-accept")
    page.locator("#generate-msg.ok").wait_for(timeout=WAIT_MS)
    assert page.locator("#preview-box").is_hidden()
    puzzles = _get(f"{server}/api/puzzles")
    assert len(puzzles) == before + 1
    newest = max(puzzles, key=lambda p: p["id"])
    url = f"{server}/api/puzzles/{newest['id']}/export?format=json&state=empty"
    with urllib.request.urlopen(url, timeout=30) as answer:
        puzzle = read(answer.read().decode())
    result = puzzle.solve(limit=2)
    assert result.status == "unique" and puzzle.solution_json(result.solutions[0]) == mirrored
