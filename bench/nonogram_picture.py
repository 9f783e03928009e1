"""Benchmark: nonograms from pictures (`generate nonogram --from IMAGE`).

The pictures are drawn here with Pillow, reproducibly: shapes, text, logos and flags, and
procedural photographs (a portrait, a city skyline at dusk, a tree, hills with a sun; soft
edges, gradients and noise like a camera's). Each is made into a puzzle at 30x30 and 50x50
black-and-white and 30x30 with 3 colours, with the default grade (line-solvable when the
change budget allows, else unique) and with --grade search (unique, fewest changes). The
table gives the cells changed, the time, the grade reached and how far the puzzle's picture
is from the original (mean CIELAB distance per cell, before and after the changes).

Targets (issue 13): 30x30 black-and-white under 2 s, 50x50 under 10 s, colour 30x30 under 5 s.

    python bench/nonogram_picture.py [--out bench/results/nonogram_picture.md] [--only NAME]
"""

from __future__ import annotations

import argparse
import io
import math
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from pencilbox.errors import PuzzleError
from pencilbox.genres.nonogram.fromimage import generate_from_image

SIZES = (("30x30", 1), ("50x50", 1), ("30x30", 3))
TARGETS = {("30x30", 1): 2.0, ("50x50", 1): 10.0, ("30x30", 3): 5.0}


# -- the pictures -----------------------------------------------------------------------------
def shapes() -> Image.Image:
    image = Image.new("RGB", (400, 400), "white")
    draw = ImageDraw.Draw(image)
    draw.ellipse((40, 40, 200, 200), fill="black")
    draw.rectangle((220, 60, 360, 300), fill="black")
    draw.polygon([(60, 360), (200, 230), (340, 380)], fill="black")
    draw.ellipse((250, 320, 390, 390), outline="black", width=12)
    return image


def text() -> Image.Image:
    image = Image.new("RGB", (400, 400), "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=170)
    draw.text((30, 10), "Pb", fill="black", font=font)
    draw.text((60, 200), "42", fill=(40, 40, 40), font=font)
    return image


def cat() -> Image.Image:
    image = Image.new("RGB", (400, 400), "white")
    draw = ImageDraw.Draw(image)
    draw.ellipse((100, 150, 300, 380), fill="black")
    draw.ellipse((130, 60, 270, 190), fill="black")
    draw.polygon([(135, 110), (150, 30), (190, 80)], fill="black")
    draw.polygon([(265, 110), (250, 30), (210, 80)], fill="black")
    draw.ellipse((165, 100, 185, 125), fill="white")
    draw.ellipse((215, 100, 235, 125), fill="white")
    draw.line((290, 330, 370, 250, 360, 180), fill="black", width=18)
    return image


def logo() -> Image.Image:
    image = Image.new("RGB", (400, 400), "white")
    draw = ImageDraw.Draw(image)
    draw.ellipse((20, 50, 280, 310), fill=(220, 40, 40))
    draw.rectangle((120, 130, 380, 230), fill=(30, 80, 200))
    draw.ellipse((100, 130, 200, 230), fill=(250, 210, 30))
    draw.polygon([(300, 260), (380, 380), (220, 380)], fill=(30, 80, 200))
    return image


def flag() -> Image.Image:
    image = Image.new("RGB", (450, 300), "white")
    draw = ImageDraw.Draw(image)
    for stripe in range(0, 13, 2):
        draw.rectangle((0, stripe * 300 // 13, 450, (stripe + 1) * 300 // 13), fill=(190, 30, 50))
    draw.rectangle((0, 0, 190, 162), fill=(40, 50, 120))
    for row in range(4):
        for column in range(5):
            draw.regular_polygon((20 + column * 38, 20 + row * 38, 8), 5, fill="white")
    return image


def portrait(seed: int = 2) -> Image.Image:
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:400, 0:400].astype(float)
    picture = np.stack([120 + 0.2 * x, 130 + 0.1 * y, 150 + 0 * x], -1)
    face = ((x - 200) / 110) ** 2 + ((y - 190) / 140) ** 2 < 1
    hair = (((x - 200) / 125) ** 2 + ((y - 150) / 120) ** 2 < 1) & (y < 170)
    body = ((x - 200) / 190) ** 2 + ((y - 470) / 150) ** 2 < 1
    shade = np.clip(1 - ((x - 170) ** 2 + (y - 160) ** 2) / 60000, 0.4, 1)[..., None]
    picture[body] = [60, 70, 140]
    picture[face] = (np.array([230, 190, 160]) * shade)[face]
    picture[hair] = [70, 40, 20]
    for eye_x in (160, 240):
        picture[((x - eye_x) / 18) ** 2 + ((y - 180) / 9) ** 2 < 1] = [30, 30, 30]
    picture[((x - 200) / 40) ** 2 + ((y - 260) / 10) ** 2 < 1] = [170, 60, 60]
    picture += rng.normal(0, 8, picture.shape)
    image = Image.fromarray(np.clip(picture, 0, 255).astype("uint8"))
    return image.filter(ImageFilter.GaussianBlur(1.5))


def skyline(seed: int = 4) -> Image.Image:
    rng = random.Random(seed)
    image = Image.new("RGB", (480, 320))
    draw = ImageDraw.Draw(image)
    for y in range(320):
        draw.line((0, y, 480, y), fill=(250 - y // 3, 170 - y // 4, 90 + y // 3))
    draw.ellipse((380, 30, 430, 80), fill=(255, 250, 220))
    x = 0
    while x < 480:
        width, height = rng.randint(30, 70), rng.randint(80, 260)
        draw.rectangle((x, 320 - height, x + width, 320), fill=(30, 30, 50))
        for wy in range(320 - height + 10, 310, 18):
            for wx in range(x + 6, x + width - 8, 14):
                if rng.random() < 0.5:
                    draw.rectangle((wx, wy, wx + 6, wy + 9), fill=(255, 230, 120))
        x += width + rng.randint(0, 10)
    return image.filter(ImageFilter.GaussianBlur(1))


def tree(seed: int = 5) -> Image.Image:
    rng = random.Random(seed)
    image = Image.new("RGB", (400, 400), (200, 225, 245))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 340, 400, 400), fill=(90, 140, 60))

    def branch(x: float, y: float, angle: float, length: float, width: float) -> None:
        if length < 8:
            leaf = (40 + rng.randint(0, 40), 120 + rng.randint(0, 50), 40)
            draw.ellipse((x - 9, y - 9, x + 9, y + 9), fill=leaf)
            return
        x2, y2 = x + length * math.cos(angle), y - length * math.sin(angle)
        draw.line((x, y, x2, y2), fill=(100, 70, 40), width=max(1, int(width)))
        branch(x2, y2, angle + rng.uniform(0.2, 0.6), length * 0.72, width * 0.7)
        branch(x2, y2, angle - rng.uniform(0.2, 0.6), length * 0.72, width * 0.7)

    branch(200, 350, math.pi / 2, 90, 14)
    return image.filter(ImageFilter.GaussianBlur(1))


def hills(seed: int = 1) -> Image.Image:
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:400, 0:400].astype(float)
    picture = np.stack([90 + y * 0.3, 150 + y * 0.2, 255 + 0 * x], -1)
    far = y > 260 + 40 * np.sin(x / 50.0)
    near = y > 320 + 30 * np.sin(x / 37.0 + 1)
    sun = (x - 300) ** 2 + (y - 90) ** 2 < 45**2
    picture[far] = [80, 150, 60]
    picture[near] = [40, 110, 40]
    picture[sun] = [255, 220, 60]
    picture += rng.normal(0, 7, picture.shape)
    image = Image.fromarray(np.clip(picture, 0, 255).astype("uint8"))
    return image.filter(ImageFilter.GaussianBlur(2))


PICTURES: dict[str, tuple[str, Callable[[], Image.Image]]] = {
    "shapes": ("shapes", shapes),
    "text": ("text", text),
    "cat": ("drawing", cat),
    "logo": ("logo", logo),
    "flag": ("logo", flag),
    "portrait": ("photograph", portrait),
    "skyline": ("photograph", skyline),
    "tree": ("photograph", tree),
    "hills": ("photograph", hills),
}


# -- the runs ---------------------------------------------------------------------------------
def run(picture: bytes, size: str, colours: int, grade: str | None) -> dict[str, Any]:
    started = time.perf_counter()
    try:
        made = generate_from_image(picture, size=size, colors=colours, grade=grade)
    except PuzzleError as error:
        return {"refused": str(error), "time_s": time.perf_counter() - started}
    made["time_s"] = time.perf_counter() - started
    return made


def measure(only: str | None) -> list[dict[str, Any]]:
    rows = []
    for name, (kind, draw) in PICTURES.items():
        if only and name != only:
            continue
        buffer = io.BytesIO()
        draw().save(buffer, "PNG")
        for size, colours in SIZES:
            for grade in (None, "search"):
                made = run(buffer.getvalue(), size, colours, grade)
                rows.append(
                    {
                        "name": name,
                        "kind": kind,
                        "size": size,
                        "colours": colours,
                        "asked": grade or "default",
                        **made,
                    }
                )
                print(_line(rows[-1]), file=sys.stderr, flush=True)
    return rows


def _line(row: dict[str, Any]) -> str:
    if "refused" in row:
        return f"{row['name']} {row['size']} x{row['colours']} {row['asked']}: {row['refused']}"
    return (
        f"{row['name']} {row['size']} x{row['colours']} {row['asked']}: grade {row['grade']}, "
        f"{row['changed']} changed, {row['time_s']:.2f} s"
    )


def report(rows: list[dict[str, Any]]) -> str:
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "# Nonograms from pictures",
        "",
        f"Run {now} on {platform.machine()}, Python {platform.python_version()}, 2 cores "
        "shared with other work. `pencilbox generate nonogram --from IMAGE --size S "
        "[--colors 3] [--grade search]` on pictures drawn by bench/nonogram_picture.py; one "
        "run each, time from the picture's bytes to the proved-unique puzzle. *default*: "
        "line-solvable when the change budget (6% of the cells) allows, else unique; "
        "*search*: unique with the fewest changes. Error: mean CIELAB distance per cell "
        "between the picture and the faithful grid / the puzzle.",
        "",
        "## Targets",
        "",
        "| size | colours | asked | pictures | median time | max time | target | met |",
        "|---|---:|---|---:|---:|---:|---:|---|",
    ]
    for size, colours in SIZES:
        for asked in ("default", "search"):
            key = (size, colours, asked)
            group = [r for r in rows if (r["size"], r["colours"], r["asked"]) == key]
            if not group:
                continue
            times = [r["time_s"] for r in group]
            target = TARGETS[size, colours]
            met = "yes" if max(times) < target and all("refused" not in r for r in group) else "NO"
            lines.append(
                f"| {size} | {colours} | {asked} | {len(group)} | {statistics.median(times):.2f} s"
                f" | {max(times):.2f} s | < {target:g} s | {met} |"
            )
    lines += [
        "",
        "## Every picture",
        "",
        "| picture | kind | size | colours | asked | grade | cells changed | budget | "
        "error picture / puzzle | time |",
        "|---|---|---|---:|---|---|---:|---:|---|---:|",
    ]
    for r in rows:
        if "refused" in r:
            lines.append(
                f"| {r['name']} | {r['kind']} | {r['size']} | {r['colours']} | {r['asked']} | "
                f"refused: {r['refused']} | | | | {r['time_s']:.2f} s |"
            )
            continue
        lines.append(
            f"| {r['name']} | {r['kind']} | {r['size']} | {r['colors']} | {r['asked']} | "
            f"{r['grade']} | {r['changed']} | {r['budget']} | {r['error']['picture']:.1f} / "
            f"{r['error']['puzzle']:.1f} | {r['time_s']:.2f} s |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("bench/results/nonogram_picture.md"))
    parser.add_argument("--only", choices=sorted(PICTURES), help="one picture only")
    args = parser.parse_args()
    rows = measure(args.only)
    args.out.write_text(report(rows))
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
