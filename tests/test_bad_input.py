"""The library's side of "every bad input is a clean error": each reproducer of the audit (issue
10) is a PuzzleError with one short sentence, never an OSError, a RecursionError or a bare
ValueError, and a message never quotes more than a short excerpt of the input."""

from __future__ import annotations

from pathlib import Path

import pytest

import pencilbox
from pencilbox.core.grid import Grid
from pencilbox.core.notation import whole_number, whole_value
from pencilbox.errors import MAX_MESSAGE, FormatError, InvalidPuzzle, PuzzleError, quote
from pencilbox.genres import base
from tests.conftest import TEST_DATA


def refused(text: str, **options: str) -> PuzzleError:
    with pytest.raises(PuzzleError) as caught:
        pencilbox.load(text, **options)
    message = str(caught.value)
    assert len(message) <= MAX_MESSAGE and "\n" not in message, message
    return caught.value


# -- one-line texts are text, not file names ------------------------------------------------------
@pytest.mark.parametrize(("name", "size"), [("sudoku16_20.txt", 16), ("sudoku25_5.txt", 25)])
def test_long_sudoku_lines_are_read_as_text(name: str, size: int) -> None:
    # 256 and 625 characters: longer than a file name, which once made load() fail with
    # OSError "File name too long" before it looked at the text.
    line = (TEST_DATA / "sudoku" / name).read_text().split()[0]
    assert pencilbox.load(line).size == size
    assert pencilbox.load("." * 256).size == 16


def test_long_texts_that_are_no_puzzle_are_refused_as_such() -> None:
    assert "cannot tell which puzzle" in str(refused("~" * 300))
    assert "cannot tell which puzzle" in str(refused("a/" + "~" * 300 + "/c"))
    url = "https://puzz.link/p?nonogram/5/5/" + "g" * 40_000  # 40 KB
    assert "left over after the last of the 30 slots" in str(refused(url))


def test_a_real_path_is_still_read(tmp_path: Path) -> None:
    path = tmp_path / "seed.json"
    path.write_text((TEST_DATA / "nonogram/seed/seed-a.json").read_text())
    assert pencilbox.load(str(path)).width == 30
    assert pencilbox.load(path).width == 30
    huge = tmp_path / "huge.txt"
    with huge.open("wb") as out:  # a sparse file: no disk space used
        out.truncate(pencilbox.MAX_FILE_BYTES + 1)
    assert "puzzle files have at most" in str(refused(str(huge)))


# -- JSON -------------------------------------------------------------------------------------
@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_deeply_nested_json(depth: int) -> None:
    text = '{"rows": ' + "[" * depth + "]" * depth + ', "cols": [[1]]}'
    assert "nested too deeply" in str(refused(text))
    dbchoco = '{"colors": ["wg"], "numbers": ' + "[" * depth + "]" * depth + "}"
    assert "nested too deeply" in str(refused(dbchoco))


def test_a_5000_digit_number_in_json() -> None:
    error = refused('{"rows": [[' + "9" * 5000 + ']], "cols": [[1]]}')
    assert isinstance(error, FormatError) and (error.line, error.column) == (1, 12)
    assert "5000 digits" in str(error)
    error = refused('{"colors": ["wg"], "numbers": [[' + "7" * 5000 + ", null]]}")
    assert "5000 digits" in str(error)


def test_a_solution_whose_rows_have_the_wrong_length() -> None:
    text = '{"rows": [[1], [1]], "cols": [[1], [1]], "solution": ["#.", "."]}'
    assert str(refused(text)) == "row 2 of the solution has 1 cells, the clues give 2"
    three = '{"rows": [[1], [1]], "cols": [[1], [1]], "solution": ["#.", ".#", ".."]}'
    assert "the solution has 3 rows, the clues give 2" in str(refused(three))


def test_json_values_are_described_not_repeated() -> None:
    deep = "[" * 500 + "]" * 500
    error = refused('{"rows": [' + deep + '], "cols": [[1]]}')
    assert str(error) == "row 1: run 1 is a list, not a whole number"
    error = refused('{"rows": [["' + "x" * 10_000 + '"]], "cols": [[1]]}')
    assert "run 1 is the string 'xxxxxxxxxxxxxxxxxxx…" in str(error)


# -- Unicode digits and long numbers in the text notations -------------------------------------
DIGIT_CASES = {
    "dbchoco puzz.link columns": ("https://puzz.link/p?dbchoco/{}/4/00000", "dbchoco", "url"),
    "dbchoco puzz.link rows": ("https://puzz.link/p?dbchoco/4/{}/00000", "dbchoco", "url"),
    "dbchoco pzprv3 rows": ("pzprv3\ndbchoco\n{}\n2\n. .\n. .\n", "dbchoco", "pzprv3"),
    "dbchoco pzprv3 cell": ("pzprv3\ndbchoco\n2\n2\n-{} .\n. .\n", "dbchoco", "pzprv3"),
    "dbchoco text cell": ("#{} .\n. #\n", "dbchoco", "text"),
    "sudoku puzz.link": ("p?sudoku/{}/9/", "sudoku", "puzzlink"),
    "nonogram puzz.link": ("p?nonogram/{}/5/", "nonogram", "puzzlink"),
    "nonogram nin": ("{} 2\n1\n1\n1\n1\n", "nonogram", "nin"),
}


@pytest.mark.parametrize("digits", ["²", "①", "٣", "9" * 5000])
@pytest.mark.parametrize("case", sorted(DIGIT_CASES))
def test_unicode_digits_and_5000_digit_numbers(case: str, digits: str) -> None:
    template, genre, format = DIGIT_CASES[case]
    text = template.format(digits)
    error = refused(text, genre=genre, format=format)
    assert isinstance(error, FormatError), case
    assert ("not a whole number" in str(error) or "5000 digits" in str(error)) or (
        "not a cell" in str(error)
    ), str(error)
    if genre != "nonogram":  # as detected, too (nonogram notations ask for ASCII digits)
        assert isinstance(refused(text), PuzzleError)


# -- lone surrogates ----------------------------------------------------------------------------
WEBPBN = (
    "<puzzleset><puzzle><title>{}</title>"
    '<clues type="rows"><line><count>1</count></line></clues>'
    '<clues type="columns"><line><count>1</count></line></clues></puzzle></puzzleset>'
)


def test_a_lone_surrogate_in_a_webpbn_title() -> None:
    error = refused(WEBPBN.format("A \ud800 title"))
    assert isinstance(error, FormatError) and (error.line, error.column) == (1, 29)
    assert "U+D800 is a lone surrogate" in str(error)
    assert pencilbox.load(WEBPBN.format("A \U0001f600 title")).title == "A \U0001f600 title"


def test_a_lone_surrogate_in_json_strings() -> None:
    nonogram = '{"rows": [[1]], "cols": [[1]], "title": "\\udc80"}'
    assert "lone surrogate" in str(refused(nonogram))
    dbchoco = '{"colors": ["wg"], "numbers": [[null, null]], "id": "x\\ud83d"}'
    assert "lone surrogate" in str(refused(dbchoco))
    pair = '{"rows": [[1]], "cols": [[1]], "title": "\\ud83d\\ude00"}'  # a valid pair
    assert pencilbox.load(pair).title == "\U0001f600"


def test_every_genre_refuses_a_lone_surrogate_when_called_directly() -> None:
    for genre in base.all_genres():
        with pytest.raises(FormatError, match="lone surrogate"):
            genre.parse("1 2\n\udfff\n", None)


# -- messages quote a short excerpt ---------------------------------------------------------------
def test_a_huge_clue_line_gives_a_short_message() -> None:
    clue_line = " ".join(["1"] * 900_000)  # 1.8 MB
    error = refused(f"rows: {clue_line}\ncols: 1", format="clues", genre="nonogram")
    assert "needs 1799999 cells, the row has 1" in str(error)
    assert len(str(error)) <= MAX_MESSAGE
    error = refused("1 1\n" + "x" * 1_000_000 + "\n1\n", genre="nonogram", format="nin")
    assert "(1000000 characters) is not a whole number" in str(error)


def test_quote_and_the_message_limit() -> None:
    assert quote("abc") == "'abc'"
    long = quote("a" * 1000 + "z")
    assert long.startswith("'aaaa") and long.endswith("z' (1001 characters)") and len(long) < 70
    assert len(str(PuzzleError("x" * 10_000))) == MAX_MESSAGE
    error = InvalidPuzzle("y" * 10_000, where="row 3")
    assert len(error.reason) == MAX_MESSAGE and str(error).startswith("row 3: yyy")


# -- the whole-number readers --------------------------------------------------------------------
def test_whole_number_takes_ascii_digits_only() -> None:
    assert whole_number("042", "the size") == 42
    for token in ("", "-1", "1.5", "²", "①", "٣", " 1", "1_000"):
        with pytest.raises(FormatError, match="is not a whole number"):
            whole_number(token, "the size")
    with pytest.raises(FormatError, match="the size has 7 digits"):
        whole_number("1234567", "the size", line=3, column=4)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("abc", "--size must be a whole number, got 'abc'"),
        ("²", "--size must be a whole number, got '²'"),
        (True, "--size must be a whole number, got bool"),
        (1.5, "--size must be a whole number, got float"),
        (float("inf"), "--size must be a whole number, got float"),
        (10**400, "--size must be a whole number, got int"),
        ("0", "--size must be at least 1, got 0"),
        (None, "--size must be a whole number, got NoneType"),
    ],
)
def test_whole_value_for_options(value: object, message: str) -> None:
    with pytest.raises(PuzzleError) as caught:
        whole_value(value, "--size", minimum=1)
    assert str(caught.value) == message
    assert whole_value(" 16 ", "--size") == 16 and whole_value(-3, "--seed") == -3


def test_grid_rows_of_different_lengths() -> None:
    with pytest.raises(InvalidPuzzle, match="row 2: has 1 cells, row 1 has 2"):
        Grid.from_rows([[1, 2], [3]])


def test_a_penpa_payload_that_inflates_too_far() -> None:
    import base64
    import zlib

    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    bomb = packer.compress(b"square,5,5\n" + b" " * 50_000_000) + packer.flush()  # 50 KB
    url = "https://swaroopg92.github.io/penpa-edit/#m=edit&p=" + base64.b64encode(bomb).decode()
    error = refused(url, genre="dbchoco", format="penpa")
    assert "inflates to more than 4,194,304 bytes" in str(error)
    header = "square,²,5\n[0,0,0,0]\n{}\n{}"
    small = base64.b64encode(zlib.compress(header.encode(), 9)[2:-4]).decode()
    url = "https://swaroopg92.github.io/penpa-edit/#m=edit&p=" + small
    assert "is not a whole number" in str(refused(url, genre="dbchoco", format="penpa"))
