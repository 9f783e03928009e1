"""The library file: moves saved as rows, old saves converted, damaged saves reported and kept,
one server per file, and a file that cannot be used stops `serve` with one sentence."""

from __future__ import annotations

import json
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pencilbox.cli import main
from pencilbox.store import LibraryError, Store
from pencilbox.web import create_app
from tests.web.conftest import app_client, moves_of, puzzle_id

SERVE = (sys.executable, "-m", "pencilbox.cli", "serve")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def make_old_library(path: Path, moves: Any, position: Any) -> int:
    """A library as pencilbox wrote it before games were saved as rows (schema 1): the moves
    as one JSON list in games.moves. Returns the id of the game's puzzle (data148)."""
    store = Store(path)
    store.seed()
    pid = next(r["id"] for r in store.list_puzzles() if r["title"] == "data148")
    store.close()
    db = sqlite3.connect(path, isolation_level=None)
    db.executescript(
        "DROP TABLE game_moves; DROP TABLE damaged_games; "
        "ALTER TABLE games DROP COLUMN format; PRAGMA user_version = 0;"
    )
    db.execute(
        "INSERT INTO games (puzzle_id, moves, position, state, progress, solved, updated) "
        "VALUES (?, ?, ?, 'x', 0, 0, '2024-01-01')",
        (pid, moves if isinstance(moves, str) else json.dumps(moves), position),
    )
    db.close()
    return pid


def test_an_old_save_is_converted_and_nothing_is_lost(db_path: Path) -> None:
    grid = "/".join(["#???????"] + ["????????"] * 8)
    pid = make_old_library(db_path, ["r1c2=1 r1c3=1", f"grid {grid}", "r9c8=2"], 2)
    with app_client(create_app(db_path)) as client:
        game = client.get(f"/api/games/{pid}").json()
        assert game["history"] == 3 and game["position"] == 2 and "notice" not in game
        assert game["state"] == grid
        # the whole-grid move is saved as what it changed
        assert moves_of(client, pid) == ["r1c2=1 r1c3=1", "r1c1=1 r1c2=0 r1c3=0", "r9c8=2"]
        assert client.post(f"/api/games/{pid}/redo").json()["state"].endswith("??.")
    db = sqlite3.connect(db_path)
    assert db.execute("SELECT format, moves FROM games").fetchall() == [(2, "")]
    assert db.execute("SELECT count(*) FROM game_moves").fetchone() == (3,)
    assert db.execute("PRAGMA user_version").fetchone() == (2,)


@pytest.mark.parametrize(
    ("moves", "position", "kept", "words"),
    [
        ('["r1c1=1", "r1c2=1"', 2, 0, "not valid JSON"),
        ('{"moves": 1}', 0, 0, "not a list"),
        (["r1c1=1", "r1c2=1", "r99c1=1", "r1c4=1"], 4, 2, "move 3 of 4 ('r99c1=1')"),
        (["r1c1=1", None], 2, 1, "move 2 of 2 ('None')"),
    ],
)
def test_a_damaged_save_is_reported_and_kept(
    db_path: Path, moves: Any, position: int, kept: int, words: str
) -> None:
    pid = make_old_library(db_path, moves, position)
    with app_client(create_app(db_path)) as client:
        game = client.get(f"/api/games/{pid}").json()
        assert game["history"] == kept and words in game["notice"]
        assert "damaged_games" in game["notice"]
        # the player goes on; the notice was said
        played = client.post(f"/api/games/{pid}/move", json={"move": "r9c1=2"}).json()
        assert played["history"] == kept + 1 and "notice" not in played
        damaged = client.app.state.library.store.damaged_games()  # type: ignore[attr-defined]
    assert len(damaged) == 1 and words in damaged[0]["reason"]
    saved = json.loads(damaged[0]["saved"])["game"]
    assert saved["moves"] == (moves if isinstance(moves, str) else json.dumps(moves))


def test_a_damaged_row_of_moves_is_reported(db_path: Path) -> None:
    with app_client(create_app(db_path)) as client:
        pid = puzzle_id(client, "data148")
        for move in ("r1c1=1", "r1c2=1", "r1c3=1"):
            client.post(f"/api/games/{pid}/move", json={"move": move})
    db = sqlite3.connect(db_path, isolation_level=None)
    db.execute("UPDATE game_moves SET move = 'r1c1=9' WHERE seq = 1")
    db.close()
    with app_client(create_app(db_path)) as client:
        game = client.get(f"/api/games/{pid}").json()
        assert game["history"] == 1 and "move 2 of 3 ('r1c1=9')" in game["notice"]
        for move in ("r2c1=1", "r2c2=1"):
            client.post(f"/api/games/{pid}/move", json={"move": move})
    db = sqlite3.connect(db_path, isolation_level=None)
    db.execute("DELETE FROM game_moves WHERE seq = 1")  # a gap: move 2 missing
    db.close()
    with app_client(create_app(db_path)) as client:
        game = client.get(f"/api/games/{pid}").json()
        assert game["history"] == 1 and "move 2 is missing" in game["notice"]
        store = client.app.state.library.store  # type: ignore[attr-defined]
        assert len(store.damaged_games()) == 2


def test_one_server_per_library(db_path: Path) -> None:
    first = Store(db_path)
    with pytest.raises(LibraryError) as refused:
        Store(db_path)
    message = str(refused.value)
    assert str(db_path) in message and "in use by another pencilbox server" in message
    assert "process " in message
    first.close()
    Store(db_path).close()  # free again once the first one is closed


def test_a_second_serve_on_the_same_library_exits_2(db_path: Path, tmp_path: Path) -> None:
    port = free_port()
    server = subprocess.Popen(
        [*SERVE, "--port", str(port), "--db", str(db_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert server.stdout is not None
        assert "pencilbox web app" in server.stdout.readline()  # it has the library now
        second = subprocess.run(
            [*SERVE, "--port", str(free_port()), "--db", str(db_path)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        server.kill()
        server.wait(timeout=10)
        if server.stdout:
            server.stdout.close()
    assert second.returncode == 2
    lines = second.stderr.strip().splitlines()
    assert len(lines) == 1 and "in use by another pencilbox server" in lines[0]
    assert f"(process {server.pid})" in lines[0]


def serve_exits(db: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """Run `serve` on `db`; it must exit 2 with one line on stderr, which is returned."""
    assert main(["serve", "--port", str(free_port()), "--db", str(db)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert str(db) in err
    return err


def test_a_file_that_is_not_a_library(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"this is not a database, just some text\n" * 200)
    assert "is not a pencilbox library" in serve_exits(garbage, capsys)


def test_a_truncated_library(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "library.sqlite3"
    store = Store(db)
    store.seed()
    for n in range(300):  # enough pages that half the file cuts the tables
        store.add_puzzle(genre="nonogram", source=f"{n}\n1\n" * 20, format=None, title=str(n))
    store.close()
    data = db.read_bytes()
    db.write_bytes(data[: len(data) // 2])
    assert "damaged" in serve_exits(db, capsys)


def test_a_read_only_library(
    db_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    Store(db_path).close()
    real = sqlite3.connect

    def read_only(path: str, **options: Any) -> sqlite3.Connection:
        # what SQLite does with a file it may not write (root may write any file, so the
        # test asks for read-only access itself)
        return real(f"file:{path}?mode=ro", uri=True, **options)

    monkeypatch.setattr("pencilbox.store.sqlite3.connect", read_only)
    assert "read-only" in serve_exits(db_path, capsys)


def test_an_unusable_place(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where a folder should be")
    assert "file is a file, not a folder" in serve_exits(blocker / "library.sqlite3", capsys)
    assert "cannot create its folder (not a directory)" in serve_exits(
        blocker / "deeper" / "library.sqlite3", capsys
    )
    folder = tmp_path / "folder.sqlite3"
    folder.mkdir()
    assert "cannot be opened" in serve_exits(folder, capsys)


def test_a_failed_save_answers_503_and_plays_nothing(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with app_client(create_app(db_path)) as client:
        pid = puzzle_id(client, "data148")
        client.post(f"/api/games/{pid}/move", json={"move": "r1c1=1"})
        store = client.app.state.library.store  # type: ignore[attr-defined]

        def disk_full(*args: object, **options: object) -> None:
            raise LibraryError(f"cannot save to the library {db_path}: the disk is full")

        monkeypatch.setattr(store, "write_game", disk_full)
        answer = client.post(f"/api/games/{pid}/move", json={"move": "r1c2=1"})
        assert answer.status_code == 503 and answer.headers["Retry-After"]
        assert "the disk is full" in answer.json()["error"]
        assert client.post(f"/api/games/{pid}/undo").status_code == 503
        monkeypatch.undo()
        game = client.get(f"/api/games/{pid}").json()  # read again from the file
        assert game["position"] == 1 and game["state"].startswith("#???")


def test_a_full_history_says_so_and_is_saved_merged(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At the cap the oldest half of the moves becomes one: the answer carries a notice, the
    file holds the merged history, and a restarted server shows the same game."""
    import pencilbox.session as session

    monkeypatch.setattr(session, "MAX_HISTORY", 6)
    with app_client(create_app(db_path)) as client:
        pid = puzzle_id(client, "data148")
        answers = [
            client.post(f"/api/games/{pid}/move", json={"move": f"r1c{c}=1"}).json()
            for c in range(1, 8)
        ]
        assert all("notice" not in a for a in answers[:6])
        assert "history is full" in answers[6]["notice"]
        assert answers[6]["history"] == len(moves_of(client, pid)) < 7
        state = answers[6]["state"]
        after = client.post(f"/api/games/{pid}/move", json={"move": "r2c1=1"}).json()
        assert "notice" not in after  # said once
    with app_client(create_app(db_path)) as client:
        game = client.get(f"/api/games/{pid}").json()
        assert game["history"] == after["history"] and game["state"] == after["state"]
        assert client.post(f"/api/games/{pid}/undo").json()["state"] == state
