"""Sudoku notations: round trips, detection, and the bad-input table."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pencilbox.errors import FormatError, InvalidPuzzle, PuzzleError, UnknownFormat
from pencilbox.genres.sudoku.formats import NOTATIONS, detect, parse_many, read, write
from pencilbox.genres.sudoku.formats.hodoku import parse_line, write_line
from pencilbox.genres.sudoku.formats.ss import parse_candidates
from pencilbox.genres.sudoku.model import make_sudoku
from tests.conftest import TEST_DATA

DATA = TEST_DATA / "sudoku"
HARD = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"


def test_every_notation_round_trips_and_is_detected() -> None:
    puzzle = read(HARD)
    for name in NOTATIONS:
        text = write(puzzle, name)
        assert read(text, name) == puzzle, name
        assert read(text) == puzzle, name
        assert detect(text).name == name or (name, detect(text).name) == ("sdm", "line")


def test_sixteen_and_twenty_five_round_trip_with_alphabets() -> None:
    for line in (DATA / "sudoku16_20.txt").read_text().split()[:2]:
        puzzle = read(line)
        assert puzzle.size == 16 and puzzle.alphabet == "123456789ABCDEFG"
        for name in ("line", "sdk", "ss", "puzzlink", "sdm", "kaggle"):
            assert read(write(puzzle, name), name) == puzzle, name
    big = read((DATA / "sudoku25_5.txt").read_text().split()[0])
    assert big.size == 25 and big.alphabet.endswith("P")
    assert read(big.to("puzzlink")) == big
    assert read(big.to("line")).line() == big.line()


def test_explicit_alphabet() -> None:
    puzzle = read((DATA / "sudoku16_20.txt").read_text().split()[0])
    shifted = "".join(
        "0123456789ABCDEF"["123456789ABCDEFG".index(ch)] if ch != "." else "."
        for ch in puzzle.line()
    )
    other = read(shifted, alphabet="0123456789ABCDEF")
    assert other.givens == puzzle.givens
    assert other.line() == shifted
    assert read(other.to("line"), alphabet="0123456789ABCDEF") == other


digits = st.lists(st.integers(0, 9), min_size=81, max_size=81)


def _without_duplicates(values: list[int]) -> list[int]:
    board = [0] * 81
    for index, value in enumerate(values):
        board[index] = value
        try:
            make_sudoku(board)
        except InvalidPuzzle:
            board[index] = 0
    return board


@settings(max_examples=40, deadline=None)
@given(digits)
def test_round_trips_on_random_boards(values: list[int]) -> None:
    puzzle = make_sudoku(_without_duplicates(values))
    for name in NOTATIONS:
        assert read(write(puzzle, name), name) == puzzle, name


def test_blanks_and_comment() -> None:
    blanks = HARD.replace(".", "0")
    assert read(blanks) == read(HARD)
    for ch in "X*_":
        assert read(HARD.replace(".", ch)) == read(HARD)
    titled = read(HARD + "  # the hardest")
    assert titled.title == "the hardest"
    assert read(titled.to("line")).title == "the hardest"


def test_sdk_header_lines() -> None:
    rows = "\n".join(HARD[r * 9 : r * 9 + 9] for r in range(9))
    text = f"#AArto Inkala\n#DA hard one\n#Cnone\n#Snewspaper\n#LHard\n{rows}\n"
    puzzle = read(text, filename="x.sdk")
    assert puzzle.meta["author"] == "Arto Inkala" and puzzle.meta["level"] == "Hard"
    assert read(puzzle.to("sdk")).meta == puzzle.meta


def test_pencil_mark_grid() -> None:
    from pencilbox.genres.sudoku.solver import candidates

    puzzle = read(HARD)
    masks = candidates(puzzle.values(), 3)
    groups = [
        "".join(str(d) for d in range(1, 10) if mask >> (d - 1) & 1) or str(v)
        for mask, v in zip(masks, puzzle.values())
    ]
    rows = [
        " | ".join(["  ".join(groups[r * 9 + b * 3 : r * 9 + b * 3 + 3]) for b in range(3)])
        for r in range(9)
    ]
    text = "\n".join(["*-----*", *(f"| {row} |" for row in rows), "*-----*"])
    read_back, read_masks = parse_candidates(text)
    assert read_back == puzzle
    assert read_masks == [m or 1 << (v - 1) for m, v in zip(masks, puzzle.values())]
    assert read(text, "ss") == puzzle


def test_hodoku_library_lines() -> None:
    lines = [
        (n, ln)
        for n, ln in enumerate((DATA / "hodoku_reglib-1.3.txt").read_text().splitlines(), 1)
        if ln.startswith(":")
    ]
    assert len(lines) > 1000
    for number, text in lines:
        item = parse_line(text, number)
        assert item.puzzle.values() == [g or p for g, p in zip(item.givens, item.placed)]
        again = parse_line(write_line(item), number)
        assert again == item
        if text.strip().count(":") == 8:
            assert write_line(item) == text.strip()
    sample = parse_line(
        ":0101:6:9.2.4..+1....+915+2+381.+5..2.4.45..+2.1.3..+1..+4..+23+26+1...94.1.2..+4.62."
        "+346+1.......7.3+21:852 657 882 892:612 632::",
        7,
    )
    assert sample.technique == "0101" and sample.digits == "6"
    assert sample.deleted[0] == (5, 2, 8)  # written "852": digit 8, row 5, column 2
    assert sample.eliminations == [(1, 2, 6), (3, 2, 6)]
    assert sample.placed[7] == 1 and sample.givens[7] == 0


def test_kaggle_keeps_the_solution() -> None:
    text = (DATA / "kaggle_1000.csv").read_text()
    first = next(parse_many(text, filename="kaggle_1000.csv"))[1]
    assert not isinstance(first, PuzzleError)
    assert first.solution is not None
    assert read(first.to("kaggle")).solution == first.solution


def test_puzzlink_url_forms() -> None:
    puzzle = read(HARD)
    url = puzzle.to("puzzlink").strip()
    assert url.startswith("https://puzz.link/p?sudoku/9/9/")
    body = url.split("sudoku/", 1)[1]
    for form in (
        f"p?sudoku/{body}",
        f"http://pzv.jp/p.html?sudoku/{body}",
        f"https://puzz.link/p?sudoku_edit/{body}",
    ):
        assert read(form) == puzzle


def test_parse_many_goes_on_after_a_bad_line() -> None:
    text = f"# list\n{HARD}\n{HARD[:-1]}\n\n{HARD} # last\n"
    found = list(parse_many(text))
    assert [n for n, _ in found] == [2, 3, 5]
    assert isinstance(found[1][1], FormatError)
    assert str(found[1][1]) == "line 3: 80 cells, a 9x9 sudoku needs 81"


BAD = [
    (HARD[:-1], None, "line 1: 80 cells, a 9x9 sudoku needs 81"),
    (HARD[:40] + "Z" + HARD[41:], None, "line 1, column 41: 'Z' is not a digit of this sudoku"),
    ("." + "7" + "." * 5 + "7" + "." * 73, None, "row 1 has two 7s: r1c2 and r1c8"),
    ("." * 27 + ".7.....7." + "." * 45, None, "row 4 has two 7s: r4c2 and r4c8"),
    ("5" + "." * 8 + "5" + "." * 71, None, "column 1 has two 5s: r1c1 and r2c1"),
    ("5" + "." * 9 + "5" + "." * 70, None, "box 1 has two 5s: r1c1 and r2c2"),
    ("." * 100, None, "100 cells, a 9x9 sudoku needs 81"),
    ("\n".join(["." * 10] * 10), "sdk", "10x10 is not a Sudoku size"),
    ("p?sudoku/6/6/1", None, "6x6 is not a Sudoku size"),
    ("p?sudoku/9/9/1z1z1z1z1z", None, "more than the grid's cells"),
    ("p?sudoku/9/9/a", None, "10 is not a digit of a 9x9 sudoku"),
    ("p?sudoku/9/9/.", None, "a '?' clue is not a sudoku digit"),
    ("#Afoo\n" + "\n".join(["........."] * 8) + "\n........\n", "sdk", "this row has 8 cells"),
    ("quizzes,solutions\n" + HARD + ",123\n", None, "the solution has 3 cells"),
    (":0100:1:" + HARD[:-1] + ":::\n", None, "line 1: 80 cells, a 9x9 sudoku needs 81"),
    ("*---*\n|" + "|\n|".join(["...|...|..."] * 8) + "|\n|...|...|..|\n*---*", "ss", "8 cells"),
]


@pytest.mark.parametrize(("text", "format", "message"), BAD)
def test_bad_input_table(text: str, format: str | None, message: str) -> None:
    with pytest.raises(PuzzleError) as caught:
        read(text, format)
    assert message in str(caught.value)


def test_errors_in_a_list_name_their_line() -> None:
    text = f"{HARD}\n# comment\n{HARD[:-1]}\n"
    found = dict(parse_many(text))
    assert str(found[3]) == "line 3: 80 cells, a 9x9 sudoku needs 81"


def test_not_a_sudoku() -> None:
    with pytest.raises(UnknownFormat):
        read("3 3,5 7 5\n1,2\n")
    with pytest.raises(PuzzleError, match="not a Sudoku size"):
        make_sudoku([0] * 100)
    with pytest.raises(PuzzleError, match="do not make a square"):
        make_sudoku([0] * 80)
