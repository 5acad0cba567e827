"""The exact rules pages (``/rules/GAME/exact``): ``docs/rules/NAME.md``, the developers'
readings, rendered to HTML and linked at the bottom of each How-to-play page.

An installed wheel carries the documents as package data (:data:`PACKAGED`, copied there by
the build, ``setup.py``); a source checkout and an editable installation read them where they
are written (:data:`RULES`). A game from another package names its own document in its
plugin (``GamePlugin.rules_doc``)."""

from __future__ import annotations

import html
from functools import cache
from pathlib import Path

from markdown_it import MarkdownIt

from fanfold.core.registry import AnyGame, plugin_of

#: Where an installed wheel keeps the rules documents.
PACKAGED = Path(__file__).resolve().parent / "rules_docs"
#: Where the rules documents live in a source checkout.
RULES = Path(__file__).resolve().parents[3] / "docs" / "rules"


def rules_folder() -> Path:
    """The folder of the rules documents: the wheel's copy, else the source checkout's."""
    return PACKAGED if PACKAGED.is_dir() else RULES


def rules_file(game: AnyGame) -> Path:
    """The file of ``game``'s rules document (which may not exist): its plugin's, else
    fanfold's own ``NAME.md`` in :func:`rules_folder`."""
    return plugin_of(game).rules_doc or rules_folder() / f"{game.name}.md"


@cache
def _html(path: Path) -> str | None:
    if not path.is_file():
        return None
    rendered: str = MarkdownIt("commonmark").enable("table").render(path.read_text("utf-8"))
    return rendered


def rules_html(game: AnyGame) -> str | None:
    """The rules document of ``game`` as an HTML fragment, or ``None`` without one."""
    return _html(rules_file(game))


def rules_page(game: AnyGame, lessons: bool = False) -> str:
    """A whole page with the game's rules, styled like the rest of the site (``lessons``: with
    a link to the game's lessons)."""
    body = rules_html(game)
    if body is None:
        body = (
            f"<p>The rules document of {html.escape(game.title)} is not installed here; "
            f"fanfold's source has it as <code>docs/rules/{game.name}.md</code>.</p>"
        )
    title = html.escape(game.title)
    if lessons:
        body = (
            f"<p class='lessons-link'>New to {title}? <a href='/learn/{html.escape(game.name)}'>"
            "Learn it by playing the worked examples</a>, one move at a time.</p>" + body
        )
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{title}: exact rules, fanfold</title>"
        "<script src='/static/theme.js'></script>"
        "<link rel='stylesheet' href='/static/fanfold.css'></head>"
        f"<body class='rules'><header class='bar'><a href='/'>fanfold</a> <span class='grow'>"
        f"{title}: exact rules</span><span class='bar-links'><a href='/how-to-play/"
        f"{html.escape(game.name)}'>How to play</a></span></header>"
        f"<main class='doc'>{body}</main></body></html>"
    )
