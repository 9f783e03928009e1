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


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db_path)) as test_client:
        yield test_client


def puzzle_id(client: TestClient, title: str) -> int:
    for row in client.get("/api/puzzles").json():
        if row["title"] == title:
            found: int = row["id"]
            return found
    raise AssertionError(f"no bundled puzzle {title!r}")


def known_solution(title: str) -> list[str]:
    import json

    from pencilbox.store import EXAMPLES_DIR

    path = EXAMPLES_DIR / f"{_file(title)}.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    rows: list[str] = data["solution"]
    return rows


def _file(title: str) -> str:
    return title if title.startswith("seed") else f"jwilk-{title}"
