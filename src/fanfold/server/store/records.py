"""What the store hands out and takes in, without SQL: a new table's plan and its seats, a
table as stored, its seats, a line of the lobby's list, a row of a group commit, the keys the
hub keeps in a table's options, and the transaction handed to what must commit with a
change."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from fanfold.core.config import JSONObject, JSONValue


class Transaction(Protocol):
    """An open transaction of a store, handed to what must be written in it (a rated game's
    ratings, written with the game's end): kept or dropped with it. Opaque outside the store
    package, whose subjects' methods take it back (a SQL connection; in memory, a token)."""


#: What runs inside a change's transaction (a rated game's ratings, a leaver's rating).
InTransaction = Callable[[Transaction], object]


def token_hash(token: str) -> str:
    """What the store keeps of a seat's token: its SHA-256, so the file alone holds no seat."""
    return hashlib.sha256(token.encode()).hexdigest()


#: The PostgreSQL channel on which a store says that the lobby's open tables may have changed
#: (a listed table opened, a seat taken or given to a bot, a listed game ended, tables
#: expired): notified in the change's own transaction, so every process that LISTENs hears of
#: it once it is committed (:mod:`fanfold.server.lobby_feed`).
LOBBY_CHANNEL = "fanfold_lobby"

#: The key of a table's stored options that says whether start-up loads it: true while a bot
#: decides next or a person decides under a time limit (the hub writes it with every change;
#: a table stored before it existed has none and is loaded, as every table was before).
RESUME = "resume"
#: The key of a table's options that says it is listed in the lobby (a copy of its
#: ``listed`` column the hub keeps there): the end of such a game changes the lobby's lists.
LISTED = "listed"


@dataclass(frozen=True)
class AppendRow:
    """One action to store with the table's version after it (see
    :meth:`~fanfold.server.store.protocols.TableStore.append_many`)."""

    table_id: str
    number: int
    seat: int
    text: str
    version: int
    outcome: JSONObject | None
    #: The table's options to store with it (they carry :data:`RESUME`); ``None`` keeps them.
    options: JSONObject | None = None
    #: Run in the same transaction once the row is stored (not for a refused table): a rated
    #: game's end writes the ratings there (:mod:`fanfold.server.ratings`), so that a crash
    #: never keeps the end without its ratings or the ratings without the end.
    on_end: InTransaction | None = None


@dataclass(frozen=True)
class StoredSeat:
    """One seat as stored: its player (``"human"`` or an agent text), its token's hash (none
    while nobody holds it) and its pending invitation's hash."""

    seat: int
    player: str
    token_hash: str | None
    invite_hash: str | None = None
    #: The account holding the seat (``None``: a guest, a bot, or nobody yet).
    account_id: int | None = None


@dataclass(frozen=True)
class SeatPlan:
    """Who sits at one seat of a new table: a person (``"human"``) holding the seat with a
    token (its hash) and perhaps an account, or a friend's seat opened by an invitation (its
    hash), or a seat open to anyone (no hash at all); or a bot, its agent text."""

    player: str
    token_hash: str | None = None
    invite_hash: str | None = None
    #: The account holding the seat (``None``: a guest, a bot, or nobody yet).
    account_id: int | None = None

    def at(self, seat: int) -> StoredSeat:
        """The seat as stored, as seat number ``seat``."""
        return StoredSeat(seat, self.player, self.token_hash, self.invite_hash, self.account_id)


@dataclass(frozen=True)
class TablePlan:
    """A new table as the store keeps it: its game and deal, its seats (one
    :class:`SeatPlan` each, in order) and, for a loaded record, its actions and, when the
    record's game is over, its ``outcome``. Its options come apart, as the store takes and
    hands them (:meth:`~fanfold.server.store.protocols.TableStore.create`)."""

    game: str
    config: JSONObject
    seed: int
    start_position: str | None
    seats: tuple[SeatPlan, ...]
    allow_undo: bool
    actions_done: tuple[tuple[int, str], ...] = ()
    version: int = 0
    creator_hash: str | None = None
    listed: bool = False
    outcome: JSONObject | None = None

    def stored_seats(self) -> list[StoredSeat]:
        """Each seat as stored, numbered from 0."""
        return [plan.at(seat) for seat, plan in enumerate(self.seats)]


@dataclass(frozen=True)
class StoredTable:
    """A table as stored: enough to rebuild it exactly."""

    id: str
    game: str
    config: JSONObject
    seed: int
    start_position: str | None
    version: int
    allow_undo: bool
    options: JSONObject
    outcome: JSONObject | None
    created: float
    updated: float
    seats: tuple[StoredSeat, ...]
    actions: tuple[tuple[int, str], ...]
    creator_hash: str | None = None
    listed: bool = False


@dataclass(frozen=True)
class TableSummary:
    """A line of the lobby's list."""

    id: str
    game: str
    players: tuple[str, ...]
    moves: int
    over: bool
    updated: float


#: A line of the lobby's open tables: id, game, options, seats, seats free.
OpenTable = tuple[str, str, JSONObject, int, int]


@dataclass(frozen=True)
class AccountRow:
    """An account as signing in reads it: its id, name, password's hash and whether it is
    closed."""

    id: int
    name: str
    password_hash: str
    closed: bool


@dataclass(frozen=True)
class RatingRow:
    """A stored rating: a player's (``a:ID`` or ``bot:GAME:LEVEL``) in a family."""

    family: str
    player: str
    mu: float
    sigma: float
    games: int
    updated: float


@dataclass(frozen=True)
class RatingChange:
    """What one rated game did to one player's rating."""

    rated_table: str
    player: str
    family: str
    seat: int
    team: int
    rank: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    at: float
    #: How much of the model's change was applied (repeated results: fanfold.server.fairplay).
    weight: float = 1.0


@dataclass(frozen=True)
class Origin:
    """Where an account took a seat of a rated table from: keyed hashes of the address and
    the device (never the address or the device's id)."""

    table_id: str
    seat: int
    account_id: int
    address_hash: str | None
    device_hash: str | None
    at: float


@dataclass(frozen=True)
class Flag:
    """Two accounts of a rated game that shared an address or a device (``kind``)."""

    table_id: str
    kind: str
    first_account: int
    second_account: int
    at: float


@dataclass(frozen=True)
class FinishedGame:
    """A finished table as the daily board reads it: its first seat's account's name and
    how many moves it took."""

    id: str
    game: str
    options: JSONObject
    outcome: JSONObject
    updated: float
    name: str
    moves: int


@dataclass(frozen=True)
class StoredGame:
    """A table's record as stored, its texts as they are (JSON, decimal digits)."""

    id: str
    game: str
    config: str
    seed: str
    start_position: str | None
    options: str


@dataclass(frozen=True)
class RatedSeat:
    """A seat a person (``a:ID``) held in a finished rated game."""

    player: str
    seat: int
    table: StoredGame


@dataclass(frozen=True)
class ReviewJob:
    """A stored review of a finished table (one per table and review version) and who holds it.

    Attributes:
        table_id: the table reviewed.
        version: the review's version (:data:`fanfold.play.review.REVIEW_VERSION`).
        game: the game's id.
        state: ``pending`` (nobody has started it), ``running``, ``done`` or ``failed``.
        moves: how many moves the game has (the review judges each).
        seed: the review's seed (decimal), kept so that it can be made again alike.
        budget: the engine's budget per question (Fan: solver positions; ``None``: none).
        owner: the process that holds it (``None``: nobody yet).
        lease_until: when its holder's lease runs out (another may take it over after).
        attempts: how many times it was claimed (more than one: taken over).
        engine: once done, the engine's identity (JSON).
        summary: once done, the sentences under the moves.
        deal: once done, Fan's finding about the deal (``None`` otherwise).
        error: why it failed (``failed`` only).
        created: when it was asked for.
        updated: its last change.
    """

    table_id: str
    version: int
    game: str
    state: str
    moves: int
    seed: str
    budget: int | None
    owner: str | None
    lease_until: float
    attempts: int
    engine: JSONObject | None
    summary: list[JSONValue] | None
    deal: JSONObject | None
    error: str | None
    created: float
    updated: float
