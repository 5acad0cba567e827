"""The How-to-play pages (``/how-to-play/GAME``): each game's rules written for players, with
pictures, served from the installed package.

A page's content is an HTML fragment (``static/howto/GAME.html`` for a built-in game, the file
its plugin names for a game from another package: ``WebHints.howto``), where ``[[7H]]`` stands
for a card drawn as at the tables (rank, then suit: ``A 2..9 T J Q K`` and ``C D H S``) and
``[[back]]`` for a card face down. :func:`howto_page` wraps it in the site's page with links
to play, to the lessons and to the exact rules (``/rules/GAME/exact``, the developers'
readings).
"""

from __future__ import annotations

import html
import re
from functools import cache
from pathlib import Path

from fanfold.core.registry import AnyGame, plugin_of

HOWTO = Path(__file__).parent / "static" / "howto"

_CARD = re.compile(r"\[\[(?:(back)|([A2-9TJQK])([CDHS]))\]\]")
_SUITS = {"C": ("♣", "clubs"), "D": ("♦", "diamonds"), "H": ("♥", "hearts"), "S": ("♠", "spades")}
_RANKS = {"A": "ace", "T": "10", "J": "jack", "Q": "queen", "K": "king"}


def _card(match: re.Match[str]) -> str:
    if match.group(1):
        return "<span class='card back' role='img' aria-label='a card face down'></span>"
    rank, suit = match.group(2), match.group(3)
    symbol, suit_name = _SUITS[suit]
    shown = f"{'10' if rank == 'T' else rank}{symbol}"
    name = f"{_RANKS.get(rank, rank)} of {suit_name}"
    red = " red" if suit in "DH" else ""
    return (
        f"<span class='card{red}' role='img' aria-label='{name}'>"
        f"<span aria-hidden='true'>{shown}</span>"
        f"<span class='pip-bottom' aria-hidden='true'>{shown}</span></span>"
    )


def howto_file(game: AnyGame) -> Path:
    """The file of ``game``'s How-to-play content (which may not exist): its plugin's, else
    fanfold's own ``static/howto/NAME.html``."""
    return plugin_of(game).web.howto or HOWTO / f"{game.name}.html"


@cache
def _html(path: Path) -> str | None:
    if not path.is_file():
        return None
    return _CARD.sub(_card, path.read_text("utf-8"))


def howto_html(game: AnyGame) -> str | None:
    """The How-to-play content of ``game`` as HTML, or ``None`` without one."""
    return _html(howto_file(game))


def has_howto(game: AnyGame) -> bool:
    """Whether ``game`` has a How-to-play page."""
    return howto_file(game).is_file()


def howto_page(game: AnyGame, lessons: bool) -> str:
    """The whole How-to-play page of ``game`` (``lessons``: the game has lessons to link)."""
    body = howto_html(game) or ""
    title = html.escape(game.title)
    name = html.escape(game.name)
    learn = (
        f"<a class='button primary' href='/learn/{name}'>Learn by playing: the lessons</a>"
        if lessons
        else ""
    )
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>How to play {title}</title>"
        "<script src='/static/theme.js'></script>"
        "<link rel='stylesheet' href='/static/fanfold.css'>"
        "<link rel='stylesheet' href='/static/howto.css'>"
        "<link rel='icon' href='/favicon.ico' type='image/svg+xml'></head>"
        "<body class='howto'><header class='bar'><a href='/'>fanfold</a>"
        f"<span class='grow'>How to play {title}</span></header>"
        f"<main class='doc howto'><h1>How to play {title}</h1>{body}"
        f"<nav class='next buttons' aria-label='what next'>{learn}"
        f"<a class='button' href='/?game={name}'>Play {title}</a></nav>"
        "<footer class='muted'><p>For developers and rules lawyers: the "
        f"<a href='/rules/{name}/exact'>exact rules</a>, with every reading fanfold makes.</p>"
        "</footer></main></body></html>"
    )
