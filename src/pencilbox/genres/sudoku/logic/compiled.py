"""The technique finders' hot loops in the compiled Sudoku kernel, or None without it.

`LOOPS` is the kernel module (its `propagate`, `implications_all` and `chain_scan`, written in
_kernel_logic.c) when the extension was built, else None; the finders read it at every call
and fall back to their pure-Python loops, which give the same steps in the same order (the
tests grade with both, see `pure_python`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType


def _load() -> ModuleType | None:
    try:
        from pencilbox.genres.sudoku import _kernel
    except ImportError:
        return None
    if not hasattr(_kernel, "chain_scan"):  # an extension built before these loops existed
        return None
    return _kernel


LOOPS = _load()


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
