"""Helper for the tests of the benchmark scripts: bench/ is no package, so a script is loaded
from its file, once a test module."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load_bench(script: str) -> ModuleType:
    """bench/<script>.py as the module bench_<script>."""
    name = f"bench_{script}"
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{script}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
