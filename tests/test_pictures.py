"""The library API a web page calls: a picture's bytes in, a review document out; the user's
corrections in, a fresh verdict out."""

from __future__ import annotations

import json

from pencilbox import pictures
from pencilbox.core.vision.reading import Reading
from tests.pictures import draw, matches, real_nonogram

CONTRACT = {"file", "genre", "status", "puzzle", "confidence", "uncertain", "time_s", "error"}


def test_a_review_document_has_every_number_with_its_box(tmp_path):
    path, truth = draw("sudoku-render", 1, tmp_path)
    document = pictures.review(path.read_bytes())
    assert json.loads(json.dumps(document)) == document  # plain JSON, as a web page gets it
    assert set(document) >= CONTRACT | {"numbers", "grid", "verdict", "picture_size"}
    assert document["status"] == "ok" and document["puzzle"]["givens"] == truth["givens"]
    assert len(document["numbers"]) == sum(ch != "." for ch in truth["givens"])
    width, height = document["picture_size"]
    for number in document["numbers"]:
        at = (number["row"] - 1) * 9 + number["col"] - 1
        assert str(number["read"]) == truth["givens"][at]
        assert 0.0 <= number["confidence"] <= 1.0
        assert len(number["alternatives"]) == len(number["scores"])
        x0, y0, x1, y1 = number["box"]
        assert 0 <= x0 < x1 <= width and 0 <= y0 < y1 <= height
    assert document["verdict"]["checks"] == {"no_clash": True, "solvable": True, "unique": True}


def test_the_users_corrections_get_a_fresh_verdict(tmp_path):
    path, truth = draw("nonogram-render", 2, tmp_path)
    document = pictures.review(path.read_bytes(), genre="nonogram")
    assert document["puzzle"] == {"rows": truth["rows"], "cols": truth["cols"]}
    at = next(i for i, n in enumerate(document["numbers"]) if n["clue"].startswith("row"))
    value = document["numbers"][at]["read"]
    wrong = pictures.review_edits(document, {at: value + 1})
    assert wrong["status"] == "uncertain"
    assert wrong["verdict"]["checks"]["totals_agree"] is False
    assert wrong["numbers"][at]["read"] == value + 1 and wrong["numbers"][at]["edited"]
    mended = pictures.review_edits(wrong, {at: value})
    assert mended["verdict"]["consistent"] and mended["verdict"]["solutions"] == "unique"
    assert mended["puzzle"] == document["puzzle"]


def test_a_reading_survives_its_json(tmp_path):
    path, _ = draw("dbchoco-render", 1, tmp_path)
    reading = pictures.read(path)
    again = Reading.from_json(json.loads(json.dumps(reading.to_json())))

    def places(r: Reading) -> list[tuple[object, ...]]:
        return [
            (n.kind, n.line, n.index, n.value, n.box, round(n.confidence, 3)) for n in r.numbers
        ]

    assert places(again) == places(reading)
    assert again.genre_data == reading.genre_data
    assert pictures.puzzle_text(again) == pictures.puzzle_text(reading)
    assert pictures.recheck(again).status == reading.status


def test_what_cannot_be_read_is_an_error_document_not_an_exception():
    document = pictures.review(b"GIF89a not what we read")
    assert document["status"] == "error" and document["puzzle"] is None
    assert "not a PNG, JPEG or WebP picture" in document["error"]


def test_a_close_genre_whose_numbers_make_a_puzzle_wins_over_one_with_none(capsys):
    # gnonograms' designing screen (GPL-3.0, bench/data/real-pictures): its grey and white
    # cells score as a Double Choco board, a little above the nonogram, but that reading has
    # no numbers; the nonogram's clues make a puzzle (a drawing with several solutions, so
    # in doubt). Both are uncertain: the one whose numbers have a solution is given
    from pencilbox.cli import main

    path, truth = real_nonogram("jeremypw-gnonograms-designing-shogun.png")
    code = main(["read", str(path), "--jsonl"])
    record = json.loads(capsys.readouterr().out)
    assert code == 1 and record["genre"] == "nonogram" and record["status"] == "uncertain"
    assert record["puzzle"] == {"rows": truth["rows"], "cols": truth["cols"]}


def test_a_newspaper_pages_text_is_not_taken_for_a_nonograms_clues(tmp_path):
    # the nonogram score's last look (numbers greyed in a pale colour, in the darkest
    # channel) counts only marks that the ink picture hides: counting every faint mark
    # there, the grey text printed around this photographed sudoku covered the lines
    # beside its grid, and it was read as a nonogram
    path, truth = draw("sudoku-newsprint", 1006, tmp_path)
    reading = pictures.read(path)
    assert reading.genre == "sudoku"
    assert matches(reading, truth)  # every given right (doubted, not wrong)
