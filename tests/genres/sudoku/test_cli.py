"""The Sudoku command-line contract, by running the command as a user would."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import TEST_DATA

DATA = TEST_DATA / "sudoku"
HARD = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
KEYS = {"file", "line", "status", "solutions", "grade", "time_s", "stats", "error"}


def pencilbox(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pencilbox.cli", *args], capture_output=True, text=True, timeout=300
    )


def _list(tmp_path: Path) -> Path:
    lines = (DATA / "17clue_2000.txt").read_text().splitlines()[:6]
    bad = HARD[:-1]
    text = "# a list\n" + "\n".join(lines[:3]) + f"\n{bad}\n" + "\n".join(lines[3:]) + "\n"
    path = tmp_path / "list.txt"
    path.write_text(text)
    return path


def test_jsonl_batch_keeps_going_after_a_bad_line(tmp_path: Path) -> None:
    path = _list(tmp_path)
    run = pencilbox("solve", str(path), "--jsonl")
    assert run.returncode == 2
    assert "Traceback" not in run.stderr
    records = [json.loads(line) for line in run.stdout.splitlines()]
    assert [r["line"] for r in records] == [2, 3, 4, 5, 6, 7, 8]
    assert all(set(r) == KEYS for r in records)
    bad = records[3]
    assert bad["status"] == "error" and bad["error"] == "line 5: 80 cells, a 9x9 sudoku needs 81"
    good = [r for r in records if r["status"] != "error"]
    assert all(r["status"] == "unique" and len(r["solutions"][0]) == 81 for r in good)
    parallel = pencilbox("solve", str(path), "--jsonl", "--jobs", "2")
    assert parallel.returncode == 2
    again = [json.loads(line) for line in parallel.stdout.splitlines()]
    assert [(r["line"], r["status"], r["solutions"]) for r in again] == [
        (r["line"], r["status"], r["solutions"]) for r in records
    ]


def test_bad_single_puzzles_exit_2_without_traceback(tmp_path: Path) -> None:
    cases = {
        "short.txt": HARD[:-1] + "\n",
        "dup.sdk": "\n".join(["7" + "." * 7 + "7"] + ["." * 9] * 8) + "\n",
        "letters.txt": HARD[:10] + "Q" + HARD[11:] + "\n",
    }
    for name, text in cases.items():
        path = tmp_path / name
        path.write_text(text)
        run = pencilbox("solve", str(path))
        assert run.returncode == 2, name
        assert "Traceback" not in run.stderr and run.stderr.startswith("pencilbox: "), name
    run = pencilbox("check", str(tmp_path / "dup.sdk"))
    assert run.returncode == 2 and "row 1 has two 7s: r1c1 and r1c9" in run.stderr


def test_solve_one_sudoku_in_several_formats(tmp_path: Path) -> None:
    sdk = tmp_path / "one.sdk"
    sdk.write_text("#Dhard\n" + "\n".join(HARD[r * 9 : r * 9 + 9] for r in range(9)) + "\n")
    run = pencilbox("solve", str(sdk), "--jsonl")
    assert run.returncode == 0
    record = json.loads(run.stdout)
    assert record["status"] == "unique" and record["line"] == 2
    url = pencilbox("solve", "p?sudoku/9/9/4i3m6h8p1j5h9h8j6i7g2n1g27h5g3j4g9n", "--json")
    assert url.returncode == 0
    assert json.loads(url.stdout)["solutions"] == record["solutions"]


def test_generate_command() -> None:
    run = pencilbox("generate", "sudoku", "--seed", "7", "--symmetry", "mirror", "--json")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["seed"] == 7 and data["symmetry"] == "mirror" and len(data["line"]) == 81
    again = pencilbox("generate", "sudoku", "--seed", "7", "--symmetry", "mirror", "--json")
    assert json.loads(again.stdout)["line"] == data["line"]
    text = pencilbox("generate", "sudoku", "--seed", "7")
    assert text.returncode == 0 and "*-----------*" in text.stdout
    bad = pencilbox("generate", "sudoku", "--size", "10")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    unknown = pencilbox("generate", "sudoku", "--colour", "red")
    assert unknown.returncode == 2 and "unknown option --colour" in unknown.stderr


def test_the_bad_input_table_through_the_command(tmp_path: Path) -> None:
    from tests.genres.sudoku.test_formats import BAD

    suffix = {None: ".txt", "sdk": ".sdk", "ss": ".ss"}
    paths = []
    for index, (text, format, _) in enumerate(BAD):
        kind = ".csv" if text.startswith("quizzes") else suffix[format]
        path = tmp_path / f"bad{index:02}{kind}"
        path.write_text(text)
        paths.append(str(path))
    run = pencilbox("solve", *paths, "--jsonl")
    assert run.returncode == 2
    assert "Traceback" not in run.stderr
    records = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(records) == len(BAD)
    for record, (_, _, message) in zip(records, BAD):
        assert record["status"] == "error"
        assert message in record["error"], (record["file"], record["error"])
