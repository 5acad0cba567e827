"""What clients send: the HTTP requests' bodies (:class:`CreateTable`, :class:`Act`...) and the
WebSocket messages, one union discriminated on ``type`` (:data:`INCOMING`: hello, act, undo, end,
view, chat), read by :func:`parse_incoming`. Every model refuses a field it does not name."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, TypeAdapter

from fanfold.core.records import MAX_SEED_DIGITS
from fanfold.server.protocol.base import MAX_BODY, Ending, Strict


def _seed_value(value: object) -> int:
    """A seed from a request: decimal digits in a string, or a whole JSON number."""
    if isinstance(value, str):
        text = value.strip()
        if not text.isascii() or not text.isdigit() or len(text) > MAX_SEED_DIGITS:
            raise ValueError(f"a seed is up to {MAX_SEED_DIGITS} decimal digits")
        return int(text)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError("a seed is a whole number, written in decimal digits")
    if not 0 <= value < 10**MAX_SEED_DIGITS:
        raise ValueError(f"a seed is from 0 to {MAX_SEED_DIGITS} digits long")
    return value


#: A seed in a request (see :func:`_seed_value`).
Seed = Annotated[int, BeforeValidator(_seed_value)]


class CreateTable(Strict):
    """Open a table."""

    game: str = Field(min_length=1, max_length=60)
    variant: str | None = Field(default=None, max_length=60)
    players: int | None = Field(default=None, ge=1, le=16)
    options: dict[str, str] = Field(default_factory=dict, max_length=40)
    seats: list[Annotated[str, Field(max_length=200)]] = Field(default_factory=list, max_length=16)
    #: A seed in decimal digits (a string: seeds have up to 128 bits, more than a browser's
    #: JSON numbers keep); a JSON number is taken too. Told to everyone who joins.
    seed: Seed | None = None
    deal: Seed | None = None
    position: str | None = Field(default=None, max_length=2000)
    time_limit: int | None = Field(default=None, ge=1, le=3600)
    #: The table's time control, by speed (``blitz``, ``rapid``, ``classical``, ``daily``):
    #: chess clocks for its people. A rated table gets its game's default speed without one.
    speed: Literal["blitz", "rapid", "classical", "daily"] | None = None
    #: A practice table: undo allowed in games with hidden cards, told to all, never fair.
    practice: bool = False
    #: List the table in the lobby (for anyone to watch).
    public: bool = False
    #: A rated table (issue 31): only a fair table whose every person is signed in changes
    #: ratings (:mod:`fanfold.server.ratings`).
    rated: bool = False


class Act(Strict):
    """Play an action for a seat."""

    token: str = Field(max_length=200)
    version: int | None = Field(default=None, ge=0)
    action: str = Field(max_length=400)
    seat: int | None = Field(default=None, ge=0, le=16)


class Undo(Strict):
    """Take moves back."""

    token: str = Field(max_length=200)
    version: int | None = Field(default=None, ge=0)


class LoadRecord(Strict):
    """Open a table from a record: the record as JSON, or its file's text (``text``, which
    keeps every digit of a seed written as a number)."""

    record: dict[str, Any] | None = None
    text: str | None = Field(default=None, max_length=MAX_BODY)
    seats: list[Annotated[str, Field(max_length=200)]] = Field(default_factory=list, max_length=16)


class Claim(Strict):
    """Take the seat an invitation opens."""

    invite: str = Field(min_length=1, max_length=200)


class Invite(Strict):
    """A new invitation to a seat, for the table's creator."""

    token: str = Field(max_length=200)
    seat: int = Field(ge=0, le=16)


class Rematch(Strict):
    """Open (or find) a finished table's rematch, for one of its players: ``swapped`` (the
    default) moves everyone one seat on (two players swap colours and who goes first),
    ``same`` keeps everyone at their seat. The first request decides; a later one finds the
    same table."""

    token: str = Field(max_length=200)
    seats: Literal["swapped", "same"] = "swapped"


class Takeback(Strict):
    """Ask for a takeback of your last move at a casual table of two people (``ask``), or
    answer the other player's (``accept``: their last move and every move after it are taken
    back; ``decline``)."""

    token: str = Field(max_length=200)
    answer: Literal["ask", "accept", "decline"]


class Hello(Strict):
    """The first message on a socket: a seat's token (none: a spectator) and the seat to
    see (a hot-seat token holds several)."""

    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=200)
    seat: int | None = Field(default=None, ge=0, le=16)
    #: Take part in the table's chat: the room's last lines now, and its new lines after.
    chat: bool = False


class WsAct(Strict):
    """Play an action (``seat``: the seat it is for; none: the decider, when held)."""

    type: Literal["act"]
    version: int | None = Field(default=None, ge=0)
    action: str = Field(max_length=400)
    seat: int | None = Field(default=None, ge=0, le=16)


class WsUndo(Strict):
    """Take moves back to the holder's last decision."""

    type: Literal["undo"]
    version: int | None = Field(default=None, ge=0)


class WsEnd(Strict):
    """End the game at the table (:mod:`fanfold.core.rulings`): ``resign``, ``abort``, or
    ``draw`` (an offer, or the acceptance of another side's), for ``seat`` (none: the
    holder's first seat)."""

    type: Literal["end"]
    ending: Ending
    version: int | None = Field(default=None, ge=0)
    seat: int | None = Field(default=None, ge=0, le=16)


class WsTakeback(Strict):
    """Ask for a takeback of your last move (``ask``), or answer the other player's
    (``accept``, ``decline``): as ``POST /api/tables/{id}/takeback`` does, over the socket."""

    type: Literal["takeback"]
    answer: Literal["ask", "accept", "decline"]


class WsView(Strict):
    """See the table from another seat the token holds (none: as a spectator)."""

    type: Literal["view"]
    seat: int | None = Field(default=None, ge=0, le=16)


class WsChat(Strict):
    """Say a line in a room of the table: ``players`` (the seats') or ``spectators``
    (:mod:`fanfold.server.chat` says who may, and what)."""

    type: Literal["chat"]
    room: Literal["players", "spectators"]
    text: str = Field(max_length=2000)


#: What a client sends after its hello.
Later = Hello | WsAct | WsUndo | WsEnd | WsTakeback | WsView | WsChat
#: A WebSocket message from a client: one of :class:`Hello`, :class:`WsAct`, :class:`WsUndo`,
#: :class:`WsEnd`, :class:`WsTakeback`, :class:`WsView`, :class:`WsChat`, told apart by
#: ``type``.
Incoming = Annotated[Later, Field(discriminator="type")]
#: Reads an incoming WebSocket message (:func:`parse_incoming`).
INCOMING: TypeAdapter[Later] = TypeAdapter(Incoming)
#: The ``type`` of every incoming message.
INCOMING_TYPES = ("hello", "act", "undo", "end", "takeback", "view", "chat")


def parse_json(raw: str | bytes) -> Any:
    """``raw`` as JSON.

    Raises:
        ValueError: not JSON, or nested so deeply that the parser gives up (a few KB of
            brackets do that), with a sentence.
    """
    try:
        return json.loads(raw)
    except RecursionError:
        raise ValueError("the JSON is nested too deeply; a message never is") from None


def parse_incoming(data: object, *, hello: bool) -> Later:
    """A WebSocket message read from JSON: a :class:`Hello` when ``hello`` (the first message
    of a connection), else one of the others.

    Raises:
        ValueError: not an object, or a type the connection cannot send now (a sentence).
        pydantic.ValidationError: a field missing, extra or out of range.
    """
    if not isinstance(data, dict):
        raise ValueError("a message is a JSON object")
    kind = data.get("type")
    if hello:
        if kind != "hello":
            return Hello.model_validate(data)  # says what the first message must be
    elif kind not in INCOMING_TYPES[1:]:
        raise ValueError(
            f"unknown message type {kind!r}; use act, undo, end, takeback, view or chat"
        )
    return INCOMING.validate_python(data)


# ------------------------------------------------ accounts, the lobby, endings


class Credentials(Strict):
    """A name and a password: to create an account or to sign in. Their rules are the
    accounts' (:mod:`fanfold.server.account_names`), which refuse a name or a password of any
    length against them with their own sentence (400), not the schema."""

    name: str = Field(max_length=MAX_BODY)
    password: str = Field(max_length=MAX_BODY)


class QuickMatch(Strict):
    """Join the open table of these settings that has waited longest: the game, its variant
    as the variant has it (a table opened with options of its own is not matched), the
    players, rated or not, and the time limit per decision (``None``: none)."""

    game: str = Field(min_length=1, max_length=60)
    variant: str | None = Field(default=None, max_length=60)
    players: int | None = Field(default=None, ge=1, le=16)
    rated: bool = False
    time_limit: int | None = Field(default=None, ge=1, le=3600)


class GiveSeat(Strict):
    """The creator gives an open seat nobody took to a bot level."""

    token: str = Field(max_length=200)
    seat: int = Field(ge=0, le=16)
    level: str = Field(max_length=20)


class EndTable(Strict):
    """End the game over HTTP, as :class:`WsEnd` does on a socket."""

    token: str = Field(max_length=200)
    ending: Ending
    version: int | None = Field(default=None, ge=0)
    seat: int | None = Field(default=None, ge=0, le=16)


__all__ = [
    "INCOMING",
    "INCOMING_TYPES",
    "Act",
    "Claim",
    "CreateTable",
    "Credentials",
    "EndTable",
    "GiveSeat",
    "Hello",
    "Incoming",
    "Invite",
    "LoadRecord",
    "QuickMatch",
    "Rematch",
    "Seed",
    "Undo",
    "WsAct",
    "WsChat",
    "WsEnd",
    "WsTakeback",
    "WsUndo",
    "WsView",
    "parse_incoming",
    "parse_json",
]
