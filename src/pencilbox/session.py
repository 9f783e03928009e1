"""The mid-end: one game of one puzzle, with its history of moves.

A game is a puzzle, the list of moves played and a position in that list (moves after the
position are the redo tail). The current state is what `apply_move` makes of the initial
state, move after move, so saving, undo, redo, replay and the web page all go through one
path. Moves are printable strings:

    r3c4=1 r3c5=1      set cells (1-based row and column) to genre values
    clear              every cell back to unknown (givens stay, for genres that have them)
    grid ##../.#?.     the whole state at once, rows separated by "/" (a solve, a pass)
    r3c4+5 r3c4-5      add / remove a pencil mark (genres whose play rules have
                       `marks = True`; may share a move with cell settings: r1c1=5 r1c2-5)

A genre whose moves are not cell settings (walls on edges, say) spells its own through its
play rules' `apply`. `apply_move` rejects anything else with a `MoveError` that says what is
wrong. Genre knowledge (values, hints, checking) lives in the genre's play rules
(`genres/<name>/play.py`, the `PlayRules` of `genres/base.py`, given as `Genre.play`); a genre
without them cannot be played yet (the web app still lists, solves and converts it). This
module names no genre.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pencilbox.core.grid import Cell, Grid, cell_name, cells_of
from pencilbox.core.step import Step
from pencilbox.errors import MoveError, PuzzleError
from pencilbox.genres import base
from pencilbox.genres.base import PlayRules, SolveResult

__all__ = [
    "Change",
    "Game",
    "MoveError",
    "apply_full",
    "apply_move",
    "marks_json",
    "parse_text",
    "play_rules",
    "playable",
    "rules_for",
    "set_move",
    "state_from_text",
    "state_text",
]

MAX_MOVE_LENGTH = 200_000
SAVE_VERSION = 2


def play_rules(genre: str) -> PlayRules | None:
    """The play rules of a genre (by name or alias), None when it cannot be played."""
    try:
        return base.get(genre).play
    except PuzzleError:
        return None


def playable(genre: str) -> bool:
    return play_rules(genre) is not None


def rules_for(genre: str) -> PlayRules:
    rules = play_rules(genre)
    if rules is None:
        raise PuzzleError(f"the {genre} genre cannot be played in a session yet")
    return rules


# -- reading puzzles --------------------------------------------------------------------------
def parse_text(
    text: str,
    genre: str | None = None,
    format: str | None = None,
    filename: str | None = None,
    max_size: int | None = 200,
) -> Any:
    """Puzzle text (never a path on this machine) to a puzzle; a file name helps detection."""
    import pencilbox  # noqa: F401  (registers the genres)

    chosen = base.get(genre) if genre else base.detect(text, filename)
    return chosen.parse(text, format, filename=filename, max_size=max_size)


# -- moves ------------------------------------------------------------------------------------
_SET = re.compile(r"r(\d{1,4})c(\d{1,4})=(\d{1,3})")


def state_text(rules: PlayRules, grid: Grid) -> str:
    return "/".join("".join(rules.symbols[v] for v in row) for row in grid.rows())


def state_from_text(rules: PlayRules, puzzle: Any, text: str) -> Grid:
    initial = rules.initial(puzzle)
    if "/" not in text and len(text) == initial.width * initial.height:
        text = "/".join(text[i : i + initial.width] for i in range(0, len(text), initial.width))
    rows = text.split("/")
    if len(rows) != initial.height or any(len(row) != initial.width for row in rows):
        raise MoveError(
            f"a grid move needs {initial.height} rows of {initial.width} symbols separated by "
            f"'/' (or all {initial.width * initial.height} in one word)"
        )
    values = []
    symbols = rules.symbols[: _value_count(rules, puzzle)]
    for r, row in enumerate(rows):
        for c, symbol in enumerate(row):
            value = symbols.find(symbol)
            if value < 0:
                raise MoveError(
                    f"r{r + 1}c{c + 1}: {symbol!r} is not one of {symbols!r} in a grid move"
                )
            values.append(value)
    return Grid(initial.width, initial.height, tuple(values))


def _value_count(rules: PlayRules, puzzle: Any) -> int:
    """How many cell values this puzzle has (a rules object may narrow its symbols)."""
    counter = getattr(rules, "value_count", None)
    return int(counter(puzzle)) if counter is not None else len(rules.symbols)


def set_move(changes: Sequence[tuple[Cell, int]]) -> str:
    """The move string that sets these cells."""
    return " ".join(f"r{r + 1}c{c + 1}={v}" for (r, c), v in changes)


Marks = tuple[tuple[Cell, int], ...]
"""Pencil marks: (cell, bitmask of digits, bit k = digit k+1) for the cells that have any."""

_MARK = re.compile(r"r(\d{1,4})c(\d{1,4})([+-])(\d{1,3})")


def apply_move(rules: PlayRules, puzzle: Any, grid: Grid, move: str) -> tuple[Grid, str]:
    """The state after `move`, and the move in its normal spelling; MoveError for garbage."""
    new, _, normal = apply_full(rules, puzzle, grid, (), move)
    return new, normal


def apply_full(
    rules: PlayRules, puzzle: Any, grid: Grid, marks: Marks, move: str
) -> tuple[Grid, Marks, str]:
    """`apply_move` with pencil marks, for genres whose rules have `marks = True`: words like
    r3c4+5 / r3c4-5 add / remove a mark, and may come in one move with cell settings."""
    if isinstance(move, str) and len(move) > MAX_MOVE_LENGTH:
        raise MoveError(f"the move is {len(move)} characters long, above {MAX_MOVE_LENGTH}")
    own = getattr(rules, "apply", None)
    if own is not None:  # genres whose moves are not cell settings (edges, say)
        new, normal = own(puzzle, grid, move)
        return new, marks, normal
    if not getattr(rules, "marks", False) or not isinstance(move, str):
        new, normal = _apply_cells(rules, puzzle, grid, move)
        return new, marks, normal
    words = move.split()
    mark_words = [w for w in words if _MARK.fullmatch(w)]
    if not mark_words:
        if words == ["clear"]:
            return rules.cleared(puzzle, grid), (), "clear"
        new, normal = _apply_cells(rules, puzzle, grid, move)
        return new, marks, normal
    other = [w for w in words if not _MARK.fullmatch(w)]
    if any(w == "clear" or w == "grid" for w in other):
        raise MoveError("pencil marks go with cell settings only, not with 'clear' or 'grid'")
    new, normal = _apply_cells(rules, puzzle, grid, " ".join(other)) if other else (grid, "")
    table = dict(marks)
    changes: dict[tuple[Cell, int], str] = {}
    count = _value_count(rules, puzzle)
    for word in mark_words:
        match = _MARK.fullmatch(word)
        assert match is not None
        row, col, sign, digit = match.groups()
        r, c, d = int(row), int(col), int(digit)
        if not (1 <= r <= grid.height and 1 <= c <= grid.width):
            raise MoveError(f"{word}: the grid has {grid.height} rows and {grid.width} columns")
        if not 1 <= d < count:
            raise MoveError(f"{word}: marks go from 1 to {count - 1}")
        cell = (r - 1, c - 1)
        if not rules.editable(puzzle, cell):
            raise MoveError(f"{word}: r{r}c{c} is a given and takes no marks")
        bits = table.get(cell, 0)
        bits = bits | 1 << (d - 1) if sign == "+" else bits & ~(1 << (d - 1))
        table[cell] = bits
        changes[(cell, d)] = sign
    spelled = " ".join(
        f"r{r + 1}c{c + 1}{sign}{d}" for ((r, c), d), sign in sorted(changes.items())
    )
    out = tuple(sorted((cell, bits) for cell, bits in table.items() if bits))
    return new, out, " ".join(part for part in (normal, spelled) if part)


def marks_json(marks: Marks) -> list[list[Any]]:
    """[[row, col, [digits]], ...] (0-based cells, digits from 1)."""
    return [
        [r, c, [k + 1 for k in range(bits.bit_length()) if bits >> k & 1]] for (r, c), bits in marks
    ]


def _apply_cells(rules: PlayRules, puzzle: Any, grid: Grid, move: str) -> tuple[Grid, str]:
    if not isinstance(move, str) or not move.strip():
        raise MoveError("empty move")
    if len(move) > MAX_MOVE_LENGTH:
        raise MoveError(f"the move is {len(move)} characters long, above {MAX_MOVE_LENGTH}")
    words = move.split()
    if words == ["clear"]:
        return rules.cleared(puzzle, grid), "clear"
    if words[0] == "grid":
        if len(words) != 2:
            raise MoveError("a grid move is 'grid' and one word of rows separated by '/'")
        new = state_from_text(rules, puzzle, words[1])
        for cell in cells_of(grid):
            if new[cell] != grid[cell] and not rules.editable(puzzle, cell):
                raise MoveError(f"{cell_name(cell)} is a given and cannot change")
        return new, f"grid {state_text(rules, new)}"
    changes: dict[Cell, int] = {}
    for word in words:
        match = _SET.fullmatch(word)
        if not match:
            raise MoveError(
                f"cannot read {word[:40]!r}: a move is 'clear', 'grid ROWS' or cells like r3c4=1"
            )
        row, col, value = (int(g) for g in match.groups())
        if not (1 <= row <= grid.height and 1 <= col <= grid.width):
            raise MoveError(f"{word}: the grid has {grid.height} rows and {grid.width} columns")
        count = _value_count(rules, puzzle)
        if value >= count:
            raise MoveError(f"{word}: cell values go from 0 to {count - 1}")
        cell = (row - 1, col - 1)
        if not rules.editable(puzzle, cell):
            raise MoveError(f"{word}: r{row}c{col} is a given and cannot change")
        changes[cell] = value
    normal = set_move(sorted(changes.items()))
    return grid.with_cells(changes.items()), normal


# -- the game ---------------------------------------------------------------------------------
MAX_HISTORY = 10_000
"""Moves a game keeps; beyond, the oldest half becomes one move (see `Game.play`)."""
MAX_HISTORY_CELLS = 1_000_000
"""Cell changes a game's history keeps (a 200x200 grid move changes up to 40,000)."""


@dataclass(frozen=True)
class Change:
    """One move of a game's history, as what it changed: `cells` holds the changed cell
    indices, `before` and `after` their values (one byte each), `marks` the pencil marks
    before and after when they changed. `move` is the move as it is saved: the player's
    spelling, except that a `grid` move is saved as the cells it changed when that is
    shorter. Replaying `move` on the state before gives the state after."""

    move: str
    cells: array[int]
    before: bytes
    after: bytes
    marks: tuple[Marks, Marks] | None = None

    @property
    def size(self) -> int:
        return len(self.cells)


def _difference(
    rules: PlayRules,
    puzzle: Any,
    old: Grid,
    new: Grid,
    old_marks: Marks,
    new_marks: Marks,
    move: str,
) -> Change:
    changed = [i for i, (a, b) in enumerate(zip(old.cells, new.cells)) if a != b]
    before = bytes(old.cells[i] for i in changed)
    after = bytes(new.cells[i] for i in changed)
    marks = (old_marks, new_marks) if old_marks != new_marks else None
    if move.startswith("grid ") and 7 * len(changed) < len(move):  # (a cell word: 7+ chars)
        pairs = [(divmod(i, new.width), new.cells[i]) for i in changed]
        spelled = changes_move(rules, puzzle, pairs)
        move = spelled if len(spelled) < len(move) else move
    return Change(move, array("I", changed), before, after, marks)


def changes_move(rules: PlayRules, puzzle: Any, changes: Sequence[tuple[Cell, int]]) -> str:
    """The move that sets these cells, in the genre's own words (its rules' `changes_move`,
    else cell settings like r3c4=1)."""
    own = getattr(rules, "changes_move", None)
    if own is not None:
        spelled: str = own(puzzle, changes)
        return spelled
    return set_move(changes)


def _marks_words(marks: Marks) -> str:
    """The mark moves that add these marks to a cell without any."""
    return " ".join(
        f"r{r + 1}c{c + 1}+{k + 1}"
        for (r, c), bits in marks
        for k in range(bits.bit_length())
        if bits >> k & 1
    )


def _with_values(grid: Grid, cells: array[int], values: bytes) -> Grid:
    out = list(grid.cells)
    for index, value in zip(cells, values):
        out[index] = value
    return Grid(grid.width, grid.height, tuple(out))


@dataclass
class Game:
    """A puzzle, the current state and the history of moves as differences (undo applies a
    move's `before` values, redo its `after` values), so a move costs memory in proportion
    to what it changed, not to the grid."""

    puzzle: Any
    rules: PlayRules
    history: list[Change] = field(default_factory=list)
    position: int = 0
    _state: Grid | None = field(default=None, repr=False)
    _marks: Marks = field(default=(), repr=False)
    notice: str | None = None
    """Something the player should be told about this game (a merged history, a saved game
    that could not be read whole); the front end shows it."""
    unsaved_from: int = 0
    """History entries from this index on may differ from what was saved last."""
    _changed: int = field(default=0, repr=False)
    """Cell changes in the history (for MAX_HISTORY_CELLS)."""
    _solved: tuple[Grid, bool] | None = field(default=None, repr=False)

    @classmethod
    def new(cls, puzzle: Any) -> Game:
        rules = rules_for(puzzle.genre)
        return cls(puzzle, rules, [], 0, rules.initial(puzzle), ())

    @property
    def state(self) -> Grid:
        assert self._state is not None
        return self._state

    @property
    def marks(self) -> Marks:
        """The pencil marks of the current position (always empty without `rules.marks`)."""
        return self._marks

    @property
    def moves(self) -> list[str]:
        """The moves of the history as they are saved."""
        return [change.move for change in self.history]

    @property
    def can_undo(self) -> bool:
        return self.position > 0

    @property
    def can_redo(self) -> bool:
        return self.position < len(self.history)

    def play(self, move: str) -> bool:
        """Apply a move; False (and nothing recorded) when it changes nothing. A history
        beyond `MAX_HISTORY` moves or `MAX_HISTORY_CELLS` changed cells merges its oldest
        half into one move, and says so in `notice`."""
        new, marks, normal = apply_full(self.rules, self.puzzle, self.state, self.marks, move)
        if new == self.state and marks == self.marks:
            return False
        change = _difference(self.rules, self.puzzle, self.state, new, self.marks, marks, normal)
        self._append(change, new, marks)
        self._bound_history()
        return True

    def _append(self, change: Change, state: Grid, marks: Marks) -> None:
        """Record a move played at the current position (the redo tail goes)."""
        self._changed -= sum(c.size for c in self.history[self.position :])
        del self.history[self.position :]
        self.unsaved_from = min(self.unsaved_from, self.position)
        self.history.append(change)
        self._changed += change.size
        self.position += 1
        self._state, self._marks = state, marks

    def undo(self) -> bool:
        if not self.can_undo:
            return False
        self.position -= 1
        change = self.history[self.position]
        self._state = _with_values(self.state, change.cells, change.before)
        if change.marks is not None:
            self._marks = change.marks[0]
        return True

    def redo(self) -> bool:
        if not self.can_redo:
            return False
        change = self.history[self.position]
        self._state = _with_values(self.state, change.cells, change.after)
        if change.marks is not None:
            self._marks = change.marks[1]
        self.position += 1
        return True

    def reset(self) -> None:
        """Forget the whole history: back to the puzzle as it was given."""
        self.history.clear()
        self.position = 0
        self.unsaved_from = 0
        self._changed = 0
        self._state, self._marks = self.rules.initial(self.puzzle), ()

    def _bound_history(self) -> None:
        if len(self.history) <= MAX_HISTORY and self._changed <= MAX_HISTORY_CELLS:
            return
        # merge the oldest moves, keeping about half of the allowance (the newest moves)
        keep, kept_cells = 0, 0
        for change in reversed(self.history[1 : self.position]):
            if keep >= MAX_HISTORY // 2 or kept_cells + change.size > MAX_HISTORY_CELLS // 2:
                break
            keep += 1
            kept_cells += change.size
        merged = self.position - keep
        if merged < 2:
            return  # one move alone over the allowance: nothing to merge
        state = self.state
        marks = self.marks
        for change in reversed(self.history[merged : self.position]):
            state = _with_values(state, change.cells, change.before)
            marks = change.marks[0] if change.marks is not None else marks
        start = self.rules.initial(self.puzzle)
        pairs = [
            (divmod(i, state.width), v) for i, v in enumerate(state.cells) if v != start.cells[i]
        ]
        words = " ".join(
            w for w in (changes_move(self.rules, self.puzzle, pairs), _marks_words(marks)) if w
        )
        if not marks:
            grid = "grid " + state_text(self.rules, state)
            words = grid if len(grid) < len(words) else words
        merged_moves = self.history[:merged]
        if words:  # the merged moves as one (none when they led back to the start)
            first = _difference(self.rules, self.puzzle, start, state, (), marks, words)
            self.history[:merged] = [first]
            self.position -= merged - 1
        else:
            del self.history[:merged]
            self.position -= merged
        self._changed = sum(change.size for change in self.history)
        self.unsaved_from = 0
        self.notice = (
            f"This game's history is full ({MAX_HISTORY:,} moves or {MAX_HISTORY_CELLS:,} cell "
            f"changes at most): its first {len(merged_moves):,} moves are now one, so undo "
            "goes back past them in one step."
        )

    def hint(self, solution: Grid | None = None) -> Step | None:
        return self.rules.hint(self.puzzle, self.state, solution)

    def single_pass(self) -> list[Step]:
        """One pass of logic from the current state, played as one move."""
        steps, new = self.rules.single_pass(self.puzzle, self.state)
        changes = [(c, new[c]) for c in cells_of(new) if new[c] != self.state[c]]
        if changes:
            self.play(set_move(changes))
        return steps

    def solve(self, result: SolveResult) -> bool:
        """Play the first solution of a solve result as one move (solve-as-a-move)."""
        if not result.solutions:
            return False
        solution = result.solutions[0]
        convert = getattr(self.rules, "solution_state", None)
        if convert is not None:  # solutions that are not grids (a set of walls)
            solution = convert(self.puzzle, solution)
        return self.play("grid " + state_text(self.rules, solution))

    def check(self, solution: Grid | None = None) -> dict[str, Any]:
        return self.rules.check(self.puzzle, self.state, solution)

    def progress(self) -> float:
        return self.rules.progress(self.puzzle, self.state)

    def solved(self) -> bool:
        """Whether the current state solves the puzzle (remembered for this state: a big
        grid's check takes a while, and every answer and save asks)."""
        if self._solved is None or self._solved[0] is not self.state:
            self._solved = (self.state, bool(self.check()["solved"]))
        return self._solved[1]

    def to_json(self) -> dict[str, Any]:
        return {
            "version": SAVE_VERSION,
            "genre": self.puzzle.genre,
            "moves": self.moves,
            "position": self.position,
            "state": state_text(self.rules, self.state),
        }

    @classmethod
    def replay(
        cls, puzzle: Any, moves: Sequence[object], position: object
    ) -> tuple[Game, str | None]:
        """A saved game: its moves played from the start, then undone back to `position`.
        A move that cannot be played ends the replay there; the second value then says
        which move and why (the caller reports it: nothing is dropped silently)."""
        game = cls.new(puzzle)
        problem = None
        for number, move in enumerate(moves, 1):
            try:
                if not isinstance(move, str):
                    raise MoveError(f"{type(move).__name__} is not a move")
                new, marks, normal = apply_full(game.rules, puzzle, game.state, game.marks, move)
            except MoveError as error:
                problem = f"move {number} of {len(moves)} ({str(move)[:40]!r}): {str(error)[:120]}"
                break
            change = _difference(game.rules, puzzle, game.state, new, game.marks, marks, normal)
            game._append(change, new, marks)
        count = len(game.history)  # (an over-long history is bounded at the next move)
        if isinstance(position, int) and not isinstance(position, bool):
            target = max(0, min(position, count))
            if problem is None and position != target:
                problem = f"the saved position {position} is outside its {count} moves"
        else:
            target = count
            if problem is None:
                problem = f"the saved position {str(position)[:40]!r} is not a number"
        while game.position > target:
            game.undo()
        game.unsaved_from = len(game.history)
        return game, problem

    @classmethod
    def from_json(cls, puzzle: Any, data: dict[str, Any]) -> Game:
        """A game saved by `to_json` (or by pencilbox 0.x); see `replay`."""
        moves = data.get("moves", [])
        if not isinstance(moves, list):
            raise MoveError("a saved game's moves must be a list of strings")
        game, problem = cls.replay(puzzle, moves, data.get("position", len(moves)))
        game.notice = problem
        return game
