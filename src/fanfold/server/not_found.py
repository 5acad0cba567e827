"""What a browser is shown where there is nothing to show: an address the site does not have,
a table the store does not hold, a game, a game's lessons or a lesson that is not there (404),
and a page sent a request it does not take (405). Each is a page of the site (the listing
pages' bar, ``templates/not_found.html``) in the reader's language, with a link back to the
lobby and, where a game was asked for, the games there are.

A request gets such a page when :func:`wants_page`: it accepts ``text/html`` (a browser's
navigation) and its path is not the API's (``/api/``) or a socket's (``/ws/``); every other
client keeps the JSON error (``{"error", "kind", "code", "params"}``,
:mod:`fanfold.server.app`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Mapping

from fastapi.responses import HTMLResponse
from starlette.requests import HTTPConnection

from fanfold.server.games import lobby_plugins
from fanfold.server.hub import Hub
from fanfold.server.i18n import current, gettext, messages
from fanfold.server.lessons import BOOKS
from fanfold.server.store import Store
from fanfold.server.store.rating_store import SqlRatings
from fanfold.server.templating import render

log = logging.getLogger(__name__)

#: Where the API's and the sockets' addresses start: their clients always get JSON.
NOT_PAGES = ("/api/", "/ws/")
#: The most characters of a name asked for that a page shows (:func:`_shown`).
SHOWN = 30


def wants_page(connection: HTTPConnection) -> bool:
    """Whether an error is told to this request as a page: a browser's (it accepts
    ``text/html``), for an address that is neither the API's nor a socket's."""
    path = connection.url.path
    if path.startswith(NOT_PAGES) or path in ("/api", "/ws"):
        return False
    return "text/html" in connection.headers.get("accept", "").lower()


def sentence(error: BaseException) -> str:
    """An error's refusal in the page's language, as a sentence on its own: a capital first,
    a full stop last (``there is no player called 'x'`` reads ``There is no player called
    'x'.``)."""
    text = messages(current()).text(error).strip()
    if not text:
        return text
    if text[-1] not in ".!?]…":
        text += "."
    return text[:1].upper() + text[1:]


def page(
    title: str,
    text: str,
    *,
    status: int = 404,
    games: Iterable[tuple[str, str]] = (),
    games_label: str = "",
    headers: Mapping[str, str] | None = None,
) -> HTMLResponse:
    """The page: ``title`` (the heading and the window's title), ``text`` (a paragraph), then
    ``games`` (title, address) under ``games_label``, and the lobby's link."""
    drawn = render(
        "not_found.html",
        title=title,
        text=text,
        games=[{"title": name, "href": href} for name, href in games],
        games_label=games_label,
    )
    return HTMLResponse(drawn, status_code=status, headers=headers)


def missing_address(status: int = 404, headers: Mapping[str, str] | None = None) -> HTMLResponse:
    """An address the site does not have (404), or a page sent a request it does not take
    (405: a form sent to a page)."""
    if status == 405:
        return page(
            gettext("This page takes no such request"),
            gettext(
                "This address is a page to open, not a form to send. Open it again, or go "
                "back to the lobby."
            ),
            status=405,
            headers=headers,
        )
    return page(
        gettext("Page not found"),
        gettext("There is no page at this address (it may have moved, or the link is mistyped)."),
        headers=headers,
    )


def missing_thing(error: BaseException) -> HTMLResponse:
    """Something a page's address names that is not there (a :class:`NotFoundError` no route
    of the pages turned into a page of its own): why."""
    return page(gettext("Page not found"), sentence(error))


def missing_table() -> HTMLResponse:
    """A table the store does not hold."""
    return page(
        gettext("Table not found"),
        gettext("This table does not exist (it may have ended long ago, or the link is mistyped)."),
    )


def missing_game(name: str) -> HTMLResponse:
    """A game that is not registered (How to play, the rules): the name asked for, and the
    games there are, by their titles."""
    games = [(plugin.game.title, f"/how-to-play/{plugin.name}") for plugin in lobby_plugins()]
    return page(
        gettext("No such game"),
        gettext("There is no game called “%(name)s” here.") % {"name": _shown(name)},
        games=games,
        games_label=gettext("The games:"),
    )


def missing_lessons(game: str, lesson: str | None = None) -> HTMLResponse:
    """A game without lessons, or a lesson its game does not have (``lesson``): the name
    asked for, and the games' lessons."""
    book = BOOKS.get(game)
    if book is None or lesson is None:
        text = gettext("There are no lessons for “%(game)s” here.") % {"game": _shown(game)}
    else:
        text = gettext("%(game)s has no lesson called “%(lesson)s”.") % {
            "game": book.game.title,
            "lesson": _shown(lesson),
        }
    return page(
        gettext("No such lessons"),
        text,
        games=[(found.game.title, f"/learn/{name}") for name, found in BOOKS.items()],
        games_label=gettext("The games with lessons:"),
    )


def _shown(name: str) -> str:
    """A name as asked for (a game's, a lesson's, in the address), cut short where it is long:
    a page shows it whole on a phone's screen."""
    return name if len(name) <= SHOWN else f"{name[: SHOWN - 1]}…"


async def table_known(hub: Hub, table_id: str) -> bool:
    """Whether ``table_id`` is a table: one of this process's, else one the store holds (a
    look-up of its id in the SQL store). A store that fails says yes: the table's page then
    tells what went wrong itself."""
    if table_id in hub.live:
        return True
    store = hub.store
    try:
        if isinstance(store, Store):
            return await asyncio.to_thread(_stored, store, table_id)
        return await asyncio.to_thread(store.load, table_id) is not None
    except Exception:
        log.exception("could not look up table %r for its page", table_id)
        return True


def _stored(store: Store, table_id: str) -> bool:
    data = SqlRatings(store.engine)
    with data.reading() as tx:
        return data.table_exists(tx, table_id)


__all__ = [
    "missing_address",
    "missing_game",
    "missing_lessons",
    "missing_table",
    "missing_thing",
    "page",
    "sentence",
    "table_known",
    "wants_page",
]
