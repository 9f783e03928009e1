"""The technique finders' hot loops in the compiled Sudoku kernel, or None without it.

`LOOPS` is the kernel module (its functions written in _kernel_logic.c) when the extension
was built with everything its stub declares, else None (core/compiled.py warns once); the
finders read it at every call and fall back to their pure-Python loops, which give the same
steps in the same order (the tests grade with both, see `pure_python`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from pencilbox.core import compiled

LOOPS = compiled.load("pencilbox.genres.sudoku._kernel")


@contextmanager
def pure_python() -> Iterator[None]:
    """Within the block the finders run their pure-Python loops (as without a C compiler)."""
    global LOOPS
    saved = LOOPS
    LOOPS = None
    try:
        yield
    finally:
        LOOPS = saved
