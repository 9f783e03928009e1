"""Double Choco notations: one module per notation with `parse(text, *, max_size)`, `write`
and a cheap `looks_like` content test. `read` detects the notation when not given."""

from __future__ import annotations

from pencilbox.core.notation import Notation, check_text, lookup, unknown
from pencilbox.genres.dbchoco.formats import jsonfile, penpa, puzzlink, pzprv3, text
from pencilbox.genres.dbchoco.model import DEFAULT_MAX_SIZE, DoubleChoco

NOTATIONS: dict[str, Notation[DoubleChoco]] = {
    n.name: n
    for n in (
        Notation("url", (".url",), puzzlink.parse, puzzlink.write, puzzlink.looks_like),
        Notation("penpa", (".penpa",), penpa.parse, penpa.write, penpa.looks_like),
        Notation("pzprv3", (".pzpr", ".pzprv3"), pzprv3.parse, pzprv3.write, pzprv3.looks_like),
        Notation("json", (".json",), jsonfile.parse, jsonfile.write, jsonfile.looks_like),
        Notation("text", (".txt",), text.parse, text.write, text.looks_like),
    )
}
ALIASES = {
    "puzzlink": "url",
    "puzz.link": "url",
    "pzpr": "pzprv3",
    "picture": "text",
    "penpa+": "penpa",
    "penpa-edit": "penpa",
}


def detect(content: str, filename: str | None = None) -> Notation[DoubleChoco]:
    for notation in NOTATIONS.values():
        if notation.looks_like(content):
            return notation
    if filename:
        lowered = filename.lower()
        for notation in NOTATIONS.values():
            if lowered.endswith(notation.extensions):
                return notation
    raise unknown("Double Choco", NOTATIONS, filename)


def sniff(content: str, filename: str | None = None) -> bool:
    """Only what is clearly Double Choco: a dbchoco URL, a dbchoco pzprv3 file, JSON with
    `colors` and `numbers`, or a Penpa+ URL of shaded cells and numbers alone (the text
    picture is read only when asked for)."""
    return any(
        NOTATIONS[name].looks_like(content) for name in ("url", "pzprv3", "json")
    ) or penpa.holds_double_choco(content)


def get(name: str) -> Notation[DoubleChoco]:
    return lookup(NOTATIONS, name, "Double Choco", ALIASES)


def read(
    content: str,
    format: str | None = None,
    *,
    filename: str | None = None,
    max_size: int | None = DEFAULT_MAX_SIZE,
) -> DoubleChoco:
    check_text(content)
    notation = get(format) if format else detect(content, filename)
    return notation.parse(content, max_size=max_size)


def write(puzzle: DoubleChoco, format: str) -> str:
    out = get(format).write(puzzle)
    return out if out.endswith("\n") else out + "\n"
