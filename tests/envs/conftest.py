"""Shared helpers for the environment tests: random playouts over encoded games."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from fanfold.core.registry import AnyGame, all_games

#: Config options that keep playouts short where random games last long (Fano's turn limit).
SHORT: dict[str, dict[str, Any]] = {"fano": {"turns_per_player": 6}}


def every_preset() -> list[tuple[str, str]]:
    """``(game, preset)`` for every registered game and preset."""
    return [(game.name, preset.name) for game in all_games() for preset in game.presets()]


def playout(game: AnyGame, config: Any, seed: int, limit: int) -> Iterator[Any]:
    """The states of a random game (at most ``limit`` actions), the last one included."""
    rng = random.Random(seed)
    state = game.new_state(config, seed)
    for _ in range(limit):
        yield state
        legal = game.legal_actions(state)
        if not legal:
            return
        state = game.apply_legal(state, rng.choice(legal))
    yield state
