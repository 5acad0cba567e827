"""What the server asks of its data, one :class:`typing.Protocol` a subject: the tables
(:class:`TableStore`), the accounts (:class:`AccountStore`), the ratings
(:class:`RatingStore`), the profiles (:class:`ProfileStore`), moderation
(:class:`ModerationStore`), fair play (:class:`FairPlayStore`; these five in
:mod:`~fanfold.server.store.data_protocols`), the engines' reviews (:class:`ReviewStore`) and
chat (:class:`ChatStore`; these two in :mod:`~fanfold.server.store.table_side_protocols`), and
the coordination of several processes: who owns a table, and what they tell each other
(:class:`Coordination`, :class:`Subscription`).

The SQL stores of :mod:`fanfold.server.store` implement them (SQLite or PostgreSQL; the
coordination PostgreSQL's), and :class:`~fanfold.server.store.memory.MemoryTables` implements
:class:`TableStore` in one process's memory. A method that takes a
:class:`~fanfold.server.store.records.Transaction` works inside the caller's transaction (a
rated game's ratings are written in the transaction that stores its end); the others open
their own.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from typing import Protocol

from fanfold.core.config import JSONObject
from fanfold.server.store.data_protocols import (
    AccountStore,
    FairPlayStore,
    ModerationStore,
    ProfileStore,
    RatingStore,
    Subject,
)
from fanfold.server.store.records import (
    AppendRow,
    InTransaction,
    OpenTable,
    StoredTable,
    TablePlan,
    TableSummary,
)
from fanfold.server.store.table_side_protocols import ChatStore, ReviewStore


class BeatStore(Protocol):
    """Each server process's last sign of life (:mod:`fanfold.server.hub.beats`): the time a
    table had no live owner is not charged to its clocks."""

    def beat(self, name: str, at: float, forget_before: float) -> None:
        """Record that process ``name`` lived at ``at``; forget those silent since before
        ``forget_before``."""

    def last_beat(self, name: str) -> float | None:
        """When process ``name`` last said it lived (``None``: never, or forgotten)."""


class TableStore(BeatStore, Protocol):
    """Tables, their seats and their actions: what the hub keeps between actions and across
    restarts (the model: boardgame.io's ``Async`` storage).

    The stores (memory, SQL) inherit :meth:`append` written here once, as a group commit of
    one row (:meth:`append_many`), and :meth:`set_player`; they say by :meth:`_refused` what
    they raise for an action number stored already, and change a seat by :meth:`_give_seat`."""

    #: Called after a committed change to the lobby's open tables, where the store tells its
    #: own process (one process; PostgreSQL notifies every process instead).
    lobby_listeners: list[Callable[[], object]]

    def close(self) -> None:
        """Release what the store holds (connections)."""

    def ping(self) -> None:
        """A round trip to the store: raises when it does not answer."""

    # ------------------------------------------------------------ writing
    def create(self, table_id: str, plan: TablePlan, options: JSONObject) -> None:
        """Store a new table as planned, with its seats (and a loaded record's actions and
        outcome) and its ``options``. A table id stored already is refused (nothing is
        stored)."""

    def append(
        self,
        table_id: str,
        number: int,
        seat: int,
        text: str,
        version: int,
        outcome: JSONObject | None,
    ) -> None:
        """Store action ``number`` (1-based) and the table's new version, together; a number
        stored already is refused (nothing is stored)."""
        if self.append_many([AppendRow(table_id, number, seat, text, version, outcome)]):
            raise self._refused(table_id, number)

    def _refused(self, table_id: str, number: int) -> Exception:
        """The error that refuses action ``number`` of ``table_id``, stored already."""
        ...

    def append_many(self, rows: Sequence[AppendRow]) -> set[str]:
        """Store several tables' actions at once (a group commit); returns the tables
        refused (an action number stored already), none of whose rows is stored. Each
        stored row's ``on_end`` runs in the same transaction; any other error stores
        nothing."""

    def truncate(
        self, table_id: str, keep: int, version: int, *, options: JSONObject | None = None
    ) -> None:
        """Keep the first ``keep`` actions (an undo), with the new version (and options)."""

    def rule(
        self,
        table_id: str,
        version: int,
        outcome: JSONObject,
        options: JSONObject,
        on_end: InTransaction | None = None,
    ) -> None:
        """Store a table-level ending with ``on_end`` in the same transaction: all or
        nothing. Raises :class:`~fanfold.core.errors.FanfoldError` (nothing stored) unless
        the table is at ``version - 1``."""

    def set_options(self, table_id: str, options: JSONObject) -> None:
        """Store a table's options."""

    def expire(self, before: float, keep: Sequence[str] = ()) -> list[str]:
        """Delete the unfinished tables unchanged since before ``before`` (not those in
        ``keep``, nor a rated game with a move played); returns their ids."""

    def claim(
        self,
        table_id: str,
        seat: int,
        invite_hash: str,
        hashed: str,
        account_id: int | None = None,
    ) -> bool:
        """Spend a seat's invitation for a token's hash; whether it was the seat's."""

    def take_open(
        self, table_id: str, seat: int, hashed: str, account_id: int | None = None
    ) -> bool:
        """Give an open seat a token's hash; whether it was open still."""

    def set_player(
        self,
        table_id: str,
        seat: int,
        player: str,
        options: JSONObject,
        *,
        let_go: bool = False,
        also: InTransaction | None = None,
    ) -> None:
        """Give a seat to ``player`` (a bot) with the table's options, ``also`` in the same
        transaction; ``let_go``: its token holds it no more."""
        values: dict[str, object] = {"player": player}
        if let_go:
            values["token_hash"] = None
        self._give_seat(table_id, seat, values, options, also)

    def _give_seat(
        self,
        table_id: str,
        seat: int,
        values: Mapping[str, object],
        options: JSONObject,
        also: InTransaction | None,
    ) -> None:
        """Set a seat's ``values`` (its columns by name) and the table's ``options``, with
        ``also``, in one change; then tell the lobby."""
        ...

    def invite(self, table_id: str, seat: int, invite_hash: str) -> None:
        """Give a seat a new invitation (its holder holds it no more)."""

    # ------------------------------------------------------------ reading
    def load(self, table_id: str) -> StoredTable | None:
        """The stored table, or ``None``."""

    def load_many(self, table_ids: Sequence[str]) -> dict[str, StoredTable]:
        """The stored tables of ``table_ids`` by id (ids with no table left out)."""

    def recent(self, limit: int = 20) -> list[TableSummary]:
        """The listed tables changed last, newest first."""

    def open_tables(self, limit: int = 50) -> list[OpenTable]:
        """Listed unfinished tables with a person's seat free, newest first."""

    def to_resume(self, since: float | None = None) -> list[tuple[str, bool | None]]:
        """The unfinished tables changed since ``since``, with their stored ``resume``."""

    def running_rated(self, game: str) -> list[StoredTable]:
        """The unfinished rated tables of a game."""

    def unfinished(self) -> list[str]:
        """The ids of the unfinished tables."""


class Subscription(Protocol):
    """The notifications of one channel, heard by one process (publish/subscribe)."""

    async def open(self) -> None:
        """Start hearing the channel."""

    def notes(self) -> AsyncIterator[str]:
        """The payloads heard, as they come (raises once the hearing breaks)."""

    async def close(self) -> None:
        """Stop hearing (nothing raised)."""


class Coordination(Protocol):
    """One process among several on one store: the tables it owns (a lock each, let go at
    once when the process dies) and the notes it sends the others and hears from them on one
    channel (hand-overs)."""

    @property
    def healthy(self) -> bool:
        """Whether the locks are held still (the connection holding them is open)."""

    async def start(self) -> None:
        """Connect and start hearing the channel."""

    async def close(self) -> None:
        """Let every lock go and stop hearing (nothing raised)."""

    async def try_locks(self, names: Sequence[str]) -> list[bool]:
        """Try each name's lock once, together: whether each was taken."""

    async def unlock(self, names: Sequence[str]) -> None:
        """Let the names' locks go."""

    async def publish(self, payload: str) -> None:
        """Tell every process on the channel (this one too)."""

    def notes(self) -> AsyncIterator[str]:
        """The payloads heard on the channel."""

    async def ping(self) -> None:
        """A round trip: raises when the locks' connection is broken."""


__all__ = [
    "AccountStore",
    "BeatStore",
    "ChatStore",
    "Coordination",
    "FairPlayStore",
    "ModerationStore",
    "ProfileStore",
    "RatingStore",
    "ReviewStore",
    "Subject",
    "Subscription",
    "TableStore",
]
