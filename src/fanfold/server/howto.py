"""The How-to-play pages (``/how-to-play/GAME``): each game's rules written for players, with
pictures, served from the installed package.

A page's content is an HTML fragment (``static/howto/GAME.html`` for a built-in game, the file
its plugin names for a game from another package: ``WebHints.howto``), where ``[[7H]]`` stands
for a card drawn as at the tables (rank, then suit: ``A 2..9 T J Q K`` and ``C D H S``),
``[[back]]`` for a card face down and ``[[fano_plane]]``, inside an ``<svg>``, for the Fano
plane drawn from the table's own points (:mod:`fanfold.server.fano_plane`).
:func:`howto_page` wraps it in the site's page with links to play, to the lessons and to the
exact rules (``/rules/GAME/exact``, the developers' readings).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from markupsafe import Markup

from fanfold.core.registry import AnyGame, plugin_of
from fanfold.server.fano_plane import plane_svg
from fanfold.server.templating import render

HOWTO = Path(__file__).parent / "static" / "howto"

_CARD = re.compile(r"\[\[(?:(back)|([A2-9TJQK])([CDHS]))\]\]")
#: Where a fragment draws the Fano plane (inside its own ``<svg>``, which says its words).
_PLANE = "[[fano_plane]]"
_SUITS = {"C": ("♣", "clubs"), "D": ("♦", "diamonds"), "H": ("♥", "hearts"), "S": ("♠", "spades")}
_RANKS = {"A": "ace", "T": "10", "J": "jack", "Q": "queen", "K": "king"}


def _card(match: re.Match[str]) -> str:
    if match.group(1):
        return render("howto_card.html", back=True)
    rank, suit = match.group(2), match.group(3)
    symbol, suit_name = _SUITS[suit]
    shown_rank = "10" if rank == "T" else rank
    return render(
        "howto_card.html",
        back=False,
        rank=shown_rank,
        symbol=symbol,
        shown=f"{shown_rank}{symbol}",
        name=f"{_RANKS.get(rank, rank)} of {suit_name}",
        red=suit in "DH",
    )


def howto_file(game: AnyGame) -> Path:
    """The file of ``game``'s How-to-play content (which may not exist): its plugin's, else
    fanfold's own ``static/howto/NAME.html``."""
    return plugin_of(game).web.howto or HOWTO / f"{game.name}.html"


@cache
def _html(path: Path) -> str | None:
    if not path.is_file():
        return None
    text = _CARD.sub(_card, path.read_text("utf-8"))
    return text.replace(_PLANE, plane_svg()) if _PLANE in text else text


def howto_html(game: AnyGame) -> str | None:
    """The How-to-play content of ``game`` as HTML, or ``None`` without one."""
    return _html(howto_file(game))


def has_howto(game: AnyGame) -> bool:
    """Whether ``game`` has a How-to-play page."""
    return howto_file(game).is_file()


def howto_page(game: AnyGame, lessons: bool) -> str:
    """The whole How-to-play page of ``game`` (``lessons``: the game has lessons to link)."""
    return render("howto.html", game=game, body=Markup(howto_html(game) or ""), lessons=lessons)
