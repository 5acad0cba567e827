"""The words the games write for a person to read, as codes: a move told in words, how a game
ended, a seat's name.

A :class:`Phrase` is a stable ``code`` (``"morris.placed"``), its ``params`` (plain values or
other phrases) and, as the string itself, its English sentence, made from the code's one
template (:data:`PHRASES`). Whatever prints or compares the sentence keeps doing so; the server
sends the code and the params beside the sentence, and a page words them in its reader's
language from the same template translated (``docs/i18n.md``), as it does a refusal
(:class:`fanfold.core.errors.Refusal`). A template names its parameters ``{name}``; a plain
text parameter that is a word of the catalogues (a side's colour, a shape) is translated too,
a card's name (``A♥``) or a number is not.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from typing import Any

#: Every phrase's English template by code. Each game registers its own (:func:`phrases`) as
#: its words are imported; the codes are namespaced by game (``"fano."``).
PHRASES: dict[str, str] = {}
#: The codes only the terminal words (a board's labels, a status line, the notation's help):
#: the pages never get them, so the scripts' catalogue leaves them out (``docs/i18n.md``).
TERMINAL: set[str] = set()
#: Each template's pieces: its text before a parameter, the parameter (``None``: the end).
_PIECES: dict[str, tuple[tuple[str, str | None], ...]] = {}
_FIELDS: dict[str, frozenset[str]] = {}
#: A parameter after these (a sentence's end inside the template) starts a sentence: its first
#: letter is written upper case (``"{move}. {ending}."``), on the page as here.
_SENTENCE_ENDS = (". ", "! ", "? ")

#: Codes whose words start with a capital wherever they stand (``"words.capital"``: a reason
#: put after "Result: "); the page does the same (``static/common.js``) in English, not in
#: French, which goes on in lower case after a colon ("Résultat : gagné…").
CAPITALISED = frozenset({"words.capital"})

#: A phrase's parameter: plain text, a number, or another phrase (a part of a longer one).
PhraseParam = str | int


def phrases(entries: Mapping[str, str], *, terminal: bool = False) -> None:
    """Registers phrase templates; a code may not change its template. ``terminal``: words
    only the terminal says (:data:`TERMINAL`)."""
    if terminal:
        TERMINAL.update(entries)
    for code, template in entries.items():
        known = PHRASES.setdefault(code, template)
        if known != template:
            raise ValueError(f"phrase code {code!r} has two templates")
        pieces = tuple((text, name) for text, name, _, _ in string.Formatter().parse(template))
        _PIECES[code] = pieces
        _FIELDS[code] = frozenset(name for _, name in pieces if name)


def _worded(code: str, params: Mapping[str, PhraseParam]) -> str:
    """The template of ``code`` with ``params`` put in; a parameter that starts a sentence
    inside it starts with a capital."""
    out: list[str] = []
    for text, name in _PIECES[code]:
        out.append(text)
        if name is None:
            continue
        value = str(params[name])
        if value and "".join(out[-2:]).endswith(_SENTENCE_ENDS):
            value = value[:1].upper() + value[1:]
        out.append(value)
    made = "".join(out)
    if code in CAPITALISED:
        return made[:1].upper() + made[1:]
    return made


def listed(items: Sequence[PhraseParam]) -> PhraseParam:
    """``items`` as a list in words: ``A♥``, ``A♥ and 2♠``, ``A♥, 2♠ and 3♣``."""
    if len(items) == 1:
        return items[0]
    if len(items) == 2:
        return Phrase("words.and", first=items[0], second=items[1])
    return Phrase("words.list", first=items[0], rest=listed(items[1:]))


def joined(items: Sequence[PhraseParam], code: str = "words.list") -> PhraseParam:
    """``items`` one after the other, each pair of neighbours joined by the phrase ``code``
    (``{first}, {rest}``)."""
    if len(items) == 1:
        return items[0]
    return Phrase(code, first=items[0], rest=joined(items[1:], code))


class Phrase(str):
    """Words for a person: a stable ``code``, its ``params``, and (as the string itself) the
    English sentence of the code's template. An unknown code, or params other than the
    template's, raise :class:`KeyError` / :class:`ValueError`."""

    code: str
    params: dict[str, PhraseParam]

    def __new__(cls, code: str, /, **params: PhraseParam) -> Phrase:
        if params.keys() != _FIELDS[code]:
            raise ValueError(f"phrase {code!r} takes {sorted(_FIELDS[code])}, not {sorted(params)}")
        made = super().__new__(cls, _worded(code, params))
        made.code = code
        made.params = params
        return made

    def __getnewargs_ex__(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (self.code,), dict(self.params)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Phrase:
        """The phrase :meth:`to_json` wrote (a phrase inside as its own such object)."""
        params = data["params"]
        if not isinstance(params, Mapping):
            raise ValueError(f"a phrase's params are an object, not {params!r}")
        return cls(
            str(data["code"]),
            **{
                str(name): cls.from_json(value) if isinstance(value, Mapping) else value
                for name, value in params.items()
            },
        )

    def to_json(self) -> dict[str, Any]:
        """``{"code": ..., "params": {...}}``, a phrase inside as its own such object."""
        return {
            "code": self.code,
            "params": {
                name: value.to_json() if isinstance(value, Phrase) else value
                for name, value in self.params.items()
            },
        }


def ordinal(number: int) -> Phrase:
    """``number`` as an ordinal in words: ``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``,
    ``21st`` (a language words each form its own way: French ``1er``, ``2e``, ``21e``)."""
    if number == 1:
        return Phrase("words.ordinal_first")
    if number % 100 in (11, 12, 13):
        return Phrase("words.ordinal_th", number=number)
    code = {1: "words.ordinal_st", 2: "words.ordinal_nd", 3: "words.ordinal_rd"}
    return Phrase(code.get(number % 10, "words.ordinal_th"), number=number)


def said(text: str | None) -> dict[str, Any] | None:
    """``text`` as a code and params when it is a :class:`Phrase` (``None`` otherwise)."""
    return text.to_json() if isinstance(text, Phrase) else None


phrases(
    {
        "game.player": "Player {number}",
        "words.and": "{first} and {second}",
        "words.list": "{first}, {rest}",
        "words.and_also": "{first} and {rest}",
        "words.sentence": "{words}.",
        # a patience deal's end: the page leaves "won: " and "lost: " to its title
        "words.won": "won: {why}",
        "words.lost": "lost: {why}",
        "words.sentence_end": "{words}. {ending}.",
        # the words given, their first letter upper case (CAPITALISED)
        "words.capital": "{words}",
        "words.ordinal_first": "1st",
        "words.ordinal_st": "{number}st",
        "words.ordinal_nd": "{number}nd",
        "words.ordinal_rd": "{number}rd",
        "words.ordinal_th": "{number}th",
    }
)
