"""Fixtures for the web app: an app on a fresh temporary library, and its TestClient."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from pencilbox.web import create_app


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "library.sqlite3"


WAIT_MS = 60_000
"""How long a browser test waits for the state it expects before it fails. Every wait is for a
state, never for a time; the cap only has to outlast the slowest machine the suite runs on
(two workers beside CPU hogs: a hint by Double Choco logic took over 10 s there)."""


def tap_until(page: Any, selector: str, done_js: str) -> None:
    """Tap `selector` until `done_js` holds, as a player taps again when nothing happened.
    Chromium makes a click of a tap only when its touches end soon enough; on a loaded
    machine the touch end can come so late that the tap counts as a long press and no click
    follows (seen once in fifty runs on the sudoku pad). Only for taps that are idempotent."""
    for _ in range(3):
        page.locator(selector).tap()
        try:
            page.wait_for_function(done_js, timeout=5000)
            return
        except Exception:
            continue
    page.wait_for_function(done_js, timeout=WAIT_MS)


BASE_URL = "http://127.0.0.1:8000"
PAGE_HEADERS = {"X-Pencilbox": "1"}
"""What the app's own pages send with every change (see web/security.py)."""


def app_client(app: Any) -> TestClient:
    """A client that talks to the app as its own pages do: on a loopback Host, with the
    X-Pencilbox header."""
    return TestClient(app, base_url=BASE_URL, headers=PAGE_HEADERS)


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    with app_client(create_app(db_path)) as test_client:
        yield test_client


def app_routes(app: Any) -> list[tuple[str, str]]:
    """(METHOD, path) of every route of the app: its own routes and, through its OpenAPI
    schema, those of the routers it includes (which FastAPI may keep out of app.routes)."""
    from fastapi.routing import APIRoute

    found = [
        (method, route.path)
        for route in app.routes
        if isinstance(route, APIRoute)
        for method in sorted(route.methods)
    ]
    for path, operations in app.openapi()["paths"].items():
        found += [(method.upper(), path) for method in operations]
    return sorted(set(found))


def puzzle_id(client: TestClient, title: str) -> int:
    for row in client.get("/api/puzzles").json():
        if row["title"] == title:
            found: int = row["id"]
            return found
    raise AssertionError(f"no bundled puzzle {title!r}")


def moves_of(client: TestClient, pid: int) -> list[str]:
    """A game's history as saved (GET /api/games/{id}/moves)."""
    found: list[str] = client.get(f"/api/games/{pid}/moves").json()["moves"]
    return found


def known_solution(title: str) -> list[str]:
    import json

    from pencilbox.store import EXAMPLES_DIR

    path = EXAMPLES_DIR / f"{_file(title)}.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    rows: list[str] = data["solution"]
    return rows


COLOUR_EXAMPLE = "Take two"
"""The bundled colour nonogram (examples/number-loom-take-two.json): black and orange."""


def _file(title: str) -> str:
    if title == COLOUR_EXAMPLE:
        return "number-loom-take-two"
    return title if title.startswith("seed") else f"jwilk-{title}"
