"""The technique finders' hot loops in the compiled Sudoku kernel, or None without it.

`LOOPS` is the kernel module (its functions written in _kernel_logic.c, see `NAMES`) when the
extension was built with all of them, else None; the finders read it at every call and fall
back to their pure-Python loops, which give the same steps in the same order (the tests grade
with both, see `pure_python`).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

NAMES = (
    "propagate",
    "implications_all",
    "chain_scan",
    "grouped_links",
    "als_rcc",
    "als_scan",
    "sdc_pair",
    "fish_scan",
)
"""The kernel's functions that the finders call."""


def _load() -> ModuleType | None:
    try:
        from pencilbox.genres.sudoku import _kernel
    except ImportError:
        return None
    return _complete(_kernel)


def _complete(kernel: ModuleType) -> ModuleType | None:
    """The kernel if it has every function in NAMES, else None with a warning: a kernel built
    from older sources (an editable install not rebuilt after a pull) still imports, and without
    a word the finders would run many times slower."""
    missing = [name for name in NAMES if not hasattr(kernel, name)]
    if not missing:
        return kernel
    warnings.warn(
        f"the compiled Sudoku kernel lacks {', '.join(missing)} (built from older sources): "
        "the technique finders run in pure Python; rebuild it with `make setup`",
        RuntimeWarning,
        stacklevel=2,
    )
    return None


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
