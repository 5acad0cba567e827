"""OpenSpiel: games and states pickle and unpickle (also in a spawned process that registered
nothing by hand), pickles in OpenSpiel's own form for states still load, and OpenSpiel's stock
simulation test (``games_sim_test``: pickle of the game, its type and states, serialisation and
clones) passes on every game."""

from __future__ import annotations

import copyreg
import io
import multiprocessing
import pickle
import random
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np
import pyspiel
import pytest

from fanfold.envs.openspiel_game import PREFIX, FanfoldState, register

#: Each game's first preset, then presets with parameters.
GAMES: list[tuple[str, dict[str, Any]]] = [
    ("fan", {}),
    ("fano", {}),
    ("fantan", {}),
    ("morris", {}),
    ("fano", {"variant": "trionfey", "options": "turns_per_player=6"}),
    ("fantan", {"variant": "chips", "players": 5, "options": "ante=2"}),
    ("fan", {"variant": "relaxed", "max_steps": 200}),
    ("morris", {"variant": "complete"}),
]
IDS = [
    f"{name}-{'-'.join(str(value) for value in params.values()) or 'default'}"
    for name, params in GAMES
]


def _load(name: str, params: dict[str, Any]) -> Any:
    register()
    return pyspiel.load_game(PREFIX + name, params)


def _views(state: Any) -> dict[str, Any]:
    """What a player or an algorithm reads from a state."""
    players = range(state.get_game().num_players())
    return {
        "history": state.history(),
        "current_player": state.current_player(),
        "legal_actions": state.legal_actions(),
        "terminal": state.is_terminal(),
        "returns": state.returns(),
        "text": str(state),
        "information_states": [state.information_state_string(player) for player in players],
        "observations": [state.observation_string(player) for player in players],
        "tensors": [state.observation_tensor(player) for player in players],
    }


def _play_on(state: Any, seed: int, actions: int) -> list[dict[str, Any]]:
    """Random actions (chance's too) from ``state``, which changes; the views after each."""
    rng = random.Random(seed)
    seen = [_views(state)]
    for _ in range(actions):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
        seen.append(_views(state))
    return seen


def _mid_game(game: Any, seed: int, moves: int = 6) -> Any:
    """A state ``moves`` decisions after the deal (fewer where the game ends first: the last
    state before the end)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    for _ in range(moves):
        after = state.child(rng.choice(state.legal_actions()))
        if after.is_terminal():
            break
        state = after
    return state


def _mid_deal(game: Any) -> Any:
    state = game.new_initial_state()
    for value in (7, 40):
        if state.is_chance_node():
            legal = state.legal_actions()
            state.apply_action(value if value in legal else legal[value % len(legal)])
    return state


def _openspiels_own_pickle(state: Any) -> bytes:
    """``state`` pickled as OpenSpiel's pickling for states does (the class, then
    ``serialize_game_and_state``'s text): the form of pickles made before fanfold's own."""

    class Pickler(pickle.Pickler):
        def reducer_override(self, obj: Any) -> Any:
            if isinstance(obj, FanfoldState):
                text = pyspiel.serialize_game_and_state(obj.get_game(), obj)
                return copyreg.__newobj__, (type(obj),), text  # type: ignore[attr-defined]
            return NotImplemented

    buffer = io.BytesIO()
    Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(state)
    return buffer.getvalue()


@pytest.mark.parametrize(("name", "params"), GAMES, ids=IDS)
def test_a_game_pickles_with_its_type_and_parameters(name: str, params: dict[str, Any]) -> None:
    game = _load(name, params)
    loaded = pickle.loads(pickle.dumps(game))
    assert type(loaded) is type(game)
    assert loaded.get_parameters() == game.get_parameters()
    assert str(loaded) == str(game)
    assert loaded == game
    assert loaded.get_type() == game.get_type()
    assert (loaded.num_players(), loaded.num_distinct_actions()) == (
        game.num_players(),
        game.num_distinct_actions(),
    )
    assert _play_on(loaded.new_initial_state(), 3, 40) == _play_on(game.new_initial_state(), 3, 40)


@pytest.mark.parametrize(("name", "params"), GAMES, ids=IDS)
def test_a_state_pickles_mid_deal_and_mid_game(name: str, params: dict[str, Any]) -> None:
    game = _load(name, params)
    for state in (_mid_deal(game), _mid_game(game, 11)):
        loaded = pickle.loads(pickle.dumps(state))
        assert type(loaded) is FanfoldState
        assert str(loaded.get_game()) == str(game)
        assert _views(loaded) == _views(state)
        assert _play_on(loaded, 5, 12) == _play_on(state.clone(), 5, 12)


def test_a_resampled_state_and_a_game_started_at_a_position_pickle() -> None:
    game = _load("fantan", {"players": 3})
    state = _mid_game(game, 2)
    resampled = state.resample_from_infostate(1, random.Random(4).random)
    loaded = pickle.loads(pickle.dumps(resampled))
    assert _views(loaded) == _views(resampled)
    assert _play_on(loaded, 6, 8) == _play_on(resampled.clone(), 6, 8)
    # Fan Tan's notation holds "=" and ",": the game's string cannot be loaded again, but its
    # pickle (the parameters) can.
    started = _load("fantan", {"players": 3, "position": str(state)})
    assert not started.new_initial_state().is_chance_node()
    loaded_game = pickle.loads(pickle.dumps(started))
    assert loaded_game.get_parameters()["position"] == str(state)
    middle = _mid_game(started, 8, moves=3)
    assert _views(pickle.loads(pickle.dumps(middle))) == _views(middle)


def test_pickles_in_openspiels_own_form_still_load() -> None:
    game = _load("fano", {"options": "turns_per_player=4"})
    state = _mid_game(game, 9)
    loaded = pickle.loads(_openspiels_own_pickle(state))
    assert type(loaded) is FanfoldState
    assert _views(loaded) == _views(state)


# ------------------------------------------------------------------ a spawned process
def _registered_here() -> list[str]:
    return [
        kind.short_name for kind in pyspiel.registered_games() if kind.short_name.startswith(PREFIX)
    ]


def _in_a_spawned_process(payload: bytes) -> tuple[list[str], list[Any]]:
    """Run in a new process: the fanfold games registered before unpickling (none), then for
    each pickled ``(game, state, seed, old form of state)``: the game's string, the state's
    views, the views as it plays on, the state played on (pickled back), and the views of
    the state pickled in OpenSpiel's own form."""
    before = _registered_here()
    results = []
    for game, state, seed, old_form in pickle.loads(payload):
        views = _views(state)
        played = _play_on(state, seed, 10)
        results.append(
            (str(game), views, played, pickle.dumps(state), _views(pickle.loads(old_form)))
        )
    return before, results


def test_a_spawned_process_unpickles_and_plays_on() -> None:
    sent = []
    expected = []
    for index, (name, params) in enumerate(GAMES[:6]):
        game = _load(name, params)
        state = _mid_game(game, 20 + index)
        seed = 30 + index
        sent.append((game, state, seed, _openspiels_own_pickle(state)))
        copy = state.clone()
        played = _play_on(copy, seed, 10)
        expected.append((str(game), _views(state), played, copy.history(), _views(state)))
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
        before, results = pool.submit(_in_a_spawned_process, pickle.dumps(sent)).result(timeout=120)
    assert before == []  # the child registered nothing by hand
    assert len(results) == len(expected)
    for (text, views, played, back, old_views), (
        game_text,
        state_views,
        then,
        history,
        same,
    ) in zip(results, expected, strict=True):
        assert (text, views, played, old_views) == (game_text, state_views, then, same)
        returned = pickle.loads(back)
        assert returned.history() == history
        assert _views(returned) == played[-1]


# ------------------------------------------------------------------ OpenSpiel's own sim test
@pytest.mark.parametrize(("name", "params"), GAMES, ids=IDS)
def test_openspiels_stock_sim_test_passes(name: str, params: dict[str, Any]) -> None:
    """``GamesSimTest.sim_game`` from OpenSpiel's ``games_sim_test``, unmodified: pickles the
    game, its type and states along random playouts (at powers of two of the actions), checks
    ``serialize_game_and_state`` and ``clone`` at every action and the returns at the end."""
    games_sim_test = pytest.importorskip("open_spiel.python.tests.games_sim_test")
    game = _load(name, params)
    for seed in range(2):
        np.random.seed(seed)  # the test draws from numpy's global generator
        games_sim_test.GamesSimTest().sim_game(game)
