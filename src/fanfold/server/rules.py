"""The exact rules pages (``/rules/GAME/exact``): ``docs/rules/NAME.md``, the developers'
readings, rendered to HTML and linked at the bottom of each How-to-play page.

An installed wheel carries the documents as package data (:data:`PACKAGED`, copied there by
the build, ``setup.py``); a source checkout and an editable installation read them where they
are written (:data:`RULES`). A game from another package names its own document in its
plugin (``GamePlugin.rules_doc``)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from markdown_it import MarkdownIt
from markupsafe import Markup

from fanfold.core.registry import AnyGame, plugin_of
from fanfold.server.templating import render

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
    return _scrolling(rendered)


def _scrolling(html: str) -> str:
    """``html`` with each code block and each table in a box of its own that scrolls sideways
    when its lines are wider than the page (``.scroll`` in the style sheet), so that the page
    itself never does; the box takes the keyboard's focus, so that it scrolls by keys too."""
    return (
        html.replace("<pre>", '<pre class="scroll" tabindex="0">')
        .replace("<table>", '<div class="scroll" tabindex="0"><table>')
        .replace("</table>", "</table></div>")
    )


def rules_html(game: AnyGame) -> str | None:
    """The rules document of ``game`` as an HTML fragment, or ``None`` without one."""
    return _html(rules_file(game))


def rules_page(game: AnyGame, lessons: bool = False) -> str:
    """A whole page with the game's rules, styled like the rest of the site (``lessons``: with
    a link to the game's lessons)."""
    body = rules_html(game)
    return render(
        "rules.html", game=game, body=None if body is None else Markup(body), lessons=lessons
    )
