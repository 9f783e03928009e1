"""Bad input: every case gets one clear sentence that says what and where, and exit status 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import pencilbox
from pencilbox.errors import PuzzleError

CASES = [
    # (file name, content, words the message must contain)
    ("letters.clues", "3 x,1\n1,1 1", ["row 1", "'x'", "not a number", "line 1", "column 3"]),
    ("negative.clues", "1,1\n-1,1", ["column 1", "'-1'", "negative", "line 2"]),
    (
        "toolong.clues",
        "5 4 3,1\n" + ",".join(["1"] * 12),
        ["row 1", "clue 5 4 3 needs 14 cells", "the row has 12"],
    ),
    ("totals.clues", "1,1\n1,0", ["row clues fill 2 cells", "column clues fill 1"]),
    ("empty.json", '{"rows": [], "cols": []}', ["empty"]),
    (
        "big.clues",
        ",".join(["0"] * 201) + "\n" + ",".join(["0"] * 201),
        ["201x201", "limit of 200x200"],
    ),
    ("garbage.json", "{not json", ["not valid JSON", "line 1"]),
    ("nokey.json", '{"rows": [[1]]}', ["'cols'"]),
    ("binary.clues", None, ["not a text file"]),
    ("oneline.clues", "1 2 3", ["two lines"]),
]


@pytest.mark.parametrize(("name", "content", "words"), CASES, ids=[c[0] for c in CASES])
def test_message_says_what_and_where(
    tmp_path: Path, name: str, content: str | None, words: list[str]
) -> None:
    path = tmp_path / name
    if content is None:
        path.write_bytes(b"\xff\xfe\x00garbage")
    else:
        path.write_text(content)
    with pytest.raises(PuzzleError) as caught:
        pencilbox.load(path)
    message = str(caught.value)
    for word in words:
        assert word in message, message
    # and the command line says the same thing, exits with 2, shows no traceback
    run = subprocess.run(
        [sys.executable, "-m", "pencilbox.cli", "solve", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2
    assert "Traceback" not in run.stderr
    assert words[0] in run.stderr


def test_missing_file_and_unknown_format(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "pencilbox.cli", "solve", str(tmp_path / "nope")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2 and "no such file" in run.stderr
    weird = tmp_path / "weird.dat"
    weird.write_text("hello\nthere\nworld\n")
    run = subprocess.run(
        [sys.executable, "-m", "pencilbox.cli", "solve", str(weird)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2 and "cannot tell" in run.stderr


def test_size_limit_is_configurable(tmp_path: Path) -> None:
    path = tmp_path / "wide.clues"
    path.write_text(",".join(["1"] * 3) + "\n" + ",".join(["1"] * 3 + ["0"] * 247))
    with pytest.raises(PuzzleError, match="above the size limit"):
        pencilbox.load(path)
    assert pencilbox.load(path, max_size=300).width == 250
