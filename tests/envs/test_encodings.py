"""The encodings: every legal action has its own index and comes back from it, masks match
the legal actions, observations fit their layout and never depend on hidden cards."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from fanfold.core.errors import ConfigError, IllegalActionError, UnknownGameError
from fanfold.core.registry import get_game
from fanfold.envs.encodings import encoding_for, make_encoding, resolve
from fanfold.envs.layout import Block, Layout
from fanfold.games.fano import Discard
from tests.envs.conftest import SHORT, every_preset, playout


@pytest.mark.parametrize(("name", "preset"), every_preset())
def test_every_legal_action_encodes_and_decodes(name: str, preset: str) -> None:
    game, config = resolve(name, preset, SHORT.get(name))
    encoding = encoding_for(game, config)
    low, high = encoding.layout.bounds
    for seed in range(2):
        for state in playout(game, config, seed, limit=400):
            seat = game.current_player(state)
            if seat is None:
                break
            legal = game.legal_actions(state)
            indices = [encoding.action_index(seat, action) for action in legal]
            assert len(set(indices)) == len(indices), "two legal actions share an index"
            assert [encoding.action(seat, index) for index in indices] == list(legal)
            mask = encoding.legal_mask(seat, legal)
            assert mask.dtype == np.int8
            assert sorted(np.flatnonzero(mask).tolist()) == sorted(indices)
            observation = encoding.observation(game.observe(state, seat))
            assert observation.shape == (encoding.layout.size,)
            assert np.all(observation >= low)
            assert np.all(observation <= high)


@pytest.mark.parametrize(
    ("name", "preset"),
    [
        ("fano", "classic"),
        ("fano", "everything"),
        ("fano", "trionfey-specials"),
        ("fano", "trionfey-one-for-all"),
        ("fano", "eight-players"),
        ("fantan", "standard"),
        ("fantan", "domino"),
        ("fantan", "sevens-match"),
    ],
)
def test_observations_do_not_change_when_hidden_cards_are_redealt(name: str, preset: str) -> None:
    """On the Python path and, for Fano, on the vector env's compiled kernels, which write the
    observation from the whole state's arrays."""
    game, config = resolve(name, preset, SHORT.get(name))
    encoding = encoding_for(game, config)
    compiled = _compiled_observers(encoding) if name == "fano" else None
    rng = random.Random(5)
    for number, state in enumerate(playout(game, config, seed=3, limit=300)):
        if number % 7:
            continue
        for seat in range(game.num_players(config)):
            view = game.observe(state, seat)
            tensor = encoding.observation(view)
            if compiled is not None:
                np.testing.assert_array_equal(compiled(seat, state), tensor)
            for _ in range(2):
                redealt = game.sample_state(view, rng)
                again = encoding.observation(game.observe(redealt, seat))
                np.testing.assert_array_equal(tensor, again)
                if compiled is not None:
                    np.testing.assert_array_equal(compiled(seat, redealt), tensor)


def _compiled_observers(encoding: Any) -> Callable[[int, Any], Any]:
    """A seat's observation of a Fano state written by the compiled tables' kernel."""
    from fanfold.envs.fano_stepping import FanoTables
    from fanfold.games.fano.fast import codec

    tables = [FanoTables(encoding, seat, 1) for seat in range(encoding.players)]
    rows = np.zeros(1, dtype=np.int64)
    observations = np.zeros((1, encoding.layout.size), dtype=np.float32)
    masks = np.zeros((1, encoding.num_actions), dtype=np.int8)

    def observe(seat: int, state: Any) -> Any:
        tables[seat].states[0] = codec.encode_state(state)
        tables[seat].observe(rows, rows, observations, masks)
        return observations[0].copy()

    return observe


def test_hidden_cards_are_not_in_the_observation() -> None:
    """A view that differs only in the observer's hand changes the tensor, while the other
    seats' hands (hidden from it) never reach it: the tensor is built from the view alone."""
    game, config = resolve("fantan", "standard")
    encoding = encoding_for(game, config)
    state = game.new_state(config, 1)
    mine = encoding.observation_dict(game.observe(state, 0))
    assert mine["hand"].sum() == bin(state.hands[0]).count("1")
    assert mine["hand_counts"].tolist() == [13.0, 13.0, 13.0, 13.0]


def test_sizes_follow_the_documented_formulas() -> None:
    assert make_encoding("morris").num_actions == 14 + 30
    assert make_encoding("morris", "complete").num_actions == 14 + 42
    assert make_encoding("fan").num_actions == 18 + 18 * 17
    assert make_encoding("fan", "sequences").num_actions == 18 + 18 * 17 * 13
    assert make_encoding("fantan").num_actions == 53
    assert make_encoding("fantan", players=8).layout.size == 52 * 2 + 8 * 52 + 7 * 8 + 14 + 2
    assert make_encoding("fan").layout.size == 52 * 19 + 52 * 15


def test_fano_tables_are_the_documented_sizes() -> None:
    """The sizes docs/envs/encodings.md gives (a change to the encoding must update them there)."""
    sizes = {
        "classic": 337,
        "two-suit": 2333,
        "jokers-wild": 894,
        "everything": 11571,
        "trionfey": 566,
        "trionfey-one-for-all": 594,
        "trionfey-specials": 678,
    }
    for preset, size in sizes.items():
        assert make_encoding("fano", preset).num_actions == size, preset


def test_fano_index_means_the_same_move_for_every_seat() -> None:
    encoding = make_encoding("fano", "four-players")
    texts = [encoding.game.action_text(encoding.action(seat, 40)) for seat in range(4)]
    assert texts[0] == "sub 5H 3H"
    # Seats command hearts, clubs, spades and diamonds: the same move in each seat's suit.
    assert {text.replace(suit, "?") for text, suit in zip(texts, "HCSD", strict=True)} == {
        "sub 5? 3?"
    }


def test_fano_discards_cover_every_set_of_up_to_three_cards() -> None:
    encoding = make_encoding("fano")
    discards = [
        index
        for index in range(encoding.num_actions)
        if isinstance(encoding.action(0, index), Discard)
    ]
    assert len(discards) == 10 + 45 + 120


def test_bad_input_is_refused_with_a_clear_error() -> None:
    encoding = make_encoding("morris")
    with pytest.raises(IllegalActionError, match="out of range"):
        encoding.action(0, 44)
    with pytest.raises(IllegalActionError, match="out of range"):
        encoding.action(0, -1)
    fano = get_game("fano")
    with pytest.raises(IllegalActionError, match="not in the action table"):
        make_encoding("fano").action_index(0, fano.parse_action("discard 8H 9H TH 4H"))
    with pytest.raises(UnknownGameError):
        make_encoding("chess")
    with pytest.raises(UnknownGameError):
        make_encoding("morris", "hexagonal")
    with pytest.raises(ConfigError):
        make_encoding("fantan", players=9)
    with pytest.raises(ConfigError):
        make_encoding("fantan", colour="blue")


def test_layout_views_share_the_tensor() -> None:
    layout = Layout((Block("a", (2, 2), "first"), Block("b", (3,), "second", high=5.0)))
    tensor = layout.zeros()
    layout.views(tensor)["b"][1] = 4.0
    assert tensor.tolist() == [0, 0, 0, 0, 0, 4, 0]
    _low, high = layout.bounds
    assert high.tolist() == [1, 1, 1, 1, 5, 5, 5]
    assert layout.describe()[1] == ("b", "3", 4, 3, "second")
