"""The rows of :class:`~fanfold.server.store.memory.MemoryTables`: a table as kept in memory,
and the transaction handed to what runs inside one of its changes."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass, field

from fanfold.core.config import JSONObject
from fanfold.server.store.records import StoredTable


class MemoryTransaction:
    """The transaction handed to what runs inside a change of a :class:`MemoryTables` (it
    holds nothing: the change is kept once what runs in it returns)."""


@dataclass(frozen=True)
class MemoryTable:
    """A table as kept: ``row``, its columns and seats as loading reads them (its
    ``actions`` left empty), and its actions by number. A change keeps a new one in its
    place (``dataclasses.replace``), so that a change refused keeps nothing."""

    row: StoredTable
    actions: Mapping[int, tuple[int, str]] = field(default_factory=dict)

    def with_seat(self, seat: int, **values: object) -> MemoryTable:
        """This table with seat ``seat`` changed by ``values`` (a :class:`StoredSeat`'s
        fields)."""
        seats = list(self.row.seats)
        seats[seat] = dataclasses.replace(seats[seat], **values)  # type: ignore[arg-type]
        return dataclasses.replace(self, row=dataclasses.replace(self.row, seats=tuple(seats)))

    def stored(self) -> StoredTable:
        """The table as loading reads it: a copy, with its actions in order."""
        row = self.row
        return dataclasses.replace(
            row,
            config=copied(row.config),
            options=copied(row.options),
            outcome=copied(row.outcome) if row.outcome is not None else None,
            actions=tuple(self.actions[n] for n in sorted(self.actions)),
        )


def copied(options: JSONObject) -> JSONObject:
    """What a store keeps of options: a copy, as JSON reads it back."""
    copied: JSONObject = json.loads(json.dumps(options))
    return copied
