"""OpenSpiel: every game registered with the right type, the random-simulation test, and the
solved Morris table against OpenSpiel's own search."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms.minimax import alpha_beta_search
from open_spiel.python.observation import make_observation

import fanfold.envs
from fanfold.core.registry import get_game
from fanfold.envs.encodings import make_encoding
from fanfold.envs.openspiel_game import morris_value, morris_value_keeping_actions
from fanfold.games.morris import GAME as MORRIS
from fanfold.games.morris import MorrisState
from fanfold.solvers.morris import decode, legal_codes, load_table
from tests.envs.conftest import every_preset

NAMES = fanfold.envs.register_openspiel()
KIND = pyspiel.GameType


def test_every_game_is_registered_with_its_type() -> None:
    assert fanfold.envs.register_openspiel() == NAMES  # a second call changes nothing
    types = {name: pyspiel.load_game(name).get_type() for name in NAMES}
    morris = types["python_fanfold_morris"]
    assert morris.chance_mode == KIND.ChanceMode.DETERMINISTIC
    assert morris.information == KIND.Information.PERFECT_INFORMATION
    assert morris.utility == KIND.Utility.ZERO_SUM
    fan = types["python_fanfold_fan"]
    assert fan.chance_mode == KIND.ChanceMode.EXPLICIT_STOCHASTIC
    assert fan.information == KIND.Information.PERFECT_INFORMATION
    for hidden in ("python_fanfold_fano", "python_fanfold_fantan"):
        assert types[hidden].chance_mode == KIND.ChanceMode.EXPLICIT_STOCHASTIC
        assert types[hidden].information == KIND.Information.IMPERFECT_INFORMATION
    assert all(kind.dynamics == KIND.Dynamics.SEQUENTIAL for kind in types.values())
    assert (
        types["python_fanfold_fano"].min_num_players,
        types["python_fanfold_fano"].max_num_players,
    ) == (2, 8)


FANO_SEED = [("fano", preset, "seed") for name, preset in every_preset() if name == "fano"]


@pytest.mark.parametrize(
    ("name", "preset", "deal"),
    [(name, preset, "") for name, preset in every_preset()] + FANO_SEED,
)
def test_random_simulation_test_passes_with_serialisation(
    name: str, preset: str, deal: str
) -> None:
    """OpenSpiel's own random simulation test, every preset (Fano's with either deal)."""
    params: dict[str, object] = {"variant": preset}
    if deal:
        params["deal"] = deal
    if name == "fano":
        params["options"] = "turns_per_player=4"
    if name == "fan":
        params["max_steps"] = 120
    game = pyspiel.load_game(f"python_fanfold_{name}", params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def _dealt(game: pyspiel.Game, rng: random.Random) -> pyspiel.State:
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(("name", "chance_nodes"), [("fano", 16), ("fantan", 16), ("fan", 3)])
def test_the_deal_is_drawn_by_chance_nodes(name: str, chance_nodes: int) -> None:
    """The seed-byte deal (``deal=seed``; the card-by-card deal is
    tests/envs/test_openspiel_resample.py's)."""
    game = pyspiel.load_game(f"python_fanfold_{name}", {"deal": "seed"})
    assert game.max_chance_outcomes() == 256
    state = game.new_initial_state()
    for drawn in range(chance_nodes):
        assert state.is_chance_node()
        outcomes = state.chance_outcomes()
        assert [action for action, _ in outcomes] == list(range(256))
        assert sum(probability for _, probability in outcomes) == pytest.approx(1.0)
        assert state.observation_string(0) == "the cards are not dealt yet"
        assert not state.observation_tensor(0).count(1.0)
        state.apply_action(drawn)
    assert not state.is_chance_node()
    seed = int.from_bytes(bytes(range(chance_nodes)), "big")
    number = seed + 1 if name == "fan" else seed
    assert state.fanfold_state == get_game(name).new_state(game.config, number)
    with pytest.raises(pyspiel.SpielError, match="not a chance node"):
        state.chance_outcomes()


def test_a_seed_or_a_position_deals_without_chance_nodes() -> None:
    game = pyspiel.load_game("python_fanfold_fantan", {"seed": 7})
    first, second = game.new_initial_state(), game.new_initial_state()
    assert not first.is_chance_node()
    assert str(first) == str(second)  # the same deal every time
    assert pyspiel.load_game("python_fanfold_morris").new_initial_state().current_player() == 0
    position = str(first)
    started = pyspiel.load_game("python_fanfold_fantan", {"position": position})
    assert str(started.new_initial_state()) == position


def test_serialised_states_load_again_mid_game() -> None:
    game = pyspiel.load_game(
        "python_fanfold_fano", {"variant": "trionfey", "options": "turns_per_player=6"}
    )
    assert "options=turns_per_player:6" in str(game)  # the form a game's string keeps
    rng = random.Random(5)
    state = _dealt(game, rng)
    for _ in range(30):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    loaded_game, loaded = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state)
    )
    assert str(loaded_game) == str(game)
    assert loaded.history() == state.history()
    assert str(loaded) == str(state)
    assert loaded.legal_actions() == state.legal_actions()


def test_parameters_reach_the_config() -> None:
    game = pyspiel.load_game(
        "python_fanfold_fantan", {"variant": "chips", "players": 6, "options": "ante=2"}
    )
    assert game.num_players() == 6
    assert game.config.ante == 2
    assert game.num_distinct_actions() == 53
    with pytest.raises(ValueError, match="name=value"):
        pyspiel.load_game("python_fanfold_fantan", {"options": "ante"})
    with pytest.raises(ValueError, match="name:value pairs joined by semicolons"):
        pyspiel.load_game("python_fanfold_fantan", {"options": "ante:2;hands"})
    both = pyspiel.load_game(
        "python_fanfold_fantan", {"variant": "chips", "options": "ante:2;players:5"}
    )
    assert (both.config.ante, both.num_players()) == (2, 5)


def test_observation_tensor_is_the_encodings() -> None:
    game = pyspiel.load_game("python_fanfold_fano", {"variant": "trionfey", "seed": 3})
    state = game.new_initial_state()
    rng = random.Random(0)
    for _ in range(25):
        state.apply_action(rng.choice(state.legal_actions()))
    observation = make_observation(game)
    encoding = make_encoding("fano", "trionfey")
    for player in range(2):
        observation.set_from(state, player)
        view = encoding.game.observe(state.fanfold_state, player)
        np.testing.assert_array_equal(observation.tensor, encoding.observation(view))
        assert np.array_equal(state.observation_tensor(player), observation.tensor)
        assert observation.string_from(state, player) == encoding.game.render(view)


def _short_positions(count: int) -> list[tuple[str, int]]:
    """Movement-phase positions decided within three plies, as (notation, distance)."""
    config = MORRIS.default_config()
    table = load_table(config.adjacency)
    codes = legal_codes()
    wanted = np.flatnonzero((table.results != 0) & (table.distances >= 1) & (table.distances <= 3))
    rng = np.random.default_rng(7)
    found: list[tuple[str, int]] = []
    for index in rng.permutation(wanted):
        board, side = decode(int(codes[index]))
        state = MorrisState(config, board, side)
        if state.is_placement or MORRIS.outcome(state) is not None:
            continue
        found.append((MORRIS.format_position(state), int(table.distances[index])))
        if len(found) == count:
            break
    return found


def test_openspiel_search_agrees_with_the_solved_table() -> None:
    for position, distance in _short_positions(6):
        game = pyspiel.load_game("python_fanfold_morris", {"position": position})
        state = game.new_initial_state()
        value, best = alpha_beta_search(
            game,
            state=state,
            value_function=lambda _state: 0.0,
            maximum_depth=distance,
            maximizing_player_id=0,
        )
        assert value == morris_value(state), position
        mover = state.current_player()
        keeping = morris_value_keeping_actions(state)
        if value * (1 if mover == 0 else -1) > 0:
            assert best in keeping  # a winning search move keeps the win


def test_value_keeping_actions_at_the_start() -> None:
    game = pyspiel.load_game("python_fanfold_morris")
    state = game.new_initial_state()
    keeping = morris_value_keeping_actions(state)
    assert keeping
    assert set(keeping) <= set(state.legal_actions())
    assert morris_value(state) in (-1.0, 0.0, 1.0)
