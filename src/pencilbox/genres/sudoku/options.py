"""The Sudoku generator's options, as the CLI and the web form offer them (see
`base.GeneratorOption`); `generate.generate` checks the values."""

from __future__ import annotations

from pencilbox.genres.base import GeneratorOption


def options() -> tuple[GeneratorOption, ...]:
    from pencilbox.genres.sudoku.generate import MAX_ATTEMPTS, SYMMETRIES
    from pencilbox.genres.sudoku.logic.techniques import LEVELS
    from pencilbox.genres.sudoku.model import SIZES

    sizes = tuple(str(n) for n in SIZES.values())
    return (
        GeneratorOption("size", "choice", "the board's side", 9, choices=sizes),
        GeneratorOption("symmetry", "choice", "how the givens mirror", "none", SYMMETRIES),
        GeneratorOption(
            "seed", "whole", "the same seed makes the same puzzle (random when not given)"
        ),
        GeneratorOption("grade", "choice", "the HoDoKu level to reach", choices=tuple(LEVELS)),
        GeneratorOption("alphabet", "text", "the symbols to write it with, e.g. 0123456789ABCDEF"),
        GeneratorOption(
            "max_attempts", "whole", "puzzles made in search of the grade", MAX_ATTEMPTS, minimum=1
        ),
    )
