"""The rows of :class:`~fanfold.server.store.memory.MemoryTables`: a table as kept in memory,
and the transaction handed to what runs inside one of its changes."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field

from fanfold.core.config import JSONObject
from fanfold.server.store.records import StoredSeat, StoredTable


class MemoryTransaction:
    """The transaction handed to what runs inside a change of a :class:`MemoryTables` (it
    holds nothing: the change is kept once what runs in it returns)."""


@dataclass
class MemoryTable:
    """A table as kept: its columns, its seats and its actions by number."""

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
    creator_hash: str | None
    listed: bool
    seats: list[StoredSeat]
    actions: dict[int, tuple[int, str]] = field(default_factory=dict)

    def copy(self) -> MemoryTable:
        """A copy to change (the change replaces this one once it holds)."""
        return dataclasses.replace(
            self, options=dict(self.options), seats=list(self.seats), actions=dict(self.actions)
        )

    def stored(self) -> StoredTable:
        return StoredTable(
            id=self.id,
            game=self.game,
            config=json.loads(json.dumps(self.config)),
            seed=self.seed,
            start_position=self.start_position,
            version=self.version,
            allow_undo=self.allow_undo,
            options=json.loads(json.dumps(self.options)),
            outcome=json.loads(json.dumps(self.outcome)) if self.outcome is not None else None,
            created=self.created,
            updated=self.updated,
            seats=tuple(self.seats),
            actions=tuple(self.actions[n] for n in sorted(self.actions)),
            creator_hash=self.creator_hash,
            listed=self.listed,
        )


def copied(options: JSONObject) -> JSONObject:
    """What a store keeps of options: a copy, as JSON reads it back."""
    copied: JSONObject = json.loads(json.dumps(options))
    return copied
