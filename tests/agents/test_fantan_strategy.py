"""The Fan Tan strategy, its fast playout, and the searches that use it."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fanfold.agents import create_agent, parse_agent
from fanfold.agents.levels import LEVELS
from fanfold.agents.pimc import PIMCAgent, PIMCConfig
from fanfold.agents.strategy import fantan as strategy
from fanfold.agents.strategy import fantan_scoring, knowledge_for
from fanfold.core.cards import Card
from fanfold.core.errors import ConfigError
from fanfold.games.fantan import GAME, FanTanConfig, FanTanState, FanTanView, Pass, rules, sampling
from fanfold.games.fantan.actions import PLAYS, FanTanAction
from fanfold.games.fantan.cards import SUIT_MASK
from fanfold.games.fantan.rules import pass_constraints

PRESETS = GAME.presets()
#: Cheap agents that still go through every code path of the real ones.
AGENTS = (
    "heuristic",
    "pimc(deals=3)",
    "mcts(iterations=12, playout=heuristic)",
    "pimc(deals=4, lookahead=2, group=1)",
)


def _mask(*cards: str) -> int:
    return sum(1 << Card.parse(card).index for card in cards)


def test_the_heuristic_releases_its_own_cards_before_others() -> None:
    config = FanTanConfig()
    layout = _mask("7H", "7C")
    hand = _mask("8H", "9H", "6C")
    scores = strategy.card_scores(config, layout, 7, hand, _mask("8H", "6C"))
    assert scores[Card.parse("8H").index] > scores[Card.parse("6C").index]


def test_of_two_blockers_the_heuristic_keeps_the_one_that_blocks_more() -> None:
    config = FanTanConfig()  # ace high: beyond the 6C lie 5C..2C, beyond the KH only the AH
    layout = _mask("7C", "7H", "8H", "9H", "TH", "JH", "QH")
    hand = _mask("6C", "KH")
    rng = random.Random(1)
    best = strategy.best_card(config, layout, 7, hand, hand, rng)
    assert best == Card.parse("KH").index


@pytest.mark.parametrize("preset", PRESETS, ids=lambda preset: preset.name)
def test_agents_play_only_legal_moves_in_every_preset(preset: object) -> None:
    config = preset.config  # type: ignore[attr-defined]  # a Preset of Fan Tan
    for number, text in enumerate(AGENTS):
        players = (3, 4, 6, 4)[number]
        table_config = config.replace(players=players)
        agents = [create_agent(text if seat == 0 else "heuristic", GAME, seat) for seat in
                  range(players)]  # fmt: skip
        state = GAME.new_state(table_config, 11 + number)
        while GAME.current_player(state) is not None:
            seat = state.to_move
            legal = GAME.legal_actions(state)
            action = agents[seat].choose(GAME.observe(state, seat), legal)
            assert action in legal
            state = GAME.apply(state, action)
        assert GAME.outcome(state) is not None


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from([preset.config for preset in PRESETS]),
    st.integers(3, 8),
    st.integers(0, 10_000),
    st.integers(0, 40),
)
def test_the_fast_playout_equals_the_strategy_stepped_through_the_rules(
    config: FanTanConfig, players: int, seed: int, moves: int
) -> None:
    config = config.replace(players=players)
    state = GAME.new_state(config, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        legal = GAME.legal_actions(state)
        if not legal:
            break
        state = GAME.apply(state, legal[rng.randrange(len(legal))])
    knowledge = knowledge_for(GAME)
    fast = strategy.heuristic_rollout(state, random.Random(seed + 1))
    stepped_rng = random.Random(seed + 1)
    actions = []
    while GAME.current_player(state) is not None:
        action = knowledge.playout_action(state, GAME.legal_actions(state), stepped_rng)
        actions.append(-1 if isinstance(action, Pass) else action.index)
        state = GAME.apply(state, action)
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert fast.actions == tuple(actions)
    assert fast.returns == tuple(outcome.returns)


def _check_consistent(view: FanTanView, state: FanTanState) -> None:
    """``state`` keeps everything ``view`` shows, and puts no card where the view rules it out."""
    assert GAME.observe(state, view.player) == view
    assert GAME.invariant_violations(state) == []
    forbidden = pass_constraints(view.config, view.leader, view.history)
    for seat, hand in enumerate(state.hands):
        if seat != view.player:
            assert not hand & forbidden[seat], "a seat that passed was dealt a playable card"
            assert not hand & view.hand
            assert not hand & view.layout
    opening = view.config.opening
    if opening is not None and not view.layout:
        assert state.hands[view.leader] >> opening.index & 1


@pytest.mark.parametrize("preset", ["standard", "sevens-online", "domino"])
def test_the_search_deals_only_states_the_view_allows(
    preset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    dealt: list[tuple[FanTanView, FanTanState]] = []
    real = sampling.sample_state

    def checked(view: FanTanView, rng: random.Random) -> FanTanState:
        state = real(view, rng)
        dealt.append((view, state))
        return state

    monkeypatch.setattr(sampling, "sample_state", checked)
    config = GAME.preset(preset).config.replace(players=5)
    search = PIMCAgent(GAME, PIMCConfig(deals=4, infer=True), 3)
    others = [create_agent("heuristic", GAME, seat) for seat in range(5)]
    for seed in range(6):
        state = GAME.new_state(config, seed)
        while GAME.current_player(state) is not None:
            seat = state.to_move
            legal = GAME.legal_actions(state)
            agent = search if seat == seed % 5 else others[seat]
            state = GAME.apply(state, agent.choose(GAME.observe(state, seat), legal))
    assert len(dealt) >= 20
    assert any(any(view.passes) for view, _ in dealt)
    for view, sampled in dealt:
        _check_consistent(view, sampled)


def test_every_level_is_a_configured_agent_and_plays() -> None:
    config = FanTanConfig()
    for level in LEVELS:
        agents = [create_agent(level if seat == 0 else "heuristic", GAME, seat) for seat in
                  range(4)]  # fmt: skip
        state = GAME.new_state(config, 5)
        while GAME.current_player(state) is not None:
            seat = state.to_move
            legal = GAME.legal_actions(state)
            action = agents[seat].choose(GAME.observe(state, seat), legal)
            assert action in legal
            state = GAME.apply(state, action)


def test_the_others_play_is_read_from_the_strategy() -> None:
    config = FanTanConfig()
    agents = [create_agent("heuristic", GAME, seat) for seat in range(4)]
    state = GAME.new_state(config, 21)
    for _ in range(40):
        seat = state.to_move
        state = GAME.apply(
            state, agents[seat].choose(GAME.observe(state, seat), GAME.legal_actions(state))
        )
    view = GAME.observe(state, 0)
    # The true hands explain every play the strategy made (stray=0: only its best cards) ...
    assert strategy.play_likelihood(view, state.hands, stray=0.0) > 0
    rng = random.Random(4)
    dealt = [GAME.sample_state(view, rng).hands for _ in range(60)]
    chances = [strategy.play_likelihood(view, hands, stray=0.0) for hands in dealt]
    # ... while some deals the view allows do not, and with strays every deal stays possible.
    assert min(chances) == 0.0
    assert all(strategy.play_likelihood(view, hands) > 0 for hands in dealt)


@pytest.mark.parametrize("preset", ["standard", "seven-of-diamonds", "sevens-online", "domino"])
def test_states_read_from_the_others_play_keep_every_constraint_of_the_view(preset: str) -> None:
    config = GAME.preset(preset).config.replace(players=4)
    agents = [create_agent("heuristic", GAME, seat) for seat in range(4)]
    rng = random.Random(9)
    checked = 0
    for seed in range(3):
        state = GAME.new_state(config, seed)
        while GAME.current_player(state) is not None:
            seat = state.to_move
            view = GAME.observe(state, seat)
            if len(view.history) % 9 == 0:
                inferred = strategy.infer_states(view, 12, rng)
                assert len(inferred) == 12
                for dealt in inferred:
                    _check_consistent(view, dealt)
                checked += 1
            state = GAME.apply(state, agents[seat].choose(view, GAME.legal_actions(state)))
    assert checked >= 6


def test_pimc_settings_are_checked() -> None:
    assert str(parse_agent("pimc(deals=100)")) == "pimc"
    assert parse_agent("pimc(infer=true)").config == PIMCConfig(infer=True)
    with pytest.raises(ConfigError, match="deals must be at least 1"):
        parse_agent("pimc(deals=0)")
    assert parse_agent("pimc(lookahead=2, group=3)").config == PIMCConfig(lookahead=2, group=3)
    with pytest.raises(ConfigError, match="lookahead must be 0 or more"):
        parse_agent("pimc(lookahead=-1)")
    with pytest.raises(ConfigError, match="group must be at least 1"):
        parse_agent("pimc(group=0)")


def _reached_states(preset: str, players: int, seeds: range) -> list[FanTanState]:
    """Every state of a few games the heuristic plays in ``preset``."""
    config = GAME.preset(preset).config.replace(players=players)
    agents = [create_agent("heuristic", GAME, seat) for seat in range(players)]
    states = []
    for seed in seeds:
        state = GAME.new_state(config, seed)
        while GAME.current_player(state) is not None:
            states.append(state)
            seat = state.to_move
            legal = GAME.legal_actions(state)
            state = GAME.apply(state, agents[seat].choose(GAME.observe(state, seat), legal))
    return states


@pytest.mark.parametrize("preset", ["standard", "ace-low", "sevens-online", "ten-titans"])
def test_the_memo_of_suit_scores_gives_the_scores_of_card_scores(preset: str) -> None:
    rng = random.Random(2)
    checked = 0
    for state in _reached_states(preset, 4, range(3)):
        if state.start_rank is None:
            continue
        config = state.config
        playable = rules.state_playable(state)
        for hand in state.hands:
            choices = hand & playable
            if not choices:
                continue
            expected = strategy.card_scores(config, state.layout, state.start_rank, hand, choices)
            memo = {}
            for shift in (0, 13, 26, 39):
                row = (state.layout >> shift) & SUIT_MASK
                for bit, score in fantan_scoring._suit_scores(
                    config, state.start_rank, row, (hand >> shift) & SUIT_MASK,
                    strategy.DEFAULT_WEIGHTS,
                ):  # fmt: skip
                    if choices >> (shift + bit) & 1:  # the opening card alone may be playable
                        memo[shift + bit] = score
            assert memo == expected
            # best_card picks among the best-scored cards of any subset of the choices.
            subset = choices & ~(1 << rng.choice(list(expected))) or choices
            best = max(score for index, score in expected.items() if subset >> index & 1)
            picked = strategy.best_card(config, state.layout, state.start_rank, hand, subset, rng)
            assert subset >> picked & 1
            assert expected[picked] == best
            checked += 1
    assert checked > 100


def _likelihood_by_card_scores(view: FanTanView, seat: int, hand: int, stray: float) -> float:
    """:meth:`strategy.PlayRecord.seat_likelihood` written out with :func:`card_scores`."""
    likelihood = 1.0
    layout, start_rank, player = 0, view.config.start_rank, view.leader
    seats = rules.history_seats(view.leader, view.config.players, len(view.history))
    held = hand  # the hand before the first play: now, with every card it played since
    for actor, action in zip(seats, view.history, strict=True):
        if actor == seat and not isinstance(action, Pass):
            held |= 1 << action.index
    for action in view.history:
        if not isinstance(action, Pass):
            if player == seat:
                choices = held & rules.playable_mask(view.config, layout, start_rank)
                if choices & (choices - 1):
                    scores = strategy.card_scores(view.config, layout, start_rank, held, choices)
                    best = max(scores.values())
                    chance = stray / len(scores)
                    if scores[action.index] == best:
                        chance += (1 - stray) / list(scores.values()).count(best)
                    likelihood *= chance
                held &= ~(1 << action.index)
            layout |= 1 << action.index
            if start_rank is None:
                start_rank = action.index % 13 + 1
        player = (player + 1) % view.config.players
    return likelihood


@pytest.mark.parametrize("preset", ["standard", "domino", "sevens-online"])
def test_the_likelihood_of_the_others_play_is_the_strategy_s_chance_of_each_play(
    preset: str,
) -> None:
    states = _reached_states(preset, 4, range(2))
    rng = random.Random(5)
    for state in states[10::7]:
        view = GAME.observe(state, state.to_move)
        record = strategy.PlayRecord(view, 0.05)
        for hands in (state.hands, GAME.sample_state(view, rng).hands):
            for seat in range(4):
                if seat != view.player:
                    expected = _likelihood_by_card_scores(view, seat, hands[seat], 0.05)
                    assert record.seat_likelihood(seat, hands[seat]) == pytest.approx(expected)
        # The hands really held explain every play the strategy made.
        assert all(
            strategy.PlayRecord(view, 0.0).seat_likelihood(seat, state.hands[seat]) > 0
            for seat in range(4)
            if seat != view.player
        )


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 30), st.integers(0, 3))
def test_the_fast_playout_scores_each_seat_with_its_own_weights(
    seed: int, moves: int, odd: int
) -> None:
    config = FanTanConfig()
    state = GAME.new_state(config, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        legal = GAME.legal_actions(state)
        state = GAME.apply(state, legal[rng.randrange(len(legal))])
    weights = [strategy.DEFAULT_WEIGHTS] * 4
    weights[odd] = strategy.Weights(0.0, 1.7, 1.5, -1.2, 0.5)
    fast = strategy.heuristic_rollout(state, random.Random(seed + 1), weights)
    stepped_rng = random.Random(seed + 1)
    actions = []
    while GAME.current_player(state) is not None:
        seat = state.to_move
        choices = state.hands[seat] & rules.playable_mask(config, state.layout, state.start_rank)
        if choices:
            index = strategy.best_card(
                config, state.layout, state.start_rank, state.hands[seat], choices, stepped_rng,
                weights[seat],
            )  # fmt: skip
            action = next(a for a in GAME.legal_actions(state) if getattr(a, "index", -1) == index)
        else:
            action = Pass()
        actions.append(-1 if isinstance(action, Pass) else index)
        state = GAME.apply(state, action)
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert fast.actions == tuple(actions)
    assert fast.returns == tuple(outcome.returns)
    default = strategy.heuristic_rollout(GAME.new_state(config, seed), random.Random(seed + 1))
    assert default == strategy.heuristic_rollout(
        GAME.new_state(config, seed), random.Random(seed + 1), [strategy.DEFAULT_WEIGHTS] * 4
    )


def _decision(seed: int) -> tuple[FanTanView, list[FanTanState], list[FanTanAction]]:
    """Player 1's first choice among two or more cards in a heuristic game, and 30 deals of its
    view read from the others' play."""
    knowledge = knowledge_for(GAME)
    rng = random.Random(seed)
    for deal in range(seed, seed + 100):
        state = GAME.new_state(FanTanConfig(), deal)
        while GAME.current_player(state) is not None:
            legal = GAME.legal_actions(state)
            if state.to_move == 0 and len(legal) > 1 and len(state.history) > 8:
                view = GAME.observe(state, 0)
                states = strategy.infer_states(view, 30, random.Random(seed))
                return view, states, list(legal)
            state = GAME.apply(state, knowledge.playout_action(state, legal, rng))
    raise AssertionError("no decision found")  # pragma: no cover


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_own_move_search_is_seeded_and_bounded(seed: int) -> None:
    _, states, legal = _decision(seed)
    values = strategy.search_values(states, legal, 0, random.Random(5), 2, 3)
    assert len(values) == len(legal)
    assert all(-len(states) <= value <= len(states) for value in values)
    assert values == strategy.search_values(states, legal, 0, random.Random(5), 2, 3)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_without_a_large_enough_group_or_time_the_search_plays_the_heuristic(seed: int) -> None:
    _, states, legal = _decision(seed)
    plain = strategy.search_values(states, legal, 0, random.Random(5), 0, 1)
    too_few = strategy.search_values(states, legal, 0, random.Random(5), 3, len(states) + 1)
    late = strategy.search_values(states, legal, 0, random.Random(5), 3, 1, deadline=0.0)
    assert too_few == plain
    assert late == plain


def test_the_search_chooses_one_card_per_view_not_per_deal() -> None:
    seats = (strategy.DEFAULT_WEIGHTS,) * 4
    searched = fused = 0
    for view, states, legal in map(_decision, (4, 5, 6)):
        assert view.player == 0
        for action in legal:
            members = [(state, number) for number, state in enumerate(states)]
            _, groups = strategy._spread(members, action, 0, seats)
            for group in groups:
                paused = group[0][0]
                for state, _ in group:  # one view: the same hand and layout for the whole group
                    assert GAME.invariant_violations(state) == []
                    assert state.to_move == 0
                    assert GAME.observe(state, 0) == GAME.observe(paused, 0)
                choices = paused.hands[0] & rules.playable_mask(
                    paused.config, paused.layout, paused.start_rank
                )
                cards = [index for index in range(52) if choices >> index & 1]
                totals = []
                for index in cards:
                    total, later = strategy._spread(group, PLAYS[index], 0, seats)
                    total += sum(strategy._group_value(g, 0, seats, 0, 1, None) for g in later)
                    totals.append(total)
                value = strategy._group_value(group, 0, seats, 1, 1, None)
                assert value == max(totals)  # the best card for the whole group, not one per deal
                # Choosing for each deal alone (knowing its hidden cards) would claim more.
                alone = sum(
                    strategy._group_value([member], 0, seats, 1, 1, None) for member in group
                )
                assert alone >= value
                searched += 1
                fused += alone > value
    assert searched
    assert fused  # some group would have chosen differently deal by deal


def test_a_strategy_without_the_search_leaves_pimc_to_its_playouts() -> None:
    from fanfold.agents.knowledge import Knowledge

    view, states, legal = _decision(1)
    knowledge: Knowledge[FanTanState, FanTanAction, FanTanView] = Knowledge(GAME)
    assert knowledge.search_values(states, legal, 0, random.Random(1), 2, 5, None) is None
    agent = PIMCAgent(GAME, PIMCConfig(deals=8, lookahead=2, group=2), seed=3)
    values = agent.action_values(view, legal)
    assert len(values) == len(legal)
    assert all(-8 <= value <= 8 for value in values)
