"""The library: puzzles and saved games in one SQLite file (WAL mode).

Every write commits at once, so a killed server loses nothing that it answered. A game is
saved as one row per move (`game_moves`, the move as the cells it changed, see
`session.Change`), so a move writes one short row, whatever the size of the grid. The default
file lives in the user's data directory; the bundled examples (package data,
`pencilbox/examples/`, so an installed wheel has them too) are added on first start.

One server at a time: opening a library takes a lock file beside it (`NAME.lock`, released
by the system when the process ends, even by kill -9), so a second server on the same file
refuses to start instead of overwriting the first one's moves. A library that cannot be used
(not an SQLite file, damaged, read-only, in an unwritable folder) is a `LibraryError` that
names the file and says why, before anything else happens.
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import IO, Any

from pencilbox.errors import PuzzleError

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

MIGRATIONS = (
    # 1 -> 2: moves as rows (one per move) instead of one JSON list rewritten at every move;
    # games saved the old way (format 1) are converted when they are first opened
    """
    ALTER TABLE games ADD COLUMN format INTEGER NOT NULL DEFAULT 1;
    CREATE TABLE IF NOT EXISTS game_moves (
        puzzle_id INTEGER NOT NULL REFERENCES puzzles (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        move TEXT NOT NULL,
        PRIMARY KEY (puzzle_id, seq)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS damaged_games (
        id INTEGER PRIMARY KEY,
        puzzle_id INTEGER NOT NULL,
        reason TEXT NOT NULL,
        saved TEXT NOT NULL,
        found TEXT NOT NULL
    );
    """,
)
SCHEMA_VERSION = 1 + len(MIGRATIONS)
GAME_FORMAT = 2
"""games.format: 1 = moves as a JSON list in games.moves, 2 = rows in game_moves."""


class LibraryError(PuzzleError):
    """The library file cannot be used; the message names the file and says why."""

    def __init__(self, message: str) -> None:
        # not cut to PuzzleError's length: the file's whole name is the point (it is the
        # user's own path, not input read from somewhere)
        ValueError.__init__(self, message)


@dataclass
class SavedGame:
    """A saved game as read: its moves (not yet checked), its position, and what was wrong
    with the record itself (broken JSON), if anything."""

    moves: list[object]
    position: object
    format: int
    problem: str | None = None


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
        self._lock = threading.Lock()
        self._lockfile: IO[str] | None = None
        in_memory = str(path) == ":memory:"
        if not in_memory:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except FileExistsError:
                raise LibraryError(
                    f"cannot use the library {self.path}: {self.path.parent} is a file, not a "
                    "folder"
                ) from None
            except OSError as error:
                raise LibraryError(
                    f"cannot use the library {self.path}: cannot create its folder "
                    f"({_reason_of(error)})"
                ) from None
            self._lockfile = _take_lock(self.path)
        try:
            self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
            self._db.row_factory = sqlite3.Row
            self._open()
        except (sqlite3.Error, OSError) as error:
            self._release()
            raise LibraryError(f"cannot use the library {self.path}: {_reason_of(error)}") from None
        except LibraryError:
            self._release()
            raise

    def _open(self) -> None:
        """Check the file and bring its tables up to date; every problem raises here, at
        start, rather than as a failed write later."""
        db = self._db
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        problems = [row[0] for row in db.execute("PRAGMA quick_check(3)").fetchall()]
        if problems != ["ok"]:
            raise LibraryError(
                f"cannot use the library {self.path}: it is damaged ({problems[0][:100]})"
            )
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise LibraryError(
                f"cannot use the library {self.path}: a newer pencilbox made it (schema "
                f"{version}, this one knows {SCHEMA_VERSION})"
            )
        db.execute("BEGIN IMMEDIATE")  # fails at once on a read-only file or folder
        try:
            _run_script(db, SCHEMA)
            for script in MIGRATIONS[max(0, version - 1) :]:  # (version 0: before numbering)
                _run_script(db, script)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('opened', ?)", (_now(),))
            db.execute(f"SELECT {PUZZLE_COLUMNS} FROM puzzles p, games g LIMIT 0")
            db.execute("COMMIT")
        except BaseException:
            with suppress(sqlite3.Error):
                db.execute("ROLLBACK")
            raise

    def close(self) -> None:
        with self._lock:
            self._db.close()
        self._release()

    def _release(self) -> None:
        if self._lockfile is not None:
            self._lockfile.close()  # closing the file releases the lock
            self._lockfile = None

    def _execute(self, sql: str, args: tuple[Any, ...] = ()) -> sqlite3.Cursor:
        with self._lock:
            try:
                return self._db.execute(sql, args)
            except sqlite3.Error as error:
                raise self._failure(error) from None

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One atomic write: all of it is committed, or none of it."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                except BaseException:
                    with suppress(sqlite3.Error):
                        self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
            except sqlite3.Error as error:
                with suppress(sqlite3.Error):
                    self._db.execute("ROLLBACK")
                raise self._failure(error) from None

    def _failure(self, error: sqlite3.Error) -> LibraryError:
        return LibraryError(f"cannot save to the library {self.path}: {_reason_of(error)}")

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
    def write_game(
        self,
        puzzle_id: int,
        *,
        keep: int,
        moves: Sequence[str],
        position: int,
        progress: float,
        solved: bool,
    ) -> None:
        """Save a game in one transaction: its first `keep` saved moves stay, the rest are
        replaced by `moves`; `position` is how many of them are played (the others are the
        redo tail)."""
        with self._transaction() as db:
            db.execute(
                "INSERT INTO games (puzzle_id, moves, position, state, progress, solved, updated, "
                "format) VALUES (?, '', ?, '', ?, ?, ?, ?) ON CONFLICT (puzzle_id) DO UPDATE SET "
                "moves = '', state = '', position = excluded.position, "
                "progress = excluded.progress, solved = excluded.solved, "
                "updated = excluded.updated, format = excluded.format",
                (puzzle_id, position, progress, int(solved), _now(), GAME_FORMAT),
            )
            db.execute("DELETE FROM game_moves WHERE puzzle_id = ? AND seq >= ?", (puzzle_id, keep))
            db.executemany(
                "INSERT INTO game_moves (puzzle_id, seq, move) VALUES (?, ?, ?)",
                ((puzzle_id, keep + i, move) for i, move in enumerate(moves)),
            )

    def load_game(self, puzzle_id: int) -> SavedGame | None:
        with self._lock:
            try:
                row = self._db.execute(
                    "SELECT moves, position, format FROM games WHERE puzzle_id = ?", (puzzle_id,)
                ).fetchone()
                if row is None:
                    return None
                if row["format"] == GAME_FORMAT:
                    rows = self._db.execute(
                        "SELECT seq, move FROM game_moves WHERE puzzle_id = ? ORDER BY seq",
                        (puzzle_id,),
                    ).fetchall()
                    return _numbered(rows, row["position"])
            except sqlite3.Error as error:
                raise LibraryError(
                    f"cannot read the library {self.path}: {_reason_of(error)}"
                ) from None
        try:
            moves = json.loads(row["moves"])
        except (ValueError, RecursionError, TypeError):
            return SavedGame([], row["position"], 1, "its list of moves is not valid JSON")
        if not isinstance(moves, list):
            return SavedGame([], row["position"], 1, "its list of moves is not a list")
        return SavedGame(moves, row["position"], 1)

    def keep_damaged(self, puzzle_id: int, reason: str) -> None:
        """Copy a saved game that could not be read whole into `damaged_games` (row and
        moves as they were), before it is saved again from what could be read."""
        with self._transaction() as db:
            row = db.execute("SELECT * FROM games WHERE puzzle_id = ?", (puzzle_id,)).fetchone()
            moves = db.execute(
                "SELECT seq, move FROM game_moves WHERE puzzle_id = ? ORDER BY seq", (puzzle_id,)
            ).fetchall()
            saved = {
                "game": dict(row) if row is not None else None,
                "game_moves": [[r["seq"], r["move"]] for r in moves],
            }
            db.execute(
                "INSERT INTO damaged_games (puzzle_id, reason, saved, found) VALUES (?, ?, ?, ?)",
                (puzzle_id, reason, json.dumps(saved, default=str), _now()),
            )

    def damaged_games(self) -> list[dict[str, Any]]:
        rows = self._execute("SELECT puzzle_id, reason, saved, found FROM damaged_games").fetchall()
        return [dict(row) for row in rows]

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


def _numbered(rows: list[sqlite3.Row], position: object) -> SavedGame:
    """Moves saved as rows: a gap in their numbers is reported (the moves after it are not
    used: they do not follow from the ones before)."""
    moves: list[object] = []
    for row in rows:
        if row["seq"] != len(moves):
            return SavedGame(moves, position, GAME_FORMAT, f"move {len(moves) + 1} is missing")
        moves.append(row["move"])
    return SavedGame(moves, position, GAME_FORMAT)


def _run_script(db: sqlite3.Connection, script: str) -> None:
    """Statement by statement (`executescript` would commit the transaction first)."""
    for statement in script.split(";"):
        if statement.strip():
            db.execute(statement)


def _take_lock(path: Path) -> IO[str]:
    """Lock `path.lock` for this process; LibraryError when another process has it."""
    name = path.with_name(path.name + ".lock")
    try:
        handle = open(name, "a+", encoding="utf-8")  # noqa: SIM115 (held until close)
    except OSError as error:
        raise LibraryError(
            f"cannot use the library {path}: cannot create its lock file {name} "
            f"({_reason_of(error)})"
        ) from None
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.seek(0)
        owner = handle.read().strip()[:20]
        handle.close()
        who = f" (process {owner})" if owner.isdigit() else ""
        raise LibraryError(
            f"the library {path} is in use by another pencilbox server{who}: stop that one, "
            "or start this one with another --db"
        ) from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"{os.getpid()}\n")
    handle.flush()
    return handle


_SQLITE_REASONS = {
    "SQLITE_NOTADB": "it is not a pencilbox library (not an SQLite database, or damaged)",
    "SQLITE_CORRUPT": "it is damaged",
    "SQLITE_READONLY": "it is read-only (or its folder is)",
    "SQLITE_CANTOPEN": "it cannot be opened (check the permissions of the file and its folder)",
    "SQLITE_PERM": "permission denied",
    "SQLITE_FULL": "the disk is full",
    "SQLITE_IOERR": "the disk could not read or write it",
    "SQLITE_BUSY": "another program holds it locked",
    "SQLITE_LOCKED": "another program holds it locked",
}


def _reason_of(error: BaseException) -> str:
    """Why a file could not be used, in a few words."""
    if isinstance(error, sqlite3.Error):
        name = getattr(error, "sqlite_errorname", "") or ""
        for prefix, reason in _SQLITE_REASONS.items():
            if name.startswith(prefix):
                return reason
        return str(error)[:100] or type(error).__name__
    if isinstance(error, OSError) and error.errno:
        return os.strerror(error.errno).lower()
    return str(error)[:100] or type(error).__name__


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
