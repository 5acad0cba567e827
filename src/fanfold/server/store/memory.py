"""Tables, seats and actions in one process's memory: the in-memory
:class:`~fanfold.server.store.protocols.TableStore` (the model: boardgame.io's ``InMemory``
storage). Nothing outlives the process; a hub runs on it as on the SQL store (tests, a
throw-away server, a machine without a database). The SQL store's rules hold here too: an
action number stored already is refused and nothing of its commit's table is stored, a
change and what runs in its transaction (``on_end``, ``also``) are kept together or not at all,
and a listed table's changes call :attr:`MemoryTables.lobby_listeners` once made.
"""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from collections.abc import Callable, Mapping, Sequence

from fanfold.core.config import JSONObject
from fanfold.core.errors import FanfoldError
from fanfold.server.store.memory_rows import MemoryTable, MemoryTransaction, copied
from fanfold.server.store.protocols import TableStore
from fanfold.server.store.records import (
    LISTED,
    RESUME,
    AppendRow,
    InTransaction,
    OpenTable,
    StoredTable,
    TablePlan,
    TableSummary,
)


class MemoryTables(TableStore):
    """Tables, seats and actions in this process's memory (safe to use from several
    threads: one change at a time)."""

    def __init__(self) -> None:
        self.lobby_listeners: list[Callable[[], object]] = []
        self._tables: dict[str, MemoryTable] = {}
        self._beats: dict[str, float] = {}
        self._lock = threading.RLock()

    def close(self) -> None:
        """Nothing to release."""

    def ping(self) -> None:
        """Memory always answers."""

    def beat(self, name: str, at: float, forget_before: float) -> None:
        """Keep that process ``name`` lived at ``at``; forget those silent since before."""
        with self._lock:
            self._beats = {n: t for n, t in self._beats.items() if t >= forget_before}
            self._beats[name] = at

    def last_beat(self, name: str) -> float | None:
        """When process ``name`` last said it lived (``None``: never, or forgotten)."""
        with self._lock:
            return self._beats.get(name)

    def _tell_lobby(self) -> None:
        for listener in list(self.lobby_listeners):
            listener()

    def _table(self, table_id: str) -> MemoryTable:
        found = self._tables.get(table_id)
        if found is None:
            raise FanfoldError(f"there is no table {table_id} in the store")
        return found

    def _commit(self, changed: Sequence[MemoryTable], also: Sequence[InTransaction | None]) -> None:
        """Run ``also`` (each in the change's transaction), then keep ``changed``; nothing is
        kept when one of them raises. Called under the lock."""
        for run in also:
            if run is not None:
                run(MemoryTransaction())
        for table in changed:
            self._tables[table.row.id] = table

    # ------------------------------------------------------------ writing
    def create(self, table_id: str, plan: TablePlan, options: JSONObject) -> None:
        """Keep a new table as planned (an id kept already is refused: nothing changes)."""
        now = time.time()
        row = StoredTable(
            id=table_id,
            game=plan.game,
            config=copied(plan.config),
            seed=plan.seed,
            start_position=plan.start_position,
            version=plan.version,
            allow_undo=plan.allow_undo,
            options=copied(options),
            outcome=copied(plan.outcome) if plan.outcome is not None else None,
            created=now,
            updated=now,
            seats=tuple(plan.stored_seats()),
            actions=(),
            creator_hash=plan.creator_hash,
            listed=plan.listed,
        )
        actions = {n + 1: (seat, text) for n, (seat, text) in enumerate(plan.actions_done)}
        table = MemoryTable(row, actions)
        with self._lock:
            if table_id in self._tables:
                raise FanfoldError(f"table {table_id} is stored already")
            self._tables[table_id] = table
        if plan.listed:
            self._tell_lobby()

    def _refused(self, table_id: str, number: int) -> Exception:
        return FanfoldError(f"table {table_id} has an action {number} already")

    def append_many(self, rows: Sequence[AppendRow]) -> set[str]:
        """Keep several tables' actions at once; returns the tables refused (an action
        number kept already), none of whose rows is kept (see
        :meth:`~fanfold.server.store.protocols.TableStore.append_many`)."""
        if not rows:
            return set()
        now = time.time()
        with self._lock:
            changed: dict[str, MemoryTable] = {}
            refused: set[str] = set()
            for row in rows:
                if row.table_id in refused:
                    continue
                table = changed.get(row.table_id) or self._table(row.table_id)
                if row.number in table.actions:
                    refused.add(row.table_id)
                    changed.pop(row.table_id, None)
                    continue
                columns = dataclasses.replace(
                    table.row,
                    version=row.version,
                    updated=now,
                    outcome=copied(row.outcome) if row.outcome is not None else None,
                    options=copied(row.options) if row.options is not None else table.row.options,
                )
                actions = {**table.actions, row.number: (row.seat, row.text)}
                changed[row.table_id] = MemoryTable(columns, actions)
            kept = [table for table_id, table in changed.items() if table_id not in refused]
            ends = [row.on_end for row in rows if row.table_id not in refused]
            self._commit(kept, ends)
        ended = any(
            row.outcome is not None and row.options and row.options.get(LISTED)
            for row in rows
            if row.table_id not in refused
        )
        if ended:
            self._tell_lobby()
        return refused

    def truncate(
        self, table_id: str, keep: int, version: int, *, options: JSONObject | None = None
    ) -> None:
        """Keep the first ``keep`` actions, with the new version (and options)."""
        with self._lock:
            table = self._table(table_id)
            columns = dataclasses.replace(
                table.row,
                version=version,
                updated=time.time(),
                outcome=None,
                options=copied(options) if options is not None else table.row.options,
            )
            actions = {n: done for n, done in table.actions.items() if n <= keep}
            self._tables[table_id] = MemoryTable(columns, actions)

    def rule(
        self,
        table_id: str,
        version: int,
        outcome: JSONObject,
        options: JSONObject,
        on_end: InTransaction | None = None,
    ) -> None:
        """Keep a table-level ending with ``on_end``, all or nothing.

        Raises:
            FanfoldError: the table is not at ``version - 1``; nothing is kept.
        """
        with self._lock:
            found = self._tables.get(table_id)
            if found is None or found.row.version != version - 1:
                raise FanfoldError(f"table {table_id} changed elsewhere; nothing was stored")
            columns = dataclasses.replace(
                found.row,
                version=version,
                updated=time.time(),
                outcome=copied(outcome),
                options=copied(options),
            )
            self._commit([MemoryTable(columns, found.actions)], [on_end])
        if options.get(LISTED):
            self._tell_lobby()

    def set_options(self, table_id: str, options: JSONObject) -> None:
        """Keep a table's options."""
        with self._lock:
            found = self._tables.get(table_id)
            if found is not None:
                self._tables[table_id] = _with_options(found, options)

    def expire(self, before: float, keep: Sequence[str] = ()) -> list[str]:
        """Forget the unfinished tables unchanged since before ``before`` (not those in
        ``keep``, nor a rated game with a move played); returns their ids."""
        with self._lock:
            stale = [
                t.id
                for t in (table.row for table in self._tables.values())
                if t.outcome is None
                and t.updated < before
                and (t.version == 0 or '"rated": true' not in json.dumps(t.options))
                and t.id not in keep
            ]
            for table_id in stale:
                del self._tables[table_id]
        if stale:
            self._tell_lobby()
        return stale

    def _set_seat(self, table_id: str, seat: int, **values: object) -> MemoryTable:
        return self._table(table_id).with_seat(seat, **values)

    def claim(
        self,
        table_id: str,
        seat: int,
        invite_hash: str,
        hashed: str,
        account_id: int | None = None,
    ) -> bool:
        """Spend a seat's invitation for a token's hash; whether it was the seat's."""
        with self._lock:
            found = self._tables.get(table_id)
            if found is None or not 0 <= seat < len(found.row.seats):
                return False
            if found.row.seats[seat].invite_hash != invite_hash:
                return False
            self._tables[table_id] = self._set_seat(
                table_id, seat, token_hash=hashed, invite_hash=None, account_id=account_id
            )
            return True

    def take_open(
        self, table_id: str, seat: int, hashed: str, account_id: int | None = None
    ) -> bool:
        """Give an open seat a token's hash; whether it was open still."""
        with self._lock:
            found = self._tables.get(table_id)
            if found is None or not 0 <= seat < len(found.row.seats):
                return False
            held = found.row.seats[seat]
            if held.token_hash is not None or held.invite_hash is not None:
                return False
            self._tables[table_id] = self._set_seat(
                table_id, seat, token_hash=hashed, account_id=account_id
            )
        self._tell_lobby()
        return True

    def _give_seat(
        self,
        table_id: str,
        seat: int,
        values: Mapping[str, object],
        options: JSONObject,
        also: InTransaction | None,
    ) -> None:
        with self._lock:
            table = _with_options(self._set_seat(table_id, seat, **values), options)
            self._commit([table], [also])
        self._tell_lobby()

    def invite(self, table_id: str, seat: int, invite_hash: str) -> None:
        """Give a seat a new invitation (its holder holds it no more)."""
        with self._lock:
            self._tables[table_id] = self._set_seat(
                table_id, seat, token_hash=None, invite_hash=invite_hash, account_id=None
            )

    # ------------------------------------------------------------ reading
    def load(self, table_id: str) -> StoredTable | None:
        """The kept table, or ``None``."""
        return self.load_many([table_id]).get(table_id)

    def load_many(self, table_ids: Sequence[str]) -> dict[str, StoredTable]:
        """The kept tables of ``table_ids`` by id."""
        with self._lock:
            found = [self._tables.get(table_id) for table_id in dict.fromkeys(table_ids)]
        return {table.row.id: table.stored() for table in found if table is not None}

    def _listed(self) -> list[MemoryTable]:
        with self._lock:
            return [table for table in self._tables.values() if table.row.listed]

    def recent(self, limit: int = 20) -> list[TableSummary]:
        """The listed tables changed last, newest first."""
        newest = sorted(self._listed(), key=lambda table: table.row.updated, reverse=True)
        return [
            TableSummary(
                t.id,
                t.game,
                tuple(s.player for s in t.seats),
                len(table.actions),
                t.outcome is not None,
                t.updated,
            )
            for table in newest[:limit]
            for t in (table.row,)
        ]

    def open_tables(self, limit: int = 50) -> list[OpenTable]:
        """Listed unfinished tables with a person's seat free, newest first."""
        found: list[tuple[float, OpenTable]] = []
        for t in (table.row for table in self._listed()):
            free = sum(
                1
                for s in t.seats
                if s.player == "human" and s.token_hash is None and s.invite_hash is None
            )
            if t.outcome is None and free:
                found.append((t.created, (t.id, t.game, copied(t.options), len(t.seats), free)))
        found.sort(key=lambda pair: pair[0], reverse=True)
        return [line for _, line in found[:limit]]

    def to_resume(self, since: float | None = None) -> list[tuple[str, bool | None]]:
        """The unfinished tables changed since ``since``, with their kept ``resume``."""
        with self._lock:
            tables = [table.row for table in self._tables.values()]
        found: list[tuple[str, bool | None]] = []
        for t in tables:
            if t.outcome is None and (since is None or t.updated >= since):
                resume = t.options.get(RESUME)
                found.append((t.id, resume if isinstance(resume, bool) else None))
        return found

    def running_rated(self, game: str) -> list[StoredTable]:
        """The unfinished rated tables of a game."""
        with self._lock:
            tables = list(self._tables.values())
        return [
            table.stored()
            for table in tables
            if table.row.game == game
            and table.row.outcome is None
            and table.row.options.get("rated") is True
        ]

    def unfinished(self) -> list[str]:
        """The ids of the unfinished tables."""
        with self._lock:
            return [t.row.id for t in self._tables.values() if t.row.outcome is None]


def _with_options(table: MemoryTable, options: JSONObject) -> MemoryTable:
    """``table`` keeping a copy of ``options`` as its options."""
    return dataclasses.replace(table, row=dataclasses.replace(table.row, options=copied(options)))
