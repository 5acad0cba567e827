"""The compiled evaluation and search (``fast/search.py``) against the strategy and the rules.

The evaluation must equal the strategy's (and the outcome's returns once the game is over)
on every position of random and heuristic games of several presets; the search must return
only legal actions, be reproducible from its seed, find a win two actions deep, and keep
searching within its node budget once the tree is full.
"""

from __future__ import annotations

import random

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fanfold.agents.strategy import fano_fast
from fanfold.agents.strategy import fano_policy as policy
from fanfold.agents.strategy import fano_search as search
from fanfold.agents.strategy.fano_knowledge import FanoKnowledge, policy_weights
from fanfold.games.fano import PRESETS, Combine, FanoConfig, FanoState, Promote
from fanfold.games.fano.fast import codec, engine, layout
from tests.games.fano.helpers import FANO

WEIGHTS = policy_weights()
KNOWLEDGE = FanoKnowledge(FANO)
#: (preset, players): classic, 4 players, two suits, specials, Trionfey, partnerships.
EVALUATED = [
    ("classic", 2),
    ("classic", 4),
    ("two-suit", 2),
    ("specials", 2),
    ("trionfey", 2),
    ("trionfey", 3),
    ("trionfey-specials", 2),
    ("trionfey-all-for-one", 4),
    ("trionfey-one-for-all", 4),
]


CARDS = [value * 16 + suit for value in range(1, 11) for suit in range(4)]
#: A memo of four entries shared by every example: collisions and hits both happen.
SMALL_MEMO = policy.memo(2)


@settings(max_examples=300, deadline=None)
@given(
    field=st.lists(st.sampled_from(CARDS), max_size=4),
    hand=st.lists(st.sampled_from([*CARDS, 4, 5]), max_size=3),
)
def test_the_remembered_potential_is_the_potential(field: list[int], hand: list[int]) -> None:
    """In play in any order (the order matters to the pairing), in hand sorted or not."""
    codes = np.array([*field, 0], np.int64), np.array([*hand, 0], np.int64)
    for _ in range(2):  # computed, then (unless evicted) remembered
        expected = policy.cards_potential(
            WEIGHTS, codes[0], len(field), codes[1], len(hand), policy.scratch()
        )
        found = policy.memo_potential(
            WEIGHTS, codes[0], len(field), codes[1], len(hand), policy.scratch(), *SMALL_MEMO
        )
        assert found == expected


def _config(preset: str, players: int, turns_per_player: int) -> FanoConfig:
    config = FANO.with_players(FANO.preset(preset).config, players)
    return config.replace(turns_per_player=turns_per_player)


def _game(config: FanoConfig, seed: int, heuristic: bool) -> list[FanoState]:
    """Every state of one game: uniformly random moves, or the strategy's."""
    rng = random.Random(seed)
    state = FANO.new_state(config, seed)
    states = [state]
    while legal := FANO.legal_actions(state):
        if heuristic:
            action = KNOWLEDGE.best(state, legal, rng)
        else:
            action = legal[rng.randrange(len(legal))]
        state = FANO.apply_legal(state, action)
        states.append(state)
    return states


@pytest.mark.parametrize(("preset", "players"), EVALUATED)
def test_the_evaluation_is_the_strategys(preset: str, players: int) -> None:
    config = _config(preset, players, 20)
    compared = 0
    for seed, heuristic in ((1, False), (2, True)):
        states = _game(config, seed, heuristic)
        for state in states:
            quick = engine.encode(state)
            expected = KNOWLEDGE.evaluate(state)
            assert expected is not None
            found = search.evaluation(quick.array, quick.options, WEIGHTS)
            assert found == pytest.approx(expected, abs=1e-9), str(state)
            compared += 1
        # The last state is over: its returns are the outcome's (a win or the turn limit).
        outcome = FANO.outcome(states[-1])
        assert outcome is not None
        last = engine.encode(states[-1])
        assert search.evaluation(last.array, last.options, WEIGHTS) == tuple(outcome.returns)
    assert compared > 60


def test_wins_and_draws_are_scored_as_the_outcome() -> None:
    """Partnership wins ("One for all": the whole side; "All for one": the winner only),
    plain wins and turn-limit draws, from heuristic games played to the end."""
    kinds = set()
    for preset, players in EVALUATED:
        for seed in range(3):
            final = _game(_config(preset, players, 40), seed, heuristic=True)[-1]
            outcome = FANO.outcome(final)
            assert outcome is not None
            quick = engine.encode(final)
            assert search.evaluation(quick.array, quick.options, WEIGHTS) == outcome.returns
            kinds.add((final.config.teams.name, outcome.by_limit))
    assert ("ONE_FOR_ALL", False) in kinds
    assert ("ALL_FOR_ONE", False) in kinds
    assert ("NONE", False) in kinds


def _deals(
    state: FanoState, count: int, seed: int
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    player = FANO.current_player(state)
    assert player is not None
    view = FANO.observe(state, player)
    rng = random.Random(seed)
    dealt = [engine.encode(FANO.sample_state(view, rng)) for _ in range(count)]
    return np.stack([quick.array for quick in dealt]), dealt[0].options


def _search(state: FanoState, seed: int = 1, **options: float) -> search.Search:
    deals, cfg = _deals(state, int(options.pop("deals", 8)), seed)
    player = FANO.current_player(state)
    assert player is not None
    settings: dict[str, float] = {
        "exploration": 0.7,
        "widening": 1.0,
        "rollout_limit": 10,
        "max_nodes": 10_000,
    }
    settings.update(options)
    return search.Search(
        deals,
        cfg,
        WEIGHTS,
        player,
        exploration=settings["exploration"],
        widening=settings["widening"],
        rollout_limit=int(settings["rollout_limit"]),
        max_nodes=int(settings["max_nodes"]),
        seed=seed,
    )


@pytest.mark.parametrize(
    ("preset", "players"),
    [("classic", 2), ("specials", 2), ("trionfey-specials", 2), ("classic", 4), ("trionfey", 3)],
)
def test_the_search_returns_only_legal_actions(preset: str, players: int) -> None:
    config = _config(preset, players, 20)
    searched = 0
    for seed in range(2):
        rng = random.Random(seed)
        state = FANO.new_state(config, seed)
        while legal := FANO.legal_actions(state):
            if len(legal) > 1 and rng.random() < 0.3:
                for widening in (1.0, 0.0):
                    tree = _search(state, seed, widening=widening)
                    tree.run(60)
                    children = tree.root_children()
                    ids = {codec.action_id(action) for action in legal}
                    assert children
                    assert {action for action, _, _ in children} <= ids
                    # Every iteration passes through one root child.
                    assert sum(visits for _, visits, _ in children) == 60
                    assert all(-visits <= total <= visits for _, visits, total in children)
                    searched += 1
            state = FANO.apply_legal(state, legal[rng.randrange(len(legal))])
    assert searched >= 10


def _midgame(preset: str = "classic", seed: int = 3, moves: int = 30) -> FanoState:
    state = FANO.new_state(FANO.preset(preset).config, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        legal = FANO.legal_actions(state)
        state = FANO.apply_legal(state, legal[rng.randrange(len(legal))])
    return state


def test_the_search_is_reproducible_from_its_seed_in_any_chunks() -> None:
    state = _midgame()
    whole = _search(state, seed=5)
    whole.run(200)
    chunked = _search(state, seed=5)
    for size in (1, 50, 149):
        chunked.run(size)
    assert chunked.iterations == 200
    assert np.array_equal(whole.tree[: whole.nodes], chunked.tree[: chunked.nodes])
    assert np.array_equal(whole.reward, chunked.reward)
    other = _search(state, seed=6)
    other.run(200)
    assert other.root_children() != whole.root_children()


def test_a_single_open_deal_finds_the_winning_combination() -> None:
    """No hidden information (the true state as the only deal), no widening, no rollout: the
    search must see that a combination making the third prestige card wins on the next
    action (the promotion), two plies deep."""
    config = FanoConfig(promotions_to_win=1)
    state = FANO.parse_position(
        "fano player=1 | hand=TH,2H draw=5H,6H,4H field=8H,9H,3H,7H"
        " | hand=AC,2C,5C draw=3C,4C field=6C",
        config,
    )
    quick = engine.encode(state)
    tree = search.Search(
        quick.array[None, :],
        quick.options,
        WEIGHTS,
        0,
        exploration=0.7,
        widening=0.0,
        rollout_limit=0,
        max_nodes=1000,
        seed=1,
    )
    tree.run(300)
    children = tree.children(0)
    action, visits, total, node = max(children, key=lambda child: child[1])
    chosen = codec.to_action(action)
    assert isinstance(chosen, Combine)
    assert chosen.result >> 4 == 10
    # Its best reply is the promotion, a sure win, scored as such.
    follow, count, reward, _ = max(tree.children(node), key=lambda child: child[1])
    assert isinstance(codec.to_action(follow), Promote)
    assert reward == count > 1
    # No move that does not make the ten scores as well on average.
    others = [
        total / visits
        for action, visits, total, _ in children
        if not isinstance(other := codec.to_action(action), Combine) or other.result >> 4 != 10
    ]
    assert others
    assert total / visits > max(others)


def test_a_full_tree_stops_expanding_and_keeps_searching() -> None:
    state = _midgame()
    tree = _search(state, max_nodes=6)
    tree.run(100)
    assert tree.nodes == 6
    assert tree.refused > 0
    assert tree.tree[0, search.T_VISITS] == 100  # every iteration was backed up
    children = tree.root_children()
    assert 1 <= len(children) <= 5
    # A tree of the root alone still searches: nothing expanded, every iteration refused.
    alone = _search(state, max_nodes=1)
    alone.run(20)
    assert alone.nodes == 1
    assert alone.refused == 20
    assert alone.root_children() == []
    with pytest.raises(ValueError, match="max_nodes"):
        _search(state, max_nodes=0)


def test_legal_action_lists_stay_far_below_the_buffers() -> None:
    """The kernels write legal actions into :data:`layout.MAX_ACTIONS` slots without bounds
    checks (the search raises if a count ever exceeds it): the largest lists met in random
    and heuristic games of every preset use a small part of that."""
    largest = 0
    for preset in PRESETS:
        for players in preset.player_counts:
            config = _config(preset.name, players, 12)
            for heuristic in (False, True):
                for state in _game(config, players, heuristic):
                    largest = max(largest, len(engine.legal_action_ids(engine.encode(state))))
    assert 20 < largest <= layout.MAX_ACTIONS // 8


def test_the_warm_up_compiles_the_search_too() -> None:
    fano_fast.warm_up()
    state = _midgame()
    quick = engine.encode(state)
    assert len(search.evaluation(quick.array, quick.options, WEIGHTS)) == 2
