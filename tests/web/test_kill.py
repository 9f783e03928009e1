"""Several clients play on the same games of a real server; it is killed (-9) mid-play and
started again. Every acknowledged move must be there, and no answer may have shown a move that
was not saved (each answer's state must be the saved history up to its length)."""

from __future__ import annotations

import os
import signal
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

import pencilbox
from pencilbox.session import Game, state_text
from pencilbox.store import EXAMPLES_DIR
from tests.web.conftest import PAGE_HEADERS
from tests.web.test_restart import server

GAMES = ("data001", "data147")  # 10x10 nonograms
CLIENTS_PER_GAME = 4
PLAY_SECONDS = 2.5
MIN_MOVES = 60
"""The play goes on until this many moves were acknowledged, on a slow machine too."""
PLAY_CAP_S = 120.0
SLOW = 60.0
"""Seconds a single request may take on a loaded machine (httpx waits 5 s by default)."""


@dataclass
class Seen:
    """What one client was told: (history length, state) of every answer, and the moves the
    server acknowledged with the history length right after each."""

    answers: list[tuple[int, str]] = field(default_factory=list)
    acknowledged: list[tuple[int, str]] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)


def play(url: str, pid: int, row: int, stop: threading.Event, seen: Seen) -> None:
    """Set the cells of one row (this client's own) again and again, each move a change
    (empty -> filled -> crossed -> filled ...), and read the game now and then."""
    count = 0
    with httpx.Client(base_url=url, headers=PAGE_HEADERS, timeout=SLOW) as client:
        while not stop.is_set():
            col = count % 10 + 1
            move = f"r{row}c{col}={1 + (count // 10) % 2}"
            try:
                answer = client.post(f"/api/games/{pid}/move", json={"move": move})
                if count % 3 == 0:
                    read = client.get(f"/api/games/{pid}").json()
                    seen.answers.append((read["history"], read["state"]))
            except (httpx.TransportError, ValueError):
                return  # the server is gone: this move is not acknowledged
            body = answer.json()
            if answer.status_code != 200 or not body["changed"]:
                seen.refused.append(f"{move}: {answer.status_code} {answer.text[:200]}")
                return
            seen.answers.append((body["history"], body["state"]))
            seen.acknowledged.append((body["history"], move))
            count += 1


@dataclass
class KillRun:
    clients: int
    games: int
    acknowledged: int
    lost: int
    shown_early: int
    """Answers that showed a move or a state the restarted server does not have."""
    refused: list[str]


def kill_run(
    workdir: Path,
    titles: tuple[str, ...] = GAMES,
    clients_per_game: int = CLIENTS_PER_GAME,
    seconds: float = PLAY_SECONDS,
    at_least: int = MIN_MOVES,
) -> KillRun:
    """Play on a fresh server in `workdir`, kill it (-9) mid-play, once `seconds` have passed
    and at least `at_least` moves were acknowledged (however slow the machine), start it
    again and compare what the clients were told with what was saved."""
    db = workdir / "library.sqlite3"
    env = {**os.environ, "XDG_DATA_HOME": str(workdir / "data")}
    seen: dict[int, list[Seen]] = {}
    with server(db, env) as (url, process):
        puzzles = httpx.get(f"{url}/api/puzzles", timeout=SLOW).json()
        ids = [next(p["id"] for p in puzzles if p["title"] == title) for title in titles]
        stop = threading.Event()
        threads = []
        for pid in ids:
            seen[pid] = [Seen() for _ in range(clients_per_game)]
            for row, record in enumerate(seen[pid], 1):
                threads.append(
                    threading.Thread(target=play, args=(url, pid, row, stop, record), daemon=True)
                )
        for thread in threads:
            thread.start()
        started = time.monotonic()
        while time.monotonic() - started < seconds or acknowledged(seen) < at_least:
            assert time.monotonic() - started < PLAY_CAP_S, "the clients could not play"
            time.sleep(0.02)
        os.kill(process.pid, signal.SIGKILL)  # in the middle of the play
        process.wait(timeout=10)
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
    run = KillRun(len(ids) * clients_per_game, len(ids), 0, 0, 0, [])
    with server(db, env) as (url, _):
        for pid, title in zip(ids, titles):
            saved = httpx.get(f"{url}/api/games/{pid}/moves", timeout=SLOW).json()
            moves = saved["moves"]
            assert saved["position"] == len(moves)
            states = replayed(title, moves)
            for record in seen[pid]:
                run.refused += record.refused
                for length, move in record.acknowledged:
                    run.acknowledged += 1
                    run.lost += not (length <= len(moves) and moves[length - 1] == move)
                for length, state in record.answers:
                    run.shown_early += length > len(moves) or states[length] != state
    return run


def acknowledged(seen: dict[int, list[Seen]]) -> int:
    return sum(len(record.acknowledged) for records in seen.values() for record in records)


def test_no_acknowledged_move_is_lost_and_none_shown_early(tmp_path: Path) -> None:
    run = kill_run(tmp_path)
    print(
        f"kill -9: {run.clients} clients on {run.games} games, "
        f"{run.acknowledged} moves acknowledged, {run.lost} lost"
    )
    assert not run.refused
    assert run.acknowledged >= MIN_MOVES  # the play really happened
    assert run.lost == 0
    assert run.shown_early == 0, "an answer showed a move or state that was not saved"


def replayed(title: str, moves: list[str]) -> list[str]:
    """The state text after 0, 1, 2, ... of the moves."""
    game = Game.new(pencilbox.load(Path(str(EXAMPLES_DIR / f"jwilk-{title}.json"))))
    states = [state_text(game.rules, game.state)]
    for move in moves:
        assert game.play(move)
        states.append(state_text(game.rules, game.state))
    return states
