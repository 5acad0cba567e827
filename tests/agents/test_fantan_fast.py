"""Fan Tan's compiled search (``pimc(fast=true)``): the kernels against the reference strategy."""

from __future__ import annotations

import random
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fanfold.agents import create_agent
from fanfold.agents.pimc import PIMCAgent, PIMCConfig
from fanfold.agents.strategy import fantan as strategy
from fanfold.agents.strategy import fantan_fast as fast
from fanfold.agents.strategy import fantan_kernels as kernels
from fanfold.games.fantan import GAME, FanTanConfig, FanTanState, FanTanView, rules
from fanfold.games.fantan.actions import FanTanAction
from fanfold.games.fantan.rules import pass_constraints

#: The presets the compiled search covers, and one it leaves to the reference search.
COVERED = ("standard", "seven-of-diamonds", "ace-low")


def _views(preset: str, seeds: range, every: int = 1) -> list[tuple[FanTanView, FanTanState]]:
    """Seat 0's views at its choices among two or more cards, in games the heuristic plays."""
    config = GAME.preset(preset).config
    agents = [create_agent("heuristic", GAME, seat) for seat in range(config.players)]
    found = []
    for seed in seeds:
        state = GAME.new_state(config, seed)
        while GAME.current_player(state) is not None:
            seat = state.to_move
            legal = GAME.legal_actions(state)
            view = GAME.observe(state, seat)
            if seat == 0 and len(legal) > 1:
                found.append((view, state))
            state = GAME.apply(state, agents[seat].choose(view, legal))
    return found[::every]


def test_the_compiled_search_covers_the_plain_single_hand_variants() -> None:
    covered = {preset.name for preset in GAME.presets() if fast.supports(preset.config)}
    assert covered == set(COVERED)
    assert not fast.supports(FanTanConfig(hands=3))
    assert not fast.supports(FanTanConfig(start_rank=None))


@pytest.mark.parametrize(
    "config",
    [
        FanTanConfig(),
        FanTanConfig(ace_high=False),
        FanTanConfig(up_before_down=True),
        FanTanConfig(start_rank=10),
        FanTanConfig(start_rank=1, ace_high=False),
        FanTanConfig(start_rank=13),
    ],
    ids=["sevens", "ace-low", "up-first", "tens", "aces-low", "kings"],
)
@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_the_kernel_scores_every_card_as_the_strategy_does(
    config: FanTanConfig, data: st.DataObject
) -> None:
    assert config.start_rank is not None
    table = rules.suit_table(config.start_rank, config.ace_high, config.up_before_down)
    rows = [row for row in range(1 << 13) if table[row] != -1]
    row = data.draw(st.sampled_from(rows))
    hand = data.draw(st.integers(0, (1 << 13) - 1)) & ~row
    choices = hand & table[row]
    tables = fast.tables(config)
    expected = strategy.card_scores(config, row, config.start_rank, hand, choices)
    for index, score in expected.items():
        assert kernels.card_score(row, hand, index, *tables.scoring()) == score


@pytest.mark.parametrize("preset", COVERED)
def test_the_kernel_plays_one_of_the_strategy_s_best_cards(preset: str) -> None:
    tables = fast.tables(GAME.preset(preset).config)
    randoms = np.array([7], np.uint64)
    checked = 0
    for view, state in _views(preset, range(8)):
        playable = rules.state_playable(state)
        choices = view.hand & playable
        scores = strategy.card_scores(view.config, view.layout, view.start_rank, view.hand, choices)
        best = max(scores.values())
        for _ in range(3):
            index = kernels.best_card(
                view.hand, choices, view.layout, randoms, 0, np.empty(52, np.int64),
                np.empty(52), *tables.scoring(),
            )  # fmt: skip
            assert scores[index] == best
        assert kernels.playable(view.layout, tables.opening, tables.table) == playable
        checked += 1
    assert checked >= 15


@pytest.mark.parametrize("preset", COVERED)
def test_the_kernel_reads_play_as_the_strategy_does(preset: str) -> None:
    tables = fast.tables(GAME.preset(preset).config)
    checked = 0
    for view, state in _views(preset, range(3), every=2):
        record = strategy.PlayRecord(view)
        rng = random.Random(len(view.history))
        dealt = [state.hands, *(GAME.sample_state(view, rng).hands for _ in range(3))]
        for seat, plays in enumerate(record.plays):
            if seat == view.player or not plays:
                continue
            indices = np.array([play[0] for play in plays], np.int64)
            layouts = np.array([play[1] for play in plays], np.int64)
            playables = np.array([play[3] for play in plays], np.int64)
            for hands in dealt:
                got = kernels.seat_likelihood(
                    hands[seat], 0, len(plays), indices, layouts, playables, strategy.STRAY,
                    *tables.scoring(),
                )  # fmt: skip
                assert got == pytest.approx(record.seat_likelihood(seat, hands[seat]), rel=1e-12)
                checked += 1
    assert checked >= 30


def test_the_real_hands_of_heuristic_seats_are_possible_under_a_reading_that_never_strays() -> None:
    """The playouts' model of the other seats is the ``heuristic`` agent itself: in its games,
    every play seen is one of the strategy's best cards for the hand really held (the reading
    without its stray rate gives the real hands a positive chance), while many deals the view
    allows are ruled out by that reading."""
    checked = ruled_out = 0
    for view, state in _views("standard", range(6), every=3):
        never_strays = strategy.PlayRecord(view, 0.0)
        rng = random.Random(len(view.history))
        for seat, hand in enumerate(state.hands):
            if seat == view.player or not never_strays.plays[seat]:
                continue
            assert never_strays.seat_likelihood(seat, hand) > 0.0
            checked += 1
            other = GAME.sample_state(view, rng).hands[seat]
            ruled_out += never_strays.seat_likelihood(seat, other) == 0.0
    assert checked >= 20
    assert ruled_out >= checked // 4


def _check_deal(view: FanTanView, hands: list[int]) -> None:
    """``hands`` keep everything ``view`` shows."""
    assert hands[view.player] == view.hand
    assert [hand.bit_count() for hand in hands] == list(view.hand_counts)
    total = view.layout
    for hand in hands:
        assert not hand & total, "a card dealt twice, or a played card dealt"
        total |= hand
    assert total == (1 << 52) - 1
    forbidden = pass_constraints(view.config, view.leader, view.history)
    for seat, hand in enumerate(hands):
        if seat != view.player:
            assert not hand & forbidden[seat], "a seat that passed was dealt a playable card"
    opening = view.config.opening
    if opening is not None and not view.layout:
        assert hands[view.leader] >> opening.index & 1


@pytest.mark.parametrize("infer", [True, False])
@pytest.mark.parametrize("preset", COVERED)
def test_compiled_deals_keep_every_constraint_of_the_view(preset: str, infer: bool) -> None:
    rng = random.Random(3)
    checked = 0
    for view, _ in _views(preset, range(4), every=2):
        deals = fast.infer_deals(view, 40, rng, infer)
        assert deals.shape == (40, view.config.players)
        for row in deals.tolist():
            _check_deal(view, row)
        checked += 1
    assert checked >= 8


def test_reading_the_others_play_puts_their_cards_where_they_are() -> None:
    """The chain's deals give the true holder of a hidden card more often than deals drawn
    uniformly among those the view allows."""
    rng = random.Random(5)
    read = uniform = total = 0.0
    for view, state in _views("standard", range(12), every=2):
        inferred = fast.infer_deals(view, 100, rng, True)
        plain = fast.infer_deals(view, 100, rng, False)
        for seat, hand in enumerate(state.hands):
            if seat == view.player:
                continue
            for index in range(52):
                if hand >> index & 1:
                    read += float(np.mean((inferred[:, seat] >> index) & 1))
                    uniform += float(np.mean((plain[:, seat] >> index) & 1))
                    total += 1
    assert read / total > uniform / total + 0.02


def _decision(seed: int) -> tuple[FanTanView, list[FanTanAction]]:
    for view, state in _views("standard", range(seed, seed + 3)):
        if len(view.history) > 8:
            return view, list(GAME.legal_actions(state))
    raise AssertionError("no decision found")  # pragma: no cover


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_compiled_search_is_seeded_bounded_and_falls_back_like_the_reference(
    seed: int,
) -> None:
    view, legal = _decision(seed)
    deals = fast.infer_deals(view, 60, random.Random(seed))

    def values(lookahead: int, group: int, deadline: float | None = None) -> list[float]:
        return fast.search_values(view, deals, legal, random.Random(4), lookahead, group, deadline)

    searched = values(2, 3)
    assert len(searched) == len(legal)
    assert all(-60 <= value <= 60 for value in searched)
    assert searched == values(2, 3)
    plain = values(0, 1)
    assert values(3, 61) == plain  # no view shared by enough deals: the strategy's cards
    assert values(3, 1, deadline=0.0) == plain  # out of time: the strategy's cards


def test_the_searches_say_when_the_deadline_stopped_a_view_s_search() -> None:
    """``stopped`` is told each time the deadline stops a view's search, by the compiled
    search and by the reference one alike; a search with nothing left to search (no
    look-ahead) stops nothing, so it tells nothing."""
    view, legal = _decision(1)
    deals = fast.infer_deals(view, 60, random.Random(1))
    states = [_state_of(view, row) for row in deals.tolist()]
    told: list[str] = []
    fast.search_values(view, deals, legal, random.Random(4), 2, 1, 0.0, lambda: told.append("c"))
    strategy.search_values(states, legal, 0, random.Random(4), 2, 1, 0.0, lambda: told.append("r"))
    assert "c" in told  # the compiled search
    assert "r" in told  # the reference search
    told.clear()
    fast.search_values(view, deals, legal, random.Random(4), 0, 1, 0.0, lambda: told.append("c"))
    strategy.search_values(states, legal, 0, random.Random(4), 0, 1, 0.0, lambda: told.append("r"))
    fast.search_values(view, deals, legal, random.Random(4), 2, 1, None, lambda: told.append("c"))
    assert told == []


@pytest.mark.parametrize("compiled", [True, False])
@pytest.mark.parametrize(
    ("seconds", "deadline", "cut"),
    [(60.0, None, False), (1e-9, None, True), (60.0, -1.0, True)],
)
def test_pimc_says_whether_its_time_cap_cut_its_search_on_either_route(
    compiled: bool, seconds: float, deadline: float | None, cut: bool
) -> None:
    """``budget_cut`` of ``pimc`` with a look-ahead, compiled (``fast=true``) or not: its own
    cap spent, or the server's deadline (:attr:`~fanfold.agents.base.Agent.deadline`, here one
    second ago) passed, before the views were searched cuts; a cap not reached does not."""
    view, legal = _decision(2)
    text = f"pimc(deals=40, lookahead=1, group=1, fast={str(compiled).lower()}, seconds={seconds})"
    agent = create_agent(text, GAME, 1)
    agent.budget_cut = not cut  # each decision sets it
    agent.deadline = None if deadline is None else time.monotonic() + deadline
    assert agent.choose(view, legal) in legal
    assert agent.budget_cut is cut


def _state_of(view: FanTanView, hands: list[int]) -> FanTanState:
    """The full state of ``view`` with ``hands``."""
    return FanTanState(
        view.config, 0, view.hand_number, view.dealer, view.leader, view.player, tuple(hands),
        view.layout, view.start_rank, view.history, view.passes, view.scores, view.pool,
        view.last_winner, False,
    )  # fmt: skip


def test_the_compiled_playouts_match_the_reference_playouts() -> None:
    """Played out from the same deals, the kernels and the reference rollout (which break the
    strategy's ties with other random draws) give each move nearly the same value."""
    gaps = []
    for seed in (1, 2, 3, 4):
        view, legal = _decision(seed)
        deals = fast.infer_deals(view, 300, random.Random(seed))
        states = [_state_of(view, row) for row in deals.tolist()]
        reference = strategy.search_values(states, legal, 0, random.Random(1), 0, 5)
        compiled = fast.search_values(view, deals, legal, random.Random(1), 0, 5)
        gaps += [abs(a - b) / 300 for a, b in zip(reference, compiled, strict=True)]
    assert max(gaps) < 0.06


@pytest.mark.parametrize("preset", ["standard", "seven-of-diamonds", "chips", "domino"])
def test_a_fast_search_seat_plays_legal_reproducible_games(preset: str) -> None:
    config = GAME.preset(preset).config

    def play(seed: int) -> tuple[object, ...]:
        agents = [
            PIMCAgent(GAME, PIMCConfig(deals=30, infer=True, lookahead=2, fast=True), seed)
            if seat == seed % 4
            else create_agent("heuristic", GAME, seed + seat)
            for seat in range(4)
        ]
        state = GAME.new_state(config, seed)
        while GAME.current_player(state) is not None:
            seat = state.to_move
            legal = GAME.legal_actions(state)
            action = agents[seat].choose(GAME.observe(state, seat), legal)
            assert GAME.is_legal(state, action)
            state = GAME.apply(state, action)
        return state.history

    for seed in (1, 2):
        assert play(seed) == play(seed)


def test_warm_up_runs_a_small_decision() -> None:
    fast.warm_up()


def test_the_compiled_search_looks_at_its_deadline_between_batches_of_deals() -> None:
    """Past its deadline the compiled search plays one batch of deals (every move on the same
    ones) and stops: its values are those of the first batch alone, and ``stopped`` is told;
    without a deadline it plays every batch."""
    view, legal = _decision(1)
    deals = fast.infer_deals(view, 3 * fast.BATCH + 7, random.Random(1))
    told: list[str] = []

    def values(hands: np.ndarray, deadline: float | None) -> list[float]:
        stop = lambda: told.append("cut")  # noqa: E731
        return fast.search_values(view, hands, legal, random.Random(4), 0, 1, deadline, stop)

    first = values(deals[: fast.BATCH], None)
    assert told == []
    assert values(deals, 0.0) == first
    assert told == ["cut"]
    told.clear()
    every = values(deals, None)
    assert told == []
    assert every != first
    assert sum(abs(value) for value in every) > 0


def test_hard_with_a_tiny_deadline_answers_quickly_and_says_it_was_cut() -> None:
    """Fan Tan's ``hard`` (2,000 deals) with a deadline already passed plays a legal move,
    reports the cut (``budget_cut``), and takes a fraction of its uncut time."""
    view, legal = _decision(3)
    hard = strategy.LEVELS["hard"]
    uncut = create_agent(hard, GAME, 1)
    started = time.process_time()
    assert uncut.choose(view, legal) in legal
    full = time.process_time() - started
    assert uncut.budget_cut is False
    agent = create_agent(hard, GAME, 1)
    agent.deadline = time.monotonic()
    started = time.process_time()
    assert agent.choose(view, legal) in legal
    assert time.process_time() - started < full / 2
    assert agent.budget_cut is True
