"""The catalogue of the site's long texts, kept apart from the interface's (``docs/i18n.md``):
the exact rules (``docs/rules/GAME.md``), the How-to-play pages' own text (``static/howto/
GAME.html``) and the lessons (their data files, ``fanfold.games.GAME.lessons``). They are not
translated yet, and their pages say they are English (``lang="en"``); their messages are
extracted into ``locales/content.pot`` (the gettext domain ``content``), so that a translator
has them and the interface's ``messages.po`` is not flooded with them.

A rules document gives one message a block of Markdown (a paragraph, a heading, a list item,
a table's cell) as it is written, inline marks kept; a How-to-play fragment one a block of
HTML (a paragraph, a heading, an item, a caption, a cell, a diagram's label), its inline
markup and its cards (``[[7H]]``) kept, and each ``aria-label``/``alt``/``title``; a lesson
one each title, source, variant, introduction, summary, question, hint, explanation and note
on a mistake. Their locations name the game (``rules/fan.md``, ``howto/fan.html``,
``lessons/fan/first-moves``). Only the games of fanfold's own package are read: another
package's game keeps its texts in its own catalogue.

``python -m fanfold.server.i18n_catalogues extract|update`` writes it with the interface's;
``tests/server/test_i18n.py`` fails while it is not the sources'.
"""

from __future__ import annotations

import re
from datetime import datetime
from html.parser import HTMLParser

from babel.messages.catalog import Catalog
from markdown_it import MarkdownIt

from fanfold.core.registry import AnyGame, all_games
from fanfold.server.howto import howto_file
from fanfold.server.i18n import LOCALES
from fanfold.server.lessons import BOOKS
from fanfold.server.rules import rules_file

#: The template of the long texts' catalogue (the gettext domain ``content``).
CONTENT = LOCALES / "content.pot"
DOMAIN = "content"

#: The How-to-play fragments' elements whose text is one message.
_BLOCKS = frozenset(
    {"p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "figcaption", "dt", "dd", "td", "th"}
    | {"caption", "summary", "text", "title", "legend"}
)
#: Attributes whose words are read out or shown.
_WORDED = ("aria-label", "alt", "title")
_SPACES = re.compile(r"\s+")
_LETTER = re.compile(r"[A-Za-z]")


def _own(game: AnyGame) -> bool:
    """Whether ``game`` is one of fanfold's own package (not another package's plugin)."""
    return type(game).__module__.startswith("fanfold.")


def markdown_messages(text: str) -> list[str]:
    """The messages of a Markdown document: each block's inline text as written."""
    found = []
    for token in MarkdownIt("commonmark").enable("table").parse(text):
        if token.type == "inline":
            words = _SPACES.sub(" ", token.content).strip()
            if _LETTER.search(words):
                found.append(words)
    return found


class _Blocks(HTMLParser):
    """The messages of an HTML fragment: each block's inner HTML, spaces collapsed."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.found: list[str] = []
        self.open: list[str] = []  # the inner HTML of the block being read
        self.depth = 0  # blocks open

    def _flush(self) -> None:
        words = _SPACES.sub(" ", "".join(self.open)).strip()
        if _LETTER.search(re.sub(r"<[^>]*>|\[\[\w+\]\]", "", words)):
            self.found.append(words)
        self.open = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in _WORDED and value and _LETTER.search(value):
                self.found.append(_SPACES.sub(" ", value).strip())
        if tag in _BLOCKS:
            self._flush()  # what a block holds before a block inside it
            self.depth += 1
        elif self.depth:
            self.open.append(self.get_starttag_text() or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in _BLOCKS:
            self._flush()
            self.depth = max(0, self.depth - 1)
        elif self.depth:
            self.open.append(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.open.append(data)

    def handle_entityref(self, name: str) -> None:
        self.handle_data(f"&{name};")

    def handle_charref(self, name: str) -> None:
        self.handle_data(f"&#{name};")


def html_messages(text: str) -> list[str]:
    """The messages of a How-to-play fragment (see the module)."""
    parser = _Blocks()
    parser.feed(text)
    parser.close()
    return parser.found


def lesson_messages() -> list[tuple[str, str]]:
    """Every lesson's words with its location (``lessons/GAME/ID``), fanfold's games only."""
    found = []
    for name, book in BOOKS.items():
        if not _own(book.game):
            continue
        for lesson in book.lessons:
            place = f"lessons/{name}/{lesson.id}"
            words = [lesson.title, lesson.source, lesson.variant, lesson.intro, lesson.summary]
            for step in lesson.steps:
                words += [step.prompt, step.hint, step.explanation]
                words += [mistake.note for mistake in step.mistakes]
            found += [(text, place) for text in words if text.strip()]
    return found


def extract_content(date: datetime) -> Catalog:
    """The long texts' messages (see the module), each with the places it is used; ``date`` in
    its header."""
    catalog = Catalog(
        project="fanfold", domain=DOMAIN, creation_date=date, revision_date=date, fuzzy=False
    )
    for game in all_games():
        if not _own(game):
            continue
        rules = rules_file(game)
        if rules.is_file():
            for text in markdown_messages(rules.read_text("utf-8")):
                catalog.add(text, locations=[(f"rules/{game.name}.md", 0)])
        howto = howto_file(game)
        if howto.is_file():
            for text in html_messages(howto.read_text("utf-8")):
                catalog.add(text, locations=[(f"howto/{game.name}.html", 0)])
    for text, place in lesson_messages():
        catalog.add(text, locations=[(place, 0)])
    return catalog


__all__ = ["CONTENT", "DOMAIN", "extract_content", "html_messages", "markdown_messages"]
