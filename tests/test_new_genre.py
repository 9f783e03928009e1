"""Adding a genre touches only its package: the proof.

A 4x4 Latin square genre ("latin4": fill the grid with 1-4 so that no row or column repeats a
digit) is built in this file alone, in the parts a genre package has (README, "Architecture":
model, formats, solve and steps, play rules, generator and its options, the `Genre` that
registers it). Registered for these tests only, it is then driven through every front end
without any change to pencilbox: the library (`pencilbox.load`), the CLI verbs, a web game
(moves, undo, hint, solve, check) and the jobs API (solve, steps and generate jobs, which
run in worker processes).
"""

from __future__ import annotations

import json
import random
import sys
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import pencilbox
from pencilbox import cli
from pencilbox.core.grid import Cell, Grid, cell_name
from pencilbox.core.step import Step
from pencilbox.errors import FormatError, UnknownFormat
from pencilbox.genres import base

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

N = 4
DIGITS = ".1234"
HEADER = "latin4"


# -- model: the puzzle value and its rules ------------------------------------------------------
def candidates(grid: Grid, cell: Cell) -> list[int]:
    row, col = cell
    used = set(grid.row(row)) | set(grid.column(col))
    return [d for d in range(1, N + 1) if d not in used]


def broken(grid: Grid) -> list[str]:
    """The rule violations: a digit twice in a row or a column."""
    found = []
    for kind, lines in (("row", list(grid.rows())), ("column", [grid.column(c) for c in range(N)])):
        for index, line in enumerate(lines):
            digits = [d for d in line if d]
            if len(digits) != len(set(digits)):
                found.append(f"{kind} {index + 1} repeats a digit")
    return found


@dataclass(frozen=True)
class Latin:
    givens: Grid
    title: str | None = None
    genre = "latin4"
    width = N
    height = N

    # -- solving (validation mode: up to `limit` solutions) -------------------------------------
    def solve(
        self, limit: int = 2, time_limit: float | None = None, *, grade: bool = True
    ) -> base.SolveResult:
        started = time.perf_counter()
        found: list[Grid] = []
        if not broken(self.givens):
            self._search(self.givens, found, limit)
        status: base.Status = "none" if not found else "unique" if len(found) == 1 else "multiple"
        level = self.grade() if grade and status == "unique" else None
        return base.SolveResult(status, found, level, time_s=time.perf_counter() - started)

    def _search(self, grid: Grid, found: list[Grid], limit: int) -> None:
        empty = [divmod(i, N) for i, v in enumerate(grid.cells) if v == 0]
        if not empty:
            found.append(grid)
            return
        cell = min(empty, key=lambda c: len(candidates(grid, c)))
        for digit in candidates(grid, cell):
            if len(found) < limit:
                self._search(grid.with_cells([(cell, digit)]), found, limit)

    # -- logic: naked singles, as Steps ---------------------------------------------------------
    def steps(self, time_limit: float | None = None) -> list[Step]:
        return singles(self.givens)[0]

    def logic_grid(self, probes: bool = False, max_passes: int | None = None) -> Grid:
        return singles(self.givens)[1]

    def grade(self) -> str:
        return "single" if 0 not in self.logic_grid().cells else "search"

    def grade_report(self) -> dict[str, Any]:
        return base.step_kind_report(self.grade())

    def hint(self, level: int = 1) -> str | None:
        found = self.steps()
        if not found:
            return None
        step = found[0]
        return ["Look for a single.", f"Look at {step.clue}.", step.sentence][level - 1]

    # -- notation and pictures ------------------------------------------------------------------
    def to(self, format: str) -> str:
        if format != "latin":
            raise UnknownFormat(f"a latin4 puzzle is written as 'latin', not {format!r}")
        return HEADER + "\n" + "".join(state_rows(self.givens))

    def render(self, state: Any = None, fmt: str = "text") -> str:
        grid = state if state is not None else self.givens
        if fmt == "svg":
            texts = "".join(
                f'<text x="{c * 10 + 3}" y="{r * 10 + 8}">{DIGITS[v]}</text>'
                for (r, c), v in ((divmod(i, N), v) for i, v in enumerate(grid.cells))
                if v
            )
            return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40">{texts}</svg>'
        return "".join(state_rows(grid))

    def render_png(self, state: Any = None, scale: int = 2) -> bytes:
        raise ImportError("latin4 draws no PNG")

    def solution_json(self, solution: Any) -> Any:
        return "".join(DIGITS[v] for v in solution.cells)


def state_rows(grid: Grid) -> list[str]:
    return ["".join(DIGITS[v] for v in row) + "\n" for row in grid.rows()]


def singles(start: Grid) -> tuple[list[Step], Grid]:
    """Naked singles until none is left: a cell with one candidate takes it."""
    found: list[Step] = []
    grid = start
    progress = True
    while progress and not broken(grid):
        progress = False
        for index, value in enumerate(grid.cells):
            cell = divmod(index, N)
            options = candidates(grid, cell)
            if value == 0 and len(options) == 1:
                sentence = (
                    f"{cell_name(cell)} can only be {options[0]}: its row and column hold the rest."
                )
                found.append(
                    Step("single", 1, ((cell, options[0]),), sentence, clue=cell_name(cell))
                )
                grid = grid.with_cells([(cell, options[0])])
                progress = True
    return found, grid


# -- formats: "latin4" and four rows of digits or dots ------------------------------------------
def parse(text: str, format: str | None = None, *, filename: str | None = None, **_: Any) -> Latin:
    lines = text.strip().splitlines()
    if not lines or lines[0].strip() != HEADER:
        raise FormatError("a latin4 puzzle starts with the line 'latin4'", line=1, source=filename)
    rows = [line.strip() for line in lines[1:]]
    if len(rows) != N:
        raise FormatError(f"needs {N} rows, found {len(rows)}", line=len(lines), source=filename)
    for number, row in enumerate(rows, 2):
        for column, ch in enumerate(row, 1):
            if ch not in DIGITS:
                raise FormatError(f"{ch!r} is not 1-4 or '.'", line=number, column=column)
        if len(row) != N:
            raise FormatError(f"needs {N} cells, found {len(row)}", line=number, source=filename)
    return Latin(Grid.from_rows([DIGITS.index(ch) for ch in row] for row in rows))


def sniff(text: str, filename: str | None) -> bool:
    return text.lstrip().startswith(HEADER) or bool(filename and filename.endswith(".latin"))


# -- play rules (genres/<name>/play.py) ---------------------------------------------------------
class LatinPlay:
    genre = "latin4"
    symbols = DIGITS

    def initial(self, puzzle: Latin) -> Grid:
        return puzzle.givens

    def cleared(self, puzzle: Latin, grid: Grid) -> Grid:
        return puzzle.givens

    def editable(self, puzzle: Latin, cell: Cell) -> bool:
        return not puzzle.givens[cell]

    def hint(self, puzzle: Latin, grid: Grid, solution: Any) -> Step | None:
        found = singles(grid)[0]
        return found[0] if found else None

    def single_pass(self, puzzle: Latin, grid: Grid) -> tuple[list[Step], Grid]:
        return singles(grid)

    def check(self, puzzle: Latin, grid: Grid, solution: Any) -> dict[str, Any]:
        violations = broken(grid)
        unknown = grid.cells.count(0)
        wrong = []
        if solution is not None:
            wrong = [
                [*divmod(i, N)] for i, v in enumerate(grid.cells) if v and v != solution.cells[i]
            ]
        return {
            "solved": not unknown and not violations,
            "violations": violations,
            "lines": [],
            "wrong": wrong,
            "unknown": unknown,
        }

    def progress(self, puzzle: Latin, grid: Grid) -> float:
        return 1.0 - grid.cells.count(0) / (N * N)

    def puzzle_json(self, puzzle: Latin) -> dict[str, Any]:
        return {"genre": self.genre, "title": puzzle.title, "width": N, "height": N}


# -- generator and its options (genres/<name>/generate.py, options.py) --------------------------
def generate(seed: Any = None, **unknown: Any) -> dict[str, Any]:
    if unknown:
        raise pencilbox.PuzzleError(f"generate latin4: unknown option(s) {', '.join(unknown)}")
    started = time.perf_counter()
    chosen = int(seed) if seed is not None else random.randrange(1 << 20)
    rng = random.Random(chosen)
    digits = rng.sample(range(1, N + 1), N)
    square = [[digits[(r + c) % N] for c in range(N)] for r in range(N)]
    rng.shuffle(square)
    grid = Grid.from_rows(square)
    for index in rng.sample(range(N * N), N * N):  # remove givens while the answer stays one
        fewer = Grid(N, N, (*grid.cells[:index], 0, *grid.cells[index + 1 :]))
        if Latin(fewer).solve(limit=2).status == "unique":
            grid = fewer
    return {"puzzle": Latin(grid), "seed": chosen, "time_s": time.perf_counter() - started}


def options() -> tuple[base.GeneratorOption, ...]:
    return (base.SEED_OPTION,)


GENRE = base.Genre(
    name="latin4",
    aliases=("latin",),
    parse=parse,
    sniff=sniff,
    formats=("latin",),
    extensions=(".latin",),
    generate=generate,
    options=options,
    play=LatinPlay(),
)


# -- the proof ---------------------------------------------------------------------------------
PUZZLE = "latin4\n4...\n...2\n...4\n3.2.\n"
SOLVED = "4213134221343421"


@pytest.fixture(autouse=True)
def registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The genre in the registry for one test (as its package's `base.register` would)."""
    for name in (GENRE.name, *GENRE.aliases):
        monkeypatch.setitem(base._REGISTRY, name, GENRE)
    yield


@pytest.fixture
def puzzle_file(tmp_path: Path) -> Path:
    path = tmp_path / "diagonal.latin"
    path.write_text(PUZZLE, encoding="utf-8")
    return path


def the_unique_answer() -> str:
    found = Latin(parse(PUZZLE).givens).solve()
    assert found.status == "unique"
    return "".join(DIGITS[v] for v in found.solutions[0].cells)


def test_the_toy_genre_is_a_real_one() -> None:
    assert the_unique_answer() == SOLVED
    assert Latin(parse("latin4\n12..\n21..\n....\n....").givens).solve().status == "multiple"
    assert Latin(parse("latin4\n11..\n....\n....\n....").givens).solve().status == "none"


def test_the_library(puzzle_file: Path) -> None:
    puzzle = pencilbox.load(puzzle_file)  # detected by content, among the real genres
    assert puzzle.genre == "latin4" and pencilbox.load(PUZZLE).givens == puzzle.givens
    result = puzzle.solve()
    assert result.status == "unique" and puzzle.solution_json(result.solutions[0]) == SOLVED
    assert [s.technique for s in puzzle.steps()] == ["single"] * 11
    with pytest.raises(FormatError, match="line 3, column 2"):
        pencilbox.load("latin4\n4...\n.x..\n...4\n3.2.\n", genre="latin")


def test_a_package_in_the_genres_folder_is_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`import pencilbox` finds genres by their folder (`base.discover`): a package put beside
    nonogram/, sudoku/ and dbchoco/ registers without a line changed anywhere else."""
    import pencilbox.genres

    package = tmp_path / "latin4"
    package.mkdir()
    (package / "__init__.py").write_text(
        "from pencilbox.genres import base\n"
        "from tests.test_new_genre import GENRE\n"
        "base.register(GENRE)\n"
        "FOUND = True\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(pencilbox.genres, "__path__", [*pencilbox.genres.__path__, str(tmp_path)])
    for name in (GENRE.name, *GENRE.aliases):
        monkeypatch.delitem(base._REGISTRY, name)
    try:
        base.discover()
        assert sys.modules["pencilbox.genres.latin4"].FOUND
        assert base.get("latin") is GENRE
        assert [g.name for g in base.all_genres()][:3] == ["dbchoco", "nonogram", "sudoku"]
    finally:
        sys.modules.pop("pencilbox.genres.latin4", None)
        vars(pencilbox.genres).pop("latin4", None)


def run(capfd: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    captured = capfd.readouterr()
    return code, captured.out, captured.err


def test_every_cli_verb(
    puzzle_file: Path, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    path = str(puzzle_file)
    code, out, _ = run(capfd, "solve", path, "--jsonl")
    record = json.loads(out)
    assert code == 0 and record["status"] == "unique" and record["solutions"] == [SOLVED]
    assert record["grade"] is None  # asked for with --grade
    assert json.loads(run(capfd, "solve", path, "--jsonl", "--grade")[1])["grade"] == "single"
    folder = run(capfd, "solve", str(tmp_path), "--jsonl")  # folders find `.latin` files
    assert folder[0] == 0 and json.loads(folder[1])["file"] == path
    assert run(capfd, "check", path) == (0, "unique (grade: single)\n", "")
    code, out, _ = run(capfd, "explain", path)
    assert code == 0 and out.startswith(" 1. r2c1 can only be 1") and "11. " in out
    assert run(capfd, "hint", path, "--level", "2")[1] == "Look at r2c1.\n"
    assert json.loads(run(capfd, "grade", path, "--jsonl")[1])["level"] == "single"
    assert run(capfd, "convert", path, "--to", "latin")[1] == PUZZLE
    assert run(capfd, "render", path, "--state", "solved")[1] == "".join(
        SOLVED[i : i + 4] + "\n" for i in range(0, 16, 4)
    )
    svg = tmp_path / "out.svg"
    assert run(capfd, "render", path, "--svg", str(svg))[0] == 0 and "<svg" in svg.read_text()
    code, out, _ = run(capfd, "generate", "latin4", "--seed", "5", "--json")
    made = json.loads(out)
    assert code == 0 and made["seed"] == 5 and made["text"].startswith("latin4\n")
    assert Latin(parse(made["text"]).givens).solve().status == "unique"
    assert "--seed WHOLE" in run(capfd, "generate", "latin", "--help")[1]
    code, _, err = run(capfd, "generate", "latin4", "--colour", "red")
    assert code == 2 and "unknown option(s) colour" in err
    bad = tmp_path / "bad.latin"
    bad.write_text("latin4\n1...\n")
    assert run(capfd, "check", str(bad)) == (
        2,
        "",
        f"pencilbox: {bad}, line 2: needs 4 rows, found 1\n",
    )


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    from pencilbox.web import create_app

    app = create_app(tmp_path / "library.sqlite3")
    with TestClient(app, base_url="http://127.0.0.1:8000", headers={"X-Pencilbox": "1"}) as made:
        yield made


def test_a_web_game(client: TestClient) -> None:
    listed = {g["name"]: g for g in client.get("/api/genres").json()}
    assert listed["latin4"]["playable"] and listed["latin4"]["options"][0]["name"] == "seed"
    added = client.post("/api/puzzles", json={"text": PUZZLE, "title": "diagonal"})
    assert added.status_code == 201, added.text
    pid = added.json()["id"]
    game = client.get(f"/api/games/{pid}").json()
    assert game["state"] == "4.../...2/...4/3.2."
    played = client.post(f"/api/games/{pid}/move", json={"move": "r2c1=1"}).json()
    assert played["state"].startswith("4.../1..2")
    refused = client.post(f"/api/games/{pid}/move", json={"move": "r1c1=2"})
    assert refused.status_code == 422 and "given" in refused.json()["error"]
    assert client.post(f"/api/games/{pid}/undo").json()["state"].startswith("4.../...2")
    hint = client.post(f"/api/games/{pid}/hint").json()
    assert hint["step"]["technique"] == "single" and hint["move"] == "r2c1=1"
    # A time limit for a loaded machine: the solve runs in a worker process that may still be
    # starting (20 s by default, and a soak's CPU hogs once made that a timeout).
    solved = client.post(f"/api/games/{pid}/solve", json={"time_limit": LOADED_S}).json()
    assert solved["result"]["status"] == "unique"
    assert solved["state"].replace("/", "") == SOLVED
    assert client.get(f"/api/games/{pid}/check").json()["solved"] is True
    assert client.post(f"/api/games/{pid}/undo").json()["state"] == game["state"]
    steps = client.get(f"/api/puzzles/{pid}/steps").json()
    assert len(steps["steps"]) == 11 and steps["complete"]
    assert "<svg" in client.get(f"/api/puzzles/{pid}/thumbnail.svg").text


LOADED_S = 120.0
"""The time limit of the web requests here: a worker process may still be starting."""


def finished(client: TestClient, job_id: int) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        job: dict[str, Any] = client.get(f"/api/jobs/{job_id}").json()
        if job["state"] != "running":
            return job
        time.sleep(0.05)
    raise AssertionError(f"job {job_id} did not finish")


def test_the_jobs_api(client: TestClient) -> None:
    pid = client.post("/api/puzzles", json={"text": PUZZLE}).json()["id"]
    job = {"kind": "solve", "puzzle_id": pid, "time_limit": LOADED_S}
    solve = client.post("/api/jobs", json=job).json()
    solved = finished(client, solve["id"])
    assert solved["state"] == "done", solved
    assert solved["result"]["status"] == "unique"
    job = {"kind": "steps", "puzzle_id": pid, "time_limit": LOADED_S}
    steps = client.post("/api/jobs", json=job).json()
    assert finished(client, steps["id"])["state"] == "done"
    start = {"kind": "generate", "genre": "latin4", "options": {"seed": 9}, "title": "made"}
    start["time_limit"] = LOADED_S
    made = finished(client, client.post("/api/jobs", json=start).json()["id"])
    assert made["state"] == "done", made
    row = next(p for p in client.get("/api/puzzles").json() if p["title"] == "made")
    assert row["genre"] == "latin4"
