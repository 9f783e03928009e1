"""The Nonogram generator's options, as the CLI and the web form offer them (see
`base.GeneratorOption`); `generate.generate` checks the values."""

from __future__ import annotations

from pencilbox.genres.base import GeneratorOption


def options() -> tuple[GeneratorOption, ...]:
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
    )
