"""The Fan solver: solutions replay under the rules, and every pruning rule agrees with plain
exhaustive search on deals and on small constructed positions."""

from __future__ import annotations

import random

import pytest

from fanfold.core.cards import SUITS, Card
from fanfold.games.fan import FanConfig, FanGame, FanMove, FanState, make_state
from fanfold.solvers.fan import (
    SOLVED,
    UNKNOWN,
    UNSOLVABLE,
    SolverError,
    check_solution,
    hint,
    solve,
    solve_deal,
)
from fanfold.solvers.fan_search import (
    ALL_RULES,
    BEST_FIRST_STATES,
    BUILD,
    DEAD,
    FOUNDATION,
    HOME,
    Move,
    SearchResult,
    search,
)

GAME = FanGame()
VARIANTS = [
    FanConfig(),
    FanConfig(any_card_to_empty=True),
    FanConfig(sequence_moves=True),
    FanConfig(any_card_to_empty=True, sequence_moves=True),
]
#: Deals whose plain exhaustive search (no pruning at all) is small enough for a test.
SMALL_DEALS = (3, 4, 5, 13, 18, 24, 25, 26)
#: Verdicts fc-solve also reaches on these deals (classic Fan).
KNOWN = {1: UNSOLVABLE, 3: SOLVED, 4: SOLVED, 5: UNSOLVABLE, 9: UNSOLVABLE, 1234: UNSOLVABLE}


def cards(text: str) -> tuple[Card, ...]:
    words = text.split()
    return tuple(Card.parse(word) for word in words)


def indices(state: FanState) -> list[list[int]]:
    return [[card.index for card in fan] for fan in state.fans]


def replay(state: FanState, moves: tuple[FanMove, ...]) -> FanState:
    for move in moves:
        state = GAME.apply(state, move)  # raises on any illegal move
    return state


def replay_search(state: FanState, moves: tuple[Move, ...]) -> FanState:
    """Replay the search's own 0-based moves through the rules engine."""
    return replay(
        state,
        tuple(
            FanMove(source + 1, None if target == FOUNDATION else target + 1, count)
            for source, target, count in moves
        ),
    )


@pytest.mark.parametrize("deal", sorted(KNOWN))
def test_known_verdicts_and_solutions_replay(deal: int) -> None:
    result = solve_deal(deal)
    assert result.verdict == KNOWN[deal]
    if result.verdict == SOLVED:
        assert replay(GAME.new_state(FanConfig(), deal), result.moves).is_won
    else:
        assert result.moves == ()


@pytest.mark.parametrize("config", VARIANTS, ids=lambda config: str(config.to_json()))
def test_every_variant_solution_replays_under_its_rules(config: FanConfig) -> None:
    verdicts = set()
    for deal in range(1, 13):
        state = GAME.new_state(config, deal)
        result = solve(state)
        verdicts.add(result.verdict)
        assert result.verdict in (SOLVED, UNSOLVABLE)
        if result.verdict == SOLVED:
            final = replay(state, result.moves)
            assert final.is_won
            assert GAME.outcome(final) is not None
    assert SOLVED in verdicts


def test_relaxed_rules_win_at_least_as_often() -> None:
    for deal in range(1, 9):
        classic = solve_deal(deal).verdict
        for config in VARIANTS[1:]:
            if classic == SOLVED:
                assert solve_deal(deal, config).verdict == SOLVED


@pytest.mark.parametrize("deal", SMALL_DEALS)
def test_each_pruning_rule_agrees_with_plain_search_on_deals(deal: int) -> None:
    fans = indices(GAME.new_state(FanConfig(), deal))
    plain = search(fans, (0, 0, 0, 0), prune=False)
    assert plain.verdict in (SOLVED, UNSOLVABLE)
    for rules in ({HOME}, {BUILD}, {DEAD}, ALL_RULES):
        pruned = search(fans, (0, 0, 0, 0), prune=rules)
        assert pruned.verdict == plain.verdict, rules
        assert pruned.states <= plain.states
    # The solver's way, with the best-first pass early: the same verdict, and its depth-first
    # (exhaustive) phase is never larger than plain search, as the pass only adds positions of
    # its own and the depth-first phase stops as soon as the deal is decided.
    for after in (0, 20):
        guided = search(fans, (0, 0, 0, 0), best_first=BEST_FIRST_STATES, best_first_after=after)
        assert guided.verdict == plain.verdict
        assert guided.states - guided.best_first_states <= plain.states
        assert guided.best_first_states <= BEST_FIRST_STATES + 1


def small_position(rng: random.Random, config: FanConfig, left: int) -> FanState:
    """A random position with about ``left`` cards still out, spread over a few fans."""
    foundations = [13, 13, 13, 13]
    out: list[Card] = []
    while len(out) < left:
        suit = rng.randrange(4)
        if foundations[suit] > 0:
            out.append(Card(foundations[suit], SUITS[suit]))
            foundations[suit] -= 1
    rng.shuffle(out)
    fans: list[list[Card]] = [[] for _ in range(18)]
    used = rng.randrange(2, 6)
    for card in out:
        fans[rng.randrange(used)].append(card)
    rng.shuffle(fans)
    home = (foundations[0], foundations[1], foundations[2], foundations[3])
    return make_state(config, fans, home)


@pytest.mark.parametrize("config", VARIANTS, ids=lambda config: str(config.to_json()))
def test_each_pruning_rule_agrees_with_plain_search_on_small_positions(
    config: FanConfig,
) -> None:
    rng = random.Random(2024)
    verdicts = {SOLVED: 0, UNSOLVABLE: 0}
    outcomes: set[tuple[str, str]] = set()
    for _ in range(150):
        state = small_position(rng, config, rng.randrange(6, 13))
        options = {
            "any_card_to_empty": config.any_card_to_empty,
            "sequence_moves": config.sequence_moves,
        }
        plain = search(indices(state), state.foundations, prune=False, **options)
        verdicts[plain.verdict] += 1
        for rules in ({HOME}, {BUILD}, {DEAD}, ALL_RULES):
            pruned = search(indices(state), state.foundations, prune=rules, **options)
            assert pruned.verdict == plain.verdict, (GAME.format_position(state), rules)
        # The best-first pass deciding alone (a budget it never reaches), and giving up after
        # a few positions so that the depth-first search goes on where it paused.
        for budget, after in ((10_000, 0), (3, 1), (2, 4)):
            guided = search(
                indices(state),
                state.foundations,
                best_first=budget,
                best_first_after=after,
                **options,
            )
            assert guided.verdict == plain.verdict, (GAME.format_position(state), budget, after)
            outcomes.add(how_decided(guided))
            if guided.verdict == SOLVED:
                assert replay_search(state, guided.moves).is_won
        result = solve(state)
        assert result.verdict == plain.verdict
        if result.verdict == SOLVED:
            assert replay(state, result.moves).is_won
    assert verdicts[SOLVED] > 0
    # The best-first pass found wins, and handed over to the depth-first search, which won.
    assert {("best-first", SOLVED), ("depth-first", SOLVED)} <= outcomes
    if not config.any_card_to_empty:  # with empty fans open to any card, few positions are lost
        assert verdicts[UNSOLVABLE] > 0
        # Lost positions were proved so by each pass (the best-first one exhausting them).
        assert {("best-first", UNSOLVABLE), ("depth-first", UNSOLVABLE)} <= outcomes


def how_decided(result: SearchResult) -> tuple[str, str]:
    """Which pass decided a search, and how."""
    return ("best-first" if result.by_best_first else "depth-first", result.verdict)


def test_pinned_card_above_a_lower_card_of_its_suit_is_lost() -> None:
    # 8S sits above 9S and 2S in one fan: 8S can go nowhere but home (its successor 9S is
    # beneath it), and home needs 2S, which also lies beneath it.
    state = make_state(
        FanConfig(),
        [cards("2S 9S 8S"), cards("AS"), *[()] * 6, cards("3S 4S 5S 6S 7S TS JS QS KS")] + [()] * 9,
        (13, 13, 13, 0),
    )
    plain = search(indices(state), state.foundations, prune=False)
    assert plain.verdict == UNSOLVABLE
    pruned = search(indices(state), state.foundations, prune={DEAD, HOME})
    assert pruned.verdict == UNSOLVABLE
    assert pruned.states < plain.states
    # With any card allowed into an empty fan, 8S can escape and the game is won.
    relaxed = make_state(FanConfig(any_card_to_empty=True), state.fans, state.foundations)
    assert solve(relaxed).verdict == SOLVED


def test_limits_hint_and_checks() -> None:
    state = GAME.new_state(FanConfig(), 2)
    assert solve(state, max_states=1).verdict == UNKNOWN
    assert solve(state, max_states=1).is_winnable is None
    move = hint(state)
    assert move is not None
    assert solve(GAME.apply(state, move)).verdict == SOLVED
    assert hint(GAME.new_state(FanConfig(), 1)) is None
    with pytest.raises(SolverError, match="illegal"):
        check_solution(state, (FanMove(1, 2),))
    with pytest.raises(SolverError, match="before every card"):
        check_solution(state, ())
