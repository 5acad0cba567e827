"""Gymnasium ids for every game and preset, under the ``fanfold/`` namespace.

>>> import gymnasium
>>> import fanfold.envs  # registers the ids when Gymnasium is installed
>>> env = gymnasium.make("fanfold/fantan-chips-v0", players=5, opponents="random")
>>> env.unwrapped.config.players
5

``fanfold/<game>-v0`` is the game's first preset, ``fanfold/<game>-<preset>-v0`` each preset;
keyword arguments of :func:`gymnasium.make` reach :class:`~fanfold.envs.gymnasium_env.
FanfoldGymEnv` (``opponents``, ``seat``, ``max_steps``, ``render_mode``, config options).
Gymnasium 1.x no longer loads plugins from an entry-point group, so the ids exist once
:mod:`fanfold.envs` is imported; ``gymnasium.make("fanfold.envs:fanfold/fano-v0")`` imports
it on the way. ``gymnasium.make_vec(ID, num_envs=N, vectorization_mode="vector_entry_point")``
makes :class:`~fanfold.envs.vector_env.FanfoldVectorEnv` (N tables stepped as one batch).
"""

from __future__ import annotations

from fanfold.core.registry import all_games
from fanfold.envs.encodings import ENCODINGS

NAMESPACE = "fanfold"
VERSION = 0
ENTRY_POINT = "fanfold.envs.gymnasium_env:FanfoldGymEnv"
VECTOR_ENTRY_POINT = "fanfold.envs.vector_env:FanfoldVectorEnv"


def gymnasium_ids() -> dict[str, tuple[str, str]]:
    """Every id and the ``(game, preset)`` it makes."""
    ids: dict[str, tuple[str, str]] = {}
    for game in all_games():
        if game.name not in ENCODINGS:
            continue
        presets = [preset.name for preset in game.presets()]
        ids[f"{NAMESPACE}/{game.name}-v{VERSION}"] = (game.name, presets[0])
        for preset in presets:
            ids[f"{NAMESPACE}/{game.name}-{preset}-v{VERSION}"] = (game.name, preset)
    return ids


def register_gymnasium() -> list[str]:
    """Register every id with Gymnasium (again is harmless); returns the ids."""
    import gymnasium

    ids = gymnasium_ids()
    for env_id, (game, preset) in ids.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point=ENTRY_POINT,
                vector_entry_point=VECTOR_ENTRY_POINT,
                kwargs={"game": game, "variant": preset},
                disable_env_checker=False,
            )
    return list(ids)
