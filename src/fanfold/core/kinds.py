"""Action kinds, and per-seat restrictions on them.

An action's *kind* is its class in the game's notation, snake case, with a ``+flag`` for each
flag it carries: Fano's ``Combine(..., oversum=True)`` is ``combine+oversum``, its Temporary
Joker shuffle ``shuffle+joker``, a Reverse Fano attack ``attack+reverse``, Perfect defense
``defend``, a Trionfey ``declare``, ``counter`` (a combine counter), ``recruit``, ``allow``;
Fan Tan's plays and passes, Morris's placements and moves likewise. The kind of a *played*
action may say more than the action alone: a Trionfey attack declared without the support in
hand is ``declare+bluff`` (the state tells, the action does not).

A restriction names kinds a seat may not choose. A name forbids every kind it is a part of:
``oversum`` forbids ``combine+oversum``, ``combine`` every combination, ``joker`` the Temporary
Joker shuffle and Trionfey's ``place_joker`` alike::

    >>> from fanfold.games.fano.actions import Combine, Shuffle
    >>> action_kind(Combine(17, 33, 49, oversum=True))
    'combine+oversum'
    >>> forbids(("oversum",), "combine+oversum"), forbids(("oversum",), "combine")
    (True, False)
    >>> from fanfold.core.registry import get_game
    >>> fano = get_game("fano")
    >>> state = fano.new_state(fano.default_config(), 1)
    >>> [action_kind(a) for a in allowed(fano, state, [Shuffle(), Shuffle(True)], ("joker",))]
    ['shuffle']

The rules engine is never asked to forbid anything: the table offers a restricted seat's agent
only the legal actions its restriction allows (:meth:`fanfold.play.table.Table.offered`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import Any

from fanfold.core.errors import ConfigError, Refusal, templates
from fanfold.core.registry import AnyGame

templates(
    {
        "kinds.not_a_kind": "{name} is not an action kind: write words such as {examples}",
    }
)

#: Kinds whose class name reads better shortened.
_RENAMED = {"combine_counter": "counter", "place_joker": "place+joker"}
#: Kinds whose flags read better as a word (Fano's draw-phase redraw or not).
_WORDS = {"mulligan": "keep", "mulligan+take": "mulligan"}
_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


def action_kind(action: Any) -> str:
    """The kind of ``action`` from its class and flags (see the module text)."""
    cls = type(action)
    kind = _CAMEL.sub("_", cls.__name__).lower()
    kind = _RENAMED.get(kind, kind)
    if dataclasses.is_dataclass(action):
        for field in dataclasses.fields(action):
            value = getattr(action, field.name)
            if value is True:
                kind += f"+{field.name}"
    return _WORDS.get(kind, kind)


def played_kind(game: AnyGame, state: Any, action: Any) -> str:
    """The kind of ``action`` played in ``state``: :func:`action_kind` and the flags the game
    adds from the position (:meth:`~fanfold.core.game.Game.played_flags`: for a Trionfey
    declared attack ``+bluff`` when the attacker does not hold the support)."""
    return "+".join((action_kind(action), *game.played_flags(state, action)))


def check_names(names: Sequence[str]) -> tuple[str, ...]:
    """Restriction names, checked and normalised (lower case, ``-`` read as ``_``).

    Raises:
        ConfigError: a name that is not a word such as ``oversum`` or ``place_joker``.
    """
    checked: list[str] = []
    for name in names:
        norm = name.strip().lower().replace("-", "_")
        if not _NAME.match(norm):
            examples = "oversum, joker, reverse, defend, recruit, counter, declare or bluff"
            raise ConfigError(Refusal("kinds.not_a_kind", name=repr(name), examples=examples))
        if norm not in checked:
            checked.append(norm)
    return tuple(checked)


def forbids(names: Sequence[str], kind: str) -> bool:
    """Whether a restriction forbidding ``names`` forbids ``kind``."""
    parts = kind.split("+")
    return any(name == kind or name in parts for name in names)


def allowed(game: AnyGame, state: Any, actions: Sequence[Any], names: Sequence[str]) -> list[Any]:
    """The actions of ``state`` a restriction forbidding ``names`` leaves (possibly none)."""
    if not names:
        return list(actions)
    return [action for action in actions if not forbids(names, played_kind(game, state, action))]
