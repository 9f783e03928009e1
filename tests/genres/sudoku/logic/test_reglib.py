"""Each technique against its lines of the HoDoKu regression library (exact eliminations)."""

from __future__ import annotations

from collections import defaultdict

import pytest

from pencilbox.genres.sudoku.logic.reglib import LibraryLine, parse_line, read_library
from pencilbox.genres.sudoku.logic.reglib_check import check, technique_for
from tests.conftest import TEST_DATA

LIBRARY = TEST_DATA / "sudoku" / "hodoku_reglib-1.3.txt"


def _lines() -> dict[str, list[LibraryLine]]:
    by_code: dict[str, list[LibraryLine]] = defaultdict(list)
    if LIBRARY.is_file():
        for line in read_library(str(LIBRARY)):
            by_code[line.code].append(line)
    return by_code


LINES = _lines()
COVERED = sorted(code for code in LINES if technique_for(code) is not None)


def test_library_present() -> None:
    assert LIBRARY.is_file(), f"missing {LIBRARY}"
    assert len(COVERED) >= 40


# lines we know we miss (the bench report lists them): nice loops 0706/0709, where our
# breadth-first search keeps the shortest chain per pair of ends and HoDoKu's loop is another
# one; dual kites 0404 whose pairing differs; ALS-XY-Chain 0903, searched with a length and
# work limit (chains of up to 6 sets) that misses some of HoDoKu's chains
KNOWN_MISSES = {"0706": 3, "0709": 1, "0404": 2, "0903": 7, "0342": 2}


# exhaustive searches (Franken/mutant jellyfish, ALS chains) cost seconds per line: the test
# checks every third line of these, the benchmark all of them
SLOW = {"0342", "0362", "0903"}


@pytest.mark.parametrize("code", COVERED)
def test_technique_reproduces_library(code: str) -> None:
    lines = LINES[code][::3] if code in SLOW else LINES[code]
    failures = [line.text for line in lines if check(line) is False]
    allowed = KNOWN_MISSES.get(code, 0)
    assert len(failures) <= allowed, f"{len(failures)}/{len(LINES[code])} lines fail:\n" + (
        "\n".join(failures[:5])
    )


def test_parse_line_fields() -> None:
    line = parse_line(
        ":0603:3:14+8..+9+72+5.+3...89.697+6....38.+61......3+2.8.56...9......2.5+9+186....+8+3"
        "....61+6+1...35+89:224 524 225 525 135 455 755 458 758 165 168 771 284 484 784 285 "
        "485 785:364 365::"
    )
    assert line.code == "0603"
    assert line.digits == (3,)
    assert line.values[2] == 8 and line.givens[2] == 0  # '+8' is placed, not given
    assert line.values[0] == 1 and line.givens[0] == 1
    assert (1 * 9 + 3, 2) in line.deleted  # 224: digit 2 at r2c4
    assert line.eliminations == {(5 * 9 + 3, 3), (5 * 9 + 4, 3)}
    state = line.state()
    assert not state.has(1 * 9 + 3, 2)


def test_fail_case_variant() -> None:
    fails = [line for lines in LINES.values() for line in lines if line.fail_case]
    assert fails, "the library has '-x' fail cases"
    for line in fails:
        if technique_for(line.code) is not None:
            assert check(line) is not False, line.text
