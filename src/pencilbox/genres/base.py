"""The genre interface and the registry of genres.

Front ends (CLI, web) talk to puzzles only through this interface, so a new genre needs no
change in them: a genre package builds a `Genre` and calls `register` in its `__init__`, and
`discover` (run by `import pencilbox`) imports every package in the genres folder.

A genre's puzzle object offers the `Puzzle` methods below. Solutions are genre values (a Grid
for nonograms and sudoku, a wall set for Double Choco); `solution_json` turns one into what
the CLI's `--jsonl` and the web API print. Files that hold many puzzles (a Sudoku list) are
read with the genre's optional `parse_many`, which yields (1-based line number, puzzle or
PuzzleError) so that one bad line does not stop a batch.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from pencilbox.core.drawing import Drawing, PrintStyle
from pencilbox.core.grid import Cell, Grid
from pencilbox.core.step import Step
from pencilbox.errors import PuzzleError, UnknownFormat

Status = Literal["unique", "multiple", "none", "timeout"]


@dataclass
class SolveResult:
    """What a complete search found, in validation mode (look for up to `limit` solutions)."""

    status: Status
    solutions: list[Any]
    grade: str | None
    stats: dict[str, Any] = field(default_factory=dict)
    time_s: float = 0.0
    partial: Any = None
    """The cells known when the search stopped early (timeout, Ctrl-C)."""

    def differences(self) -> list[Cell]:
        if len(self.solutions) < 2:
            return []
        first: Grid = self.solutions[0]
        return first.differences(self.solutions[1])


def dimensions(puzzle: Any) -> tuple[int | None, int | None]:
    """A puzzle's width and height, for genres that name them so or only have a `size`
    (None, None: a genre with neither)."""
    width = getattr(puzzle, "width", None)
    height = getattr(puzzle, "height", None)
    size = getattr(puzzle, "size", None)
    if width is None and isinstance(size, int):
        width = height = size
    return width, height


def step_kind_report(level: str) -> dict[str, Any]:
    """`grade_report()` for a genre whose grade is the hardest step kind (or `search`): it
    has no numeric score, and its level and hardest technique are the same name."""
    return {"level": level, "score": None, "hardest": level, "solved_by_logic": level != "search"}


class PlayRules(Protocol):
    """How a genre is played: what the mid-end (`pencilbox.session`) needs to know about a
    genre whose game state is a Grid of small ints. A genre gives one as `Genre.play`, from
    its `play.py`.

    Optional hooks, looked up by name when a genre needs them:
    `marks = True` (pencil-mark moves r3c4+5), `value_count(puzzle)` (fewer values than
    symbols), `apply(puzzle, grid, move) -> (grid, normal move)` (moves that are not cell
    settings, raising `errors.MoveError`), `changes_move(puzzle, changes)` (how such moves
    spell a set of changed cells), `solution_state(puzzle, solution)` (a solver's solution
    that is not a Grid, as a state), `walls(puzzle, grid)` (the state as the renderer takes
    it) and `step_move(puzzle, step)` (the move that plays a logic step)."""

    genre: str
    symbols: str
    """One character per cell value, index = value (used by `grid` moves and saves)."""

    def initial(self, puzzle: Any) -> Grid: ...

    def cleared(self, puzzle: Any, grid: Grid) -> Grid: ...

    def editable(self, puzzle: Any, cell: Cell) -> bool: ...

    def hint(self, puzzle: Any, grid: Grid, solution: Any) -> Step | None: ...

    def single_pass(self, puzzle: Any, grid: Grid) -> tuple[list[Step], Grid]: ...

    def check(self, puzzle: Any, grid: Grid, solution: Any) -> dict[str, Any]: ...

    def progress(self, puzzle: Any, grid: Grid) -> float: ...

    def puzzle_json(self, puzzle: Any) -> dict[str, Any]: ...


class Puzzle(Protocol):
    """What every genre's puzzle object offers."""

    genre: str
    title: str | None

    def solve(
        self, limit: int = 2, time_limit: float | None = None, *, grade: bool = True
    ) -> SolveResult:
        """Validation mode: up to `limit` solutions (at least two looked for). With
        `grade=False` no time goes into a grade that costs more than the search (Double
        Choco's grading by logic: its result's grade is then None); a genre whose grade comes
        with the search itself (nonogram, sudoku) gives it anyway."""
        ...

    def steps(self, time_limit: float | None = None) -> list[Step]: ...

    def grade(self) -> str: ...

    def grade_report(self) -> dict[str, Any]: ...

    def hint(self, level: int = 1) -> str | None: ...

    def to(self, format: str) -> str: ...

    def render(self, state: Any = None, fmt: str = "text") -> str: ...

    def render_png(self, state: Any = None, scale: int = 2) -> bytes:
        """The SVG's picture as PNG bytes, `scale` pixels per SVG unit (needs Pillow)."""
        ...

    def solution_json(self, solution: Any) -> Any: ...


OptionKind = Literal["whole", "number", "text", "choice", "size", "file"]


@dataclass(frozen=True)
class GeneratorOption:
    """One option of a genre's generator, as the CLI (`generate GENRE --name VALUE`) and the
    web app's form offer it. Values reach the generator as the user typed them (text from the
    CLI, JSON values from the web): the generator checks and converts them itself, so that a
    library caller gets the same one-sentence errors."""

    name: str
    """The generator's keyword, e.g. `max_attempts` (the CLI spells it `--max-attempts`)."""
    kind: OptionKind
    """whole (a whole number), number, text, choice (one of `choices`), size (WxH or N) or
    file: the CLI reads the named file and passes its bytes, the web app a `data:` URL of an
    upload (never a path: a request must not read the server's files)."""
    help: str
    default: str | int | float | None = None
    """What the generator uses when the option is not given (None: chosen at random, or
    derived from the other options, as `help` says)."""
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None

    @property
    def flag(self) -> str:
        """`--max-attempts` for max_attempts; `--from` for from_ (a Python keyword)."""
        return "--" + self.name.rstrip("_").replace("_", "-")

    def describe(self) -> str:
        """One line of help: `--symmetry none|rotational|mirror (default none): ...`."""
        value = "|".join(self.choices) if self.choices else self.kind.upper()
        bounds = ""
        if self.minimum is not None or self.maximum is not None:
            low = "" if self.minimum is None else f"{self.minimum:g}"
            high = "" if self.maximum is None else f"{self.maximum:g}"
            bounds = f", {low}..{high}"
        default = "" if self.default is None else f", default {self.default}"
        return f"{self.flag} {value}{bounds}{default}: {self.help}"

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "help": self.help,
            "default": self.default,
            "choices": list(self.choices),
            "minimum": self.minimum,
            "maximum": self.maximum,
        }


SEED_OPTION = GeneratorOption(
    "seed", "whole", "the same seed makes the same puzzle (random when not given)"
)
"""Every generator's `seed`."""


@dataclass(frozen=True)
class Genre:
    name: str
    aliases: tuple[str, ...]
    parse: Callable[..., Any]
    """parse(text, format=None, *, filename=None, max_size=...) -> Puzzle."""
    sniff: Callable[[str, str | None], bool]
    """sniff(text, filename) -> True when the text looks like this genre."""
    formats: tuple[str, ...]
    write: Callable[[Any, str], str] | None = None
    """write(puzzle, format) -> the puzzle in that notation: what `puzzle.to(format)` gives.
    A genre's notations build its puzzles, so they sit above its puzzle class: the class
    reaches them through here (`base.write`) rather than by importing them."""
    extensions: tuple[str, ...] = ()
    """The file name endings of its notations (`.json`, `.sdk`...): a folder's puzzle files."""
    parse_many: Callable[..., Iterator[tuple[int, Any]]] | None = None
    """parse_many(text, format=None, *, filename=None) -> (line number, Puzzle | PuzzleError)."""
    generate: Callable[..., dict[str, Any]] | None = None
    """generate(**options) -> a JSON-able dict with at least "puzzle" (a Puzzle) and "time_s"."""
    solve_many: Callable[..., Iterator[SolveResult]] | None = None
    """solve_many(puzzles, limit=2, time_limit=None) -> one SolveResult per puzzle, in order,
    as each puzzle's `solve` gives it but faster (the CLI's lists); Ctrl-C ends it with a
    "timeout" result whose stats hold "interrupted"."""
    options: Callable[[], tuple[GeneratorOption, ...]] = tuple
    """options() -> the generator's options (a function: their choices may come from modules
    that only the generator needs, which `import pencilbox` does not load)."""
    play: PlayRules | None = None
    """How the genre is played in a game (the session's moves, hints, checks); None: not yet."""
    picture_reader: Any = None
    """A core.vision.reading.PictureReader when the genre reads screenshots and photos."""
    stream_steps: Callable[[Any, float, list[Step]], None] | None = None
    """stream_steps(puzzle, time_limit, steps): the steps appended to `steps` one by one as
    they are found (the web app streams them); None: `puzzle.steps()` gives them all at once."""
    actions: Mapping[str, Callable[[dict[str, Any], int], dict[str, Any]]] = field(
        default_factory=dict
    )
    """The genre's own web endpoints: POST /api/<name>/<action> runs action(JSON body, the
    largest grid side the app takes) -> JSON answer (e.g. the nonogram page's clue check)."""
    title: str = ""
    """The genre's name for people ("Double Choco"); `name` when empty."""
    page: Path | None = None
    """The folder of the genre's own web page: `<name>.html` (served at /<name>) and the
    modules and styles it loads (served under /static/ beside the shared ones). None: the web
    app lists, solves, converts and exports the genre without a page of its own."""
    new_page: str | None = None
    """The address of its page for a new puzzle (default /<name>), e.g. an editor."""
    draw: Callable[[Any, Any, PrintStyle], Drawing] | None = None
    """draw(puzzle, state, style) -> the puzzle as it is printed (core/drawing.py): `state` is
    what its renderer takes (None: the empty puzzle; a game's state; a solution). Printing
    (`pencilbox print`, `book`, the web app's Print) lays drawings out on pages; None: the
    genre does not print."""


_REGISTRY: dict[str, Genre] = {}


def discover() -> None:
    """Import every genre package in the genres folder, in the order of their names (the
    order `detect` asks them in); each registers itself. Adding a genre adds its package,
    and no line anywhere else."""
    genres = importlib.import_module(__name__.rpartition(".")[0])
    found = sorted(m.name for m in pkgutil.iter_modules(genres.__path__) if m.ispkg)
    for name in found:
        importlib.import_module(f"{genres.__name__}.{name}")


def register(genre: Genre) -> None:
    for name in (genre.name, *genre.aliases):
        _REGISTRY[name] = genre


def get(name: str) -> Genre:
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted({g.name for g in _REGISTRY.values()}))
        raise PuzzleError(f"unknown genre {name!r}; known genres: {known}") from None


def write(puzzle: Any, format: str) -> str:
    """`puzzle.to(format)` through the puzzle's genre (see `Genre.write`)."""
    genre = get(puzzle.genre)
    if genre.write is None:
        raise UnknownFormat(f"the {genre.name} genre writes no notation")
    return genre.write(puzzle, format)


def all_genres() -> list[Genre]:
    seen: dict[str, Genre] = {}
    for genre in _REGISTRY.values():
        seen.setdefault(genre.name, genre)
    return list(seen.values())


def detect(text: str, filename: str | None = None) -> Genre:
    """The genre of a puzzle text. Content decides first; the file name is asked only when
    no genre recognises the content alone (a name like `list.txt` says little)."""
    from pencilbox.errors import UnknownFormat

    for name_hint in (None, filename) if filename else (None,):
        for genre in all_genres():
            if genre.sniff(text, name_hint):
                return genre
    where = f"{filename}: " if filename else ""
    raise UnknownFormat(f"{where}cannot tell which puzzle genre or format this is")
