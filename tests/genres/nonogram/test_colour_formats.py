"""Colour nonogram notations (our JSON, webpbn XML, pynogram/nonogrid text): reading real
files, round trips, the messages for bad colour input, and the CLI verbs on colour puzzles."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pencilbox.errors import PuzzleError
from pencilbox.genres.nonogram.colour.model import ColourNonogram
from pencilbox.genres.nonogram.formats import read
from pencilbox.genres.nonogram.model import Nonogram
from tests.conftest import TEST_DATA
from tests.genres.nonogram.colour_reference import count_solutions

COLOUR = TEST_DATA / "nonogram-colour"
FILES = sorted(p.name for p in COLOUR.iterdir() if p.suffix in (".xml", ".txt", ".toml"))

FLAG = """{"name": "Flag",
 "colors": {"red": {"hex": "#e53935", "char": "r"}, "blue": {"hex": "#1e88e5", "char": "b"}},
 "rows": [[[2, "red"], [1, "blue"]], [[3, "blue"]]],
 "cols": [[[1, "red"], [1, "blue"]], [[1, "red"], [1, "blue"]], [[2, "blue"]]],
 "solution": ["rrb", "bbb"]}"""


def load(name: str) -> ColourNonogram:
    puzzle = read((COLOUR / name).read_text(), filename=name)
    assert isinstance(puzzle, ColourNonogram)
    return puzzle


@pytest.mark.parametrize("name", FILES)
def test_real_colour_files_solve_uniquely_as_the_model_says(name: str) -> None:
    puzzle = load(name)
    result = puzzle.solve()
    assert result.status == "unique"
    assert puzzle.check(result.solutions[0]) == []
    count, grids = count_solutions(puzzle.rows, puzzle.cols, len(puzzle.colours))
    assert count == 1
    assert [1 << c for c in grids[0]] == list(result.solutions[0].cells)


@pytest.mark.parametrize("name", FILES)
@pytest.mark.parametrize("notation", ["json", "webpbn", "pynogram"])
def test_round_trip_through_each_colour_notation(name: str, notation: str) -> None:
    puzzle = load(name)
    solved = puzzle.solve().solutions[0]
    with_goal = ColourNonogram(
        puzzle.colours, puzzle.rows, puzzle.cols, puzzle.title, puzzle.meta, goal=solved
    )
    again = read(with_goal.to(notation), notation)
    assert isinstance(again, ColourNonogram)
    assert (again.rows, again.cols) == (puzzle.rows, puzzle.cols)
    assert [c.hex for c in again.colours] == [c.hex for c in puzzle.colours]
    if notation != "pynogram":  # pynogram keeps no title, names or solution
        assert again == with_goal and again.title == puzzle.title
        assert again.goal == solved


def test_json_colour_file_reads_and_writes_the_documented_shape() -> None:
    puzzle = read(FLAG)
    assert isinstance(puzzle, ColourNonogram)
    assert [c.name for c in puzzle.colours] == ["white", "red", "blue"]
    assert puzzle.format_clue(puzzle.rows[0]) == "2 red, 1 blue"
    data = json.loads(puzzle.to("json"))
    assert data["colors"] == {
        "red": {"hex": "#e53935", "char": "r"},
        "blue": {"hex": "#1e88e5", "char": "b"},
    }
    assert data["rows"][0] == [[2, "red"], [1, "blue"]]
    assert data["solution"] == ["rrb", "bbb"]
    assert read(puzzle.to("json")) == puzzle


def test_webpbn_colour_clues_come_from_the_goal_image_when_absent() -> None:
    start = WEBPBN.index('<clues type="columns">')
    end = WEBPBN.index("</puzzle>")
    image = '<solution type="goal"><image>\n|rrb|\n|bbb|\n</image></solution>\n'
    puzzle = read(WEBPBN[:start] + image + WEBPBN[end:], "webpbn")
    assert isinstance(puzzle, ColourNonogram)
    assert puzzle.format_clue(puzzle.rows[0]) == "2 red, 1 blue"
    assert puzzle.format_clue(puzzle.cols[2]) == "2 blue"
    assert puzzle.solve().solutions == [puzzle.goal]


def test_one_colour_is_black_and_white() -> None:
    text = '{"colors": {"ink": {"hex": "#123456", "char": "i"}}, "rows": [[[1, "ink"]], []],'
    text += ' "cols": [[1], []], "solution": ["i.", ".."]}'
    puzzle = read(text)
    assert isinstance(puzzle, Nonogram)
    assert puzzle.rows == ((1,), ()) and puzzle.solve().status == "unique"


def test_nonogrid_toml_reads_like_pynogram_text() -> None:
    assert load("nonogrid-UK.toml").rows == load("pynogram-uk.txt").rows


WEBPBN = """<puzzleset><puzzle type="grid" defaultcolor="red">
<color name="white" char=".">fff</color>
<color name="red" char="r">f00</color>
<color name="blue" char="b">00f</color>
<clues type="columns"><line><count>1</count><count color="blue">1</count></line>
<line><count>1</count><count color="blue">1</count></line>
<line><count color="blue">2</count></line></clues>
<clues type="rows"><line><count>2</count><count color="blue">1</count></line>
<line><count color="blue">3</count></line></clues>
</puzzle></puzzleset>"""

BAD = [
    # unknown colour
    (
        "json",
        FLAG.replace('[[3, "blue"]]', '[[3, "purple"]]'),
        ["row 2", "'purple'", "not defined"],
    ),
    ("webpbn", WEBPBN.replace('color="blue">2', 'color="green">2'), ["line 7", "'green'"]),
    (
        "pynogram",
        "[colors]\nr = (red) %\n[clues]\ncolumns = 1r 1q\nrows = 1r, 1q\n",
        ["line 5, column 12", "row 2", "'q'"],
    ),
    # a clue that cannot fit
    (
        "json",
        FLAG.replace('[[3, "blue"]]', '[[2, "blue"], [2, "blue"]]'),
        ["row 2", "needs 5 cells"],
    ),
    (
        "webpbn",
        WEBPBN.replace('<count color="blue">3</count>', '<count color="blue">4</count>'),
        ["row 2", "needs 4 cells, the row has 3"],
    ),
    (
        "pynogram",
        "[colors]\nr = (red) %\nb = (blue) *\n[clues]\ncolumns = 1r 1b 1r, 0\nrows = 1r, 1b\n",
        ["column 1", "needs 3 cells"],
    ),
    # two colours with the same character
    ("json", FLAG.replace('"char": "b"', '"char": "r"'), ["'red' and 'blue'", "character 'r'"]),
    ("webpbn", WEBPBN.replace('char="b"', 'char="r"'), ["'red' and 'blue'", "character 'r'"]),
    # other slips
    ("json", FLAG.replace('"rrb"', '"rxb"'), ["row 1 of the solution", "'x'"]),
    ("json", FLAG.replace('[2, "red"]', "[2, 7]"), ["row 1: run 1", "the number 7"]),
    ("json", FLAG.replace('"hex": "#e53935"', '"hex": "#e5"'), ["colour 'red'", "'#e5'"]),
    ("pynogram", "[colors]\nr = (not a colour) %\n", ["line 2", "not a colour"]),
]


@pytest.mark.parametrize(("notation", "text", "words"), BAD)
def test_bad_colour_input_gets_one_sentence_naming_where(
    notation: str, text: str, words: list[str]
) -> None:
    with pytest.raises(PuzzleError) as caught:
        read(text, notation)
    message = str(caught.value)
    assert "\n" not in message
    for word in words:
        assert word in message, message


def test_black_and_white_notations_refuse_to_write_colours() -> None:
    with pytest.raises(PuzzleError, match="the mk notation has no colours"):
        read(FLAG).to("mk")


# --- the command line ------------------------------------------------------------------------
def pencilbox(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pencilbox.cli", *args], capture_output=True, text=True, timeout=300
    )


def test_cli_solve_jsonl_gives_rows_of_colour_characters(tmp_path: Path) -> None:
    flag = tmp_path / "flag.json"
    flag.write_text(FLAG)
    done = pencilbox("solve", "--jsonl", str(flag), str(COLOUR / "pynogram-apples.txt"))
    assert done.returncode == 0, done.stderr
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert (first["status"], first["solutions"]) == ("unique", [["rrb", "bbb"]])
    assert second["status"] == "unique" and second["grade"] == "line"
    rows = second["solutions"][0]
    assert rows[0] == "..ggggggggggg.." and set("".join(rows)) == set(".#gr")


def test_cli_check_explain_hint_convert_render(tmp_path: Path) -> None:
    path = str(COLOUR / "take_two.xml")
    assert pencilbox("check", path).stdout.strip() == "unique (grade: line)"
    explained = pencilbox("explain", path).stdout.splitlines()
    assert explained[0].strip().startswith("1. Row 1 (5 black, 1 black, 1 black): ")
    assert any("aF78900" in line for line in explained)
    hint = pencilbox("hint", "--level", "3", path)
    assert hint.returncode == 0 and hint.stdout.startswith("Row 1 (")
    converted = pencilbox("convert", path, "--to", "json")
    assert json.loads(converted.stdout)["colors"]["black"] == {"hex": "#000000", "char": "#"}
    refused = pencilbox("convert", path, "--to", "nin")
    assert refused.returncode == 2 and "has no colours" in refused.stderr
    svg, png = tmp_path / "p.svg", tmp_path / "p.png"
    drawn = pencilbox("render", path, "--state", "solved", "--svg", str(svg), "--png", str(png))
    assert drawn.returncode == 0, drawn.stderr
    assert 'fill="#f78900"' in svg.read_text()
    assert png.read_bytes().startswith(b"\x89PNG")
    text = pencilbox("render", path, "--state", "solved").stdout.splitlines()
    assert len(text) == 15 and set("".join(text)) <= set(".#a")


def test_cli_bad_colour_file_exits_2_with_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(FLAG.replace('[[3, "blue"]]', '[[3, "purple"]]'))
    done = pencilbox("solve", str(bad))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "'purple'" in done.stderr
