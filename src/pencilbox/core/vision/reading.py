"""What a reader made of a picture: typed values that a front end can show and edit.

A `Reading` lists every number read (`ReadNumber`), each with where it belongs in the puzzle,
its box in the ORIGINAL picture's pixels (x0, y0, x1, y1; x to the right, y down), its value,
how sure the recogniser was, the next-best values with their scores, and whether the repair
changed it. The genre builds the puzzle from the numbers (`genre_data` holds what is not a
number: a Double Choco's cell colours, a Sudoku's player entries), and judges it: that
judgement is the `Verdict`. A front end that lets the user fix numbers calls
`Reading.edited(...)` and hands the result to the genre's `recheck` for a fresh verdict.

Positions: `line` and `index` are 0-based. `where()` gives the 1-based form the CLI prints:
nonogram clues {"clue": "row 7", "index": 2} (the 2nd number of row 7's clue, counted from
the left; columns from the top), sudoku and Double Choco cells {"cell": "r3c5", "row": 3,
"col": 5}.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from pencilbox.core.vision.picture import Picture

Box = tuple[int, int, int, int]
Value = int | None
"""A number, or None for a cell read as empty."""
Status = Literal["ok", "uncertain", "error"]

CONFIDENT = 0.9
"""A number is confident when the recogniser gave its value at least this probability (see
bench/read.py: on held-out renders no wrong value scored this high)."""


@dataclass(frozen=True)
class ReadNumber:
    kind: Literal["row", "col", "cell"]
    line: int
    """Row or column of a clue (nonogram); the cell's row (sudoku, Double Choco)."""
    index: int
    """Position in the clue (nonogram); the cell's column (sudoku, Double Choco)."""
    value: Value
    confidence: float
    alternatives: tuple[tuple[Value, float], ...] = ()
    """Other values the recogniser thought possible, best first, with their probabilities."""
    box: Box | None = None
    changed: bool = False
    """True when the repair replaced the recogniser's first choice (kept in `read_as`)."""
    read_as: Value = None
    reason: str | None = None
    """Why the value was changed or why it is doubtful."""
    edited: bool = False
    """True when the user set the value."""

    def where(self) -> dict[str, Any]:
        if self.kind == "cell":
            cell = f"r{self.line + 1}c{self.index + 1}"
            return {"cell": cell, "row": self.line + 1, "col": self.index + 1}
        name = "row" if self.kind == "row" else "column"
        return {"clue": f"{name} {self.line + 1}", "index": self.index + 1}

    @property
    def confident(self) -> bool:
        return self.edited or self.confidence >= CONFIDENT

    def to_json(self) -> dict[str, Any]:
        """Where it is, what was read, how sure, the alternatives (values and their scores),
        the box in the picture, and whether the repair or the user changed it."""
        data = self.where()
        data.update(
            read=self.value,
            confidence=round(self.confidence, 4),
            alternatives=[v for v, _ in self.alternatives],
            scores=[round(s, 4) for _, s in self.alternatives],
            box=list(self.box) if self.box else None,
            changed=self.changed,
        )
        if self.changed:
            data["read_as"] = self.read_as
        if self.reason:
            data["reason"] = self.reason
        if self.edited:
            data["edited"] = True
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ReadNumber:
        """The number a to_json() document describes (as a web page sends it back)."""
        kind: Literal["row", "col", "cell"]
        if "cell" in data:
            kind, line, index = "cell", int(data["row"]) - 1, int(data["col"]) - 1
        else:
            name, number = str(data["clue"]).split()
            kind = "row" if name == "row" else "col"
            line, index = int(number) - 1, int(data["index"]) - 1
        alternatives = tuple(
            (_value(v), float(p))
            for v, p in zip(data.get("alternatives", []), data.get("scores", []), strict=False)
        )
        box = data.get("box")
        return cls(
            kind,
            line,
            index,
            _value(data.get("read")),
            float(data.get("confidence", 0.0)),
            alternatives,
            (int(box[0]), int(box[1]), int(box[2]), int(box[3])) if box else None,
            changed=bool(data.get("changed", False)),
            read_as=_value(data.get("read_as")),
            reason=data.get("reason"),
            edited=bool(data.get("edited", False)),
        )


def _value(value: Any) -> Value:
    return None if value is None else int(value)


@dataclass(frozen=True)
class Verdict:
    """The genre's judgement of a reading: do the numbers make a sound puzzle?"""

    consistent: bool
    """Every rule check passed (for a nonogram: totals agree, clues fit, a solution exists)."""
    solutions: str
    """"unique", "multiple", "none" or "unknown" (not searched, or out of time)."""
    problems: tuple[str, ...] = ()
    """Sentences that say what is wrong, e.g. "row totals 412 but column totals 409"."""
    suspects: tuple[int, ...] = ()
    """Indexes into Reading.numbers that the problems point at."""
    checks: Mapping[str, bool | None] = field(default_factory=dict)
    """Named checks for a review screen, e.g. {"totals_agree": True, "solvable": True,
    "unique": False}; None when a check could not run."""

    def to_json(self) -> dict[str, Any]:
        return {
            "consistent": self.consistent,
            "solutions": self.solutions,
            "problems": list(self.problems),
            "checks": dict(self.checks),
        }


@dataclass(frozen=True)
class Reading:
    genre: str
    width: int
    height: int
    """The puzzle's size in cells."""
    numbers: tuple[ReadNumber, ...]
    grid: tuple[tuple[float, float], ...] = ()
    """The grid's corners in the original picture (top-left, top-right, bottom-right,
    bottom-left), for drawing the reading over the picture."""
    genre_data: Mapping[str, Any] = field(default_factory=dict)
    verdict: Verdict | None = None
    status: Status = "uncertain"
    confidence: float = 0.0
    repairs: tuple[str, ...] = ()
    """Sentences saying which numbers the repair changed and why."""
    picture_size: tuple[int, int] = (0, 0)
    source: str | None = None
    time_s: float = 0.0
    """Seconds for the whole reading: finding, naming, and the rules' check and repair."""
    read_s: float = 0.0
    """Seconds to find the grid and name the numbers, before the rules were checked."""

    def edited(self, changes: Mapping[int, Value]) -> Reading:
        """A copy with numbers[i].value set to changes[i], marked as the user's (confident);
        call the genre's recheck() on it for the new verdict and status."""
        numbers = list(self.numbers)
        for at, value in changes.items():
            if not 0 <= at < len(numbers):
                raise IndexError(f"no number {at} in this reading of {len(numbers)}")
            numbers[at] = replace(numbers[at], value=value, confidence=1.0, edited=True)
        return replace(self, numbers=tuple(numbers), verdict=None)

    def doubtful(self) -> list[int]:
        """Indexes of the numbers to show as uncertain: not confident, changed by the repair,
        or pointed at by the verdict."""
        marked = {i for i, n in enumerate(self.numbers) if not n.confident or n.changed}
        if self.verdict is not None and not self.verdict.consistent:
            marked.update(self.verdict.suspects)
        return sorted(marked)

    def to_json(self) -> dict[str, Any]:
        """Everything a review screen draws and sends back: the size, the grid's corners and
        every number with its box (in the original picture's pixels), the genre's other
        findings, the verdict, the repairs, the status."""
        return {
            "genre": self.genre,
            "width": self.width,
            "height": self.height,
            "status": self.status,
            "confidence": round(self.confidence, 4),
            "picture_size": list(self.picture_size),
            "grid": [list(corner) for corner in self.grid],
            "numbers": [number.to_json() for number in self.numbers],
            "genre_data": dict(self.genre_data),
            "verdict": self.verdict.to_json() if self.verdict else None,
            "repairs": list(self.repairs),
            "time_s": round(self.time_s, 4),
            "read_s": round(self.read_s, 4),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Reading:
        """The reading a to_json() document describes, without its verdict (the genre's
        recheck gives a fresh one)."""
        size = data.get("picture_size") or (0, 0)
        return cls(
            str(data["genre"]),
            int(data["width"]),
            int(data["height"]),
            tuple(ReadNumber.from_json(n) for n in data.get("numbers", [])),
            grid=tuple((float(x), float(y)) for x, y in data.get("grid", [])),
            genre_data=dict(data.get("genre_data") or {}),
            repairs=tuple(str(r) for r in data.get("repairs", [])),
            picture_size=(int(size[0]), int(size[1])),
        )

    def uncertain_json(self) -> list[dict[str, Any]]:
        """The `uncertain` list of the CLI's --jsonl record."""
        out = []
        for at in self.doubtful():
            number = self.numbers[at]
            item = number.where()
            item.update(
                read=number.value,
                alternatives=[v for v, s in number.alternatives if s >= 0.001][:3],
                confidence=round(number.confidence, 4),
            )
            if number.changed:
                item["read_as"] = number.read_as
            if number.reason:
                item["reason"] = number.reason
            out.append(item)
        return out


@dataclass(frozen=True)
class PictureReader:
    """What a genre offers for pictures (Genre.picture_reader)."""

    read: Callable[..., Reading]
    """read(picture, **options) -> Reading, judged and repaired; FormatError when the picture
    holds nothing this genre can read (e.g. "no sudoku grid found")."""
    score: Callable[[Picture], float]
    """How much the picture looks like this genre's puzzle: 0 not at all, 10 surely."""
    recheck: Callable[[Reading], Reading]
    """A fresh verdict, status and confidence for an edited reading (no repair)."""
    puzzle_json: Callable[[Reading], dict[str, Any]]
    """The puzzle as the CLI's --jsonl "puzzle" field."""
    puzzle_text: Callable[[Reading], str]
    """The puzzle in the genre's usual notation, which the genre's parse() reads."""


def lazy_reader(module: str) -> PictureReader:
    """A PictureReader whose functions live in `module` (read_image, score_image, recheck,
    puzzle_json, puzzle_text), imported on first use: OpenCV and onnxruntime load only when
    a picture is read, not with every `import pencilbox`."""

    def call(name: str) -> Callable[..., Any]:
        def run(*args: Any, **kwargs: Any) -> Any:
            return getattr(importlib.import_module(module), name)(*args, **kwargs)

        run.__name__ = name
        return run

    return PictureReader(
        call("read_image"),
        call("score_image"),
        call("recheck"),
        call("puzzle_json"),
        call("puzzle_text"),
    )
