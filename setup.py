"""The compiled parts: the Sudoku kernel, the Double Choco propagator and the nonogram engine
(line solving, propagation and probing); everything else about the package is in pyproject.toml.

The extensions are optional: without a C compiler the build goes on without them, and
pencilbox.genres.sudoku.solver uses its pure-Python engines, pencilbox.genres.dbchoco.search
its lazy-clause loop, pencilbox.genres.nonogram.logic its bit-set line solver and loops.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "pencilbox.genres.sudoku._kernel",
            sources=[
                "src/pencilbox/genres/sudoku/_kernel.c",
                "src/pencilbox/genres/sudoku/_kernel_grid.c",
                "src/pencilbox/genres/sudoku/_kernel_bands.c",
                "src/pencilbox/genres/sudoku/_kernel_logic.c",
            ],
            depends=["src/pencilbox/genres/sudoku/_kernel.h"],
            optional=True,
        ),
        Extension(
            "pencilbox.genres.dbchoco._propagator",
            sources=["src/pencilbox/genres/dbchoco/_propagator.c"],
            optional=True,
        ),
        Extension(
            "pencilbox.genres.nonogram._engine",
            sources=["src/pencilbox/genres/nonogram/_engine.c"],
            optional=True,
        ),
    ]
)
