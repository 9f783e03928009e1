"""The shape of the code (README, "Architecture"): imports point downward with no circle, the
front ends and the mid-end name no genre, and functions stay short."""

from __future__ import annotations

import ast
import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "pencilbox"
GENRE_NAMES = re.compile(r"nonogram|sudoku|dbchoco|double choco", re.IGNORECASE)
FRONT_ENDS = [
    "__init__.py",
    "session.py",
    "store.py",
    "cli.py",
    *(f"web/static/{p.name}" for p in (SRC / "web" / "static").iterdir()),
    *(p.relative_to(SRC).as_posix() for p in (SRC / "web").rglob("*.py")),
]
LONGEST = 80


def modules() -> dict[str, Path]:
    """Every module of src/pencilbox by dotted name: the Python ones, and the compiled ones
    (a C source beside a `.pyi` stub), which import nothing of ours."""
    found = {}
    for stub in SRC.rglob("*.pyi"):
        if stub.with_suffix(".c").is_file():
            found[".".join(stub.relative_to(SRC.parent).with_suffix("").parts)] = stub
    for path in SRC.rglob("*.py"):
        parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imported(tree: ast.Module, module: str, is_package: bool, known: set[str]) -> set[str]:
    """The modules of `known` that this module imports, at its top or inside a function (a
    function-level import is still a dependency); `if TYPE_CHECKING` blocks do not count."""
    package = module if is_package else module.rpartition(".")[0]
    skip = {
        id(node)
        for block in ast.walk(tree)
        if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test)
        for node in ast.walk(block)
    }
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parents = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parents, base] if base else parents)
            subs = {f"{base}.{alias.name}" for alias in node.names} & known
            found |= subs or {base}
    return (found & known) - {module}


def import_graph() -> dict[str, set[str]]:
    paths = modules()
    return {
        name: imported(ast.parse(path.read_text()), name, path.name == "__init__.py", set(paths))
        if path.suffix == ".py"
        else set()
        for name, path in paths.items()
    }


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_circle_finder_finds_circles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]


def is_genre(name: str) -> bool:
    return bool(name) and (SRC / "genres" / name).is_dir()


def test_layers_point_downward() -> None:
    """core imports no genre and no front end; a genre imports no other genre, no session and
    no front end; the session imports no front end."""
    graph = import_graph()
    for module, targets in graph.items():
        parts = [*module.split("."), ""]
        for target in targets:
            where = [*target.split("."), ""]
            if parts[1] == "core":
                assert where[1] in ("core", "errors"), f"{module} imports {target}"
            if parts[1] == where[1] == "genres" and is_genre(parts[2]) and is_genre(where[2]):
                assert where[2] == parts[2], f"{module} imports another genre: {target}"
            if parts[1] == "genres":
                assert where[1] not in ("session", "cli", "web", "store"), f"{module} -> {target}"
            if parts[1] == "session":
                assert where[1] not in ("cli", "web", "store"), f"{module} imports {target}"


def test_no_import_circle_at_import_time() -> None:
    """What Python runs on `import`: module-level imports only."""
    paths = modules()
    graph = {}
    for name, path in paths.items():
        if path.suffix != ".py":
            graph[name] = set()
            continue
        tree = ast.parse(path.read_text())
        top = ast.Module(
            body=[n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom | ast.If)],
            type_ignores=[],
        )
        graph[name] = imported(top, name, path.name == "__init__.py", set(paths))
    assert circles(graph) == []


def test_no_import_circle_counting_imports_inside_functions() -> None:
    """A function-level import is still a dependency: a puzzle class calls its engines
    through imports inside its methods, so the engines know it only as a type (under
    TYPE_CHECKING) and take their values from a module below it (dbchoco/board.py,
    nonogram/cells.py), and its notations, which build puzzles, are reached through the
    genre (`base.write`)."""
    assert circles(import_graph()) == []


def test_front_ends_and_the_mid_end_name_no_genre() -> None:
    for name in FRONT_ENDS:
        path = SRC / name
        mentions = GENRE_NAMES.findall(path.read_text())
        assert not mentions, f"{path.relative_to(SRC)} names genres: {mentions}"


def test_genre_pages_live_in_their_packages() -> None:
    import pencilbox  # noqa: F401  (registers the genres)
    from pencilbox.genres import base

    for genre in base.all_genres():
        if genre.page is not None:
            assert genre.page.is_relative_to(SRC / "genres" / genre.name), genre.page
            assert (genre.page / f"{genre.name}.html").is_file()


def function_lengths() -> dict[str, int]:
    lengths = {}
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                key = f"{path.relative_to(SRC).as_posix()}:{node.name}"
                lengths[key] = max(lengths.get(key, 0), (node.end_lineno or 0) - node.lineno + 1)
    return lengths


def test_no_function_over_80_lines() -> None:
    """Anywhere in src/, genre logic included (the long technique finders were split where
    the split names an idea: Uniqueness Test 5, Test 6, Hidden Rectangle...)."""
    too_long = {key: lines for key, lines in function_lengths().items() if lines > LONGEST}
    assert not too_long, f"functions over {LONGEST} lines: {too_long}"


def test_the_web_app_is_built_from_routers_by_resource() -> None:
    """web/app.py only assembles the app: every route lives in a router of web/routes/ (one
    module per resource) or web/picture_review.py, and create_app stays short."""
    app_py = ast.parse((SRC / "web" / "app.py").read_text())
    verbs = {"get", "post", "put", "patch", "delete", "api_route", "websocket"}
    routes = [
        node.name
        for node in ast.walk(app_py)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        for decorator in node.decorator_list
        if isinstance(decorator, ast.Call)
        and isinstance(decorator.func, ast.Attribute)
        and decorator.func.attr in verbs
    ]
    assert routes == [], f"routes nested in web/app.py: {routes}"
    assert function_lengths()["web/app.py:create_app"] <= 50
    routers = {p.stem for p in (SRC / "web" / "routes").glob("*.py")} - {"__init__"}
    assert {"pages", "health", "puzzles", "steps", "jobs", "games"} <= routers
    graph = import_graph()
    for name in routers:  # a router imports no other router
        module = f"pencilbox.web.routes.{name}"
        assert not {t for t in graph[module] if t.startswith("pencilbox.web.routes")}, module


def test_the_readme_lists_the_files_a_genre_adds() -> None:
    """README, "Architecture": the files a new genre adds are the parts every genre package
    has, and nothing outside its package."""
    readme = (SRC.parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Architecture", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"^genres/<name>/(\S+)", section, re.MULTILINE)
    assert {"__init__.py", "model.py", "formats/", "play.py", "options.py"} <= set(listed)
    for genre in sorted(p for p in (SRC / "genres").iterdir() if (p / "__init__.py").is_file()):
        for part in listed:
            assert (genre / part).exists(), f"{genre.name} has no {part}"
