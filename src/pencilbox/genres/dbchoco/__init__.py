"""The Double Choco genre (Nikoli; puzz.link `dbchoco`): divide a grid of white and gray cells
into blocks, each one white area and one congruent gray area."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pencilbox.core.vision.reading import lazy_reader
from pencilbox.genres import base
from pencilbox.genres.dbchoco.formats import NOTATIONS, read, sniff, write
from pencilbox.genres.dbchoco.model import DoubleChoco, Walls, make_puzzle
from pencilbox.genres.dbchoco.options import options
from pencilbox.genres.dbchoco.play import DbchocoPlay
from pencilbox.genres.dbchoco.printing import draw


def _generate(**options: Any) -> dict[str, Any]:
    from pencilbox.genres.dbchoco.generate import generate

    return generate(**options)


GENRE = base.Genre(
    name="dbchoco",
    aliases=("doublechoco", "double-choco"),
    parse=read,
    write=write,
    sniff=sniff,
    formats=tuple(NOTATIONS),
    extensions=tuple(dict.fromkeys(e for n in NOTATIONS.values() for e in n.extensions)),
    generate=_generate,
    options=options,
    page=Path(__file__).parent / "page",
    title="Double Choco",
    new_page="/dbchoco?edit",
    play=DbchocoPlay(),
    picture_reader=lazy_reader("pencilbox.genres.dbchoco.picture"),
    draw=draw,
)
base.register(GENRE)

__all__ = ["GENRE", "DoubleChoco", "Walls", "make_puzzle", "read"]
