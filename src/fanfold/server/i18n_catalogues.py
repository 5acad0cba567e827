"""The message catalogues' upkeep, for whoever adds a word to a page (``docs/i18n.md``)::

    python -m fanfold.server.i18n_catalogues extract   # the templates, from the sources
    python -m fanfold.server.i18n_catalogues update    # each language's .po, from the template

:func:`extract` reads every message of the sources: ``_()``, ``gettext()``, ``ngettext()`` and
``{% trans %}`` in the templates, ``t("...")`` in the page scripts, ``gettext()`` in the Python
modules of :data:`PYTHON` (the pages' titles) and of :data:`TERMINAL` (``fanfold play``), and
the refusals' templates by code (:class:`fanfold.core.errors.Refusal`). :func:`update` merges
the template into each language's catalogue: new messages come in untranslated, messages no
longer used are dropped, translations are kept. The rules, the How-to-play pages' text and the
lessons have a template of their own, ``locales/content.pot`` (:func:`content`), not merged
into any language yet. The tests check that both templates are the sources' and that every
language translates every message of the interface's (``tests/server/test_i18n.py``).
"""

from __future__ import annotations

import ast
import inspect
import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

from fanfold.core.errors import TEMPLATES, WORDS
from fanfold.core.phrases import PHRASES
from fanfold.core.phrases import TERMINAL as TERMINAL_CODES
from fanfold.server.content_catalogue import CONTENT, extract_content
from fanfold.server.i18n import (
    ENGLISH,
    GAME_WORDS,
    LANGUAGES,
    PHRASE,
    REFUSAL,
    TEMPLATE,
    TERMINAL_PHRASE,
    po_path,
)

#: The server package: message locations are relative to it.
PACKAGE = Path(__file__).resolve().parent
#: The Python modules that translate words of their own (the titles of the listing pages, the
#: daily board's aids, the pages of what is not there).
PYTHON = ("routes/players.py", "routes/daily.py", "routes/moderation.py", "not_found.py")
#: The terminal's modules (``fanfold play``), which speak the catalogues' languages too: paths
#: relative to the ``fanfold`` package, and so are their places in the catalogues.
TERMINAL = (
    "cli/app.py",
    "cli/arena.py",
    "cli/backup.py",
    "cli/balance.py",
    "cli/check_config.py",
    "cli/common.py",
    "cli/deploy.py",
    "cli/deploy_backup.py",
    "cli/deploy_group.py",
    "cli/deploy_logs.py",
    "cli/deploy_monitoring.py",
    "cli/deploy_systemd.py",
    "cli/help_words.py",
    "cli/keys.py",
    "cli/moderate.py",
    "cli/restart.py",
    "cli/review.py",
    "cli/serve.py",
    "cli/solve_fan.py",
    "cli/solve_morris.py",
    "cli/terminal.py",
    "cli/usage_words.py",
)
#: A fixed date in the files' headers, so that extracting again changes nothing unless a
#: message changed.
DATE = datetime(2026, 11, 29, tzinfo=UTC)

_JINJA = "jinja2.ext:babel_extract"
Keywords = dict[str, tuple[int, ...] | None]
#: ``N_("...")`` marks a command's help text (:mod:`fanfold.cli.help_words`), ``Said("...")``
#: a command's own sentence (:class:`fanfold.cli.common.Said`).
_KEYWORDS: Keywords = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None, "Said": None}


def _sources() -> list[tuple[str, str, Keywords]]:
    """Every file to read: its path (relative to the package), the extraction method, its
    keywords."""
    found: list[tuple[str, str, Keywords]] = []
    templates = PACKAGE / "templates"
    for path in sorted([*templates.glob("*.html"), *templates.glob("*.svg")]):
        found.append((f"templates/{path.name}", _JINJA, _KEYWORDS))
    static = PACKAGE / "static"
    for path in sorted([*static.glob("*.js"), *static.glob("games/*.js")]):
        found.append((path.relative_to(PACKAGE).as_posix(), "javascript", {"t": None}))
    for name in PYTHON:
        found.append((name, "python", _KEYWORDS))
    for name in TERMINAL:
        found.append((name, "python", _KEYWORDS))
    return found


def _path(name: str) -> Path:
    """The file of a place in the catalogues: the terminal's in the ``fanfold`` package, the
    rest in the server's."""
    return PACKAGE.parent / name if name in TERMINAL else PACKAGE / name


def _refusals(catalog: Catalog) -> None:
    """Every refusal's template (the games', the tables', the server's; registered as their
    modules are imported), at the place ``refusal/CODE``, every phrase's (the games' words for
    moves, endings and seats) at ``said/CODE``, and the words refusals carry as
    parameters at ``refusal/word``: the page words a refusal from its code (``docs/i18n.md``)."""
    import fanfold.agents.base  # an agent's refusals, its settings' checks too
    import fanfold.agents.strategy.compiled  # the compile's progress, said at the terminal
    import fanfold.core.kinds  # an action kind's name refused
    import fanfold.core.lab_refusals  # the arena's, the balance lab's, the environments'
    import fanfold.play.analysis  # the analyses' answers
    import fanfold.play.assistance  # the engine-assistance check's verdicts (moderate)
    import fanfold.play.refusals
    import fanfold.play.review_cards  # the engines' review's sentences (and review's)
    import fanfold.server.refusals
    import fanfold.server.review_answers  # the review page's progress while it waits
    import fanfold.server.signing_keys  # a key file's refusals
    import fanfold.server.store.engine  # a store that cannot be opened
    import fanfold.server.waiting  # (the tables' and the server's templates, words)
    import fanfold.solvers.morris  # noqa: F401  (the Morris solver's progress, at the terminal)
    from fanfold.core.registry import all_games

    all_games()  # every game's rules, and so its refusals
    for code, template in sorted(TEMPLATES.items()):
        catalog.add(template, locations=[(f"{REFUSAL}{code}", 0)])
    # the games' words for moves, endings and seats (fanfold.core.phrases), the same way
    for code, template in sorted(PHRASES.items()):
        place = TERMINAL_PHRASE if code in TERMINAL_CODES else PHRASE  # the terminal's own
        catalog.add(template, locations=[(f"{place}{code}", 0)])
    for word in sorted(WORDS):
        catalog.add(word, locations=[(f"{REFUSAL}word", 0)])


def _agents(catalog: Catalog) -> None:
    """The built-in agents' one-line descriptions (``fanfold games``, ``fanfold play --help``),
    each at the place ``agents/NAME``; an agent a plugin adds keeps its own words."""
    from fanfold.agents.builtin import BUILTIN_AGENTS

    for agent in BUILTIN_AGENTS:
        catalog.add(agent.description, locations=[(f"agents/{agent.name}", 0)])


def _games(catalog: Catalog) -> None:
    """The words fanfold's own games' plugins give the site: each lobby card's words, at the
    place ``game/NAME/blurb`` (the lobby's script words them), and each leaderboard's name
    (``fanfold.server.leaderboards.FAMILIES``: a rating family's, live and daily), at
    ``game/leaderboards``; a game from another package keeps its own words."""
    from fanfold.core.registry import all_plugins
    from fanfold.server.leaderboards import FAMILIES

    for plugin in all_plugins():
        if type(plugin.game).__module__.startswith("fanfold.") and plugin.web.blurb:
            catalog.add(plugin.web.blurb, locations=[(f"{GAME_WORDS}{plugin.name}/blurb", 0)])
    for name in FAMILIES.values():
        catalog.add(name, locations=[(f"{GAME_WORDS}leaderboards", 0)])


def _text(node: ast.expr, constants: dict[str, str]) -> str | None:
    """A help given as text: a string, ``N_("...")``, or an f-string whose every part is a
    string or a named text constant of the command modules (``{DB_URL_VARIABLE}``)."""
    if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "N_" and node.args:
        node = node.args[0]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts = []
        for part in node.values:
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                parts.append(part.value)
            elif isinstance(part, ast.FormattedValue) and isinstance(part.value, ast.Name):
                if part.value.id not in constants or part.format_spec or part.conversion > 0:
                    return None
                parts.append(constants[part.value.id])
            else:
                return None
        return "".join(parts)
    return None


@dataclass
class _Helps:
    """What the command modules' sources say of their help (:func:`_read_helps`)."""

    #: Each help text given as ``help=``, and the docstring of each decorated command, by place.
    texts: list[tuple[str, str]] = field(default_factory=list)
    #: The docstrings of the modules' undecorated functions, by name and place.
    docstrings: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: The functions ``app.command()(module.function)`` makes commands.
    registered: set[str] = field(default_factory=set)


def _read_helps(trees: dict[str, ast.Module]) -> _Helps:
    """The command modules' help texts, read from their sources (``trees``, by place): every
    ``help=`` given as text (:func:`_text`) and the docstring of every function made a command
    (decorated with ``.command()`` or ``.callback()`` without a ``help=``, or registered as
    ``app.command()(module.function)``), cleaned as typer cleans them."""
    constants = {
        target.id: node.value.value
        for tree in trees.values()
        for node in tree.body
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    found = _Helps()
    for place, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.keyword) and node.arg == "help":
                text = _text(node.value, constants)
                if text is not None:
                    found.texts.append((inspect.cleandoc(text), place))
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Call)
                and node.args
                and getattr(node.func.func, "attr", "") in ("command", "callback")
            ):
                function = node.args[0]
                found.registered.add(getattr(function, "attr", getattr(function, "id", "")))
            if not isinstance(node, ast.FunctionDef):
                continue
            docstring = ast.get_docstring(node, clean=True)
            if not docstring:
                continue
            if not node.decorator_list:
                found.docstrings[node.name] = (docstring, place)
            if any(
                isinstance(made, ast.Call)
                and getattr(made.func, "attr", "") in ("command", "callback")
                and not any(keyword.arg == "help" for keyword in made.keywords)
                for made in node.decorator_list
            ):
                found.texts.append((docstring, place))
    return found


def _helps(catalog: Catalog) -> None:
    """Every ``fanfold`` command's help and its options' (``fanfold deploy haproxy --help
    --lang fr``), at the place ``cli/MODULE.py``: read from the command modules' sources
    (:func:`_read_helps`), the frame's words among them (:mod:`fanfold.cli.help_words`)."""
    folder = PACKAGE.parent / "cli"
    trees = {
        f"cli/{path.name}": ast.parse(path.read_text(encoding="utf-8"), str(path))
        for path in sorted(folder.glob("*.py"))
    }
    found = _read_helps(trees)
    for text, place in found.texts:
        catalog.add(text, locations=[(place, 0)])
    for name in sorted(found.registered & set(found.docstrings)):
        text, place = found.docstrings[name]
        catalog.add(text, locations=[(place, 0)])


def extract() -> Catalog:
    """The English messages of the sources, each with the places it is used."""
    catalog = Catalog(project="fanfold", creation_date=DATE, revision_date=DATE, fuzzy=False)
    _refusals(catalog)
    _agents(catalog)
    _games(catalog)
    _helps(catalog)
    options = {"extensions": "jinja2.ext.i18n", "trimmed": "true"}
    for name, method, keywords in _sources():
        for line, message, _comments, _context in extract_from_file(
            method,
            str(_path(name)),
            keywords=keywords,
            options=options,
        ):
            catalog.add(message, locations=[(name, line)])
    return catalog


def _write(catalog: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as out:
        # the files a message is in, not its lines: moving a line changes no catalogue
        write_po(out, catalog, width=100, sort_output=True, include_lineno=False)


def content() -> Catalog:
    """The long texts' messages (:mod:`fanfold.server.content_catalogue`): the rules, the
    How-to-play pages' text and the lessons, a catalogue of their own, not translated yet."""
    return extract_content(DATE)


def update() -> list[str]:
    """Writes the templates (the interface's and the long texts') and merges the interface's
    into each language's catalogue; the messages each language still lacks, as
    ``code: message`` lines."""
    template = extract()
    _write(template, TEMPLATE)
    _write(content(), CONTENT)
    missing = []
    for code in LANGUAGES:
        if code == ENGLISH:
            continue
        path = po_path(code)
        if path.exists():
            with path.open("rb") as source:
                catalog = read_po(source, locale=code)
        else:
            catalog = Catalog(locale=code, project="fanfold", creation_date=DATE)
        catalog.update(template, no_fuzzy_matching=True)
        catalog.revision_date = DATE
        _write(catalog, path)
        missing += [f"{code}: {m.id}" for m in catalog if m.id and not m.string]
    return missing


def main(argv: list[str]) -> int:
    if argv == ["extract"]:
        _write(extract(), TEMPLATE)
        _write(content(), CONTENT)
        return 0
    if argv == ["update"]:
        for line in update():
            print(f"not translated yet: {line}")
        return 0
    print("usage: python -m fanfold.server.i18n_catalogues extract|update", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
