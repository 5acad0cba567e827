"""Fano: the strategy and the difficulty levels."""

from __future__ import annotations

from collections.abc import Callable

from fanfold.agents.knowledge import AnyKnowledge
from fanfold.agents.strategy.fano_knowledge import FanoKnowledge
from fanfold.core.registry import AnyGame
from fanfold.games.fano.game import FanoGame


def _knowledge(game: AnyGame) -> AnyKnowledge:
    if not isinstance(game, FanoGame):
        raise TypeError(f"Fano's strategy plays Fano, not {game.title}")
    return FanoKnowledge(game)


#: What makes the game's strategy (:mod:`fanfold.agents.strategy.fano_knowledge`).
KNOWLEDGE = _knowledge


def prepare(say: Callable[[str], None]) -> None:
    """Load Fano's compiled engine, playout policy and search from Numba's cache (compile
    them first, in a subprocess, on a fresh installation), telling the player through ``say``
    (:func:`fanfold.agents.strategy.compiled.prepare`)."""
    from fanfold.agents.strategy import compiled

    compiled.prepare("fano", say)


#: The agent behind each level. ``easy``: a light search with random playouts (it finds few
#: promotions: a beginner beats it); ``medium``: the ladder's balanced member
#: (:mod:`fanfold.agents.ladder`: the seat's own turn searched whole, judged by the learned
#: evaluation, compiled) looking ahead a little: at most 32 continuations a decision on 4
#: deals of its view (the member's 8 best moves), about 10 ms a decision; from 2026-11-29 to
#: 2026-11-30 it was the member alone, which ``hard``'s look-ahead exploited more (86.7% of 60
#: Trionfey games against 71.7%), and before that the turn planner, ``planner``, which the
#: ladder beat 83-90%; ``hard``: the same member looking ahead
#: (:mod:`fanfold.agents.ladder.lookahead`): every legal move tried on 24 deals of the view, the
#: game carried on by the member itself for every seat to the end of the seat's next turn,
#: judged by the learned evaluation, compiled; its budget is 384 continuations a decision (legal
#: moves x deals: where more than 16 moves are legal, it looks ahead only on the member's 16
#: best by its own search, on every deal; a decision of 16 moves or fewer is unchanged), so
#: that its slowest decisions (Trionfey's, with 25 to 35 legal moves) are bounded the same on
#: every machine; a time cap (``seconds``) is its wall-clock guard: it deals no more once the
#: cap is spent (at least one deal), and the server counts such cuts. Until 2026-11-29
#: ``hard`` was the compiled information-set tree search (``mcts(playout=fast-heuristic,
#: tree=fast, deals=64, iterations=4000, rollout_limit=10, widening=1, exploration=0.1)``),
#: which the ladder beat.
#: ``docs/agents.md`` gives their measured strength and time per decision.
LEVELS = {
    "easy": "mcts(iterations=40, rollout_limit=40)",
    "medium": "ladder(deals=4, budget=32)",
    "hard": "ladder(deals=24, budget=384)",
}
