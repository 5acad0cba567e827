"""The text a WebSocket is sent (``message_text``) is the state message's JSON exactly, its log
serialised once per entry and kept with the live table: checked after every action of whole
games, from every seat and a spectator's side, through actions taken back and an undo."""

from __future__ import annotations

import json
import random

import pytest

from fanfold.core.registry import get_game
from fanfold.play.setup import make_seats, new_table
from fanfold.server.live import LiveTable
from fanfold.server.protocol import message_for, message_text
from fanfold.server.table_options import TableOptions


def _live(game_id: str, *, allow_undo: bool = False) -> LiveTable:
    game = get_game(game_id)
    config = game.default_config()
    count = game.num_players(config)
    table = new_table(
        game, config, make_seats(game, ["human"] * count, 1), seed=5, allow_undo=allow_undo
    )
    return LiveTable("t", table, [None] * count, TableOptions(), [None] * count)


def _same_from_every_side(live: LiveTable) -> None:
    watchers: list[int | None] = [*range(len(live.table.seats)), None]
    for seat in watchers:
        held = frozenset() if seat is None else frozenset({seat})
        assert message_text(live, seat, held) == json.dumps(message_for(live, seat, held))


@pytest.mark.parametrize("game_id", ["fano", "fantan", "morris", "fan"])
def test_the_text_is_the_message_after_every_action_and_every_action_taken_back(
    game_id: str,
) -> None:
    live = _live(game_id)
    table = live.table
    rng = random.Random(7)
    steps = 0
    while table.decider is not None and steps < 60:
        table.submit(table.decider, rng.choice(table.legal_texts()))
        steps += 1
        _same_from_every_side(live)
        if steps % 7 == 0 and table.decider is not None:  # taken back, then another action
            table.take_back()
            _same_from_every_side(live)
    assert steps > 5
    assert live.log_texts  # the entries are kept with the table


def test_an_undo_drops_the_kept_entries_of_the_actions_it_took_back() -> None:
    live = _live("morris", allow_undo=True)
    table = live.table
    for _ in range(4):
        assert table.decider is not None
        table.submit(table.decider, table.legal_texts()[0])
        _same_from_every_side(live)
    before = json.loads(message_text(live, 0, frozenset({0, 1})))["log"]
    assert table.undo()
    after = json.loads(message_text(live, 0, frozenset({0, 1})))["log"]
    assert len(after) < len(before)
    assert after == before[: len(after)]
    assert table.decider is not None
    table.submit(table.decider, table.legal_texts()[-1])  # a different action in its place
    _same_from_every_side(live)
    kept_actions, _, _ = live.log_texts[0]
    assert kept_actions == table.played


@pytest.mark.parametrize("game_id", ["fano", "fantan", "morris", "fan"])
def test_the_config_is_made_once_and_each_message_has_its_own(game_id: str) -> None:
    live = _live(game_id)
    first = message_for(live, 0, frozenset({0}))
    assert first["config"] == live.table.config.to_json()
    config = first["config"]
    assert isinstance(config, dict)
    config.clear()  # one message changed: the next is whole
    assert message_for(live, 0, frozenset({0}))["config"] == live.table.config.to_json()
    assert live.config_json() is not live.config_json()
