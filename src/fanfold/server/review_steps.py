"""One step of a stored engine review (:mod:`fanfold.server.reviews`): where it ends
(:func:`step_end`) and what the review worker computes for it (:func:`review_step`)."""

from __future__ import annotations

import dataclasses
from typing import Any

from fanfold.core.config import JSONObject
from fanfold.core.records import GameRecord
from fanfold.core.registry import get_game
from fanfold.games.morris import MorrisGame
from fanfold.play import review as reviewed
from fanfold.play.review import review
from fanfold.server.card_reviews import card_step, is_card_review

#: Morris moves judged per step (one call in the bot pool, then stored).
CHUNK = 16
#: Fano and Fan Tan moves per step (each decision of a human seat sampled; the page fills in
#: every few seconds).
CARD_CHUNK = 6


def step_end(game: str, moves: int, start: int) -> int:
    """Where the step that starts at move ``start`` (0-based) ends: Morris after
    :data:`CHUNK` moves, Fano and Fan Tan after :data:`CARD_CHUNK`, Fan at the game's end (its
    bisection needs the whole game)."""
    if isinstance(get_game(game), MorrisGame):
        return min(moves, start + CHUNK)
    if is_card_review(game):
        return min(moves, start + CARD_CHUNK)
    return moves


def review_step(
    record: JSONObject, stop: int, budget: int | None, seed: str = "0", start: int = 0
) -> JSONObject:
    """The review of a record cut after its first ``stop`` moves (the whole game, with its
    ending, when ``stop`` reaches it), as JSON: what a worker of the bot pool computes for one
    step. A Morris move is judged from the moves before it only, so a cut record judges its
    moves as the whole one does. Each move gets ``best_words`` (and ``best_said``) too.

    Fano and Fan Tan (:mod:`fanfold.play.review_cards`): only moves ``start + 1`` to ``stop``
    are judged, on ``budget`` deals a decision from ``seed``; the human seats are those the
    record labels ``"human"``; the summary holds the ending only (the whole summary is made
    from the stored moves, :func:`card_summary`)."""
    if is_card_review(str(record["game"])):
        return card_step(GameRecord.from_json(record), stop, budget, seed, start)
    cut = GameRecord.from_json(record)
    if stop < len(cut.actions):
        cut = dataclasses.replace(cut, actions=cut.actions[:stop], outcome=None, ruling=None)
    result = review(cut, max_states=budget).to_json()
    game = get_game(cut.game)
    states = cut.states()
    moves: list[Any] = result["moves"]  # type: ignore[assignment]
    for entry in moves:
        best = entry["best"]
        before = states[int(entry["number"]) - 1]
        entry["best_words"] = (
            None
            if best is None
            else game.describe_action(
                before, game.parse_action(str(best)), None, game.apply_text(before, str(best))
            )
        )
        entry.update(reviewed.said_fields(best_said=entry["best_words"]))
    return result


__all__ = ["CARD_CHUNK", "CHUNK", "review_step", "step_end"]
