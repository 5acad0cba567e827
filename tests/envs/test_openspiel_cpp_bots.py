"""OpenSpiel's C++ MCTS and IS-MCTS bots crash on Python games, OpenSpiel's own included
(docs/envs/openspiel.md says to use the Python bots): each case plays a game in its own
process, since the crash ends it. When this test fails, OpenSpiel has fixed the bots: update
docs/envs/openspiel.md."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import fanfold.envs

SOURCE = str(Path(fanfold.envs.__file__).parents[2])

SCRIPT = """
    import sys
    import pyspiel
    from open_spiel.python.games import kuhn_poker, tic_tac_toe  # registers the Python games
    sys.path.insert(0, {source!r})
    import fanfold.envs

    fanfold.envs.register_openspiel()
    bot_kind, name = sys.argv[1], sys.argv[2]
    game = pyspiel.load_game(name)
    evaluator = pyspiel.RandomRolloutEvaluator(1, 0)
    if bot_kind == "mcts":
        bot = pyspiel.MCTSBot(game, evaluator, 2.0, 20, 10, False, 0, False)
    else:
        bot = pyspiel.ISMCTSBot(
            0, evaluator, 2.0, 20, -1, pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT,
            False, False,
        )
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal() and steps < 300:  # a whole game, the bot in seat 0
        steps += 1
        if state.is_chance_node() or state.current_player() != 0:
            state.apply_action(state.legal_actions()[steps % len(state.legal_actions())])
        else:
            state.apply_action(bot.step(state))
    print("played", steps, flush=True)
"""


def _step(bot: str, game: str) -> int:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(SCRIPT.format(source=SOURCE)), bot, game],
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.returncode


@pytest.mark.parametrize(
    ("bot", "game"),
    [
        ("mcts", "python_tic_tac_toe"),
        ("ismcts", "python_kuhn_poker"),
        ("mcts", "python_fanfold_morris"),
        ("ismcts", "python_fanfold_fantan"),
    ],
)
def test_the_cpp_bots_crash_on_python_games(bot: str, game: str) -> None:
    assert _step(bot, game) != 0, (
        f"pyspiel's C++ {bot} bot ran on {game}: update docs/envs/openspiel.md"
    )


@pytest.mark.parametrize(("bot", "game"), [("mcts", "tic_tac_toe"), ("ismcts", "kuhn_poker")])
def test_the_cpp_bots_play_the_cpp_games(bot: str, game: str) -> None:
    assert _step(bot, game) == 0
