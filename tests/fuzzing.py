"""Fuzz inputs for every notation of every genre, and the one property they are checked for.

Used by tests/test_fuzz.py (hypothesis draws the random choices, so a failure shrinks) and by
bench/fuzz.py (`make fuzz`, plain seeded `random.Random`, 100,000+ inputs with counts).

The property: reading any text either gives puzzles or raises PuzzleError with one short line;
what is read can be written in every notation of its genre and solved with a small time limit
without any other exception, and a solution it reports breaks no rule.

Inputs are random text, or real puzzles (each also written in every notation of its genre)
mutated by a few of the operators below: slices deleted, repeated or moved, tokens that broke
parsers before (Unicode digits, 5000-digit numbers, lone surrogates, deep brackets) inserted,
numbers replaced, lines swapped, JSON values replaced by values of other kinds.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pencilbox
from pencilbox.errors import MAX_MESSAGE, PuzzleError
from pencilbox.genres import base

MAX_SIZE = 40
"""The size limit the fuzz inputs are read with: larger puzzles are refused before any work,
so that a mutated clue line cannot make the run slow."""
SOLVE_SECONDS = 0.05
MAX_LENGTH = 300_000
"""No mutation makes a text longer than this."""
LONGEST_MESSAGE = MAX_MESSAGE + 40
"""A message is at most MAX_MESSAGE characters after its position prefix (line, column)."""

ALPHABET = (
    "0123456789" * 3
    + "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    + " .,:;/#|-+?=&_*()[]{}<>\"'\\%!~@^$`" * 2
    + "\n\n\t\r "
    + "²①٣\u00a0\ufeff\u2028é€😀"
)
TOKENS = (
    "0",
    "-1",
    "1",
    "9",
    "16",
    "25",
    "81",
    "4096",
    "999999",
    "1000000",
    "9" * 20,
    "9" * 5000,
    "1e999",
    "NaN",
    "Infinity",
    "1.5",
    "²",
    "①",
    "٣",
    "\ud800",
    "\udfff",
    "\x00",
    "[" * 2000,
    "{" * 50,
    "]]]]",
    '"',
    "\\u",
    "\\ud800",
    "&#xD800;",
    "&amp;",
    "&nosuch;",
    "<!DOCTYPE x [<!ENTITY a 'aaaa'>]>",
    "<![CDATA[",
    "\n",
    "\r\n",
    "\n\n",
    "#",
    "?",
    ".",
    "-",
    "+",
    "/",
    ",",
    ":",
    "=",
    "x",
    "|",
    "====",
    "rows",
    "columns",
    "width 5",
    "height 5",
    "goal",
    "pzprv3",
    "dbchoco",
    "p?sudoku/9/9/",
    "p?nonogram/5/5/",
    "p?dbchoco/4/4/",
    "m=edit&p=",
    "quizzes,solutions",
    ":0100:1:",
    "zz",
    "g" * 100,
)


# -- what is fuzzed -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Target:
    """One reader: a genre's notation, a genre's many-puzzle reader, or `pencilbox.load`."""

    genre: str | None
    format: str | None = None
    many: bool = False

    def __str__(self) -> str:
        if self.genre is None:
            return "load"
        return f"{self.genre}:{'many' if self.many else self.format or 'detect'}"

    def read(self, text: str) -> list[Any]:
        """The puzzles in `text`; a PuzzleError when there are none (for lists, the first
        line's error)."""
        if self.genre is None:
            return [pencilbox.load(text, max_size=MAX_SIZE)]
        genre = base.get(self.genre)
        if not self.many:
            return [genre.parse(text, self.format, max_size=MAX_SIZE)]
        assert genre.parse_many is not None
        found, errors = [], []
        for _, entry in genre.parse_many(text):
            (errors if isinstance(entry, PuzzleError) else found).append(entry)
        for error in errors:
            check_message(error)
        if errors and not found:
            raise errors[0]
        return found


def targets() -> list[Target]:
    found = [Target(None)]
    for genre in sorted(base.all_genres(), key=lambda g: g.name):
        found += [Target(genre.name, name) for name in genre.formats]
        if genre.parse_many is not None:
            found.append(Target(genre.name, many=True))
    return found


# -- seeds ----------------------------------------------------------------------------------------
SUDOKU_LISTS = ("norvig_top95.txt", "qqwing_expert.sdm", "kaggle_1000.csv", "sudoku16_20.txt")
"""Sudoku list files of the data folder the seeds take their first lines from."""


def seed_files(data: Path, per_genre: int) -> list[Path]:
    """Small puzzles of a data folder laid out as ../shared/data (and tests/data) are: up to
    `per_genre` nonograms and Double Chocos of at most 15x15, and the Sudoku lists above."""
    chosen: list[Path] = []
    for genre in ("nonogram", "dbchoco"):
        small = []
        for path in sorted((data / genre).rglob("*.json")):
            size = json.loads(path.read_text(encoding="utf-8"))
            if max(size.get("width", 99), size.get("height", 99)) <= 15:
                small.append(path)
        step = max(1, len(small) // per_genre)
        chosen += small[::step][:per_genre]
    chosen += [data / "sudoku" / name for name in SUDOKU_LISTS if (data / "sudoku" / name).exists()]
    return chosen


def seeds_from(files: Iterable[Path], lines_per_list: int = 4) -> dict[str, list[str]]:
    """Seed texts by "genre:notation": each puzzle written in every notation of its genre,
    and under "genre:file" each file as it is (a list: its first lines)."""
    seeds: dict[str, list[str]] = {}
    for path in files:
        text = path.read_text(encoding="utf-8")
        if path.name in SUDOKU_LISTS:
            text = "".join(text.splitlines(keepends=True)[:lines_per_list])
        puzzles = _puzzles(text)
        if not puzzles:
            continue
        seeds.setdefault(f"{puzzles[0].genre}:file", []).append(text)
        for puzzle in puzzles:
            for name in base.get(puzzle.genre).formats:
                with contextlib.suppress(PuzzleError):  # a 16x16 Sudoku has no HoDoKu line
                    seeds.setdefault(f"{puzzle.genre}:{name}", []).append(puzzle.to(name))
    return seeds


def _puzzles(text: str) -> list[Any]:
    try:
        return [pencilbox.load(text)]
    except PuzzleError:
        pass
    many = base.get("sudoku").parse_many
    assert many is not None
    return [entry for _, entry in many(text) if not isinstance(entry, PuzzleError)]


LIST_NOTATIONS = ("file", "line", "sdm", "kaggle", "hodoku", "puzzlink")
"""The notations of the seeds for the Sudoku list reader."""


def seeds_for(target: Target, seeds: dict[str, list[str]]) -> list[str]:
    """The seeds in the target's own notation (for lists, the list notations; for `load`,
    every seed)."""
    if target.many:
        keys = [f"{target.genre}:{name}" for name in LIST_NOTATIONS]
    elif target.format is not None:
        keys = [f"{target.genre}:{target.format}"]
    else:
        keys = list(seeds)
    return [text for key in keys for text in seeds.get(key, [])]


# -- inputs ---------------------------------------------------------------------------------------
def fuzz_input(rng: random.Random, own: Sequence[str], others: Sequence[str]) -> str:
    """Random text (1 in 20), a seed as it is (1 in 15), or a seed (mostly one in the target's
    own notation) after 1 to 5 mutations (mostly one)."""
    roll = rng.random()
    if roll < 0.05 or not (own or others):
        return random_text(rng)
    pool = own if (own and roll < 0.85) or not others else others
    text = rng.choice(pool)
    if roll < 0.12:
        return text
    for _ in range(rng.choice((1, 1, 1, 1, 1, 1, 2, 2, 3, 5))):
        text = rng.choice(MUTATIONS)(rng, text)
        if len(text) > MAX_LENGTH:
            text = text[:MAX_LENGTH]
    return text


def random_text(rng: random.Random) -> str:
    length = rng.choice((0, 1, 3, 10, 40, 100, 300, 3000))
    chars = []
    for _ in range(rng.randrange(length + 1)):
        if rng.random() < 0.02:
            chars.append(chr(rng.randrange(0x110000)))  # anything, surrogates included
        else:
            chars.append(rng.choice(ALPHABET))
    return "".join(chars)


def _span(rng: random.Random, text: str) -> tuple[int, int]:
    start = rng.randrange(len(text) + 1)
    end = min(len(text), start + rng.choice((1, 1, 1, 2, 3, 5, 20, 200, len(text) + 1)))
    return start, end


def _delete(rng: random.Random, text: str) -> str:
    start, end = _span(rng, text)
    return text[:start] + text[end:]


def _repeat(rng: random.Random, text: str) -> str:
    start, end = _span(rng, text)
    times = rng.choice((2, 3, 10, 100, 1000))
    where = rng.randrange(len(text) + 1)
    return text[:where] + text[start:end] * times + text[where:]


def _move(rng: random.Random, text: str) -> str:
    start, end = _span(rng, text)
    piece, rest = text[start:end], text[:start] + text[end:]
    where = rng.randrange(len(rest) + 1)
    return rest[:where] + piece + rest[where:]


def _insert(rng: random.Random, text: str) -> str:
    where = rng.randrange(len(text) + 1)
    token = rng.choice(TOKENS) if rng.random() < 0.8 else rng.choice(ALPHABET)
    return text[:where] + token + text[where:]


def _replace_char(rng: random.Random, text: str) -> str:
    if not text:
        return rng.choice(ALPHABET)
    where = rng.randrange(len(text))
    return text[:where] + rng.choice(ALPHABET) + text[where + 1 :]


_NUMBER = re.compile(r"\d+")


def _replace_number(rng: random.Random, text: str) -> str:
    numbers = list(_NUMBER.finditer(text))
    if not numbers:
        return _insert(rng, text)
    found = rng.choice(numbers)
    new = rng.choice(
        ("0", "1", "2", "7", "15", "16", "-3", "255", "256", "4095", "99999", "9" * 40)
    )
    if rng.random() < 0.2:
        new = rng.choice(("²", "①", "٣", "9" * 5000, "1.5", "", "x"))
    return text[: found.start()] + new + text[found.end() :]


def _lines(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    if len(lines) < 2:
        return _repeat(rng, text)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    action = rng.randrange(3)
    if action == 0:
        lines[i], lines[j] = lines[j], lines[i]
    elif action == 1:
        del lines[i]
    else:
        lines.insert(j, lines[i])
    return "\n".join(lines)


def _truncate(rng: random.Random, text: str) -> str:
    return text[: rng.randrange(len(text) + 1)]


def _nest(rng: random.Random, text: str) -> str:
    start, end = _span(rng, text)
    depth = rng.choice((3, 100, 1500, 50_000))
    opener, closer = rng.choice((("[", "]"), ("{", "}"), ("(", ")"), ("<a>", "</a>")))
    return text[:start] + opener * depth + text[start:end] + closer * depth + text[end:]


def _swap_case(rng: random.Random, text: str) -> str:
    start, end = _span(rng, text)
    return text[:start] + text[start:end].swapcase() + text[end:]


JSON_VALUES: tuple[Callable[[random.Random], Any], ...] = (
    lambda rng: None,
    lambda rng: rng.choice((True, False)),
    lambda rng: rng.choice((-1, 0, 1, 3, 16, 255, 10**14, -(10**14))),
    lambda rng: rng.choice((1.5, -0.0, 1e300)),
    lambda rng: rng.choice(("", "x", "?", "#", "#.", "w", "g", "1", "\ud800", "²", "x" * 5000)),
    lambda rng: [],
    lambda rng: {},
    lambda rng: [[1]] * rng.choice((1, 5, 50, 500)),
    lambda rng: ["#." * rng.randrange(1, 20)] * rng.randrange(1, 20),
    lambda rng: json.loads("[" * 900 + "]" * 900),
    lambda rng: {"rows": [[1]], "cols": [[1]]},
)


def _json_value(rng: random.Random, text: str) -> str:
    """Replace one value somewhere in a JSON text by a value of another kind."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return _insert(rng, text)
    new = rng.choice(JSON_VALUES)(rng)
    holder: Any = data
    for _ in range(rng.randrange(1, 5)):
        if isinstance(holder, dict) and holder:
            key = rng.choice(list(holder))
            if rng.random() < 0.4 or not isinstance(holder[key], (dict, list)):
                holder[key] = new
                break
            holder = holder[key]
        elif isinstance(holder, list) and holder:
            index = rng.randrange(len(holder))
            if rng.random() < 0.4 or not isinstance(holder[index], (dict, list)):
                holder[index] = new
                break
            holder = holder[index]
        else:
            data = new
            break
    try:
        return json.dumps(data, ensure_ascii=rng.random() < 0.5)
    except (ValueError, RecursionError):
        return text


MUTATIONS: tuple[Callable[[random.Random, str], str], ...] = (
    _delete,
    _delete,
    _repeat,
    _move,
    _insert,
    _insert,
    _replace_char,
    _replace_char,
    _replace_number,
    _replace_number,
    _replace_number,
    _replace_number,
    _lines,
    _truncate,
    _nest,
    _swap_case,
    _json_value,
    _json_value,
    _json_value,
)


# -- the property ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Outcome:
    kind: str
    """"parsed", "clean" (a PuzzleError) or "other" (anything else: a bug)."""
    detail: str = ""


def check_message(error: PuzzleError) -> None:
    message = str(error)
    if len(message) > LONGEST_MESSAGE or "\n" in message:
        raise AssertionError(f"not a short one-line message: {message[:300]!r}")


def run_one(target: Target, text: str, solve_seconds: float = SOLVE_SECONDS) -> Outcome:
    try:
        puzzles = target.read(text)
    except PuzzleError as error:
        try:
            check_message(error)
        except AssertionError as problem:
            return Outcome("other", str(problem))
        return Outcome("clean")
    except Exception as error:  # the bug this looks for
        return Outcome("other", f"reading: {type(error).__name__}: {str(error)[:300]}")
    for puzzle in puzzles[:3]:
        try:
            use(puzzle, solve_seconds)
        except Exception as error:
            return Outcome("other", f"using {puzzle!r}: {type(error).__name__}: {error}"[:400])
    return Outcome("parsed")


def use(puzzle: Any, solve_seconds: float) -> None:
    """Write the puzzle in every notation of its genre, draw it, check the answer the file
    carries (as `check --answer` does), solve it and check what the solver says."""
    for name in base.get(puzzle.genre).formats:
        try:
            written = puzzle.to(name)
        except PuzzleError:
            continue  # a notation that cannot hold this puzzle says so
        if not isinstance(written, str):
            raise AssertionError(f"{name} wrote {type(written).__name__}")
    for kind in ("text", "svg"):
        if not isinstance(puzzle.render(None, kind), str):
            raise AssertionError(f"render {kind} gave no text")
    for carried in ("answer", "goal", "solution"):
        given = getattr(puzzle, carried, None)
        if given is not None:
            with contextlib.suppress(PuzzleError):
                puzzle.check(given)
    result = puzzle.solve(limit=2, time_limit=solve_seconds)
    if result.status not in ("unique", "multiple", "none", "timeout"):
        raise AssertionError(f"status {result.status!r}")
    for solution in result.solutions:
        problems = puzzle.check(solution)
        if problems:
            raise AssertionError(f"the solver's answer breaks a rule: {problems[0]}")
