"""A library of thousands of puzzles for the tests of the Library page and its API: small
nonograms drawn at random (each a valid puzzle, each text different), with titles that a
search can find, a few grades and played games. Written straight into the library file in
one transaction (adding 5,000 puzzles one commit each would take 20 s).
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from pencilbox.store import EXAMPLE_SUFFIXES, EXAMPLES_DIR, GAME_FORMAT, Store

BUNDLED = sum(1 for path in EXAMPLES_DIR.iterdir() if path.name.endswith(EXAMPLE_SUFFIXES))
"""The bundled examples a new library starts with."""

ANIMALS = ("heron", "otter", "lynx", "marten", "crane", "badger", "ibis", "stoat", "wren", "vole")
SIDES = (5, 10, 15, 25)
GRADES = ("line",) * 6 + ("probe",) * 3 + ("search",)
"""Puzzle k is given the grade GRADES[k % 10] (a label for the filters, not a real grade):
graded already, the page does not ask for the grades of thousands of made puzzles."""
STARTED, SOLVED = 30, 12
"""How many have a game in progress, and how many are solved."""


def runs(line: list[bool]) -> str:
    lengths: list[int] = []
    count = 0
    for filled in [*line, False]:
        if filled:
            count += 1
        elif count:
            lengths.append(count)
            count = 0
    return " ".join(map(str, lengths)) or "0"


def nonogram_text(side: int, rng: random.Random) -> str:
    """Clue strings (rows, then columns) of a random side x side picture."""
    cells = [[rng.random() < 0.55 for _ in range(side)] for _ in range(side)]
    rows = ",".join(runs(row) for row in cells)
    columns = ",".join(runs([row[c] for row in cells]) for c in range(side))
    return f"{rows}\n{columns}\n"


def title_of(number: int) -> str:
    return f"{ANIMALS[number % len(ANIMALS)]} {number:04d}"


def fill(path: Path, count: int, seed: int = 15) -> None:
    """The bundled examples and `count` made nonograms in the library file at `path`: number
    k is titled `title_of(k)`, is SIDES[k % 4] cells square, is graded GRADES[k % 10], and the
    last ones are played (STARTED in progress, then SOLVED solved)."""
    store = Store(path)
    store.seed()
    store.close()
    rng = random.Random(seed)
    made = []
    for k in range(count):
        side = SIDES[k % len(SIDES)]
        grade = GRADES[k % len(GRADES)]
        made.append(("nonogram", nonogram_text(side, rng), title_of(k), side, side, grade))
    with sqlite3.connect(path) as db:
        first = db.execute("SELECT coalesce(max(id), 0) + 1 FROM puzzles").fetchone()[0]
        db.executemany(
            "INSERT INTO puzzles (genre, source, title, created, width, height, grade, status) "
            "VALUES (?, ?, ?, '2026-11-01T00:00:00+00:00', ?, ?, ?, 'unique')",
            made,
        )
        played = range(first + count - STARTED - SOLVED, first + count)
        db.executemany(
            "INSERT INTO games (puzzle_id, moves, position, state, progress, solved, updated, "
            "format) VALUES (?, '', 0, '', ?, ?, '2026-11-02T00:00:00+00:00', ?)",
            [
                (pid, 1.0 if solved else 0.5, solved, GAME_FORMAT)
                for pid in played
                for solved in [pid >= first + count - SOLVED]
            ],
        )
    db.close()
