"""The compiled parts: the Sudoku kernel and the Double Choco propagator; everything else
about the package is in pyproject.toml.

Both extensions are optional: without a C compiler the build goes on without them, and
pencilbox.genres.sudoku.solver uses its pure-Python engines, pencilbox.genres.dbchoco.search
its lazy-clause loop.
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
            ],
            depends=["src/pencilbox/genres/sudoku/_kernel.h"],
            optional=True,
        ),
        Extension(
            "pencilbox.genres.dbchoco._propagator",
            sources=["src/pencilbox/genres/dbchoco/_propagator.c"],
            optional=True,
        ),
    ]
)
