"""The command-line contract, by running the command as a user would."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import TEST_DATA

SEED_A = TEST_DATA / "nonogram/seed/seed-a.json"
SEED_B = TEST_DATA / "nonogram/seed/seed-b.json"
JSONL_KEYS = {"file", "status", "solutions", "grade", "time_s", "stats", "error"}


def pencilbox(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pencilbox.cli", *args], capture_output=True, text=True, timeout=300
    )


def test_solve_prints_the_grid() -> None:
    run = pencilbox("solve", str(SEED_A))
    assert run.returncode == 0
    assert "unique solution" in run.stdout
    goal = json.loads(SEED_A.read_text())["solution"]
    assert "\n".join(goal) in run.stdout


def test_solve_jsonl_on_a_folder(tmp_path: Path) -> None:
    folder = tmp_path / "set"
    folder.mkdir()
    for source in (SEED_A, SEED_B):
        (folder / source.name).write_text(source.read_text())
    (folder / "broken.json").write_text('{"rows": [[5]], "cols": [[1]]}')
    run = pencilbox("solve", str(folder), "--jsonl")
    assert run.returncode == 2  # one bad input in the batch
    records = [json.loads(line) for line in run.stdout.splitlines()]
    assert [Path(r["file"]).name for r in records] == ["broken.json", "seed-a.json", "seed-b.json"]
    for record in records:
        assert set(record) == JSONL_KEYS
    broken, seed_a, seed_b = records
    assert broken["status"] == "error" and "row 1" in broken["error"]
    assert seed_a["status"] == "unique" and seed_a["grade"] in ("line", "probe", "search")
    assert seed_a["solutions"] == [json.loads(SEED_A.read_text())["solution"]]
    assert seed_a["time_s"] > 0 and seed_a["stats"]["line_solves"] > 0
    assert seed_b["status"] == "multiple" and len(seed_b["solutions"]) == 2


def test_solve_limit_and_single_pass() -> None:
    run = pencilbox("solve", str(SEED_B), "--limit", "3", "--json")
    record = json.loads(run.stdout)
    assert record["status"] == "multiple" and len(record["solutions"]) >= 2
    run = pencilbox("solve", str(SEED_A), "--single-pass")
    assert run.returncode == 0 and "?" in run.stdout and "#" in run.stdout


def test_check_explain_convert_render(tmp_path: Path) -> None:
    assert pencilbox("check", str(SEED_A)).stdout.startswith("unique (grade:")
    assert pencilbox("check", str(SEED_B)).stdout.startswith("multiple")
    explained = pencilbox("explain", str(SEED_A)).stdout.splitlines()
    assert explained[0].startswith("1. Row ") or explained[0].lstrip().startswith("1. ")
    assert len(explained) > 50
    converted = pencilbox("convert", str(SEED_A), "--to", "clues").stdout
    assert converted.splitlines()[0].startswith("3 3,5 7 5,2 12 2,")
    out = tmp_path / "seed.svg"
    assert pencilbox("render", str(SEED_A), "--svg", str(out), "--state", "solved").returncode == 0
    assert out.read_text().startswith("<svg") and out.read_text().count('fill="#222"') > 100


def test_render_png_for_every_genre(tmp_path: Path) -> None:
    from PIL import Image

    from pencilbox.store import EXAMPLES_DIR

    examples = ("jwilk-data148.json", "qqwing-easy.sdk", "robx_pzprjs_01_6x6.json")
    for name, state in zip(examples, ("solved", "logic", "empty")):
        out = tmp_path / f"{name}.png"
        run = pencilbox("render", str(EXAMPLES_DIR / name), "--png", str(out), "--state", state)
        assert run.returncode == 0 and run.stdout == "", run.stderr
        with Image.open(out) as image:
            assert image.format == "PNG" and min(image.size) > 100, name
    svg, png = tmp_path / "both.svg", tmp_path / "both.png"
    both = pencilbox("render", str(SEED_A), "--svg", str(svg), "--png", str(png))
    assert both.returncode == 0 and svg.read_text().startswith("<svg")
    assert png.read_bytes().startswith(b"\x89PNG")


def test_render_png_bad_paths_exit_2_without_a_traceback(tmp_path: Path) -> None:
    missing = pencilbox("render", str(tmp_path / "nope.json"), "--png", str(tmp_path / "x.png"))
    unwritable = pencilbox("render", str(SEED_A), "--png", str(tmp_path / "no/such/dir/x.png"))
    for run in (missing, unwritable):
        assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
        assert run.stderr.startswith("pencilbox: ")
    assert "cannot write" in unwritable.stderr and not (tmp_path / "x.png").exists()


def test_time_limit_reports_timeout(tmp_path: Path) -> None:
    """The search stops at its limit: well under the minutes the puzzle needs, counted in the
    CPU time the process used (on a loaded machine its wall time can be ten times that; a
    soak run saw 16 s of wall for the 1 s limit)."""
    hard = TEST_DATA / "nonogram/pynogram-examples/frans_faase.json"
    before = _cpu_seconds_of_children()
    run = pencilbox("solve", str(hard), "--jsonl", "--time-limit", "1")
    cpu = _cpu_seconds_of_children() - before
    record = json.loads(run.stdout)
    assert record["status"] == "timeout"
    assert cpu < 10, cpu


def test_ctrl_c_stops_cleanly_with_what_is_known() -> None:
    import signal

    hard = TEST_DATA / "nonogram/pynogram-examples/frans_faase.json"
    process = subprocess.Popen(
        [sys.executable, "-m", "pencilbox.cli", "solve", str(hard)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # a shell that runs us in the background ignores SIGINT, and children inherit that
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        _wait_for_cpu_seconds(process.pid, 2.0)  # past start-up and logic, in the search
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()  # never leave a solver running if the test fails
    assert process.returncode == 130
    assert "Traceback" not in err
    assert "without a verdict; known so far" in out
    assert "#" in out  # the cells logic had already fixed


def _cpu_seconds_of_children() -> float:
    """User and system seconds of the children this process has waited for, so far."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _wait_for_cpu_seconds(pid: int, seconds: float, wall_limit: float = 120) -> None:
    """Wait until the process has used `seconds` of CPU: wall time means little on a busy
    machine, where start-up alone can take seconds."""
    import os
    import time

    ticks = os.sysconf("SC_CLK_TCK")
    started = time.monotonic()
    while time.monotonic() - started < wall_limit:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        if (int(fields[11]) + int(fields[12])) / ticks >= seconds:
            return
        time.sleep(0.1)


def test_render_png_without_pillow_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import pencilbox.core
    from pencilbox.cli import main

    # As if Pillow were not installed, and the drawing module not imported yet.
    for name in [m for m in sys.modules if m == "PIL" or m.startswith("PIL.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "PIL", None)
    monkeypatch.delitem(sys.modules, "pencilbox.core.raster", raising=False)
    monkeypatch.delattr(pencilbox.core, "raster", raising=False)
    assert main(["render", str(SEED_A), "--png", str(tmp_path / "x.png")]) == 2
    assert "Pillow" in capsys.readouterr().err and not (tmp_path / "x.png").exists()
