"""Search with ``playout=fast``: Fano's compiled random rollouts, and the fallback elsewhere."""

from __future__ import annotations

import random

from fanfold.agents.mcts import MCTSAgent, MCTSConfig
from fanfold.agents.strategy.fano_knowledge import FanoKnowledge
from fanfold.core.registry import get_game
from fanfold.games.fano import FanoState
from fanfold.games.fano.game import FanoGame

GAME = get_game("fano")
assert isinstance(GAME, FanoGame)
FANO: FanoGame = GAME


def _midgame(preset: str, seed: int) -> FanoState:
    config = FANO.preset(preset).config.replace(turns_per_player=60)
    state = FANO.new_state(config, seed)
    rng = random.Random(seed)
    for _ in range(30):
        legal = FANO.legal_actions(state)
        state = FANO.apply_legal(state, legal[rng.randrange(len(legal))])
    return state


def test_a_fast_rollout_is_the_evaluation_after_random_compiled_actions() -> None:
    knowledge = FanoKnowledge(FANO)
    state = _midgame("classic", 2)
    assert knowledge.fast_rollout(state, 0, random.Random(1)) == knowledge.evaluate(state)
    returns = knowledge.fast_rollout(state, 30, random.Random(1))
    assert returns is not None
    greedy = knowledge.fast_rollout(state, 30, random.Random(1), "greedy")
    assert greedy is not None
    assert all(-1.0 <= value <= 1.0 for value in greedy)
    assert len(returns) == 2
    assert all(-1.0 <= value <= 1.0 for value in returns)
    # Its own generator is seeded from the agent's: the same rng gives the same rollout.
    assert knowledge.fast_rollout(state, 30, random.Random(1)) == returns


def test_trionfey_rollouts_run_on_the_fast_path_too() -> None:
    state = _midgame("trionfey-specials", 3)
    returns = FanoKnowledge(FANO).fast_rollout(state, 10, random.Random(1))
    assert returns is not None
    assert all(-1.0 <= value <= 1.0 for value in returns)


def test_a_game_without_a_fast_path_steps_the_rules() -> None:
    game = get_game("fantan")
    state = game.new_state(game.default_config(), 1)
    player = game.current_player(state)
    assert player is not None
    legal = game.legal_actions(state)
    agent = MCTSAgent(game, MCTSConfig(iterations=20, playout="fast", rollout_limit=5), seed=1)
    assert agent.choose(game.observe(state, player), legal) in legal


def test_a_fast_search_is_seeded() -> None:
    state = _midgame("jokers-wild", 4)
    player = FANO.current_player(state)
    assert player is not None
    view = FANO.observe(state, player)
    legal = FANO.legal_actions(state)
    for playout in ("fast", "fast-greedy", "fast-heuristic"):
        config = MCTSConfig(iterations=60, playout=playout, rollout_limit=10, widening=1)
        first = MCTSAgent(FANO, config, seed=5).choose(view, legal)
        assert first in legal
        assert MCTSAgent(FANO, config, seed=5).choose(view, legal) == first
