"""`pencilbox book`, as a user runs it: generated puzzles from consecutive seeds, proven unique,
a cover with contents and counts per grade, puzzles easiest first, solutions at the back; a
mixed book from --genre or a recipe; Ctrl-C keeps what was made and the same command goes on."""

from __future__ import annotations

import json
import re
import signal
import subprocess
from pathlib import Path

import pytest

from pencilbox.genres import base
from tests.batch.conftest import kill_quietly, wait_for_records
from tests.printing.conftest import PENCILBOX, page_count, pdf_text
from tests.printing.conftest import pencilbox as run


def test_a_graded_sudoku_book_with_cover_contents_and_solutions(tmp_path: Path) -> None:
    out = tmp_path / "book.pdf"
    done = run("book", "sudoku", "--count", "7", "--seed", "3", "--out", str(out),
               "--workers", "1")  # fmt: skip
    assert done.returncode == 0, done.stderr
    cover = pdf_text(out, 1)
    assert "Contents" in cover and "puzzles 1–7, page 2" in cover
    text = pdf_text(out)
    levels = re.findall(r"\d+\. Sudoku 9×9 · (\w+)", text)
    order = next(o.choices for o in base.get("sudoku").options() if o.name == "grade")
    assert len(levels) == 7 and levels == sorted(levels, key=order.index)  # easiest first
    counts = {level: levels.count(level) for level in set(levels)}
    assert all(f"{level} {count}" in cover for level, count in counts.items())  # per grade
    assert "Solutions" in text and "7. solution" in text
    assert not (tmp_path / "book.pdf.journal.jsonl").exists()  # done: the journal is gone


def test_the_same_seeds_make_the_same_book(tmp_path: Path) -> None:
    first, second = tmp_path / "a.pdf", tmp_path / "b.pdf"
    for out in (first, second):
        done = run("book", "nonogram", "--count", "3", "--size", "8", "--out", str(out))
        assert done.returncode == 0, done.stderr
    assert first.read_bytes() == second.read_bytes()


def test_a_mixed_book_from_a_recipe(tmp_path: Path) -> None:
    recipe = tmp_path / "club.toml"
    recipe.write_text(
        'title = "Puzzle club"\nper_page = 2\n'
        '[[section]]\ngenre = "sudoku"\ncount = 2\ngrade = "easy"\n'
        '[[section]]\ngenre = "dbchoco"\ncount = 1\nsize = "6"\ntitle = "Chocolate"\n'
    )
    out = tmp_path / "club.pdf"
    done = run("book", "--recipe", str(recipe), "--out", str(out))
    assert done.returncode == 0, done.stderr
    cover = pdf_text(out, 1)
    assert "Puzzle club" in cover
    assert "Sudoku (grade easy): puzzles 1–2, page 2" in cover
    assert "Chocolate: puzzle 3, page 3" in cover
    assert page_count(out) == 4  # cover, sudokus, the Double Choco, solutions
    assert "3. Double Choco 6×6" in pdf_text(out, 3)


def test_a_mixed_book_from_repeated_genres(tmp_path: Path) -> None:
    out = tmp_path / "mixed.pdf"
    done = run("book", "--genre", "sudoku:count=1,grade=easy", "--genre", "nonogram:size=6",
               "--count", "2", "--out", str(out))  # fmt: skip
    assert done.returncode == 0, done.stderr
    cover = pdf_text(out, 1)
    assert "puzzle 1, page 2" in cover and "puzzles 2–3" in cover


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["sudoku", "--out", "{out}"], "--count"),
        (
            ["sudoku", "--count", "2", "--colour", "red", "--out", "{out}"],
            "unknown option --colour",
        ),
        (["kakuro", "--count", "2", "--out", "{out}"], "unknown genre"),
        (["--genre", "sudoku:count", "--out", "{out}"], "KEY=VALUE"),
        (["--recipe", "{recipe}", "--out", "{out}"], "needs a genre"),
        (["sudoku", "--count", "2", "--recipe", "{recipe}", "--out", "{out}"], "one of GENRE"),
        (["sudoku", "--count", "2", "--out", "{tmp}/no/such/book.pdf"], "cannot write"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, args: list[str], said: str) -> None:
    recipe = tmp_path / "bad.toml"
    recipe.write_text("[[section]]\ncount = 3\n")
    out = tmp_path / "book.pdf"
    names = {"out": str(out), "recipe": str(recipe), "tmp": str(tmp_path)}
    done = run("book", *[a.format(**names) for a in args])
    assert done.returncode == 2, done.stderr
    assert said in done.stderr and "Traceback" not in done.stderr
    assert not out.exists()


def test_ctrl_c_keeps_the_puzzles_made_and_the_same_command_goes_on(tmp_path: Path) -> None:
    out = tmp_path / "book.pdf"
    journal = tmp_path / "book.pdf.journal.jsonl"
    count = 150  # still going when Ctrl-C comes, even when the test sees the first ones late
    command = [*PENCILBOX, "book", "sudoku", "--count", str(count), "--grade", "easy",
               "--out", str(out)]  # fmt: skip
    process = subprocess.Popen(
        [*command, "--workers", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        wait_for_records(journal, 2, process)
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=120)
    finally:
        kill_quietly(process.pid)
    assert process.returncode == 130, stderr
    assert "run the same command again" in stderr and "Traceback" not in stderr
    assert not out.exists()
    kept = {json.loads(line)["seed"] for line in journal.read_text().splitlines()}
    assert 2 <= len(kept) < count
    done = subprocess.run([*command, "--workers", "2"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert f"{count} puzzles" in done.stderr and page_count(out) > count // 6
