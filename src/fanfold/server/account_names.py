"""The rules of a new account's name and password (:func:`check_name`,
:func:`check_password`).

Reserved names: a bot level (:data:`fanfold.agents.levels.LEVELS`), a registered agent
(``random``, ``mcts-strong``, ...), a role (``admin``, ``moderator``, ``system``, ...), the
site's own name, and their look-alikes may not be an account's name. Names are compared on
keys (:func:`name_keys`): lower case, without ``_ . -``, digits that stand for letters read
as those letters (``0`` as ``o``, ``1`` as ``l``/``i``, ``3`` ``e``, ``4`` ``a``, ``5``
``s``, ``7`` ``t``; ``l`` and ``i`` as one letter, ``rn`` as ``m``, ``vv`` as ``w``), other
digits at either end and words such as ``bot`` or ``ai`` at either end left out: so
``Hard-bot``, ``h4rd`` and ``HARD_2`` all read as ``hard``. Existing accounts keep their
names; only new accounts are checked.
"""

from __future__ import annotations

import functools
import re

from fanfold.agents.base import agent_names
from fanfold.agents.levels import LEVELS
from fanfold.server.live import BadRequestError
from fanfold.server.refusals import refusal

#: A name: 3 to 20 letters, digits, ``_``, ``-`` or ``.``, starting with a letter or digit.
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{2,19}")
MIN_PASSWORD, MAX_PASSWORD = 8, 200

#: Roles, seat words and the site's own name that no account may take (with the bot levels
#: and the registered agents' names, :func:`reserved_keys`).
RESERVED = (
    "admin",
    "administrator",
    "root",
    "superuser",
    "sysop",
    "moderator",
    "mod",
    "staff",
    "support",
    "helpdesk",
    "official",
    "system",
    "server",
    "fanfold",
    "bot",
    "bots",
    "robot",
    "ai",
    "cpu",
    "computer",
    "engine",
    "agent",
    "level",
    "guest",
    "anonymous",
    "nobody",
    "player",
    "owner",
    "human",
    "you",
    "hotseat",
    "friend",
    "open",
    "null",
    "none",
    "undefined",
)
#: Reserved words a name may not contain anywhere.
RESERVED_WITHIN = ("fanfold",)
#: Words left out at either end of a name before it is compared (``Hard-bot`` is ``hard``).
AFFIXES = ("bots", "bot", "ai", "cpu", "agent", "level", "lvl", "official", "the")
#: Characters read as the letter they look like; ``l`` and ``i`` read as one letter.
_LOOK_ALIKE = str.maketrans("013457l", "oieasti")
_SEPARATORS = re.compile(r"[_.\-]")
_DIGITS = "0123456789"


def _letters(text: str) -> str:
    """``text`` read letter for letter: lower case, look-alike characters as their letter
    (one character for one, so that positions stay)."""
    return text.lower().translate(_LOOK_ALIKE)


def _key(text: str) -> str:
    """The key a text is compared on: :func:`_letters`, then ``rn`` as ``m``, ``vv`` as
    ``w``."""
    return _letters(text).replace("rn", "m").replace("vv", "w")


def name_keys(name: str) -> set[str]:
    """Every key ``name`` reads as: without separators, then with digits and
    :data:`AFFIXES` at either end left out in every order (none of them empty)."""
    start = _SEPARATORS.sub("", name.lower())
    found = {start}
    todo = [start]
    while todo:
        text = todo.pop()
        letters = _letters(text)
        shorter = [text.lstrip(_DIGITS), text.rstrip(_DIGITS)]
        for affix in AFFIXES:
            if letters.startswith(_letters(affix)):
                shorter.append(text[len(affix) :])
            if letters.endswith(_letters(affix)):
                shorter.append(text[: -len(affix)])
        for other in shorter:
            if other and other not in found:
                found.add(other)
                todo.append(other)
    return {_key(text) for text in found}


@functools.cache
def reserved_keys() -> dict[str, tuple[str, str]]:
    """The key of each reserved word (the bot levels, the registered agents' names and
    :data:`RESERVED`), with the word and what it is."""
    kinds = (
        (LEVELS, "a bot level"),
        (agent_names(), "an agent's name"),
        (RESERVED, "a role or a word the site uses"),
    )
    found: dict[str, tuple[str, str]] = {}
    for words, kind in kinds:
        for word in words:
            found.setdefault(_key(_SEPARATORS.sub("", word)), (word, kind))
    return found


def reserved_as(name: str) -> tuple[str, str] | None:
    """The reserved word ``name`` reads as, if any, and what it is."""
    keys = name_keys(name)
    reserved = reserved_keys()
    for key in sorted(keys):
        if key in reserved:
            return reserved[key]
    for word in RESERVED_WITHIN:
        if any(_key(word) in key for key in keys):
            return word, "the site's own name"
    return None


def check_name(name: str) -> str:
    """``name`` if it may be a new account's name.

    Raises:
        BadRequestError: it may not, with the rule.
    """
    if not NAME.fullmatch(name):
        raise BadRequestError(refusal("account.bad_name"))
    reserved = reserved_as(name)
    if reserved is not None:
        word, kind = reserved
        raise BadRequestError(refusal("account.reserved", name=name, word=repr(word), kind=kind))
    return name


def check_password(password: str) -> str:
    """``password`` if it may be one.

    Raises:
        BadRequestError: too short or too long.
    """
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise BadRequestError(
            refusal(
                "account.password_length",
                least=MIN_PASSWORD,
                most=MAX_PASSWORD,
                count=len(password),
            )
        )
    return password
