"""Screenshots of puzzles drawn by puzz.link's own player (pzprjs), a picture source nobody
here drew: the benchmark's third-party family and the tests' real pictures come from it.

pzprjs (MIT, github robx/pzprjs) is not part of pencilbox: build it by hand outside the repo
(`npm install && npm run build`, which makes its `dist/`) and name that folder with
`--pzprjs DIR` or PENCILBOX_PZPRJS. This script serves `dist/` on loopback, opens each puzzle's
puzz.link URL in chromium (Playwright with Debian's /usr/bin/chromium) and saves what a user's
screenshot would hold: the whole page or the board, at a drawn window width, zoom and mode
(player or editor), with some cells played from the answer. Beside the pictures goes
`truth.jsonl`: one line a picture with its file, genre, the numbers a reader must find and
where the puzzle came from.

    python tools/pzpr_pictures.py --pzprjs DIR --out FOLDER [--count N] [--seed S] [--skip K]
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import os
import random
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pencilbox import inputs
from pencilbox.genres.nonogram.model import FILLED

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
CHROMIUM = "/usr/bin/chromium"
PENCILBOX = str(Path(sys.executable).with_name("pencilbox"))


@dataclass(frozen=True)
class Source:
    """A puzzle to draw: its puzz.link query, the reader's truth and where it came from."""

    name: str
    genre: str
    query: str
    truth: dict[str, Any]
    provenance: str


NONOGRAM_FOLDERS = ("jwilk", "picmi", "nonogram-db", "number-loom", "hakank", "survey")


def nonogram_sources(limit: int) -> list[Source]:
    """Black-and-white nonograms of ../shared up to 30x30: the folders taken in turn, each
    in name order, so every source's kind of puzzle is among the first few."""
    folders = [_nonograms(folder) for folder in NONOGRAM_FOLDERS]
    found: list[Source] = []
    while len(found) < limit and any(folders):
        for folder in folders:
            if folder:
                found.append(folder.pop(0))
    return found[:limit]


def _nonograms(folder: str) -> list[Source]:
    found = []
    for path in sorted((SHARED / "nonogram" / folder).glob("*")):
        try:
            puzzle = inputs.load(str(path), None, 200)
        except Exception:  # the folders hold notes and licences too
            continue
        if puzzle.genre != "nonogram" or max(puzzle.width, puzzle.height) > 30:
            continue
        truth = {"rows": [list(r) for r in puzzle.rows], "cols": [list(c) for c in puzzle.cols]}
        found.append(
            Source(
                f"{folder}-{path.stem}",
                "nonogram",
                _query(puzzle),
                truth,
                f"{folder}/{path.name}",
            )
        )
    return found


def sudoku_sources(limit: int) -> list[Source]:
    """9x9 sudokus of ../shared's lists (one line in every twenty, so the set is varied)."""
    import pencilbox

    found = []
    for name in ("norvig_top95.txt", "magictour_top1465.txt", "17clue_2000.txt"):
        lines = (SHARED / "sudoku" / name).read_text().split()
        for at in range(0, min(len(lines), limit * 20), 20):
            givens = lines[at].replace("0", ".")
            if len(givens) != 81:
                continue
            puzzle = pencilbox.load(givens, genre="sudoku", max_size=None)
            truth = {"givens": givens, "size": 9}
            provenance = f"sudoku/{name} line {at + 1}"
            found.append(
                Source(f"{Path(name).stem}-{at + 1}", "sudoku", _query(puzzle), truth, provenance)
            )
    return found[:limit]


def dbchoco_sources(limit: int) -> list[Source]:
    """The Double Choco puzzles of ../shared, then the generator's (seeded, 6x6 to 12x12)."""
    found = []
    for path in sorted((SHARED / "dbchoco").glob("*.json")):
        found.append(_dbchoco_source(path.stem, inputs.load(str(path), None, 200), path.name))
    seed = 0
    while len(found) < limit:
        seed += 1
        found.append(_generated_dbchoco(seed))
    return found[:limit]


def _generated_dbchoco(seed: int) -> Source:
    import pencilbox

    size = 6 + 2 * (seed % 4)
    done = subprocess.run(
        [PENCILBOX, "generate", "dbchoco", "--size", str(size), "--seed", str(seed), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    url = json.loads(done.stdout)["url"]
    puzzle = pencilbox.load(url, genre="dbchoco", max_size=None)
    return _dbchoco_source(f"generated-{size}-{seed}", puzzle, f"pencilbox generate seed {seed}")


def _dbchoco_source(name: str, puzzle: Any, provenance: str) -> Source:
    colors = [
        "".join("g" if puzzle.is_gray(r, c) else "w" for c in range(puzzle.width))
        for r in range(puzzle.height)
    ]
    numbers = [[puzzle.number(r, c) for c in range(puzzle.width)] for r in range(puzzle.height)]
    truth = {"colors": colors, "numbers": numbers}
    return Source(name, "dbchoco", _query(puzzle), truth, provenance)


def _query(puzzle: Any) -> str:
    url: str = puzzle.to("puzzlink").strip()
    return url.split("?", 1)[1]


@contextmanager
def served(folder: Path) -> Iterator[str]:
    """pzprjs's dist/ served on loopback (a random free port) while the block runs."""
    handler = functools.partial(QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        return


@dataclass(frozen=True)
class Look:
    """How one screenshot is taken: each axis drawn on its own."""

    width: int  # the window's width in CSS pixels
    zoom: float  # device pixels a CSS pixel
    editor: bool  # the editor page (its clue areas hold the puzzle's entry tools)
    whole_page: bool  # the window as it is, menus and all, or the board alone
    played: float  # the share of cells filled in from the answer


def draw_look(rng: random.Random) -> Look:
    return Look(
        width=rng.choice([800, 1024, 1280, 1440, 1920]),
        zoom=rng.choice([1.0, 1.0, 1.25, 1.5, 2.0]),
        editor=rng.random() < 0.4,
        whole_page=rng.random() < 0.6,
        played=rng.choice([0.0, 0.0, 0.2, 0.5]),
    )


def shoot(page: Any, base: str, source: Source, look: Look, out: Path) -> None:
    """One screenshot of `source` as `look` says, into `out` (the answer solved only for a
    part-played board)."""
    mode = "type=editor&" if look.editor else ""
    page.set_viewport_size({"width": look.width, "height": max(700, look.width * 3 // 4)})
    page.goto(f"{base}/p.html?{mode}{source.query}")
    page.wait_for_function("window.ui && ui.puzzle && ui.puzzle.ready", timeout=60_000)
    answer = answer_of(source) if look.played else None
    if answer:
        page.evaluate(PLAY, {"genre": source.genre, "answer": answer, "share": look.played})
    page.wait_for_timeout(300)  # the canvas is drawn a frame after the board is ready
    if look.whole_page:
        page.screenshot(path=str(out), full_page=True)  # the board whole, however long
    else:
        page.locator("#divques").screenshot(path=str(out))


PLAY = """({genre, answer, share}) => {
  const board = ui.puzzle.board;
  let n = 0;
  board.cell.each((cell) => {
    const value = answer[cell.by >> 1][cell.bx >> 1];
    if (((n++ * 7919) % 100) / 100 >= share) return;
    if (genre === "nonogram") value ? cell.setQans(1) : cell.setQsub(1);
    else if (genre === "sudoku" && cell.qnum < 0) cell.setAnum(value);
  });
  ui.puzzle.redraw();
}"""


def answer_of(source: Source) -> list[list[int]] | None:
    """The answer's cells (1 filled, 0 blank; a sudoku's digits), for a part-played board."""
    import pencilbox

    if source.genre == "dbchoco":
        return None
    puzzle = pencilbox.load(f"https://puzz.link/p?{source.query}", max_size=None)
    result = puzzle.solve()
    grid = result.solutions[0] if result.solutions else None
    if grid is None:
        return None
    rows = [grid.cells[r * grid.width : (r + 1) * grid.width] for r in range(grid.height)]
    if source.genre == "nonogram":
        return [[1 if cell == FILLED else 0 for cell in row] for row in rows]
    return [list(row) for row in rows]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pzprjs", type=Path, default=os.environ.get("PENCILBOX_PZPRJS"))
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--count", type=int, default=20, help="puzzles a genre")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skip", type=int, default=0, help="puzzles a genre left out first")
    args = parser.parse_args()
    if not args.pzprjs or not (Path(args.pzprjs) / "p.html").is_file():
        parser.error("name pzprjs's built dist/ folder with --pzprjs or PENCILBOX_PZPRJS")
    from playwright.sync_api import sync_playwright

    rng = random.Random(args.seed)
    total = args.count + args.skip
    sources = [
        *nonogram_sources(total)[args.skip :],
        *sudoku_sources(total)[args.skip :],
        *dbchoco_sources(total)[args.skip :],
    ]
    args.out.mkdir(parents=True, exist_ok=True)
    lines = []
    with served(Path(args.pzprjs)) as base, sync_playwright() as play:
        browser = play.chromium.launch(executable_path=CHROMIUM)
        for source in sources:
            look = draw_look(rng)
            context = browser.new_context(device_scale_factor=look.zoom)
            page = context.new_page()
            name = f"pzpr-{source.genre}-{source.name}.png"
            shoot(page, base, source, look, args.out / name)
            context.close()
            truth = {"genre": source.genre, **source.truth}
            lines.append(
                {"file": name, **truth, "look": look.__dict__, "source": source.provenance}
            )
            print(name, look, flush=True)
        browser.close()
    (args.out / "truth.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))


if __name__ == "__main__":
    main()
