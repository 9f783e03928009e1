"""Generate Double Choco puzzles with exactly one answer, reproducibly from a seed.

1. Tile the grid with blocks, growing from the first free cell (row-major): a random
   connected area of k cells, then a congruent copy (one of the 8 symmetries, at a random
   free place touching it). One of the two becomes white, the other gray. After each block
   every left-over region must have an even number of cells, else that block is tried
   again; after too many failures the tiling restarts (a region can be even yet untileable).
2. Clues: every block gets its half-size on a random cell; while the solver still finds
   another answer, a clue goes on a cell whose block differs in it (until unique).
3. Clues are removed one at a time, those that tell local logic least first (ties in a
   random order), while the tiling stays the only answer
   (`search.other_answer`, with a deterministic round budget: a check that runs out keeps
   the clue, so the result depends on the seed only, never on the machine's speed).
4. The grade comes from the logic steps. With `grade=` a logic level, clues are first
   added (true ones, beside the edges logic up to that level leaves open) until that
   level's logic finishes the puzzle (the `local` level needs many more clues than one a
   block), then step 3 also keeps every clue whose removal would leave the puzzle beyond
   that level (so the result is as sparse as the grade allows), and a result of another
   grade is retried with a further seed (core.seeds). (Checking `contradiction` at each
   removal would cost seconds of probing per clue on 10x10.) At the local level several
   tilings are clued and the few with the fewest clues are thinned (SCREENED,
   THINNED_CELLS). A `contradiction` puzzle is a placement-level one less a clue: the
   first of a few whose loss keeps the answer unique and that trials (with a budget of
   edges tried) then finish, those whose loss leaves placement logic the least to do
   first. `search` is checked at the end.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pencilbox.core.grid import Cell
from pencilbox.core.notation import whole_value
from pencilbox.core.seeds import attempt_seed
from pencilbox.core.timing import Deadline, Stats, TimeLimitReached
from pencilbox.errors import PuzzleError, quote
from pencilbox.genres.dbchoco.board import UNDECIDED
from pencilbox.genres.dbchoco.logic import (
    EDGE_RULES,
    GRADE_OF,
    GRADES,
    State,
    deduce,
    deduce_more,
    propagate,
)
from pencilbox.genres.dbchoco.model import DoubleChoco, Walls, make_puzzle
from pencilbox.genres.dbchoco.search import BudgetExceeded, other_answer
from pencilbox.genres.dbchoco.shapes import TRANSFORMS, apply
from pencilbox.genres.dbchoco.solve import _grade

MAX_ROUNDS = 150
"""Lazy rounds allowed for one uniqueness check while removing clues. Measured on 10x10,
seeds 1-6 (CPU): 40 rounds -> median 1.3 s, 15-21 clues; 150 rounds -> median 3.8 s,
11-20 clues (median 13)."""
HALF_SIZES = (1,) * 3 + (2,) * 3 + (3,) * 3 + (4,) * 3 + (5,) * 2 + (6, 7, 8)
"""The half-sizes a block is first tried at, as often as human setters use them: on the 73 real
puzzles with one answer of ../shared/data/dbchoco and the benchmark's sets, 37% of the blocks
are dominoes, 20% have 4 cells, 16% 6, 12% 8 and the rest more (bench/results/dbchoco.md)."""


def _neighbours(cell: Cell, width: int, height: int) -> list[Cell]:
    r, c = cell
    out = [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
    return [(a, b) for a, b in out if 0 <= a < height and 0 <= b < width]


def _grow(
    start: Cell, size: int, free: set[Cell], rng: random.Random, w: int, h: int
) -> list[Cell] | None:
    cells = [start]
    inside = {start}
    while len(cells) < size:
        frontier = sorted(
            {n for cell in cells for n in _neighbours(cell, w, h) if n in free and n not in inside}
        )
        if not frontier:
            return None
        pick = rng.choice(frontier)
        cells.append(pick)
        inside.add(pick)
    return cells


def _copies(area: list[Cell], free: set[Cell], w: int, h: int) -> list[list[Cell]]:
    """Congruent copies of `area` on free cells, disjoint from it and touching it."""
    inside = set(area)
    touching = {n for cell in area for n in _neighbours(cell, w, h)} - inside
    out: list[list[Cell]] = []
    seen: set[tuple[Cell, ...]] = set()
    for t in range(len(TRANSFORMS)):
        image = [apply(t, cell) for cell in area]
        r0, c0 = image[0]
        for target in sorted(free - inside):
            dr, dc = target[0] - r0, target[1] - c0
            copy = [(r + dr, c + dc) for r, c in image]
            key = tuple(sorted(copy))
            if key in seen:
                continue
            seen.add(key)
            if all(cell in free and cell not in inside for cell in copy) and any(
                cell in touching for cell in copy
            ):
                out.append(copy)
    return out


def _regions_even(free: set[Cell], w: int, h: int) -> bool:
    left = set(free)
    while left:
        stack = [left.pop()]
        size = 1
        while stack:
            for n in _neighbours(stack.pop(), w, h):
                if n in left:
                    left.remove(n)
                    stack.append(n)
                    size += 1
        if size % 2:
            return False
    return True


def tile(
    width: int, height: int, rng: random.Random, max_half: int = 8
) -> tuple[list[list[int]], list[list[bool]]]:
    """A random partition into blocks of two congruent halves, none with halves of more than
    `max_half` cells: (block ids, gray cells)."""
    max_half = max(1, min(max_half, width * height // 8))
    while True:
        free = {(r, c) for r in range(height) for c in range(width)}
        blocks = [[-1] * width for _ in range(height)]
        gray = [[False] * width for _ in range(height)]
        count = 0
        failed = False
        while free and not failed:
            start = min(free)
            for _attempt in range(30):
                size = min(rng.choice(HALF_SIZES), max_half, len(free) // 2)
                area = _grow(start, size, free, rng, width, height)
                if area is None:
                    continue
                copies = _copies(area, free, width, height)
                rng.shuffle(copies)
                placed = False
                for copy in copies[:6]:
                    rest = free - set(area) - set(copy)
                    if _regions_even(rest, width, height):
                        white_first = rng.random() < 0.5
                        for cell in area:
                            blocks[cell[0]][cell[1]] = count
                            gray[cell[0]][cell[1]] = not white_first
                        for cell in copy:
                            blocks[cell[0]][cell[1]] = count
                            gray[cell[0]][cell[1]] = white_first
                        count += 1
                        free = rest
                        placed = True
                        break
                if placed:
                    break
            else:
                failed = True
        if not failed:
            return blocks, gray


def _puzzle(gray: list[list[bool]], numbers: dict[Cell, int], w: int, h: int) -> DoubleChoco:
    rows: list[list[int | None]] = [[numbers.get((r, c)) for c in range(w)] for r in range(h)]
    return make_puzzle(gray, rows)


def _until_unique(tiling: Tiling, clues: set[Cell], rng: random.Random) -> set[Cell] | None:
    """Add clues until the tiling is the only answer: each other answer found gets a clue
    on a cell whose block differs there (its true half-size rules that answer out)."""
    w, h = len(tiling.gray[0]), len(tiling.gray)
    while True:
        try:
            other = other_answer(tiling.puzzle(clues), tiling.answer, deadline=Deadline(120))
        except TimeLimitReached:  # no verdict on a very slow machine: one more clue
            free = sorted(set(tiling.half) - clues)
            if not free:
                return None
            clues = clues | {rng.choice(free)}
            continue
        if other is None:
            return clues
        other_ids = other.block_ids()
        wrong = [
            (r, c)
            for r in range(h)
            for c in range(w)
            if (r, c) not in clues
            and sorted(
                (a, b) for a in range(h) for b in range(w) if other_ids[a][b] == other_ids[r][c]
            )
            != tiling.members[tiling.blocks[r][c]]
        ]
        if not wrong:  # clues cannot tell the two apart (e.g. 1s in a 2x2 square): retile
            return None
        clues = clues | {rng.choice(wrong)}


def _parse_size(size: Any, width: Any, height: Any) -> tuple[int, int]:
    if size is not None:
        text = str(size).lower()
        if "x" in text:
            a, _, b = text.partition("x")
            width, height = a, b
        else:
            width = height = text
    try:
        w = whole_value(width if width is not None else 10, "--size")
        h = whole_value(height if height is not None else 10, "--size")
    except PuzzleError:
        shown = quote(str(size)) if size is not None else f"{width!r}x{height!r}"
        raise PuzzleError(f"--size must be WxH or N, got {shown}") from None
    if not (2 <= w <= 30 and 2 <= h <= 30) or (w * h) % 2:
        raise PuzzleError(f"cannot generate a {w}x{h} Double Choco (2-30 per side, even area)")
    return w, h


def generate(
    size: Any = None,
    seed: int | None = None,
    grade: str | None = None,
    *,
    width: int | None = None,
    height: int | None = None,
    attempts: int = 20,
    max_block: Any = None,
    **unused: Any,
) -> dict[str, Any]:
    if unused:
        raise PuzzleError(f"generate dbchoco: unknown option(s) {', '.join(sorted(unused))}")
    if grade is not None and grade not in GRADES:
        raise PuzzleError(
            f"unknown Double Choco grade {grade!r}; choose one of {', '.join(GRADES)}"
        )
    started = time.perf_counter()
    w, h = _parse_size(size, width, height)
    base_seed = whole_value(seed, "--seed") if seed is not None else random.randrange(1 << 30)
    attempts = whole_value(attempts, "--attempts", minimum=1)
    biggest = whole_value(max_block if max_block is not None else 16, "--max-block", minimum=2)
    for attempt in range(attempts if grade else 1):
        seed_used = attempt_seed(base_seed, attempt)
        made = _generate_one(w, h, seed_used, grade, biggest // 2)
        if grade is None or made["grade"] == grade:
            made["seed"] = seed_used
            made["time_s"] = time.perf_counter() - started
            return made
    raise PuzzleError(f"no {w}x{h} puzzle of grade {grade!r} in {attempts} attempts")


@dataclass(frozen=True)
class Tiling:
    """A tiled grid: the answer the clues must pin down, and each cell's true number."""

    gray: list[list[bool]]
    answer: Walls
    blocks: list[list[int]]
    members: dict[int, list[Cell]]
    half: dict[Cell, int]
    """cell -> half its block's size: the number a clue on that cell shows"""

    @classmethod
    def of(cls, blocks: list[list[int]], gray: list[list[bool]]) -> Tiling:
        members: dict[int, list[Cell]] = {}
        for r, row in enumerate(blocks):
            for c, block in enumerate(row):
                members.setdefault(block, []).append((r, c))
        half = {cell: len(cells) // 2 for cells in members.values() for cell in cells}
        return cls(gray, Walls.from_blocks(blocks), blocks, members, half)

    def puzzle(self, clues: Iterable[Cell]) -> DoubleChoco:
        numbers = {cell: self.half[cell] for cell in clues}
        return _puzzle(self.gray, numbers, len(self.gray[0]), len(self.gray))

    def one_a_block(self, rng: random.Random) -> set[Cell]:
        return {rng.choice(cells) for _, cells in sorted(self.members.items())}


def _logic(tiling: Tiling, clues: Iterable[Cell], target: str) -> State:
    return deduce(tiling.puzzle(clues), level=target)


def _left_open(tiling: Tiling, clues: Iterable[Cell], target: str) -> int:
    """How many edges logic up to the target level leaves undecided with these clues. 0: it
    finishes the puzzle, which then has one answer (every step of logic is forced)."""
    return _logic(tiling, clues, target).edges.count(UNDECIDED)


def _unique(tiling: Tiling, clues: Iterable[Cell]) -> bool | None:
    """Whether the tiling is the only answer (None: the round budget ran out). No clock: a
    check cut short by a busy machine would keep another clue, and then the puzzle would
    depend on the machine's speed instead of on the seed alone."""
    try:
        other = other_answer(tiling.puzzle(clues), tiling.answer, max_rounds=MAX_ROUNDS)
    except BudgetExceeded:
        return None
    return other is None


LOGIC_LEVELS = ("local", "placement")
"""The levels whose logic alone (no trials) finishes a puzzle: a clue set it finishes has
one answer, so the generator checks these levels by logic alone, without the solver."""
CANDIDATES = {"local": 8, "placement": 3}
"""Clues tried at each addition (a placement-level run costs ten times a local one)."""
RETILES = 30
"""Tilings tried for one seed before it gives up on the level asked for."""


def _clued_for_level(tiling: Tiling, target: str, rng: random.Random) -> set[Cell] | None:
    """A clue set that logic up to `target` finishes: one clue a block, then, while logic
    stops short, the clue that leaves it the fewest edges open among a few beside where it
    stopped. None when a clue in every cell is not enough: that tiling cannot make a puzzle
    of the level (most 8x8 tilings at the local level)."""
    if _left_open(tiling, tiling.half, target):
        return None
    clues = tiling.one_a_block(rng)
    state = _logic(tiling, clues, target)
    while True:
        if state.solved():  # logic went on from fewer clues: the whole of it must agree
            state = _logic(tiling, clues, target)
            if state.solved():
                return clues
        stuck = {
            cell for e, v in enumerate(state.edges) if v == UNDECIDED for cell in state.geo.cells(e)
        }
        near = sorted(stuck - clues) or sorted(set(tiling.half) - clues)
        tried = rng.sample(near, min(CANDIDATES[target], len(near)))
        more = {
            cell: deduce_more(tiling.puzzle(clues | {cell}), state, cell, target) for cell in tried
        }
        best = min(tried, key=lambda cell: more[cell].edges.count(UNDECIDED))
        clues, state = clues | {best}, more[best]


def _by_telling(
    tiling: Tiling, clues: set[Cell], rng: random.Random, *, most_first: bool = False
) -> list[Cell]:
    """The clues, those that tell logic least first: without each, how many edges local logic
    leaves open (a clue whose loss changes nothing repeats what the shapes and the other clues
    say; one whose loss leaves much open is worth keeping). Ties in a random order. With
    `most_first`, the other way round: taking away what logic leans on leaves a puzzle that
    only search can finish."""
    shuffled = sorted(clues)
    rng.shuffle(shuffled)
    told = {cell: _left_open_by_edges(tiling, clues - {cell}) for cell in shuffled}
    return sorted(shuffled, key=told.__getitem__, reverse=most_first)


def _left_open_by_edges(tiling: Tiling, clues: Iterable[Cell]) -> int:
    """`_left_open` at the local level without small_placement (logic.EDGE_RULES): with it
    the ordering cost 2.5 times as much (a placement-level 10x10 spent a sixth of its time
    on it)."""
    puzzle = tiling.puzzle(clues)
    state = State(puzzle, [UNDECIDED] * puzzle.geometry.count)
    propagate(state, None, EDGE_RULES, checked=False)
    return state.edges.count(UNDECIDED)


def _fewest(tiling: Tiling, clues: set[Cell], target: str | None, rng: random.Random) -> set[Cell]:
    """Take clues away, the least telling first, while the tiling stays the only answer and
    the puzzle its level: until none can go (logic is monotone in the clues, so one pass
    leaves a set from which no single clue can be taken)."""
    if target == "local":
        return _fewest_by_logic(tiling, clues, target, rng)
    if target == "placement":
        return _fewest_at_placement(tiling, clues, rng)[0]
    for cell in _by_telling(tiling, clues, rng, most_first=target == "search"):
        trial = clues - {cell}
        if _unique(tiling, trial) is True:  # levels with trials are checked at the end
            clues = trial
    return clues


def _fewest_at_placement(
    tiling: Tiling, clues: set[Cell], rng: random.Random
) -> tuple[set[Cell], dict[Cell, int]]:
    """`_fewest` at the placement level (ordered by local logic: a deduction at placement
    costs several local ones), with the edges placement logic left open when each kept clue
    was tried without (on a set that held the final one, so at most what it leaves open
    without that clue now)."""
    left: dict[Cell, int] = {}
    for cell in _by_telling(tiling, clues, rng):
        trial = clues - {cell}
        left[cell] = _left_open(tiling, trial, "placement")
        if left[cell] == 0:
            clues = trial
    return clues, {cell: left[cell] for cell in clues}


def _fewest_by_logic(
    tiling: Tiling, clues: set[Cell], target: str, rng: random.Random
) -> set[Cell]:
    """`_fewest` at a level that logic finishes. Each clue is first taken away alone: how many
    edges the level's logic then leaves open is how much that clue tells it (its order, least
    first). A clue without which logic stops short can never go (with fewer clues logic finds
    no more), so only the clues it finishes without are tried again, one by one, on what is
    left: about half the deductions of trying every clue on top of ordering them. Used at the
    local level only: at placement each deduction costs several local ones, and ordering by
    local logic then trying every clue at placement costs less (10x10 seeds 1-3: median
    4.0 s CPU against 5.5 s, the same clues)."""
    shuffled = sorted(clues)
    rng.shuffle(shuffled)
    told = {cell: _left_open(tiling, clues - {cell}, target) for cell in shuffled}
    removed = False
    for cell in sorted((cell for cell in shuffled if told[cell] == 0), key=told.__getitem__):
        trial = clues - {cell}
        if not removed or _left_open(tiling, trial, target) == 0:  # first: `told` said so
            clues, removed = trial, True
    return clues


def _level(tiling: Tiling, clues: set[Cell], target: str | None) -> str:
    """The puzzle's grade. At a level that logic alone finishes it is the level asked for
    unless the levels below finish it too (the techniques run easiest first, so the hardest
    one used is of the lowest level that finishes the puzzle); else the whole grading."""
    if target in LOGIC_LEVELS:
        for easier in LOGIC_LEVELS[: LOGIC_LEVELS.index(target)]:
            if _left_open(tiling, clues, easier) == 0:
                return easier
        return target
    probes = target in ("contradiction", "search")  # else a trial-level puzzle grades search
    puzzle = tiling.puzzle(clues)
    return _grade(puzzle, tiling.answer, Stats(), Deadline(None), probes=probes) or "search"


TRIAL_EDGES = 120
"""Edges the trials of one `contradiction` candidate may try in all (a count, not a clock:
the puzzle depends on the seed only). A candidate that needs more is passed over."""
CANDIDATES_BY_TRIAL = 6
"""Clues of a placement-level puzzle whose removal is tried with trials, per tiling."""


def _one_short(tiling: Tiling, rng: random.Random) -> set[Cell] | None:
    """A `contradiction` puzzle: a placement-level clue set from which no clue can go at that
    level, less one clue whose loss keeps the tiling the only answer and that the trials
    finish (so placement logic stops short and a trial is needed). The clues whose loss left
    placement logic the fewest edges open, as the thinning found, are tried first: the trials
    have the least to do there, so they finish within their budget more often, and a tiling
    whose candidates all fail costs every candidate's budget (before: the clues local logic
    needs most first; 10x10 seeds 1-3: median 8.2 -> 4.5 s CPU, the same clue counts).
    Checking the trials once per candidate, on a puzzle one clue short of placement, costs
    far less than grading a clue set thinned by uniqueness alone (most of those need search:
    every trial sweep then runs to its end)."""
    clues = _clued_for_level(tiling, "placement", rng)
    if clues is None:
        return None
    clues, left = _fewest_at_placement(tiling, clues, rng)
    shuffled = sorted(clues)
    rng.shuffle(shuffled)
    tried = 0
    for cell in sorted(shuffled, key=left.__getitem__):
        trial = clues - {cell}
        if tried == CANDIDATES_BY_TRIAL:
            break
        if _unique(tiling, trial) is not True:
            continue
        tried += 1
        state = deduce(tiling.puzzle(trial), max_trials=TRIAL_EDGES)
        if state.solved() and GRADE_OF[state.hardest()] == "contradiction":
            return trial
    return None


def _first_clues(tiling: Tiling, target: str | None, rng: random.Random) -> set[Cell] | None:
    if target in LOGIC_LEVELS:
        return _clued_for_level(tiling, target, rng)
    if target == "contradiction":
        return _one_short(tiling, rng)
    return _until_unique(tiling, tiling.one_a_block(rng), rng)


SCREENED = {"local": 8}
"""Tilings clued for a level before the one with the fewest clues is thinned (others: the
first that reaches the level). How many clues the local level needs varies most from one
tiling to another (on ten 10x10 tilings 23 to 42 once thinned), and the count before thinning
foretells the count after it well enough (the fewest before: 27 and 23 after): cluing a
tiling costs a fraction of thinning it (about 1 s against 4 s on 10x10)."""


THINNED_CELLS = 200
"""At the local level, how many of the screened tilings (those with the fewest clues first)
are thinned before the one with the fewest clues left is kept: as many as make this many
cells together (6x6: 5, 8x8: 3, 10x10: 2, larger: 1), since the count before thinning
foretells the one after only roughly and thinning costs about the square of the cells.
Median clues and CPU s thinning the best one, two or three: 8x8 (seeds 1-7) 12, 10 and 10;
10x10 (seeds 1-5) 18 at 8 s, 18 at 12 s, 16 at 15-20 s (too near its 20 s)."""


def _thinned(w: int, h: int, target: str | None) -> int:
    return max(1, THINNED_CELLS // (w * h)) if target == "local" else 1


def _screened(
    w: int, h: int, target: str | None, rng: random.Random, max_half: int
) -> list[tuple[Tiling, set[Cell]]] | None:
    """Tilings with a first clue set for the level: the `_thinned` with the fewest clues among
    the first SCREENED tilings that reach it, within RETILES tilings; None when none does."""
    found: list[tuple[Tiling, set[Cell]]] = []
    for _ in range(RETILES):
        tiling = Tiling.of(*tile(w, h, rng, max_half))
        clues = _first_clues(tiling, target, rng)
        if clues is not None:
            found.append((tiling, clues))
            if len(found) == SCREENED.get(target or "", 1):
                break
    return sorted(found, key=lambda pair: len(pair[1]))[: _thinned(w, h, target)] or None


def _generate_one(w: int, h: int, seed: int, target: str | None, max_half: int) -> dict[str, Any]:
    rng = random.Random(seed)
    found = _screened(w, h, target, rng, max_half)
    if found is None:  # no tiling reached the level: one of another grade (the caller tries
        target = None  # a further seed)
        while found is None:
            tiling = Tiling.of(*tile(w, h, rng, max_half))
            clues = _first_clues(tiling, None, rng)
            found = None if clues is None else [(tiling, clues)]
    if target == "contradiction":  # _one_short has thinned and graded the clues already
        tiling, clues = found[0]
        level = target
    else:
        thinned = [(tiling, _fewest(tiling, clues, target, rng)) for tiling, clues in found]
        tiling, clues = min(thinned, key=lambda pair: len(pair[1]))
        level = _level(tiling, clues, target)
    puzzle = tiling.puzzle(clues)
    return {
        "url": puzzle.to("url").strip(),
        "answer": tiling.answer.to_json(),
        "clues": len(clues),
        "grade": level,
        "time_s": 0.0,
        "puzzle": puzzle,
    }
