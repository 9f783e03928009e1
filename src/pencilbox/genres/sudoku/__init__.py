"""The Sudoku genre: N x N boards (N = 4, 9, 16, 25), many notations, a fast validating
solver, a generator. The human technique ladder lives in `logic/` (wired in by the lead)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pencilbox.core.vision.reading import lazy_reader
from pencilbox.genres import base
from pencilbox.genres.sudoku.batch import ManySolved, solve_many, solve_puzzles
from pencilbox.genres.sudoku.formats import NOTATIONS, detect, parse_many, read, write
from pencilbox.genres.sudoku.model import Sudoku, make_sudoku
from pencilbox.genres.sudoku.options import options
from pencilbox.genres.sudoku.play import SudokuPlay
from pencilbox.genres.sudoku.printing import draw


def _sniff(text: str, filename: str | None) -> bool:
    """True only for texts that are clearly Sudoku (see formats.detect)."""
    try:
        detect(text, filename)
    except ValueError:
        return False
    return True


def _generate(**options: Any) -> dict[str, Any]:
    import inspect

    from pencilbox.errors import PuzzleError
    from pencilbox.genres.sudoku.generate import generate

    known = [name for name in inspect.signature(generate).parameters if name != "grader"]
    for name in options:
        if name not in known:
            raise PuzzleError(
                f"generate sudoku: unknown option --{name.replace('_', '-')}; known: "
                + ", ".join(f"--{k.replace('_', '-')}" for k in known)
            )
    return generate(**options)


GENRE = base.Genre(
    name="sudoku",
    aliases=("sudoku9", "number-place", "sdk"),
    parse=read,
    sniff=_sniff,
    formats=tuple(NOTATIONS),
    write=write,
    extensions=tuple(dict.fromkeys(e for n in NOTATIONS.values() for e in n.extensions)),
    parse_many=parse_many,
    generate=_generate,
    solve_many=solve_puzzles,
    options=options,
    page=Path(__file__).parent / "page",
    play=SudokuPlay(),
    picture_reader=lazy_reader("pencilbox.genres.sudoku.picture"),
    draw=draw,
)
base.register(GENRE)

__all__ = ["GENRE", "ManySolved", "Sudoku", "make_sudoku", "parse_many", "read", "solve_many"]
