"""Research environments: every fanfold game for PettingZoo, Gymnasium and OpenSpiel.

Install the extra first (``pip install -e '.[envs]'``); the encodings
(:mod:`fanfold.envs.encodings`) need only numpy, the environments import their library when
one is made::

    >>> import fanfold.envs
    >>> env = fanfold.envs.aec_env("morris")
    >>> env.reset(seed=0)
    >>> env.agent_selection
    'player_0'

Entry points:

* :func:`aec_env`: a PettingZoo AEC environment (every seat an agent);
* :func:`gym_env`: a Gymnasium environment for one seat, bots in the others;
* :func:`gym_vector_env`: many such tables stepped as one batch (a Gymnasium vector env);
* :func:`self_play_env`: many tables in self-play, every seat's decision in one batch;
* :func:`register_openspiel`: registers ``python_fanfold_<game>`` with OpenSpiel;
* Gymnasium ids ``fanfold/<game>-v1`` and ``fanfold/<game>-<preset>-v1`` for
  :func:`gymnasium.make` (the version, :data:`fanfold.envs.registration.VERSIONS`, moves on
  when a game's rules or encoding change; the ``-v0`` ids still make the same environments),
  registered when this package is imported with Gymnasium installed
  (:mod:`fanfold.envs.registration`).

See ``docs/envs/encodings.md`` for the action and observation encodings and their sizes.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fanfold.envs.gymnasium_env import FanfoldGymEnv
    from fanfold.envs.pettingzoo_env import FanfoldAECEnv
    from fanfold.envs.selfplay_env import SelfPlayVectorEnv
    from fanfold.envs.vector_env import FanfoldVectorEnv


def aec_env(game: str, variant: str | None = None, **options: Any) -> FanfoldAECEnv:
    """A PettingZoo AEC environment for a game and preset (see
    :class:`~fanfold.envs.pettingzoo_env.FanfoldAECEnv` for the options)."""
    from fanfold.envs.pettingzoo_env import FanfoldAECEnv

    return FanfoldAECEnv(game, variant, **options)


def gym_env(
    game: str,
    variant: str | None = None,
    opponents: str | Sequence[str] | None = None,
    **options: Any,
) -> FanfoldGymEnv:
    """A Gymnasium environment for one seat of a game, with ``opponents`` (agent texts such
    as ``"random"`` or ``"mcts(iterations=50)"``; one text for every other seat, or one per
    seat; default ``random``) in the other seats (see
    :class:`~fanfold.envs.gymnasium_env.FanfoldGymEnv` for the options)."""
    from fanfold.envs.gymnasium_env import FanfoldGymEnv

    return FanfoldGymEnv(game, variant, opponents, **options)


def gym_vector_env(
    game: str,
    variant: str | None = None,
    opponents: str | Sequence[str] | None = None,
    *,
    num_envs: int = 8,
    **options: Any,
) -> FanfoldVectorEnv:
    """A Gymnasium vector environment of ``num_envs`` tables, each as :func:`gym_env` (see
    :class:`~fanfold.envs.vector_env.FanfoldVectorEnv`; ``engine="auto"``, ``"python"`` or
    ``"compiled"`` chooses what steps the tables)."""
    from fanfold.envs.vector_env import FanfoldVectorEnv

    return FanfoldVectorEnv(game, variant, opponents, num_envs=num_envs, **options)


def self_play_env(
    game: str, variant: str | None = None, *, num_envs: int = 8, **options: Any
) -> SelfPlayVectorEnv:
    """``num_envs`` tables of a game in self-play, stepped as one batch: each table's deciding
    seat's observation and mask, one action per table (see
    :class:`~fanfold.envs.selfplay_env.SelfPlayVectorEnv`; ``engine``, ``max_steps``,
    ``flatten``)."""
    from fanfold.envs.selfplay_env import SelfPlayVectorEnv

    return SelfPlayVectorEnv(game, variant, num_envs=num_envs, **options)


def register_openspiel() -> list[str]:
    """Register every fanfold game with OpenSpiel as ``python_fanfold_<game>``; returns the
    names. Safe to call more than once."""
    from fanfold.envs.openspiel_game import register

    names: list[str] = register()
    return names


def register_gymnasium() -> list[str]:
    """Register every game and preset with Gymnasium (``fanfold/<game>-<preset>-v1``; done on
    import when Gymnasium is installed); returns the ids. Safe to call more than once."""
    from fanfold.envs.registration import register_gymnasium as register

    return register()


if importlib.util.find_spec("gymnasium") is not None:
    register_gymnasium()

__all__ = [
    "aec_env",
    "gym_env",
    "gym_vector_env",
    "register_gymnasium",
    "register_openspiel",
    "self_play_env",
]
