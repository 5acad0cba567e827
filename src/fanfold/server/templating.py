"""The site's HTML drawn on the server, from the Jinja2 templates in ``templates/`` (shipped as
package data): the How-to-play and exact rules pages, the leaderboards, players' and bots'
pages, the daily deal's board.

One :data:`ENVIRONMENT` renders them all, autoescaping everything it is given (a player's name
``<script>`` reaches the page as text); HTML that is trusted (a How-to-play fragment from the
package, a rules document rendered from Markdown, an SVG chart drawn by a template) is passed
as :class:`markupsafe.Markup`. Every text a player reads is in a template, so that the message
catalogues of a translation have one place to take them from: Jinja2's i18n extension
(``{% trans %}``, ``_()``) translates them into the request's language (:mod:`fanfold.server.i18n`),
and ``language()``, ``messages_url()`` and ``language_choices()`` give a page's ``<html lang>``
and what its scripts need; ``static_url("table.js")`` a page's file at its version
(:mod:`fanfold.server.static_files`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from fanfold.server import i18n
from fanfold.server.static_files import static_url

#: The folder of the templates, inside the package.
TEMPLATES = Path(__file__).resolve().parent / "templates"

#: The one environment: autoescaped, strict (a name missing from a page's context is an error,
#: not an empty string), and blocks that take their own lines out of the HTML.
ENVIRONMENT = Environment(
    loader=FileSystemLoader(TEMPLATES),
    autoescape=True,
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
    auto_reload=False,
    extensions=["jinja2.ext.i18n"],
)
ENVIRONMENT.policies["ext.i18n.trimmed"] = True  # a message's lines joined, as it is extracted
# The translations of the request's language (the extension adds the method to the environment).
ENVIRONMENT.install_gettext_callables(  # type: ignore[attr-defined]
    gettext=i18n.gettext, ngettext=i18n.ngettext, newstyle=True
)


#: The bot levels' names as the leaderboards and profiles give them
#: (:func:`fanfold.server.leaderboards.bot_name`), words of the catalogues (the lobby's too).
BOT_LEVELS = frozenset({"Easy bot", "Medium bot", "Hard bot"})


def bot_level_words(name: str) -> str:
    """A bot level's name (``"Medium bot"``) in the page's language; ``""`` for any other name
    (a player's, a bot that is no level: data, shown as it is)."""
    return i18n.gettext(name) if name in BOT_LEVELS else ""


def data_words(text: str) -> str:
    """Words that come as data (a leaderboard's name, from the games' plugins) in the page's
    language where the catalogues hold them, else as they are: plain text, escaped as any
    value is (``_()`` would take them for the catalogue's trusted markup)."""
    return str(i18n.gettext(text))


def language_choices() -> str:
    """The languages a player may pick, for the header's switch: ``code:Name`` by spaces."""
    return " ".join(f"{code}:{name}" for code, name in i18n.LANGUAGES.items())


ENVIRONMENT.globals.update(
    language=lambda: i18n.tag(i18n.current()),
    messages_url=lambda: i18n.messages_url(i18n.current()),
    language_choices=language_choices,
    static_url=static_url,
    bot_level_words=bot_level_words,
    data_words=data_words,
)


def render(template: str, **context: Any) -> Markup:
    """``template`` (a file name in :data:`TEMPLATES`) drawn with ``context``, as trusted HTML
    (what it put in was escaped)."""
    return Markup(ENVIRONMENT.get_template(template).render(**context))
