"""OpenSpiel's information-state and observation tensors: one declared size per game, equal
for states the player cannot tell apart, different where what it saw differs; checked with
OpenSpiel's own utilities (``get_all_states``, ``make_observation``, ``rl_environment``)."""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import get_all_states
from open_spiel.python.observation import make_observation

import fanfold.envs
from fanfold.core.registry import set_up
from fanfold.envs.infostate import ONE_HOT_ACTIONS, action_base
from fanfold.envs.openspiel_game import FanfoldGame, FanfoldState, InformationStateObserver
from tests.envs.conftest import every_preset, playout

fanfold.envs.register_openspiel()

#: Games with hidden cards, and options that keep random games short.
HIDDEN = [
    ("fantan", {"players": 3}),
    ("fantan", {"variant": "chips-match", "players": 4}),
    ("fano", {"options": "turns_per_player=6"}),
    ("fano", {"variant": "four-players", "options": "turns_per_player=4"}),
    ("fano", {"variant": "trionfey-specials", "options": "turns_per_player=8"}),
    ("fano", {"variant": "specials", "options": "turns_per_player=4"}),
]


def _load(name: str, params: dict[str, Any] | None = None) -> FanfoldGame:
    game: FanfoldGame = pyspiel.load_game(f"python_fanfold_{name}", params or {})
    return game


def _dealt(game: FanfoldGame, rng: random.Random) -> FanfoldState:
    state: FanfoldState = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def _short(name: str) -> dict[str, Any]:
    if name == "fano":
        return {"options": "turns_per_player=4"}
    if name == "fan":
        return {"max_steps": 60}
    return {}


@pytest.mark.parametrize(("name", "preset"), every_preset())
def test_every_game_declares_its_tensors_and_keeps_their_size(name: str, preset: str) -> None:
    game = _load(name, {"variant": preset, **_short(name)})
    kind = game.get_type()
    assert kind.provides_information_state_tensor
    assert kind.provides_observation_tensor
    size = game.information_state_layout.size
    assert game.information_state_tensor_shape() == [size]
    assert game.information_state_tensor_size() == size
    assert game.observation_tensor_shape() == [game.encoding.layout.size]
    window = game.history_window
    assert window == min(game.max_game_length(), 16)
    actions = game.num_distinct_actions()
    base = action_base(actions)
    row = game.num_players() + 1 + (actions if base is None else (actions - 1) // base + 1 + base)
    assert size == game.encoding.layout.size + 1 + window * row
    assert (base is None) == (actions <= ONE_HOT_ACTIONS)
    rng = random.Random(7)
    state = game.new_initial_state()
    while state.is_chance_node():
        assert not any(state.information_state_tensor(0))
        state.apply_action(rng.choice(state.legal_actions()))
    for _ in range(40):
        for player in range(game.num_players()):
            tensor = state.information_state_tensor(player)
            assert len(tensor) == size
            observation = state.observation_tensor(player)
            assert tensor[: len(observation)] == observation
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))


def _restarted(state: FanfoldState, position: Any, seed: int) -> FanfoldState:
    """``state``'s game going on from ``position`` (its full state, hidden cards included)
    with an empty history: two restarts of one point compare action for action."""
    return FanfoldState(state.get_game(), episode=state.episode.going_on_from(position, seed))


@pytest.mark.parametrize(("name", "params"), HIDDEN)
def test_states_differing_only_in_hidden_cards_give_one_tensor(
    name: str, params: dict[str, Any]
) -> None:
    """The hidden cards (other hands, draw piles, face-down cards, Fano's later reshuffles)
    re-dealt consistently with a player's view by the game's own ``sample_state``, then the
    same actions applied to both: while the player's information-state strings are equal, so
    are its tensors; when a draw from a re-dealt pile shows the player a different card, the
    string, the observation and the tensor all differ from then on."""
    game = _load(name, params)
    fanfold_game = game.fanfold_game
    compared = later = differing = parted = 0
    for seed in range(10):
        rng = random.Random(seed)
        state = _dealt(game, rng)
        for _ in range(rng.randrange(0, 12)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        for player in range(game.num_players()):
            view = fanfold_game.observe(state.fanfold_state, player)
            sampled = fanfold_game.sample_state(view, random.Random(seed * 10 + player))
            one = _restarted(state, state.fanfold_state, 1)
            other = _restarted(state, sampled, 2)
            differing += str(one) != str(other)
            for _ in range(30):
                tensors = [s.information_state_tensor(player) for s in (one, other)]
                if one.information_state_string(player) != other.information_state_string(player):
                    assert one.observation_tensor(player) != other.observation_tensor(player)
                    assert tensors[0] != tensors[1]
                    parted += 1
                    break
                assert tensors[0] == tensors[1]
                assert one.observation_tensor(player) == other.observation_tensor(player)
                compared += 1
                later += bool(one.history())
                if one.is_terminal() or other.is_terminal():
                    break
                common = sorted(set(one.legal_actions()) & set(other.legal_actions()))
                if not common:
                    break
                action = rng.choice(common)
                one.apply_action(action)
                other.apply_action(action)
    assert compared > 30
    assert later > 10  # after actions applied to both
    assert differing > 0
    if name == "fantan":
        assert not parted  # nothing is drawn after the deal


def test_a_transposition_has_one_observation_tensor_and_two_information_state_tensors() -> None:
    """Morris: White A, Black B, White C and White C, Black B, White A reach one position: the
    observation tensor is the same, the information-state tensor is not (the window)."""
    game = _load("morris")

    def play(actions: list[int]) -> pyspiel.State:
        state = game.new_initial_state()
        for action in actions:
            state.apply_action(action)
        return state

    first = play([]).legal_actions()[0]
    black = play([first]).legal_actions()[3]
    third = play([first, black]).legal_actions()[4]
    one, other = play([first, black, third]), play([third, black, first])
    assert one.observation_tensor(0) == other.observation_tensor(0)
    assert one.information_state_tensor(0) != other.information_state_tensor(0)
    blocks = game.information_state_layout.views(np.array(one.information_state_tensor(1)))
    assert blocks["actions_told"][0] == 3
    assert blocks["history_seat"].tolist()[:4] == [[0, 1], [1, 0], [0, 1], [0, 0]]
    assert [int(np.argmax(row)) for row in blocks["history_action"][:3]] == [
        third,
        black,
        first,
    ]


def _end_game(players: int, seed: int, back: int) -> FanfoldGame:
    """A Fan Tan game loaded at a random hand's position ``back`` actions from its end."""
    found, config = set_up("fantan", "standard", {"players": players})
    position = found.format_position(list(playout(found, config, seed, 400))[-back])
    return _load("fantan", {"players": players, "position": position})


def test_on_a_whole_end_game_the_tensor_is_the_information_state() -> None:
    """OpenSpiel's ``get_all_states`` on a Fan Tan end game, which the window covers: for each
    player, two states have one information-state tensor exactly when they have one
    information-state string."""
    game = _end_game(3, 6, 12)
    states = get_all_states.get_all_states(game, include_terminals=True)
    assert len(states) > 20
    for player in range(game.num_players()):
        tensors: dict[str, tuple[float, ...]] = {}
        for state in states.values():
            string = state.information_state_string(player)
            tensor = tuple(state.information_state_tensor(player))
            assert tensors.setdefault(string, tensor) == tensor
        assert len(set(tensors.values())) == len(tensors)  # different strings, different tensors
        assert len(tensors) > 1


def _row_index(blocks: dict[str, Any], row: int) -> int | None:
    """The action index a row of the window holds (``None``: none)."""
    if "history_action" in blocks:
        found = np.flatnonzero(blocks["history_action"][row])
        return int(found[0]) if len(found) else None
    high = np.flatnonzero(blocks["history_action_high"][row])
    low = np.flatnonzero(blocks["history_action_low"][row])
    if not len(high):
        return None
    base: int = blocks["history_action_low"].shape[1]
    return int(high[0]) * base + int(low[0])


@pytest.mark.parametrize("variant", ["classic", "trionfey-specials"])
def test_hidden_actions_take_a_row_without_their_index(variant: str) -> None:
    """An action the others are told only in part (a Fano discard goes face down; in Trionfey
    with Perfect defense a card may be played face down): its row has the seat and the hidden
    mark and no index for the others; the actor's own row has the index."""
    game = _load("fano", {"variant": variant, "options": "turns_per_player=12"})
    fanfold_game = game.fanfold_game
    layout = game.information_state_layout
    for seed in range(40):
        rng = random.Random(seed)
        state = _dealt(game, rng)
        while not state.is_terminal():
            seat = state.current_player()
            other = 1 - seat
            position = state.fanfold_state
            hidden = []
            for index in state.legal_actions():
                action = game.encoding.action(seat, index)
                told = fanfold_game.public_action_text(position, action, other)
                if told and told != fanfold_game.public_action_text(position, action, seat):
                    hidden.append(index)
            chosen = rng.choice(hidden or state.legal_actions())
            state.apply_action(chosen)
            if hidden:
                mine = layout.views(np.array(state.information_state_tensor(seat)))
                theirs = layout.views(np.array(state.information_state_tensor(other)))
                assert mine["history_hidden"][0] == 0
                assert _row_index(mine, 0) == chosen
                assert theirs["history_hidden"][0] == 1
                assert _row_index(theirs, 0) is None
                assert theirs["history_seat"][0, 1] == 1  # the seat after the observer acted
                return
    pytest.fail("no action told in part in 40 random games")


def test_large_action_tables_are_written_as_two_one_hots() -> None:
    game = _load("fan", {"variant": "sequences", "max_steps": 50})
    assert game.num_distinct_actions() == 3996
    assert action_base(3996) == 64
    state = _dealt(game, random.Random(3))
    action = state.legal_actions()[-1]
    state.apply_action(action)
    blocks = game.information_state_layout.views(np.array(state.information_state_tensor(0)))
    assert blocks["history_action_high"].shape == (16, 63)
    assert blocks["history_action_low"].shape == (16, 64)
    assert blocks["history_action_high"][0, action // 64] == 1
    assert blocks["history_action_low"][0, action % 64] == 1
    assert blocks["history_action_high"].sum() == 1


def test_the_window_is_a_parameter() -> None:
    game = _load("fantan", {"players": 3, "history_window": 4})
    assert game.history_window == 4
    state = _dealt(game, random.Random(2))
    for _ in range(7):
        state.apply_action(state.legal_actions()[0])
    blocks = game.information_state_layout.views(np.array(state.information_state_tensor(0)))
    assert blocks["history_seat"].shape == (4, 3)
    assert blocks["history_seat"].sum() == 4
    assert blocks["actions_told"][0] == 7
    assert _load("fantan", {"history_window": 0}).information_state_tensor_size() == 357


def test_openspiel_observation_and_rl_environment_read_the_tensors() -> None:
    game = _load("fantan", {"players": 3})
    observation = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    state = _dealt(game, random.Random(4))
    state.apply_action(state.legal_actions()[0])
    observation.set_from(state, 1)
    assert list(observation.tensor) == state.information_state_tensor(1)
    assert set(observation.dict) >= {"observation", "history_seat", "history_action"}
    env = rl_environment.Environment(game, seed=1)
    size = game.information_state_tensor_size()
    assert env.observation_spec()["info_state"] == (size,)
    step = env.reset()
    for _ in range(20):
        if step.last():
            break
        player = step.observations["current_player"]
        assert len(step.observations["info_state"][player]) == size
        step = env.step([step.observations["legal_actions"][player][0]])


def test_the_information_state_is_kept_by_the_state_and_shared_by_its_clones() -> None:
    """A state keeps what each seat was told (its trail): a clone shares it, a child adds one
    step to it, each step's lines are drawn once per seat, and a long trail pickles."""
    game = _load("fantan", {"players": 3})
    rng = random.Random(5)
    state = _dealt(game, rng)
    for _ in range(3):
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.clone().trail is state.trail
    child = state.child(state.legal_actions()[0])
    assert child.trail.previous is state.trail
    assert child.trail.length == state.trail.length + 1 == len(state.history()) + 2  # + start
    observer = InformationStateObserver(game)
    text = observer.string_from(state, 1)
    kept = state.trail.parts(game.fanfold_game, game.encoding, 1)
    assert state.trail.parts(game.fanfold_game, game.encoding, 1) is kept
    assert observer.string_from(child, 1).startswith(text + "\n-- seat ")
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    again = pickle.loads(pickle.dumps(state))
    for seat in range(3):
        assert again.information_state_string(seat) == state.information_state_string(seat)


def test_a_tree_walk_answers_as_fresh_observers_do() -> None:
    """One observer walking a tree (each call parting from the last at some depth) answers as
    a fresh observer for every state does."""
    game = _end_game(3, 7, 12)
    states = list(get_all_states.get_all_states(game, include_terminals=True).values())
    walker = InformationStateObserver(game)
    for number, state in enumerate(states[::3]):
        player = number % 3
        fresh = InformationStateObserver(game)
        assert walker.string_from(state, player) == fresh.string_from(state, player)
        walker.set_from(state, player)
        fresh.set_from(state, player)
        assert list(walker.tensor) == list(fresh.tensor)
