"""The picture benchmark's scoring (bench/read.py): a reading is exact, flagged (every wrong
number among its doubts), partly flagged or silently wrong. The table's honesty rests on
the places of the truth's differences and the reader's doubts being named alike."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

from pencilbox.genres.dbchoco.model import make_puzzle
from tests.benches import load_bench


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_bench("read")


def _record(genre: str, status: str, puzzle: Any, uncertain: list[dict[str, Any]]) -> Any:
    return {"genre": genre, "status": status, "puzzle": puzzle, "uncertain": uncertain}


def _cell(row: int, col: int) -> dict[str, Any]:
    return {"cell": f"r{row}c{col}", "row": row, "col": col, "read": None}


SUDOKU = "1" + "." * 80


def test_sudoku_given_read_as_blank_is_flagged_only_when_its_cell_is_doubted(
    bench: ModuleType,
) -> None:
    truth = {"genre": "sudoku", "size": 9, "givens": SUDOKU}
    blank = {"givens": "." * 81}
    assert bench.judge(_record("sudoku", "ok", {"givens": SUDOKU}, []), truth) == "exact"
    assert bench.judge(_record("sudoku", "uncertain", blank, [_cell(1, 1)]), truth) == "flagged"
    assert bench.judge(_record("sudoku", "uncertain", blank, [_cell(1, 2)]), truth) == "partly"
    assert bench.judge(_record("sudoku", "ok", blank, []), truth) == "silent"
    wrong_row = "." * 9 + "1" + "." * 71  # the same digit one row down
    assert (
        bench.judge(_record("sudoku", "uncertain", {"givens": wrong_row}, [_cell(1, 1)]), truth)
        == "partly"
    )


def _dbchoco(colours: list[str], numbers: list[list[int | None]]) -> str:
    gray = [[ch == "g" for ch in row] for row in colours]
    return str(make_puzzle(gray, numbers, max_size=None).to("url").strip())


def test_dbchoco_wrong_colour_counts_as_flagged_when_the_reader_doubts_that_cell(
    bench: ModuleType,
) -> None:
    colours = ["wwgg", "wwgg", "wwgg", "wwgg"]
    numbers: list[list[int | None]] = [[4, None, None, None]] + [[None] * 4 for _ in range(3)]
    truth = {"genre": "dbchoco", "colors": colours, "numbers": numbers}
    misread = _dbchoco(["wwgg", "wwgg", "wwgw", "wwgg"], numbers)  # r3c4 read white
    doubts = [_cell(3, 4)]
    assert bench.judge(_record("dbchoco", "uncertain", {"url": misread}, doubts), truth) == (
        "flagged"
    )
    assert bench.judge(_record("dbchoco", "uncertain", {"url": misread}, [_cell(3, 3)]), truth) == (
        "partly"
    )
    assert bench.judge(_record("dbchoco", "ok", {"url": misread}, []), truth) == "silent"
    # a wrong number is a wrong cell too
    other = _dbchoco(colours, [[3, None, None, None]] + [[None] * 4 for _ in range(3)])
    record = _record("dbchoco", "uncertain", {"url": other}, [_cell(1, 1)])
    assert bench.judge(record, truth) == "flagged"
    exact = _record("dbchoco", "uncertain", {"url": _dbchoco(colours, numbers)}, doubts)
    assert bench.judge(exact, truth) == "exact-doubted"


def test_nonogram_lines_and_refusals(bench: ModuleType) -> None:
    truth = {"genre": "nonogram", "rows": [[1], [2]], "cols": [[2], [1]]}
    misread = {"rows": [[1], [2]], "cols": [[2], [2]]}
    doubt = {"clue": "column 2", "index": 1, "read": 2}
    assert bench.judge(_record("nonogram", "uncertain", misread, [doubt]), truth) == "flagged"
    row_doubt = dict(doubt, clue="row 2")
    assert bench.judge(_record("nonogram", "uncertain", misread, [row_doubt]), truth) == "partly"
    refused = _record("", "error", None, [])
    assert bench.judge(refused, truth) == "error"
    # another genre read is wrong, whatever is doubted
    sudoku = _record("sudoku", "uncertain", {"givens": SUDOKU}, [_cell(1, 1)])
    assert bench.judge(sudoku, truth) == "partly"


def test_the_targets_say_what_counts_as_flagged(bench: ModuleType) -> None:
    outcomes = {
        "clean-style": ["exact", "exact-doubted", "flagged"],
        "photo-style": ["exact", "flagged", "error", "partly", "silent"],
    }
    kinds = {"clean-style": ("sudoku", "clean"), "photo-style": ("sudoku", "photo")}
    table = "\n".join(bench._summary(outcomes, kinds))
    assert "| >= 99% exactly right on clean screenshots | 2/3 (66.7%) | no |" in table
    assert "3/5 (60.0%): 1 exact, 1 flagged, 1 refused with an error | no |" in table
    assert "| 0 silently wrong | 1 of 8 | no |" in table


@pytest.mark.parametrize("failures", [["--failures", "/some/folder"], ["--failures=/some/folder"]])
def test_the_header_names_the_command_but_not_where_failures_went(
    bench: ModuleType, monkeypatch: pytest.MonkeyPatch, failures: list[str]
) -> None:
    monkeypatch.setattr("sys.argv", ["bench/read.py", "--count", "30", *failures])
    header = bench.Run(30, 1000).finish().describe()
    assert "`python bench/read.py --count 30`" in header
    assert "folder" not in header
    assert "seeds 1000-1029" in header
