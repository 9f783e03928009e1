"""The Double Choco generator's options, as the CLI and the web form offer them (see
`base.GeneratorOption`); `generate.generate` checks the values."""

from __future__ import annotations

from pencilbox.genres.base import GeneratorOption


def options() -> tuple[GeneratorOption, ...]:
    from pencilbox.genres.dbchoco.logic import GRADES

    return (
        GeneratorOption("size", "size", "WxH or N (2 to 30 a side, an even area)", "10x10"),
        GeneratorOption(
            "seed", "whole", "the same seed makes the same puzzle (random if not given)"
        ),
        GeneratorOption(
            "grade", "choice", "the level of the hardest technique it needs", choices=GRADES
        ),
        GeneratorOption("width", "whole", "instead of --size", minimum=2, maximum=30),
        GeneratorOption("height", "whole", "instead of --size", minimum=2, maximum=30),
        GeneratorOption("attempts", "whole", "seeds tried in search of the grade", 20, minimum=1),
        GeneratorOption(
            "max_block", "whole", "the largest block, in cells (both halves)", 16, minimum=2
        ),
    )
