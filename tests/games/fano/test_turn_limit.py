"""The turn limit: ``turns_per_player`` turns for each player, whatever the table size."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from fanfold.core.errors import ConfigError, RecordError
from fanfold.core.game import Termination
from fanfold.core.records import GameRecord
from fanfold.games.fano import PRESETS, FanoConfig, FanoState, Pass, Phase
from fanfold.games.fano.config import TURNS_PER_PLAYER
from fanfold.play.setup import play_game

from .helpers import FANO


def _turns_until_the_end(state: FanoState) -> Counter[int]:
    """Play the game out passing whenever possible; how many turns each seat began."""
    began: Counter[int] = Counter()
    last = 0
    while FANO.outcome(state) is None:
        if state.turn != last and state.phase is not Phase.OVER:
            began[state.turn_player] += 1
            last = state.turn
        legal = FANO.legal_actions(state)
        state = FANO.apply_legal(state, Pass() if Pass() in legal else legal[0])
    return began


@pytest.mark.parametrize("players", [2, 3, 5, 8])
def test_each_player_gets_the_same_number_of_turns(players: int) -> None:
    config = FanoConfig(players=players, turns_per_player=3)
    began = _turns_until_the_end(FANO.new_state(config, seed=1))
    assert began == dict.fromkeys(range(players), 3)


@pytest.mark.parametrize("preset", ["trionfey-all-for-one", "trionfey-one-for-all"])
@pytest.mark.parametrize("players", [4, 8])
def test_partnership_turn_order_gives_each_player_the_same_turns(preset: str, players: int) -> None:
    config = FANO.with_players(FANO.preset(preset).config, players).replace(turns_per_player=2)
    began = _turns_until_the_end(FANO.new_state(config, seed=3))
    assert began == dict.fromkeys(range(players), 2)


def test_an_eight_player_game_plays_eight_times_the_turns_of_the_limit() -> None:
    config = FanoConfig(players=8, turns_per_player=2)
    assert config.last_turn == 16
    state = FANO.new_state(config, seed=2)
    while FANO.outcome(state) is None:
        state = FANO.apply_legal(state, Pass())
    assert state.turn == 17  # turns 1..16 played, the 17th never begins
    outcome = FANO.outcome(state)
    assert outcome is not None
    assert outcome.is_draw
    assert outcome.returns == (0.0,) * 8
    assert "2 turns each, 16 in all" in outcome.reason
    assert outcome.termination is Termination.TURN_LIMIT


def test_the_game_ends_drawn_exactly_at_the_limit() -> None:
    state = FANO.new_state(FanoConfig(turns_per_player=2), seed=1)
    for _ in range(3):
        state = FANO.apply_text(state, "pass")
        assert FANO.outcome(state) is None
    state = FANO.apply_text(state, "pass")
    outcome = FANO.outcome(state)
    assert outcome is not None
    assert outcome.returns == (0.0, 0.0)
    assert FANO.legal_actions(state) == ()


def test_the_default_limit_is_per_player_and_every_preset_keeps_it() -> None:
    assert FanoConfig().turns_per_player == TURNS_PER_PLAYER == 400
    for preset in PRESETS:
        config = preset.config
        assert config.turns_per_player == TURNS_PER_PLAYER
        assert config.last_turn == TURNS_PER_PLAYER * config.players
        state = FANO.new_state(config, seed=0)
        assert FANO.legal_actions(state)
        assert f"of at most {config.last_turn}" in FANO.render(FANO.observe(state, 0))


def test_the_limit_travels_in_config_json_and_text_options() -> None:
    config = FanoConfig(players=4, turns_per_player=7)
    data = config.to_json()
    assert data["turns_per_player"] == 7
    assert "turn_limit" not in data
    assert FanoConfig.from_json(json.loads(json.dumps(data))) == config
    assert FanoConfig().with_options({"turns-per-player": "7", "players": "4"}) == config
    assert config.changed_options_from(FanoConfig()) == {"players": "4", "turns_per_player": "7"}
    with pytest.raises(ConfigError, match="turns_per_player must be from 1 to 10000, not 0"):
        FanoConfig(turns_per_player=0)


def test_a_record_keeps_the_limit_and_replays() -> None:
    config = FanoConfig(players=3, turns_per_player=5)
    table = play_game(FANO, config, ["random"] * 3, seed=4)
    record = table.finish()
    loaded = GameRecord.loads(record.dumps())
    assert loaded.config["turns_per_player"] == 5
    final = loaded.replay()
    assert final == table.state
    outcome = FANO.outcome(final)
    assert outcome is not None
    assert "turn limit" in outcome.reason
    assert final.turn == 16
    assert record.outcome is not None
    assert record.outcome["termination"] == "turn_limit"


def test_the_old_option_name_is_refused_when_typed_and_read_from_old_records() -> None:
    with pytest.raises(ConfigError, match="turn_limit=200 with 2 players is turns_per_player=100"):
        FanoConfig().with_options({"turn-limit": "200"})
    # A config of an earlier version: the same last turn, in today's option.
    assert FanoConfig.from_json({"turn_limit": 200}) == FanoConfig(turns_per_player=100)
    assert FanoConfig.from_json({"turn_limit": 200, "players": 4}) == FanoConfig(
        players=4, turns_per_player=50
    )
    with pytest.raises(ConfigError, match="not a whole number of turns for each of 3 players"):
        FanoConfig.from_json({"turn_limit": 200, "players": 3})
    with pytest.raises(ConfigError, match="turns_per_player only"):
        FanoConfig.from_json({"turn_limit": 200, "turns_per_player": 100})


def test_a_record_of_an_earlier_version_loads_and_replays_to_the_same_end() -> None:
    """A game written with ``turn_limit`` (turns of all players together) replays to the same
    end: the limit is read as the same last turn."""
    config = FanoConfig(turns_per_player=4)
    table = play_game(FANO, config, ["random", "random"], seed=7)
    record = table.finish()
    old = json.loads(record.dumps())
    del old["config"]["turns_per_player"]
    old["config"]["turn_limit"] = 8  # 4 turns each for 2 players, as an earlier version wrote it
    loaded = GameRecord.loads(json.dumps(old))
    assert FANO.config_from_json(loaded.config) == config
    final = loaded.replay()
    assert final == table.state
    outcome, expected = FANO.outcome(final), table.outcome
    assert outcome is not None
    assert expected is not None
    assert outcome.reason == expected.reason
    old["config"]["players"] = 2
    old["config"]["turn_limit"] = 9  # not a whole number of turns each: refused, saying why
    with pytest.raises(RecordError, match="not a whole number of turns"):
        GameRecord.loads(json.dumps(old))
