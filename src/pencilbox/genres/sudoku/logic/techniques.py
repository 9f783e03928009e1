"""The technique table (HoDoKu's published levels and base scores) and Step construction.

Every Sudoku Step uses `changes` for placements ((row, col), digit) and
`extra["eliminations"]` for removed candidates as [row, col, digit] lists, all 0-based cells and
1-based digits; `extra["code"]` holds the HoDoKu library code of the technique.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pencilbox.core.step import Step

from .state import cell_name

LEVELS = ("easy", "medium", "hard", "unfair", "extreme")
LEVEL_MAX_SCORE = {"easy": 800, "medium": 1000, "hard": 1600, "unfair": 1800}


@dataclass(frozen=True, slots=True)
class Technique:
    name: str
    code: str
    level: str
    score: int
    rank: int


_TABLE = [
    ("Full House", "0000", "easy", 4),
    ("Naked Single", "0003", "easy", 4),
    ("Hidden Single", "0002", "easy", 14),
    ("Locked Pair", "0110", "medium", 40),
    ("Locked Triple", "0111", "medium", 60),
    ("Locked Candidates Type 1 (Pointing)", "0100", "medium", 50),
    ("Locked Candidates Type 2 (Claiming)", "0101", "medium", 50),
    ("Naked Pair", "0200", "medium", 60),
    ("Naked Triple", "0201", "medium", 80),
    ("Hidden Pair", "0210", "medium", 70),
    ("Hidden Triple", "0211", "medium", 100),
    ("Naked Quadruple", "0202", "hard", 120),
    ("Hidden Quadruple", "0212", "hard", 150),
    ("X-Wing", "0300", "hard", 140),
    ("Swordfish", "0301", "hard", 150),
    ("Jellyfish", "0302", "hard", 160),
    ("Remote Pair", "0703", "hard", 110),
    ("Bivalue Universal Grave + 1", "0610", "hard", 100),
    ("Skyscraper", "0400", "hard", 130),
    ("2-String Kite", "0401", "hard", 150),
    ("Turbot Fish", "0403", "hard", 120),
    ("Empty Rectangle", "0402", "hard", 120),
    ("W-Wing", "0803", "hard", 150),
    ("XY-Wing", "0800", "hard", 160),
    ("XYZ-Wing", "0801", "hard", 180),
    ("Uniqueness Test 1", "0600", "hard", 100),
    ("Uniqueness Test 2", "0601", "hard", 100),
    ("Uniqueness Test 3", "0602", "hard", 100),
    ("Uniqueness Test 4", "0603", "hard", 100),
    ("Uniqueness Test 5", "0604", "hard", 100),
    ("Uniqueness Test 6", "0605", "hard", 100),
    ("Hidden Rectangle", "0606", "hard", 100),
    ("Avoidable Rectangle Type 1", "0607", "hard", 100),
    ("Avoidable Rectangle Type 2", "0608", "hard", 100),
    ("Finned X-Wing", "0310", "hard", 130),
    ("Sashimi X-Wing", "0320", "hard", 150),
    ("Finned Swordfish", "0311", "unfair", 200),
    ("Sashimi Swordfish", "0321", "unfair", 240),
    ("Finned Jellyfish", "0312", "unfair", 250),
    ("Sashimi Jellyfish", "0322", "unfair", 260),
    ("Siamese Finned X-Wing", "03101", "hard", 130),
    ("Siamese Finned Swordfish", "03111", "unfair", 200),
    ("Siamese Finned Jellyfish", "03121", "unfair", 250),
    ("Siamese Sashimi X-Wing", "03201", "hard", 150),
    ("Siamese Sashimi Swordfish", "03211", "unfair", 240),
    ("Siamese Sashimi Jellyfish", "03221", "unfair", 260),
    ("Dual 2-String Kite", "0404", "hard", 150),
    ("Dual Empty Rectangle", "0405", "hard", 120),
    ("Franken X-Wing", "0330", "unfair", 300),
    ("Franken Swordfish", "0331", "unfair", 350),
    ("Franken Jellyfish", "0332", "unfair", 370),
    ("Finned Franken X-Wing", "0340", "unfair", 390),
    ("Finned Franken Swordfish", "0341", "unfair", 410),
    ("Finned Franken Jellyfish", "0342", "unfair", 430),
    ("Mutant X-Wing", "0350", "extreme", 450),
    ("Mutant Swordfish", "0351", "extreme", 450),
    ("Mutant Jellyfish", "0352", "extreme", 450),
    ("Finned Mutant X-Wing", "0360", "extreme", 470),
    ("Finned Mutant Swordfish", "0361", "extreme", 470),
    ("Finned Mutant Jellyfish", "0362", "extreme", 470),
    ("Sue de Coq", "1101", "unfair", 250),
    ("Simple Colors", "0500", "hard", 150),
    ("Multi-Colors", "0502", "hard", 200),
    ("X-Chain", "0701", "unfair", 260),
    ("XY-Chain", "0702", "unfair", 260),
    ("AIC", "0708", "unfair", 280),
    ("Continuous Nice Loop", "0706", "unfair", 280),
    ("Discontinuous Nice Loop", "0707", "unfair", 280),
    ("Grouped AIC", "0711", "unfair", 300),
    ("Grouped Continuous Nice Loop", "0709", "unfair", 300),
    ("Grouped Discontinuous Nice Loop", "0710", "unfair", 300),
    ("ALS-XZ", "0901", "unfair", 300),
    ("ALS-XY-Wing", "0902", "unfair", 320),
    ("ALS-XY-Chain", "0903", "unfair", 340),
    ("Death Blossom", "0904", "unfair", 360),
    ("Template Set", "1201", "extreme", 10000),
    ("Template Delete", "1202", "extreme", 10000),
    ("Forcing Chain", "1301", "extreme", 500),
    ("Forcing Net", "1303", "extreme", 700),
]

TECHNIQUES: dict[str, Technique] = {
    name: Technique(name, code, level, score, rank)
    for rank, (name, code, level, score) in enumerate(_TABLE, start=1)
}


def make_step(
    technique: str,
    sentence: str,
    size: int,
    *,
    place: Iterable[tuple[int, int]] = (),
    eliminate: Iterable[tuple[int, int]] = (),
    reasons: Iterable[int] = (),
    clue: str | None = None,
    **extra: object,
) -> Step:
    """A Step from cell indices: placements and eliminations as (cell, digit)."""
    tech = TECHNIQUES[technique]
    changes = tuple(((i // size, i % size), d) for i, d in sorted(set(place)))
    elims = [
        [i // size, i % size, d] for i, d in sorted(set(eliminate), key=lambda x: (x[1], x[0]))
    ]
    data: dict[str, object] = {"code": tech.code}
    if elims:
        data["eliminations"] = elims
    data.update(extra)
    return Step(
        technique=technique,
        level=tech.rank,
        changes=changes,
        sentence=sentence,
        reasons=tuple((i // size, i % size) for i in sorted(set(reasons))),
        clue=clue,
        extra=data,
    )


def elim_text(eliminate: Iterable[tuple[int, int]], size: int) -> str:
    """'remove 4 from r5c3 and r6c7; 5 from r1c1'."""
    by_digit: dict[int, list[int]] = {}
    for i, d in sorted(set(eliminate)):
        by_digit.setdefault(d, []).append(i)
    parts = []
    for d in sorted(by_digit):
        names = [cell_name(i, size) for i in sorted(by_digit[d])]
        joined = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        parts.append(f"{d} from {joined}")
    return "remove " + "; ".join(parts)


def join_and(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
