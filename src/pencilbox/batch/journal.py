"""The output file of a batch, kept safe across interruptions.

Records are appended as JSON Lines, one `write` per line, flushed and fsync'ed after every
chunk: after Ctrl-C, a killed process or a lost machine the file holds every record that was
reported done, plus at most one torn last line, which the next run drops. Running the same
command again reads what is there and does only the rest, so no record is lost or written
twice. When the batch is complete the file is rewritten in input order (a temporary file
renamed over it, so a crash then leaves the old file whole).

`--format parquet` keeps its journal beside the output (OUT.partial.jsonl) and writes the
Parquet file from it at the end; a later run with the same --out reads the Parquet file back.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from pencilbox.errors import PuzzleError, shorten

Key = tuple[Any, ...]
JSON_COLUMNS = b"pencilbox.json_columns"
"""Parquet metadata: the columns stored as JSON text (dicts, and lists of mixed types)."""


class Journal:
    def __init__(self, out: str, format: str, key: Callable[[dict[str, Any]], Key]) -> None:
        self.out = Path(out)
        self.format = format
        self.key = key
        self.path = self.out if format == "jsonl" else Path(f"{out}.partial.jsonl")
        self.records: dict[Key, dict[str, Any]] = {}
        self._file: Any = None

    def open(self) -> dict[Key, dict[str, Any]]:
        """The records already done (by key), and the journal open for appending."""
        if not self.path.exists() and self.format == "parquet" and self.out.exists():
            self._restart_from_parquet()
        if self.path.exists():
            self._read_journal()
        try:
            self._file = self.path.open("a", encoding="utf-8")
        except OSError as error:
            raise PuzzleError(
                f"cannot write {shorten(str(self.path), 80)}: {error.strerror}"
            ) from None
        return dict(self.records)

    def _read_journal(self) -> None:
        data = self.path.read_bytes()
        complete, _, torn = data.rpartition(b"\n")  # after the last newline: a torn write
        if torn and not torn.startswith(b"{"):
            complete, torn = data, b""  # not ours: the check below refuses the file
        for number, line in enumerate(complete.split(b"\n") if complete else [], start=1):
            if not line.strip():
                continue
            record = _parse(line)
            if record is None:
                raise PuzzleError(
                    f"{shorten(str(self.path), 80)} line {number}: not a batch record; "
                    "give another --out (this file is left as it is)"
                )
            self.records.setdefault(self.key(record), record)
        if torn:
            with self.path.open("r+b") as file:
                file.truncate(len(data) - len(torn))

    def _restart_from_parquet(self) -> None:
        rows = read_parquet(self.out)
        with self.path.open("w", encoding="utf-8") as file:
            file.writelines(json.dumps(row) + "\n" for row in rows)
            file.flush()
            os.fsync(file.fileno())

    def append(self, records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
        """Write the records not written yet; returns them."""
        fresh = []
        for record in records:
            key = self.key(record)
            if key in self.records:
                continue
            self.records[key] = record
            self._file.write(json.dumps(record) + "\n")
            fresh.append(record)
        self._file.flush()
        os.fsync(self._file.fileno())
        return fresh

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def finish(self, order: dict[Key, int]) -> None:
        """Rewrite the output in input order (records of items not in this run last)."""
        self.close()
        ranked = sorted(
            enumerate(self.records.items()),
            key=lambda pair: (order.get(pair[1][0], len(order)), pair[0]),
        )
        rows = [record for _, (_, record) in ranked]
        temporary = self.out.with_name(f".{self.out.name}.tmp")
        if self.format == "parquet":
            write_parquet(rows, temporary)
        else:
            with temporary.open("w", encoding="utf-8") as file:
                file.writelines(json.dumps(row) + "\n" for row in rows)
                file.flush()
                os.fsync(file.fileno())
        os.replace(temporary, self.out)
        if self.path != self.out:
            self.path.unlink(missing_ok=True)


def _parse(line: bytes) -> dict[str, Any] | None:
    try:
        record = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return record if isinstance(record, dict) else None


# -- Parquet ----------------------------------------------------------------------------------
def _pyarrow() -> Any:
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise PuzzleError(
            "--format parquet needs pyarrow: pip install 'pencilbox[parquet]'"
        ) from None
    return pyarrow


def check_parquet() -> None:
    """Fail before any work when Parquet cannot be written."""
    _pyarrow()


def write_parquet(rows: list[dict[str, Any]], path: Path) -> None:
    """One column per record field (in the order fields first appear). Columns of plain
    values, and of lists pyarrow can type, are stored as such; dicts (stats) and anything
    pyarrow cannot type are stored as JSON text, named in the file's metadata."""
    pa = _pyarrow()
    names = list(dict.fromkeys(name for row in rows for name in row))
    columns, as_json = {}, []
    for name in names:
        values = [row.get(name) for row in rows]
        if any(isinstance(value, dict) for value in values):
            columns[name] = pa.array([_json_or_none(value) for value in values], pa.string())
            as_json.append(name)
            continue
        try:
            columns[name] = pa.array(values)
        except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError):
            columns[name] = pa.array([_json_or_none(value) for value in values], pa.string())
            as_json.append(name)
    table = pa.table(columns) if columns else pa.table({"status": pa.array([], pa.string())})
    table = table.replace_schema_metadata({JSON_COLUMNS: json.dumps(as_json).encode()})
    pa.parquet.write_table(table, path)
    with path.open("rb") as file:
        os.fsync(file.fileno())


def read_parquet(path: Path) -> list[dict[str, Any]]:
    """The records of a Parquet file written by `write_parquet` (fields that were missing
    from a record come back as None)."""
    pa = _pyarrow()
    try:
        table = pa.parquet.read_table(path)
    except (OSError, pa.ArrowInvalid) as error:
        raise PuzzleError(
            f"{shorten(str(path), 80)}: not a Parquet file ({error}); give another --out"
        ) from None
    as_json = json.loads((table.schema.metadata or {}).get(JSON_COLUMNS, b"[]"))
    rows: list[dict[str, Any]] = table.to_pylist()
    for row in rows:
        for name in as_json:
            if row.get(name) is not None:
                row[name] = json.loads(row[name])
    return rows


def _json_or_none(value: Any) -> str | None:
    return None if value is None else json.dumps(value)
