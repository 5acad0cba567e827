"""OpenSpiel's imperfect-information search on Fano and Fan Tan: resampling from a player's
information and the IS-MCTS bot playing whole games."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import fanfold.envs
from fanfold.games.fano.rules import deck_of

fanfold.envs.register_openspiel()

GAMES = [
    ("fantan", {"players": 3}),
    ("fano", {"options": "turns_per_player=6"}),
    ("fano", {"variant": "trionfey", "options": "turns_per_player=6"}),
]


def _random_state(name: str, params: dict[str, object], seed: int, moves: int) -> pyspiel.State:
    game = pyspiel.load_game(f"python_fanfold_{name}", params)
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def _hidden(state: pyspiel.State) -> str:
    # the full position (every hand and pile), or during a deal the cards dealt
    return str(state.history()) if state.is_chance_node() else str(state)


@pytest.mark.parametrize(("name", "params"), GAMES)
def test_a_resampled_state_looks_the_same_to_the_player(
    name: str, params: dict[str, object]
) -> None:
    sampler = pyspiel.UniformProbabilitySampler(3, 0.0, 1.0)
    for seed, moves in ((1, 0), (2, 7), (3, 15)):
        state = _random_state(name, params, seed, moves)
        if state.is_terminal():
            continue
        before = str(state)
        for player in range(state.num_players()):
            others = [state.resample_from_infostate(player, sampler) for _ in range(4)]
            for other in others:
                assert other.observation_string(player) == state.observation_string(player)
                assert other.observation_tensor(player) == state.observation_tensor(player)
                assert other.current_player() == state.current_player()
                if player == state.current_player():
                    assert other.legal_actions() == state.legal_actions()
            # A fresh stream each time: the unseen cards (and Fano's seed) differ.
            assert len({_hidden(other) for other in others}) == len(others)
        assert str(state) == before  # the state itself is unchanged


def test_resampling_follows_the_sampler() -> None:
    state = _random_state("fantan", {}, 4, 5)
    first = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(9, 0.0, 1.0))
    again = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(9, 0.0, 1.0))
    assert str(first) == str(again)
    # A resampled state plays on to the end.
    rng = random.Random(0)
    while not first.is_terminal():
        first.apply_action(rng.choice(first.legal_actions()))
    assert max(first.returns()) > 0  # somebody went out
    with pytest.raises(ValueError, match=r"in \[0, 1\)"):
        state.resample_from_infostate(0, lambda: 1.5)


def test_resampling_before_the_deal_keeps_the_count_of_seed_bytes() -> None:
    game = pyspiel.load_game("python_fanfold_fano", {"deal": "seed"})
    state = game.new_initial_state()
    for byte in (7, 8, 9):
        state.apply_action(byte)
    other = state.resample_from_infostate(0, random.Random(1).random)
    assert other.is_chance_node()
    assert str(other) == str(state) == "dealing: 3 of 16 seed bytes drawn"


def _ismcts_game(
    name: str, params: dict[str, object], seed: int, observation_keys: bool = True
) -> tuple[list[float], list[int]]:
    """One game: OpenSpiel's IS-MCTS bot (seeded, keyed on the observation string, or on the
    information-state string) in seat 0, uniform random players in the others; returns and the
    actions played."""
    game = pyspiel.load_game(f"python_fanfold_{name}", params)
    random_state = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
    bot = ismcts.ISMCTSBot(
        game,
        evaluator,
        uct_c=2.0,
        max_simulations=15,
        random_state=random_state,
        use_observation_string=observation_keys,
    )
    sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
    rng = random.Random(seed)
    state = game.new_initial_state()
    played: list[int] = []
    while not state.is_terminal():
        if state.is_chance_node():
            action = rng.choice(state.legal_actions())
        elif state.current_player() == 0:
            action = int(bot.step(state))
            assert action in state.legal_actions()
        else:
            action = rng.choice(state.legal_actions())
        played.append(action)
        state.apply_action(action)
    return state.returns(), played


@pytest.mark.parametrize(("name", "params"), GAMES[:2])
def test_ismcts_plays_against_random(name: str, params: dict[str, object]) -> None:
    returns, played = _ismcts_game(name, params, seed=1)
    assert len(returns) == pyspiel.load_game(f"python_fanfold_{name}", params).num_players()
    assert len(played) > 16  # the deal's chance nodes, then the game
    assert _ismcts_game(name, params, seed=1) == (returns, played)  # reproducible


def test_ismcts_keyed_on_information_states_plays_fan_tan() -> None:
    """The bot checks that each resampled root has the root's key: with the card-by-card deal a
    resampled state has the player's information-state string, so the bot can key its nodes on
    it (perfect recall)."""
    params: dict[str, object] = {"players": 3}
    returns, played = _ismcts_game("fantan", params, seed=2, observation_keys=False)
    assert max(returns) > 0
    assert _ismcts_game("fantan", params, seed=2, observation_keys=False) == (returns, played)
    with pytest.raises(AssertionError):  # the seed-byte deal's copies start afresh
        _ismcts_game("fantan", {**params, "deal": "seed"}, seed=2, observation_keys=False)


def test_ismcts_keyed_on_information_states_plays_fano() -> None:
    """As in Fan Tan: Fano's card-by-card deal (piles and reshuffles) resamples to the
    player's information-state string."""
    params: dict[str, object] = {"options": "turns_per_player=6"}
    returns, played = _ismcts_game("fano", params, seed=2, observation_keys=False)
    config = pyspiel.load_game("python_fanfold_fano", params).config
    assert len(played) > len(deck_of(config, 0)) + len(deck_of(config, 1)) + 1  # and play
    assert _ismcts_game("fano", params, seed=2, observation_keys=False) == (returns, played)
    with pytest.raises(AssertionError):  # the seed-byte deal's copies start afresh
        _ismcts_game("fano", {**params, "deal": "seed"}, seed=2, observation_keys=False)
