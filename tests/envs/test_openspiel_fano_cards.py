"""Fano's card-by-card deal for OpenSpiel (``deal=cards``): each draw pile and every reshuffle
is dealt by chance nodes whose outcomes are cards, nobody told which card went where; the
first player is a chance node too; a resampled state re-deals what the player never saw.
(OpenSpiel's resampling contract and random simulation test over every Fano preset are in
``test_openspiel_resample.py`` and ``test_openspiel.py``.)"""

from __future__ import annotations

import random

import pyspiel
import pytest

import fanfold.envs
from fanfold.core.registry import get_game
from fanfold.envs.card_deals import FanoReshuffle
from fanfold.envs.openspiel_game import FanfoldState
from fanfold.games.fano.actions import Mulligan
from fanfold.games.fano.cards import TEMP_JOKER, card_text
from fanfold.games.fano.rules import deck_of
from fanfold.games.fano.state import Phase

fanfold.envs.register_openspiel()

FANO = get_game("fano")


def _load(**params: object) -> pyspiel.Game:
    return pyspiel.load_game("python_fanfold_fano", params)


def _play(state: pyspiel.State, rng: random.Random) -> None:
    if state.is_chance_node():
        state.apply_action(rng.choice([outcome for outcome, _ in state.chance_outcomes()]))
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def test_each_draw_pile_is_dealt_card_by_card_then_the_first_player() -> None:
    game = _load()
    assert game.max_chance_outcomes() == 176
    assert "deal=cards" in str(game)
    config = game.config
    decks = [deck_of(config, seat) for seat in range(2)]
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(card, 1 / len(decks[0])) for card in decks[0]]
    dealt = [list(reversed(deck)) for deck in decks]
    for seat in range(2):
        for card in dealt[seat]:
            assert state.is_chance_node()
            assert card in state.legal_actions()
            state.apply_action(card)
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 1) == "seat 1 plays first"
    state.apply_action(1)
    fano = state.fanfold_state
    assert fano.turn_player == 1
    # node by node the drawing order: seat 1 drew the first three cards dealt to its pile
    assert fano.players[1].hand == tuple(sorted(dealt[1][:3]))
    assert fano.players[1].draw == tuple(reversed(dealt[1][3:]))
    assert fano.players[0].draw == tuple(reversed(dealt[0]))
    told = state.information_state_string(0).splitlines()
    assert told[0] == "-- dealt: a card into seat 0's draw pile"
    assert told[len(decks[0]) + len(decks[1])] == "-- dealt: seat 1 plays first"
    # The piles' cards are told to nobody: both seats are told the deal alike.
    dealt_lines = [
        [line for line in state.information_state_string(seat).splitlines() if "-- dealt" in line]
        for seat in range(2)
    ]
    assert dealt_lines[0] == dealt_lines[1] == told[: len(decks[0]) + len(decks[1]) + 1]


def test_a_reshuffle_is_dealt_by_chance_after_the_action_that_made_it() -> None:
    game = _load(variant="classic")
    rng = random.Random(4)
    state = game.new_initial_state()
    while not (state.is_chance_node() and isinstance(state.before, FanoReshuffle)):
        _play(state, rng)
    deal = state.before
    seat = deal.seat
    discards = deal.state.players[seat]
    # the seat's discard pile (and any card the action discarded), none of its other cards
    assert set(discards.up) | set(discards.down) <= set(deal.cards)
    assert set(deal.cards) <= {*deck_of(game.config, seat), TEMP_JOKER}
    assert str(state).startswith(f"dealing: 0 of {len(deal.cards)} cards dealt")
    order = sorted(deal.cards, reverse=True)
    for card in order:
        text = state.action_to_string(pyspiel.PlayerId.CHANCE, card)
        assert text == f"deal {card_text(card)} into seat {seat}'s draw pile"
        state.apply_action(card)
    assert not state.is_chance_node()
    player = state.fanfold_state.players[seat]
    assert player.shuffles == discards.shuffles + 1
    drawn = len(order) - len(player.draw)
    assert player.draw == tuple(reversed(order[drawn:]))
    assert set(order[:drawn]) <= set(player.hand)
    line = f"-- dealt: a card into seat {seat}'s draw pile"
    assert all(
        state.information_state_string(other).count(line) >= len(order)
        for other in range(game.num_players())
    )


def test_a_resampled_state_re_deals_what_the_player_never_saw() -> None:
    game = _load(variant="classic", players=3)
    rng = random.Random(11)
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.history()) < 3 * 17 + 1 + 12:
        _play(state, rng)
    others = [state.resample_from_infostate(0, random.Random(seed).random) for seed in range(4)]
    real = state.fanfold_state
    assert len({str(other) for other in others}) > 1
    for other in others:
        assert isinstance(other, FanfoldState)
        assert other.information_state_string(0) == state.information_state_string(0)
        assert other.observation_string(0) == state.observation_string(0)
        sampled = other.fanfold_state
        assert sampled.players[0].hand == real.players[0].hand
        assert sorted(sampled.players[0].draw) == sorted(real.players[0].draw)
        for seat in (1, 2):
            assert sampled.players[seat].field == real.players[seat].field
            assert len(sampled.players[seat].hand) == len(real.players[seat].hand)
        # it plays on to the end
        while not other.is_terminal():
            _play(other, rng)
    # The hidden cards are dealt anew: the other seats' hands are not always the real ones.
    assert any(
        other.fanfold_state.players[seat].hand != real.players[seat].hand
        for other in others
        for seat in (1, 2)
    )


def test_old_fano_game_strings_load_in_the_seed_byte_form() -> None:
    old = (
        "python_fanfold_fano(deals=0,history_window=-1,max_steps=-1,options=,players=0,"
        "position=,seed=-1,variant=classic)"
    )
    game = pyspiel.load_game(old)
    assert game.max_chance_outcomes() == 256
    assert "deal=seed" in str(game)
    state = game.new_initial_state()
    for byte in range(16):
        state.apply_action(byte)
    seed = int.from_bytes(bytes(range(16)), "big")
    assert state.fanfold_state == FANO.new_state(game.config, seed)
    # The card-by-card deal is the default, and loads from its game's string.
    assert "deal=cards" in str(pyspiel.load_game("python_fanfold_fano"))
    cards = pyspiel.load_game(str(_load(variant="trionfey")))
    assert cards.max_chance_outcomes() == 176
    state = cards.new_initial_state()
    rng = random.Random(2)
    for _ in range(50):
        _play(state, rng)
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(cards, state))[1]
    assert str(again) == str(state)
    assert again.information_state_string(0) == state.information_state_string(0)


def _mulligan_position() -> str:
    """A classic position where seat 1 is offered the redraw (found by random play)."""
    config = FANO.default_config()
    for seed in range(200):
        state = FANO.new_state(config, seed)
        rng = random.Random(seed)
        for _ in range(300):
            if state.phase is Phase.MULLIGAN and state.turn_player == 1:
                return str(FANO.format_position(state))
            legal = FANO.legal_actions(state)
            if not legal:
                break
            state = FANO.apply_legal(state, rng.choice(legal))
    pytest.fail("no redraw offered to seat 1 in 200 random games")


def test_a_redraw_declined_by_another_seat_tells_nothing() -> None:
    game = pyspiel.load_game("python_fanfold_fano", {"position": _mulligan_position()})
    state = game.new_initial_state()
    assert state.current_player() == 1
    decline = game.encoding.action_index(1, Mulligan(False))
    before = [state.information_state_string(seat) for seat in range(2)]
    state.apply_action(decline)
    assert state.information_state_string(0) == before[0]
    assert state.information_state_string(1).startswith(before[1] + "\n-- seat 1: ")


def test_a_resampled_state_declines_the_redraws_its_cards_offer() -> None:
    """Another seat's declined redraw is secret: a resampled hand that offers none leaves the
    decline out, one that offers one declines it, and the player's story is the same."""
    game = _load(options="turns_per_player=8")
    decline = game.encoding.action_index(1, Mulligan(False))
    for seed in range(300):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == 1 and decline in state.legal_actions():
                break
            _play(state, rng)
        if not state.is_terminal():
            break
    else:
        pytest.fail("no redraw offered to seat 1 in 300 random games")
    before = state.information_state_string(0)
    state.apply_action(decline)
    assert state.information_state_string(0) == before
    lengths = set()
    for number in range(6):
        other = state.resample_from_infostate(0, random.Random(number).random)
        assert other.information_state_string(0) == state.information_state_string(0)
        assert other.current_player() == 1
        lengths.add(len(other.history()) - len(state.history()))
    assert lengths <= {0, -1}
    assert -1 in lengths  # the decline left out: the traded hand offered no redraw
