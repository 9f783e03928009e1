"""The generator: unique puzzles (our solver and a brute force), reproducible, graded, and
reachable from the command line with clear errors."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from typing import Any

import pytest

import pencilbox
from pencilbox.cli import main
from pencilbox.core.seeds import attempt_seed
from pencilbox.errors import PuzzleError
from pencilbox.genres.nonogram.generate import generate
from pencilbox.genres.nonogram.logic import propagate_all
from pencilbox.genres.nonogram.model import (
    UNKNOWN,
    Clue,
    Nonogram,
    grid_from_strings,
    grid_to_strings,
    runs_of,
)
from pencilbox.genres.nonogram.solve import solve


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Two results agree on everything but the time taken."""
    return {k: v for k, v in a.items() if k != "time_s"} == {
        k: v for k, v in b.items() if k != "time_s"
    }


@pytest.mark.parametrize(
    ("size", "seed"), [("2x2", 1), ("5x5", 2), ("10x10", 3), ("15x10", 4), (12, 5), ("20x20", 6)]
)
def test_the_solver_proves_the_returned_solution_unique(size: Any, seed: int) -> None:
    made = generate(size=size, seed=seed)
    puzzle: Nonogram = made["puzzle"]
    result = solve(puzzle, limit=2)
    assert result.status == "unique"
    assert grid_to_strings(result.solutions[0]) == made["solution"]
    assert made["clues"] == {
        "rows": [list(c) for c in puzzle.rows],
        "cols": [list(c) for c in puzzle.cols],
    }
    w, h = (size, size) if isinstance(size, int) else map(int, size.split("x"))
    assert made["size"] == f"{w}x{h}" and (puzzle.width, puzzle.height) == (w, h)
    assert made["seed"] == seed and made["grade"] == result.grade


def _brute_force_count(rows: tuple[Clue, ...], cols: tuple[Clue, ...]) -> int:
    """Grids that fit the clues, by trying every grid (independent of the solver)."""
    w = len(cols)
    count = 0
    for cells in itertools.product((1, 2), repeat=w * len(rows)):
        lines = [cells[r * w : (r + 1) * w] for r in range(len(rows))]
        if all(runs_of(line) == clue for line, clue in zip(lines, rows)) and all(
            runs_of(cells[c::w]) == clue for c, clue in enumerate(cols)
        ):
            count += 1
    return count


@pytest.mark.parametrize("seed", range(6))
def test_small_puzzles_are_unique_by_brute_force(seed: int) -> None:
    made = generate(size="4x3", seed=seed, density=0.5)
    puzzle = made["puzzle"]
    assert _brute_force_count(puzzle.rows, puzzle.cols) == 1


def test_the_seed_reproduces_the_puzzle() -> None:
    first = generate(size="12x9", seed=11, density=0.4)
    assert _same(first, generate(size="12x9", seed=11, density=0.4))
    assert first["solution"] != generate(size="12x9", seed=12, density=0.4)["solution"]
    # The CLI hands seeds over as numbers or text alike.
    assert _same(first, generate(size="12X9", seed="11", density="0.4"))


def test_density_is_near_the_requested_ratio() -> None:
    for density in (0.3, 0.5, 0.7):
        made = generate(size="20x20", seed=1, density=density)
        assert abs(made["density"] - density) < 0.05
        filled = sum(row.count("#") for row in made["solution"])
        assert made["density"] == round(filled / 400, 3)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_grade_line_is_solvable_by_line_logic_alone(seed: int) -> None:
    made = generate(size="15x15", seed=seed, grade="line")
    puzzle = made["puzzle"]
    cells = [UNKNOWN] * (puzzle.width * puzzle.height)
    assert propagate_all(puzzle, cells) is None and UNKNOWN not in cells
    assert grid_to_strings(grid_from_strings(made["solution"])) == made["solution"]
    assert cells == list(grid_from_strings(made["solution"]).cells)
    assert made["grade"] == "line" == puzzle.grade()


def test_grade_probe_tries_further_seeds_and_reports_the_one_that_fits() -> None:
    made = generate(size="15x15", seed=3, grade="probe", density=0.3)
    assert made["grade"] == "probe" == made["puzzle"].grade()
    assert made["attempts"] == 2  # seed 3 alone is of another grade: a retry made it
    assert made["seed"] == attempt_seed(3, 1)  # not 4, the next puzzle of a batch
    # That seed alone, without a grade, makes the same puzzle.
    assert generate(size="15x15", seed=made["seed"], density=0.3)["solution"] == made["solution"]


def test_an_unreachable_grade_says_so() -> None:
    expected = "no 3x3 Nonogram of grade 'search' in 4 attempts from seed 1"
    with pytest.raises(PuzzleError, match=expected):
        generate(size="3x3", seed=1, grade="search", attempts=4)


def test_the_text_reads_back_as_the_same_clues() -> None:
    for size, seed in (("2x2", 3), ("7x4", 1), ("25x25", 2)):
        made = generate(size=size, seed=seed)
        again = pencilbox.load(made["text"])
        assert again.genre == "nonogram"
        assert (again.rows, again.cols) == (made["puzzle"].rows, made["puzzle"].cols)


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        (["--size", "1x5"], "each side must be 2 to 100"),
        (["--size", "101x5"], "each side must be 2 to 100"),
        (["--size", "axb"], "--size must be WxH"),
        (["--grade", "easy"], "unknown Nonogram grade 'easy'; choose one of line, probe, search"),
        (["--density", "0"], "--density must be above 0 and below 1"),
        (["--density", "1.5"], "--density must be above 0 and below 1"),
        (["--density", "nan"], "--density must be above 0 and below 1"),
        (["--density", "lots"], "--density must be a number"),
        (["--seed", "x"], "--seed must be a whole number"),
        (["--attempts", "0"], "--attempts must be at least 1"),
        (["--colour", "red"], "unknown option(s) --colour"),
    ],
)
def test_bad_options_exit_2_with_a_sentence(
    options: list[str], fragment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["generate", "nonogram", *options]) == 2
    captured = capsys.readouterr()
    assert fragment in captured.err and not captured.out


def test_the_command_as_a_user_runs_it() -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "pencilbox.cli", "generate", "nonogram", *args]
        return subprocess.run(command, capture_output=True, text=True, timeout=300)

    made = run("--size", "15x10", "--seed", "7", "--grade", "line", "--density", "0.45", "--json")
    assert made.returncode == 0, made.stderr
    data = json.loads(made.stdout)
    assert {"clues", "solution", "grade", "seed", "time_s", "size", "genre", "text"} <= set(data)
    assert data["genre"] == "nonogram" and data["grade"] == "line" and data["size"] == "15x10"
    assert len(data["solution"]) == 10 and all(len(row) == 15 for row in data["solution"])
    text = run("--size", "15x10", "--seed", str(data["seed"]), "--density", "0.45")
    assert text.returncode == 0
    # The clue lines, a blank line, the picture, then the details.
    assert text.stdout.startswith(data["text"] + "\n" + "\n".join(data["solution"]) + "\n")
    assert "grade line" in text.stdout and "clues" not in text.stdout
    bad = run("--density", "2")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and "--density" in bad.stderr
