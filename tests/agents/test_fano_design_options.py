"""Searches on Fano's design options, which the compiled fast path declines: the compiled
search leaves such a game to the Python tree instead of playing other rules."""

from __future__ import annotations

from fanfold.agents.base import create_agent
from fanfold.core.registry import get_game
from fanfold.games.fano import FanoConfig, SpecialsMode, fast

FANO = get_game("fano")


def test_the_compiled_search_falls_back_to_the_python_tree_for_a_prestige_joker() -> None:
    config = FanoConfig(specials=SpecialsMode.CHOICE, joker_prestige=True)
    assert not fast.supports(config)
    state = FANO.parse_position(
        "fano player=1 | specials=0:joker hand=TJ,AH field=4H,5H,8H,TH | field=3C", config
    )
    legal = FANO.legal_actions(state)
    assert "4H+5H=TJ9" in {str(action) for action in legal}
    agent = create_agent("mcts(tree=fast, playout=fast-heuristic, iterations=8, deals=2)", FANO, 1)
    agent.prepare(config, lambda text: None)
    chosen = agent.choose(FANO.observe(state, 0), legal)
    assert chosen in legal
