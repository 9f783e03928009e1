"""The `pencilbox` command line. It only calls the genre interface; bad input exits with 2.

pencilbox solve PATH... [--jsonl]     verdict and solutions (files, folders, URLs)
pencilbox check PATH                  verdict and grade
pencilbox explain PATH                the solving steps, numbered
pencilbox convert PATH --to FORMAT    the puzzle in another notation
pencilbox render PATH --svg OUT       a picture: empty, after logic, or solved
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

import pencilbox
from pencilbox.errors import PuzzleError
from pencilbox.genres.base import SolveResult

EXIT_OK, EXIT_BAD_INPUT, EXIT_INTERRUPTED = 0, 2, 130
PUZZLE_SUFFIXES = (
    ".json",
    ".non",
    ".xml",
    ".mk",
    ".nin",
    ".pattern",
    ".clues",
    ".txt",
    ".pzpr",
    ".url",
)
PROGRESS_THRESHOLD = 5


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.run(args)
        return code
    except PuzzleError as error:
        print(f"pencilbox: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("pencilbox: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_OK


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pencilbox", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--version", action="version", version=pencilbox.__version__)
    commands = parser.add_subparsers(dest="command", required=True)

    def common(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("--format", help="input notation (detected when omitted)")
        sub.add_argument(
            "--max-size",
            type=int,
            default=200,
            help="refuse puzzles wider or taller than this (default 200)",
        )

    solve = commands.add_parser("solve", help="solve puzzles in validation mode")
    solve.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="puzzle files, folders (searched recursively) or puzzle URLs",
    )
    common(solve)
    solve.add_argument("--limit", type=int, default=2, help="solutions to look for (default 2)")
    solve.add_argument(
        "--time-limit",
        type=float,
        default=None,
        metavar="S",
        help="give up on a puzzle after S seconds (status timeout)",
    )
    solve.add_argument(
        "--single-pass",
        action="store_true",
        help="one pass of line logic (all rows, then all columns) and stop",
    )
    solve.add_argument("--steps", action="store_true", help="print every step first")
    output = solve.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="one JSON document")
    output.add_argument("--jsonl", action="store_true", help="one JSON object per puzzle")
    solve.set_defaults(run=_solve)

    check = commands.add_parser("check", help="verdict (unique / multiple / none) and grade")
    check.add_argument("path", metavar="PATH")
    common(check)
    check.add_argument("--time-limit", type=float, default=None, metavar="S")
    check.set_defaults(run=_check)

    explain = commands.add_parser("explain", help="the solving steps, numbered")
    explain.add_argument("path", metavar="PATH")
    common(explain)
    explain.add_argument("--time-limit", type=float, default=None, metavar="S")
    explain.add_argument("--json", action="store_true", help="the steps as JSON")
    explain.set_defaults(run=_explain)

    convert = commands.add_parser("convert", help="write the puzzle in another notation")
    convert.add_argument("path", metavar="PATH")
    common(convert)
    convert.add_argument("--to", required=True, metavar="FORMAT", help="output notation")
    convert.add_argument("-o", "--output", metavar="OUT", help="write here instead of stdout")
    convert.set_defaults(run=_convert)

    render = commands.add_parser("render", help="draw the puzzle as SVG or text")
    render.add_argument("path", metavar="PATH")
    common(render)
    render.add_argument("--svg", metavar="OUT", help="write an SVG picture here")
    render.add_argument(
        "--state",
        choices=("empty", "logic", "solved"),
        default="empty",
        help="draw the empty grid, what logic finds, or the solution",
    )
    render.set_defaults(run=_render)
    return parser


# -- inputs -----------------------------------------------------------------------------------
def _is_url(text: str) -> bool:
    return "://" in text or text.startswith(("p?", "pzv.jp", "puzz.link"))


def _expand(paths: Sequence[str]) -> Iterator[str]:
    """Files and URLs in the order given; folders become their puzzle files, sorted."""
    for item in paths:
        path = Path(item)
        if path.is_dir():
            for found in sorted(path.rglob("*")):
                if found.is_file() and found.suffix.lower() in PUZZLE_SUFFIXES:
                    yield str(found)
        elif path.exists() or not _is_url(item):
            yield item
        else:
            yield item


def _load(item: str, args: argparse.Namespace) -> Any:
    path = Path(item)
    if not path.exists():
        if _is_url(item):
            return pencilbox.load(item, format=args.format, max_size=args.max_size)
        raise PuzzleError(f"{item}: no such file")
    return pencilbox.load(path, format=args.format, max_size=args.max_size)


# -- solve ------------------------------------------------------------------------------------
def _solve(args: argparse.Namespace) -> int:
    items = list(_expand(args.paths))
    if not items:
        raise PuzzleError("no puzzle files found in " + ", ".join(args.paths))
    records: list[dict[str, Any]] = []
    worst = EXIT_OK
    with _Progress(len(items)) as progress:
        for item in items:
            record, code = _solve_one(item, args)
            worst = max(worst, code)
            progress.advance()
            if args.jsonl:
                print(json.dumps(record), flush=True)
            elif args.json:
                records.append(record)
            if code == EXIT_INTERRUPTED:
                break
    if args.json:
        print(json.dumps(records[0] if len(records) == 1 else records, indent=1))
    return worst


def _solve_one(item: str, args: argparse.Namespace) -> tuple[dict[str, Any], int]:
    record: dict[str, Any] = {
        "file": item,
        "status": "error",
        "solutions": [],
        "grade": None,
        "time_s": 0.0,
        "stats": {},
        "error": None,
    }
    try:
        puzzle = _load(item, args)
    except PuzzleError as error:
        record["error"] = str(error)
        if not (args.json or args.jsonl):
            print(f"pencilbox: {error}", file=sys.stderr)
        return record, EXIT_BAD_INPUT
    if args.single_pass:
        grid = puzzle.logic_grid(max_passes=1)
        record.update(status="partial", solutions=[puzzle.solution_json(grid)])
        if not (args.json or args.jsonl):
            _print_header(item, args)
            print(puzzle.render(grid, "text"), end="")
        return record, EXIT_OK
    if args.steps and not (args.json or args.jsonl):
        _print_steps(puzzle.steps(time_limit=args.time_limit))
    result: SolveResult = puzzle.solve(limit=args.limit, time_limit=args.time_limit)
    record.update(
        status=result.status,
        solutions=[puzzle.solution_json(g) for g in result.solutions],
        grade=result.grade,
        time_s=round(result.time_s, 6),
        stats=result.stats,
    )
    if not (args.json or args.jsonl):
        _print_header(item, args)
        _print_result(puzzle, result)
    interrupted = result.stats.get("interrupted")
    return record, EXIT_INTERRUPTED if interrupted else EXIT_OK


def _print_header(item: str, args: argparse.Namespace) -> None:
    if len(args.paths) > 1 or Path(args.paths[0]).is_dir():
        print(f"== {item}")


def _print_result(puzzle: Any, result: SolveResult) -> None:
    if result.status == "unique":
        print(f"unique solution (grade: {result.grade}, {result.time_s:.3f} s)")
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


def _print_steps(steps: list[Any], out: TextIO = sys.stdout) -> None:
    width = len(str(len(steps)))
    for number, step in enumerate(steps, start=1):
        print(f"{number:>{width}}. {step.sentence}", file=out)


# -- other verbs ------------------------------------------------------------------------------
def _check(args: argparse.Namespace) -> int:
    puzzle = _load(args.path, args)
    result = puzzle.solve(limit=2, time_limit=args.time_limit)
    print(f"{result.status} (grade: {result.grade})")
    return EXIT_OK


def _explain(args: argparse.Namespace) -> int:
    puzzle = _load(args.path, args)
    steps = puzzle.steps(time_limit=args.time_limit)
    if args.json:
        print(json.dumps([step.to_json() for step in steps], indent=1))
    else:
        _print_steps(steps)
    return EXIT_OK


def _convert(args: argparse.Namespace) -> int:
    puzzle = _load(args.path, args)
    text = puzzle.to(args.to)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return EXIT_OK


def _render(args: argparse.Namespace) -> int:
    puzzle = _load(args.path, args)
    grid = None
    if args.state == "logic":
        grid = puzzle.logic_grid(probes=True)
    elif args.state == "solved":
        result = puzzle.solve(limit=1)
        grid = result.solutions[0] if result.solutions else None
    if args.svg:
        Path(args.svg).write_text(puzzle.render(grid, "svg"), encoding="utf-8")
    else:
        sys.stdout.write(puzzle.render(grid, "text"))
    return EXIT_OK


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
