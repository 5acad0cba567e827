"""Gymnasium ids for every game and preset, under the ``fanfold/`` namespace.

>>> import gymnasium
>>> import fanfold.envs  # registers the ids when Gymnasium is installed
>>> env = gymnasium.make("fanfold/fantan-chips-v1", players=5, opponents="random")
>>> env.unwrapped.config.players
5

``fanfold/<game>-v<N>`` is the game's first preset, ``fanfold/<game>-<preset>-v<N>`` each
preset, ``N`` the game's version in :data:`VERSIONS` (bumped when the game's rules or its
encoding change; ``docs/envs/<game>.md`` lists the versions). Keyword arguments of
:func:`gymnasium.make` reach :class:`~fanfold.envs.gymnasium_env.FanfoldGymEnv`
(``opponents``, ``seat``, ``max_steps``, ``render_mode``, config options).
``gymnasium.make_vec(ID, num_envs=N, vectorization_mode="vector_entry_point")`` makes
:class:`~fanfold.envs.vector_env.FanfoldVectorEnv` (N tables stepped as one batch).

**How the ids get registered.** :func:`register_gymnasium` is the package's entry point in
Gymnasium's plugin group ``gymnasium.envs`` (``pyproject.toml``), so a Gymnasium that loads
plugins (0.26 to 0.29) registers the ids when it is imported. Gymnasium 1.0 removed plugin
loading (the installed 1.x has no ``load_plugin_envs``), so with 1.x the ids exist once
something runs this function: importing :mod:`fanfold.envs` does,
``gymnasium.make("fanfold.envs:fanfold/fano-v1")`` imports it on the way, and so does
``gymnasium.register_envs(fanfold.envs)``. The function is lazy: it imports only this module
and Gymnasium's registry, never the games, Numba, OpenSpiel or the compiled code; every entry
point is a string, resolved when an environment is made.
"""

from __future__ import annotations

import inspect
from typing import Any

NAMESPACE = "fanfold"
#: Each game's environment version: bump it when the game's rules or its encoding (action
#: table, observation layout) change, add a row to ``docs/envs/<game>.md``'s version history
#: and record the new fingerprint in ``tests/envs/test_gymnasium_registration.py``.
VERSIONS: dict[str, int] = {"fan": 1, "fano": 1, "fantan": 1, "morris": 1}
#: Older versions whose ids still make the current environment (Gymnasium says, when one is
#: made, that a newer version exists). ``v0`` was the only version until ids were versioned:
#: v1 is the same environment, the first whose changes are tracked.
LEGACY_VERSIONS: tuple[int, ...] = (0,)
#: Every game and its presets, in order (the first is the game's default), written out so
#: that registering reads no game; ``tests/envs/test_gymnasium_registration.py`` checks it
#: against the registry of games.
PRESETS: dict[str, tuple[str, ...]] = {
    "fan": ("classic", "any-to-empty", "sequences", "relaxed"),
    "fano": (
        "classic",
        "four-players",
        "eight-players",
        "two-suit",
        "two-suit-easy",
        "two-suit-hard",
        "two-suit-three-prestige",
        "jokers-wild",
        "specials",
        "specials-choice",
        "everything",
        "trionfey",
        "trionfey-all-for-one",
        "trionfey-one-for-all",
        "trionfey-specials",
        "trionfey-queen",
        "trionfey-tournament",
    ),
    "fantan": (
        "standard",
        "chips",
        "seven-of-diamonds",
        "ace-low",
        "sevens-online",
        "domino",
        "ten-titans",
        "chips-match",
        "sevens-match",
    ),
    "morris": ("geometric", "complete"),
}
ENTRY_POINT = "fanfold.envs.gymnasium_env:FanfoldGymEnv"
VECTOR_ENTRY_POINT = "fanfold.envs.vector_env:FanfoldVectorEnv"


def gymnasium_ids(version: int | None = None) -> dict[str, tuple[str, str]]:
    """Every id and the ``(game, preset)`` it makes, at each game's current version (or at
    ``version`` for every game)."""
    ids: dict[str, tuple[str, str]] = {}
    for game, presets in PRESETS.items():
        number = VERSIONS[game] if version is None else version
        ids[f"{NAMESPACE}/{game}-v{number}"] = (game, presets[0])
        for preset in presets:
            ids[f"{NAMESPACE}/{game}-{preset}-v{number}"] = (game, preset)
    return ids


def legacy_ids() -> dict[str, tuple[str, str]]:
    """The older ids still registered (:data:`LEGACY_VERSIONS`), each for its current env."""
    ids: dict[str, tuple[str, str]] = {}
    for version in LEGACY_VERSIONS:
        ids.update(gymnasium_ids(version))
    return ids


def register_gymnasium() -> list[str]:
    """Register every id with Gymnasium (again is harmless); returns the current ids.

    Gymnasium's plugin entry point (``gymnasium.envs`` group): it reads the registry from
    ``gymnasium.envs.registration``, which a Gymnasium that loads plugins has imported before
    it calls this (``gymnasium`` itself is still being imported then)."""
    from gymnasium.envs.registration import register, registry

    vector = "vector_entry_point" in inspect.signature(register).parameters
    current = gymnasium_ids()
    for env_id, (game, preset) in {**current, **legacy_ids()}.items():
        if env_id in registry:
            continue
        extra: dict[str, Any] = {"vector_entry_point": VECTOR_ENTRY_POINT} if vector else {}
        register(
            id=env_id,
            entry_point=ENTRY_POINT,
            kwargs={"game": game, "variant": preset},
            disable_env_checker=False,
            **extra,
        )
    return list(current)
