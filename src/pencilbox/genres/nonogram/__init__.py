"""The Nonogram genre (Paint by Number, Griddlers, Picross): black-and-white, and colour
(`colour/`: a ColourNonogram from any notation that holds colours)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pencilbox.core.step import Step
from pencilbox.core.vision.reading import lazy_reader
from pencilbox.genres import base
from pencilbox.genres.nonogram.formats import NOTATIONS, detect, read, write
from pencilbox.genres.nonogram.model import Nonogram, make_puzzle
from pencilbox.genres.nonogram.options import options
from pencilbox.genres.nonogram.play import NonogramPlay, check_clue_boxes
from pencilbox.genres.nonogram.printing import draw


def _sniff(text: str, filename: str | None) -> bool:
    try:
        detect(text, filename)
    except ValueError:
        return False
    return True


def _stream_steps(puzzle: Any, time_limit: float, steps: list[Step]) -> None:
    from pencilbox.genres.nonogram.explain import trace

    trace(puzzle, time_limit, steps=steps)


def _generate(**options: Any) -> dict[str, Any]:
    from pencilbox.genres.nonogram.generate import generate

    return generate(**options)


GENRE = base.Genre(
    name="nonogram",
    aliases=("nono", "griddler", "picross", "pbn"),
    parse=read,
    write=write,
    sniff=_sniff,
    formats=tuple(NOTATIONS),
    extensions=tuple(dict.fromkeys(e for n in NOTATIONS.values() for e in n.extensions)),
    generate=_generate,
    stream_steps=_stream_steps,
    actions={"clues": check_clue_boxes},
    options=options,
    page=Path(__file__).parent / "page",
    play=NonogramPlay(),
    picture_reader=lazy_reader("pencilbox.genres.nonogram.picture"),
    draw=draw,
)
base.register(GENRE)

__all__ = ["GENRE", "Nonogram", "make_puzzle", "read"]
