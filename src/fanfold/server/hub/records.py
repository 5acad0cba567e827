"""A table opened from a record or a chosen position: the record replayed
(:func:`replay`), and the check that it copies no rated game still being played
(:func:`copies_running_rated`), whose analysis it would give away; and a finished stored
table's record read as stored, without a replay (:func:`stored_record`).
"""

from __future__ import annotations

from collections.abc import Sequence

from fanfold.agents.base import parse_agent
from fanfold.core.config import JSONObject, JSONValue
from fanfold.core.errors import RecordError, Refusal, reason_of
from fanfold.core.records import GameRecord
from fanfold.core.rulings import Ruling, RulingError
from fanfold.play.table import HUMAN, Table
from fanfold.server.store.protocols import TableStore
from fanfold.server.store.records import StoredTable


def replay(table: Table, texts: Sequence[str], ruling: JSONValue = None) -> None:
    """Play a record's ``texts`` at ``table``, then its table-level ``ruling`` if any."""
    for text in texts:
        decider = table.decider
        if decider is None:
            raise RecordError(Refusal("record.after_end"))
        table.submit(decider, text)
    if ruling is not None:
        try:
            table.rule(Ruling.from_json(ruling), agreed=True)
        except RulingError as error:
            raise RecordError(Refusal("record.ruling", reason=reason_of(error))) from None


def copies_running_rated(store: TableStore, table: Table) -> bool:
    """Whether ``table`` (a table opened from a record or a chosen position, not stored yet)
    copies a rated game that is still being played: its actions are a prefix of that game's
    (at least one of them), from the same start, or its position is that game's position
    now. Such a table would let a rated player ask the analysis for the running game. In the
    store's thread: the running rated games are read from the store, so those of every
    process count."""
    record = table.record
    position = table.game.format_position(table.state)
    for running in store.running_rated(record.game):
        if running.config != record.config or not running.actions:
            continue
        texts = tuple(text for _, text in running.actions)
        same_deal = running.seed == record.seed or not table.game.has_hidden_information
        if (
            record.actions
            and same_deal
            and running.start_position == record.start_position
            and texts[: len(record.actions)] == record.actions
        ):
            return True
        now = GameRecord(
            running.game, running.config, running.seed, texts, running.start_position
        ).replay()
        if table.game.format_position(now) == position:
            return True
    return False


def stored_record(stored: StoredTable, ruling: JSONObject | None = None) -> GameRecord:
    """The record of a ``stored`` table whose game is over (its stored ``outcome`` set, the
    table-level ``ruling`` from its options if any), as :meth:`Table.finish` writes it, read
    as stored: the actions are not replayed (the store wrote the outcome with the actions
    that reached it), and no agent is made. Each player is labelled as a table's seat is.

    Raises:
        ValueError: the stored game is not over.
    """
    if stored.outcome is None:
        raise ValueError(f"table {stored.id!r} is not over")
    return GameRecord(
        stored.game,
        stored.config,
        stored.seed,
        tuple(text for _, text in stored.actions),
        stored.start_position,
        tuple(player_label(seat.player) for seat in stored.seats),
        stored.outcome,
        ruling,
    )


def player_label(player: str) -> str:
    """A stored seat's ``player`` as a table's record labels it: ``"human"`` or the agent's
    text as its spec writes it."""
    if player.strip().lower() == HUMAN:
        return HUMAN
    return str(parse_agent(player))


__all__ = ["copies_running_rated", "replay", "stored_record"]
