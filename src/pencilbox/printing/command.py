"""The `pencilbox print` and `pencilbox book` sub-commands."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from pencilbox.batch.command import puzzle_items
from pencilbox.batch.progress import BatchProgress
from pencilbox.core.drawing import PrintStyle
from pencilbox.core.pages import PAPER_MM, Notice
from pencilbox.errors import PuzzleError, quote, shorten
from pencilbox.genres import base
from pencilbox.inputs import at_least, generator_options, seconds
from pencilbox.printing import book
from pencilbox.printing.document import SOLUTIONS, Options, Printed, Section, document
from pencilbox.printing.entries import prepared

EXIT_OK, EXIT_INTERRUPTED = 0, 130

PRINT_HELP = """Print puzzles as a PDF: N a page (default: as many as fit with cells of 6 mm or
more), each with its number, genre, size, grade and title, and the solutions upside down at the
foot of the page, on the page after, or at the back (the default). Puzzles come from files,
folders, list files, puzzle URLs and pictures, as for `pencilbox solve`."""

BOOK_HELP = """pencilbox book GENRE --count N [--grade G] [--size S] [--seed S] [--OPTION V] --out F
pencilbox book --genre GENRE[:KEY=VALUE,...] [--genre ...] [--count N] --out FILE
pencilbox book --recipe club.toml --out FILE

Generates the puzzles (seeds S, S+1, ...: puzzle K is `pencilbox generate GENRE --seed K` with
the same options), proves each unique and prints a book: a cover with the title and contents
(count per grade), the puzzles numbered in increasing difficulty a section at a time, and the
solutions at the back. Ctrl-C keeps what was made (in FILE.journal.jsonl): run the same
command again to go on.

A recipe (TOML, or JSON of the same shape) has optional title, page, per_page and solutions,
and one [[section]] table per section: genre, count, and the generator's options (grade,
size, ...), optionally seed and title. --genre takes the same keys, e.g.
--genre sudoku:count=40,grade=hard --genre nonogram:count=20,size=15,grade=line

options:
  --count N          puzzles (a section's default)
  --seed S           the first seed (default 1)
  --out FILE         the PDF (required)
  --title TEXT       on the cover and every page's head
  --page SIZE        a4 (default), a3, letter or tabloid
  --per-page N       puzzles a page (default: as many as fit legibly)
  --solutions WHERE  back (default), upside-down, after or none
  --hatch            shaded cells hatched (black-and-white printers) instead of grey
  --workers N        local processes making the puzzles (default: the number of cores)
Any other --OPTION VALUE goes to the generator (see `pencilbox generate GENRE --help`).
"""


def add_parsers(commands: Any) -> None:
    """Register `print` and `book` under the command line's sub-commands."""
    printing = commands.add_parser("print", help="print puzzles as PDF", description=PRINT_HELP)
    printing.add_argument(
        "paths", nargs="+", metavar="PATH", help="puzzle files, folders, lists, URLs, pictures"
    )
    printing.add_argument("--out", required=True, metavar="FILE", help="the PDF to write")
    _layout_options(printing)
    printing.add_argument("--format", help="input notation (detected when omitted)")
    printing.add_argument("--max-size", type=at_least(1), default=200, help="largest side read")
    printing.add_argument(
        "--time-limit",
        type=seconds,
        default=60.0,
        metavar="S",
        help="per puzzle, to prove its solution unique and grade it (default 60)",
    )
    printing.set_defaults(run=run_print)
    making = commands.add_parser(
        "book",
        help="generate a graded book of puzzles as PDF (resumable)",
        usage=BOOK_HELP.splitlines()[0].removeprefix("pencilbox "),
        description=BOOK_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    making.set_defaults(run=run_book, extra=[])  # (its options are parsed by run_book)


def _layout_options(parser: argparse.ArgumentParser, solutions: str = "back") -> None:
    parser.add_argument("--per-page", type=at_least(1), metavar="N", help="puzzles a page")
    parser.add_argument("--page", choices=tuple(PAPER_MM), default="a4", help="paper (default a4)")
    parser.add_argument(
        "--solutions", choices=SOLUTIONS, default=solutions, help=f"where (default {solutions})"
    )
    parser.add_argument("--title", metavar="TEXT", help="printed at the head of every page")
    parser.add_argument("--hatch", action="store_true", help="shaded cells hatched, not grey")


def _options(args: argparse.Namespace) -> Options:
    return Options(args.page, args.per_page, args.solutions, args.title, PrintStyle(args.hatch))


# -- print ------------------------------------------------------------------------------------
def run_print(args: argparse.Namespace) -> int:
    _check_writable(args.out)
    items = list(puzzle_items(args.paths, args.format, args.max_size))
    if not items:
        raise PuzzleError("no puzzle files found in " + ", ".join(args.paths))
    for item in items:
        if isinstance(item.puzzle, PuzzleError):
            raise item.puzzle
    entries, notices = [], []
    solve = args.solutions != "none"
    with BatchProgress("print", len(items), 0) as progress:
        for number, item in enumerate(items, start=1):
            entry, notice = prepared(item.puzzle, number, solve=solve, time_limit=args.time_limit)
            entries.append(entry)
            notices += [notice] if notice else []
            progress.advance(1)
    printed = document([Section("", entries)], _options(args))
    _finish(args.out, printed, notices + printed.notices, len(entries))
    return EXIT_OK


# -- book -------------------------------------------------------------------------------------
def _book_arguments(tokens: list[str]) -> tuple[argparse.Namespace, str | None, list[str]]:
    """The book's own options; the genre (when given first) and the generator's tokens."""
    genre = tokens.pop(0) if tokens and not tokens[0].startswith("-") else None
    parser = argparse.ArgumentParser(prog="pencilbox book", usage=BOOK_HELP.splitlines()[0])
    parser.add_argument("--count", type=at_least(1))
    parser.add_argument("--seed", type=at_least(0), default=1)
    parser.add_argument("--out", required=True)
    parser.add_argument("--genre", action="append", default=[], dest="specs")
    parser.add_argument("--recipe")
    parser.add_argument("--workers", type=at_least(1))
    _layout_options(parser)
    known, rest = parser.parse_known_args(tokens)
    return known, genre, rest


def _plans(args: argparse.Namespace, genre: str | None, rest: list[str]) -> list[book.Plan]:
    given = [bool(genre), bool(args.specs), bool(args.recipe)]
    if sum(given) != 1:
        raise PuzzleError("book: give one of GENRE, --genre (repeatable) or --recipe FILE")
    if args.recipe:
        if rest:
            raise PuzzleError(
                f"book --recipe: unexpected {quote(rest[0])} (options go in the recipe)"
            )
        plans, settings = book.recipe(args.recipe, args.count, args.seed)
        _apply_settings(args, settings)
        return plans
    if genre:
        options, _ = generator_options(base.get(genre), rest)
        if args.count is None:
            raise PuzzleError("book: how many puzzles? give --count N")
        return [book.plan(genre, args.count, options, options.pop("seed", args.seed))]
    plans = [book.genre_spec(spec, args.count, args.seed) for spec in args.specs]
    if rest:  # options for every section (a section's own win)
        plans = [_with_common(p, rest) for p in plans]
    return plans


def _with_common(section: book.Plan, rest: list[str]) -> book.Plan:
    common, _ = generator_options(base.get(section.genre), rest)
    options = {**common, **dict(section.options)}
    return book.plan(section.genre, section.count, options, section.seed, section.title)


def _apply_settings(args: argparse.Namespace, settings: dict[str, Any]) -> None:
    """A recipe's book-wide settings, where the command line did not say otherwise."""
    allowed = {"title": str, "page": str, "per_page": int, "solutions": str}
    for name, value in settings.items():
        if name not in allowed or not isinstance(value, allowed[name]):
            raise PuzzleError(
                f"--recipe: unknown or bad setting {name} = {value!r} "
                "(settings: title, page, per_page, solutions)"
            )
        if name == "page" and value not in PAPER_MM:
            raise PuzzleError(
                f"--recipe: page {quote(str(value))}: choose a4, a3, letter or tabloid"
            )
        if name == "solutions" and value not in SOLUTIONS:
            raise PuzzleError(
                f"--recipe: solutions {quote(str(value))}: choose {', '.join(SOLUTIONS)}"
            )
        defaults = {"title": None, "page": "a4", "per_page": None, "solutions": "back"}
        if getattr(args, name) == defaults[name]:
            setattr(args, name, value)


def run_book(args: argparse.Namespace) -> int:
    known, genre, rest = _book_arguments(list(args.extra))
    plans = _plans(known, genre, rest)
    _check_writable(known.out)
    try:
        made = book.generate(plans, known.out, known.workers)
    except book.Interrupted as stop:
        print(
            f"pencilbox: {stop}; run the same command again to go on (it keeps {stop.journal})",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    total = sum(p.count for p in plans)
    with BatchProgress("book: proving and grading", total, 0) as progress:
        sections, notices = book.sections(plans, made, lambda: progress.advance(1))
    if known.title is None:
        known.title = (
            "Puzzles" if len(plans) > 1 else f"{plans[0].count} puzzles: {plans[0].heading()}"
        )
    printed = document(sections, _options(known), cover=True)
    _finish(known.out, printed, notices + printed.notices, total)
    book.journal_path(known.out).unlink(missing_ok=True)
    return EXIT_OK


# -- output -----------------------------------------------------------------------------------
def _check_writable(out: str) -> None:
    """Before any work: the folder exists and may be written to."""
    folder = Path(out).parent
    if not folder.is_dir() or not os.access(folder, os.W_OK):
        raise PuzzleError(f"cannot write {shorten(out, 80)}: no such folder, or not writable")
    if Path(out).is_dir():
        raise PuzzleError(f"cannot write {shorten(out, 80)}: it is a folder")


def _finish(out: str, printed: Printed, notices: list[Notice], count: int) -> None:
    """Write the PDF (a temporary file renamed over it: never half a PDF) and tell the user."""
    temporary = Path(out).with_name(f".{Path(out).name}.tmp")
    try:
        temporary.write_bytes(printed.pdf)
        os.replace(temporary, out)
    except OSError as error:
        temporary.unlink(missing_ok=True)
        raise PuzzleError(f"cannot write {shorten(out, 80)}: {error.strerror}") from None
    for notice in notices:
        print(f"pencilbox: {notice.caption} {notice.message}", file=sys.stderr)
    size = len(printed.pdf) / 1024
    print(f"{out}: {printed.pages} pages, {count} puzzles, {size:.0f} KB", file=sys.stderr)
