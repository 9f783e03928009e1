"""The `pencilbox` command line. It only calls the genre interface; bad input exits with 2.

pencilbox solve PATH... [--jsonl]     verdict and solutions (files, folders, URLs)
pencilbox check PATH                  verdict and grade
pencilbox explain PATH                the solving steps, numbered
pencilbox convert PATH --to FORMAT    the puzzle in another notation
pencilbox render PATH --svg OUT       a picture: empty, after logic, or solved (--png OUT too)
pencilbox solve LIST --jsonl [--jobs N]   a file of many puzzles (puzzle lists): one line each
pencilbox generate GENRE [--OPTION V]  a new puzzle (generate GENRE --help lists the options)
pencilbox read IMAGE... [--jsonl]     the puzzle in a screenshot or photo (PNG, JPEG, WebP)
pencilbox serve [--port 8000]         the web app (library, play, hint, animate, solve)
pencilbox batch VERB ... --out FILE   many puzzles (solve, grade, check, generate), resumable,
                                      on local processes or a Dask cluster
pencilbox print PATH... --out FILE    puzzles as PDF, N a page, solutions upside down/after/back
pencilbox book GENRE --count N --out FILE   a generated, graded book as PDF (resumable)
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import FrameType
from typing import Any, TextIO

import pencilbox
from pencilbox import inputs
from pencilbox.batch import add_parser as _batch_verb
from pencilbox.core.timing import Deadline
from pencilbox.errors import PuzzleError, shorten
from pencilbox.genres import base
from pencilbox.genres.base import SolveResult
from pencilbox.inputs import at_least as _at_least
from pencilbox.inputs import describe as _describe
from pencilbox.inputs import expand as _expand
from pencilbox.inputs import list_genre as _batch_genre
from pencilbox.inputs import reading as _reading
from pencilbox.inputs import seconds as _seconds
from pencilbox.printing import add_parsers as _print_verbs
from pencilbox.records import (
    SolveTask,
    empty_record,
    generated_data,
    generated_record,
    grade_record,
    solve_record,
    solve_records,
)

EXIT_OK, EXIT_INTERNAL, EXIT_BAD_INPUT, EXIT_INTERRUPTED = 0, 1, 2, 130
PROGRESS_THRESHOLD = 5


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    # A verb that parses its own options (`book`: its options, then the generator's) says so
    # with an `extra` default and gets the rest; any other verb refuses what it does not know.
    args, extra = parser.parse_known_args(argv)
    if extra and not hasattr(args, "extra"):
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if extra:
        args.extra = extra
    with INTERRUPTS as interrupts:
        try:
            code: int = args.run(args)
        except PuzzleError as error:
            print(f"pencilbox: {error}", file=sys.stderr)
            return EXIT_BAD_INPUT
        except KeyboardInterrupt:
            code = EXIT_INTERRUPTED
        except BrokenPipeError:
            return EXIT_OK
        except Exception as error:  # a bug: one line (with its kind), never a traceback
            print(f"pencilbox: internal error: {_describe(error)}", file=sys.stderr)
            return EXIT_INTERNAL
    if code == EXIT_INTERRUPTED or interrupts.seen:
        print("pencilbox: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    return code


class _Interrupts:
    """Notes every Ctrl-C during the command. Library code may catch the KeyboardInterrupt to
    stop cleanly with what it has (a partial trace, the cells known so far); the command then
    prints that and still ends with status 130."""

    def __init__(self) -> None:
        self.seen = False
        self._installed = False

    def __enter__(self) -> _Interrupts:
        self.seen = False
        # Only Python's own handler is replaced: a shell that starts us in the background
        # sets SIGINT to "ignore", which stays.
        on_main_thread = threading.current_thread() is threading.main_thread()
        if on_main_thread and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, self._interrupted)
            self._installed = True
        return self

    def _interrupted(self, signum: int, frame: FrameType | None) -> None:
        self.seen = True
        raise KeyboardInterrupt

    def __exit__(self, *exc: object) -> None:
        if self._installed:
            signal.signal(signal.SIGINT, signal.default_int_handler)
            self._installed = False

    def check(self) -> None:
        """Between two phases of work: stop if a Ctrl-C was caught inside the last one."""
        if self.seen:
            raise KeyboardInterrupt


INTERRUPTS = _Interrupts()


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pencilbox", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--version", action="version", version=pencilbox.__version__)
    commands = parser.add_subparsers(dest="command", required=True)
    for add_verb in VERBS:
        add_verb(commands)
    return parser


def _common(sub: argparse.ArgumentParser) -> None:
    """The options of every verb that reads a puzzle."""
    sub.add_argument("--format", help="input notation (detected when omitted)")
    sub.add_argument(
        "--max-size",
        type=_at_least(1),
        default=200,
        help="refuse puzzles wider or taller than this (default 200)",
    )


def _time_limit(sub: argparse.ArgumentParser, what: str = "stop") -> None:
    sub.add_argument(
        "--time-limit", type=_seconds, default=None, metavar="S", help=f"{what} after S seconds"
    )


def _one_puzzle(commands: Any, verb: str, help: str) -> argparse.ArgumentParser:
    """A verb that reads one puzzle (PATH and the common options)."""
    sub: argparse.ArgumentParser = commands.add_parser(verb, help=help)
    sub.add_argument("path", metavar="PATH")
    _common(sub)
    return sub


# -- inputs -----------------------------------------------------------------------------------
def _load(item: str, args: argparse.Namespace) -> Any:
    return inputs.load(item, args.format, args.max_size)


# -- solve ------------------------------------------------------------------------------------
def _solve_verb(commands: Any) -> None:
    solve = commands.add_parser("solve", help="solve puzzles in validation mode")
    solve.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="puzzle files, folders (searched recursively) or puzzle URLs",
    )
    _common(solve)
    solve.add_argument(
        "--limit", type=_at_least(1), default=2, help="solutions to look for (default 2)"
    )
    _time_limit(solve, "give up on a puzzle (its steps and search together; status timeout)")
    solve.add_argument(
        "--single-pass",
        action="store_true",
        help="one pass of line logic (all rows, then all columns) and stop",
    )
    solve.add_argument("--steps", action="store_true", help="print every step first")
    _grade_option(solve)
    solve.add_argument(
        "--jobs",
        type=_at_least(1),
        default=1,
        metavar="N",
        help="solve the puzzles of a many-puzzle file in N processes (output order kept)",
    )
    solve.add_argument(
        "--alphabet",
        default=None,
        help="the symbols of a list file's puzzles when not the usual ones, e.g. 0123456789ABCDEF",
    )
    output = solve.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="one JSON document")
    output.add_argument("--jsonl", action="store_true", help="one JSON object per puzzle")
    solve.set_defaults(run=_solve)


def _grade_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--grade",
        action="store_true",
        help="grade each puzzle too where grading costs more than solving (without it the "
        "grade is null there; a grade that comes with the search is always given)",
    )


def _solve(args: argparse.Namespace) -> int:
    items = list(_expand(args.paths))
    if not items:
        raise PuzzleError("no puzzle files found in " + ", ".join(args.paths))
    records: list[dict[str, Any]] = []
    worst = EXIT_OK
    with _Progress(len(items)) as progress:
        for item in items:
            INTERRUPTS.check()
            for record, code in _outcomes(item, args):
                worst = max(worst, code)
                if args.jsonl:
                    print(json.dumps(record), flush=True)
                elif args.json:
                    records.append(record)
                if code == EXIT_INTERRUPTED:
                    break
            progress.advance()
            if worst == EXIT_INTERRUPTED:
                break
    if args.json:
        print(json.dumps(records[0] if len(records) == 1 else records, indent=1))
    return worst


def _outcomes(item: str, args: argparse.Namespace) -> Iterator[tuple[dict[str, Any], int]]:
    """The records of one file (one, or one per puzzle of a list). A file whose solving fails
    in an unforeseen way is reported as such and the batch goes on with the next."""
    try:
        with _reading(item):
            batch = _batch_genre(item)
        if batch:
            yield from _solve_batch(item, *batch, args)
        else:
            yield _solve_one(item, args)
    except PuzzleError as error:
        yield _failed(item, str(error), args), EXIT_BAD_INPUT
    except Exception as error:
        yield _failed(item, f"internal error: {_describe(error)}", args), EXIT_INTERNAL


def _failed(item: str, message: str, args: argparse.Namespace) -> dict[str, Any]:
    if not (args.json or args.jsonl):
        print(f"pencilbox: {message}", file=sys.stderr)
    return {**empty_record(item), "error": message}


def _solve_one(item: str, args: argparse.Namespace) -> tuple[dict[str, Any], int]:
    record = empty_record(item)
    try:
        puzzle = _load(item, args)
    except PuzzleError as error:
        return _failed(item, str(error), args), EXIT_BAD_INPUT
    if args.single_pass:
        grid = puzzle.logic_grid(max_passes=1)
        record.update(status="partial", solutions=[puzzle.solution_json(grid)])
        if not (args.json or args.jsonl):
            _print_header(item, args)
            print(puzzle.render(grid, "text"), end="")
        return record, EXIT_OK
    # One deadline for the whole puzzle: the steps and the search share the time limit.
    deadline = Deadline(args.time_limit)
    if args.steps and not (args.json or args.jsonl):
        _print_steps(puzzle.steps(time_limit=deadline.remaining()))
        INTERRUPTS.check()
    result: SolveResult = puzzle.solve(
        limit=args.limit, time_limit=deadline.remaining(), grade=args.grade
    )
    record = solve_record(item, None, puzzle, result)
    if not (args.json or args.jsonl):
        _print_header(item, args)
        _print_result(puzzle, result)
    interrupted = result.stats.get("interrupted")
    return record, EXIT_INTERRUPTED if interrupted else EXIT_OK


# -- files of many puzzles (puzzle lists) -------------------------------------------------------
def _solve_batch(
    item: str, genre: Any, text: str, args: argparse.Namespace
) -> Iterator[tuple[dict[str, Any], int]]:
    """One record per puzzle of the file, in file order; a bad line is a record with status
    "error" (exit 2 at the end) and the batch goes on. `--jobs N` solves in N processes."""
    options = {"alphabet": args.alphabet} if getattr(args, "alphabet", None) else {}
    entries = _entries(genre, text, item, args, **options)
    single_pass = bool(getattr(args, "single_pass", False))
    grade = bool(getattr(args, "grade", False))
    tasks = [
        (item, number, found, args.limit, args.time_limit, single_pass, grade)
        for number, found in entries
    ]
    jobs = max(1, getattr(args, "jobs", 1) or 1)
    human = not (args.json or args.jsonl)
    if jobs > 1 and len(tasks) > 1:
        import multiprocessing

        size = max(1, min(4096, len(tasks) // (jobs * 4)))
        chunks = [tasks[i : i + size] for i in range(0, len(tasks), size)]
        with multiprocessing.Pool(min(jobs, len(chunks))) as pool:
            for records in pool.imap(_batch_chunk, chunks):
                for record in records:
                    yield _batch_report(record, human, len(tasks))
    else:
        for record in solve_records(tasks):
            yield _batch_report(record, human, len(tasks))


def _entries(
    genre: Any, text: str, item: str, args: argparse.Namespace, **options: Any
) -> list[tuple[int, Any]]:
    return inputs.entries(genre, text, item, args.format, **options)


def _batch_chunk(tasks: Sequence[SolveTask]) -> list[dict[str, Any]]:
    return list(solve_records(tasks))


def _batch_report(record: dict[str, Any], human: bool, total: int) -> tuple[dict[str, Any], int]:
    code = EXIT_OK
    if record["status"] == "error":
        code = EXIT_BAD_INPUT
    elif record["stats"].get("interrupted"):
        code = EXIT_INTERRUPTED
    if human:
        where = f"{record['file']} line {record['line']}"
        if record["error"]:
            print(f"pencilbox: {record['error']}", file=sys.stderr)
        else:
            shown = " ".join(record["solutions"][:2])
            print(f"{where}: {record['status']} ({record['time_s']:.4f} s) {shown}".rstrip())
    return record, code


def _print_header(item: str, args: argparse.Namespace) -> None:
    if len(args.paths) > 1 or Path(args.paths[0]).is_dir():
        print(f"== {item}")


def _print_result(puzzle: Any, result: SolveResult) -> None:
    if result.status == "unique":
        graded = f"grade: {result.grade}, " if result.grade else ""
        print(f"unique solution ({graded}{result.time_s:.3f} s)")
        print(puzzle.render(result.solutions[0], "text"), end="")
    elif result.status == "multiple":
        print(f"more than one solution ({result.time_s:.3f} s); two of them:")
        for grid in result.solutions[:2]:
            print(puzzle.render(grid, "text"))
        cells = result.differences()
        shown = ", ".join(f"r{r + 1}c{c + 1}" for r, c in cells[:20])
        more = f" and {len(cells) - 20} more" if len(cells) > 20 else ""
        print(f"they differ in {len(cells)} cells: {shown}{more}")
    elif result.status == "none":
        print(f"no solution ({result.time_s:.3f} s)")
    else:
        print(f"stopped after {result.time_s:.1f} s without a verdict; known so far:")
        if result.partial is not None:
            print(puzzle.render(result.partial, "text"), end="")


def _print_steps(steps: list[Any], out: TextIO | None = None) -> None:
    out = out or sys.stdout  # (looked up now: a default would keep the stdout of import time)
    width = len(str(len(steps)))
    for number, step in enumerate(steps, start=1):
        print(f"{number:>{width}}. {step.sentence}", file=out)


# -- other verbs ------------------------------------------------------------------------------
def _check_verb(commands: Any) -> None:
    check = _one_puzzle(commands, "check", "verdict (unique / multiple / none) and grade")
    _time_limit(check, "give up (verdict timeout)")
    check.add_argument(
        "--answer",
        metavar="ANSWER",
        help="check this answer (a file or text in any format that carries one) "
        "against the rules instead of solving; prints every violation",
    )
    check.set_defaults(run=_check)


def _check(args: argparse.Namespace) -> int:
    puzzle = _load(args.path, args)
    if getattr(args, "answer", None):
        return _check_answer(puzzle, args)
    result = puzzle.solve(limit=2, time_limit=args.time_limit)
    print(f"{result.status} (grade: {result.grade})")
    return EXIT_INTERRUPTED if result.stats.get("interrupted") else EXIT_OK


def _check_answer(puzzle: Any, args: argparse.Namespace) -> int:
    """Every rule violation of the given answer (exit 1 when there is any)."""
    holder = _load(args.answer, args)
    answer = getattr(holder, "answer", None)
    if answer is None or not hasattr(puzzle, "check"):
        raise PuzzleError(f"{args.answer}: carries no answer for this puzzle")
    problems = puzzle.check(answer)
    for problem in problems:
        print(problem)
    if not problems:
        print("correct: the answer follows every rule")
    return 1 if problems else EXIT_OK


def _explain_verb(commands: Any) -> None:
    explain = _one_puzzle(commands, "explain", "the solving steps, numbered")
    _time_limit(explain, "stop with the steps found")
    explain.add_argument("--json", action="store_true", help="the steps as JSON")
    explain.set_defaults(run=_explain)


def _explain(args: argparse.Namespace) -> int:
    puzzle = _load(args.path, args)
    steps = puzzle.steps(time_limit=args.time_limit)
    if args.json:
        print(json.dumps([step.to_json() for step in steps], indent=1))
    else:
        _print_steps(steps)
    return EXIT_OK


def _hint_verb(commands: Any) -> None:
    hint = _one_puzzle(commands, "hint", "the next step: its technique, where, or all")
    hint.add_argument(
        "--level",
        type=int,
        choices=(1, 2, 3),
        default=1,
        help="1: the technique's name; 2: where to look; 3: the whole step",
    )
    hint.set_defaults(run=_hint)


def _hint(args: argparse.Namespace) -> int:
    puzzle = _load(args.path, args)
    text = puzzle.hint(args.level)
    print(text or "No logical step applies: the puzzle is solved, stuck or has no solution.")
    return EXIT_OK


def _grade_verb(commands: Any) -> None:
    grade = _one_puzzle(commands, "grade", "how hard: level, score, hardest technique")
    grade.add_argument("--jsonl", action="store_true", help="one JSON object per puzzle")
    _time_limit(grade, "give up on a puzzle's grade")
    grade.set_defaults(run=_grade)


def _grade(args: argparse.Namespace) -> int:
    """Grade one puzzle, or every puzzle of a list file (one JSON object per line)."""
    with _reading(args.path):
        batch = _batch_genre(args.path)
    if batch:
        genre, text = batch
        entries = _entries(genre, text, args.path, args)
    else:
        entries = [(1, _load(args.path, args))]
    worst = EXIT_OK
    for number, puzzle in entries:
        INTERRUPTS.check()
        record = grade_record(number, puzzle, args.time_limit)
        if "error" in record:
            worst = EXIT_BAD_INPUT
        if args.jsonl:
            print(json.dumps(record), flush=True)
        else:
            _print_grade(record, len(entries) > 1)
    return worst


def _print_grade(record: dict[str, Any], numbered: bool) -> None:
    number = record["line"]
    prefix = f"line {number}: " if numbered else ""
    if "error" in record:
        print(f"line {number}: pencilbox: {record['error']}", file=sys.stderr)
    elif record.get("timeout"):
        print(f"{prefix}no grade within the time limit ({record['time_s']:.1f} s)")
    else:
        score = f", score {record['score']}" if record["score"] is not None else ""
        logic = "" if record["solved_by_logic"] else " (logic alone does not solve it)"
        print(f"{prefix}{record['level']}{score}, hardest: {record['hardest']}{logic}")


def _convert_verb(commands: Any) -> None:
    convert = _one_puzzle(commands, "convert", "write the puzzle in another notation")
    convert.add_argument("--to", required=True, metavar="FORMAT", help="output notation")
    convert.add_argument("-o", "--output", metavar="OUT", help="write here instead of stdout")
    convert.set_defaults(run=_convert)


def _convert(args: argparse.Namespace) -> int:
    puzzle = _load(args.path, args)
    text = puzzle.to(args.to)
    if args.output:
        _write_file(args.output, text.encode("utf-8"))
    else:
        sys.stdout.write(text)
    return EXIT_OK


def _render_verb(commands: Any) -> None:
    render = _one_puzzle(commands, "render", "draw the puzzle as SVG, PNG or text")
    render.add_argument("--svg", metavar="OUT", help="write an SVG picture here")
    render.add_argument("--png", metavar="OUT", help="write a PNG picture here (needs Pillow)")
    render.add_argument(
        "--state",
        choices=("empty", "logic", "solved"),
        default="empty",
        help="draw the empty grid, what logic finds, or the solution",
    )
    _time_limit(render, "stop searching for the solution (--state solved) and draw what is known")
    render.set_defaults(run=_render)


def _render(args: argparse.Namespace) -> int:
    puzzle = _load(args.path, args)
    grid = None
    code = EXIT_OK
    if args.state == "logic":
        grid = puzzle.logic_grid(probes=True)
    elif args.state == "solved":
        result = puzzle.solve(limit=1, time_limit=args.time_limit, grade=False)
        grid = result.solutions[0] if result.solutions else result.partial
        if result.stats.get("interrupted"):
            code = EXIT_INTERRUPTED
        elif result.status == "timeout":
            print(
                f"pencilbox: no solution within {result.time_s:.1f} s; drawing what is known",
                file=sys.stderr,
            )
        elif result.status == "none":
            print("pencilbox: the puzzle has no solution; drawing it empty", file=sys.stderr)
    if args.svg:
        _write_file(args.svg, puzzle.render(grid, "svg").encode("utf-8"))
    if args.png:
        try:
            picture = puzzle.render_png(grid)
        except ImportError as error:  # Pillow is an optional extra
            raise PuzzleError(str(error)) from None
        _write_file(args.png, picture)
    if not (args.svg or args.png):
        sys.stdout.write(puzzle.render(grid, "text"))
    return code


def _write_file(out: str, data: bytes) -> None:
    """Write an output file; a folder that is missing or read-only is bad input (exit 2)."""
    try:
        Path(out).write_bytes(data)
    except (OSError, ValueError) as error:
        reason = getattr(error, "strerror", None) or error
        raise PuzzleError(f"cannot write {shorten(out, 80)}: {reason}") from None


# -- read -------------------------------------------------------------------------------------
def _read_verb(commands: Any) -> None:
    read = commands.add_parser(
        "read",
        help="read puzzles from screenshots or photos",
        description="Read the puzzle in each picture (PNG, JPEG or WebP) and print it in the "
        "genre's notation. Exit 0 when every picture was read with status ok, 1 when any "
        "reading is uncertain, 2 when a picture cannot be read.",
    )
    read.add_argument("paths", nargs="+", metavar="IMAGE", help="picture files")
    readers = ", ".join(g.name for g in base.all_genres() if g.picture_reader is not None)
    read.add_argument("--genre", help=f"{readers} (detected from the picture when omitted)")
    read_output = read.add_mutually_exclusive_group()
    read_output.add_argument(
        "--json", action="store_true", help="one JSON document with every number and its box"
    )
    read_output.add_argument("--jsonl", action="store_true", help="one JSON object per picture")
    read.set_defaults(run=_read)


def _read(args: argparse.Namespace) -> int:
    from pencilbox import pictures

    worst = EXIT_OK
    documents = []
    for item in args.paths:
        try:
            reading = pictures.read(item, genre=args.genre)
        except PuzzleError as error:
            worst = EXIT_BAD_INPUT
            record = pictures.record(None, item, str(error), genre=_genre_named(args.genre))
            if not (args.json or args.jsonl):
                print(f"pencilbox: {error}", file=sys.stderr)
        else:
            record = pictures.record(reading, item)
            if reading.status != "ok":
                worst = max(worst, 1)
            if not (args.json or args.jsonl):
                _print_reading(item, args, reading, pictures.puzzle_text(reading))
            if args.json:
                record.update(pictures.details(reading))
        if args.jsonl:
            print(json.dumps(record), flush=True)
        documents.append(record)
    if args.json:
        print(json.dumps(documents[0] if len(documents) == 1 else documents, indent=1))
    return worst


def _genre_named(name: str | None) -> str | None:
    """The genre a user named, in its usual spelling (None when none, or no genre)."""
    try:
        return base.get(name).name if name else None
    except PuzzleError:
        return None


def _print_reading(item: str, args: argparse.Namespace, reading: Any, text: str) -> None:
    """The puzzle on stdout (so it can be saved), the status and doubts on stderr."""
    if len(args.paths) > 1:
        print(f"== {item}")
    sys.stdout.write(text)
    sys.stdout.flush()
    note = f"{reading.genre}, {reading.status} (confidence {reading.confidence:.2f}, "
    note += f"{reading.time_s:.2f} s)"
    print(note, file=sys.stderr)
    for line in reading.repairs:
        print(f"  repaired {line}", file=sys.stderr)
    for doubt in reading.uncertain_json():
        where = doubt.get("cell") or f"{doubt['clue']} number {doubt['index']}"
        others = ", ".join(str(v) for v in doubt["alternatives"]) or "nothing else"
        print(f"  check {where}: read {doubt['read']} (or {others})", file=sys.stderr)
    if reading.verdict is not None:
        for problem in reading.verdict.problems:
            print(f"  {problem}", file=sys.stderr)


def _serve_verb(commands: Any) -> None:
    serve = commands.add_parser("serve", help="start the web app")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument("--db", metavar="PATH", help="the library file (default: user data dir)")
    serve.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME[:PORT]",
        help="another host name the app answers to (repeatable; it always answers to "
        "127.0.0.1, localhost and [::1] on its port)",
    )
    serve.add_argument(
        "--allow-fetch",
        action="store_true",
        help="let the import box fetch pasted http(s) URLs (public addresses only)",
    )
    serve.set_defaults(run=_serve)


def _check_port(host: str, port: int) -> None:
    """A clear message when the port is taken, before any work."""
    import os
    import socket

    try:
        with socket.create_server((host, port)):
            pass
    except OSError as error:
        reason = os.strerror(error.errno) if error.errno else str(error)
        raise PuzzleError(
            f"cannot listen on {host}:{port}: {reason} (try another --port)"
        ) from None


def _serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from pencilbox.store import default_path
        from pencilbox.web import create_app
    except ImportError as error:
        raise PuzzleError(
            f"the web app needs the 'web' extra (pip install 'pencilbox[web]'): {error}"
        ) from None
    _check_port(args.host, args.port)
    from pencilbox.web.security import bind_warning, host_names

    try:
        host_names(args.host, args.allowed_host)
    except ValueError as error:
        raise PuzzleError(f"serve --allowed-host: {error}") from None
    db = args.db or default_path()
    app = create_app(  # a library that cannot be used is a PuzzleError (exit 2)
        db, host=args.host, allowed_hosts=args.allowed_host, allow_fetch=args.allow_fetch
    )
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"pencilbox web app: http://{host}:{args.port}/  (library: {db})", flush=True)
    warning = bind_warning(args.host)
    if warning:
        print(f"pencilbox: warning: {warning}", file=sys.stderr, flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return EXIT_OK


# -- generate ---------------------------------------------------------------------------------
def _generate_verb(commands: Any) -> None:
    generate = commands.add_parser(
        "generate",
        help="make a new puzzle with a unique solution",
        description="generate GENRE [--OPTION VALUE ...] [--json]; the options go to the "
        "genre's generator, and `generate GENRE --help` lists them.",
    )
    generate.add_argument("genre", help="the genre (see `generate GENRE --help`)")
    generate.add_argument(
        "options", nargs=argparse.REMAINDER, help="--name value pairs, and --json"
    )
    generate.set_defaults(run=_generate)


def _generate(args: argparse.Namespace) -> int:
    genre = base.get(args.genre)
    if genre.generate is None:
        raise PuzzleError(f"there is no generator for {genre.name} yet")
    if any(token in ("-h", "--help") for token in args.options):
        print(_generator_help(genre))
        return EXIT_OK
    options, as_json = inputs.generator_options(genre, list(args.options))
    made = genre.generate(**options)
    if as_json:
        print(json.dumps(generated_record(genre, made)))
    else:
        _print_generated(made["puzzle"], generated_data(genre, made))
    return EXIT_OK


def _generator_help(genre: base.Genre) -> str:
    lines = [f"pencilbox generate {genre.name} [--OPTION VALUE ...] [--json]", "", "options:"]
    lines += [f"  {option.describe()}" for option in genre.options()]
    lines.append("  --json: print the puzzle and what the generator says about it as JSON")
    return "\n".join(lines)


def _print_generated(puzzle: Any, data: dict[str, Any]) -> None:
    # A generator may give its own "text" and "solution" rows (a picture puzzle, whose empty
    # grid shows nothing): then those are shown, and left out of the details line.
    own = isinstance(data.get("text"), str) and isinstance(data.get("solution"), list)
    if own:
        print(data["text"].rstrip("\n") + "\n\n" + "\n".join(map(str, data["solution"])))
    else:
        sys.stdout.write(puzzle.render(None, "text"))
    shown = ("line", "genre") + (("text", "solution", "clues") if own else ())
    details = ", ".join(f"{k} {v}" for k, v in data.items() if k not in shown)
    print(details)
    if "line" in data:
        print(data["line"])


VERBS: tuple[Callable[[Any], None], ...] = (
    _solve_verb,
    _check_verb,
    _explain_verb,
    _hint_verb,
    _grade_verb,
    _convert_verb,
    _render_verb,
    _generate_verb,
    _read_verb,
    _serve_verb,
    _batch_verb,
    _print_verbs,
)
"""Each verb's parser, in the order of `pencilbox --help`: a verb is one `_<verb>_verb`
function that adds its sub-command, and the function it runs."""


class _Progress:
    """A rich progress bar on stderr when many puzzles are solved and stderr is a terminal."""

    def __init__(self, total: int) -> None:
        self.total = total
        self._bar: Any = None
        self._task: Any = None

    def __enter__(self) -> _Progress:
        if self.total >= PROGRESS_THRESHOLD and sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import Progress

            self._bar = Progress(console=Console(stderr=True), transient=True)
            self._bar.start()
            self._task = self._bar.add_task("solving", total=self.total)
        return self

    def advance(self) -> None:
        if self._bar is not None:
            self._bar.advance(self._task)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()


if __name__ == "__main__":
    sys.exit(main())
