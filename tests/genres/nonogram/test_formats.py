"""The nonogram notations: known examples, round trips, detection, and errors with positions."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pencilbox.core.grid import Grid
from pencilbox.errors import FormatError, LimitExceeded, PuzzleError
from pencilbox.genres.nonogram.formats import (
    NOTATIONS,
    detect,
    mk,
    nin,
    non,
    puzzlink,
    tatham,
    webpbn,
)
from pencilbox.genres.nonogram.formats import read as read_any
from pencilbox.genres.nonogram.model import (
    EMPTY,
    FILLED,
    Nonogram,
    clues_of,
    grid_from_strings,
    make_puzzle,
)

NEW_NOTATIONS = ["tatham", "webpbn", "non", "mk", "nin", "puzzlink"]

# The picture of Simpson's example:  ####  #..#  #..#  #.##  ###.
SIMPSON_ROWS = ((4,), (1, 1), (1, 1), (1, 2), (3,))
SIMPSON_COLS = ((5,), (1, 1), (1, 2), (4,))

PUZZLINK_EXAMPLE = "6/6/12g1111h11112j12g11g21j11g3h"

WEBPBN_EXAMPLE = """\
<?xml version="1.0"?>
<!DOCTYPE pbn SYSTEM "http://webpbn.com/pbn-0.3.dtd">
<puzzleset>
<source>webpbn.com</source>
<puzzle type="grid" defaultcolor="black">
<source>webpbn.com</source>
<id>#7</id>
<title>Simpson's example</title>
<author>Someone</author>
<copyright>&copy; Copyright 2024</copyright>
<color name="white" char=".">fff</color>
<color name="black" char="X">000</color>
<clues type="columns">
<line><count>5</count></line>
<line><count>1</count><count>1</count></line>
<line><count>1</count><count>2</count></line>
<line><count>4</count></line>
</clues>
<clues type="rows">
<line><count>4</count></line>
<line><count>1</count><count>1</count></line>
<line><count>1</count><count>1</count></line>
<line><count>1</count><count>2</count></line>
<line><count>3</count></line>
</clues>
<solution type="goal">
<image>
|XXXX|
|X..X|
|X..X|
|X.XX|
|XXX.|
</image>
</solution>
</puzzle>
</puzzleset>
"""


def simpson() -> Nonogram:
    return make_puzzle(SIMPSON_ROWS, SIMPSON_COLS)


def simpson_goal() -> Grid:
    return grid_from_strings(["####", "#..#", "#..#", "#.##", "###."])


def with_empty_lines() -> Nonogram:
    """A puzzle with an empty row and an empty column, which notations write differently."""
    # #.#.
    # ....
    # ###.
    return make_puzzle([[1, 1], [], [3]], [[1, 1], [1], [1, 1], []])


# --- known examples -----------------------------------------------------------------------


def test_tatham_example() -> None:
    puzzle = tatham.parse("4x4:2/1/2/1/1.1/2/1/1")
    assert puzzle.cols == ((2,), (1,), (2,), (1,))
    assert puzzle.rows == ((1, 1), (2,), (1,), (1,))


@pytest.mark.parametrize("empty", ["", "0"])
def test_tatham_empty_line_is_nothing_or_zero(empty: str) -> None:
    puzzle = tatham.parse(f"4x3:1.1/1/1.1/{empty}/1.1/{empty}/3\n")
    assert puzzle == with_empty_lines()
    assert tatham.write(puzzle) == "4x3:1.1/1/1.1//1.1//3\n"


def test_tatham_square_size_and_given_squares() -> None:
    # `5:` is Pattern's short form of 5x5; the ',' part lists squares given away as clues.
    puzzle = tatham.parse("2:2/1/1/2,aBc")
    assert puzzle.cols == ((2,), (1,)) and puzzle.rows == ((1,), (2,))


def test_webpbn_example() -> None:
    puzzle = webpbn.parse(WEBPBN_EXAMPLE)
    assert puzzle == simpson()
    assert puzzle.title == "Simpson's example"
    assert puzzle.meta == {"author": "Someone", "copyright": "© Copyright 2024", "id": "#7"}
    assert puzzle.goal == simpson_goal()


def test_webpbn_clues_come_from_the_goal_when_absent() -> None:
    text = WEBPBN_EXAMPLE.split("<clues")[0] + WEBPBN_EXAMPLE.split("</clues>")[-1]
    assert "<clues" not in text
    assert webpbn.parse(text) == simpson()


def test_webpbn_bare_puzzle_with_a_coloured_but_single_colour_clue() -> None:
    text = """<puzzle defaultcolor="black" backgroundcolor="white">
      <clues type="rows"><line><count color="red">1</count></line><line/></clues>
      <clues type="columns"><line><count color="red">1</count></line></clues>
    </puzzle>"""
    puzzle = webpbn.parse(text)
    assert puzzle.rows == ((1,), ()) and puzzle.cols == ((1,),)


def test_webpbn_writes_a_clean_puzzleset() -> None:
    puzzle = webpbn.parse(WEBPBN_EXAMPLE)
    text = webpbn.write(puzzle)
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE pbn')
    assert "<line><count>1</count><count>2</count></line>" in text
    assert "|X.XX|" in text
    again = webpbn.parse(text)
    assert again == puzzle and again.meta == puzzle.meta and again.goal == puzzle.goal
    assert again.title == puzzle.title


def test_non_example_from_the_specification() -> None:
    text = "width 4\nheight 5\n\nrows\n4\n1,1\n1,1\n1,2\n3\n\ncolumns\n5\n1,1\n1,2\n4\n"
    assert non.parse(text) == simpson()


def test_non_properties_goal_and_unknown_keys() -> None:
    text = (
        'catalogue "webpbn #7"\ntitle "Caf&eacute; &amp; more"\nby "Ann"\n'
        'copyright "&copy; Ann"\nlicense CC-BY-3.0\ncolor a #ff0000\nmaxrule 2\n'
        "rows 5\ncolumns 4\nrows\n4\n1a,1a\n1,1\n1,2\n3\ncolumns\n5\n1,1\n1,2\n4\n"
        "goal 11111001100110111110\n"
    )
    puzzle = non.parse(text)
    assert puzzle == simpson()
    assert puzzle.title == "Café & more"
    assert puzzle.meta == {
        "author": "Ann",
        "copyright": "© Ann",
        "license": "CC-BY-3.0",
        "catalogue": "webpbn #7",
    }
    assert puzzle.goal == simpson_goal()


def test_non_reads_the_first_of_bundled_puzzles() -> None:
    first = non.write(simpson())
    second = non.write(with_empty_lines())
    assert non.parse(f"{first}====\n{second}") == simpson()


def test_non_blank_rule_is_an_empty_line_when_the_count_needs_it() -> None:
    text = "width 4\nheight 3\nrows\n1,1\n\n3\ncolumns\n1,1\n1\n1,1\n0\n"
    assert non.parse(text) == with_empty_lines()


def test_mk_example() -> None:
    puzzle = mk.parse("5 4\n4\n1 1\n1 1\n1 2\n3\n#\n5\n1 1\n1 2\n4\n")
    assert puzzle == simpson()


def test_nin_example_from_jwilk_manual() -> None:
    puzzle = nin.parse("6 3\n3 2\n1 2 1\n2 3\n3\n1 1\n2\n2\n1 1\n3\n")
    assert puzzle.rows == ((3, 2), (1, 2, 1), (2, 3))
    assert puzzle.cols == ((3,), (1, 1), (2,), (2,), (1, 1), (3,))


@pytest.mark.parametrize("name", ["mk", "nin"])
def test_mk_and_nin_skip_blank_lines_unless_the_count_needs_them(name: str) -> None:
    puzzle = with_empty_lines()
    written = NOTATIONS[name].write(puzzle)
    spaced = written.replace("\n", "\n\n")  # blank lines everywhere: skipped
    blanked = written.replace("\n0\n", "\n\n", 1)  # the empty row left blank: needed
    assert NOTATIONS[name].parse(spaced) == puzzle
    assert NOTATIONS[name].parse(blanked) == puzzle


def test_puzzlink_example_round_trips_byte_for_byte_and_is_solvable() -> None:
    puzzle = puzzlink.parse(f"https://puzz.link/p?nonogram/{PUZZLINK_EXAMPLE}")
    # Slots nearest the grid come first, so each line's runs are listed last run first.
    assert puzzle.cols == ((2, 1), (1, 1, 1), (1,), (1, 1, 1), (2, 1), ())
    assert puzzle.rows == ((2, 1), (1, 1), (1, 2), (), (1, 1), (3,))
    assert puzzlink.write(puzzle) == f"https://puzz.link/p?nonogram/{PUZZLINK_EXAMPLE}\n"
    assert puzzle.solve().status in ("unique", "multiple")


@pytest.mark.parametrize(
    "url",
    [
        f"https://puzz.link/p?nonogram/{PUZZLINK_EXAMPLE}",
        f"http://pzv.jp/p.html?nonogram/{PUZZLINK_EXAMPLE}",
        f"https://puzz.link/p?nonogram_edit/{PUZZLINK_EXAMPLE}",
        f"https://puzz.link/p?nonogram_play/{PUZZLINK_EXAMPLE}/",
        f"p?nonogram/{PUZZLINK_EXAMPLE}",
        f"nonogram/{PUZZLINK_EXAMPLE}\n",
        f"[InternetShortcut]\nURL=https://puzz.link/p?nonogram/{PUZZLINK_EXAMPLE}\n",
    ],
)
def test_puzzlink_url_forms(url: str) -> None:
    puzzle = puzzlink.parse(url)
    assert puzzle.width == puzzle.height == 6
    assert detect(url).name == "puzzlink"


def test_puzzlink_wide_numbers_and_long_skips() -> None:
    puzzle = make_puzzle([[16]] + [[]] * 24, [[1]] * 16 + [[]] * 4)
    url = puzzlink.write(puzzle)
    assert "-10" in url and "z" in url
    assert puzzlink.parse(url) == puzzle
    # `+` and three hex digits also reads (pzprjs writes it for 256-4095).
    assert puzzlink.parse("p?nonogram/1/1/+001+001") == make_puzzle([[1]], [[1]])


# --- round trips --------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(NOTATIONS))
@pytest.mark.parametrize("puzzle", [simpson(), with_empty_lines()], ids=["simpson", "empty"])
def test_round_trip(name: str, puzzle: Nonogram) -> None:
    notation = NOTATIONS[name]
    assert notation.parse(notation.write(puzzle)) == puzzle


@pytest.mark.parametrize("name", ["non", "webpbn", "json"])
def test_descriptions_round_trip(name: str) -> None:
    goal = simpson_goal()
    meta = {"author": 'Ann "A" <Smith>', "copyright": "© 2024 & later"}
    puzzle = make_puzzle(SIMPSON_ROWS, SIMPSON_COLS, title="Café ünïcode", meta=meta, goal=goal)
    again = NOTATIONS[name].parse(NOTATIONS[name].write(puzzle))
    assert again.title == puzzle.title
    assert again.meta == meta
    assert again.goal == goal


@pytest.mark.parametrize("name", ["webpbn", "non", "mk", "nin"])
def test_windows_line_ends_read_alike_and_errors_keep_their_line(name: str) -> None:
    written = NOTATIONS[name].write(simpson())
    assert NOTATIONS[name].parse(written.replace("\n", "\r\n")) == simpson()
    # Spoil the clue "1 2" of row 4, however the notation writes it.
    lines = written.split("\n")
    line = next(
        i
        for i, text in enumerate(lines)
        if "1,2" in text or "1 2" in text or "<count>1</count><count>2" in text
    )
    lines[line] = lines[line].replace("2", "q", 1)
    with pytest.raises(FormatError) as caught:
        NOTATIONS[name].parse("\r\n".join(lines))
    assert caught.value.line == line + 1


@st.composite
def grids(draw: st.DrawFn) -> Grid:
    width = draw(st.integers(1, 12))
    height = draw(st.integers(1, 12))
    rows = draw(
        st.lists(
            st.lists(st.booleans(), min_size=width, max_size=width),
            min_size=height,
            max_size=height,
        )
    )
    return Grid.from_rows([[FILLED if cell else EMPTY for cell in row] for row in rows])


@settings(max_examples=150, deadline=None)
@given(grids())
def test_any_grid_round_trips_through_every_notation(grid: Grid) -> None:
    rows, cols = clues_of(grid)
    puzzle = make_puzzle(rows, cols)
    for notation in NOTATIONS.values():
        written = notation.write(puzzle)
        again = notation.parse(written)
        assert (again.rows, again.cols) == (rows, cols), notation.name
        assert detect(written).name == notation.name


def test_real_files_round_trip_through_every_notation(puzzle_data: Path) -> None:
    paths = sorted((puzzle_data / "nonogram" / "jwilk").glob("*.json"))
    assert paths
    for path in paths:
        puzzle = read_any(path.read_text(), filename=path.name)
        for name in NEW_NOTATIONS:
            notation = NOTATIONS[name]
            again = notation.parse(notation.write(puzzle))
            assert (again.rows, again.cols) == (puzzle.rows, puzzle.cols), (path.name, name)


# --- detection ----------------------------------------------------------------------------

EXTENSIONS = {
    "json": "p.json",
    "webpbn": "p.XML",
    "puzzlink": "p.url",
    "tatham": "p.pattern",
    "non": "p.non",
    "mk": "p.mk",
    "nin": "p.nin",
    "clues": "p.clues",
    "pynogram": "p.toml",
}


@pytest.mark.parametrize("name", list(NOTATIONS))
def test_detect_from_content(name: str) -> None:
    for puzzle in (simpson(), with_empty_lines()):
        assert detect(NOTATIONS[name].write(puzzle)).name == name


@pytest.mark.parametrize("name", list(NOTATIONS))
def test_detect_from_file_name(name: str) -> None:
    # The file name wins over content that looks like another notation.
    assert detect("4x4:2/1/2/1/1.1/2/1/1", EXTENSIONS[name]).name == name


@pytest.mark.parametrize(
    ("text", "name"),
    [
        (WEBPBN_EXAMPLE, "webpbn"),
        ("  4x4:2/1/2/1/1.1/2/1/1", "tatham"),
        ("title x\nwidth 4\nheight 5\n", "non"),
        ("rows\n1\ncolumns\n1\n", "non"),
        ("3 3\n1\n1\n1\n#\n1\n1\n1\n", "mk"),
        ("3 3\n1\n1\n1\n1\n1\n1\n", "nin"),
        ("rows: 1,1\ncols: 1,1\n", "clues"),
        ("3 3,5 7 5\n4,2 2\n", "clues"),
    ],
)
def test_detect_examples(text: str, name: str) -> None:
    assert detect(text).name == name


# --- errors -------------------------------------------------------------------------------

ERRORS = [
    # (notation, text, words the message must contain)
    ("tatham", "4x4:2/1/x/1/1.1/2/1/1", ["line 1, column 9", "column 3", "'x'"]),
    ("tatham", "4x4:2/1/2/1/1.1/2/1", ["line 1, column 5", "4 row clues", "has 7"]),
    ("tatham", "4 by 4: 2/1", ["line 1, column 1", "starts with its size"]),
    ("tatham", "2x2:1/1/1/1,a1", ["line 1, column 14", "'1'"]),
    ("webpbn", "<puzzleset>\n<puzzle>\n<title>x</puzzle>", ["line 3, column 11", "mismatched"]),
    (
        "webpbn",
        WEBPBN_EXAMPLE.replace("<count>5</count>", "<count>five</count>"),
        ["line 14", "column 1", "'five'"],
    ),
    (
        "webpbn",
        WEBPBN_EXAMPLE.replace("<line><count>4</count></line>\n</clues>", "</clues>"),
        ["row 1", "the row has 3"],
    ),
    (
        "webpbn",
        WEBPBN_EXAMPLE.replace("<count>3</count>", '<count color="red">3</count>'),
        ["line 24", "'red'", "no <color"],
    ),
    ("webpbn", "<puzzleset></puzzleset>", ["line 1", "no <puzzle>"]),
    ("webpbn", WEBPBN_EXAMPLE.replace("|X..X|\n|X..X|", "|X..X|\n|X.X|"), ["line 30", "3 cells"]),
    ("non", "width 4\nheight 5\nrows\n4\n1,1\n1,x\n1,2\n3\n", ["line 6, column 3", "'x'"]),
    ("non", "width 4\nrows\n4\n", ["line 2", "before the height"]),
    ("non", "width 4\nheight 2\nrows\n4\n", ["line 4", "expected 2 row rules"]),
    ("non", "width 4\nheight 2\nrow\n4\n1\n", ["line 4, column 1", "not under a 'rows'"]),
    ("non", "width 2\nheight 1\nrows\n1a,1b\n", ["line 4, column 4", "colour"]),
    ("non", 'width 1\nheight 1\ntitle "open\nrows\n1\ncolumns\n1\n', ["line 3", "quote"]),
    ("non", "width 1\nheight 1\nrows\n1\ncolumns\n1\ngoal 10\n", ["line 7", "2 cells"]),
    ("mk", "2 2\n1\n1\n1\n1\n", ["line 5", "no line '#'"]),
    ("mk", "2 2\n1\n1 x\n#\n2\n0\n", ["line 3, column 3", "row 2", "'x'"]),
    ("mk", "2 2\n1\n1\n1\n#\n2\n0\n", ["line 4", "one too many"]),
    ("mk", "two 2\n", ["line 1, column 1", "'two'"]),
    ("nin", "2 2\n1\n1\n2\n", ["line 4", "expected 4 clue lines", "found only 3"]),
    ("nin", "2 2 2\n1\n1\n2\n0\n", ["line 1", "width and the height"]),
    ("nin", "2 2\n1\n1\n2\n-1\n", ["line 5, column 1", "'-1'"]),
    ("puzzlink", "https://puzz.link/p?nonogram/6/6/12g1111h1X", ["line 1, column 43", "'X'"]),
    ("puzzlink", "https://puzz.link/p?nonogram/2/2/1.", ["column 35", "unknown '?'"]),
    ("puzzlink", "https://puzz.link/p?nonogram/2/2/-1", ["column 34", "2 hex digits"]),
    ("puzzlink", "https://puzz.link/p?nonogram/2/2/z1", ["column 35", "left over"]),
    ("puzzlink", "https://puzz.link/p?nonogram/x/2/", ["column 30", "number of columns"]),
    ("puzzlink", "https://puzz.link/p?sudoku/9/9/", ["column 21", "'sudoku'"]),
]


@pytest.mark.parametrize(
    ("name", "text", "words"), ERRORS, ids=[f"{e[0]}-{i}" for i, e in enumerate(ERRORS)]
)
def test_malformed_input_says_what_and_where(name: str, text: str, words: list[str]) -> None:
    with pytest.raises(PuzzleError) as caught:
        NOTATIONS[name].parse(text)
    message = str(caught.value)
    for word in words:
        assert word in message, message


def test_webpbn_parse_error_carries_line_and_column() -> None:
    with pytest.raises(FormatError) as caught:
        webpbn.parse("<puzzleset>\n  <puzzle>\n  </puzzleset>")
    assert (caught.value.line, caught.value.column) == (3, 5)


def test_puzzlink_size_limit_is_checked_before_decoding() -> None:
    with pytest.raises(LimitExceeded, match="999999x999999"):
        puzzlink.parse("p?nonogram/999999/999999/z")


@pytest.mark.parametrize("name", NEW_NOTATIONS)
@pytest.mark.parametrize(
    "text", ["", "\n", "²", "9" * 5000, "<", "0 0\n", "1 1\n\n", "\x00", "nonogram/"]
)
def test_odd_input_gives_a_puzzle_error_not_a_crash(name: str, text: str) -> None:
    with pytest.raises(PuzzleError):
        NOTATIONS[name].parse(text)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_mangled_files_give_a_puzzle_or_a_puzzle_error(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(NEW_NOTATIONS))
    text = NOTATIONS[name].write(
        make_puzzle(SIMPSON_ROWS, SIMPSON_COLS, title="t", goal=simpson_goal())
    )
    position = data.draw(st.integers(0, len(text)))
    cut = data.draw(st.integers(0, 3))
    insert = data.draw(st.text(alphabet="0123456789abxz#|<>/.,-+? \n&;\"'²", max_size=3))
    mangled = text[:position] + insert + text[position + cut :]
    with contextlib.suppress(PuzzleError):
        NOTATIONS[name].parse(mangled)
