"""The complete search: verdicts and answers of the shared puzzles, and tiny hand cases."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

import pencilbox
from pencilbox.core.timing import Stats
from pencilbox.genres.dbchoco.check import violations
from pencilbox.genres.dbchoco.formats import read
from pencilbox.genres.dbchoco.search import answers
from tests.genres.dbchoco._data import files, load

SLOW = {"semiexp_cspuz_core_03_10x10"}
"""~10 s CPU (30-40 s wall on the loaded shared machine): checked on its own, with a CPU-time
bound instead of a wall-clock one (bench/results/dbchoco.md measures it too)."""


@pytest.mark.parametrize(
    "path",
    [p for p in files() if p.stem not in SLOW],
    ids=lambda p: p.stem,
)
def test_shared_puzzle_verdict_and_answer(path: Path) -> None:
    data = load(path)
    puzzle = pencilbox.load(path)
    result = puzzle.solve(limit=2, time_limit=60)
    assert result.status == data["solver_status"]
    for answer in result.solutions:
        assert violations(puzzle, answer) == []
    if data["solver_status"] == "unique":
        assert result.solutions[0].to_json() == {
            key: data["answer"][key] for key in ("vertical", "horizontal")
        }
    else:
        assert len(result.solutions) == 2
        assert result.solutions[0] != result.solutions[1]
        assert result.stats["differing_edges"]
        assert result.differences()


@pytest.mark.parametrize("name", sorted(SLOW))
def test_slow_shared_puzzle(name: str) -> None:
    """Never skipped: the wall limit only guards against a hang (pytest's own is 300 s);
    the real bound is CPU time, which a loaded machine does not inflate much."""
    path = next(p for p in files() if p.stem == name)
    data = load(path)
    puzzle = pencilbox.load(path)
    cpu = time.process_time()
    result = puzzle.solve(limit=2, time_limit=240)
    assert time.process_time() - cpu < 60
    assert result.status == data["solver_status"]
    assert result.solutions[0].to_json() == {
        key: data["answer"][key] for key in ("vertical", "horizontal")
    }


@pytest.mark.parametrize("options", [{"congruence": True}, {"labels": True}])
def test_alternative_encodings_agree(options: dict[str, bool]) -> None:
    path = next(p for p in files() if p.stem == "robx_pzprjs_01_6x6")
    puzzle = pencilbox.load(path)
    found = list(answers(puzzle, 2, Stats(), **options))
    assert found == [puzzle.answer]


def test_no_answer() -> None:
    puzzle = read(". .\n# .\n", "text")  # three white cells, one gray: no block can form
    assert puzzle.solve().status == "none"


def test_solution_json_is_the_wall_strings() -> None:
    puzzle = read("1 #\n. #\n", "text")
    result = puzzle.solve()
    assert result.status == "unique"
    assert puzzle.solution_json(result.solutions[0]) == {
        "vertical": ["0", "0"],
        "horizontal": ["11"],
    }


def test_steps_explain_local_rules() -> None:
    puzzle = read("https://puzz.link/p?dbchoco/6/6/ueoq8p30g42j4n5s22j")
    steps = puzzle.steps(time_limit=60)
    assert steps and all(step.sentence for step in steps)
    assert steps[0].technique == "numbers"
    assert "different numbers" in steps[0].sentence
    # the trace ends with every edge decided, the last resort labelled as such
    decided = {e for step in steps for e, _ in step.extra.get("edges", [])}
    assert len(decided) == puzzle.geometry.count
