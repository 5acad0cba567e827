"""Determinisation: states sampled from a view respect everything the view shows."""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fanfold.core.errors import NotationError
from fanfold.games.fantan import GAME, PASS, FanTanConfig, FanTanState, sampling
from fanfold.games.fantan.rules import state_playable
from fanfold.games.fantan.sampling import is_completable

CONFIGS = [preset.config.replace(hands=1, target=None) for preset in GAME.presets()[:7]]


def _play(config: FanTanConfig, seed: int, moves: int) -> tuple[FanTanState, list[int]]:
    """A state after random moves, and for each seat the cards it showed it lacks by passing
    (worked out here from the states themselves, not from the history)."""
    rng = random.Random(seed)
    state = GAME.new_state(config, seed)
    lacks = [0] * config.players
    for _ in range(moves):
        legal = GAME.legal_actions(state)
        if not legal:
            break
        action = legal[rng.randrange(len(legal))]
        if action == PASS:
            lacks[state.to_move] |= state_playable(state)
        state = GAME.apply(state, action)
    return state, lacks


def _check_sample(state: FanTanState, lacks: list[int], seat: int, rng: random.Random) -> None:
    view = GAME.observe(state, seat)
    sampled = GAME.sample_state(view, rng)
    assert GAME.observe(sampled, seat) == view
    assert GAME.invariant_violations(sampled) == []
    assert sampled.hands[seat] == state.hands[seat]
    for other in range(state.config.players):
        assert sampled.hands[other].bit_count() == state.hands[other].bit_count()
        assert not sampled.hands[other] & lacks[other], "a seat that passed got a playable card"
    opening = state.config.opening
    if opening is not None and not state.layout:
        assert sampled.hands[state.leader] >> opening.index & 1
    if GAME.current_player(state) == seat:
        assert GAME.legal_actions(sampled) == GAME.legal_actions(state)


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(CONFIGS),
    st.integers(3, 8),
    st.integers(0, 100_000),
    st.integers(0, 60),
    st.integers(0, 7),
    st.integers(0, 1000),
)
def test_sampled_states_respect_the_view_and_every_pass(
    config: FanTanConfig, players: int, seed: int, moves: int, seat: int, sample_seed: int
) -> None:
    state, lacks = _play(config.replace(players=players), seed, moves)
    _check_sample(state, lacks, seat % players, random.Random(sample_seed))


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(CONFIGS),
    st.integers(3, 8),
    st.integers(0, 100_000),
    st.integers(10, 60),
    st.integers(0, 7),
)
def test_the_constructive_deal_respects_every_pass_too(
    config: FanTanConfig, players: int, seed: int, moves: int, seat: int
) -> None:
    state, lacks = _play(config.replace(players=players), seed, moves)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sampling, "REJECTION_TRIES", 0)
        _check_sample(state, lacks, seat % players, random.Random(seed))


def test_a_seat_that_passed_on_everything_gets_none_of_it() -> None:
    # a position where seat 2 passed at the start: it holds no seven
    config = FanTanConfig(players=3)
    for seed in range(200):
        state = GAME.new_state(config, seed)
        state = GAME.apply(state, GAME.legal_actions(state)[0])
        if GAME.legal_actions(state) == (PASS,):
            break
    else:
        pytest.fail("no deal with a second player lacking a seven")
    state = GAME.apply(state, PASS)
    view = GAME.observe(state, 0)
    rng = random.Random(0)
    for _ in range(50):
        sampled = GAME.sample_state(view, rng)
        held = sampled.hands[1]
        assert not any(held >> (13 * suit + 6) & 1 for suit in range(4))


def _brute_force(cards: list[int], need: list[int], allowed: list[int]) -> bool:
    seats = [seat for seat, count in enumerate(need) for _ in range(count)]
    if len(seats) != len(cards):
        return False
    return any(
        all(allowed[seat] >> card & 1 for seat, card in zip(order, cards, strict=True))
        for order in set(itertools.permutations(seats))
    )


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.integers(0, 2), min_size=3, max_size=3),
    st.lists(st.integers(0, 63), min_size=3, max_size=3),
)
def test_halls_condition_agrees_with_brute_force(need: list[int], allowed: list[int]) -> None:
    total = sum(need)
    cards = list(range(total))
    mask = (1 << total) - 1
    assert is_completable(mask, need, allowed) == _brute_force(cards, need, allowed)


def test_a_view_no_deal_fits_is_refused() -> None:
    view = GAME.observe(GAME.new_state(FanTanConfig(), seed=1), 0)
    wrong = dataclasses.replace(view, hand_counts=(13, 13, 13, 12))
    with pytest.raises(NotationError, match="do not add up"):
        GAME.sample_state(wrong, random.Random(0))


def test_a_finished_view_shows_every_hand_and_samples_itself() -> None:
    state, _ = _play(FanTanConfig(), 3, 500)
    assert state.finished
    view = GAME.observe(state, 2)
    assert view.revealed == state.hands
    sampled = GAME.sample_state(view, random.Random(0))
    assert sampled.hands == state.hands
    assert GAME.observe(sampled, 2) == view


def test_unconstrained_samples_vary() -> None:
    view = GAME.observe(GAME.new_state(FanTanConfig(), seed=1), 0)
    rng = random.Random(0)
    deals = {GAME.sample_state(view, rng).hands for _ in range(20)}
    assert len(deals) == 20
