"""Thousands of seeded random Fano games over every preset, invariants checked every action.

Half the games pick uniformly among the legal actions; the other half prefer promotions,
attacks, combinations and plays, so that games are also won (uniform play mostly reaches the
turn limit). Every few actions the views are checked: a state sampled from a seat's view gives
that seat the same view, and the mover the same legal actions.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest

from fanfold.core.game import Preset
from fanfold.core.registry import get_game
from fanfold.games.fano import (
    PRESETS,
    Attack,
    Combine,
    FanoAction,
    FanoConfig,
    Play,
    Promote,
)
from fanfold.games.fano.game import FanoGame
from tests.games.fano.helpers import short_games

GAME = get_game("fano")
assert isinstance(GAME, FanoGame)
FANO: FanoGame = GAME

GAMES_PER_PRESET = 120
VIEW_CHECK_EVERY = 40


def choose(legal: Sequence[FanoAction], rng: random.Random, eager: bool) -> FanoAction:
    """A random legal action; ``eager`` prefers actions that move towards a win."""
    if eager:
        promotions = [a for a in legal if isinstance(a, Promote)]
        if promotions:
            return promotions[0]
        main = [a for a in legal if isinstance(a, Attack | Combine)]
        if main and rng.random() < 0.7:
            return rng.choice(main)
        plays = [a for a in legal if isinstance(a, Play)]
        if plays and rng.random() < 0.8:
            return rng.choice(plays)
    return legal[rng.randrange(len(legal))]


def run_game(config: FanoConfig, seed: int) -> tuple[str, int]:
    rng = random.Random(seed)
    eager = seed % 2 == 1
    config = short_games(config)
    state = FANO.new_state(config, seed)
    steps = 0
    while True:
        problems = FANO.invariant_violations(state)
        assert not problems, f"seed {seed} step {steps}: {problems}"
        legal = FANO.legal_actions(state)
        player = FANO.current_player(state)
        assert (player is None) == (not legal) == (FANO.outcome(state) is not None)
        if steps % VIEW_CHECK_EVERY == 0:
            for seat in range(config.players):
                view = FANO.observe(state, seat)
                sampled = FANO.sample_state(view, rng)
                assert FANO.observe(sampled, seat) == view, f"seed {seed} step {steps}"
                if seat == player:
                    assert FANO.legal_actions(sampled) == legal
        if not legal:
            break
        state = FANO.apply_legal(state, choose(legal, rng, eager))
        steps += 1
    outcome = FANO.outcome(state)
    assert outcome is not None
    return ("win" if outcome.winners else "draw"), steps


#: Presets where the eager half of the games is sure to produce wins within the seeds.
OFTEN_WON = {
    "classic",
    "two-suit-easy",
    "jokers-wild",
    "specials-choice",
    *(preset.name for preset in PRESETS if preset.config.trionfey),
}


@pytest.mark.parametrize("preset", PRESETS, ids=[preset.name for preset in PRESETS])
def test_random_games_keep_the_invariants(preset: Preset[FanoConfig]) -> None:
    results: Counter[str] = Counter()
    for seed in range(GAMES_PER_PRESET):
        result, _ = run_game(preset.config, seed)
        results[result] += 1
    assert results["draw"] > 0
    if preset.name in OFTEN_WON:
        assert results["win"] > 0
    assert sum(results.values()) == GAMES_PER_PRESET
