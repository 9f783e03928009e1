"""The compiled parts (C extensions that setup.py builds) and what happens without them.

Each extension has a type stub beside its C source (`_kernel.pyi`, ...) that says what the
Python side calls. `load` imports an extension and checks it against its stub: a module built
from older sources (an editable checkout pulled but not rebuilt) still imports, and without a
word the genre would run its pure-Python fallback, several times slower. So a missing module or
a missing function is warned about once, naming `make setup`, and recorded: `fallbacks()` tells
tests and `pencilbox --version`-style reports which compiled parts are not in use.
"""

from __future__ import annotations

import ast
import importlib
import warnings
from importlib import resources
from types import ModuleType

_FALLBACKS: dict[str, str] = {}
"""module name -> why its pure-Python fallback runs"""


def expected(module: str) -> tuple[str, ...]:
    """What the stub of `module` declares: its functions and classes, and each class's methods
    as `Class.method`. Empty when the package carries no stub for it."""
    package, _, name = module.rpartition(".")
    try:
        text = resources.files(package).joinpath(f"{name}.pyi").read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError):
        return ()
    names: list[str] = []
    for node in ast.parse(text).body:
        if isinstance(node, ast.FunctionDef):
            names.append(node.name)
        elif isinstance(node, ast.ClassDef):
            names.append(node.name)
            names += [
                f"{node.name}.{item.name}"
                for item in node.body
                if isinstance(item, ast.FunctionDef) and not item.name.startswith("__")
            ]
    return tuple(names)


def missing(built: ModuleType, names: tuple[str, ...]) -> list[str]:
    """The names (`function` or `Class.method`) that the built module lacks."""
    absent = []
    for name in names:
        owner: object = built
        for part in name.split("."):
            if not hasattr(owner, part):
                absent.append(name)
                break
            owner = getattr(owner, part)
    return absent


def load(module: str) -> ModuleType | None:
    """The compiled `module` when it is built and has everything its stub declares, else None
    (the caller runs its pure-Python fallback), warned about once."""
    try:
        built = importlib.import_module(module)
    except ImportError:
        _fall_back(module, "is not built (no C compiler at install, or not installed)")
        return None
    absent = missing(built, expected(module))
    if absent:
        _fall_back(module, f"lacks {', '.join(absent)} (built from older sources)")
        return None
    return built


def _fall_back(module: str, why: str) -> None:
    if module in _FALLBACKS:
        return
    _FALLBACKS[module] = why
    # Said as pencilbox's own (no source line of ours quoted): it is about the install.
    warnings.warn_explicit(
        f"the compiled part {module} {why}: pencilbox runs its pure-Python code instead, "
        "several times slower; rebuild it with `make setup` (or reinstall pencilbox)",
        RuntimeWarning,
        filename="pencilbox",
        lineno=0,
    )


def fallbacks() -> dict[str, str]:
    """The compiled parts that are not in use, with the reason, as loaded so far."""
    return dict(_FALLBACKS)
