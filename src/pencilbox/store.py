"""The library: puzzles and saved games in one SQLite file (WAL mode).

Every write commits at once, so a killed server loses nothing that it answered. The default
file lives in the user's data directory; the bundled examples (package data,
`pencilbox/examples/`, so an installed wheel has them too) are added on first start.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from datetime import UTC, datetime
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

EXAMPLES_DIR: Traversable = files("pencilbox") / "examples"
EXAMPLE_SUFFIXES = (".json", ".sdk")

SCHEMA = """
CREATE TABLE IF NOT EXISTS puzzles (
    id INTEGER PRIMARY KEY,
    genre TEXT NOT NULL,
    source TEXT NOT NULL,
    format TEXT,
    filename TEXT,
    title TEXT,
    created TEXT NOT NULL,
    bundled INTEGER NOT NULL DEFAULT 0,
    width INTEGER,
    height INTEGER,
    grade TEXT,
    status TEXT,
    credit TEXT
);
CREATE INDEX IF NOT EXISTS puzzles_source ON puzzles (genre, source);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    puzzle_id INTEGER NOT NULL UNIQUE REFERENCES puzzles (id) ON DELETE CASCADE,
    moves TEXT NOT NULL,
    position INTEGER NOT NULL,
    state TEXT NOT NULL,
    progress REAL NOT NULL DEFAULT 0,
    solved INTEGER NOT NULL DEFAULT 0,
    updated TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
"""

PUZZLE_COLUMNS = (
    "p.id, p.genre, p.source, p.format, p.filename, p.title, p.created, p.bundled, p.width, "
    "p.height, p.grade, p.status, p.credit, g.progress, g.solved, g.updated"
)


def default_path() -> Path:
    """`$XDG_DATA_HOME/pencilbox/pencilbox.sqlite3`, else under ~/.local/share."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "pencilbox" / "pencilbox.sqlite3"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Store:
    """One connection shared by the server's threads, guarded by a lock."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _execute(self, sql: str, args: tuple[Any, ...] = ()) -> sqlite3.Cursor:
        with self._lock:
            return self._db.execute(sql, args)

    # -- puzzles ----------------------------------------------------------------------------
    def add_puzzle(
        self,
        *,
        genre: str,
        source: str,
        format: str | None,
        title: str | None,
        filename: str | None = None,
        width: int | None = None,
        height: int | None = None,
        bundled: bool = False,
        credit: str | None = None,
    ) -> tuple[int, bool]:
        """The puzzle's id, and False when the same text was already in the library."""
        with self._lock:
            found = self._db.execute(
                "SELECT id FROM puzzles WHERE genre = ? AND source = ?", (genre, source)
            ).fetchone()
            if found:
                return int(found["id"]), False
            cursor = self._db.execute(
                "INSERT INTO puzzles (genre, source, format, filename, title, created, bundled, "
                "width, height, credit) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    genre,
                    source,
                    format,
                    filename,
                    title,
                    _now(),
                    int(bundled),
                    width,
                    height,
                    credit,
                ),
            )
            return int(cursor.lastrowid or 0), True

    def list_puzzles(self) -> list[dict[str, Any]]:
        rows = self._execute(
            f"SELECT {PUZZLE_COLUMNS} FROM puzzles p LEFT JOIN games g ON g.puzzle_id = p.id "
            "ORDER BY p.genre, p.bundled DESC, p.width * p.height, p.id"
        ).fetchall()
        return [_puzzle_row(row) for row in rows]

    def get_puzzle(self, puzzle_id: int) -> dict[str, Any] | None:
        row = self._execute(
            f"SELECT {PUZZLE_COLUMNS} FROM puzzles p LEFT JOIN games g ON g.puzzle_id = p.id "
            "WHERE p.id = ?",
            (puzzle_id,),
        ).fetchone()
        return _puzzle_row(row) if row else None

    def delete_puzzle(self, puzzle_id: int) -> bool:
        with self._lock:
            self._db.execute("DELETE FROM games WHERE puzzle_id = ?", (puzzle_id,))
            cursor = self._db.execute("DELETE FROM puzzles WHERE id = ?", (puzzle_id,))
            return cursor.rowcount > 0

    def set_verdict(self, puzzle_id: int, status: str | None, grade: str | None) -> None:
        self._execute(
            "UPDATE puzzles SET status = ?, grade = ? WHERE id = ?", (status, grade, puzzle_id)
        )

    # -- games ------------------------------------------------------------------------------
    def save_game(
        self, puzzle_id: int, game: dict[str, Any], *, progress: float, solved: bool
    ) -> None:
        self._execute(
            "INSERT INTO games (puzzle_id, moves, position, state, progress, solved, updated) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (puzzle_id) DO UPDATE SET "
            "moves = excluded.moves, position = excluded.position, state = excluded.state, "
            "progress = excluded.progress, solved = excluded.solved, updated = excluded.updated",
            (
                puzzle_id,
                json.dumps(game["moves"]),
                game["position"],
                game["state"],
                progress,
                int(solved),
                _now(),
            ),
        )

    def load_game(self, puzzle_id: int) -> dict[str, Any] | None:
        row = self._execute(
            "SELECT moves, position, state, updated FROM games WHERE puzzle_id = ?", (puzzle_id,)
        ).fetchone()
        if row is None:
            return None
        return {
            "moves": json.loads(row["moves"]),
            "position": row["position"],
            "state": row["state"],
            "updated": row["updated"],
        }

    # -- first start ------------------------------------------------------------------------
    def seed(self, examples: Traversable = EXAMPLES_DIR) -> int:
        """Add the bundled examples once (a deleted example stays deleted); how many."""
        with self._lock:
            done = self._db.execute("SELECT value FROM meta WHERE key = 'seeded'").fetchone()
        if done or not examples.is_dir():
            return 0
        from pencilbox.session import parse_text

        added = 0
        paths = [p for p in examples.iterdir() if p.name.endswith(EXAMPLE_SUFFIXES)]
        for path in sorted(paths, key=lambda p: p.name):
            text = path.read_text(encoding="utf-8")
            stem, suffix = os.path.splitext(path.name)
            try:
                puzzle = parse_text(text, filename=path.name)
                # JSON examples carry their credit fields; .sdk ones in their header (#S)
                data = json.loads(text) if suffix == ".json" else puzzle.meta
            except (ValueError, OSError):
                continue
            credit = None
            if isinstance(data, dict):
                parts = [str(data[k]) for k in ("source", "license", "licence") if data.get(k)]
                credit = " · ".join(parts) or None
            self.add_puzzle(
                genre=puzzle.genre,
                source=text,
                format=None,
                filename=path.name,
                title=puzzle.title or stem,
                width=getattr(puzzle, "width", None) or getattr(puzzle, "size", None),
                height=getattr(puzzle, "height", None) or getattr(puzzle, "size", None),
                bundled=True,
                credit=credit,
            )
            added += 1
        self._execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('seeded', ?)", (_now(),))
        return added


def _puzzle_row(row: sqlite3.Row) -> dict[str, Any]:
    return {
        "id": row["id"],
        "genre": row["genre"],
        "format": row["format"],
        "filename": row["filename"],
        "title": row["title"],
        "created": row["created"],
        "bundled": bool(row["bundled"]),
        "width": row["width"],
        "height": row["height"],
        "grade": row["grade"],
        "status": row["status"],
        "credit": row["credit"],
        "progress": row["progress"] or 0.0,
        "solved": bool(row["solved"]),
        "updated": row["updated"],
        "source": row["source"],
    }
