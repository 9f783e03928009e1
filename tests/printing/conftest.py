"""Helpers for the printing tests: the command as a user runs it, and its PDF read back with
poppler's tools (pdfinfo, pdftotext, pdftoppm), as a user would look at it."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PENCILBOX = [sys.executable, "-m", "pencilbox.cli"]


@pytest.fixture(autouse=True, scope="session")
def _poppler() -> None:
    if shutil.which("pdftoppm") is None:
        pytest.fail("pdftoppm is missing: `make test` installs poppler-utils")


def pencilbox(*args: str, timeout: float = 280) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PENCILBOX, *args], capture_output=True, text=True, timeout=timeout)


def page_count(pdf: Path) -> int:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    found = re.search(r"^Pages:\s+(\d+)", info.stdout, re.MULTILINE)
    assert found, info.stdout
    return int(found.group(1))


def pdf_text(pdf: Path, page: int | None = None) -> str:
    pages = ["-f", str(page), "-l", str(page)] if page else []
    run = subprocess.run(
        ["pdftotext", "-layout", *pages, str(pdf), "-"], capture_output=True, text=True, check=True
    )
    return run.stdout


def rendered(pdf: Path, dpi: int, folder: Path) -> list[Path]:
    """The PDF's pages as PNG files, in page order."""
    stem = folder / f"page-{dpi}"
    subprocess.run(["pdftoppm", "-r", str(dpi), "-png", str(pdf), str(stem)], check=True)
    return sorted(folder.glob(f"page-{dpi}-*.png"), key=lambda p: int(p.stem.rsplit("-", 1)[1]))
