"""One puzzle per line: N*N symbols row-major (81 for 9x9), blanks `.` `0` `X` `*` `_`.

A trailing `# comment` is allowed and files may hold `#` comment lines. `parse` reads a text
holding one puzzle; `parse_many` (in the package) reads files of many. `.sdm` files are the
same notation written with `0` blanks.
"""

from __future__ import annotations

import re

from pencilbox.errors import FormatError
from pencilbox.genres.sudoku.formats._common import (
    parse_symbols,
    puzzle_lines,
    strip_comment,
    write_symbols,
)
from pencilbox.genres.sudoku.model import Sudoku

_LINE = re.compile(r"[0-9A-Za-z.*_]{16}|[0-9A-Za-z.*_]{81}|[0-9A-Za-z.*_]{256}|[0-9A-Za-z.*_]{625}")


def looks_like_line(line: str) -> bool:
    return _LINE.fullmatch(strip_comment(line)) is not None


_LOOSE = re.compile(r"[0-9A-Za-z.*_]{60,700}|:[0-9]{4,5}\S*")


def looks_like(text: str) -> bool:
    """The first lines (up to 5) are all runs of 60-700 cell symbols (or HoDoKu lines), and
    one is exactly 81, 256 or 625 long (16 for 4x4) or the text is a single such line: so a
    file whose third line is one cell short still reads as Sudoku, and reports that line."""
    lines = [strip_comment(line) for _, line in puzzle_lines(text)[:5]]
    if not lines or not all(_LOOSE.fullmatch(line) or _LINE.fullmatch(line) for line in lines):
        return False
    return len(lines) == 1 or any(_LINE.fullmatch(line) for line in lines)


def parse_line(number: int, line: str, *, alphabet: str | None = None) -> Sudoku:
    if line.lstrip().startswith(":"):  # a HoDoKu library line among plain ones
        from pencilbox.genres.sudoku.formats.hodoku import parse_line as hodoku_line

        return hodoku_line(line, number).puzzle
    comment = line.split("#", 1)[1].strip() if "#" in line else None
    start = len(line) - len(line.lstrip())
    return parse_symbols(
        strip_comment(line), line=number, column=start + 1, alphabet=alphabet, title=comment
    )


def parse(text: str, *, alphabet: str | None = None) -> Sudoku:
    lines = puzzle_lines(text)
    if not lines:
        raise FormatError("no puzzle found: the text is empty or only comments")
    if len(lines) > 1:
        raise FormatError(
            f"this text holds {len(lines)} puzzle lines; read it as a list "
            "(`pencilbox solve FILE --jsonl`, or parse_many)",
            line=lines[1][0],
        )
    return parse_line(*lines[0], alphabet=alphabet)


def write(puzzle: Sudoku) -> str:
    comment = f" # {puzzle.title}" if puzzle.title else ""
    return write_symbols(puzzle) + comment + "\n"


def write_sdm(puzzle: Sudoku) -> str:
    return write_symbols(puzzle, "0") + "\n"
