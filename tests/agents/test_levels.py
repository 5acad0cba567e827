"""Difficulty levels and the heuristic agent: names like any other agent, one per game."""

from __future__ import annotations

import random

import pytest

from fanfold.agents import agent_names, create_agent, parse_agent, strategy
from fanfold.agents.knowledge import Knowledge
from fanfold.agents.ladder.agent import LadderAgent
from fanfold.agents.ladder.styles import Style
from fanfold.agents.levels import LEVELS, fallback_agent, level_agent
from fanfold.agents.mcts import MCTSAgent
from fanfold.agents.strategy import knowledge_for
from fanfold.core.errors import ConfigError, UnknownAgentError
from fanfold.core.registry import AnyGame, all_games, get_game
from tests.agents.test_ladder_lookahead import _midgames, replies_checked


@pytest.mark.parametrize("game", all_games(), ids=lambda game: game.name)
def test_every_game_has_the_three_levels_as_agents(game: AnyGame) -> None:
    assert set(LEVELS) <= set(agent_names(game))
    for level in LEVELS:
        inner = parse_agent(level_agent(game, level))  # a valid agent text for this game
        agent = create_agent(level, game, seed=3)
        assert agent.name == level
        assert type(agent) is type(inner.create(game, 3))


def test_the_hard_level_is_the_default_bot_where_nothing_is_stronger() -> None:
    from fanfold.agents import strongest_agent

    assert strongest_agent(get_game("fano")) == "hard"
    assert strongest_agent(get_game("morris")) == "perfect"


def test_levels_are_checked() -> None:
    with pytest.raises(UnknownAgentError, match="no level called 'expert'"):
        level_agent(get_game("fano"), "expert")
    for name, levels in strategy.LEVELS.items():
        assert tuple(levels) == LEVELS, name
    with pytest.raises(ConfigError, match="unknown option 'iterations'; known: seconds"):
        parse_agent("hard(iterations=5)")


def test_heuristic_playouts_are_a_search_option() -> None:
    agent = create_agent("mcts(playout=heuristic)", get_game("fantan"), 1)
    assert isinstance(agent, MCTSAgent)
    assert isinstance(agent.knowledge, Knowledge)
    with pytest.raises(ConfigError, match="playout must be one of random, heuristic"):
        parse_agent("mcts(playout=greedy)")


def test_knowledge_without_a_strategy_plays_legal_moves() -> None:
    game = get_game("morris")
    knowledge = knowledge_for(game)
    state = game.new_state(game.default_config(), seed=1)
    legal = game.legal_actions(state)
    rng = random.Random(2)
    assert knowledge.choose(game.observe(state, 0), legal, rng) in legal
    assert knowledge.playout_action(state, legal, rng) in legal


def test_a_level_takes_a_time_cap_for_its_searching_agent() -> None:
    game = get_game("fantan")
    capped = create_agent("hard(seconds=0.5)", game, 1)
    inner = parse_agent(level_agent(game, "hard"))
    if "seconds" in inner.config.option_texts():
        assert type(capped) is type(inner.create(game, 1))
        assert getattr(capped, "config").seconds == 0.5  # noqa: B009  # a searching agent's config
    assert create_agent("hard(seconds=0.5)", get_game("morris"), 1).name == "hard(seconds=0.5)"
    with pytest.raises(ConfigError, match="seconds must be more than 0"):
        parse_agent("easy(seconds=0)")


def test_fano_s_medium_is_the_member_looking_ahead_a_little_and_answers_under_a_cap() -> None:
    fano = get_game("fano")
    assert level_agent(fano, "medium") == "ladder(deals=4, budget=32)"
    capped = create_agent("medium(seconds=1)", fano, seed=2)
    assert isinstance(capped, LadderAgent)
    assert capped.name == "medium(seconds=1.0)"
    assert (capped.config.deals, capped.config.budget) == (4, 32)
    assert capped.config.style is Style.BALANCED
    assert capped.config.seconds == 1.0  # the server's cap reaches the member
    config = fano.preset("trionfey").config
    state = fano.new_state(config, 4)
    seat = fano.current_player(state)
    assert seat is not None
    legal = fano.legal_actions(state)
    assert capped.choose(fano.observe(state, seat), legal) in legal


def _medium_game(edition: str, seed: int, actions: int = 60) -> list[tuple[object, ...]]:
    """Each decision of ``medium`` against itself (seats seeded ``seed`` and ``seed + 1``):
    the move, and where it looked ahead the deals, the moves kept and the totals."""
    fano = get_game("fano")
    players = [create_agent("medium", fano, seed=seed + seat) for seat in range(2)]
    state = fano.new_state(fano.preset(edition).config, 5)
    seen: list[tuple[object, ...]] = []
    for _ in range(actions):
        seat = fano.current_player(state)
        if seat is None:
            break
        agent = players[seat]
        assert isinstance(agent, LadderAgent)
        agent.last_totals = None
        move = agent.choose(fano.observe(state, seat), fano.legal_actions(state))
        totals = agent.last_totals
        looked = () if totals is None else (totals[0], agent.last_kept, list(totals[1]))
        seen.append((move, *looked))
        state = fano.apply_legal(state, move)
    return seen


@pytest.mark.parametrize("edition", ["classic", "trionfey"])
def test_fano_s_medium_is_reproducible_and_looks_ahead_within_its_budget(edition: str) -> None:
    first = _medium_game(edition, 11)
    assert first == _medium_game(edition, 11)
    looked = [decision for decision in first if len(decision) > 1]
    assert looked  # it looked ahead on some decisions
    for _, deals, kept, _ in looked:
        assert isinstance(deals, int)
        assert isinstance(kept, tuple)
        assert len(kept) * deals <= 32 or deals == 1  # at most 32 continuations, or one deal
    # Another seed deals other continuations: some totals differ.
    other = _medium_game(edition, 12)
    assert [d[1:] for d in other if len(d) > 1] != [d[1:] for d in looked]


@pytest.mark.parametrize("edition", ["classic", "trionfey"])
def test_fano_s_medium_reads_only_its_view(edition: str) -> None:
    """Two true states with the same view and the same seed: the same move, deals, moves kept
    and totals; the continuations' replies ignore the searcher's hidden cards (the look-ahead's
    swap test, :func:`tests.agents.test_ladder_lookahead.replies_checked`)."""
    fano, rng = get_game("fano"), random.Random(4)
    looked = 0
    for state in _midgames(edition, 5, 8):
        seat = fano.current_player(state)
        assert seat is not None
        view = fano.observe(state, seat)
        other = fano.sample_state(view, rng)
        assert fano.observe(other, seat) == view
        assert [(p.hand, p.draw) for p in other.players] != [
            (p.hand, p.draw) for p in state.players
        ]
        seen = []
        for true_state in (state, other):
            agent = create_agent("medium", fano, seed=9)
            assert isinstance(agent, LadderAgent)
            move = agent.choose(fano.observe(true_state, seat), fano.legal_actions(true_state))
            totals = agent.last_totals
            assert totals is not None
            seen.append((move, totals[0], agent.last_kept, list(totals[1])))
        assert seen[0] == seen[1]
        looked += 1
    assert looked > 2
    assert replies_checked(edition, Style.BALANCED) > 10


def test_the_fallback_while_compiling_needs_no_compiled_code_and_plays_medium_s_member() -> None:
    fano, fantan = get_game("fano"), get_game("fantan")
    # The Python twin plays medium's member, its look-ahead left out (compiled only).
    assert fallback_agent(fano) == "ladder(compiled=false, deals=4, budget=32)"
    assert fallback_agent(fantan) == level_agent(fantan, "medium")
    twin, medium = create_agent(fallback_agent(fano), fano), create_agent("ladder", fano)
    for edition in ("classic", "trionfey"):
        state = fano.new_state(fano.preset(edition).config, 6)
        for _ in range(40):
            seat = fano.current_player(state)
            if seat is None:
                break
            view, legal = fano.observe(state, seat), fano.legal_actions(state)
            chosen = twin.choose(view, legal)
            assert chosen == medium.choose(view, legal)
            state = fano.apply_legal(state, chosen)
