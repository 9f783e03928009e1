"""`pencilbox print`, as a user runs it: the PDF's pages, what they say, where the solutions
go, the legibility notice of a puzzle too big for its sheet, and bad input (one line, exit 2)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

import pencilbox
from pencilbox.genres import base
from tests.conftest import TEST_DATA
from tests.printing.conftest import page_count, pdf_text
from tests.printing.conftest import pencilbox as run

EXAMPLES = Path(pencilbox.__file__).parent / "examples"
SUDOKUS = [EXAMPLES / "qqwing-easy.sdk", EXAMPLES / "qqwing-expert.sdk"]
DBCHOCO = TEST_DATA / "dbchoco/robx_pzprjs_01_6x6.json"
NONOGRAM = TEST_DATA / "nonogram/jwilk/data000.json"


def _print(tmp_path: Path, *args: str) -> tuple[Path, subprocess.CompletedProcess[str]]:
    out = tmp_path / "out.pdf"
    done = run("print", *args, "--out", str(out))
    return out, done


def test_puzzles_print_with_captions_and_their_solutions_at_the_back(tmp_path: Path) -> None:
    out, done = _print(tmp_path, *map(str, SUDOKUS), str(DBCHOCO), "--title", "Club night")
    assert done.returncode == 0, done.stderr
    assert out.read_bytes().startswith(b"%PDF-")
    text = pdf_text(out)
    assert "Club night" in text
    assert "1. Sudoku 9×9 · easy" in text and "2. Sudoku 9×9 · hard" in text
    assert "3. Double Choco 6×6" in text
    assert "Solutions" in text and "3. solution" in text
    assert page_count(out) == 2  # three puzzles on a page, their solutions on the next


@pytest.mark.parametrize(
    ("solutions", "pages"), [("none", 2), ("after", 4), ("upside-down", 2), ("back", 3)]
)
def test_where_the_solutions_go(tmp_path: Path, solutions: str, pages: int) -> None:
    out, done = _print(
        tmp_path, *map(str, SUDOKUS), str(NONOGRAM), "--per-page", "2", "--solutions", solutions
    )
    assert done.returncode == 0, done.stderr
    assert page_count(out) == pages
    text = pdf_text(out)
    assert ("solution" in text) == (solutions != "none")
    if solutions == "after":  # each page of puzzles, then theirs
        assert "1. solution" in pdf_text(out, 2) and "3. solution" in pdf_text(out, 4)


def test_a_list_file_prints_every_puzzle_on_letter_paper(tmp_path: Path) -> None:
    lines = (TEST_DATA / "sudoku/norvig_top95.txt").read_text().splitlines()[:8]
    listed = tmp_path / "eight.txt"
    listed.write_text("\n".join(lines) + "\n")
    out, done = _print(tmp_path, str(listed), "--page", "letter", "--solutions", "none")
    assert done.returncode == 0, done.stderr
    info = subprocess.run(["pdfinfo", str(out)], capture_output=True, text=True).stdout
    assert "612 x 792 pts (letter)" in info
    assert page_count(out) == 2  # six a page at a legible size
    assert "8. Sudoku 9×9" in pdf_text(out)


def test_a_50x50_nonogram_fits_a4_small_and_the_larger_sheet_is_suggested(tmp_path: Path) -> None:
    made = base.get("nonogram").generate(size="50", seed="2")
    source = tmp_path / "big.non"
    source.write_text(made["puzzle"].to("non"))
    out, done = _print(tmp_path, str(source), "--solutions", "none")
    assert done.returncode == 0, done.stderr
    assert "--page a3" in done.stderr and "mm" in done.stderr
    assert out.stat().st_size < 200 * 1024
    text = pdf_text(out)
    assert "1. Nonogram 50×50" in text
    assert text.count("28") >= 2  # the clues are text in the PDF, not a picture
    out, done = _print(tmp_path, str(source), "--solutions", "none", "--page", "a3")
    assert done.returncode == 0 and "--page" not in done.stderr


def test_hatched_cells_for_black_and_white_printers(tmp_path: Path) -> None:
    grey, done = _print(tmp_path, str(DBCHOCO), "--solutions", "none")
    plain = grey.read_bytes()
    hatched, done = _print(tmp_path, str(DBCHOCO), "--solutions", "none", "--hatch")
    assert done.returncode == 0, done.stderr
    assert hatched.read_bytes() != plain


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["missing.sdk"], "no such file"),
        ([str(SUDOKUS[0]), "--page", "a9"], "invalid choice"),
        ([str(SUDOKUS[0]), "--per-page", "0"], "at least 1"),
        ([str(SUDOKUS[0]), "--solutions", "sideways"], "invalid choice"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, args: list[str], said: str) -> None:
    out, done = _print(tmp_path, *args)
    assert done.returncode == 2
    assert said in done.stderr and "Traceback" not in done.stderr
    assert not out.exists()


def test_an_output_folder_that_does_not_exist_is_said_before_any_work(tmp_path: Path) -> None:
    done = run("print", str(SUDOKUS[0]), "--out", str(tmp_path / "nowhere" / "x.pdf"))
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "cannot write" in done.stderr
