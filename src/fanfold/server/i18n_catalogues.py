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

import sys
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
#: daily board's aids).
PYTHON = ("routes/players.py", "routes/daily.py", "routes/moderation.py")
#: The terminal's modules (``fanfold play``), which speak the catalogues' languages too: paths
#: relative to the ``fanfold`` package, and so are their places in the catalogues.
TERMINAL = ("cli/app.py", "cli/common.py", "cli/help_words.py", "cli/terminal.py")
#: A fixed date in the files' headers, so that extracting again changes nothing unless a
#: message changed.
DATE = datetime(2026, 11, 29, tzinfo=UTC)

_JINJA = "jinja2.ext:babel_extract"
Keywords = dict[str, tuple[int, ...] | None]
#: ``N_("...")`` marks a command's help text (:mod:`fanfold.cli.help_words`).
_KEYWORDS: Keywords = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None}


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
    import fanfold.balance.experiment  # an experiment's refusals (fanfold balance)
    import fanfold.core.kinds  # an action kind's name refused
    import fanfold.envs.refusals  # the research environments' refusals
    import fanfold.play.arena  # an arena request's refusals (fanfold arena)
    import fanfold.agents.strategy.compiled  # the compile's progress, said at the terminal
    import fanfold.play.analysis  # the analyses' answers
    import fanfold.play.refusals
    import fanfold.play.review_cards  # the engines' review's sentences (and review's)
    import fanfold.server.refusals
    import fanfold.server.review_answers  # the review page's progress while it waits
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


def extract() -> Catalog:
    """The English messages of the sources, each with the places it is used."""
    catalog = Catalog(project="fanfold", creation_date=DATE, revision_date=DATE, fuzzy=False)
    _refusals(catalog)
    _agents(catalog)
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
