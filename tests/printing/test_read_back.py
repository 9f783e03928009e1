"""The heart of printing: a printed page that a reader can read again. Each genre's puzzles are
printed one a page (`pencilbox print`), the pages rendered at 150 and 300 dpi (pdftoppm), and
`pencilbox read` must give back exactly the puzzle printed."""

from __future__ import annotations

from pathlib import Path

import pytest

import pencilbox
from pencilbox.genres import base
from tests.conftest import TEST_DATA
from tests.printing.conftest import page_count, rendered
from tests.printing.conftest import pencilbox as run

EXAMPLES = Path(pencilbox.__file__).parent / "examples"
SUDOKU_LINE = (  # Norvig's top95, first line (tests/data/sudoku/norvig_top95.txt)
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
)
PUZZLES = {
    "sudoku": ["top95.txt", str(EXAMPLES / "qqwing-expert.sdk"), str(EXAMPLES / "qqwing-easy.sdk")],
    "nonogram": [
        str(TEST_DATA / "nonogram/jwilk/data000.json"),
        str(TEST_DATA / "nonogram/seed/seed-a.json"),
        "generated-20x20",
    ],
    "dbchoco": [
        str(TEST_DATA / "dbchoco/robx_pzprjs_01_6x6.json"),
        str(TEST_DATA / "dbchoco/semiexp_cspuz_core_03_10x10.json"),
        str(TEST_DATA / "dbchoco/asSqr_puzz_sqr_03_12x12.json"),
    ],
}


def _files(genre: str, folder: Path) -> list[str]:
    files = []
    for name in PUZZLES[genre]:
        if name == "top95.txt":
            (folder / name).write_text(SUDOKU_LINE + "\n")
            name = str(folder / name)
        elif name == "generated-20x20":
            made = base.get("nonogram").generate(size="20", seed="9")
            name = str(folder / "generated.non")
            Path(name).write_text(made["puzzle"].to("non"))
        files.append(name)
    return files


def _readings(stdout: str) -> dict[str, str]:
    """`pencilbox read A B ...` output: each picture's puzzle text, by file."""
    found: dict[str, str] = {}
    current = None
    for line in stdout.splitlines(keepends=True):
        if line.startswith("== "):
            current = line[3:].strip()
            found[current] = ""
        elif current is not None:
            found[current] += line
    return found


@pytest.mark.parametrize("genre", sorted(PUZZLES))
def test_every_printed_page_reads_back_at_150_and_300_dpi(genre: str, tmp_path: Path) -> None:
    files = _files(genre, tmp_path)
    pdf = tmp_path / "printed.pdf"
    printed = run("print", *files, "--per-page", "1", "--solutions", "none", "--out", str(pdf))
    assert printed.returncode == 0, printed.stderr
    assert page_count(pdf) == len(files)
    originals = [pencilbox.load(Path(f)) for f in files]
    for dpi in (150, 300):
        pages = rendered(pdf, dpi, tmp_path)
        read = run("read", "--genre", genre, *map(str, pages))
        assert read.returncode == 0, read.stderr  # every picture read with status ok
        texts = _readings(read.stdout)
        for page, original in zip(pages, originals):
            again = base.get(genre).parse(texts[str(page)], None)
            assert again == original, f"{page.name} at {dpi} dpi reads as another puzzle"
