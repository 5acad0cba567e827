"""A table in memory and what the server adds around it: :class:`LiveTable` (the table, its
seats' token hashes, its watchers, bots and clock), :class:`Watcher` (a connection that hears
about it), :class:`Created` (a new table's id, token and invitations), and the errors the
server answers with (each a :class:`~fanfold.core.errors.FanfoldError` whose sentence is told
to the client; :func:`fanfold.server.app.status_of` gives its HTTP status).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from fanfold.core.config import JSONObject
from fanfold.core.errors import FanfoldError
from fanfold.play.table import Played, Table
from fanfold.server.errors import BadRequestError
from fanfold.server.outbox import Outbox
from fanfold.server.refusals import refusal
from fanfold.server.store import token_hash
from fanfold.server.table_options import TableOptions

if TYPE_CHECKING:
    from fanfold.server.protocol.messages import LogEntry

#: Seconds a claimed seat's player must have been away (no connection holding the seat)
#: before the table's creator may invite someone else to it.
GONE_SECONDS = 120.0

Send = Callable[[JSONObject], Awaitable[None]]

log = logging.getLogger(__name__)


#: The option naming a finished table's rematch (the new table's id), once one is opened.
REMATCH = "rematch"
#: The option naming the table a rematch follows.
REMATCH_OF = "rematch_of"
#: The option of a finished table whose rematch kept everyone at the same seat (absent: the
#: rematch moved everyone one seat on, two players' colours swapped).


class NotFoundError(FanfoldError, KeyError):
    """No table by that id (or another thing a request names that is not there)."""

    def __str__(self) -> str:  # KeyError quotes its message; show it plainly.
        return str(self.args[0]) if self.args else ""


class ForbiddenError(FanfoldError, PermissionError):
    """A token that holds no seat the request needs."""


class StorageError(FanfoldError, RuntimeError):
    """The store refused a write; nothing was changed."""


class InvitationError(ForbiddenError):
    """An invitation that opens no seat: used already, replaced, or never issued."""


def storage_failure(doing: str, error: BaseException) -> StorageError:
    """The error a player gets when the store fails while ``doing`` something (a ``store.*``
    refusal's code, ``"store.move"``: "the move could not be stored"): a short sentence with an
    error id, never the database's own text (which names its host, port and SQL), as a
    refusal that a page words in its reader's language. The log gets the id with the whole
    exception, so an operator can find what the player saw."""
    error_id = secrets.token_hex(4)
    what = refusal(doing)
    log.error("storage error %s: %s", error_id, what, exc_info=error)
    return StorageError(refusal("store.failed", doing=what, error=error_id))


class CrowdedError(FanfoldError, RuntimeError):
    """The table has as many spectators as it takes."""


@dataclass(eq=False)
class Watcher:
    """A connection that hears about a table: as a seat (a token holding it) or a spectator."""

    seat: int | None
    seats: frozenset[int]
    send: Send
    #: The token the connection said hello with (kept in memory, never sent back).
    token: str | None = field(default=None, repr=False)
    #: Where the connection's messages queue, serialised, for its own writer (a socket);
    #: without one, ``send`` is awaited for each message.
    outbox: Outbox | None = field(default=None, repr=False)
    #: Whether the connection takes part in the table's chat (:mod:`fanfold.server.chat`).
    chat: bool = False
    #: The account signed in on the connection's browser, id and name (``None``: a guest).
    account: tuple[int, str] | None = field(default=None, repr=False)

    @property
    def spectating(self) -> bool:
        """A connection that holds no seat here."""
        return not self.seats


@dataclass(eq=False)
class LiveTable:
    """A table in memory with what the server adds around it."""

    id: str
    table: Table
    #: The hash of the token holding each seat (``None``: a bot, or a seat nobody claimed).
    seat_hashes: list[str | None]
    options: TableOptions
    #: The hash of each seat's pending invitation (``None``: none pending).
    invite_hashes: list[str | None] = field(default_factory=list)
    #: The hash of the creator's token (``None``: a table from before invitations).
    creator_hash: str | None = field(default=None, repr=False)
    #: The account holding each seat (``None``: a guest, a bot, or nobody yet).
    accounts: list[int | None] = field(default_factory=list)
    #: Who opened the table, for the bot pool's shares (:meth:`bot_client`): kept in memory
    #: only, never stored nor sent (a guest's is its address).
    client: str | None = field(default=None, repr=False)
    #: When a connection last held each seat (``time.monotonic()``); see :meth:`is_gone`.
    seen: dict[int, float] = field(default_factory=dict)
    #: Seats taken while the table was in memory whose holder has not connected since: such
    #: a player has not left (:meth:`claim_wait`); a connection holding the seat ends it.
    arriving: set[int] = field(default_factory=set)
    #: When the table came into memory.
    loaded: float = field(default_factory=time.monotonic)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: set[Watcher] = field(default_factory=set)
    bots: asyncio.Task[None] | None = None
    #: Seats whose next decision a bot is computing (shown to players as "thinking").
    thinking: int | None = None
    #: The time limit's timer for the decision now (tables with ``time_limit``).
    clock: asyncio.Task[None] | None = None
    #: When the decision now runs out of time (``time.monotonic()``), and the version it is for.
    deadline: tuple[int, float] | None = None
    #: When the table was last asked for (``time.monotonic()``).
    touched: float = field(default_factory=time.monotonic)
    #: True once the hub has let the table go from memory: whoever still holds this object
    #: asks the hub again (the table is rebuilt from the store).
    evicted: bool = False
    #: The log's entries as each seat (``None``: a spectator) is told them, made and
    #: serialised once (:func:`fanfold.server.protocol.log_text`): the actions they tell,
    #: the entries and their texts (``None`` and empty for an action that seat is not told of).
    log_texts: dict[int | None, tuple[list[Played], list[LogEntry | None], list[str]]] = field(
        default_factory=dict, repr=False
    )
    #: The table's config as JSON, made once (:meth:`config_json`).
    _config_json: JSONObject | None = field(default=None, init=False, repr=False)

    def config_json(self) -> JSONObject:
        """The table's config as JSON (``table.config.to_json()``, a new dict each time),
        made once: a table's variant never changes, and every message it sends tells it."""
        if self._config_json is None:
            self._config_json = self.table.config.to_json()
        return dict(self._config_json)

    def bot_client(self) -> str | None:
        """The client whose share of the bot pool this table's bots use
        (:class:`fanfold.server.bots.BotPool`): who opened it, else the first account at it
        (a table read back from the store), else its creator's token, else nobody (the
        table counts on its own)."""
        if self.client is not None:
            return self.client
        account = next((number for number in self.accounts if number is not None), None)
        if account is not None:
            return f"account:{account}"
        if self.creator_hash is not None:
            return f"creator:{self.creator_hash}"
        return None

    def is_idle(self) -> bool:
        """Nobody watches, no bot thinks or plays on, no timer runs and nothing holds the
        lock: the table may leave memory, nothing of it lost (every action is stored)."""
        return (
            not self.watchers
            and self.thinking is None
            and (self.bots is None or self.bots.done())
            and (self.clock is None or self.clock.done())
            and not self.lock.locked()
        )

    @property
    def time_limit(self) -> float:
        """Seconds a person has for each decision (0: no limit)."""
        limit = self.options.time_limit
        return float(limit) if limit is not None else 0.0

    def is_creator(self, token: str | None) -> bool:
        """Whether ``token`` is the creator's."""
        if not token or self.creator_hash is None:
            return False
        return secrets.compare_digest(token_hash(token), self.creator_hash)

    def is_open(self, seat: int) -> bool:
        """Whether ``seat`` waits for its invitation to be claimed."""
        return seat < len(self.invite_hashes) and self.invite_hashes[seat] is not None

    def free_lobby_seats(self) -> list[int]:
        """The lobby's open seats (``"open"`` at the table's opening) nobody has taken yet:
        no token holds them, no invitation waits for them."""
        return [
            seat
            for seat in self.options.open_seats or ()
            if 0 <= seat < len(self.seat_hashes)
            and self.seat_hashes[seat] is None
            and not self.is_open(seat)
        ]

    def is_present(self, seat: int) -> bool:
        """Whether a connection holds ``seat`` now."""
        return any(seat in watcher.seats for watcher in self.watchers)

    def is_gone(self, seat: int, now: float | None = None) -> bool:
        """Whether ``seat``'s player has left: no connection holds it, and none has for
        :data:`GONE_SECONDS`."""
        now = time.monotonic() if now is None else now
        last = self.seen.get(seat, self.loaded)
        return not self.is_present(seat) and now - last >= GONE_SECONDS

    def claim_wait(self, seat: int, now: float | None = None) -> float | None:
        """How long ``seat``'s player waits before claiming the win because the other side
        left (0: the win may be claimed now), in a game of two sides; ``None`` when there is
        nothing to wait for: the other side is a bot, has a seat nobody claimed or one whose
        player took it and has not connected yet (:attr:`arriving`: nobody left), or one of
        its people is here now. A side has left once none of its people has had a connection
        for :data:`GONE_SECONDS`."""
        table = self.table
        teams = table.game.teams(table.config)
        if len(teams) != 2 or table.is_over:
            return None
        others = [
            other
            for team in teams
            if seat not in team
            for other in team
            if table.seats[other].is_human
        ]
        if not others or any(
            self.seat_hashes[other] is None or other in self.arriving for other in others
        ):
            return None
        if any(self.is_present(other) for other in others):
            return None
        now = time.monotonic() if now is None else now
        waits = [GONE_SECONDS - (now - self.seen.get(other, self.loaded)) for other in others]
        return max(0.0, *waits)

    def seats_of(self, token: str | None) -> frozenset[int]:
        """The seats ``token`` holds here (none for a missing or forged token)."""
        if not token:
            return frozenset()
        hashed = token_hash(token)
        return frozenset(n for n, held in enumerate(self.seat_hashes) if held == hashed)


@dataclass(frozen=True)
class Created:
    """A new table: its id, the creator's token (it holds the creator's seats, and lets the
    creator invite someone to a seat again) and an invitation per friend's seat (the code
    of a join link: whoever claims it gets a token of its own)."""

    id: str
    token: str
    invites: dict[int, str]


@dataclass(frozen=True)
class Acted:
    """An action a seat played (:meth:`Hub.act`) and the version it left the table at, read
    under the table's lock (a bot may act right after, and its version is not this one)."""

    played: Played
    version: int

    @property
    def text(self) -> str:
        """The action in the notation."""
        return self.played.text

    @property
    def number(self) -> int:
        """The action's number in the game."""
        return self.played.number


@dataclass(frozen=True)
class Ended:
    """A table-level ending asked for (:meth:`Hub.end`): whether the game ended (a draw
    offered ends nothing yet) and the version it left the table at, read under its lock."""

    done: bool
    version: int


@dataclass(frozen=True)
class Undone:
    """An undo (:meth:`Hub.undo`): whether anything was taken back (its truth) and the version
    it left the table at, read under the table's lock."""

    done: bool
    version: int

    def __bool__(self) -> bool:
        return self.done


__all__ = [
    "GONE_SECONDS",
    "REMATCH",
    "REMATCH_OF",
    "Acted",
    "BadRequestError",
    "Created",
    "CrowdedError",
    "ForbiddenError",
    "InvitationError",
    "LiveTable",
    "NotFoundError",
    "Send",
    "StorageError",
    "Undone",
    "Watcher",
    "storage_failure",
]
