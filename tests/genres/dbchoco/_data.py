"""The shared Double Choco puzzles, loaded once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conftest import SHARED_DATA

DATA = SHARED_DATA / "dbchoco"


def files() -> list[Path]:
    return sorted(DATA.glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data
