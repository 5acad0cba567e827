"""The shape of the package: no import cycles, and imports only go down the layers.

Every import in ``src/fanfold`` is read with :mod:`ast`, at module level and inside functions
alike (an import inside a function still ties the two modules together; it only hides the tie
until the call). ``importlib.import_module("x")`` and ``__import__("x")`` with a constant name
count as imports of ``x`` too. Imports under ``if TYPE_CHECKING:`` count for the cycles (a
cycle the type checker alone sees still ties two modules together) but not for the layers;
in the packages split by job (:data:`SPLIT_PACKAGES`: the server's hub, protocol, bots and
runtime) none of the modules may import the package's root (which puts the jobs together),
and none may be longer than :data:`MAX_JOB_LINES` lines.

The layers, lowest first (see ``docs/api.md``, "The layers"):

* ``core``: the game protocol, registry, cards, records, errors, conformance checks;
* ``games``: one package per game; a game package imports only ``core`` and itself;
* ``solvers``; ``agents``; ``play``;
* the front ends (``server``, and later ``envs``, ``balance``), which may import every layer
  below them but not each other;
* ``cli``, the command line, on top: it starts every front end (``fanfold serve``).

No module outside ``games`` compares anything with a registered game's name written as a
constant: code above the games asks the game (its traits and hooks) instead.

The server's data layer is one package, ``fanfold.server.store``: no other module imports
SQLAlchemy, Alembic or a database driver, or holds SQL text (Alembic's migrations, schema
history, may); and no module of the server is longer than :data:`MAX_SERVER_LINES` lines but
those listed, with why, in :data:`LONG_SERVER_MODULES`.

``fanfold/__init__.py`` and ``fanfold/__main__.py`` are the entry points: what they import is
not checked against the layers. Only a front end or the command line may import the root
package, and nothing may import ``__main__`` (importing it runs the command line).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[1] / "src"
ROOT = "fanfold"

#: Every top-level package of ``fanfold`` and its layer; a package imports only from layers
#: below its own, or from itself. A new package must be added here.
LAYERS: dict[str, int] = {
    "core": 0,
    "games": 1,
    "solvers": 2,
    "agents": 3,
    "play": 4,
    # The front ends share a layer and must not import each other.
    "server": 5,
    "envs": 5,
    "balance": 5,
    # The command line starts every front end.
    "cli": 6,
}
FRONT_ENDS = frozenset({"server", "envs", "balance"})
#: Entry points: their own imports are not checked against the layers.
ENTRY_POINTS = frozenset({ROOT, f"{ROOT}.__main__"})

#: The packages split into one module a job (the server's hub: opening tables, seating,
#: residency, commits, endings, turns, messages...; the server's protocol: what clients send,
#: what the server pushes, the views of a table, the HTTP answers; the bots' pool: decisions,
#: pickling, worker processes, the fair pool; the process's runtime: warm-up, memory, the
#: sweeper, middleware, the life span), put together by the package's root. Their
#: ``if TYPE_CHECKING:`` imports count as imports, their modules never import the root, and
#: none is longer than MAX_JOB_LINES.
SPLIT_PACKAGES = (
    "fanfold.server.hub",
    "fanfold.server.protocol",
    "fanfold.server.bots",
    "fanfold.server.runtime",
)
MAX_JOB_LINES = 400

#: The one folder where a known import cycle may be accepted for a while: Fano's package is
#: being reorganised on its own branch, so a cycle there is listed instead of fixed here.
ALLOWED_CYCLE_FOLDER = "src/fanfold/games/fano/"
#: Import cycles accepted for now: the files of each cycle, and why. Remove an entry as soon as
#: its cycle is gone (test_allowed_cycles_are_still_cycles says when). Fano has none today, so
#: the list is empty; an entry would read
#: ``frozenset({"src/fanfold/games/fano/game.py", "src/fanfold/games/fano/x.py"}): "why"``.
ALLOWED_CYCLES: dict[frozenset[str], str] = {}


@dataclass(frozen=True)
class Import:
    """One import of a project module by another."""

    source: str
    target: str
    line: int

    def __str__(self) -> str:
        return f"{self.source} -> {self.target} ({module_path(self.source)}:{self.line})"


def module_names() -> dict[str, Path]:
    """Every module of the project by dotted name (a package by its ``__init__``)."""
    modules = {}
    for path in sorted((SOURCE / ROOT).rglob("*.py")):
        parts = list(path.relative_to(SOURCE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


MODULES = module_names()


def module_path(name: str) -> str:
    """The file of a module, relative to the repository."""
    return str(MODULES[name].relative_to(SOURCE.parent))


def _is_type_checking(test: ast.expr) -> bool:
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _import_nodes(
    node: ast.AST, *, type_checking: bool = False
) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement under ``node``, skipping ``if TYPE_CHECKING:`` bodies unless
    ``type_checking``."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child
        elif isinstance(child, ast.If) and _is_type_checking(child.test) and not type_checking:
            for other in child.orelse:
                yield from _import_nodes_of(other)
        else:
            yield from _import_nodes(child, type_checking=type_checking)


def _import_nodes_of(node: ast.stmt) -> Iterator[ast.Import | ast.ImportFrom]:
    if isinstance(node, ast.Import | ast.ImportFrom):
        yield node
    else:
        yield from _import_nodes(node)


#: The functions that import a module named by a string.
_IMPORTING_FUNCTIONS = frozenset({"import_module", "__import__"})


def _imports_by_name(tree: ast.AST) -> Iterator[tuple[str, int]]:
    """Every ``importlib.import_module("x")`` and ``__import__("x")`` under ``tree`` with a
    constant, absolute module name: the name and the line."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        first = node.args[0]
        if (
            called in _IMPORTING_FUNCTIONS
            and isinstance(first, ast.Constant)
            and isinstance(first.value, str)
            and not first.value.startswith(".")
        ):
            yield first.value, node.lineno


def _project_module(name: str) -> str | None:
    """``name`` or its nearest enclosing project module, ``None`` outside the project."""
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


def imports_of(name: str, *, type_checking: bool = False) -> list[Import]:
    """The project modules ``name`` imports. ``from package import module`` counts as an
    import of that module. ``type_checking``: the imports under ``if TYPE_CHECKING:`` too."""
    path = MODULES[name]
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in _import_nodes(tree, type_checking=type_checking):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                for alias in node.names
            ]
        for target in targets:
            module = _project_module(target)
            if module is not None and module != name:
                found.append(Import(name, module, node.lineno))
    for target, line in _imports_by_name(tree):
        module = _project_module(target)
        if module is not None and module != name:
            found.append(Import(name, module, line))
    return list(dict.fromkeys(found))


def import_graph(*, type_checking: bool = False) -> dict[str, list[Import]]:
    """Every project module and the project imports it makes (``type_checking``: those under
    ``if TYPE_CHECKING:`` too)."""
    return {name: imports_of(name, type_checking=type_checking) for name in MODULES}


def cycles(graph: dict[str, list[Import]]) -> list[list[Import]]:
    """The cycles among the modules: in every group of modules that import each other
    (directly or not), the shortest cycle through each member, each cycle once."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan's algorithm
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for edge in graph[node]:
            if edge.target not in index:
                visit(edge.target)
                low[node] = min(low[node], low[edge.target])
            elif edge.target in on_stack:
                low[node] = min(low[node], index[edge.target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    found: dict[frozenset[tuple[str, str]], list[Import]] = {}
    for group in groups:
        for member in group:
            cycle = _cycle_in(graph, set(group), member)
            found.setdefault(frozenset((edge.source, edge.target) for edge in cycle), cycle)
    return list(found.values())


def _cycle_in(graph: dict[str, list[Import]], group: set[str], start: str) -> list[Import]:
    """A shortest cycle through ``start`` inside ``group`` (breadth first)."""
    previous: dict[str, Import] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for edge in graph[node]:
                if edge.target not in group:
                    continue
                if edge.target == start:
                    path = [edge]
                    while path[0].source != start:
                        path.insert(0, previous[path[0].source])
                    return path
                if edge.target not in previous:
                    previous[edge.target] = edge
                    following.append(edge.target)
        frontier = following
    raise AssertionError(f"no cycle through {start}")  # a strongly connected group has one


def top_package(name: str) -> str:
    """The top-level package of a module below the root (``core``, ``games``, ...)."""
    return name.split(".")[1]


def game_package(name: str) -> str | None:
    """The game package a module belongs to (``fantan`` for ``fanfold.games.fantan.rules``)."""
    parts = name.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "games" else None


def layer_problem(edge: Import) -> str | None:
    """Why ``edge`` breaks the layer order, or ``None`` when it keeps it."""
    if edge.target == f"{ROOT}.__main__":
        return "nothing may import fanfold.__main__: importing it runs the command line"
    if edge.source in ENTRY_POINTS:
        return None
    source = top_package(edge.source)
    if edge.target == ROOT:
        if source in FRONT_ENDS or source == "cli":
            return None
        return (
            "only a front end or the command line may import the fanfold root package; "
            "import from core instead"
        )
    target = top_package(edge.target)
    if source not in LAYERS or target not in LAYERS:
        return None  # reported by test_every_top_level_package_has_a_layer
    if source in FRONT_ENDS and target in FRONT_ENDS and source != target:
        return f"the front ends {source} and {target} must not import each other"
    if LAYERS[target] > LAYERS[source]:
        return f"{source} (layer {LAYERS[source]}) imports {target} (layer {LAYERS[target]})"
    own_game = game_package(edge.source)
    if own_game is not None and target == "games" and game_package(edge.target) != own_game:
        if edge.target == f"{ROOT}.games":
            return "a game package must not import fanfold.games, which imports every game"
        return f"the game package {own_game} imports the game package {game_package(edge.target)}"
    return None


def test_every_top_level_package_has_a_layer() -> None:
    unknown = sorted(
        {top_package(name) for name in MODULES if name not in ENTRY_POINTS} - LAYERS.keys()
    )
    assert not unknown, (
        f"fanfold.{', fanfold.'.join(unknown)} has no layer: add it to LAYERS (and FRONT_ENDS "
        "for a front end) in tests/test_architecture.py, and to the layer order in docs/api.md"
    )


def test_there_are_no_import_cycles() -> None:
    # ``if TYPE_CHECKING:`` imports count here: a cycle that only the type checker sees still
    # ties the two modules together for every reader.
    graph = import_graph(type_checking=True)
    found = [cycle for cycle in cycles(graph) if not _allowed(cycle)]
    report = "\n\n".join("\n".join(f"  {edge}" for edge in cycle) for cycle in found)
    assert not found, (
        "import cycles (break each by moving what both sides need into a module below them; "
        f"an import inside a function does not break a cycle):\n{report}"
    )


def _files(cycle: list[Import]) -> set[str]:
    return {module_path(edge.source) for edge in cycle}


def _allowed(cycle: list[Import]) -> bool:
    return any(_files(cycle) <= allowed for allowed in ALLOWED_CYCLES)


def test_allowed_cycles_are_still_cycles_and_only_in_fano() -> None:
    found = [_files(cycle) for cycle in cycles(import_graph(type_checking=True))]
    stale = [sorted(allowed) for allowed in ALLOWED_CYCLES if not any(allowed & f for f in found)]
    assert not stale, f"remove these from ALLOWED_CYCLES, they are no longer cycles: {stale}"
    outside = [
        path
        for allowed in ALLOWED_CYCLES
        for path in sorted(allowed)
        if not path.startswith(ALLOWED_CYCLE_FOLDER)
    ]
    assert not outside, f"only cycles in {ALLOWED_CYCLE_FOLDER} may be allowed, not {outside}"


def test_the_walk_sees_the_imports_it_must_judge() -> None:
    graph = import_graph()
    targets = {name: {edge.target for edge in edges} for name, edges in graph.items()}
    assert "fanfold.games.fantan.rules" in targets["fanfold.games.fantan.game"]
    # agents.perfect imports the Morris solver inside functions only
    assert "fanfold.solvers.morris" in targets["fanfold.agents.perfect"]
    assert "fanfold" in targets["fanfold.cli.app"]  # from fanfold import __version__


def test_imports_only_go_down_the_layers() -> None:
    problems = [
        f"  {edge}: {problem}"
        for edges in import_graph().values()
        for edge in edges
        if (problem := layer_problem(edge)) is not None
    ]
    assert not problems, "imports against the layer order:\n" + "\n".join(problems)


def test_the_checks_see_function_level_imports_and_skip_type_checking_blocks() -> None:
    modules = set(MODULES)
    tree = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "import fanfold.core.game\n"
        "if TYPE_CHECKING:\n"
        "    from fanfold.play import table\n"
        "else:\n"
        "    import fanfold.core.cards\n"
        "def f() -> None:\n"
        "    from fanfold.games import fan\n"
    )
    names = sorted(
        alias.name if isinstance(node, ast.Import) else f"{node.module}.{alias.name}"
        for node in _import_nodes(tree)
        for alias in node.names
    )
    assert names == [
        "fanfold.core.cards",
        "fanfold.core.game",
        "fanfold.games.fan",
        "typing.TYPE_CHECKING",
    ]
    assert {"fanfold.core.cards", "fanfold.games.fan"} <= modules


def test_imports_by_a_constant_name_count_as_imports() -> None:
    tree = ast.parse(
        "import importlib\n"
        "from importlib import import_module\n"
        "def f() -> None:\n"
        "    importlib.import_module('fanfold.games')\n"
        "    import_module('fanfold.agents.builtin')\n"
        "    __import__('fanfold.core.cards')\n"
        "    importlib.import_module(name)\n"
        "    importlib.import_module('.relative', 'fanfold')\n"
        "    print('fanfold.play')\n"
    )
    assert list(_imports_by_name(tree)) == [
        ("fanfold.games", 4),
        ("fanfold.agents.builtin", 5),
        ("fanfold.core.cards", 6),
    ]


@pytest.mark.parametrize(
    ("source", "target", "broken"),
    [
        ("fanfold.core.game", "fanfold.games.fan", True),
        ("fanfold.games.fan.game", "fanfold.core.game", False),
        ("fanfold.games.fan.game", "fanfold.games.morris", True),
        ("fanfold.games.fan.game", "fanfold.games", True),
        ("fanfold.games.fan", "fanfold.games.fan.game", False),
        ("fanfold.games", "fanfold.games.fan", False),
        ("fanfold.solvers.fan", "fanfold.agents.base", True),
        ("fanfold.cli.app", "fanfold.play.table", False),
        ("fanfold.cli.serve", "fanfold.server.app", False),
        ("fanfold.server.app", "fanfold.cli.common", True),
        ("fanfold.server.app", "fanfold.envs", True),
        ("fanfold.cli.app", "fanfold", False),
        ("fanfold.play.table", "fanfold", True),
        ("fanfold", "fanfold.cli.app", False),
        ("fanfold.cli.app", "fanfold.__main__", True),
    ],
)
def test_the_layer_rules(source: str, target: str, broken: bool) -> None:
    assert (layer_problem(Import(source, target, 1)) is not None) == broken


def test_a_cycle_is_found_and_reported_in_order() -> None:
    def edge(source: str, target: str) -> Import:
        return Import(f"fanfold.core.{source}", f"fanfold.core.{target}", 1)

    graph = {
        "fanfold.core.a": [edge("a", "b")],
        "fanfold.core.b": [edge("b", "c"), edge("b", "d")],
        "fanfold.core.c": [edge("c", "a")],
        "fanfold.core.d": [],
    }
    (cycle,) = cycles(graph)
    assert [(link.source, link.target) for link in cycle] == [
        ("fanfold.core.a", "fanfold.core.b"),
        ("fanfold.core.b", "fanfold.core.c"),
        ("fanfold.core.c", "fanfold.core.a"),
    ]


def _game_names() -> frozenset[str]:
    """Every name a registered game answers to: id, short name and aliases."""
    from fanfold.core.registry import all_games

    return frozenset(
        name.lower() for game in all_games() for name in (game.id, game.name, *game.aliases)
    )


_COMPARISONS = (ast.Eq, ast.NotEq, ast.In, ast.NotIn)


def _constants(node: ast.expr) -> Iterator[str]:
    """The string constants of an operand: itself, or the items of a literal collection."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.Tuple | ast.List | ast.Set):
        for item in node.elts:
            yield from _constants(item)


def name_comparisons(tree: ast.AST, names: frozenset[str]) -> list[tuple[int, str]]:
    """Where ``tree`` compares something with a game's name written as a constant (``==``,
    ``!=``, ``in``, ``not in``, or a ``case`` of a ``match``): line and name."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and any(isinstance(op, _COMPARISONS) for op in node.ops):
            for operand in (node.left, *node.comparators):
                found += [(node.lineno, text) for text in _constants(operand)]
        elif isinstance(node, ast.MatchValue):
            found += [(node.lineno, text) for text in _constants(node.value)]
    return [(line, text) for line, text in found if text.strip().lower() in names]


def test_no_game_name_is_compared_above_the_games() -> None:
    names = _game_names()
    problems = [
        f"  {module_path(name)}:{line}: compares with {text!r}"
        for name, path in MODULES.items()
        if game_package(name) is None and name != f"{ROOT}.games"
        for line, text in name_comparisons(ast.parse(path.read_text(encoding="utf-8")), names)
    ]
    assert not problems, (
        "game names compared outside the games (ask the game instead: a trait in "
        "Game.traits, or a hook such as Game.longest_game or Game.played_flags):\n"
        + "\n".join(problems)
    )


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("if game.name == 'fano': pass", [(1, "fano")]),
        ("x = 'Morris' != game.name", [(1, "Morris")]),
        ("x = game.name in ('fan', 'other')", [(1, "fan")]),
        ("x = game.name not in {'fantan.v1'}", [(1, "fantan.v1")]),
        ("match game.name:\n    case 'sevens':\n        pass", [(2, "sevens")]),
        ("x = {'fan': 1}['fan']", []),
        ("x = get_game('fano')", []),
        ("x = game.name == 'chess'", []),
    ],
)
def test_the_name_check_sees_comparisons_only(source: str, found: list[tuple[int, str]]) -> None:
    assert name_comparisons(ast.parse(source), _game_names()) == found


# ----------------------------------------------------------- packages split by job


def _in_package(name: str, package: str) -> bool:
    return name == package or name.startswith(f"{package}.")


def test_the_split_packages_exist() -> None:
    for package in SPLIT_PACKAGES:
        assert package in MODULES, f"{package} is not a module of the project"
        assert MODULES[package].name == "__init__.py", f"{package} is not a package"


def test_no_cycle_goes_through_a_split_package_with_type_checking_imports_counted() -> None:
    graph = import_graph(type_checking=True)
    found = [
        cycle
        for cycle in cycles(graph)
        if any(_in_package(edge.source, p) for edge in cycle for p in SPLIT_PACKAGES)
    ]
    report = "\n\n".join("\n".join(f"  {edge}" for edge in cycle) for cycle in found)
    assert not found, (
        "import cycles through a package split by job, imports under TYPE_CHECKING counted "
        "(hand a job a typing.Protocol of what it uses instead of importing its user):\n" + report
    )


def test_no_module_of_a_split_package_imports_its_root() -> None:
    problems = [
        f"  {edge}"
        for package in SPLIT_PACKAGES
        for name in MODULES
        if _in_package(name, package) and name != package
        for edge in imports_of(name, type_checking=True)
        if edge.target == package
    ]
    assert not problems, (
        "a job of a split package imports the package's root (which puts the jobs together; "
        "hand the job what it uses instead):\n" + "\n".join(problems)
    )


def test_no_module_of_a_split_package_is_too_long() -> None:
    lengths = {
        module_path(name): len(MODULES[name].read_text(encoding="utf-8").splitlines())
        for package in SPLIT_PACKAGES
        for name in MODULES
        if _in_package(name, package)
    }
    assert len(lengths) > 1
    long = {path: lines for path, lines in lengths.items() if lines > MAX_JOB_LINES}
    assert not long, f"modules over {MAX_JOB_LINES} lines (split them by job): {long}"


def test_the_type_checking_walk_sees_type_checking_imports() -> None:
    tree = ast.parse("import typing\nif typing.TYPE_CHECKING:\n    import fanfold.server.hub\n")

    def names(nodes: Iterator[ast.Import | ast.ImportFrom]) -> list[str]:
        return [alias.name for node in nodes for alias in node.names]

    assert names(_import_nodes(tree)) == ["typing"]
    assert names(_import_nodes(tree, type_checking=True)) == ["typing", "fanfold.server.hub"]


# ----------------------------------------------------------- the data layer

#: The server's data layer: the only package of ``fanfold`` that speaks SQL (SQLAlchemy, the
#: database drivers, SQL text). Alembic's migrations are schema history and may too.
DATA_PACKAGES = ("fanfold.server.store", "fanfold.server.migrations")
#: What only the data layer imports: SQLAlchemy, Alembic and the database drivers.
DATABASE_MODULES = frozenset({"sqlalchemy", "alembic", "psycopg", "psycopg2", "sqlite3"})
#: A string that is SQL: a statement's first words, in capitals as fanfold writes SQL.
SQL_TEXT = re.compile(
    r"^\s*(SELECT\s|INSERT\s+INTO\s|UPDATE\s+\w+\s+SET\s|DELETE\s+FROM\s|"
    r"CREATE\s+(TABLE|INDEX|UNIQUE|DATABASE)\s|DROP\s+(TABLE|INDEX|DATABASE)\s|ALTER\s+TABLE\s|"
    r"WITH\s+\w+\s+AS\s*\(|LISTEN\s|UNLISTEN\s|NOTIFY\s|PRAGMA\s|SET\s+TRANSACTION\s|"
    r"TRUNCATE\s|VACUUM\b|BEGIN\b|COMMIT\b|ROLLBACK\b)"
)
#: The longest a module of the server may be, and the modules allowed longer for now, with
#: why. Remove an entry once its module is short enough (the test says when).
MAX_SERVER_LINES = 400
LONG_SERVER_MODULES: dict[str, str] = {}


def _in_data_layer(name: str) -> bool:
    return any(_in_package(name, package) for package in DATA_PACKAGES)


def database_imports(tree: ast.AST) -> list[tuple[int, str]]:
    """Where ``tree`` imports SQLAlchemy, Alembic or a database driver (at any depth, under
    ``if TYPE_CHECKING:`` too): line and module."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        else:
            continue
        found += [(node.lineno, name) for name in names if name.split(".")[0] in DATABASE_MODULES]
    found += [
        (line, name)
        for name, line in _imports_by_name(tree)
        if name.split(".")[0] in DATABASE_MODULES
    ]
    return found


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of ``tree`` (a module's, a class's, a function's)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def sql_strings(tree: ast.AST) -> list[tuple[int, str]]:
    """The strings of ``tree`` that are SQL (:data:`SQL_TEXT`; the constant parts of an
    f-string too), docstrings left out: line and the string's start."""
    docstrings = _docstrings(tree)
    return [
        (node.lineno, node.value[:40])
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
        and SQL_TEXT.match(node.value)
    ]


def _trees() -> Iterator[tuple[str, ast.AST]]:
    for name, path in MODULES.items():
        yield name, ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def test_only_the_data_layer_imports_sqlalchemy_or_a_database_driver() -> None:
    problems = [
        f"  {module_path(name)}:{line}: imports {module}"
        for name, tree in _trees()
        if not _in_data_layer(name)
        for line, module in database_imports(tree)
    ]
    assert not problems, (
        "SQL belongs to the store package (fanfold.server.store): give it a typed method "
        "there, on its subject's Protocol, and call that:\n" + "\n".join(problems)
    )


def test_only_the_data_layer_holds_sql() -> None:
    problems = [
        f"  {module_path(name)}:{line}: {text!r}"
        for name, tree in _trees()
        if not _in_data_layer(name)
        for line, text in sql_strings(tree)
    ]
    assert not problems, (
        "SQL text outside the store package (fanfold.server.store): move the statement "
        "into the store, behind a typed method:\n" + "\n".join(problems)
    )


def test_the_data_layer_checks_see_what_they_must_judge() -> None:
    assert {"fanfold.server.store", "fanfold.server.migrations"} <= set(MODULES)
    store = [name for name in MODULES if _in_package(name, "fanfold.server.store")]
    assert any(database_imports(tree) for name, tree in _trees() if name in store)
    assert any(sql_strings(tree) for name, tree in _trees() if name in store)


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("import sqlalchemy as sa", [(1, "sqlalchemy")]),
        ("from sqlalchemy.engine import Connection", [(1, "sqlalchemy.engine")]),
        ("def f():\n    import psycopg", [(2, "psycopg")]),
        (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import sqlite3",
            [(3, "sqlite3")],
        ),
        ("import importlib\nimportlib.import_module('alembic.command')", [(2, "alembic.command")]),
        ("from fanfold.server.store import Store", []),
        ("from . import sqlalchemy", []),
    ],
)
def test_the_import_check_sees_database_imports(source: str, found: list[tuple[int, str]]) -> None:
    assert database_imports(ast.parse(source)) == found


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("x = 'SELECT 1'", [(1, "SELECT 1")]),
        ("x = f'LISTEN {channel}'", [(1, "LISTEN ")]),
        (
            "x = ('WITH new AS (SELECT * FROM t) '\n     'SELECT 1')",
            [(1, "WITH new AS (SELECT * FROM t) SELECT 1")],
        ),
        (
            "x = '  INSERT INTO actions (n) VALUES (1)'",
            [(1, "  INSERT INTO actions (n) VALUES (1)")],
        ),
        ("x = 'UPDATE tables SET version = 2'", [(1, "UPDATE tables SET version = 2")]),
        ("x = 'PRAGMA foreign_keys=ON'", [(1, "PRAGMA foreign_keys=ON")]),
        ('def f():\n    """SELECT ... FOR UPDATE locks the rows."""', []),
        ("x = 'select a seat to play'", []),
        ("x = 'Selected tables update every second'", []),
        ("x = 'the LISTEN/NOTIFY channel'", []),
    ],
)
def test_the_sql_check_sees_statements_not_prose(source: str, found: list[tuple[int, str]]) -> None:
    assert sql_strings(ast.parse(source)) == found


def test_no_module_of_the_server_is_too_long() -> None:
    lengths = {
        module_path(name): len(path.read_text(encoding="utf-8").splitlines())
        for name, path in MODULES.items()
        if _in_package(name, "fanfold.server")
    }
    assert len(lengths) > 1
    long = {
        path: lines
        for path, lines in lengths.items()
        if lines > MAX_SERVER_LINES and path not in LONG_SERVER_MODULES
    }
    assert not long, f"server modules over {MAX_SERVER_LINES} lines (split them): {long}"
    short = [
        path
        for path in LONG_SERVER_MODULES
        if path not in lengths or lengths[path] <= MAX_SERVER_LINES
    ]
    assert not short, f"remove these from LONG_SERVER_MODULES, they are short now: {short}"
