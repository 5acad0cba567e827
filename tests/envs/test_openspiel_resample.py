"""OpenSpiel's chance and resampling contract with the card-by-card deal (``deal=cards``):
the deal's chance outcomes are cards, a player's information state is what it was told only,
and a resampled state (the game played again with a deal consistent with the player's view)
has the player's information state, tensor and current player, and keeps them as it goes on
alike: OpenSpiel's ``ResampleInfostateTest`` (C++, not exposed to Python: the same procedure
here) over random games of every preset of every game whose deal is by cards or that hides
nothing (Fano with ``deal=cards``, in short games)."""

from __future__ import annotations

import random

import pyspiel
import pytest

import fanfold.envs
from fanfold.core.errors import ConfigError
from fanfold.core.registry import get_game
from fanfold.envs.openspiel_game import FanfoldState
from tests.envs.conftest import every_preset

fanfold.envs.register_openspiel()

#: The presets checked: every game with a card-by-card deal or nothing hidden.
PRESETS = [
    (name, preset) for name, preset in every_preset() if name in ("fan", "fantan", "morris", "fano")
]
#: Step limits that keep random games short where they could run long.
LIMITS = {"fan": 90, "morris": 60}
#: Fano's turns in all (each seat's share of them): long enough for reshuffles in two-player
#: games, short enough to keep eight-player games quick.
FANO_TURNS = 24


def _load(name: str, preset: str) -> pyspiel.Game:
    params: dict[str, object] = {"variant": preset}
    if name in LIMITS:
        params["max_steps"] = LIMITS[name]
    if name == "fano":
        players = get_game("fano").preset(preset).config.players
        params["options"] = f"turns_per_player={max(4, FANO_TURNS // players)}"
    return pyspiel.load_game(f"python_fanfold_{name}", params)


def _step(state: pyspiel.State, rng: random.Random) -> int:
    if state.is_chance_node():
        return int(rng.choice([outcome for outcome, _ in state.chance_outcomes()]))
    return int(rng.choice(state.legal_actions()))


def _same_to(player: int, state: pyspiel.State, other: pyspiel.State) -> bool:
    same = bool(state.information_state_string(player) == other.information_state_string(player))
    if same and not state.is_chance_node():
        assert state.information_state_tensor(player) == other.information_state_tensor(player)
    return same


@pytest.mark.parametrize(("name", "preset"), PRESETS)
def test_resampled_states_keep_the_information_state(name: str, preset: str) -> None:
    """At random points of random games (chance nodes too), every player's resampled state
    has its information state (string and tensor) and current player; played on with the
    same actions (chance's too) while the original goes on, it keeps them equal as long as
    the player sees the same."""
    game = _load(name, preset)
    rng = random.Random(sum(map(ord, preset)))
    sampler = pyspiel.UniformProbabilitySampler(7, 0.0, 1.0)
    checked = in_play = 0
    for _ in range(2):
        actions, moves = _random_game(game, rng)
        # the start, one of the first moves and random points
        first = moves[rng.randrange(min(10, len(moves)))]
        lengths = {0, first, *(_length(len(actions), rng) for _ in range(CHECKS))}
        state = game.new_initial_state()
        for action in actions:
            if len(state.history()) in lengths:
                for player in range(state.num_players()):
                    _check_resample(state, player, sampler, rng)
                    checked += 1
                    in_play += not state.is_chance_node()
            state.apply_action(action)
    assert checked
    assert in_play


#: Points of each random game where every player's resample is checked.
CHECKS = 5


def _random_game(game: pyspiel.Game, rng: random.Random) -> tuple[list[int], list[int]]:
    """The history of a random game (chance's outcomes and every action), and where in it a
    player moved."""
    state = game.new_initial_state()
    moves = []
    while not state.is_terminal():
        if not state.is_chance_node():
            moves.append(len(state.history()))
        state.apply_action(_step(state, rng))
    return [int(action) for action in state.history()], moves


def _length(total: int, rng: random.Random) -> int:
    """A random point of a game of ``total`` steps: early (in or just after the deal) or
    anywhere."""
    return rng.randrange(min(70, total)) if rng.random() < 0.5 else rng.randrange(total)


def _check_resample(
    state: pyspiel.State,
    player: int,
    sampler: pyspiel.UniformProbabilitySampler,
    rng: random.Random,
) -> None:
    other = state.resample_from_infostate(player, sampler)
    assert _same_to(player, state, other)
    assert other.current_player() == state.current_player()
    ahead, copy = state.clone(), other
    for _ in range(4):
        if ahead.is_terminal():
            break
        action = _step(ahead, rng)
        if action not in copy.legal_actions():
            break  # a card only the original can deal, or a move of a hidden hand
        ahead.apply_action(action)
        copy.apply_action(action)
        assert copy.current_player() == ahead.current_player()
        if ahead.observation_string(player) != copy.observation_string(player):
            return  # shown what differs (the hands, at the end of a match)
    assert _same_to(player, ahead, copy)


def test_a_resampled_fan_tan_state_re_deals_the_unseen_cards() -> None:
    """Seat 0's cards stay where they were dealt; the other hands differ between resamples,
    and every card a seat has played was dealt to it."""
    game = pyspiel.load_game("python_fanfold_fantan", {"players": 3})
    rng = random.Random(3)
    state = game.new_initial_state()
    for _ in range(52 + 9):
        state.apply_action(_step(state, rng))
    others = [state.resample_from_infostate(0, random.Random(seed).random) for seed in range(5)]
    assert len({str(other) for other in others}) == len(others)
    for other in others:
        assert isinstance(other, FanfoldState)
        deal = state.get_game().card_deal
        nodes = [node for node in range(52) if deal.receiver(None, node) == 0]
        assert len(nodes) in (17, 18)
        assert [other.history()[node] for node in nodes] == [state.history()[n] for n in nodes]
        assert other.history()[52:] == state.history()[52:]
        assert other.fanfold_state.hands[0] == state.fanfold_state.hands[0]
        assert other.fanfold_state.layout == state.fanfold_state.layout


def test_the_deal_is_made_card_by_card() -> None:
    game = pyspiel.load_game("python_fanfold_fantan", {"players": 4})
    assert game.max_chance_outcomes() == 52
    assert "deal=cards" in str(game)
    state = game.new_initial_state()
    assert state.information_state_string(0) == "the cards are not dealt yet"
    cards = list(range(51, -1, -1))
    for number, card in enumerate(cards):
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 52 - number
        assert sum(probability for _, probability in outcomes) == pytest.approx(1.0)
        assert state.information_state_string(0).count("\n") == max(number - 1, 0)
        state.apply_action(card)
    assert not state.is_chance_node()
    # The dealer is seat 3: seat 0 got the first card dealt (KS) and every fourth after it.
    hands = state.fanfold_state.hands
    assert hands[0] == sum(1 << card for card in cards[0::4])
    told = state.information_state_string(0).splitlines()
    assert told[0] == "-- dealt to seat 0: KS"
    assert told[1] == "-- dealt to seat 1: a card"
    assert "KS" not in state.information_state_string(1).split("\n-- dealt")[0]
    dealt = game.new_initial_state()
    dealt.apply_action(5)
    with pytest.raises(pyspiel.SpielError, match="dealt already"):
        dealt.apply_action(5)
    assert len(dealt.history()) == 1


def test_an_open_deal_tells_every_card() -> None:
    game = pyspiel.load_game("python_fanfold_fan")
    state = game.new_initial_state()
    for card in range(52):
        state.apply_action(card)
    assert state.fanfold_state == get_game("fan").parse_position(str(state))
    assert state.information_state_string(0).splitlines()[0] == "-- dealt: AC"
    assert state.resample_from_infostate(0, random.Random(1).random).history() == state.history()


def test_old_game_strings_load_in_the_seed_byte_form() -> None:
    old = (
        "python_fanfold_fantan(deals=0,history_window=-1,max_steps=-1,options=,players=0,"
        "position=,seed=-1,variant=standard)"
    )
    game = pyspiel.load_game(old)
    assert game.max_chance_outcomes() == 256
    assert "deal=seed" in str(game)
    state = game.new_initial_state()
    for byte in range(16):
        state.apply_action(byte)
    seed = int.from_bytes(bytes(range(16)), "big")
    assert state.fanfold_state == get_game("fantan").new_state(game.config, seed)
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    assert str(again) == str(state)
    assert (
        pyspiel.load_game(str(pyspiel.load_game("python_fanfold_fantan"))).max_chance_outcomes()
        == 52
    )
    with pytest.raises(ConfigError, match="cards or seed"):
        pyspiel.load_game("python_fanfold_fantan", {"deal": "bytes"})
    with pytest.raises(ConfigError, match="no card-by-card deal"):
        pyspiel.load_game("python_fanfold_morris", {"deal": "cards"})
