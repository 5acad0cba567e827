"""The error hierarchy.

Every error fanfold raises for bad input is a :class:`FanfoldError`. The ones a player can
cause by typing are :class:`ValueError` subclasses, so callers that only know the standard
library still catch them. None of them is raised after a state has changed: states are
immutable and an action is checked before anything new is built.

A refusal a player reads (an illegal move, a request the server turns down) is a
:class:`Refusal`: a stable ``code`` (``"fano.no_card_in_play"``), its ``params`` (plain values)
and its English sentence, made from the code's one template (:data:`TEMPLATES`). It is a
``str`` (the sentence), so whatever prints or compares the sentence keeps doing so; an error
raised with one keeps it as :attr:`FanfoldError.refusal`, and the play server sends the code
and the params beside the sentence so that a page can word it in its reader's language, from
the same template translated (``docs/i18n.md``).
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from typing import Any

from fanfold.core.phrases import Phrase

#: Every refusal's English template by code: ``{name}`` marks a parameter. Each game registers
#: its own (:func:`templates`) as its rules are imported; the codes are namespaced by game
#: (``"fano."``), ``"game."`` for the rules every game shares.
TEMPLATES: dict[str, str] = {}
#: Words a refusal may carry as a parameter (a side's colour, a shape, a suit): the page
#: translates such a parameter too, so they are in the catalogues beside the templates.
WORDS: set[str] = set()

#: A refusal's parameter: plain text (a card, a move, a word of :data:`WORDS`), a number, or
#: another refusal (the reason inside a longer one).
ParamValue = str | int


def templates(entries: Mapping[str, str]) -> None:
    """Registers refusal templates; a code may not change its template."""
    for code, template in entries.items():
        known = TEMPLATES.setdefault(code, template)
        if known != template:
            raise ValueError(f"refusal code {code!r} has two templates")


def refusal_words(*words: str) -> None:
    """Registers words that a refusal carries as parameters (translated on the page too)."""
    WORDS.update(words)


def template_fields(template: str) -> frozenset[str]:
    """The parameters a template names."""
    return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name)


class Refusal(str):
    """Why something is refused: a stable ``code``, its ``params``, and (as the string itself)
    the English sentence of the code's template. ``Refusal("fan.empty", fan=3)`` is
    ``"fan 3 is empty"``. An unknown code, or params other than the template's, raise
    :class:`KeyError` / :class:`ValueError`: a refusal always has its template, exactly."""

    code: str
    params: dict[str, ParamValue]

    def __new__(cls, code: str, /, **params: ParamValue) -> Refusal:
        template = TEMPLATES[code]
        wanted = template_fields(template)
        if set(params) != wanted:
            raise ValueError(f"refusal {code!r} takes {sorted(wanted)}, not {sorted(params)}")
        made = super().__new__(cls, template.format_map({k: str(v) for k, v in params.items()}))
        made.code = code
        made.params = dict(params)
        return made

    def __getnewargs_ex__(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (self.code,), dict(self.params)

    def to_json(self) -> dict[str, Any]:
        """``{"code": ..., "params": {...}}``, a refusal inside as its own such object."""
        return {
            "code": self.code,
            "params": {
                name: value.to_json() if isinstance(value, Refusal | Phrase) else value
                for name, value in self.params.items()
            },
        }


templates(
    {
        "game.over": "the game is over",
        "game.not_legal": "{action} is not a legal move here; type 'legal' to list the legal moves",
        "game.is_legal": "{action} is legal here",
        "game.impossible_position": "impossible position: {problems}",
        "game.problems": "{first}; {rest}",
    }
)


def problems_joined(problems: Sequence[str]) -> ParamValue:
    """A list of problems (each a :class:`Refusal` where it has one) as one parameter:
    ``first; second; third``, each pair joined by the refusal ``game.problems`` so that a page
    words every problem in its reader's language (``game.impossible_position``'s
    ``problems``)."""
    if not problems:
        raise ValueError("no problems to join")
    if len(problems) == 1:
        return problems[0]
    return Refusal("game.problems", first=problems[0], rest=problems_joined(problems[1:]))


class FanfoldError(Exception):
    """Base class of every error fanfold raises on purpose. Raised with a :class:`Refusal`,
    it keeps it (:attr:`refusal`); its message is the refusal's English sentence either way."""

    refusal: Refusal | None = None

    def __init__(self, *args: object) -> None:
        if args and isinstance(args[0], Refusal):
            self.refusal = args[0]
            args = (str(args[0]), *args[1:])
        super().__init__(*args)


def reason_of(error: Exception) -> str:
    """An error's reason to carry inside a longer refusal: its :class:`Refusal` where it has
    one (so that a page words it too), else its English sentence."""
    refusal = error.refusal if isinstance(error, FanfoldError) else None
    return str(error) if refusal is None else refusal


class NotationError(FanfoldError, ValueError):
    """Text that does not parse: a malformed action, position, card or record."""


class IllegalActionError(FanfoldError, ValueError):
    """A well-formed action that the rules do not allow in this position."""


class ConfigError(FanfoldError, ValueError):
    """A variant configuration that is inconsistent or out of range."""


class UnknownGameError(FanfoldError, KeyError):
    """A game id or variant name that is not registered."""

    def __str__(self) -> str:  # KeyError quotes its message; show it plainly.
        return str(self.args[0]) if self.args else ""


class UnknownAgentError(FanfoldError, KeyError):
    """An agent name that is not registered, or not for this game."""

    def __str__(self) -> str:  # KeyError quotes its message; show it plainly.
        return str(self.args[0]) if self.args else ""


class TurnError(IllegalActionError):
    """An action submitted by a seat that is not the one to decide now."""


class StaleVersionError(FanfoldError, ValueError):
    """An action submitted against a version of a table that has since moved on."""


class RecordError(FanfoldError, ValueError):
    """A game record that cannot be read or does not replay."""
