"""The command line's side of "every bad input is a clean error" (issue 10), run as a user would:
exit status 2 and one line for bad input, the batch going on after a bad file, 130 after
Ctrl-C, option values refused, time limits that hold."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from pencilbox import cli
from pencilbox.core import timing
from pencilbox.errors import MAX_MESSAGE
from pencilbox.genres.base import SolveResult
from pencilbox.genres.nonogram.model import Nonogram
from tests.conftest import TEST_DATA
from tests.reproducers import REPRODUCERS, Reproducer
from tests.test_cli import _wait_for_cpu_seconds

SEED_A = TEST_DATA / "nonogram/seed/seed-a.json"
HARD = TEST_DATA / "nonogram/pynogram-examples/frans_faase.json"  # 95x80: minutes to solve
SUDOKU = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"


CLI = (sys.executable, "-m", "pencilbox.cli")


def pencilbox(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=300)


def one_line_error(run: subprocess.CompletedProcess[str], fragment: str) -> None:
    assert run.returncode == 2, (run.returncode, run.stderr)
    assert "Traceback" not in run.stderr
    assert run.stderr.startswith("pencilbox: ") and run.stderr.count("\n") == 1, run.stderr
    assert fragment in run.stderr, run.stderr


def test_convert_into_a_missing_folder(tmp_path: Path) -> None:
    run = subprocess.run(
        [*CLI, "convert", str(SEED_A), "--to", "json", "-o", "no/such/x.json"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    one_line_error(run, "cannot write no/such/x.json: No such file or directory")


def test_a_long_folder_name_does_not_cost_the_message_its_reason(tmp_path: Path) -> None:
    folder = tmp_path / ("a-folder-with-a-long-name-" * 6)
    folder.mkdir()
    bad = folder / "garbage.json"
    bad.write_text("{not json")
    run = pencilbox("solve", str(bad))
    one_line_error(run, "garbage.json, line 1, column 2: not valid JSON")


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        (["sudoku", "--size", "abc"], "--size must be a whole number, got 'abc'"),
        (["sudoku", "--size", "²"], "--size must be a whole number, got '²'"),
        (["sudoku", "--seed", "1.5"], "--seed must be a whole number, got '1.5'"),
        (["sudoku", "--max-attempts", "0"], "--max-attempts must be at least 1, got 0"),
        (["dbchoco", "--seed", "abc"], "--seed must be a whole number, got 'abc'"),
        (["dbchoco", "--attempts", "x"], "--attempts must be a whole number, got 'x'"),
        (["nonogram", "--seed", "①"], "--seed must be a whole number, got '①'"),
    ],
)
def test_generator_options_of_the_wrong_type(
    options: list[str], fragment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["generate", *options]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"pencilbox: {fragment}\n" and not captured.out


@pytest.mark.parametrize(
    "option",
    [
        ["--limit", "0"],
        ["--limit", "-5"],
        ["--limit", "²"],
        ["--max-size", "-1"],
        ["--max-size", "0"],
        ["--jobs", "0"],
        ["--time-limit", "-1"],
        ["--time-limit", "nan"],
        ["--time-limit", "inf"],
    ],
)
def test_out_of_range_options_are_refused(
    option: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli.main(["solve", str(SEED_A), *option])
    assert stopped.value.code == 2
    error = capsys.readouterr().err
    assert f"argument {option[0]}:" in error and "Traceback" not in error


def test_a_folder_batch_reads_every_notation_and_goes_on_after_bad_files(tmp_path: Path) -> None:
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "a-seed.json").write_text(SEED_A.read_text())
    (folder / "b.sdk").write_text("\n".join(SUDOKU[r * 9 : r * 9 + 9] for r in range(9)) + "\n")
    rows = [SUDOKU[r * 9 : r * 9 + 9] for r in range(9)]
    picture = ["|" + "|".join(row[b * 3 : b * 3 + 3] for b in range(3)) + "|" for row in rows]
    border = "*-----------*"
    (folder / "c.ss").write_text("\n".join([border, *picture, border]) + "\n")
    (folder / "d.sdm").write_text(f"{SUDOKU.replace('.', '0')}\n{SUDOKU}\n")
    (folder / "e.csv").write_text(f"quizzes,solutions\n{SUDOKU.replace('.', '0')},\n")
    (folder / "f-digits.json").write_text('{"rows": [[' + "9" * 5000 + ']], "cols": [[1]]}')
    (folder / "g-nested.json").write_text('{"rows": ' + "[" * 5000 + "]" * 5000 + "}")
    (folder / "h-super.pzpr").write_text("pzprv3\ndbchoco\n²\n2\n. .\n. .\n")
    (folder / "notes.md").write_text("not a puzzle file")
    run = pencilbox("solve", str(folder), "--jsonl")
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    records = [json.loads(line) for line in run.stdout.splitlines()]
    by_file = {Path(r["file"]).name: r for r in records}
    assert sorted(by_file) == [
        "a-seed.json",
        "b.sdk",
        "c.ss",
        "d.sdm",
        "e.csv",
        "f-digits.json",
        "g-nested.json",
        "h-super.pzpr",
    ]
    assert [r["line"] for r in records if Path(r["file"]).name == "d.sdm"] == [1, 2]
    for record in records:
        name = Path(record["file"]).name
        if name[0] in "abcde":
            assert record["status"] == "unique", record
        else:
            assert record["status"] == "error" and len(record["error"]) <= 2 * MAX_MESSAGE
    assert "5000 digits" in by_file["f-digits.json"]["error"]
    assert "nested too deeply" in by_file["g-nested.json"]["error"]
    assert "not a whole number" in by_file["h-super.pzpr"]["error"]


def test_a_file_that_raises_is_reported_and_the_batch_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The two safety nets: a parser that lets a ValueError slip (bad input, exit 2) and a
    solver that fails (an internal error, exit 1) each end one record, not the batch."""
    for name in ("a.json", "b.json", "c.json"):
        (tmp_path / name).write_text(SEED_A.read_text())
    real_load, real_solve = cli.pencilbox.load, Nonogram.solve

    def load(item: Any, **options: Any) -> Any:
        if Path(item).name == "a.json":
            raise RecursionError("maximum recursion depth exceeded")
        return real_load(item, **options)

    def solve(
        self: Nonogram, limit: int = 2, time_limit: float | None = None, *, grade: bool = True
    ) -> SolveResult:
        if self.title == "broken":
            raise RuntimeError("a solver bug")
        return real_solve(self, limit, time_limit, grade=grade)

    monkeypatch.setattr(cli.pencilbox, "load", load)
    monkeypatch.setattr(Nonogram, "solve", solve)
    data = json.loads(SEED_A.read_text())
    (tmp_path / "b.json").write_text(json.dumps({**data, "name": "broken"}))
    assert cli.main(["solve", str(tmp_path), "--jsonl"]) == 2
    captured = capsys.readouterr()
    records = [json.loads(line) for line in captured.out.splitlines()]
    assert [(Path(r["file"]).name, r["status"]) for r in records] == [
        ("a.json", "error"),
        ("b.json", "error"),
        ("c.json", "unique"),
    ]
    assert records[0]["error"].endswith(
        "a.json: cannot read it (RecursionError: maximum recursion depth exceeded)"
    )
    assert records[1]["error"] == "internal error: RuntimeError: a solver bug"
    assert cli.main(["solve", str(tmp_path / "b.json")]) == 1
    assert capsys.readouterr().err == "pencilbox: internal error: RuntimeError: a solver bug\n"


def test_a_huge_clue_line_gives_a_short_message(tmp_path: Path) -> None:
    path = tmp_path / "huge.clues"
    path.write_text("rows: " + " ".join(["1"] * 900_000) + "\ncols: 1\n")  # 1.8 MB
    run = pencilbox("solve", str(path))
    one_line_error(run, "needs 1799999 cells, the row has 1")
    assert len(run.stderr) < len(str(path)) + MAX_MESSAGE


def test_solve_steps_and_search_share_one_deadline(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`solve --steps --time-limit 3` once took 6.5 s: the steps and the search each had 3."""
    clock = [1000.0]
    limits: dict[str, float | None] = {}
    fake_time = SimpleNamespace(monotonic=lambda: clock[0], perf_counter=lambda: clock[0])
    monkeypatch.setattr(timing, "time", fake_time)

    def steps(self: Nonogram, time_limit: float | None = None) -> list[Any]:
        limits["steps"] = time_limit
        clock[0] += 2.5  # the steps used 2.5 s of the 3
        return []

    def solve(
        self: Nonogram, limit: int = 2, time_limit: float | None = None, *, grade: bool = True
    ) -> SolveResult:
        limits["solve"] = time_limit
        return SolveResult("timeout", [], None, time_s=time_limit or 0.0)

    monkeypatch.setattr(Nonogram, "steps", steps)
    monkeypatch.setattr(Nonogram, "solve", solve)
    assert cli.main(["solve", str(SEED_A), "--steps", "--time-limit", "3"]) == 0
    assert limits == {"steps": 3.0, "solve": 0.5}
    assert "stopped after 0.5 s" in capsys.readouterr().out


def test_render_solved_and_grade_honour_a_time_limit(tmp_path: Path) -> None:
    out = tmp_path / "hard.svg"
    run = pencilbox(
        "render", str(HARD), "--state", "solved", "--time-limit", "1", "--svg", str(out)
    )
    assert run.returncode == 0, run.stderr
    assert "no solution within" in run.stderr and out.read_text().startswith("<svg")
    graded = pencilbox("grade", str(HARD), "--time-limit", "1", "--jsonl")
    assert graded.returncode == 0, graded.stderr
    record = json.loads(graded.stdout)
    assert record["timeout"] is True and record["level"] is None
    assert record["time_s"] < 60  # stopped, not left to run for minutes
    text = pencilbox("grade", str(HARD), "--time-limit", "0.5")
    assert text.stdout.startswith("no grade within the time limit")


@pytest.mark.parametrize(
    "verb",
    [["check"], ["explain"], ["render", "--state", "solved"], ["solve", "--steps"]],
    ids=lambda verb: " ".join(verb),
)
def test_ctrl_c_ends_with_status_130(verb: list[str]) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "pencilbox.cli", verb[0], str(HARD), *verb[1:]],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        _wait_for_cpu_seconds(process.pid, 1.5)  # past start-up, in the work
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 130, err
    assert err.endswith("pencilbox: interrupted\n") and "Traceback" not in err


@pytest.mark.parametrize("case", REPRODUCERS, ids=lambda case: case.name)
def test_the_audits_inputs_are_exit_2_in_one_line(
    case: Reproducer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each bad input of the audit, as a file on the command line (or a typed URL), is exit
    status 2 and one short line naming it, for solve and for check."""
    target = case.text if case.argument else str(tmp_path / case.filename)
    if not case.argument:
        (tmp_path / case.filename).write_bytes(case.data)
    for verb in ("solve", "check"):
        assert cli.main([verb, target]) == 2, verb
        out, err = capsys.readouterr()
        assert err.startswith("pencilbox: ") and err.count("\n") == 1, err[:300]
        assert len(err) <= len("pencilbox: ") + len(str(tmp_path)) + MAX_MESSAGE + 40, err
        assert "Traceback" not in out + err


@pytest.mark.parametrize(
    ("rows", "where"),
    [("-1", "line 5, column 1: row 1: the run '-1'"), ("2,-1", "line 5, column 3: row 1: the run")],
)
def test_a_negative_non_clue_is_named_on_its_line(tmp_path: Path, rows: str, where: str) -> None:
    path = tmp_path / "negative.non"
    path.write_text(f"width 3\nheight 1\n\nrows\n{rows}\ncolumns\n1\n0\n0\n")
    run = pencilbox("solve", str(path))
    one_line_error(run, where)
    assert "is negative" in run.stderr
