"""The server's data layer: every SQL statement of the server lives in this package.

One module a subject, each behind a :mod:`typing.Protocol` (:mod:`.protocols`) that the rest of
the server codes against:

* tables, seats and actions: :class:`Store` (:mod:`.table_store`, :mod:`.seat_store`,
  :mod:`.table_reads`), and :class:`~.memory.MemoryTables` in one process's memory; group
  commits in one statement on PostgreSQL (:mod:`.quick_append`, :mod:`.appender`);
* accounts, sessions and the counted attempts (:mod:`.account_store`); ratings
  (:mod:`.rating_store`, :mod:`.rating_reads`); moderation (:mod:`.moderation_store`,
  :mod:`.moderation_reads`, :mod:`.refund_store`); fair play (:mod:`.fairplay_store`); the
  daily board (:mod:`.board_store`); the command line's access (:mod:`.tools`);
* several processes on one PostgreSQL store: advisory locks and LISTEN/NOTIFY
  (:mod:`.coordination`);
* the schema (:mod:`.schema`), and opening a store: its URL, engine and migrations
  (:mod:`.engine`); what the stores hand out (:mod:`.records`, :mod:`.moderation_records`).

The domain rules (hashing passwords, the rating model, the rules of moderation) stay in the
server's own modules, which call these stores' typed methods.
"""

from __future__ import annotations

from fanfold.server.store.engine import (
    StoreOpenError,
    default_url,
    make_engine,
    shown_url,
    upgrade,
)
from fanfold.server.store.quick_append import (
    QUICK_APPEND,
    fits_one_statement,
    quick_append_parameters,
)
from fanfold.server.store.records import (
    LISTED,
    LOBBY_CHANNEL,
    RESUME,
    AppendRow,
    InTransaction,
    SeatPlan,
    StoredSeat,
    StoredTable,
    TablePlan,
    TableSummary,
    Transaction,
    token_hash,
)
from fanfold.server.store.schema import (
    accounts,
    actions,
    appeals,
    fairplay_flags,
    metadata,
    moderation_log,
    rated_games,
    rating_changes,
    rating_refunds,
    ratings,
    reports,
    seat_origins,
    seats,
    server_keys,
    sessions,
    sign_in_attempts,
    tables,
)
from fanfold.server.store.table_store import Store

__all__ = [
    "LISTED",
    "LOBBY_CHANNEL",
    "QUICK_APPEND",
    "RESUME",
    "AppendRow",
    "InTransaction",
    "SeatPlan",
    "Store",
    "StoreOpenError",
    "StoredSeat",
    "StoredTable",
    "TablePlan",
    "TableSummary",
    "Transaction",
    "accounts",
    "actions",
    "appeals",
    "default_url",
    "fairplay_flags",
    "fits_one_statement",
    "make_engine",
    "metadata",
    "moderation_log",
    "quick_append_parameters",
    "rated_games",
    "rating_changes",
    "rating_refunds",
    "ratings",
    "reports",
    "seat_origins",
    "seats",
    "server_keys",
    "sessions",
    "shown_url",
    "sign_in_attempts",
    "tables",
    "token_hash",
    "upgrade",
]
