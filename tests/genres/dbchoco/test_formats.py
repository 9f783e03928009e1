"""Reading and writing Double Choco: puzz.link URLs byte for byte, pzprv3, JSON, text."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import pencilbox
from pencilbox.errors import FormatError, InvalidPuzzle, PuzzleError
from pencilbox.genres.dbchoco.formats import read, write
from pencilbox.genres.dbchoco.model import QUESTION
from tests.genres.dbchoco._data import files, load

FILES = files()


def test_there_are_shared_puzzles() -> None:
    assert len(FILES) >= 13


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_url_round_trip_byte_for_byte(path: Path) -> None:
    data = load(path)
    puzzle = read(data["url"])
    assert puzzle.colour_rows() == data["colors"]
    assert puzzle.number_rows() == data["numbers"]
    assert write(puzzle, "url").strip() == data["url"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_other_formats_round_trip(path: Path) -> None:
    puzzle = pencilbox.load(path)
    assert puzzle.genre == "dbchoco"
    for notation in ("pzprv3", "json", "text"):
        again = read(write(puzzle, notation), notation)
        assert again == puzzle
        if notation != "text":
            assert again.answer == puzzle.answer


def test_url_variants() -> None:
    body = "6/6/ueoq8p30g42j4n5s22j"
    expected = read(f"https://puzz.link/p?dbchoco/{body}")
    for url in (
        f"http://pzv.jp/p.html?dbchoco/{body}",
        f"https://puzz.link/p?dbchoco_edit/{body}",
        f"https://puzz.link/p?dbchoco_play/{body}",
        f"p?dbchoco/{body}",
    ):
        assert read(url) == expected


def test_worked_example_of_formats_md() -> None:
    puzzle = read("https://puzz.link/p?dbchoco/6/6/ueoq8p30g42j4n5s22j")
    assert puzzle.colour_rows() == ["ggggww", "gggwgg", "wwwggw", "gwwgww", "wggwwg", "wwwggw"]
    assert puzzle.number(0, 1) == 4 and puzzle.number(2, 4) == 5 and puzzle.number(5, 1) == 2


def test_question_marks_and_big_numbers_round_trip() -> None:
    url = "https://puzz.link/p?dbchoco/8/8/0000000000000.g-12zzzg"
    puzzle = read(url)
    assert puzzle.numbers[0] == QUESTION and puzzle.numbers[2] == 18
    assert write(puzzle, "url").strip() == url


def test_pzprv3_answer_file_of_pzprjs() -> None:
    data = load(next(p for p in FILES if "pzprjs" in p.name))
    puzzle = read(data["pzprv3_answer_file"])
    assert puzzle.answer is not None
    assert puzzle.answer.to_json() == {k: data["answer"][k] for k in ("vertical", "horizontal")}


@pytest.mark.parametrize(
    ("text", "error", "where"),
    [
        ("https://puzz.link/p?dbchoco/6/6/ueo", FormatError, "column"),
        ("https://puzz.link/p?dbchoco/6/6/ueoq8p30g4!", FormatError, "column"),
        ("https://puzz.link/p?dbchoco/6/6/ueoq8p3#g42", FormatError, "column"),
        ("https://puzz.link/p?dbchoco/x/6/ueoq8p30", FormatError, "column"),
        ("https://puzz.link/p?dbchoco/4/4/0000-20", InvalidPuzzle, "r1c1"),
        ("https://puzz.link/p?dbchoco/4/4/0000zz", FormatError, "column"),
        ("pzprv3\ndbchoco\n2\n2\n. -\n. \n", FormatError, "line 6"),
        ("pzprv3\ndbchoco\n2\n2\n. -\n. x\n", FormatError, "line 6"),
    ],
)
def test_bad_input_names_a_position(text: str, error: type[PuzzleError], where: str) -> None:
    with pytest.raises(error) as raised:
        read(text)
    assert where in str(raised.value)


def test_text_picture_must_be_rectangular() -> None:
    with pytest.raises(FormatError, match="line 2"):
        read("# . #2\n. #\n", "text")
    with pytest.raises(FormatError, match="column 3"):
        read("# x\n. #\n", "text")


def test_number_larger_than_half_the_grid() -> None:
    with pytest.raises(InvalidPuzzle, match="larger than half"):
        read("# 9\n. #\n", "text")


def test_cli_exits_2_without_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.url"
    bad.write_text("https://puzz.link/p?dbchoco/6/6/ueoq8p3#g42\n")
    for arg in (str(bad), "https://puzz.link/p?dbchoco/6/6/ueo"):
        run = subprocess.run(
            [sys.executable, "-m", "pencilbox.cli", "solve", arg],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert run.returncode == 2
        assert "Traceback" not in run.stderr
        assert "column" in run.stderr
