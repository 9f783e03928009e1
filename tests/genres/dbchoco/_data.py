"""The Double Choco puzzles of tests/data (all 13 of the shared data), loaded once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conftest import TEST_DATA

DATA = TEST_DATA / "dbchoco"


def files() -> list[Path]:
    return sorted(DATA.glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data
