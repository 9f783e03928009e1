"""Penpa+ URLs: real ones read to the known puzzle and answer, and what we write reads back."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
import zlib
from typing import Any

import pytest

from pencilbox.errors import FormatError, InvalidPuzzle
from pencilbox.genres.dbchoco.check import violations
from pencilbox.genres.dbchoco.formats import detect, read, write
from pencilbox.genres.dbchoco.formats.penpa import holds_double_choco, looks_like
from pencilbox.genres.dbchoco.model import QUESTION, Walls
from tests.genres.dbchoco._data import files, load


def samples() -> list[dict[str, Any]]:
    """The puzzles of tests/data that came as Penpa+ URLs (nikoli-puzzle-solver's samples)."""
    return [data for data in map(load, files()) if "penpa_puzzle" in data]


@pytest.mark.parametrize("sample", samples(), ids=lambda s: s["id"])
def test_real_penpa_urls_read_to_the_known_puzzle(sample: dict[str, Any]) -> None:
    puzzle = read(sample["penpa_puzzle"])
    assert puzzle.colour_rows() == sample["colors"]
    assert puzzle.number_rows() == sample["numbers"]
    assert puzzle.answer is None  # nothing is drawn in its answer layer


def test_a_real_penpa_answer_reads_to_the_known_walls() -> None:
    sample = samples()[0]
    puzzle = read(sample["penpa_answer"])
    expected = Walls.from_strings(
        puzzle.width, puzzle.height, sample["answer"]["vertical"], sample["answer"]["horizontal"]
    )
    assert puzzle.answer == expected
    assert violations(puzzle, puzzle.answer) == []


@pytest.mark.parametrize("sample", samples(), ids=lambda s: s["id"])
def test_written_urls_read_back_with_their_answer(sample: dict[str, Any]) -> None:
    puzzle = read(sample["penpa_puzzle"])
    answer = Walls.from_strings(
        puzzle.width, puzzle.height, sample["answer"]["vertical"], sample["answer"]["horizontal"]
    )
    with_answer = type(puzzle)(puzzle.width, puzzle.height, puzzle.gray, puzzle.numbers)
    object.__setattr__(with_answer, "answer", answer)
    url = write(with_answer, "penpa").strip()
    assert url.startswith("https://swaroopg92.github.io/penpa-edit/#m=edit&p=")
    again = read(url)
    assert again == puzzle and again.answer == answer
    assert detect(url).name == "penpa"


def test_question_marks_and_big_numbers_round_trip() -> None:
    puzzle = read(". #? # . . .\n12 . # . . .\n. . . . . .\n# # # # # #\n", "text")
    assert puzzle.number(0, 1) == QUESTION
    again = read(write(puzzle, "penpa"))
    assert again == puzzle and again.number(1, 0) == 12


def _url(lines: list[str]) -> str:
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    raw = packer.compress("\n".join(lines).encode()) + packer.flush()
    return "https://swaroopg92.github.io/penpa-edit/#m=edit&p=" + base64.b64encode(raw).decode()


def test_margins_trim_the_board() -> None:
    # a 4x3 Penpa grid with one column trimmed on the left and one row at the bottom: the
    # board is 3x2; cell (0, 0) of the board is padded cell (2, 3) -> index 2 * 8 + 3 = 19
    lines = [
        "square,4,3,38,0,1,1,0,0,0,0,0,0,0,0",
        "[0,1,1,0]",
        "{}",
        '{zS:{"19":3,"28":1},zN:{"19":["2",1,"1"],"21":["?",1,"1"]}}',
        "{zE:{}}",
    ]
    puzzle = read(_url(lines))
    assert (puzzle.width, puzzle.height) == (3, 2)
    assert puzzle.colour_rows() == ["gww", "wgw"]
    assert puzzle.number(0, 0) == 2 and puzzle.number(0, 2) == QUESTION


@pytest.mark.parametrize(
    ("lines", "error", "says"),
    [
        (["hex,4,4"], FormatError, "square grid"),
        (["square,x,4"], FormatError, "grid size"),
        (["square,2,2", "[0,0]"], FormatError, "margins"),
        (["square,2,2", "[0,0,0,0]", "{}", "{zN:{oops}}"], FormatError, "problem layer"),
        (["square,2,2", "[0,0,0,0]", "{}", '{zN:{"14":["A",1,"1"]}}'], InvalidPuzzle, "'A'"),
        (["square,2,2", "[0,0,0,0]", "{}", '{zS:{"3":3}}'], InvalidPuzzle, "outside"),
        (["square,2,2", "[0,0,0,0]", "{}", "{}", '{zE:{"1,99":3}}'], InvalidPuzzle, "1,99"),
    ],
)
def test_bad_payloads_are_refused_with_a_reason(
    lines: list[str], error: type[Exception], says: str
) -> None:
    with pytest.raises(error, match=says):
        read(_url(lines), "penpa")


def test_a_payload_that_is_not_deflate_is_refused() -> None:
    with pytest.raises(FormatError, match="does not decode"):
        read("https://swaroopg92.github.io/penpa-edit/#m=edit&p=AAAA", "penpa")
    assert not looks_like("https://puzz.link/p?dbchoco/2/2/0")


def test_only_penpa_urls_of_shaded_cells_and_numbers_count_as_double_choco() -> None:
    assert holds_double_choco(samples()[0]["penpa_puzzle"])
    lines = ["square,2,2", "[0,0,0,0]", "{}", '{zS:{"14":3},zL:{"1,2":3}}', "{}"]
    assert not holds_double_choco(_url(lines))  # a line drawn: some other genre
    assert not holds_double_choco(_url([*lines[:3], '{zN:{"14":["1",1,"1"]}}', "{}"]))


def test_the_cli_solves_a_penpa_url() -> None:
    url = samples()[0]["penpa_puzzle"]
    run = subprocess.run(
        [sys.executable, "-m", "pencilbox.cli", "solve", url, "--jsonl"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    record = json.loads(run.stdout.splitlines()[0])
    assert record["status"] == "unique"
    answer = samples()[0]["answer"]
    assert record["solutions"][0] == {key: answer[key] for key in ("vertical", "horizontal")}
