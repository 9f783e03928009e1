"""The picture corpus: puzzles drawn as screenshots and photos in many styles, with the truth.

`make_picture(style, seed)` draws one picture: the style picks a puzzle (from tests/data
when it is there, else a generated one), fonts, colours, scale, damage, all from the seed, so
a test can draw the same picture again. It returns the encoded file (PNG or JPEG) and the
truth: what a perfect reader would read. `STYLES` names every style with the genre and the
kind ("clean" screenshots, "degraded" screenshots, "photo"-like pictures), which is how the
benchmark groups them.

The styles imitate what players photograph and capture: newspaper and web sudokus (light and
dark, entries in another colour, pencil marks, highlighted rows), nonogram sites and phone
apps (clue cells boxed or bare, striped or coloured clue areas, part-solved grids with crosses,
greyed or struck-through clues), puzz.link boards, and printed pages photographed at an angle.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from tools.fonts import fonts, held_out_fonts, train_fonts

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
"""The puzzles drawn come from the samples committed with the tests (credits in its README),
so the same seed draws the same picture on every clone."""
RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Style:
    name: str
    genre: str
    kind: str  # "clean", "degraded" or "photo"
    draw: Callable[[np.random.Generator], tuple[np.ndarray, dict[str, Any]]]
    description: str


# -- fonts and text ----------------------------------------------------------------------------
def _font(path: Path, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(path), max(6, size))


_SLANTED = (
    "Italic",
    "Oblique",
    "-I.",
    "_RI",
    "_I.",
    "BdIta",
    "Thin",
    "ExtraLight",
    "Light",
    "Mono",
    "Code",
    "Comic",
    "Smallcaps",
    "Math",
    "Z003",
    "Accanthis",
    "_K.",  # Linux Biolinum Keyboard: every glyph drawn on a keycap
)


def _upright(path: Path) -> bool:
    """Faces that puzzles are printed in: upright, not hairline, not a programmer's font,
    not a keycap font."""
    return not any(mark in path.name for mark in _SLANTED)


def _pick_font(rng: np.random.Generator, held_out: bool, patterns: tuple[str, ...] = ()) -> Path:
    pool = fonts(patterns) if patterns else (held_out_fonts() if held_out else train_fonts())
    pool = [p for p in pool if _upright(p)] or pool
    if not pool:
        raise SystemExit("no fonts installed: run `make fonts`")
    return pool[int(rng.integers(len(pool)))]


def _text(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, font: Any, fill: RGB
) -> None:
    draw.text(xy, text, fill=fill, font=font, anchor="mm")


# -- damage --------------------------------------------------------------------------------------
def _encode(image: np.ndarray, rng: np.random.Generator, quality: int | None) -> tuple[bytes, str]:
    if quality is None:
        _, data = cv2.imencode(".png", image)
        return data.tobytes(), "png"
    _ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    return data.tobytes(), "jpeg"


def _rescale(image: np.ndarray, factor: float) -> np.ndarray:
    if abs(factor - 1.0) < 1e-3:
        return image
    interpolation = cv2.INTER_AREA if factor < 1 else cv2.INTER_CUBIC
    return cv2.resize(image, None, fx=factor, fy=factor, interpolation=interpolation)


def _photo(image: np.ndarray, rng: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    """A printed page seen by a phone: tilt and perspective, uneven light, paper tone, blur,
    sensor noise; the page lies on a darker table."""
    h, w = image.shape[:2]
    pad = int(0.12 * max(h, w))
    table = tuple(int(v) for v in rng.integers(40, 120, 3))
    page = cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=table)
    H, W = page.shape[:2]
    jitter = 0.06 * strength * min(h, w)
    src = np.float32([[pad, pad], [pad + w, pad], [pad + w, pad + h], [pad, pad + h]])
    dst = src + rng.uniform(-jitter, jitter, src.shape).astype(np.float32)
    angle = math.radians(rng.uniform(-6, 6) * strength)
    centre = np.float32([W / 2, H / 2])
    rot = np.float32([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    dst = (dst - centre) @ rot.T + centre
    matrix = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    page = cv2.warpPerspective(page, matrix, (W, H), borderValue=table)
    # light: a broad gradient and a soft shadow
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    gx, gy = rng.normal(0, 0.25 * strength, 2)
    light = 1.0 + gx * (xx / W - 0.5) + gy * (yy / H - 0.5)
    if rng.random() < 0.5:
        cx, cy = rng.uniform(0, W), rng.uniform(0, H)
        r = rng.uniform(0.3, 0.7) * max(H, W)
        light -= 0.25 * strength * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r))
    tone = np.array([rng.uniform(0.85, 1.0), rng.uniform(0.9, 1.0), 1.0], np.float32)
    out = page.astype(np.float32) * light[:, :, None] * tone[None, None, :]
    sigma = rng.uniform(0.4, 1.6) * strength
    out = cv2.GaussianBlur(out, (0, 0), max(0.3, sigma))
    out += rng.normal(0, rng.uniform(2, 7) * strength, out.shape)
    return np.clip(out, 0, 255).astype(np.uint8)


# -- sudoku --------------------------------------------------------------------------------------
_SUDOKU_FILES = ("pictures/sudoku9.txt", "sudoku/17clue_2000.txt")


def _sudoku_puzzle(rng: np.random.Generator, size: int) -> tuple[list[int], list[int]]:
    """(givens, solution) as lists of 0..N from the test samples, else from the generator."""
    from pencilbox.genres.sudoku.solver import solve_values

    lines: list[str] = []
    files = ("pictures/sudoku16.txt",) if size == 16 else _SUDOKU_FILES
    for name in files:
        path = DATA / name
        if path.is_file():
            lines += [
                ln.split(",")[0].strip()
                for ln in path.read_text().splitlines()
                if ln.strip() and not ln.startswith(("#", "quizzes"))
            ]
    symbols = "123456789ABCDEFG"[:size]
    n = 4 if size == 16 else 3
    if lines:
        line = lines[int(rng.integers(len(lines)))][: size * size]
        givens = [symbols.index(c) + 1 if c in symbols else 0 for c in line]
    else:
        from pencilbox.genres.sudoku.generate import generate

        made = generate(size=size, seed=int(rng.integers(1 << 30)))
        givens = list(made["puzzle"].givens.cells)
    solution = solve_values(givens, n, 1)[0]
    return givens, list(solution)


@dataclass
class _SudokuLook:
    cell: int
    ground: RGB
    thin: RGB
    thick: RGB
    thin_w: int
    thick_w: int
    given: RGB
    entry: RGB
    given_font: Path
    entry_font: Path
    digit_size: float
    entries: float  # share of empty cells the player filled
    pencil: float  # share of empty cells with pencil marks
    pencil_colour: RGB
    highlight: RGB | None
    selected: RGB | None = None
    """The selected cell's colour (apps), its box highlighted with its row and column."""
    same: RGB | None = None
    """The colour apps give every cell holding the selected cell's digit."""
    shaded_boxes: RGB | None = None
    """Every other box shaded (newspapers that print a checkerboard of boxes)."""


def _draw_sudoku(
    look: _SudokuLook,
    givens: list[int],
    solution: list[int],
    size: int,
    alphabet: str,
    rng: np.random.Generator,
    margin: int,
) -> tuple[np.ndarray, list[int]]:
    n = 4 if size == 16 else 3
    c = look.cell
    side = size * c
    W = H = side + 2 * margin
    image = Image.new("RGB", (W, H), look.ground)
    draw = ImageDraw.Draw(image)
    if look.shaded_boxes is not None:
        for i in range(size * size):
            r, col = divmod(i, size)
            if (r // n + col // n) % 2 == 0:
                x, y = margin + col * c, margin + r * c
                draw.rectangle([x, y, x + c, y + c], fill=look.shaded_boxes)
    if look.highlight is not None:
        r0, c0 = int(rng.integers(size)), int(rng.integers(size))
        for i in range(size * size):
            rr, cc = divmod(i, size)
            in_box = look.selected is not None and (rr // n, cc // n) == (r0 // n, c0 // n)
            if rr == r0 or cc == c0 or in_box:
                x, y = margin + cc * c, margin + rr * c
                draw.rectangle([x, y, x + c, y + c], fill=look.highlight)
        chosen = givens[r0 * size + c0] or solution[r0 * size + c0]
        if look.same is not None:
            for i, v in enumerate(givens):
                if v == chosen:
                    x, y = margin + (i % size) * c, margin + (i // size) * c
                    draw.rectangle([x, y, x + c, y + c], fill=look.same)
        if look.selected is not None:
            x, y = margin + c0 * c, margin + r0 * c
            draw.rectangle([x, y, x + c, y + c], fill=look.selected)
    entries = [0] * (size * size)
    font = _font(look.given_font, round(c * look.digit_size))
    entry_font = _font(look.entry_font, round(c * look.digit_size))
    pencil_font = _font(look.entry_font, max(6, round(c * 0.26)))
    for i, v in enumerate(givens):
        r, col = divmod(i, size)
        x, y = margin + col * c + c / 2, margin + r * c + c / 2
        if v:
            _text(draw, (x, y + c * 0.02), alphabet[v - 1], font, look.given)
        elif rng.random() < look.entries:
            entries[i] = solution[i]
            _text(draw, (x, y + c * 0.02), alphabet[solution[i] - 1], entry_font, look.entry)
        elif rng.random() < look.pencil:
            marks = sorted({int(d) for d in rng.integers(1, size + 1, int(rng.integers(1, 5)))})
            for d in marks:
                pr, pc = divmod(d - 1, n)
                px = margin + col * c + (pc + 0.5) * c / n
                py = margin + r * c + (pr + 0.5) * c / n
                _text(draw, (px, py), alphabet[d - 1], pencil_font, look.pencil_colour)
    for k in range(size + 1):
        thick = k % n == 0
        colour = look.thick if thick else look.thin
        width = look.thick_w if thick else look.thin_w
        p = margin + k * c
        draw.line([(margin, p), (margin + side, p)], fill=colour, width=width)
        draw.line([(p, margin), (p, margin + side)], fill=colour, width=width)
    return np.asarray(image)[:, :, ::-1].copy(), entries


def _sudoku_truth(
    givens: list[int], entries: list[int], size: int, alphabet: str
) -> dict[str, Any]:
    def line(values: list[int]) -> str:
        return "".join(alphabet[v - 1] if v else "." for v in values)

    truth: dict[str, Any] = {"genre": "sudoku", "size": size, "givens": line(givens)}
    if any(entries):
        truth["entries"] = line(entries)
    if size == 16:
        truth["alphabet"] = alphabet
    return truth


def _sudoku_style(
    rng: np.random.Generator,
    *,
    dark: bool = False,
    web: bool = False,
    bold: bool = False,
    held_out: bool = False,
    size: int = 9,
) -> tuple[_SudokuLook, float]:
    scale = float(np.exp(rng.uniform(math.log(0.5), math.log(3.0))))
    cell = max(14, round(rng.uniform(34, 56) * scale))
    given_font = _pick_font(rng, held_out)
    if bold:
        given_font = _pick_font(rng, held_out, ("*Bold.*", "*-Bold.*", "*Black.*"))
    entry_font = _pick_font(rng, held_out)
    thin_w = max(1, round(cell / 40 * rng.uniform(0.6, 1.5)))
    thick_w = max(thin_w + 1, round(cell / 40 * rng.uniform(2, 4)))
    if dark:
        ground = tuple(int(v) for v in rng.integers(10, 45, 3))
        look = _SudokuLook(
            cell,
            ground,
            (70, 70, 80),
            (150, 150, 160),
            thin_w,
            thick_w,
            (230, 230, 230),
            (120, 170, 250),
            given_font,
            entry_font,
            rng.uniform(0.5, 0.7),
            rng.uniform(0, 0.4),
            rng.uniform(0, 0.3),
            (140, 140, 150),
            (40, 50, 70) if rng.random() < 0.5 else None,
        )
    elif web:
        look = _SudokuLook(
            cell,
            (255, 255, 255),
            (190, 198, 212),
            (52, 72, 97),
            thin_w,
            thick_w,
            (52, 72, 97),
            (50, 90, 175),
            given_font,
            entry_font,
            rng.uniform(0.5, 0.7),
            rng.uniform(0, 0.5),
            rng.uniform(0, 0.4),
            (110, 124, 140),
            (226, 235, 243) if rng.random() < 0.7 else None,
        )
    else:
        ground = tuple(int(v) for v in rng.integers(235, 256, 3))
        look = _SudokuLook(
            cell,
            ground,
            (0, 0, 0),
            (0, 0, 0),
            thin_w,
            thick_w,
            (0, 0, 0),
            (20, 60, 200) if rng.random() < 0.5 else (90, 90, 90),
            given_font,
            entry_font,
            rng.uniform(0.5, 0.75),
            rng.uniform(0, 0.3) if bold else 0.0,
            rng.uniform(0, 0.2) if bold else 0.0,
            (120, 120, 120),
            None,
        )
    return look, scale


def _sudoku_picture(
    rng: np.random.Generator, look: _SudokuLook, size: int = 9
) -> tuple[np.ndarray, dict[str, Any]]:
    givens, solution = _sudoku_puzzle(rng, size)
    alphabet = "123456789"
    if size == 16:
        alphabet = "123456789ABCDEFG" if rng.random() < 0.5 else "0123456789ABCDEF"
    margin = int(look.cell * rng.uniform(0.3, 1.5))
    image, entries = _draw_sudoku(look, givens, solution, size, alphabet, rng, margin)
    return image, _sudoku_truth(givens, entries, size, alphabet)


def sudoku_print(rng: np.random.Generator) -> tuple[np.ndarray, dict[str, Any]]:
    look, _ = _sudoku_style(rng)
    return _sudoku_picture(rng, look)


def sudoku_web(rng: np.random.Generator) -> tuple[np.ndarray, dict[str, Any]]:
    look, _ = _sudoku_style(rng, web=True, held_out=True)
    return _sudoku_picture(rng, look)


def sudoku_dark(rng: np.random.Generator) -> tuple[np.ndarray, dict[str, Any]]:
    look, _ = _sudoku_style(rng, dark=True, held_out=rng.random() < 0.5)
    return _sudoku_picture(rng, look)


def sudoku_bold(rng: np.random.Generator) -> tuple[np.ndarray, dict[str, Any]]:
    look, _ = _sudoku_style(rng, bold=True)
    return _sudoku_picture(rng, look)


def sudoku_16(rng: np.random.Generator) -> tuple[np.ndarray, dict[str, Any]]:
    look, _ = _sudoku_style(rng, web=rng.random() < 0.5)
    look.cell = max(18, look.cell * 2 // 3)
    return _sudoku_picture(rng, look, 16)


def sudoku_jpeg(rng: np.random.Generator) -> tuple[np.ndarray, dict[str, Any]]:
    """A screenshot shrunk and saved as a poor JPEG (the 'quality' is set in make_picture)."""
    look, _ = _sudoku_style(rng, web=rng.random() < 0.5, held_out=True)
    look.cell = max(16, round(look.cell * rng.uniform(0.5, 0.8)))
    return _sudoku_picture(rng, look)


def _page(image: np.ndarray, rng: np.random.Generator, font: Path) -> np.ndarray:
    """The grid on a newspaper page: lines of text above and beside it, a small second grid."""
    h, w = image.shape[:2]
    top, side = int(h * rng.uniform(0.15, 0.4)), int(w * rng.uniform(0.1, 0.45))
    page = Image.new("RGB", (w + side, h + top + h // 10), (250, 248, 240))
    page.paste(Image.fromarray(image[:, :, ::-1]), (0, top))
    draw = ImageDraw.Draw(page)
    text_font = _font(font, max(8, h // 28))
    words = [
        "Sudoku",
        "Füllen",
        "Sie",
        "das",
        "Gitter",
        "so",
        "aus",
        "dass",
        "jede",
        "Zeile",
        "Spalte",
        "und",
        "jedes",
        "Feld",
        "1",
        "bis",
        "9",
    ]
    y = 4
    while y < top - h // 28:
        line = " ".join(words[int(i)] for i in rng.integers(len(words), size=10))
        draw.text((4, y), line, fill=(30, 30, 30), font=text_font)
        y += int(h / 24)
    if side > w * 0.2:  # yesterday's solution: a small grid with digits
        cell = side // 12
        x0, y0 = w + cell, top + h // 3
        small = _font(font, max(6, int(cell * 0.7)))
        for k in range(10):
            draw.line(
                [(x0, y0 + k * cell), (x0 + 9 * cell, y0 + k * cell)], fill=(0, 0, 0), width=1
            )
            draw.line(
                [(x0 + k * cell, y0), (x0 + k * cell, y0 + 9 * cell)], fill=(0, 0, 0), width=1
            )
        for r in range(9):
            for c in range(9):
                _text(
                    draw,
                    (x0 + c * cell + cell / 2, y0 + r * cell + cell / 2),
                    str(int(rng.integers(1, 10))),
                    small,
                    (0, 0, 0),
                )
    return np.asarray(page)[:, :, ::-1].copy()


def sudoku_photo(rng: np.random.Generator) -> tuple[np.ndarray, dict[str, Any]]:
    """A printed sudoku on a page, photographed."""
    look, _ = _sudoku_style(rng, held_out=rng.random() < 0.5)
    look.cell = int(rng.integers(28, 60))
    image, truth = _sudoku_picture(rng, look)
    page = _page(image, rng, look.given_font)
    return _photo(page, rng), truth


_APP_FONTS = (
    "Roboto-Regular.ttf",
    "Roboto-Medium.ttf",
    "OpenSans-Regular.ttf",
    "OpenSans-Semibold.ttf",
    "Lato-Regular.ttf",
    "Lato-Semibold.ttf",
    "Quicksand-Medium.ttf",
    "Quicksand-Bold.ttf",
    "NotoSans-Regular.ttf",
    "Cantarell-Regular.otf",
)


def _sudoku_app(rng: np.random.Generator, dark: bool) -> tuple[np.ndarray, dict[str, Any]]:
    """A phone sudoku app: thick box lines, the selected cell with its row, column and box
    highlighted and the same digit marked, the player's entries in another colour and
    weight, pencil marks, a header (level, mistakes, timer) and a number pad below."""
    scale = float(rng.uniform(0.8, 2.6))
    cell = max(22, round(rng.uniform(34, 46) * scale))
    given_font = _pick_font(rng, False, _APP_FONTS)
    entry_font = _pick_font(rng, False, _APP_FONTS)
    thin_w = max(1, round(cell / 45))
    thick_w = max(thin_w + 1, round(cell * rng.uniform(0.05, 0.09)))
    if dark:
        entry = [(100, 180, 255), (120, 220, 180), (240, 190, 90)][int(rng.integers(3))]
        look = _SudokuLook(
            cell,
            tuple(int(v) for v in rng.integers(14, 34, 3)),
            (58, 62, 72),
            (150, 156, 168),
            thin_w,
            thick_w,
            (226, 226, 232),
            entry,
            given_font,
            entry_font,
            rng.uniform(0.55, 0.7),
            rng.uniform(0.1, 0.5),
            rng.uniform(0.1, 0.5),
            (135, 138, 150),
            (34, 44, 66),
            selected=(46, 78, 128),
            same=(44, 58, 96) if rng.random() < 0.7 else None,
        )
        ground, ink = look.ground, (200, 200, 210)
    else:
        entry = [(50, 90, 220), (120, 60, 200), (20, 130, 90)][int(rng.integers(3))]
        look = _SudokuLook(
            cell,
            (255, 255, 255),
            (196, 202, 214),
            (38, 48, 68),
            thin_w,
            thick_w,
            (28, 30, 40),
            entry,
            given_font,
            entry_font,
            rng.uniform(0.55, 0.7),
            rng.uniform(0.1, 0.5),
            rng.uniform(0.1, 0.5),
            (120, 126, 138),
            (226, 234, 246),
            selected=(187, 222, 251),
            same=(196, 214, 238) if rng.random() < 0.7 else None,
        )
        ground, ink = look.ground, (60, 64, 80)
    givens, solution = _sudoku_puzzle(rng, 9)
    margin = max(4, int(cell * rng.uniform(0.15, 0.4)))
    grid, entries = _draw_sudoku(look, givens, solution, 9, "123456789", rng, margin)
    h, w = grid.shape[:2]
    header, footer = int(cell * rng.uniform(1.5, 3)), int(cell * rng.uniform(2.5, 4.5))
    screen = Image.new("RGB", (w, header + h + footer), ground)
    screen.paste(Image.fromarray(grid[:, :, ::-1].copy()), (0, header))
    draw = ImageDraw.Draw(screen)
    small = _font(given_font, max(8, cell // 3))
    level = ["Easy", "Medium", "Hard", "Expert", "Evil"][int(rng.integers(5))]
    mistakes = f"Mistakes: {int(rng.integers(0, 3))}/3"
    clock = f"{int(rng.integers(0, 60)):02d}:{int(rng.integers(0, 60)):02d}"
    y = header // 2
    draw.text((margin, y), level, fill=ink, font=small, anchor="lm")
    draw.text((w // 2, y), mistakes, fill=ink, font=small, anchor="mm")
    draw.text((w - margin, y), clock, fill=ink, font=small, anchor="rm")
    pad = _font(given_font, round(cell * 0.8))
    for k in range(9):  # the number pad, in the entries' colour
        x = margin + (k + 0.5) * (w - 2 * margin) / 9
        _text(draw, (x, header + h + footer * 0.3), str(k + 1), pad, look.entry)
    for k, word in enumerate(("Undo", "Erase", "Notes", "Hint")):
        x = margin + (k + 0.5) * (w - 2 * margin) / 4
        _text(draw, (x, header + h + footer * 0.75), word, small, ink)
    return np.asarray(screen)[:, :, ::-1].copy(), _sudoku_truth(givens, entries, 9, "123456789")


def sudoku_app(rng: np.random.Generator) -> tuple[np.ndarray, dict[str, Any]]:
    return _sudoku_app(rng, dark=False)


def sudoku_app_dark(rng: np.random.Generator) -> tuple[np.ndarray, dict[str, Any]]:
    return _sudoku_app(rng, dark=True)


def sudoku_newsprint(rng: np.random.Generator) -> tuple[np.ndarray, dict[str, Any]]:
    """A newspaper sudoku with every other box shaded grey, in a bold or serif face, on
    yellowed newsprint, photographed."""
    look, _ = _sudoku_style(rng, held_out=rng.random() < 0.5)
    look.cell = int(rng.integers(30, 56))
    look.ground = (236, 230, 212)
    look.shaded_boxes = tuple(int(v) for v in rng.integers(195, 215, 1).repeat(3))
    look.given_font = _pick_font(
        rng, False, ("*Serif*Bold.ttf", "*-Bold.ttf", "NimbusRoman-Bold.otf", "*Bold.otf")
    )
    look.thick_w = max(look.thick_w, round(look.cell * 0.08))
    image, truth = _sudoku_picture(rng, look)
    page = _page(image, rng, look.given_font)
    return _photo(page, rng, 0.8), truth


# -- nonogram -----------------------------------------------------------------------------------
def _nonogram_puzzle(rng: np.random.Generator, largest: int = 50) -> dict[str, Any]:
    """rows, cols and a solution (list of '#'/'.' strings) from the test samples, else made."""
    return _nonogram_puzzle_between(rng, 5, largest)


def _nonogram_puzzle_between(
    rng: np.random.Generator, smallest: int, largest: int
) -> dict[str, Any]:
    """A puzzle whose longer side is `smallest` to `largest` (the shorter at least 5)."""
    found = []
    folder = DATA / "nonogram"
    if folder.is_dir():
        for path in sorted(folder.glob("*/*.json")):
            data = json.loads(path.read_text())
            w, h = data.get("width", 0), data.get("height", 0)
            fits = 5 <= w <= largest and 5 <= h <= largest and data.get("solution")
            fits = fits and max(w, h) >= smallest
            if fits and "invalid" not in path.name:
                found.append(data)
    if found:
        data = found[int(rng.integers(len(found)))]
        return {"rows": data["rows"], "cols": data["cols"], "solution": data["solution"]}
    from pencilbox.genres.nonogram.generate import generate

    side = int(rng.integers(smallest, max(smallest, min(largest, 30)) + 1))
    made = generate(size=f"{side}x{side}", seed=int(rng.integers(1 << 30)))
    puzzle = made["puzzle"]
    return {
        "rows": [list(r) for r in puzzle.rows],
        "cols": [list(c) for c in puzzle.cols],
        "solution": made["solution"],
    }


@dataclass
class _NonoLook:
    cell: int
    ground: RGB
    clue_ground: list[RGB]  # one colour, or stripes that alternate by row/column
    line: RGB
    bold_line: RGB
    line_w: int
    bold_w: int
    every: int  # a bold line every this many cells (0: none)
    ink: RGB
    solved_ink: RGB
    font: Path
    boxed: bool  # clue numbers in boxes of the grid's lattice
    fill: RGB
    progress: float  # share of the solution drawn in
    crosses: bool
    strike: bool  # solved clues struck through (else greyed)
    gap: float  # space between row clue numbers, in cells
    col_step: float = 1.0  # distance between stacked column clue numbers, in cells
    digit_size: tuple[float, float] = (0.55, 0.7)  # clue digits' size range, in cells
    dots: bool = False  # the player marks empty cells with dots (else crosses)
    bands: RGB | None = None  # every other block of 5 lines tinted, clues and grid
    cursor: RGB | None = None  # the player's current row and column highlighted
    solved_first: bool = False  # the first column solved (filled and crossed) whatever else
    commas: bool = False  # a row's clue written as one text, its numbers parted by commas
    open_bands: bool = False  # clue areas ruled one way only: lines down the column clues,
    # across the row clues, none between the numbers of a line
    page: RGB | None = None  # the page around the board (and in its corner), else ground
    badge: bool = False  # a button with a number on it in the corner above the row clues
    frame: bool = False  # the border runs around the corner above the row clues too
    strip: float = 0.0  # an empty strip this many cells wide between the grid and its clues
    strip_ground: RGB | None = None  # the strip's colour (else the clue ground's)
    pointer: RGB | None = None  # a triangle on the strip pointing at the line played


def _nonogram_draw(look: _NonoLook, puzzle: dict[str, Any], rng: np.random.Generator) -> np.ndarray:
    rows, cols, solution = puzzle["rows"], puzzle["cols"], puzzle["solution"]
    w, h = len(cols), len(rows)
    c = look.cell
    digit_w = c * 0.62
    longest_row = max(
        (sum(len(str(v)) * digit_w + look.gap * c for v in r) for r in rows), default=c
    )
    clue_w = int(max(c, longest_row) + c * 0.4)
    if look.boxed:
        clue_w = max(1, max((len(r) for r in rows), default=1)) * c
    step = c if look.boxed else c * look.col_step
    clue_h = int(max(1, max((len(col) for col in cols), default=1)) * step + c * 0.3)
    margin = int(c * rng.uniform(0.5, 2.0))
    strip = round(look.strip * c)
    W = margin * 2 + clue_w + strip + w * c
    H = margin * 2 + clue_h + strip + h * c
    image = Image.new("RGB", (W, H), look.page or look.ground)
    draw = ImageDraw.Draw(image)
    # the grid's corner; the clues stand off it by the strip
    gx, gy = margin + clue_w + strip, margin + clue_h + strip
    if look.page is not None:
        draw.rectangle([gx, gy, gx + w * c, gy + h * c], fill=look.ground)
    # player's progress: some rows and columns done, a few cells elsewhere
    done_rows = {r for r in range(h) if rng.random() < look.progress}
    done_cols = {k for k in range(w) if rng.random() < look.progress}
    if look.solved_first:
        done_cols.add(0)
    state = [[0] * w for _ in range(h)]
    for r in range(h):
        for k in range(w):
            if r in done_rows or k in done_cols or rng.random() < look.progress * 0.3:
                state[r][k] = 1 if solution[r][k] == "#" else 2
    # clue backgrounds (stripes alternate by line)
    for r in range(h):
        colour = look.clue_ground[r % len(look.clue_ground)]
        draw.rectangle([margin, gy + r * c, gx - 1, gy + (r + 1) * c - 1], fill=colour)
    for k in range(w):
        colour = look.clue_ground[k % len(look.clue_ground)]
        draw.rectangle([gx + k * c, margin, gx + (k + 1) * c - 1, gy - 1], fill=colour)
    if strip:
        _strips(draw, look, (gx, gy, w, h, strip), rng)
    if look.bands is not None:  # every other block of five rows and columns tinted
        for r in range(h):
            if (r // 5) % 2:
                draw.rectangle(
                    [margin, gy + r * c, gx + w * c, gy + (r + 1) * c - 1], fill=look.bands
                )
        for k in range(w):
            if (k // 5) % 2:
                draw.rectangle(
                    [gx + k * c, margin, gx + (k + 1) * c - 1, gy + h * c], fill=look.bands
                )
    if look.cursor is not None:  # the cursor's row and column, across clues and grid
        r0, k0 = int(rng.integers(h)), int(rng.integers(w))
        draw.rectangle([margin, gy + r0 * c, gx + w * c, gy + (r0 + 1) * c - 1], fill=look.cursor)
        draw.rectangle([gx + k0 * c, margin, gx + (k0 + 1) * c - 1, gy + h * c], fill=look.cursor)
    # cells
    for r in range(h):
        for k in range(w):
            x, y = gx + k * c, gy + r * c
            if state[r][k] == 1:
                inset = max(0, round(c * 0.08)) if rng.random() < 0.5 else 0
                draw.rectangle([x + inset, y + inset, x + c - inset, y + c - inset], fill=look.fill)
            elif state[r][k] == 2 and look.dots:
                d = max(1.0, c * 0.09)
                draw.ellipse(
                    [x + c / 2 - d, y + c / 2 - d, x + c / 2 + d, y + c / 2 + d], fill=look.line
                )
            elif state[r][k] == 2 and look.crosses:
                m = c * 0.3
                tw = max(1, c // 14)
                draw.line([(x + m, y + m), (x + c - m, y + c - m)], fill=look.line, width=tw)
                draw.line([(x + c - m, y + m), (x + m, y + c - m)], fill=look.line, width=tw)
    # clue numbers
    size = round(c * rng.uniform(*look.digit_size))
    font = _font(look.font, size)
    small = _font(look.font, round(size * 0.82))
    for r, clue in enumerate(rows):
        solved = r in done_rows
        colour = look.solved_ink if solved and not look.strike else look.ink
        x = gx - strip - c * 0.3
        if look.commas:  # "3,1,2" set right against the grid
            text = ",".join(map(str, clue)) or "0"
            draw.text((x, gy + r * c + c / 2), text, fill=colour, font=font, anchor="rm")
            continue
        for v in reversed(clue):
            text = str(v)
            if look.boxed:
                x_mid = x - c / 2 + c * 0.3
                f = small if len(text) > 1 else font
                x_next = x - c
            else:
                width = draw.textlength(text, font=font)
                x_mid = x - width / 2
                f = font
                x_next = x - width - look.gap * c
            y_mid = gy + r * c + c / 2
            _text(draw, (x_mid, y_mid), text, f, colour)
            if solved and look.strike:
                half = draw.textlength(text, font=f) / 2 + 1
                draw.line(
                    [(x_mid - half, y_mid), (x_mid + half, y_mid)],
                    fill=look.ink,
                    width=max(1, c // 16),
                )
            x = x_next
    for k, clue in enumerate(cols):
        solved = k in done_cols
        colour = look.solved_ink if solved and not look.strike else look.ink
        for j, v in enumerate(reversed(clue)):
            text = str(v)
            f = small if (look.boxed and len(text) > 1) else font
            x_mid = gx + k * c + c / 2
            y_mid = gy - strip - c * 0.15 - j * step - step / 2
            _text(draw, (x_mid, y_mid), text, f, colour)
            if solved and look.strike:
                half = c * 0.3
                draw.line(
                    [(x_mid - half, y_mid + half), (x_mid + half, y_mid - half)],
                    fill=look.ink,
                    width=max(1, c // 16),
                )
    # lines: the grid, and in boxed styles the clue cells too
    ruled = look.boxed or look.open_bands
    top = margin if ruled else gy
    left = margin if ruled else gx
    for k in range(w + 1):
        bold = k in (0, w) or (look.every and k % look.every == 0)
        draw.line(
            [(gx + k * c, top), (gx + k * c, gy + h * c)],
            fill=look.bold_line if bold else look.line,
            width=look.bold_w if bold else look.line_w,
        )
    for r in range(h + 1):
        bold = r in (0, h) or (look.every and r % look.every == 0)
        draw.line(
            [(left, gy + r * c), (gx + w * c, gy + r * c)],
            fill=look.bold_line if bold else look.line,
            width=look.bold_w if bold else look.line_w,
        )
    if look.open_bands:  # the bands' outer edges
        draw.line([(gx, margin), (gx + w * c, margin)], fill=look.bold_line, width=look.bold_w)
        draw.line([(margin, gy), (margin, gy + h * c)], fill=look.bold_line, width=look.bold_w)
    if look.frame:  # around the corner as well: one ruled rectangle, the corner empty
        draw.line([(margin, margin), (gx, margin)], fill=look.bold_line, width=look.bold_w)
        draw.line([(margin, margin), (margin, gy)], fill=look.bold_line, width=look.bold_w)
    if look.badge:
        _badge(draw, (margin, margin, gx, gy), rng, look.font)
    if look.boxed and not look.open_bands:
        for j in range(clue_w // c + 1):
            x = gx - j * c
            draw.line([(x, gy), (x, gy + h * c)], fill=look.line, width=look.line_w)
        for j in range(clue_h // c + 1):
            y = gy - j * c
            draw.line([(gx, y), (gx + w * c, y)], fill=look.line, width=look.line_w)
    return np.asarray(image)[:, :, ::-1].copy()


def _strips(
    draw: ImageDraw.ImageDraw,
    look: _NonoLook,
    grid: tuple[int, int, int, int, int],
    rng: np.random.Generator,
) -> None:
    """The empty strips between the grid and its clues (FreeNono's), with a pointer on each
    at the line played when the look has one."""
    gx, gy, w, h, strip = grid
    ground = look.strip_ground or look.clue_ground[0]
    c = look.cell
    draw.rectangle([gx - strip, gy, gx - 1, gy + h * c - 1], fill=ground)
    draw.rectangle([gx, gy - strip, gx + w * c - 1, gy - 1], fill=ground)
    if look.pointer is None:
        return
    r, k = int(rng.integers(h)), int(rng.integers(w))
    half = min(strip, c) * 0.3
    middle_x, middle_y = gx - strip / 2, gy + r * c + c / 2  # pointing right, at row r
    draw.polygon(
        [
            (middle_x - half, middle_y - half),
            (middle_x + half, middle_y),
            (middle_x - half, middle_y + half),
        ],
        fill=look.pointer,
    )
    middle_x, middle_y = gx + k * c + c / 2, gy - strip / 2  # pointing down, at column k
    draw.polygon(
        [
            (middle_x - half, middle_y - half),
            (middle_x + half, middle_y - half),
            (middle_x, middle_y + half),
        ],
        fill=look.pointer,
    )


def _badge(
    draw: ImageDraw.ImageDraw,
    corner: tuple[int, int, int, int],
    rng: np.random.Generator,
    font_path: Path,
) -> None:
    """A phone app's button in the corner above the row clues: a coloured rounded box with
    a number on it (a hint's price), nearly filling the corner."""
    x0, y0, x1, y1 = corner
    inset = 0.12 * min(x1 - x0, y1 - y0)
    box = (x0 + inset, y0 + inset, x1 - inset, y1 - inset)
    colour = tuple(int(v) for v in rng.integers(0, 256, 3))
    draw.rounded_rectangle(box, radius=inset, fill=colour, outline=(255, 255, 255), width=3)
    size = max(8, round((box[3] - box[1]) * 0.3))
    text = str(int(rng.integers(10, 1000)))
    middle = ((box[0] + box[2]) / 2, box[1] + (box[3] - box[1]) * 0.7)
    draw.text(middle, text, fill=(255, 255, 255), font=_font(font_path, size), anchor="mm")


def _nonogram_truth(puzzle: dict[str, Any]) -> dict[str, Any]:
    return {"genre": "nonogram", "rows": puzzle["rows"], "cols": puzzle["cols"]}


def _nono_look(rng: np.random.Generator, puzzle: dict[str, Any], **kind: Any) -> _NonoLook:
    side = max(len(puzzle["rows"]), len(puzzle["cols"]))
    scale = float(np.exp(rng.uniform(math.log(0.5), math.log(3.0))))
    cell = round(rng.uniform(18, 28) * scale)
    cell = int(min(max(cell, 13 if side > 30 else 14), 1400 // side))
    held_out = kind.get("held_out", False)
    look = _NonoLook(
        cell=cell,
        ground=(255, 255, 255),
        clue_ground=[(255, 255, 255)],
        line=(170, 170, 170),
        bold_line=(40, 40, 40),
        line_w=1,
        bold_w=max(2, cell // 12),
        every=5,
        ink=(0, 0, 0),
        solved_ink=(170, 170, 170),
        font=_pick_font(rng, held_out),
        boxed=False,
        fill=(30, 30, 30),
        progress=0.0,
        crosses=False,
        strike=False,
        gap=rng.uniform(0.25, 0.5),
    )
    return look


def nonogram_boxed(rng: np.random.Generator) -> tuple[np.ndarray, dict[str, Any]]:
    """A web site with clue cells on the grid's lattice and a tinted clue area."""
    puzzle = _nonogram_puzzle(rng)
    look = _nono_look(rng, puzzle)
    look.boxed = True
    look.clue_ground = [tuple(int(v) for v in rng.integers(215, 250, 3))]
    return _nonogram_draw(look, puzzle, rng), _nonogram_truth(puzzle)


def nonogram_plain(rng: np.random.Generator) -> tuple[np.ndarray, dict[str, Any]]:
    """Bare clue numbers beside a ruled grid (webpbn, Simon Tatham's Pattern)."""
    puzzle = _nonogram_puzzle(rng)
    look = _nono_look(rng, puzzle)
    look.every = 5 if rng.random() < 0.7 else 0
    return _nonogram_draw(look, puzzle, rng), _nonogram_truth(puzzle)


def nonogram_app(rng: np.random.Generator) -> tuple[np.ndarray, dict[str, Any]]:
    """A phone app: striped clue rows and columns, part-solved with crosses, solved clues
    greyed (held-out fonts)."""
    puzzle = _nonogram_puzzle(rng, 30)
    look = _nono_look(rng, puzzle, held_out=True)
    a = tuple(int(v) for v in rng.integers(235, 256, 3))
    b = tuple(int(v) for v in rng.integers(215, 240, 3))
    look.clue_ground = [a, b]
    look.fill = tuple(int(v) for v in rng.integers(20, 120, 3))
    look.ink = (40, 50, 70)
    look.solved_ink = tuple(int(v) for v in rng.integers(140, 170, 3))
    look.progress = rng.uniform(0.1, 0.4)
    look.crosses = True
    return _nonogram_draw(look, puzzle, rng), _nonogram_truth(puzzle)


def nonogram_dark(rng: np.random.Generator) -> tuple[np.ndarray, dict[str, Any]]:
    """Dark theme: light numbers and lines on a dark ground, part-solved, greyed clues."""
    puzzle = _nonogram_puzzle(rng, 30)
    look = _nono_look(rng, puzzle, held_out=rng.random() < 0.5)
    look.ground = (24, 24, 28)
    look.clue_ground = [(34, 36, 42)] if rng.random() < 0.5 else [(30, 32, 38), (44, 46, 54)]
    look.line = (80, 80, 90)
    look.bold_line = (190, 190, 200)
    look.ink = (230, 230, 235)
    look.solved_ink = (110, 110, 120)
    look.fill = (200, 200, 210)
    look.progress = rng.uniform(0.0, 0.3)
    look.crosses = rng.random() < 0.5
    return _nonogram_draw(look, puzzle, rng), _nonogram_truth(puzzle)


def nonogram_strike(rng: np.random.Generator) -> tuple[np.ndarray, dict[str, Any]]:
    """Part-solved, solved clues struck through, crosses in empty cells."""
    puzzle = _nonogram_puzzle(rng, 30)
    look = _nono_look(rng, puzzle)
    look.boxed = rng.random() < 0.5
    look.progress = rng.uniform(0.15, 0.4)
    look.crosses = True
    look.strike = True
    return _nonogram_draw(look, puzzle, rng), _nonogram_truth(puzzle)


def nonogram_strip(rng: np.random.Generator) -> tuple[np.ndarray, dict[str, Any]]:
    """A desktop game (FreeNono-like): an empty tinted strip between the grid and its clues,
    a pointer on it at the line played, solved clues greyed in a pale colour that can be
    as light as the ground, part-solved with crosses (held-out fonts)."""
    puzzle = _nonogram_puzzle(rng, 30)
    look = _nono_look(rng, puzzle, held_out=True)
    look.clue_ground = [tuple(int(v) for v in rng.integers(225, 256, 3))]
    look.strip = rng.uniform(0.6, 1.6)
    look.strip_ground = tuple(int(v) for v in rng.integers(190, 240, 3))
    if rng.random() < 0.7:
        look.pointer = tuple(int(v) for v in rng.integers(60, 200, 3))
    if rng.random() < 0.5:  # pale yellow, green or blue: as light as the ground in grey
        pale = [
            int(rng.integers(235, 256)),
            int(rng.integers(235, 256)),
            int(rng.integers(130, 190)),
        ]
        rng.shuffle(pale)
        look.solved_ink = tuple(pale)
    look.progress = rng.uniform(0.1, 0.4)
    look.crosses = True
    return _nonogram_draw(look, puzzle, rng), _nonogram_truth(puzzle)


_CONDENSED = (
    "RobotoCondensed-Regular.ttf",
    "RobotoCondensed-Medium.ttf",
    "RobotoCondensed-Bold.ttf",
    "Roboto-Medium.ttf",
    "NotoSans-Regular.ttf",
    "Gentium-R.ttf",
    "DejaVuSansCondensed.ttf",
    "LiberationSansNarrow-Regular.ttf",
)
_BOLD = (
    "Roboto-Bold.ttf",
    "Roboto-Black.ttf",
    "RobotoCondensed-Bold.ttf",
    "NotoSans-Bold.ttf",
    "NotoSerif-Bold.ttf",
    "GFSDidotBold.otf",
    "AccanthisADFStd-Bold.otf",
)


def nonogram_large(rng: np.random.Generator) -> tuple[np.ndarray, dict[str, Any]]:
    """A big puzzle (30x30 to 50x50) as webpbn and print collections set it: narrow faces,
    column clues stacked tight (less than a cell apart), row clues close together, thick
    guide lines every 5 cells, scale 0.5-3x."""
    puzzle = _nonogram_puzzle_between(rng, 30, 50)
    look = _nono_look(rng, puzzle)
    look.font = _pick_font(rng, False, _CONDENSED)
    side = max(len(puzzle["rows"]), len(puzzle["cols"]))
    look.cell = int(min(max(look.cell, 14), 2000 // (side + 12)))
    look.col_step = rng.uniform(0.72, 0.9)
    look.gap = rng.uniform(0.22, 0.35)
    look.digit_size = (0.5, 0.62)
    look.bold_w = max(2, round(look.cell * rng.uniform(0.12, 0.2)))
    look.line = tuple(int(v) for v in rng.integers(120, 200, 1).repeat(3))
    look.bold_line = (0, 0, 0)
    look.progress = rng.uniform(0.0, 0.2)
    look.crosses = rng.random() < 0.5
    return _nonogram_draw(look, puzzle, rng), _nonogram_truth(puzzle)


def nonogram_bands(rng: np.random.Generator) -> tuple[np.ndarray, dict[str, Any]]:
    """A puzzle site with boxed clues in bold faces, every other block of five lines tinted
    across clues and grid, the cursor's row and column highlighted, coloured fills and
    dots in the cells the player marked empty."""
    puzzle = _nonogram_puzzle(rng, 40)
    look = _nono_look(rng, puzzle)
    look.font = _pick_font(rng, False, _BOLD)
    look.boxed = rng.random() < 0.7
    look.digit_size = (0.6, 0.78)
    base = tuple(int(v) for v in rng.integers(225, 250, 3))
    look.clue_ground = [base]
    look.bands = tuple(max(0, v - int(rng.integers(12, 30))) for v in base)
    look.cursor = (255, 236, 170) if rng.random() < 0.5 else (200, 225, 255)
    look.fill = tuple(int(v) for v in rng.integers(20, 90, 3))
    look.line = (150, 160, 175)
    look.bold_line = (60, 70, 90)
    look.progress = rng.uniform(0.1, 0.35)
    look.dots = True
    return _nonogram_draw(look, puzzle, rng), _nonogram_truth(puzzle)


def _mirrored(puzzle: dict[str, Any]) -> dict[str, Any]:
    """The puzzle mirrored left to right (as unique as it was)."""
    return {
        "rows": [list(reversed(r)) for r in puzzle["rows"]],
        "cols": list(reversed(puzzle["cols"])),
        "solution": [r[::-1] for r in puzzle["solution"]],
    }


def nonogram_edge(rng: np.random.Generator) -> tuple[np.ndarray, dict[str, Any]]:
    """Part-solved with the first column solved: its filled cells hide the grid's left
    border, and with filled cells beside them the lines between rows (the puzzle is
    mirrored when its last column has more filled cells than its first)."""
    puzzle = _nonogram_puzzle(rng, 30)
    first = sum(row[0] == "#" for row in puzzle["solution"])
    last = sum(row[-1] == "#" for row in puzzle["solution"])
    if last > first:
        puzzle = _mirrored(puzzle)
    look = _nono_look(rng, puzzle, held_out=rng.random() < 0.5)
    look.boxed = rng.random() < 0.3
    look.progress = rng.uniform(0.0, 0.3)
    look.crosses = rng.random() < 0.7
    look.solved_first = True
    return _nonogram_draw(look, puzzle, rng), _nonogram_truth(puzzle)


def nonogram_commas(rng: np.random.Generator) -> tuple[np.ndarray, dict[str, Any]]:
    """A phone app that writes each row's clue as one text, its numbers parted by commas
    ("3,1,2"), the column clues stacked; small puzzles (5x5 to 15x15) as apps start with."""
    puzzle = _nonogram_puzzle_between(rng, 5, 15)
    look = _nono_look(rng, puzzle, held_out=True)
    look.commas = True
    look.clue_ground = [tuple(int(v) for v in rng.integers(235, 256, 3))]
    look.progress = rng.uniform(0.0, 0.3)
    look.crosses = rng.random() < 0.5
    return _nonogram_draw(look, puzzle, rng), _nonogram_truth(puzzle)


def nonogram_jpeg(rng: np.random.Generator) -> tuple[np.ndarray, dict[str, Any]]:
    """A screenshot saved as a poor JPEG."""
    puzzle = _nonogram_puzzle(rng, 30)
    look = _nono_look(rng, puzzle, held_out=True)
    look.cell = max(14, round(look.cell * 0.7))
    look.boxed = rng.random() < 0.5
    return _nonogram_draw(look, puzzle, rng), _nonogram_truth(puzzle)


def nonogram_photo(rng: np.random.Generator) -> tuple[np.ndarray, dict[str, Any]]:
    """A printed nonogram photographed at an angle."""
    puzzle = _nonogram_puzzle(rng, 25)
    look = _nono_look(rng, puzzle, held_out=rng.random() < 0.5)
    look.cell = int(rng.integers(22, 34))
    look.line = (90, 90, 90)
    look.ground = (250, 248, 240)
    look.clue_ground = [look.ground]
    return _photo(_nonogram_draw(look, puzzle, rng), rng, 0.7), _nonogram_truth(puzzle)


def nonogram_site(rng: np.random.Generator) -> tuple[np.ndarray, dict[str, Any]]:
    """A puzzle site's light board on a dark page (puzzle-nonograms.com-like): one clue
    number a cell, the clue areas ruled one way only, the page's dark grey in the corner
    above the row clues, bold faces."""
    puzzle = _nonogram_puzzle(rng, 30)
    look = _nono_look(rng, puzzle, held_out=rng.random() < 0.5)
    look.font = _pick_font(rng, False, _BOLD)
    look.boxed = True
    look.open_bands = True
    grey = int(rng.integers(30, 80))
    look.page = (grey, grey, grey - int(rng.integers(0, 10)))
    look.ground = tuple(int(v) for v in rng.integers(235, 256, 3))
    look.clue_ground = [tuple(int(v) for v in rng.integers(225, 250, 3))]
    look.line = (60, 60, 60)
    look.bold_line = (0, 0, 0)
    look.progress = rng.uniform(0.0, 0.3)
    look.dots = rng.random() < 0.5
    return _nonogram_draw(look, puzzle, rng), _nonogram_truth(puzzle)


def nonogram_phone(rng: np.random.Generator) -> tuple[np.ndarray, dict[str, Any]]:
    """A phone app (Picture Cross-like): clue bands ruled one way only, striped, numbers
    set loosely, a button with a number in the corner above the row clues."""
    puzzle = _nonogram_puzzle(rng, 25)
    look = _nono_look(rng, puzzle, held_out=True)
    look.font = _pick_font(rng, False, _BOLD)
    look.open_bands = True
    look.badge = True
    look.col_step = rng.uniform(0.75, 0.95)
    a = tuple(int(v) for v in rng.integers(235, 256, 3))
    b = tuple(int(v) for v in rng.integers(215, 240, 3))
    look.clue_ground = [a, b]
    look.page = tuple(int(v) for v in rng.integers(150, 256, 3))
    look.line = (100, 100, 100)
    look.bold_line = (60, 60, 60)
    look.ink = (40, 40, 40)
    look.progress = rng.uniform(0.0, 0.3)
    look.crosses = True
    return _nonogram_draw(look, puzzle, rng), _nonogram_truth(puzzle)


def nonogram_print(rng: np.random.Generator) -> tuple[np.ndarray, dict[str, Any]]:
    """A printed Japanese crossword photographed: every clue number in its own cell of the
    grid's lattice, one border around clues, grid and the empty corner."""
    puzzle = _nonogram_puzzle(rng, 25)
    look = _nono_look(rng, puzzle, held_out=rng.random() < 0.5)
    look.cell = int(rng.integers(24, 36))
    look.boxed = True
    look.frame = True
    look.line = (60, 60, 60)
    look.bold_line = (10, 10, 10)
    look.ground = (245, 245, 240)
    look.clue_ground = [look.ground]
    return _photo(_nonogram_draw(look, puzzle, rng), rng, 0.6), _nonogram_truth(puzzle)


# -- double choco --------------------------------------------------------------------------------
def _dbchoco_puzzle(rng: np.random.Generator) -> dict[str, Any]:
    """colours (rows of 'g'/'w'), numbers, answer blocks: test samples or a generated puzzle."""
    found = []
    folder = DATA / "dbchoco"
    if folder.is_dir():
        for path in sorted(folder.glob("*.json")):
            data = json.loads(path.read_text())
            if not any(v == "?" for row in data["numbers"] for v in row):
                found.append(data)
    if found and rng.random() < 0.6:
        data = found[int(rng.integers(len(found)))]
        blocks = (data.get("answer") or {}).get("blocks")
        return {"colors": data["colors"], "numbers": data["numbers"], "blocks": blocks}
    from pencilbox.genres.dbchoco.generate import generate

    side = 2 * int(rng.integers(3, 6))  # even sides: the area must be even
    # the level human setters publish at (and a few seconds at 10x10, where the fewest clues
    # at any level took up to 40 s)
    made = generate(width=side, height=side, seed=int(rng.integers(1 << 30)), grade="placement")
    puzzle = made["puzzle"]
    return {"colors": puzzle.colour_rows(), "numbers": puzzle.number_rows(), "blocks": None}


def _dbchoco_draw(
    puzzle: dict[str, Any], rng: np.random.Generator, cell: int, walls: bool
) -> np.ndarray:
    colours, numbers = puzzle["colors"], puzzle["numbers"]
    h, w = len(colours), len(colours[0])
    margin = int(cell * rng.uniform(0.4, 1.2))
    image = Image.new("RGB", (w * cell + 2 * margin, h * cell + 2 * margin), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    grey = tuple(int(v) for v in rng.integers(185, 215, 1).repeat(3))
    font = _font(
        _pick_font(
            rng,
            rng.random() < 0.4,
            (
                "LiberationSans-Regular.ttf",
                "Arimo-Regular.ttf",
                "DejaVuSans.ttf",
                "NimbusSans-Regular.otf",
                "Roboto-Regular.ttf",
                "NotoSans-Regular.ttf",
            ),
        ),
        round(cell * rng.uniform(0.6, 0.75)),
    )
    for r in range(h):
        for c in range(w):
            x, y = margin + c * cell, margin + r * cell
            if colours[r][c] == "g":
                draw.rectangle([x, y, x + cell, y + cell], fill=grey)
    dash = max(2, cell // 10)
    line = (90, 90, 90)
    for k in range(1, w):  # dashed inner lines, as pzprjs draws them
        x = margin + k * cell
        for y in range(margin, margin + h * cell, 2 * dash):
            draw.line([(x, y), (x, min(y + dash, margin + h * cell))], fill=line, width=1)
    for k in range(1, h):
        y = margin + k * cell
        for x in range(margin, margin + w * cell, 2 * dash):
            draw.line([(x, y), (min(x + dash, margin + w * cell), y)], fill=line, width=1)
    blocks = puzzle.get("blocks")
    if walls and blocks:  # the player has drawn some of the answer's walls
        bold = max(2, cell // 9)
        for r in range(h):
            for c in range(w):
                x, y = margin + c * cell, margin + r * cell
                if c + 1 < w and blocks[r][c] != blocks[r][c + 1] and rng.random() < 0.5:
                    draw.line([(x + cell, y), (x + cell, y + cell)], fill=(40, 40, 40), width=bold)
                if r + 1 < h and blocks[r][c] != blocks[r + 1][c] and rng.random() < 0.5:
                    draw.line([(x, y + cell), (x + cell, y + cell)], fill=(40, 40, 40), width=bold)
    for r in range(h):
        for c in range(w):
            value = numbers[r][c]
            if value is not None:
                x, y = margin + c * cell + cell / 2, margin + r * cell + cell / 2
                _text(draw, (x, y), str(value), font, (0, 0, 0))
    border = max(2, cell // 12)
    draw.rectangle(
        [margin, margin, margin + w * cell, margin + h * cell], outline=(0, 0, 0), width=border
    )
    return np.asarray(image)[:, :, ::-1].copy()


def _dbchoco_truth(puzzle: dict[str, Any]) -> dict[str, Any]:
    return {"genre": "dbchoco", "colors": puzzle["colors"], "numbers": puzzle["numbers"]}


def dbchoco_puzzlink(rng: np.random.Generator) -> tuple[np.ndarray, dict[str, Any]]:
    puzzle = _dbchoco_puzzle(rng)
    cell = round(float(np.exp(rng.uniform(math.log(18), math.log(90)))))
    return _dbchoco_draw(puzzle, rng, cell, False), _dbchoco_truth(puzzle)


def dbchoco_walls(rng: np.random.Generator) -> tuple[np.ndarray, dict[str, Any]]:
    puzzle = _dbchoco_puzzle(rng)
    cell = round(float(np.exp(rng.uniform(math.log(20), math.log(80)))))
    return _dbchoco_draw(puzzle, rng, cell, True), _dbchoco_truth(puzzle)


def dbchoco_jpeg(rng: np.random.Generator) -> tuple[np.ndarray, dict[str, Any]]:
    puzzle = _dbchoco_puzzle(rng)
    cell = int(rng.integers(18, 36))
    return _dbchoco_draw(puzzle, rng, cell, rng.random() < 0.5), _dbchoco_truth(puzzle)


def _dbchoco_plain(
    puzzle: dict[str, Any],
    rng: np.random.Generator,
    cell: int,
    shade: RGB,
    line: RGB,
    number: RGB,
    font: Path,
    border: int,
    ground: RGB = (255, 255, 255),
) -> np.ndarray:
    """A board drawn with solid lines: the app and print looks (not puzz.link's dashes)."""
    colours, numbers = puzzle["colors"], puzzle["numbers"]
    h, w = len(colours), len(colours[0])
    margin = int(cell * rng.uniform(0.4, 1.0))
    image = Image.new("RGB", (w * cell + 2 * margin, h * cell + 2 * margin), ground)
    draw = ImageDraw.Draw(image)
    face = _font(font, round(cell * rng.uniform(0.55, 0.75)))
    for r in range(h):
        for c in range(w):
            if colours[r][c] == "g":
                x, y = margin + c * cell, margin + r * cell
                draw.rectangle([x, y, x + cell, y + cell], fill=shade)
    thin = max(1, cell // 30)
    for k in range(1, w):
        x = margin + k * cell
        draw.line([(x, margin), (x, margin + h * cell)], fill=line, width=thin)
    for k in range(1, h):
        y = margin + k * cell
        draw.line([(margin, y), (margin + w * cell, y)], fill=line, width=thin)
    for r in range(h):
        for c in range(w):
            if numbers[r][c] is not None:
                x, y = margin + c * cell + cell / 2, margin + r * cell + cell / 2
                _text(draw, (x, y), str(numbers[r][c]), face, number)
    draw.rectangle(
        [margin, margin, margin + w * cell, margin + h * cell], outline=(20, 20, 20), width=border
    )
    return np.asarray(image)[:, :, ::-1].copy()


def dbchoco_app(rng: np.random.Generator) -> tuple[np.ndarray, dict[str, Any]]:
    """A puzzle app's board: solid lines, the second colour tinted (chocolate, slate, sage),
    bold coloured numbers, a thick border, and the app's title and buttons around it."""
    puzzle = _dbchoco_puzzle(rng)
    cell = round(float(np.exp(rng.uniform(math.log(24), math.log(80)))))
    shade = [(200, 170, 140), (176, 190, 208), (190, 206, 180), (170, 170, 170)][
        int(rng.integers(4))
    ]
    number = [(30, 30, 30), (60, 40, 20), (20, 40, 90)][int(rng.integers(3))]
    font = _pick_font(rng, False, ("*-Bold.ttf", "*Bold.otf", "Roboto-Medium.ttf"))
    board = _dbchoco_plain(
        puzzle, rng, cell, shade, (150, 150, 150), number, font, max(2, cell // 10)
    )
    h, w = board.shape[:2]
    header, footer = int(cell * rng.uniform(1.2, 2.5)), int(cell * rng.uniform(1.2, 2.5))
    screen = Image.new("RGB", (w, header + h + footer), (255, 255, 255))
    screen.paste(Image.fromarray(board[:, :, ::-1].copy()), (0, header))
    draw = ImageDraw.Draw(screen)
    small = _font(font, max(8, cell // 3))
    draw.text((w // 2, header // 2), "Double Choco", fill=(40, 40, 40), font=small, anchor="mm")
    for k, word in enumerate(("Undo", "Redo", "Check", "Reset")):
        x = (k + 0.5) * w / 4
        draw.text((x, header + h + footer // 2), word, fill=(40, 40, 40), font=small, anchor="mm")
    return np.asarray(screen)[:, :, ::-1].copy(), _dbchoco_truth(puzzle)


def dbchoco_photo(rng: np.random.Generator) -> tuple[np.ndarray, dict[str, Any]]:
    """A printed board (gray cells, solid black lines) photographed at an angle."""
    puzzle = _dbchoco_puzzle(rng)
    cell = int(rng.integers(26, 50))
    grey = tuple(int(v) for v in rng.integers(170, 205, 1).repeat(3))
    font = _pick_font(rng, rng.random() < 0.5)
    board = _dbchoco_plain(
        puzzle, rng, cell, grey, (60, 60, 60), (0, 0, 0), font, max(2, cell // 12), (250, 248, 240)
    )
    return _photo(board, rng, 0.6), _dbchoco_truth(puzzle)


# -- our own pictures ------------------------------------------------------------------------------
def _decoded(data: bytes) -> np.ndarray:
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    return np.ascontiguousarray(image)


def sudoku_render(rng: np.random.Generator) -> tuple[np.ndarray, dict[str, Any]]:
    """`pencilbox render --png` of a sudoku: givens black, some digits placed in blue."""
    from pencilbox.genres.sudoku.model import make_sudoku
    from pencilbox.genres.sudoku.render import png

    size = 16 if rng.random() < 0.2 else 9
    givens, solution = _sudoku_puzzle(rng, size)
    puzzle = make_sudoku(givens, size=size)
    share = rng.uniform(0, 0.5)
    values = [g or (s if rng.random() < share else 0) for g, s in zip(givens, solution)]
    entries = [0 if g else v for g, v in zip(givens, values)]
    scale = int(rng.integers(1, 4))
    cell = int(rng.integers(20, 40))
    image = _decoded(png(puzzle, values, scale=scale, cell=cell))
    return image, _sudoku_truth(givens, entries, size, puzzle.alphabet)


def nonogram_render(rng: np.random.Generator) -> tuple[np.ndarray, dict[str, Any]]:
    """`pencilbox render --png` of a nonogram, empty or part-solved."""
    from pencilbox.core.grid import Grid
    from pencilbox.genres.nonogram.model import EMPTY, FILLED, UNKNOWN, make_puzzle
    from pencilbox.genres.nonogram.render import png

    data = _nonogram_puzzle(rng, largest=40)
    puzzle = make_puzzle(data["rows"], data["cols"], max_size=None)
    done = rng.uniform(0, 0.6) if rng.random() < 0.5 else 0.0
    cells = [
        (FILLED if ch == "#" else EMPTY) if rng.random() < done else UNKNOWN
        for line in data["solution"]
        for ch in line
    ]
    grid = Grid(puzzle.width, puzzle.height, tuple(cells))
    scale = int(rng.integers(1, 4))
    size = int(rng.integers(12, 24))
    image = _decoded(png(puzzle, grid, scale=scale, cell_size=size))
    return image, _nonogram_truth(data)


def dbchoco_render(rng: np.random.Generator) -> tuple[np.ndarray, dict[str, Any]]:
    """`pencilbox render --png` of a Double Choco board."""
    from pencilbox.genres.dbchoco.model import make_puzzle
    from pencilbox.genres.dbchoco.render import png

    data = _dbchoco_puzzle(rng)
    gray = [[ch == "g" for ch in row] for row in data["colors"]]
    puzzle = make_puzzle(gray, data["numbers"], max_size=None)
    scale = int(rng.integers(1, 4))
    size = int(rng.integers(20, 40))
    return _decoded(png(puzzle, scale=scale, cell_size=size)), _dbchoco_truth(data)


# -- the registry ----------------------------------------------------------------------------------
STYLES: dict[str, Style] = {}


def _register(name: str, genre: str, kind: str, draw: Callable[..., Any], text: str) -> None:
    STYLES[name] = Style(name, genre, kind, draw, text)


_register("sudoku-print", "sudoku", "clean", sudoku_print, "newspaper print, black on white")
_register(
    "sudoku-web",
    "sudoku",
    "clean",
    sudoku_web,
    "web app: slate givens, blue entries, pencil marks, highlighted row and column "
    "(held-out fonts)",
)
_register(
    "sudoku-dark", "sudoku", "clean", sudoku_dark, "dark theme, light givens, coloured entries"
)
_register(
    "sudoku-bold", "sudoku", "clean", sudoku_bold, "bold givens, thin entries and pencil marks"
)
_register("sudoku-16", "sudoku", "clean", sudoku_16, "16x16 with 1-9A-G or 0-9A-F")
_register("sudoku-render", "sudoku", "clean", sudoku_render, "pencilbox's own PNG, 9x9 and 16x16")
_register(
    "sudoku-app",
    "sudoku",
    "clean",
    sudoku_app,
    "phone app: selected cell, row, column, box and same digit highlighted, coloured entries, "
    "pencil marks, header and number pad",
)
_register(
    "sudoku-app-dark",
    "sudoku",
    "clean",
    sudoku_app_dark,
    "phone app in its dark theme (as sudoku-app)",
)
_register("sudoku-jpeg", "sudoku", "degraded", sudoku_jpeg, "small screenshot saved as JPEG q30-60")
_register(
    "sudoku-photo",
    "sudoku",
    "photo",
    sudoku_photo,
    "printed page with text and a second grid, photographed: tilt, perspective, light, blur",
)
_register(
    "sudoku-newsprint",
    "sudoku",
    "photo",
    sudoku_newsprint,
    "newsprint with every other box shaded, bold or serif givens, photographed",
)


_register(
    "nonogram-boxed",
    "nonogram",
    "clean",
    nonogram_boxed,
    "clue cells boxed on the grid's lattice, tinted clue area (nonograms.org-like)",
)
_register(
    "nonogram-plain",
    "nonogram",
    "clean",
    nonogram_plain,
    "bare clue numbers beside a ruled grid (webpbn, Tatham's Pattern)",
)
_register(
    "nonogram-app",
    "nonogram",
    "clean",
    nonogram_app,
    "phone app: striped clue lines, part-solved with crosses, greyed solved clues (held-out fonts)",
)
_register("nonogram-dark", "nonogram", "clean", nonogram_dark, "dark theme, part-solved")
_register(
    "nonogram-strip",
    "nonogram",
    "clean",
    nonogram_strip,
    "desktop game: an empty strip between grid and clues with a pointer on it, solved clues "
    "greyed in a pale colour (held-out fonts)",
)
_register(
    "nonogram-strike",
    "nonogram",
    "clean",
    nonogram_strike,
    "part-solved, solved clues struck through",
)
_register(
    "nonogram-render",
    "nonogram",
    "clean",
    nonogram_render,
    "pencilbox's own PNG, empty or part-solved",
)
_register(
    "nonogram-large",
    "nonogram",
    "clean",
    nonogram_large,
    "30x30 to 50x50, narrow faces, column clues stacked tight, thick guides every 5 cells",
)
_register(
    "nonogram-bands",
    "nonogram",
    "clean",
    nonogram_bands,
    "bold faces, blocks of 5 lines tinted, cursor row and column highlighted, dots (held-out)",
)
_register(
    "nonogram-edge",
    "nonogram",
    "clean",
    nonogram_edge,
    "part-solved, the first column solved: filled cells hide the grid's left border",
)
_register(
    "nonogram-commas",
    "nonogram",
    "clean",
    nonogram_commas,
    "phone app, 5x5 to 15x15: each row's clue one text with commas (3,1,2)",
)
_register(
    "nonogram-site",
    "nonogram",
    "clean",
    nonogram_site,
    "light board on a dark page, clue areas ruled one way only (puzzle-nonograms.com-like)",
)
_register(
    "nonogram-phone",
    "nonogram",
    "clean",
    nonogram_phone,
    "phone app: striped clue bands ruled one way only, a numbered button in the corner "
    "(Picture Cross-like; held-out fonts)",
)
_register("nonogram-jpeg", "nonogram", "degraded", nonogram_jpeg, "small screenshot, JPEG q30-60")
_register(
    "nonogram-photo",
    "nonogram",
    "photo",
    nonogram_photo,
    "printed nonogram photographed at an angle",
)
_register(
    "nonogram-print",
    "nonogram",
    "photo",
    nonogram_print,
    "printed Japanese crossword, clues boxed one a cell, a border around the empty corner too, "
    "photographed",
)


_register(
    "dbchoco-puzzlink",
    "dbchoco",
    "clean",
    dbchoco_puzzlink,
    "puzz.link board: gray and white cells, dashed lines, numbers, scale 0.5-3x",
)
_register(
    "dbchoco-walls",
    "dbchoco",
    "clean",
    dbchoco_walls,
    "puzz.link board with some of the player's walls drawn",
)
_register("dbchoco-render", "dbchoco", "clean", dbchoco_render, "pencilbox's own PNG")
_register(
    "dbchoco-app",
    "dbchoco",
    "clean",
    dbchoco_app,
    "puzzle app: solid lines, tinted second colour, bold coloured numbers, title and buttons",
)
_register(
    "dbchoco-photo", "dbchoco", "photo", dbchoco_photo, "printed board photographed at an angle"
)
_register("dbchoco-jpeg", "dbchoco", "degraded", dbchoco_jpeg, "small board, JPEG q30-60")


def make_picture(style: str, seed: int) -> tuple[bytes, str, dict[str, Any]]:
    """(file bytes, "png" or "jpeg", truth) for one picture of `style`, the same for a seed."""
    chosen = STYLES[style]
    rng = np.random.default_rng([seed, sum(map(ord, style))])
    image, truth = chosen.draw(rng)
    quality: int | None = None
    if chosen.kind == "photo":
        quality = int(rng.integers(30, 85))
    elif chosen.kind == "degraded":
        quality = int(rng.integers(30, 60))
    data, kind = _encode(image, rng, quality)
    truth = dict(truth, style=style, seed=seed)
    return data, kind, truth


def main() -> None:
    """Write a few pictures of every style (or of the styles named) into a folder to look at."""
    import argparse

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("out", type=Path)
    parser.add_argument("--count", type=int, default=3)
    parser.add_argument("--style", action="append")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for style in args.style or list(STYLES):
        for seed in range(args.count):
            data, kind, truth = make_picture(style, seed)
            name = f"{style}-{seed}.{'jpg' if kind == 'jpeg' else 'png'}"
            (args.out / name).write_bytes(data)
            (args.out / (name + ".truth.json")).write_text(json.dumps(truth))


if __name__ == "__main__":
    main()
