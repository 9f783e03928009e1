"""`pencilbox read` and pictures wherever a puzzle file is accepted, as a user runs them."""

from __future__ import annotations

import json
import shutil

import pytest

from pencilbox.cli import main
from tests.pictures import DATA, draw

FIELDS = {"file", "genre", "status", "puzzle", "confidence", "uncertain", "time_s", "error"}


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("pictures")


@pytest.fixture(scope="module")
def sudoku(folder):
    return draw("sudoku-print", 3, folder)


@pytest.fixture(scope="module")
def nonogram(folder):
    return draw("nonogram-render", 1, folder)


@pytest.fixture(scope="module")
def board(folder):
    return draw("dbchoco-puzzlink", 3, folder)


def test_read_prints_each_genre_in_its_notation(capsys, sudoku, nonogram, board):
    assert main(["read", str(sudoku[0])]) == 0
    out, err = capsys.readouterr()
    assert out == sudoku[1]["givens"] + "\n"
    assert "sudoku, ok" in err
    assert main(["read", str(nonogram[0])]) == 0
    rows, cols = capsys.readouterr().out.splitlines()
    assert rows.split(",") == [" ".join(map(str, r)) or "0" for r in nonogram[1]["rows"]]
    assert len(cols.split(",")) == len(nonogram[1]["cols"])
    assert main(["read", str(board[0]), "--genre", "dbchoco"]) == 0
    assert capsys.readouterr().out.startswith("https://puzz.link/p?dbchoco/")


def test_jsonl_is_one_object_per_picture_with_the_contract_fields(
    capsys, tmp_path, sudoku, nonogram
):
    bad = tmp_path / "notes.png"
    bad.write_text("not a picture")
    code = main(["read", str(sudoku[0]), str(nonogram[0]), str(bad), "--jsonl"])
    assert code == 2
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [set(r) for r in records] == [FIELDS] * 3
    first, second, third = records
    assert first["genre"] == "sudoku" and first["status"] == "ok"
    assert first["puzzle"] == {"givens": sudoku[1]["givens"]}
    assert 0.9 <= first["confidence"] <= 1 and first["uncertain"] == [] and first["error"] is None
    assert second["puzzle"] == {"rows": nonogram[1]["rows"], "cols": nonogram[1]["cols"]}
    assert third["status"] == "error" and third["puzzle"] is None
    assert "not a PNG, JPEG or WebP picture" in third["error"]


def test_an_uncertain_reading_exits_1_and_says_why(capsys, tmp_path, nonogram):
    import cv2

    from pencilbox import pictures

    reading = pictures.read(nonogram[0])
    number = next(n for n in reading.numbers if n.kind == "row" and n.value and n.value > 1)
    x0, y0, x1, y1 = number.box
    image = cv2.imread(str(nonogram[0]))
    cv2.rectangle(image, (x0 - 1, y0 - 1), (x1 + 1, y1 + 1), (255, 255, 255), -1)
    path = tmp_path / "erased.png"
    cv2.imwrite(str(path), image)
    assert main(["read", str(path), "--jsonl"]) == 1
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "uncertain" and record["confidence"] < 0.9
    assert record["uncertain"], "the least certain numbers are listed to check"
    assert main(["read", str(path)]) == 1
    assert "add up to" in capsys.readouterr().err


def test_json_gives_every_number_with_its_box(capsys, sudoku):
    assert main(["read", str(sudoku[0]), "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert set(document) >= FIELDS
    assert len(document["numbers"]) == sum(ch != "." for ch in sudoku[1]["givens"])
    number = document["numbers"][0]
    assert {"cell", "row", "col", "read", "confidence", "alternatives", "box"} <= set(number)
    assert len(document["grid"]) == 4
    assert document["verdict"]["solutions"] == "unique"


def test_solve_check_explain_and_hint_take_a_picture(capsys, tmp_path, sudoku):
    picture = tmp_path / "puzzle.jpeg.bin"  # the name says nothing: the content decides
    shutil.copy(sudoku[0], picture)
    assert main(["solve", str(picture)]) == 0
    assert "unique solution" in capsys.readouterr().out
    assert main(["check", str(picture)]) == 0
    assert capsys.readouterr().out.startswith("unique")
    assert main(["explain", str(picture), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)  # the steps
    assert main(["hint", str(picture)]) == 0
    assert capsys.readouterr().out.strip()


def test_solve_refuses_a_picture_it_could_not_read_for_sure(capsys, tmp_path):
    import cv2
    import numpy as np

    photo = DATA / "newspaper-sudoku-10.jpg"
    image = cv2.imread(str(photo))
    # blot out a band of the grid: the givens no longer make one solution
    h, w = image.shape[:2]
    cv2.rectangle(image, (0, int(h * 0.45)), (w, int(h * 0.62)), (255, 255, 255), -1)
    blotted = tmp_path / "blotted.png"
    cv2.imwrite(str(blotted), np.ascontiguousarray(image))
    assert main(["solve", str(blotted)]) == 2
    err = capsys.readouterr().err
    assert "not read with certainty" in err or "no puzzle grid" in err
    assert "Traceback" not in err


def test_a_picture_of_nothing_is_a_clear_error(capsys, tmp_path):
    import cv2
    import numpy as np

    path = tmp_path / "noise.png"
    cv2.imwrite(str(path), np.random.default_rng(1).integers(0, 255, (200, 200, 3), np.uint8))
    assert main(["read", str(path)]) == 2
    assert "no puzzle grid found" in capsys.readouterr().err
    assert main(["read", str(tmp_path / "missing.png")]) == 2
    assert "cannot read the file" in capsys.readouterr().err


def test_a_reader_failing_on_one_picture_is_its_error_and_the_batch_goes_on(
    capsys, monkeypatch, sudoku, nonogram
):
    from pencilbox.genres.nonogram import picture

    def broken(image, **options):
        raise ValueError("zero-size array")

    monkeypatch.setattr(picture, "read_image", broken)
    code = main(["read", str(nonogram[0]), str(sudoku[0]), "--genre", "nonogram", "--jsonl"])
    assert code == 2
    first, second = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert first["status"] == "error" and first["genre"] == "nonogram"
    assert "could not be read (an unforeseen ValueError in the reader" in first["error"]
    assert second["status"] == "error"  # read as a nonogram, as asked: no grid of clues
