"""The Nonogram generator's options, as the CLI and the web form offer them (see
`base.GeneratorOption`); `generate.generate` checks the values."""

from __future__ import annotations

from pencilbox.genres.base import GeneratorOption


def options() -> tuple[GeneratorOption, ...]:
    from pencilbox.genres.nonogram.fromimage import MAX_COLOURS
    from pencilbox.genres.nonogram.fromimage.pixels import DITHERS, PALETTES
    from pencilbox.genres.nonogram.generate import ATTEMPTS, MAX_SIDE, MIN_SIDE
    from pencilbox.genres.nonogram.solve import GRADES

    return (
        GeneratorOption("size", "size", "WxH (like 15x10) or N for a square", "10x10"),
        GeneratorOption(
            "seed", "whole", "the same seed makes the same puzzle (random if not given)"
        ),
        GeneratorOption("grade", "choice", "the hardest step it may need", choices=GRADES),
        GeneratorOption(
            "density", "number", "the share of filled cells", 0.5, minimum=0.0, maximum=1.0
        ),
        GeneratorOption("width", "whole", "instead of --size", minimum=MIN_SIDE, maximum=MAX_SIDE),
        GeneratorOption("height", "whole", "instead of --size", minimum=MIN_SIDE, maximum=MAX_SIDE),
        GeneratorOption(
            "attempts", "whole", "seeds tried in search of the grade", ATTEMPTS, minimum=1
        ),
        GeneratorOption(
            "from_",
            "file",
            "make it from this picture (PNG, JPEG, WebP, GIF, BMP): --size N is then the "
            "longer side (default 20), --grade the hardest allowed (default line if few "
            "changes do it, else unique)",
        ),
        GeneratorOption(
            "colors",
            "whole",
            "with --from: inks besides the background (1 = black-and-white)",
            1,
            minimum=1,
            maximum=MAX_COLOURS,
        ),
        GeneratorOption(
            "threshold", "text", "with --from, black-and-white: otsu, adaptive or 0-255", "otsu"
        ),
        GeneratorOption("dither", "choice", "with --from: dithering", "none", choices=DITHERS),
        GeneratorOption(
            "palette", "choice", "with --from: how colours are chosen", "kmeans", choices=PALETTES
        ),
        GeneratorOption(
            "max_changes",
            "whole",
            "with --from: most cells changed to make it unique (default 6% of the cells)",
            minimum=0,
        ),
    )
