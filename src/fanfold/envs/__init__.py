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

See ``docs/envs.md`` for the action and observation encodings and their sizes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fanfold.envs.pettingzoo_env import FanfoldAECEnv


def aec_env(game: str, variant: str | None = None, **options: Any) -> FanfoldAECEnv:
    """A PettingZoo AEC environment for a game and preset (see
    :class:`~fanfold.envs.pettingzoo_env.FanfoldAECEnv` for the options)."""
    from fanfold.envs.pettingzoo_env import FanfoldAECEnv

    return FanfoldAECEnv(game, variant, **options)


__all__ = ["aec_env"]
