"""The `pencilbox batch` sub-commands and their run: the items (puzzles read from the paths, or
seeds), less those the output already holds, cut into chunks, run on an executor, each chunk's
records appended to the journal; at the end the output in input order and a summary."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator, Sequence
from typing import Any

from pencilbox.batch.chunks import Chunker
from pencilbox.batch.executors import Executor, executor_for
from pencilbox.batch.journal import Journal, check_parquet
from pencilbox.batch.progress import BatchProgress, summary
from pencilbox.batch.work import Item, Job, record_key
from pencilbox.errors import PuzzleError
from pencilbox.genres import base
from pencilbox.inputs import (
    at_least,
    describe,
    entries,
    expand,
    generator_options,
    list_genre,
    load,
    reading,
    seconds,
)

EXIT_OK, EXIT_BAD_INPUT, EXIT_INTERRUPTED = 0, 2, 130

GENERATE_HELP = """pencilbox batch generate GENRE --count N --out FILE [--seed S] [--OPTION V ...]

Makes N puzzles from seeds S, S+1, ... (S = 1 by default), so each one can be made again with
`pencilbox generate GENRE --seed K`. Every other --OPTION VALUE goes to the genre's generator
as with `pencilbox generate` (e.g. --size 16 --grade hard).

options (after GENRE):
  --count N         how many puzzles (required)
  --seed S          the first seed (default 1)
  --out FILE        the output file; run again with the same FILE to continue (required)
  --format F        jsonl (default) or parquet (the default when FILE ends in .parquet)
  --workers N       local worker processes (default: the number of cores)
  --scheduler ADDR  run on Dask instead: tcp://HOST:8786, or local:N for a local cluster
  --chunk N         items per task (default: about a second of work, from the
                    time the first ones took)
"""


def add_parser(commands: Any) -> None:
    """Register `batch` and its verbs under the command line's sub-commands."""
    batch = commands.add_parser(
        "batch",
        help="solve, grade, check or generate many puzzles (resumable; local cores or Dask)",
        description=__doc__,
    )
    verbs = batch.add_subparsers(dest="verb", required=True)
    for verb, what in (
        ("solve", "solve every puzzle (records as `solve --jsonl`)"),
        ("grade", "grade every puzzle (records as `grade --jsonl`)"),
        ("check", "verdict and grade of every puzzle (no solutions in the records)"),
    ):
        sub = verbs.add_parser(verb, help=what, description=what)
        sub.add_argument(
            "paths", nargs="+", metavar="PATH", help="puzzle files, list files, folders"
        )
        sub.add_argument("--input-format", help="input notation (detected when omitted)")
        sub.add_argument("--max-size", type=at_least(1), default=200, help="largest side read")
        sub.add_argument(
            "--time-limit", type=seconds, default=None, metavar="S", help="per puzzle (seconds)"
        )
        if verb == "solve":
            sub.add_argument(
                "--limit", type=at_least(1), default=2, help="solutions to look for (default 2)"
            )
            sub.add_argument("--steps", action="store_true", help="the solving steps in records")
            sub.add_argument(
                "--grade", action="store_true", help="grade each puzzle too (else grade is null)"
            )
        _output_options(sub)
        sub.set_defaults(run=run)
    generate = verbs.add_parser(
        "generate",
        help="generate puzzles from consecutive seeds",
        usage=GENERATE_HELP.splitlines()[0].removeprefix("pencilbox "),
        description=GENERATE_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    generate.add_argument("genre", help="the genre to generate")
    generate.add_argument("options", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    generate.set_defaults(run=run)


def _output_options(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("--out", required=True, metavar="FILE", help="output (resumed if present)")
    sub.add_argument("--format", choices=("jsonl", "parquet"), help="output format")
    where = sub.add_mutually_exclusive_group()
    where.add_argument("--workers", type=at_least(1), metavar="N", help="local processes")
    where.add_argument(
        "--scheduler", metavar="ADDR", help="Dask: tcp://HOST:8786, or local:N (a LocalCluster)"
    )
    sub.add_argument(
        "--chunk",
        type=at_least(1),
        metavar="N",
        help="items per task (default: about a second of work, from the first items' time)",
    )


def _generate_arguments(genre: base.Genre, tokens: list[str]) -> argparse.Namespace:
    """The batch options among the tokens after GENRE; the rest go to the generator."""
    parser = argparse.ArgumentParser(prog=f"pencilbox batch generate {genre.name}")
    parser.add_argument("--count", type=at_least(1), required=True)
    parser.add_argument("--seed", type=at_least(0), default=1)
    _output_options(parser)
    known, rest = parser.parse_known_args(tokens)
    options, _ = generator_options(genre, rest)
    for name in ("seed", "json"):
        options.pop(name, None)
    known.generator_options = tuple(sorted(options.items()))
    return known


def run(args: argparse.Namespace) -> int:
    job, items = _job_and_items(args)
    fmt = args.format or ("parquet" if str(args.out).endswith(".parquet") else "jsonl")
    if fmt == "parquet":
        check_parquet()
    journal = Journal(args.out, fmt, record_key)
    done = journal.open()
    order = {item.key(): index for index, item in enumerate(items)}
    todo = [item for item in items if item.key() not in done]
    progress = BatchProgress(job.verb, len(items), len(items) - len(todo))
    interrupted = False
    executor: Executor | None = None
    startup = 0.0
    started = time.perf_counter()
    try:
        if todo:
            with progress:
                executor = executor_for(args.workers, args.scheduler)
                executor.start()
                startup = time.perf_counter() - started
                chunker = Chunker(todo, executor.workers, args.chunk)
                for records in executor.run(job, chunker):
                    progress.advance(len(journal.append(records)))
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if executor is not None:
            executor.close()
        journal.close()
    elapsed = time.perf_counter() - started - startup
    shown = summary(journal.records.values(), progress.finished_now, elapsed, startup)
    print(shown, file=sys.stderr)
    if interrupted:
        print(
            f"pencilbox: interrupted with {len(journal.records)} of {len(items)} done; "
            f"run the same command again to go on (it keeps {journal.path})",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    journal.finish(order)
    errors = any(record.get("status") == "error" for record in journal.records.values())
    return EXIT_BAD_INPUT if errors else EXIT_OK


def _job_and_items(args: argparse.Namespace) -> tuple[Job, list[Item]]:
    if args.verb == "generate":
        genre = base.get(args.genre)
        if genre.generate is None:
            raise PuzzleError(f"there is no generator for {genre.name} yet")
        known = _generate_arguments(genre, list(args.options))
        for name in ("out", "format", "workers", "scheduler", "chunk"):
            setattr(args, name, getattr(known, name))
        job = Job("generate", genre=genre.name, options=known.generator_options)
        seeds = range(known.seed, known.seed + known.count)
        return job, [Item(seed=seed) for seed in seeds]
    limit = getattr(args, "limit", 2)
    job = Job(
        args.verb,
        limit=limit,
        time_limit=args.time_limit,
        steps=getattr(args, "steps", False),
        grade=args.verb != "solve" or getattr(args, "grade", False),
    )
    items = list(puzzle_items(args.paths, args.input_format, args.max_size))
    if not items:
        raise PuzzleError("no puzzle files found in " + ", ".join(args.paths))
    unique = {item.key(): item for item in reversed(items)}  # a path given twice: once
    return job, [item for item in items if unique.get(item.key()) is item]


def puzzle_items(paths: Sequence[str], format: str | None, max_size: int) -> Iterator[Item]:
    """Every puzzle of the paths, read here (a worker needs no access to the files); one that
    cannot be read is an item whose record will say why."""
    for path in expand(paths):
        try:
            with reading(path):
                listed = list_genre(path)
            if listed:
                genre, text = listed
                for number, puzzle in entries(genre, text, path, format):
                    yield Item(path, number, puzzle)
            else:
                yield Item(path, None, load(path, format, max_size))
        except PuzzleError as error:
            yield Item(path, None, error)
        except Exception as error:  # a reader's bug: this file's record, not the batch's end
            yield Item(path, None, PuzzleError(f"{path}: internal error: {describe(error)}"))
