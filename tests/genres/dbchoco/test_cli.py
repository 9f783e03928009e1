"""The command line with Double Choco: solve --jsonl, check --answer, generate."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.genres.dbchoco._data import DATA, load

SMALL = DATA / "robx_pzprjs_01_6x6.json"


def pencilbox(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pencilbox.cli", *args], capture_output=True, text=True, timeout=120
    )


def test_solve_jsonl_file_and_url() -> None:
    data = load(SMALL)
    run = pencilbox("solve", str(SMALL), data["url"], "--jsonl")
    assert run.returncode == 0, run.stderr
    records = [json.loads(line) for line in run.stdout.splitlines()]
    expected = {key: data["answer"][key] for key in ("vertical", "horizontal")}
    assert [r["status"] for r in records] == ["unique", "unique"]
    assert all(r["solutions"] == [expected] for r in records)


def test_solve_prints_the_walls() -> None:
    run = pencilbox("solve", str(SMALL))
    assert run.returncode == 0, run.stderr
    assert "unique solution" in run.stdout and "|" in run.stdout


def test_check_answer_accepts_the_shared_answer() -> None:
    run = pencilbox("check", str(SMALL), "--answer", str(SMALL))
    assert run.returncode == 0, run.stderr
    assert "correct" in run.stdout


def test_check_answer_prints_every_violation(tmp_path: Path) -> None:
    data = load(SMALL)
    wrong = dict(data)
    wrong["answer"] = {
        "vertical": ["0" * 5] * 6,
        "horizontal": ["0" * 6] * 5,
    }
    answer = tmp_path / "wrong.json"
    answer.write_text(json.dumps(wrong))
    run = pencilbox("check", data["url"], "--answer", str(answer))
    assert run.returncode == 1
    assert "three or more" in run.stdout
    pzprv3 = tmp_path / "answer.pzpr"
    pzprv3.write_text(data["pzprv3_answer_file"])
    run = pencilbox("check", str(SMALL), "--answer", str(pzprv3))
    assert run.returncode == 0 and "correct" in run.stdout


def test_generate_json() -> None:
    run = pencilbox("generate", "dbchoco", "--size", "4x4", "--seed", "3", "--json")
    assert run.returncode == 0, run.stderr
    made = json.loads(run.stdout)
    assert made["url"].startswith("https://puzz.link/p?dbchoco/4/4/")
    assert set(made["answer"]) == {"vertical", "horizontal"}
    assert {"clues", "grade", "time_s"} <= set(made)
