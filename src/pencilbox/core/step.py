"""Steps: one deduction each, in the order a solver made them.

A trace (a list of Steps) is what `explain` prints, what a hint shows and what the web app
animates, so a Step carries everything needed to replay it: the cells it changes with their new
values, the cells (and clue) that justify it, and a sentence a person can read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pencilbox.core.grid import Cell


@dataclass(frozen=True, slots=True)
class Step:
    technique: str
    """Short machine name, e.g. "line", "probe", "decision", "backtrack"."""
    level: int
    """Difficulty rank of the technique within its genre (higher = harder)."""
    changes: tuple[tuple[Cell, int], ...]
    """Cells this step sets, with their new values."""
    sentence: str
    """One sentence saying what was deduced and why."""
    reasons: tuple[Cell, ...] = ()
    """Cells whose values justify the step (highlighted with it)."""
    clue: str | None = None
    """The clue or unit the step reasons about, e.g. "row 12"."""
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "technique": self.technique,
            "level": self.level,
            "changes": [[r, c, v] for (r, c), v in self.changes],
            "reasons": [[r, c] for r, c in self.reasons],
            "clue": self.clue,
            "sentence": self.sentence,
        }
        if self.extra:
            data["extra"] = self.extra
        return data


Trace = list[Step]
