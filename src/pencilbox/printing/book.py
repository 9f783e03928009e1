"""A book's puzzles: its sections (a genre, a count and the generator's options each), made from
consecutive seeds on the batch machinery (local processes, a journal that survives Ctrl-C, a
progress bar), each proven unique and graded, ordered by difficulty, numbered through the book.

The journal is OUT.journal.jsonl beside the book: a record per puzzle made, keyed by its
section's genre and options and its seed, so a rerun of the same command makes only the rest
(and a changed command does not take puzzles made for another). It is removed once the book is
written.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pencilbox.batch.chunks import Chunker
from pencilbox.batch.executors import executor_for
from pencilbox.batch.journal import Journal
from pencilbox.batch.progress import BatchProgress
from pencilbox.batch.work import Item, Job
from pencilbox.core.pages import Notice
from pencilbox.errors import PuzzleError, quote, shorten
from pencilbox.genres import base
from pencilbox.printing.document import Entry, Section
from pencilbox.printing.entries import prepared

SPARE_SEEDS = 2
"""A section whose generator fails on some seeds (a grade it cannot reach from them) goes on
with the next seeds, up to this many times its count in all."""
RECIPE_KEYS = {"genre", "count", "seed", "title"}


@dataclass(frozen=True)
class Plan:
    """One section to make: `count` puzzles of `genre` from seeds `seed`, `seed` + 1, ..."""

    genre: str
    count: int
    options: tuple[tuple[str, str], ...]
    seed: int = 1
    title: str | None = None

    @property
    def key(self) -> str:
        """What a journal record of this section is filed under."""
        return json.dumps([self.genre, list(self.options)])

    def heading(self) -> str:
        genre = base.get(self.genre)
        name = genre.title or genre.name.capitalize()
        shown = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in self.options)
        return self.title or (f"{name} ({shown})" if shown else name)


def plan(
    genre: str, count: int, options: dict[str, Any], seed: int, title: str | None = None
) -> Plan:
    """A section, its genre and generator options checked now (before any work)."""
    found = base.get(genre)
    if found.generate is None:
        raise PuzzleError(f"there is no generator for {found.name} yet")
    if count < 1:
        raise PuzzleError(f"book: a section needs a count of at least 1, not {count}")
    known = {option.name for option in found.options()}
    for name in options:
        if name not in known:
            flags = ", ".join(option.flag for option in found.options())
            raise PuzzleError(
                f"book {found.name}: unknown option --{name.replace('_', '-')}; known: {flags}"
            )
    shown = tuple(sorted((k, str(v)) for k, v in options.items() if k != "seed"))
    return Plan(found.name, count, shown, seed, title)


def genre_spec(text: str, count: int | None, seed: int) -> Plan:
    """`--genre sudoku:count=40,grade=hard,size=9` (count defaults to --count)."""
    name, _, rest = text.partition(":")
    options: dict[str, Any] = {}
    for pair in filter(None, rest.split(",")):
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise PuzzleError(
                f"--genre {quote(text)}: expected NAME:KEY=VALUE,..., found {quote(pair)}"
            )
        options[key.strip().replace("-", "_")] = value.strip()
    return _from_fields(name.strip(), options, count, seed, f"--genre {quote(text)}")


def _from_fields(
    genre: str, fields: dict[str, Any], count: int | None, seed: int, where: str
) -> Plan:
    fields = dict(fields)
    number = fields.pop("count", count)
    first = fields.pop("seed", seed)
    title = fields.pop("title", None)
    whole = [value for value in (number, first) if not _is_whole(value)]
    if number is None:
        raise PuzzleError(f"{where}: how many puzzles? give count (or --count)")
    if whole:
        raise PuzzleError(f"{where}: count and seed are whole numbers, not {quote(str(whole[0]))}")
    return plan(genre, int(number), fields, int(first), None if title is None else str(title))


def _is_whole(value: Any) -> bool:
    return isinstance(value, int) or (isinstance(value, str) and value.isdigit())


def recipe(path: str, count: int | None, seed: int) -> tuple[list[Plan], dict[str, Any]]:
    """The sections of a TOML or JSON recipe, and its book-wide settings (title, page, per_page,
    solutions). A section is a table of `[[section]]` (TOML) or an object of "section" (JSON)
    with genre, count and the generator's options (grade, size...)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise PuzzleError(f"--recipe {quote(path)}: cannot read it ({error})") from None
    try:
        data = json.loads(text) if path.lower().endswith(".json") else tomllib.loads(text)
    except (ValueError, tomllib.TOMLDecodeError) as error:
        raise PuzzleError(f"{shorten(path, 80)}: not a recipe ({error})") from None
    sections = data.get("section") if isinstance(data, dict) else None
    if not isinstance(sections, list) or not sections:
        raise PuzzleError(
            f"{shorten(path, 80)}: no sections (give [[section]] tables with genre and count)"
        )
    plans = []
    for number, fields in enumerate(sections, start=1):
        where = f"{shorten(path, 80)} section {number}"
        if not isinstance(fields, dict) or not isinstance(fields.get("genre"), str):
            raise PuzzleError(f"{where}: needs a genre")
        options = {k.replace("-", "_"): v for k, v in fields.items() if k != "genre"}
        plans.append(_from_fields(fields["genre"], options, count, seed, where))
    settings = {k: v for k, v in data.items() if k != "section"}
    return plans, settings


# -- making the puzzles -------------------------------------------------------------------------
class Interrupted(Exception):
    """Ctrl-C while making a book: `made` puzzles are in the journal, `total` wanted."""

    def __init__(self, made: int, total: int, journal: Path) -> None:
        super().__init__(f"interrupted with {made} of {total} puzzles made")
        self.made, self.total, self.journal = made, total, journal


def journal_path(out: str) -> Path:
    return Path(f"{out}.journal.jsonl")


def _key(record: dict[str, Any]) -> tuple[Any, ...]:
    return (record.get("section"), record.get("seed"))


def generate(plans: list[Plan], out: str, workers: int | None) -> dict[str, list[dict[str, Any]]]:
    """Every section's generated records (by section key), made or taken from the journal."""
    journal = Journal(str(journal_path(out)), "jsonl", _key)
    journal.open()
    total = sum(p.count for p in plans)
    progress = BatchProgress("book", total, min(total, _made(journal, plans)))
    executor = None
    try:
        with progress:
            for section in plans:
                while len(good := _good(journal, section)) < section.count:
                    seeds = _next_seeds(journal, section, section.count - len(good))
                    if not seeds:
                        raise PuzzleError(_gave_up(journal, section))
                    if executor is None:
                        executor = executor_for(workers, None)
                        executor.start()
                    job = Job("generate", genre=section.genre, options=section.options)
                    chunker = Chunker([Item(seed=s) for s in seeds], executor.workers)
                    for records in executor.run(job, chunker):
                        filed = [{**r, "section": section.key} for r in records]
                        fresh = journal.append(filed)
                        progress.advance(sum(1 for r in fresh if r.get("status") == "generated"))
    except KeyboardInterrupt:
        raise Interrupted(_made(journal, plans), total, journal.path) from None
    finally:
        if executor is not None:
            executor.close()
        journal.close()
    return {p.key: _good(journal, p)[: p.count] for p in plans}


def _good(journal: Journal, section: Plan) -> list[dict[str, Any]]:
    records = [r for (key, _), r in journal.records.items() if key == section.key]
    good = [r for r in records if r.get("status") == "generated"]
    return sorted(good, key=lambda r: int(r["seed"]))


def _made(journal: Journal, plans: list[Plan]) -> int:
    return sum(min(p.count, len(_good(journal, p))) for p in plans)


def _next_seeds(journal: Journal, section: Plan, wanted: int) -> list[int]:
    """The next `wanted` seeds of the section not tried yet, within its spare seeds."""
    last = section.seed + SPARE_SEEDS * section.count
    tried = {seed for key, seed in journal.records if key == section.key}
    free = (s for s in range(section.seed, last) if s not in tried)
    return [seed for _, seed in zip(range(wanted), free)]


def _gave_up(journal: Journal, section: Plan) -> str:
    failed = [
        r
        for (key, _), r in journal.records.items()
        if key == section.key and r.get("status") == "error"
    ]
    first = f" (seed {failed[0].get('seed')}: {failed[0].get('error')})" if failed else ""
    return f"book {section.heading()}: the generator made too few puzzles{first}"


# -- ordering and numbering -------------------------------------------------------------------
def sections(
    plans: list[Plan],
    made: dict[str, list[dict[str, Any]]],
    on_entry: Callable[[], None] = lambda: None,
) -> tuple[list[Section], list[Notice]]:
    """The book's sections: each puzzle parsed, proven unique (a generator's promise checked)
    and graded, a section's puzzles easiest first, numbered through the book."""
    built, notices, number = [], [], 0
    for section in plans:
        genre = base.get(section.genre)
        ranked = sorted(_graded(genre, made[section.key], on_entry), key=_rank(genre))
        entries = []
        for puzzle, grade, _ in ranked:
            number += 1
            entry, notice = prepared(puzzle, number, grade=grade)
            entries.append(entry)
            notices += [notice] if notice else []
        built.append(Section(section.heading(), entries))
    return built, notices


def _graded(
    genre: base.Genre, records: list[dict[str, Any]], on_entry: Callable[[], None]
) -> Iterator[tuple[Any, str | None, dict[str, Any]]]:
    for record in records:
        text = record.get("text") or record.get("line")
        puzzle = genre.parse(text, None)
        grade = record.get("grade")
        if grade is None:
            grade = puzzle.grade_report().get("level")
        on_entry()
        yield puzzle, grade, record


def _rank(genre: base.Genre) -> Callable[[tuple[Any, str | None, dict[str, Any]]], tuple[Any, ...]]:
    """Easiest first: by the generator's grade levels in their order, then by seed."""
    levels = next((o.choices for o in genre.options() if o.name == "grade"), ())

    def rank(item: tuple[Any, str | None, dict[str, Any]]) -> tuple[Any, ...]:
        _, grade, record = item
        level = levels.index(grade) if grade in levels else len(levels)
        return (level, int(record.get("seed", 0)))

    return rank


def entries_count(built: list[Section]) -> int:
    return sum(len(s.entries) for s in built)


__all__ = [
    "Entry",
    "Interrupted",
    "Plan",
    "generate",
    "genre_spec",
    "journal_path",
    "plan",
    "recipe",
    "sections",
]
