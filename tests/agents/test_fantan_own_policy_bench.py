"""The learned policy for ``hard``'s own playout moves in Fan Tan
(``benchmarks/fantan_own_policy.py``)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from benchmarks import fantan_own_policy as bench

from fanfold.agents.strategy import fantan_fast as fast
from fanfold.agents.strategy import fantan_kernels as kernels
from fanfold.games.fantan import FanTanConfig, rules

SCORING = fast.tables(FanTanConfig()).scoring()


def _positions(count: int, seed: int) -> list[tuple[list[int], int, int]]:
    """Positions of seeded games of the strategy: (hands, seat to act, layout), each with a
    choice of two or more cards."""
    found: list[tuple[list[int], int, int]] = []
    config = FanTanConfig()
    rng = random.Random(seed)
    game = 0
    while len(found) < count:
        state = rules.new_state(config, seed * 1000 + game)
        game += 1
        while not state.finished:
            legal = rules.legal_actions(state)
            if len(legal) > 1 and state.layout and rng.random() < 0.3:
                found.append((list(state.hands), state.to_move, state.layout))
            state = rules.apply(state, legal[rng.randrange(len(legal))])
    return found[:count]


def test_with_the_strategys_weights_every_card_is_scored_as_the_strategy_scores_it() -> None:
    table, pop, beyond, position, start, span, _ = SCORING
    out = np.empty(bench.FEATURES)
    checked = 0
    for hands, seat, layout in _positions(40, 1):
        hand = hands[seat]
        choices = hand & int(kernels.playable(layout, -1, table))
        for index in range(52):
            if choices >> index & 1:
                shift, bit = index - index % 13, index % 13
                row, hand13 = (layout >> shift) & 0x1FFF, (hand >> shift) & 0x1FFF
                bench.features(
                    row, hand13, bit, hand.bit_count(), 0.0, table, pop, beyond, position,
                    start, span, out,
                )  # fmt: skip
                expected = kernels.card_score(
                    row, hand13, bit, table, pop, beyond, position, start, span, SCORING[6]
                )
                assert float(out @ bench.STRATEGY) == pytest.approx(expected)
                checked += 1
    assert checked > 80


def test_the_policys_card_does_not_depend_on_how_the_others_cards_are_dealt() -> None:
    """Swapping cards between two other seats (their sizes kept) never changes the card."""
    weights = bench.STRATEGY + np.linspace(-1.0, 1.0, bench.FEATURES)
    table = SCORING[0]
    rng = random.Random(3)
    for hands, seat, layout in _positions(40, 2):
        choices = hands[seat] & int(kernels.playable(layout, -1, table))
        before = bench.policy_card(np.array(hands, np.int64), seat, choices, layout, *SCORING[:6],
                                   weights)  # fmt: skip
        first, second = [other for other in range(4) if other != seat][:2]
        if hands[first] and hands[second]:
            give = rng.choice([i for i in range(52) if hands[first] >> i & 1])
            take = rng.choice([i for i in range(52) if hands[second] >> i & 1])
            hands[first] ^= 1 << give | 1 << take
            hands[second] ^= 1 << give | 1 << take
        after = bench.policy_card(np.array(hands, np.int64), seat, choices, layout, *SCORING[:6],
                                  weights)  # fmt: skip
        assert after == before
        assert choices >> after & 1


def test_the_kernel_with_the_policy_plays_as_the_strategys_where_the_seat_stops() -> None:
    """With ``stop`` the seat's own choices pause the deal, so every move is the strategy's:
    the same hands, layouts, winners and keys as the compiled search's own kernel."""
    positions = _positions(30, 4)
    results = []
    for route in ("strategy", "policy"):
        hands = np.array([hands for hands, _, _ in positions], np.int64)
        layouts = np.array([layout for _, _, layout in positions], np.int64)
        seats = np.array([seat for _, seat, _ in positions], np.int64)
        randoms = np.arange(1, len(positions) + 1, dtype=np.uint64)
        winners = np.empty(len(positions), np.int64)
        keys = np.empty(len(positions), np.uint64)
        arguments = (hands, layouts, seats, randoms, winners, keys, -1, 0, True, -1, *SCORING)
        if route == "strategy":
            kernels.advance(*arguments)
        else:
            bench.advance_own(*arguments, bench.STRATEGY + 1.0)
        results.append((hands, layouts, winners, keys))
    for mine, theirs in zip(results[0], results[1], strict=True):
        assert np.array_equal(mine, theirs)


def test_the_games_and_the_training_are_seeded() -> None:
    assert bench.win_rate(None, 300, 5) == bench.win_rate(None, 300, 5)
    first, rates = bench.train(2, 200, 2, say=lambda _: None)
    again, _ = bench.train(2, 200, 2, say=lambda _: None)
    assert np.array_equal(first, again)
    assert len(rates) == 2
    assert all(0.0 <= rate <= 1.0 for rate in rates)
    assert not np.array_equal(first, bench.STRATEGY)


def test_the_strategy_alone_wins_about_a_fair_share() -> None:
    assert 0.2 < bench.win_rate(None, 4000, 7) < 0.3


def test_bad_arguments_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        bench.main(["measure", "--games", "0"])
    assert "--games and --rounds must be at least 1" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        bench.main(["measure"])
    assert "measure needs --weights" in capsys.readouterr().err


def test_hard_with_the_policy_in_its_playouts_plays_its_own_later_moves_by_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The screen's ``hard``: its compiled playouts call the policy's kernel with the weights
    given, and its choice is legal."""
    from fanfold.agents import create_agent
    from fanfold.games.fantan import GAME

    monkeypatch.setattr(kernels, "advance", kernels.advance)  # restored after the test
    called: list[object] = []
    original = bench.advance_own

    def advance_own(*arguments: object) -> None:
        called.append(arguments[-1])
        original(*arguments)

    monkeypatch.setattr(bench, "advance_own", advance_own)
    weights = bench.STRATEGY + 0.5
    bench.use_in_hard(weights)
    agent = create_agent("pimc(deals=200, infer=true, lookahead=2, group=50, fast=true)", GAME, 1)
    state = rules.new_state(FanTanConfig(), 11)
    rng = random.Random(11)
    while len(rules.legal_actions(state)) < 2 or not state.layout:
        legal = rules.legal_actions(state)
        state = rules.apply(state, legal[rng.randrange(len(legal))])
    legal = rules.legal_actions(state)
    assert agent.choose(GAME.observe(state, state.to_move), legal) in legal
    assert called
    assert all(found is weights for found in called)
