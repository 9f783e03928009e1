"""The compiled parts are checked against their stubs: a stale or missing build is warned about
once and is a visible fact (core/compiled.py)."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path
from types import ModuleType

import pytest

from pencilbox.core import compiled

EXTENSIONS = (
    "pencilbox.genres.sudoku._kernel",
    "pencilbox.genres.dbchoco._propagator",
    "pencilbox.genres.nonogram._engine",
)


@pytest.fixture
def fresh_record(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled, "_FALLBACKS", {})


@pytest.mark.parametrize("module", EXTENSIONS)
def test_this_checkout_runs_every_compiled_part_it_declares(module: str) -> None:
    """Fails on a build older than its sources: run `make setup` (the suite would otherwise
    test the pure-Python fallbacks and report nothing)."""
    import pencilbox.genres.dbchoco.search
    import pencilbox.genres.nonogram.line
    import pencilbox.genres.sudoku.solver  # noqa: F401  (each loads its compiled part)

    assert module not in compiled.fallbacks()
    declared = compiled.expected(module)
    assert len(declared) >= 3
    assert compiled.missing(__import__(module, fromlist=["_"]), declared) == []


def test_the_stubs_declare_functions_and_methods() -> None:
    assert {"solve", "solve_batch", "propagate"} <= set(
        compiled.expected("pencilbox.genres.sudoku._kernel")
    )
    assert {"Propagator", "Propagator.propagate", "Propagator.found"} <= set(
        compiled.expected("pencilbox.genres.dbchoco._propagator")
    )


def test_a_module_built_from_older_sources_is_set_aside_once_with_a_warning(
    fresh_record: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = "pencilbox.genres.sudoku._kernel"
    stale = ModuleType(name)
    declared = compiled.expected(name)
    for function in declared[:-1]:
        setattr(stale, function, print)
    monkeypatch.setitem(sys.modules, name, stale)
    with pytest.warns(RuntimeWarning, match=rf"lacks {declared[-1]} .*make setup"):
        assert compiled.load(name) is None
    assert "older sources" in compiled.fallbacks()[name]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the second time: no word
        assert compiled.load(name) is None


def test_a_class_lacking_a_method_counts_as_stale(
    fresh_record: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = "pencilbox.genres.dbchoco._propagator"
    stale = ModuleType(name)
    stale.Propagator = type("Propagator", (), {"propagate": print})  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, name, stale)
    with pytest.warns(RuntimeWarning, match=r"lacks Propagator\.on_assignment"):
        assert compiled.load(name) is None


def test_a_complete_module_is_taken_without_a_word(
    fresh_record: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = "pencilbox.genres.sudoku._kernel"
    whole = ModuleType(name)
    for function in compiled.expected(name):
        setattr(whole, function, print)
    monkeypatch.setitem(sys.modules, name, whole)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert compiled.load(name) is whole
    assert compiled.fallbacks() == {}


def test_a_missing_build_is_said_on_the_command_line_and_the_answer_still_comes(
    tmp_path: Path,
) -> None:
    """As a user meets it: a checkout whose kernel is not built still solves, and says why it is
    slow, once."""
    path = tmp_path / "hard.txt"
    path.write_text(
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n"
    )
    code = (
        "import sys; sys.modules['pencilbox.genres.sudoku._kernel'] = None\n"
        "from pencilbox.cli import main\n"
        f"sys.exit(main(['solve', {str(path)!r}, '--jsonl']))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert '"status": "unique"' in run.stdout, run.stderr
    assert run.stderr.count("make setup") == 1
    assert "pencilbox.genres.sudoku._kernel is not built" in run.stderr
