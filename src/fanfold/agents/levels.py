"""Difficulty levels: ``easy``, ``medium`` and ``hard`` are agent names in every game.

Each game maps each level to a configured agent (``LEVELS`` in its strategy module, which its
plugin names: :mod:`fanfold.agents.strategy`), so ``--seat hard`` is the hard bot of whatever
game is played and ``fanfold games`` shows what each level is. The levels are promises to
players: ``easy`` is beatable by a beginner, ``hard`` answers within about a second a decision
on a small machine; ``docs/agents.md`` gives their measured strength.
"""

from __future__ import annotations

from fanfold.agents import strategy
from fanfold.agents.base import AgentSpec, parse_agent
from fanfold.core.errors import Refusal, UnknownAgentError
from fanfold.core.registry import AnyGame

#: The level names, weakest first.
LEVELS = ("easy", "medium", "hard")


def has_levels(game: AnyGame) -> bool:
    """Whether the levels are set for ``game``."""
    return strategy.levels_of(game) is not None


def level_agent(game: AnyGame, level: str) -> str:
    """The agent text that plays ``level`` in ``game``, e.g. ``mcts(iterations=400)``.

    Raises:
        UnknownAgentError: not a level, or the game has no levels.
    """
    if level not in LEVELS:
        raise UnknownAgentError(Refusal("agent.no_level", name=level, names=", ".join(LEVELS)))
    levels = strategy.levels_of(game)
    if levels is None:
        raise UnknownAgentError(Refusal("agent.no_levels", game=game.title))
    return levels[level]


def fallback_agent(game: AnyGame) -> str:
    """The agent text a bot of ``game`` plays while its compiled code is not ready: the
    fallback level's agent (:data:`fanfold.agents.strategy.compiled.FALLBACK_LEVEL`), with
    ``compiled=false`` where it has that option (Fano's ``medium``, the ladder's balanced
    member looking ahead: its Python twin makes the member's decisions, in milliseconds, and
    needs no compiled code; the look-ahead is compiled only, so it is left out), else as it is.

    Raises:
        UnknownAgentError: the game has no levels.
    """
    from fanfold.agents.strategy.compiled import FALLBACK_LEVEL

    spec = parse_agent(level_agent(game, FALLBACK_LEVEL))
    if "compiled" not in spec.config.option_texts():
        return str(spec)
    return str(AgentSpec(spec.name, spec.config.with_options({"compiled": "false"})))
