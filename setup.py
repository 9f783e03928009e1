"""The compiled Sudoku kernel; everything else about the package is in pyproject.toml.

The extension is optional: without a C compiler the build goes on without it and
pencilbox.genres.sudoku.solver uses its pure-Python engines.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "pencilbox.genres.sudoku._kernel",
            sources=["src/pencilbox/genres/sudoku/_kernel.c"],
            optional=True,
        )
    ]
)
