"""Nonograms from the user's own picture: `pencilbox generate nonogram --from IMAGE`.

The picture becomes a grid of colours as faithfully as the size allows (pixels.py), then
the fewest, least visible cells are changed until the clues have exactly one solution at the
asked grade (unique.py). Without a grade it is line-solvable when that takes no more changes
than the budget, else unique (its grade then says whether probes suffice). The result says
which cells changed and how far the puzzle's picture is from the original (mean CIELAB
distance per cell).

With `--colors 1` (the default) the puzzle is black-and-white; with N > 1 it has N inks on a
background (fewer when the picture has fewer distinct colours).
"""

from __future__ import annotations

import base64
import binascii
import random
import time
from typing import Any

from pencilbox.core.grid import cell_name
from pencilbox.core.notation import whole_value
from pencilbox.core.timing import Deadline, TimeLimitReached
from pencilbox.errors import PuzzleError, quote
from pencilbox.genres.nonogram.colour.model import BACKGROUND_CHAR, Colour, ColourNonogram
from pencilbox.genres.nonogram.fromimage.pixels import (
    DITHERS,
    PALETTES,
    THRESHOLDS,
    Pixels,
    check_choice,
    colour_names,
    decode,
    pixelate,
)
from pencilbox.genres.nonogram.fromimage.unique import Builder, Repair, repair
from pencilbox.genres.nonogram.model import Nonogram

GRADES = ("line", "probe", "search")
DEFAULT_SIDE = 20
"""The longer side when no --size is given."""
MIN_SIDE, MAX_SIDE = 2, 100
MAX_COLOURS = 16
BUDGET_SHARE = 0.06
"""The default change budget: this share of the cells (at least MIN_BUDGET)."""
MIN_BUDGET = 10


def generate_from_image(
    picture: Any,
    *,
    size: Any = None,
    colors: Any = 1,
    grade: Any = None,
    threshold: Any = "otsu",
    dither: Any = "none",
    palette: Any = "kmeans",
    max_changes: Any = None,
    seed: Any = None,
    time_limit: float | None = None,
) -> dict[str, Any]:
    """A unique nonogram from a picture (its bytes, or a `data:` URL as the web sends it):
    {"puzzle", "clues", "solution", "grade", "size", "colors", "palette", "changed",
    "changes", "error", "budget", "text", "seed", "time_s", ...}."""
    started = time.perf_counter()
    image = decode(_picture_bytes(picture))
    width, height = picture_size(size, image.width, image.height)
    inks = whole_value(colors, "--colors", minimum=1, maximum=MAX_COLOURS)
    if grade is not None and grade not in GRADES:
        raise PuzzleError(f"unknown Nonogram grade {grade!r}; choose one of {', '.join(GRADES)}")
    cut = _threshold(threshold)
    pixels = pixelate(
        image,
        width,
        height,
        inks,
        threshold=cut,
        dither=check_choice(dither, DITHERS, "--dither"),
        palette=check_choice(palette, PALETTES, "--palette"),
        seed=whole_value(seed, "--seed") if seed is not None else 0,
    )
    if len(pixels.lab) < 2:
        raise PuzzleError(
            f"the picture is blank at {width}x{height}: every cell came out one colour "
            "(try another --threshold, more --colors or a larger --size)"
        )
    budget = (
        whole_value(max_changes, "--max-changes", minimum=0)
        if max_changes is not None
        else max(MIN_BUDGET, round(BUDGET_SHARE * width * height))
    )
    builder = Builder(width, height, _palette(pixels))
    try:
        fixed, reached = _repair_at(builder, pixels, grade, budget, seed, Deadline(time_limit))
    finally:
        builder.close()
    return _result(builder, pixels, fixed, reached, budget, seed, started)


def _picture_bytes(picture: Any) -> bytes:
    if isinstance(picture, bytes | bytearray):
        return bytes(picture)
    if isinstance(picture, str) and picture.startswith("data:") and "," in picture:
        header, _, payload = picture.partition(",")
        try:
            if header.endswith(";base64"):
                return base64.b64decode(payload, validate=True)
        except (binascii.Error, ValueError):
            raise PuzzleError("the picture's data: URL is not valid base64") from None
    shown = quote(picture) if isinstance(picture, str) else type(picture).__name__
    raise PuzzleError(
        f"--from takes a picture file (a data: URL of one in the web app), got {shown}"
    )


def picture_size(size: Any, picture_width: int, picture_height: int) -> tuple[int, int]:
    """`WxH` as given; `N` (or nothing: DEFAULT_SIDE) for the longer side, the other side
    keeping the picture's proportions."""
    text = str(size if size is not None else DEFAULT_SIDE).strip().lower()
    try:
        if "x" in text:
            left, _, right = text.partition("x")
            width, height = whole_value(left, "--size"), whole_value(right, "--size")
        else:
            side = whole_value(text, "--size")
            ratio = picture_width / picture_height
            width = side if ratio >= 1 else max(MIN_SIDE, round(side * ratio))
            height = side if ratio < 1 else max(MIN_SIDE, round(side / ratio))
    except PuzzleError:
        raise PuzzleError(f"--size must be WxH (like 30x20) or N, got {quote(text)}") from None
    if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
        raise PuzzleError(
            f"cannot make a {width}x{height} Nonogram: each side must be {MIN_SIDE} to {MAX_SIDE}"
        )
    return width, height


def _threshold(value: Any) -> str | float:
    if value in THRESHOLDS:
        return str(value)
    try:
        level = float(value)
    except (TypeError, ValueError):
        level = float("nan")
    if not 0 <= level <= 255:  # also false for nan
        raise PuzzleError(
            f"--threshold must be otsu, adaptive or a grey level 0-255, got {quote(str(value))}"
        )
    return level


def _palette(pixels: Pixels) -> list[Colour]:
    named = colour_names(pixels.hexes)
    background = Colour(named[0][0], BACKGROUND_CHAR, pixels.hexes[0])
    inks = [Colour(name, char, value) for (name, char), value in zip(named[1:], pixels.hexes[1:])]
    return [background, *inks]


def _repair_at(
    builder: Builder,
    pixels: Pixels,
    grade: str | None,
    budget: int,
    seed: Any,
    deadline: Deadline,
) -> tuple[Repair, str]:
    """The repair at the asked grade, or without one at the easiest grade within budget."""
    tried: list[str] = []
    # Without a grade: line-solvable if the budget allows, else unique (probing is dear to
    # repair for; the final verdict still says when the result needs no more than probes).
    for level in (grade,) if grade else ("line", "search"):
        fixed = _one_repair(builder, pixels, level, budget, seed, deadline)
        if fixed.reached:
            return fixed, level
        tried.append(level)
    size = f"{builder.width}x{builder.height}"
    for level in GRADES[GRADES.index(tried[-1]) + 1 :]:  # the nearest grade that works
        fixed = _one_repair(builder, pixels, level, budget, seed, deadline)
        if fixed.reached:
            raise PuzzleError(
                f"at {size} the picture could not be made {_grade_words(tried[-1])} within "
                f"{budget} changed cells; {_grade_words(level)} took {len(fixed.changed)} "
                f"(use --grade {level}, or raise --max-changes)"
            )
    raise PuzzleError(
        f"at {size} the picture could not be made unique within {budget} changed cells "
        "(raise --max-changes, or choose a smaller --size or fewer --colors)"
    )


def _grade_words(grade: str) -> str:
    return {"line": "line-solvable", "probe": "probe-solvable"}.get(grade, "unique")


def _one_repair(
    builder: Builder, pixels: Pixels, grade: str, budget: int, seed: Any, deadline: Deadline
) -> Repair:
    rng = random.Random(f"{seed}:{grade}")
    try:
        return repair(builder, pixels.grid, pixels.cost, grade, budget, rng, deadline)
    except TimeLimitReached:
        raise PuzzleError(
            f"ran out of time while making the picture unique at grade {grade}"
        ) from None


def _result(
    builder: Builder,
    pixels: Pixels,
    fixed: Repair,
    reached: str,
    budget: int,
    seed: Any,
    started: float,
) -> dict[str, Any]:
    puzzle = fixed.puzzle
    verdict = puzzle.solve(limit=2)
    if verdict.status != "unique":  # the repair only stops on a proof of uniqueness
        raise AssertionError(f"a repaired picture's puzzle is {verdict.status}")
    chars = [colour.char for colour in builder.palette]
    if not builder.colour:
        chars = [".", "#"]
    changes = [
        {"cell": cell_name(divmod(cell, builder.width)), "from": chars[old], "to": chars[new]}
        for cell, old in sorted(fixed.changed.items())
        for new in (fixed.grid[cell],)
    ]
    return {
        "puzzle": puzzle,
        "clues": _clues(puzzle),
        "solution": [
            "".join(chars[v] for v in fixed.grid[r * builder.width : (r + 1) * builder.width])
            for r in range(builder.height)
        ],
        "grade": verdict.grade or reached,
        "size": f"{builder.width}x{builder.height}",
        "colors": len(builder.palette) - 1,
        "palette": [
            {"name": c.name, "char": char, "hex": c.hex} for c, char in zip(builder.palette, chars)
        ],
        "changed": len(changes),
        "changes": changes,
        "budget": budget,
        "error": {
            "picture": round(pixels.error(pixels.grid), 2),
            "puzzle": round(pixels.error(fixed.grid), 2),
        },
        **({"threshold": round(pixels.threshold, 1)} if pixels.threshold is not None else {}),
        "seed": whole_value(seed, "--seed") if seed is not None else 0,
        "text": puzzle.to("clues" if isinstance(puzzle, Nonogram) else "json"),
        "time_s": time.perf_counter() - started,
    }


def _clues(puzzle: Nonogram | ColourNonogram) -> dict[str, Any]:
    if isinstance(puzzle, Nonogram):
        return {"rows": [list(c) for c in puzzle.rows], "cols": [list(c) for c in puzzle.cols]}
    names = [colour.name for colour in puzzle.colours]
    return {
        kind: [[[n, names[c]] for n, c in clue] for clue in clues]
        for kind, clues in (("rows", puzzle.rows), ("cols", puzzle.cols))
    }


__all__ = ["GRADES", "generate_from_image", "picture_size"]
