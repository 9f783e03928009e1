"""Nonograms from the user's own picture (`generate nonogram --from IMAGE`): the picture is
turned into a grid faithfully, made unique at the asked grade with as few changes as it takes,
and the --json record says what changed. Pictures are drawn here with Pillow."""

from __future__ import annotations

import base64
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from pencilbox.cli import main
from pencilbox.core.grid import Grid
from pencilbox.core.timing import Deadline
from pencilbox.errors import PuzzleError
from pencilbox.genres.nonogram.colour.model import ColourNonogram, clues_of
from pencilbox.genres.nonogram.formats import read
from pencilbox.genres.nonogram.fromimage import generate_from_image
from pencilbox.genres.nonogram.fromimage.check import UniquenessCheck
from pencilbox.genres.nonogram.model import Nonogram

CELL = 10
"""Pixels per cell in the drawn pictures: a picture of W*CELL pixels at --size W maps each
block of pixels onto one cell."""


def _blocks(rows: list[str], palette: dict[str, str], cell: int = CELL) -> Image.Image:
    """A picture of coloured blocks, one per character of `rows` (`.` white)."""
    image = Image.new("RGB", (len(rows[0]) * cell, len(rows) * cell), "white")
    draw = ImageDraw.Draw(image)
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch != ".":
                box = (c * cell, r * cell, (c + 1) * cell - 1, (r + 1) * cell - 1)
                draw.rectangle(box, fill=palette[ch])
    return image


def _save(image: Image.Image, path: Path) -> str:
    image.save(path)
    return str(path)


def _generate(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["generate", "nonogram", *args, "--json"]) == 0
    record: dict[str, Any] = json.loads(capsys.readouterr().out)
    return record


HOUSE = [
    "....#....",
    "...###...",
    "..#####..",
    ".#######.",
    "..#...#..",
    "..#.#.#..",
    "..#.#.#..",
    "..#####..",
]


def test_a_drawing_becomes_its_own_unique_puzzle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    picture = _save(_blocks(HOUSE, {"#": "black"}), tmp_path / "house.png")
    record = _generate(capsys, "--from", picture, "--size", "9x8")
    assert record["solution"] == HOUSE and record["changed"] == 0 and record["changes"] == []
    assert record["size"] == "9x8" and record["colors"] == 1 and record["grade"] == "line"
    assert record["genre"] == "nonogram" and record["error"]["picture"] < 1.0
    puzzle = read(record["text"])
    assert isinstance(puzzle, Nonogram)
    result = puzzle.solve(limit=2)
    assert result.status == "unique" and puzzle.solution_json(result.solutions[0]) == HOUSE
    assert record["clues"]["rows"][3] == [7] and record["clues"]["cols"][4] == [4, 3]


def test_size_n_keeps_the_proportions_and_area_averaging_blends_cells(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 18x16 pixels of blocks at 20x20: each cell of a 9x8 grid is the mean of 2x2 blocks.
    picture = _save(_blocks(HOUSE, {"#": "black"}, cell=20), tmp_path / "house.png")
    record = _generate(capsys, "--from", picture, "--size", "9")
    assert record["size"] == "9x8" and record["solution"] == HOUSE
    half = _save(_blocks(HOUSE, {"#": "black"}, cell=20).resize((90, 40)), tmp_path / "h.png")
    squashed = _generate(capsys, "--from", half, "--size", "18")
    assert squashed["size"] == "18x8"


def test_an_ambiguous_picture_is_changed_as_little_as_needed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Two blocks on a diagonal: rows [1] [1], columns [1] [1] also fit the other diagonal.
    rows = ["#...", ".#..", "....", "...."]
    picture = _save(_blocks(rows, {"#": "black"}), tmp_path / "diagonal.png")
    record = _generate(capsys, "--from", picture, "--size", "4x4", "--grade", "search")
    assert 1 <= record["changed"] == len(record["changes"]) <= 2
    for change in record["changes"]:
        r, c = (int(n) for n in change["cell"][1:].split("c"))
        assert rows[r - 1][c - 1] == change["from"] != change["to"]
        assert record["solution"][r - 1][c - 1] == change["to"]
    puzzle = read(record["text"])
    assert puzzle.solve(limit=2).status == "unique"
    assert record["error"]["puzzle"] > record["error"]["picture"]


LOGO = [
    "..rrrr....",
    ".rrrrrr...",
    "rryyyrrbbb",
    "rryyyrrbbb",
    ".rrrrrr.b.",
    "..rrrr..b.",
]


def test_a_colour_picture_becomes_a_colour_puzzle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    image = _blocks(LOGO, {"r": "#d03030", "y": "#f0d020", "b": "#2040c0"})
    picture = _save(image, tmp_path / "logo.png")
    record = _generate(capsys, "--from", picture, "--size", "10x6", "--colors", "3")
    assert record["colors"] == 3 and record["changed"] == 0
    names = {entry["char"]: entry["name"] for entry in record["palette"]}
    assert names == {".": "white", "r": "red", "y": "yellow", "b": "blue"}
    assert record["solution"] == LOGO
    assert record["clues"]["rows"][2] == [[2, "red"], [3, "yellow"], [2, "red"], [3, "blue"]]
    puzzle = read(record["text"])
    assert isinstance(puzzle, ColourNonogram)
    result = puzzle.solve(limit=2)
    assert result.status == "unique" and puzzle.solution_json(result.solutions[0]) == LOGO


def test_more_colours_than_the_picture_has_are_not_invented(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    picture = _save(_blocks(HOUSE, {"#": "#202020"}), tmp_path / "house.jpg")
    record = _generate(capsys, "--from", picture, "--size", "9x8", "--colors", "4")
    assert record["colors"] == 1 and record["solution"] == HOUSE  # a JPEG's noise is no colour


def test_a_dark_background_is_the_background(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    inverse = [row.replace("#", "x").replace(".", "#").replace("x", ".") for row in HOUSE]
    picture = _save(_blocks(inverse, {"#": "black"}), tmp_path / "night.png")
    record = _generate(capsys, "--from", picture, "--size", "9x8")
    assert record["solution"] == HOUSE  # the border is black, so the white house is the ink
    assert record["palette"][0]["hex"] == "#000000"


def _photo(size: int = 240) -> Image.Image:
    """A soft procedural photograph: a shaded disc and a bar on a gradient, with noise."""
    image = Image.linear_gradient("L").resize((size, size)).convert("RGB")
    draw = ImageDraw.Draw(image)
    draw.ellipse((30, 40, 150, 160), fill=(40, 40, 60))
    draw.rectangle((160, 20, 200, 220), fill=(20, 30, 20))
    noise = Image.effect_noise((size, size), 30).convert("RGB")
    return Image.blend(image, noise, 0.15)


@pytest.mark.parametrize(
    "options",
    [
        ["--threshold", "adaptive"],
        ["--dither", "floyd", "--grade", "search", "--max-changes", "100"],
        ["--threshold", "100"],
        ["--colors", "2", "--palette", "mediancut"],
    ],
)
def test_photographs_become_unique_with_every_method(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str]
) -> None:
    picture = _save(_photo(), tmp_path / "photo.png")
    record = _generate(capsys, "--from", picture, "--size", "16", *options)
    assert record["size"] == "16x16" and record["changed"] <= record["budget"]
    assert read(record["text"]).solve(limit=2).status == "unique"


def test_the_grade_asked_is_the_hardest_allowed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    picture = _save(_photo(), tmp_path / "photo.png")
    record = _generate(capsys, "--from", picture, "--size", "14", "--grade", "line")
    assert record["grade"] == "line"
    assert read(record["text"]).solve(limit=2).grade == "line"


def test_too_few_changes_allowed_names_the_nearest_grade(tmp_path: Path) -> None:
    rows = ["#...", ".#..", "....", "...."]
    picture = _save(_blocks(rows, {"#": "black"}), tmp_path / "diagonal.png")
    command = ["generate", "nonogram", "--from", picture, "--size", "4x4", "--max-changes", "0"]
    run = subprocess.run(
        [sys.executable, "-m", "pencilbox.cli", *command, "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 2 and "Traceback" not in run.stderr and not run.stdout
    assert "could not be made unique within 0 changed cells" in run.stderr


PROBE_ONLY = [
    "..#.#.#",
    "#.##.##",
    "##...#.",
    "..##.#.",
    "#.#.###",
    "##.....",
    ".#...##",
]
"""Unique, but line logic alone stalls on it: it needs probes."""


def test_a_grade_out_of_reach_names_the_nearest_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    picture = _save(_blocks(PROBE_ONLY, {"#": "black"}), tmp_path / "probe.png")
    common = ["--from", picture, "--size", "7x7", "--max-changes", "0"]
    assert main(["generate", "nonogram", *common, "--grade", "line"]) == 2
    message = capsys.readouterr().err
    assert "could not be made line-solvable within 0 changed cells" in message
    assert "probe-solvable took 0 (use --grade probe" in message
    record = _generate(capsys, *common, "--grade", "probe")
    assert record["grade"] == "probe" and record["solution"] == PROBE_ONLY
    # Without a grade it is line-solvable when the budget allows it, here with changes.
    free = _generate(capsys, "--from", picture, "--size", "7x7")
    assert free["grade"] == "line" and 1 <= free["changed"] <= free["budget"]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--colors", "0"], "--colors must be at least 1"),
        (["--colors", "x"], "--colors must be a whole number"),
        (["--size", "1x5"], "each side must be 2 to 100"),
        (["--size", "big"], "--size must be WxH"),
        (["--threshold", "dark"], "--threshold must be otsu, adaptive or a grey level"),
        (["--dither", "ordered"], "--dither must be one of none, floyd"),
        (["--grade", "hard"], "unknown Nonogram grade"),
    ],
)
def test_bad_options_are_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str], message: str
) -> None:
    picture = _save(_blocks(HOUSE, {"#": "black"}), tmp_path / "house.png")
    assert main(["generate", "nonogram", "--from", picture, *options]) == 2
    assert message in capsys.readouterr().err


def test_bad_pictures_are_one_sentence(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = tmp_path / "notes.png"
    text.write_text("not a picture")
    blank = _save(Image.new("RGB", (50, 50), "white"), tmp_path / "blank.png")
    for path, message in (
        (str(tmp_path / "missing.png"), "cannot read the file"),
        (str(text), "is not a picture Pillow can read"),
        (blank, "the picture is blank at 20x20"),
    ):
        assert main(["generate", "nonogram", "--from", path]) == 2
        assert message in capsys.readouterr().err
    assert main(["generate", "nonogram", "--colors", "3"]) == 2
    assert "--colors: only with --from IMAGE" in capsys.readouterr().err


def test_the_web_sends_a_data_url_and_never_a_path(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    _blocks(HOUSE, {"#": "black"}).save(buffer, "PNG")
    url = "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()
    assert generate_from_image(url, size="9x8")["solution"] == HOUSE
    path = _save(_blocks(HOUSE, {"#": "black"}), tmp_path / "house.png")
    with pytest.raises(PuzzleError, match="--from takes a picture file"):
        generate_from_image(path, size="9x8")
    with pytest.raises(PuzzleError, match="not valid base64"):
        generate_from_image("data:image/png;base64,@@@", size="9x8")


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 5).flatmap(
        lambda w: st.tuples(
            st.just(w),
            st.integers(2, 5),
            st.integers(2, 3),
            st.lists(st.integers(0, 2), min_size=25, max_size=25),
        )
    )
)
def test_the_incremental_check_agrees_with_the_solver(
    case: tuple[int, int, int, list[int]],
) -> None:
    """The repair's uniqueness proof (one SAT instance, clues swapped under guards) gives the
    solver's verdict, also after clues change in the same instance."""
    width, height, colours, values = case
    check = UniquenessCheck(width, height, colours)
    try:
        for shift in (0, 1):  # the second round re-encodes the lines whose clues changed
            grid = [(v + shift * (i % 2)) % colours for i, v in enumerate(values)][: width * height]
            masks = Grid(width, height, tuple(1 << v for v in grid))
            rows, cols = clues_of(masks)
            other = check.other_solution(grid, rows, cols, Deadline(None))
            puzzle = ColourNonogram(tuple(_palette(colours)), rows, cols)
            verdict = puzzle.solve(limit=2).status
            assert (other is None) == (verdict == "unique")
            if other is not None:
                assert other != grid
                assert clues_of(Grid(width, height, tuple(1 << v for v in other))) == (rows, cols)
    finally:
        check.close()


def _palette(colours: int) -> list[Any]:
    from pencilbox.genres.nonogram.colour.model import WHITE, Colour

    return [WHITE, *(Colour(f"c{i}", str(i), "#000000") for i in range(1, colours))]
