"""The fonts the digit model learns from and the fonts kept back to test it on.

All come from Debian font packages (`make fonts` installs them). The network is trained on
TRAIN fonts only; the picture corpus draws some styles in HELD_OUT fonts, so the benchmark
measures how the reader does on faces it has never seen (Roboto is Android's face, Noto the
web's fallback, the serifs newspaper-like).
"""

from __future__ import annotations

import fnmatch
import functools
from pathlib import Path

FONT_DIRS = ("/usr/share/fonts", "/usr/share/texmf/fonts/opentype")

DEBIAN_PACKAGES = [
    "fonts-dejavu-core",
    "fonts-dejavu-extra",
    "fonts-liberation",
    "fonts-liberation2",
    "fonts-freefont-ttf",
    "fonts-urw-base35",
    "fonts-open-sans",
    "fonts-lato",
    "fonts-croscore",
    "fonts-crosextra-carlito",
    "fonts-crosextra-caladea",
    "fonts-inconsolata",
    "fonts-comic-neue",
    "fonts-linuxlibertine",
    "fonts-cantarell",
    "fonts-firacode",
    "fonts-hack",
    "fonts-texgyre",
    "fonts-quicksand",
    "fonts-league-spartan",
    "fonts-jetbrains-mono",
    "fonts-go",
    "fonts-b612",
    "fonts-sil-andika",
    "fonts-paratype",
    "fonts-inter",
    "fonts-noto-core",
    "fonts-sil-gentium",
    "fonts-gfs-didot",
    "fonts-adf-accanthis",
    "fonts-agave",
    "fonts-roboto-unhinted",
]

TRAIN = (
    "Arimo-*",
    "Tinos-*",
    "Cousine-*",
    "Carlito-*",
    "Caladea-*",
    "Cantarell-*",
    "ComicNeue-*",
    "DejaVuSans*.ttf",
    "DejaVuSerif*.ttf",
    "FiraCode-*",
    "Free*.ttf",
    "Go-*.ttf",
    "Hack-*",
    "Inconsolata*",
    "Inter-*",
    "JetBrainsMono-*",
    "Lato-*",
    "LeagueSpartan-*",
    "Liberation*",
    "LinBiolinum*",
    "LinLibertine*",
    "Nimbus*",
    "C059-*",
    "P052-*",
    "URWBookman-*",
    "URWGothic-*",
    "OpenSans-*",
    "Quicksand*",
    "Andika-*",
    "B612*",
    "PT*.ttf",
    "texgyre*",
)
HELD_OUT = (
    "Roboto-*",
    "RobotoCondensed-*",
    "NotoSans-*",
    "NotoSerif-*",
    "NotoSansMono-*",
    "Gentium*",
    "GFSDidot*",
    "AccanthisADFStd-*",
    "Agave-*",
)
# Faces with no ordinary digits, or too ornate to be a puzzle's print.
EXCLUDED = ("DejaVuMathTeXGyre.ttf", "texgyre*math*", "*Hairline*")


@functools.lru_cache(maxsize=1)
def _all_files() -> tuple[Path, ...]:
    found: dict[str, Path] = {}
    for root in FONT_DIRS:
        base = Path(root)
        if base.is_dir():
            for path in sorted(base.rglob("*")):
                if path.suffix.lower() in (".ttf", ".otf") and path.name not in found:
                    found[path.name] = path
    return tuple(found.values())


@functools.cache
def draws_characters(path: Path) -> bool:
    """True when the face has its own glyph for every digit and the letters A-G (some faces
    draw them all as the same empty box, which would teach the network nothing true)."""
    from PIL import Image, ImageDraw, ImageFont

    try:
        font = ImageFont.truetype(str(path), 24)
    except OSError:
        return False
    shapes = set()
    for char in "0123456789ABCDEFG":
        image = Image.new("L", (40, 40), 0)
        ImageDraw.Draw(image).text((20, 20), char, fill=255, font=font, anchor="mm")
        shapes.add(image.tobytes())
    return len(shapes) == 17


@functools.cache
def has_oldstyle(path: Path) -> bool:
    """True when the face draws its digits otherwise with OpenType "onum" (old-style figures:
    3, 4, 5, 7, 9 below the line, 6 and 8 above it) than with "lnum" (lining figures)."""
    from PIL import Image, ImageDraw, ImageFont

    def digits(features: list[str]) -> bytes:
        font = ImageFont.truetype(str(path), 32)
        image = Image.new("L", (320, 64), 0)
        ImageDraw.Draw(image).text((4, 8), "0123456789", fill=255, font=font, features=features)
        return image.tobytes()

    return digits(["onum"]) != digits(["lnum"])


def fonts(patterns: tuple[str, ...]) -> list[Path]:
    """The installed font files whose names match one of `patterns` and that draw every
    character the recogniser names, sorted by name."""
    chosen = [
        path
        for path in _all_files()
        if any(fnmatch.fnmatch(path.name, p) for p in patterns)
        and not any(fnmatch.fnmatch(path.name.lower(), p.lower()) for p in EXCLUDED)
        and draws_characters(path)
    ]
    return sorted(chosen, key=lambda p: p.name)


def train_fonts() -> list[Path]:
    return fonts(TRAIN)


def held_out_fonts() -> list[Path]:
    return fonts(HELD_OUT)


def missing_packages() -> list[str]:
    """The Debian font packages of DEBIAN_PACKAGES that are not installed."""
    import subprocess

    missing = []
    for package in DEBIAN_PACKAGES:
        found = subprocess.run(
            ["dpkg-query", "-W", "-f=${Status}", package], capture_output=True, text=True
        )
        if "install ok installed" not in found.stdout:
            missing.append(package)
    return missing


if __name__ == "__main__":  # `python3 tools/fonts.py`: the packages to install, one a line
    print("\n".join(missing_packages()))
