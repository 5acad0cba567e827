"""The languages of the site's words: the message catalogues, the language a request is
answered in, and the pseudo-language that shows which words are not in the catalogues yet.

The catalogues are gettext's ``.po`` files under ``locales/`` (package data): the template
``locales/messages.pot``, extracted from the templates, the page scripts and the Python code
that makes page titles (``scripts/i18n.py extract``), and one ``locales/CODE/LC_MESSAGES/
messages.po`` a language, its translations. The message ids are the English words, so English
needs no catalogue. The ``.po`` files are read with Babel once, at start (a few milliseconds for
a few hundred messages): there is no compiled ``.mo`` to build or to fall out of date, and the
``.po`` keeps what ``.mo`` drops, the places a message is used, which say the messages the page
scripts need (:meth:`Messages.script_json`, served as ``/i18n/CODE.json?v=VERSION``).

:data:`PSEUDO` (``xx``) is made from the template, never written by hand: every letter accented,
the placeholders kept, each message in brackets and about 30% longer (``[Ŀöƀƀý ·]``). A page
drawn in it shows at a glance, and to the browser tests, any word that is not in a catalogue.

The language of a request (:func:`choose`): the ``lang`` cookie (the switch in the pages'
header sets it), else the first of ``Accept-Language`` that the site speaks, else English.
:class:`LanguageChoice` sets it for the request (:data:`CURRENT`), so that the templates and the
code that makes page titles translate without passing it along, and says it in the answer's
``Content-Language``.
"""

from __future__ import annotations

import gettext as gnu
import hashlib
import json
import math
import re
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: The catalogues, inside the package.
LOCALES = Path(__file__).resolve().parent / "locales"
#: The English messages, extracted from the sources: every language's list of what to translate.
TEMPLATE = LOCALES / "messages.pot"
ENGLISH = "en"
#: The pseudo-language of the tests: reached with the cookie only, never offered.
PSEUDO = "xx"
#: How a page in the pseudo-language names its language (``<html lang>``, ``Content-Language``):
#: English, accented (``XA``: a region code kept for private use, as pseudo-locales use it).
PSEUDO_TAG = "en-XA"
#: The languages a player may pick, each named in its own words.
LANGUAGES = {"en": "English", "fr": "Français"}
#: The cookie that holds a player's pick.
COOKIE = "lang"
#: Where the catalogues place a refusal's template (``refusal/fano.not_in_hand``) and the words
#: refusals carry as parameters (``refusal/word``): the page scripts word refusals with them.
REFUSAL = "refusal/"
#: Where the catalogues place a phrase's template (``said/morris.placed``): the games' words
#: for moves, endings and seats (:class:`fanfold.core.phrases.Phrase`), worded on the page the
#: same way.
PHRASE = "said/"
#: Where the catalogues place a phrase only the terminal says (``terminal/morris.board_key``:
#: :data:`fanfold.core.phrases.TERMINAL`), which the scripts' catalogue leaves out.
TERMINAL_PHRASE = "terminal/"
#: Where the catalogues place the words a game's plugin gives the site: its lobby card's words
#: (``game/fano/blurb``, which the lobby's script words) and its leaderboards' names
#: (``game/fano/family``).
GAME_WORDS = "game/"

#: The language of the request being answered.
CURRENT: ContextVar[str] = ContextVar("fanfold_language", default=ENGLISH)

_ACCENTED = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "åƀçðéƒĝĥîĵķĺɱñöþǫŕšţûṽŵẋýžÅƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ",
)
#: What pseudo-translation keeps as it is: placeholders of Python (``%(name)s``, ``%%``) and of
#: the scripts (``{name}``), markup and entities.
_KEPT = re.compile(r"%\(\w+\)[sd]|%%|\{\w+\}|<[^>]*>|&#?\w+;")


def pseudo(text: str) -> str:
    """``text`` in the pseudo-language: letters accented, placeholders kept, in brackets and
    padded to about 30% longer."""
    parts = []
    start = 0
    for found in _KEPT.finditer(text):
        parts.append(text[start : found.start()].translate(_ACCENTED))
        parts.append(found.group())
        start = found.end()
    parts.append(text[start:].translate(_ACCENTED))
    padding = "·" * max(1, math.ceil(len(text) * 0.3) - 3)
    return f"[{''.join(parts)} {padding}]"


#: The languages that go on in lower case after a colon, even before a whole sentence.
LOWER_AFTER_COLON = frozenset({"fr"})
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_SENTENCE_START = re.compile(r"[.!?] $")
#: French's "de" and "à" before a seat's name worded "Joueur …" ("le coup du Joueur 2").
_CONTRACTIONS = {"de": "du", "à": "au"}


def _contracted(template: str, params: Mapping[str, str]) -> str:
    """``template`` with "de {name}" and "à {name}" as "du {name}" and "au {name}" where the
    parameter ``name`` is worded "Joueur …" (French)."""

    def contract(found: re.Match[str]) -> str:
        return f"{found.group(1)}{_CONTRACTIONS[found.group(2)]} {{{found.group(3)}}}"

    for name, value in params.items():
        if re.match(r"Joueur\b", value) and re.fullmatch(r"\w+", name):
            template = re.sub(rf"(^|[\s(])(de|à) \{{({name})\}}", contract, template)
    return template


def po_path(code: str) -> Path:
    """The catalogue of the language ``code``."""
    return LOCALES / code / "LC_MESSAGES" / "messages.po"


@dataclass(frozen=True)
class Messages:
    """One language's translations: ``texts`` by English message, ``plurals`` by the English
    singular (the forms of a count), the form a count takes (the catalogue's ``Plural-Forms``),
    and the messages the page scripts use."""

    code: str
    texts: dict[str, str]
    plurals: dict[str, tuple[str, ...]]
    scripts: frozenset[str]
    form: Callable[[int], int] = lambda count: int(count != 1)  # English's: one, and the rest
    #: Each refusal's code and its template (the English message).
    codes: dict[str, str] = field(default_factory=dict)

    def gettext(self, message: str) -> str:
        return self.texts.get(message) or message

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        """The form of ``singular``/``plural`` for ``count``, as the language counts (French's
        first form is 0 and 1); the English words where a form is not translated."""
        index = self.form(count)
        forms = self.plurals.get(singular)
        if not forms or index >= len(forms) or not forms[index]:
            return singular if count == 1 else plural
        return forms[index]

    def worded(self, said: Mapping[str, Any]) -> str:
        """A refusal or a phrase sent as ``{"code": ..., "params": {...}}`` in this language,
        worded as the page scripts word it (``refusalText`` in ``common.js``): the code's
        translated template (the English one where it has none), each parameter put in as
        text (a word of the catalogue translated, a refusal inside worded the same way), a
        parameter that starts a sentence with a capital, French's "de"/"à" contracted before a
        seat's name. An unknown code is worded as its English template would be, if any."""
        code = str(said.get("code", ""))
        english = self.codes.get(code)
        if english is None:
            return str(said.get("english", code))
        params: dict[str, str] = {}
        raw = said.get("params") or {}
        for name, value in raw.items() if isinstance(raw, Mapping) else ():
            if isinstance(value, Mapping):
                params[str(name)] = self.worded(value)
            else:
                text = str(value)
                params[str(name)] = self.gettext(text) if text in self.scripts else text
        template = self.texts.get(english) or english
        if self.code == "fr":
            template = _contracted(template, params)

        def put(found: re.Match[str]) -> str:
            name = found.group(1)
            if name not in params:
                return found.group(0)
            value = params[name]
            if _SENTENCE_START.search(template[: found.start()]):
                return value[:1].upper() + value[1:]
            return value

        made = _PLACEHOLDER.sub(put, template)
        if code == "words.capital" and self.code not in LOWER_AFTER_COLON:
            return made[:1].upper() + made[1:]
        return made

    def text(self, value: object) -> str:
        """``value`` in this language: a refusal or a phrase (or an error raised with a
        refusal) worded from its code, anything else as its English text."""
        refusal = getattr(value, "refusal", None) if isinstance(value, BaseException) else value
        to_json = getattr(refusal, "to_json", None)
        if isinstance(refusal, str) and callable(to_json) and hasattr(refusal, "code"):
            return self.worded(to_json())
        return str(value)

    def script_json(self) -> str:
        """The translations of the page scripts' messages, as the JSON the scripts load; each
        refusal's template is there under its code too (``"fano.not_in_hand"``)."""
        chosen = {key: self.texts[key] for key in sorted(self.scripts) if self.texts.get(key)}
        # a refusal's template under its code too: the page words a refusal from its code
        # (not the phrases only the terminal says)
        terminal = terminal_codes()
        chosen |= {
            code: self.texts[key]
            for code, key in self.codes.items()
            if self.texts.get(key) and code not in terminal
        }
        return json.dumps(chosen, ensure_ascii=False, sort_keys=True)

    def version(self) -> str:
        """A short digest of :meth:`script_json`: the address of the scripts' catalogue changes
        with its words, so that browsers may keep it for long."""
        return hashlib.sha256(self.script_json().encode()).hexdigest()[:12]


@cache
def _script_ids() -> frozenset[str]:
    """The messages the page scripts use: their own and the words refusals carry."""
    with TEMPLATE.open("rb") as source:
        template = read_po(source)
    return frozenset(
        _singular(message.id)
        for message in template
        if message.id and any(_scripts_use(place) for place, _ in message.locations)
    )


def _scripts_use(place: str) -> bool:
    """Whether a message at ``place`` is the scripts': theirs, a word refusals carry (a
    refusal's template goes to the scripts under its code, :attr:`Messages.codes`), or a
    game's lobby card's words."""
    return (
        place.endswith(".js")
        or place == f"{REFUSAL}word"
        or (place.startswith(GAME_WORDS) and place.endswith("/blurb"))
    )


@cache
def refusal_codes() -> dict[str, str]:
    """Each refusal's and each phrase's code and its template, from the catalogues'
    template."""
    with TEMPLATE.open("rb") as source:
        template = read_po(source)
    return {
        place.removeprefix(REFUSAL).removeprefix(PHRASE).removeprefix(TERMINAL_PHRASE): _singular(
            message.id
        )
        for message in template
        if message.id
        for place, _ in message.locations
        if place.startswith((REFUSAL, PHRASE, TERMINAL_PHRASE)) and place != f"{REFUSAL}word"
    }


@cache
def terminal_codes() -> frozenset[str]:
    """The codes of the phrases only the terminal says (placed at ``terminal/CODE``)."""
    with TEMPLATE.open("rb") as source:
        template = read_po(source)
    return frozenset(
        place.removeprefix(TERMINAL_PHRASE)
        for message in template
        if message.id
        for place, _ in message.locations
        if place.startswith(TERMINAL_PHRASE)
    )


def _singular(message_id: str | tuple[str, ...] | list[str]) -> str:
    return message_id if isinstance(message_id, str) else message_id[0]


@cache
def messages(code: str) -> Messages:
    """The translations of ``code`` (read once): English's are the messages themselves, the
    pseudo-language's are made from the template."""
    scripts = _script_ids()
    codes = refusal_codes()
    if code == ENGLISH:
        return Messages(code, {}, {}, scripts, codes=codes)
    path = TEMPLATE if code == PSEUDO else po_path(code)
    with path.open("rb") as source:
        catalog = read_po(source, locale=None if code == PSEUDO else code)
    texts: dict[str, str] = {}
    plurals: dict[str, tuple[str, ...]] = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, str):
            text = pseudo(message.id) if code == PSEUDO else str(message.string or "")
            texts[message.id] = text
        else:
            if code == PSEUDO:
                forms = tuple(pseudo(form) for form in message.id)
            else:
                forms = tuple(str(form) for form in message.string or ())
            plurals[message.id[0]] = forms
            texts[message.id[0]] = forms[0] if forms else ""
    if code == PSEUDO:
        return Messages(code, texts, plurals, scripts, codes=codes)
    return Messages(code, texts, plurals, scripts, gnu.c2py(catalog.plural_expr), codes)


def load_languages() -> None:
    """Reads every catalogue (the server does so as it starts)."""
    for code in (*LANGUAGES, PSEUDO):
        messages(code)


def known(code: str) -> bool:
    """Whether the site answers in ``code``."""
    return code in LANGUAGES or code == PSEUDO


def choose(cookie: str | None, accept_language: str | None) -> str:
    """The language of a request: the ``lang`` cookie's if the site speaks it, else the first
    of ``Accept-Language`` (by its weights) that it speaks, else English. A malformed header
    counts for nothing."""
    if cookie and known(cookie):
        return cookie
    wanted: list[tuple[float, int, str]] = []
    for order, item in enumerate((accept_language or "").split(",")[:20]):
        tag, _, weight = item.strip().partition(";")
        quality = 1.0
        if weight.strip().startswith("q="):
            try:
                quality = float(weight.strip()[2:])
            except ValueError:
                continue
        primary = tag.strip().split("-")[0].lower()
        if primary in LANGUAGES and quality > 0:
            wanted.append((-quality, order, primary))
    return min(wanted)[2] if wanted else ENGLISH


def current() -> str:
    """The language of the request being answered (English outside a request)."""
    return CURRENT.get()


def tag(code: str) -> str:
    """The language ``code`` as a page names it (``<html lang>``): a valid BCP 47 tag."""
    return PSEUDO_TAG if code == PSEUDO else code


def gettext(message: str) -> str:
    """``message`` in the language of the request being answered."""
    return messages(current()).gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of a counted message for ``count``, in the request's language."""
    return messages(current()).ngettext(singular, plural, count)


def messages_url(code: str) -> str:
    """The address of the page scripts' catalogue of ``code``, with its version; empty for
    English (the scripts' own words)."""
    if code == ENGLISH:
        return ""
    return f"/i18n/{code}.json?v={messages(code).version()}"


class LanguageChoice:
    """Sets :data:`CURRENT` for each HTTP request (:func:`choose`) and adds
    ``Content-Language`` and ``Vary: Accept-Language, Cookie`` to its pages."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {name.lower(): value for name, value in scope.get("headers", ())}
        cookies = cookie_parser(headers.get(b"cookie", b"").decode("latin-1"))
        code = choose(cookies.get(COOKIE), headers.get(b"accept-language", b"").decode("latin-1"))
        token = CURRENT.set(code)

        async def said(message: Message) -> None:
            if message["type"] == "http.response.start":
                given = dict(message.get("headers", ()))
                if given.get(b"content-type", b"").startswith(b"text/html"):
                    message["headers"] = [
                        *message.get("headers", ()),
                        (b"content-language", tag(code).encode()),
                        (b"vary", b"Accept-Language, Cookie"),
                    ]
            await send(message)

        try:
            await self.app(scope, receive, said)
        finally:
            CURRENT.reset(token)
