"""Each genre's generator options (`Genre.options`): the schema the CLI and the web form are
built from matches what the generator takes."""

from __future__ import annotations

import inspect
import json

import pytest

import pencilbox  # noqa: F401  (registers the genres)
from pencilbox import cli
from pencilbox.genres import base

MAKERS = [genre for genre in base.all_genres() if genre.generate is not None]


def generator_of(genre: base.Genre) -> object:
    module = __import__(f"pencilbox.genres.{genre.name}.generate", fromlist=["generate"])
    return module.generate


@pytest.mark.parametrize("genre", MAKERS, ids=lambda g: g.name)
def test_the_schema_lists_the_generators_keywords(genre: base.Genre) -> None:
    parameters = inspect.signature(generator_of(genre)).parameters  # type: ignore[arg-type]
    taken = {
        name
        for name, p in parameters.items()
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and name != "grader"
    }
    options = genre.options()
    assert [o.name for o in options] and {o.name for o in options} == taken
    for option in options:
        assert option.help and option.kind in (
            "whole",
            "number",
            "text",
            "choice",
            "size",
            "file",
        )
        assert (option.kind == "choice") == bool(option.choices), option
        if option.default is not None and parameters[option.name].default is not None:
            assert str(option.default) == str(parameters[option.name].default), option


def test_choices_are_the_genres_own_names() -> None:
    from pencilbox.genres.nonogram.solve import GRADES
    from pencilbox.genres.sudoku.generate import SYMMETRIES

    by_name = {g.name: {o.name: o for o in g.options()} for g in MAKERS}
    assert by_name["nonogram"]["grade"].choices == GRADES
    assert by_name["sudoku"]["symmetry"].choices == SYMMETRIES
    assert by_name["sudoku"]["size"].choices == ("4", "9", "16", "25")


def test_describe_and_json() -> None:
    option = base.GeneratorOption("max_attempts", "whole", "tries", 200, minimum=1)
    assert option.flag == "--max-attempts"
    assert option.describe() == "--max-attempts WHOLE, 1.., default 200: tries"
    assert json.loads(json.dumps(option.to_json()))["minimum"] == 1


@pytest.mark.parametrize("genre", MAKERS, ids=lambda g: g.name)
def test_generate_help_lists_the_schema(
    genre: base.Genre, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["generate", genre.name, "--help"]) == 0
    shown = capsys.readouterr().out
    for option in genre.options():
        assert f"  {option.flag} " in shown
    assert "--json" in shown
