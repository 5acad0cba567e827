"""The stored review's steps for Fano and Fan Tan (:mod:`fanfold.play.review_cards`): each step
judges its own moves only, the summary is made from the stored moves at the end, and the graph
shows each reviewed seat's own expected result (see :mod:`fanfold.server.reviews`)."""

from __future__ import annotations

from typing import Any

from fanfold.core.config import JSONObject, JSONValue
from fanfold.core.records import GameRecord
from fanfold.core.registry import get_game
from fanfold.play import review_cards
from fanfold.play.review import reviews, summary_said


def is_card_review(game: str) -> bool:
    """Whether ``game``'s review is sampled from each seat's view (Fano, Fan Tan)."""
    return not reviews(get_game(game))


def card_step(
    record: GameRecord, stop: int, budget: int | None, seed: str, start: int
) -> JSONObject:
    """Moves ``start + 1`` to ``stop`` of a Fano or Fan Tan game judged, on ``budget`` deals a
    decision (default the game's) from ``seed``, the seats the record labels ``"human"``
    judged; its summary is the game's ending only. The record is replayed once (its states
    serve the moves and the ending alike: a long Fano game's replay is some 0.1 s)."""
    game = get_game(record.game)
    deals = review_cards.default_deals(game) if budget is None else budget
    config = game.config_from_json(record.config)
    seats = review_cards.reviewed_seats(record, game.num_players(config))
    states = record.states()
    ending = review_cards.ending_of(record, states)
    moves = review_cards.review_moves(
        record, seed=seed, deals=deals, seats=seats, start=start, stop=stop, states=states
    )
    listed: list[JSONValue] = [move.to_json() for move in moves]
    return {
        "game": game.id,
        "title": game.title,
        "engine": review_cards.engine_of(game, deals, seed, seats),
        "moves": listed,
        "deal": None,
        "summary": [ending],
        "summary_said": summary_said([ending]),
    }


def card_summary(entries: list[JSONObject], engine: JSONObject, ending: str) -> list[str]:
    """A Fano or Fan Tan review's summary from its stored moves
    (:func:`fanfold.play.review_cards.summary_of`)."""
    return review_cards.summary_of(entries, engine, ending)


def card_points(entries: list[JSONObject]) -> list[JSONValue]:
    """The graph of a Fano or Fan Tan review: after each judged decision, the deciding seat's
    own expected result (0 to 1, drawn from -1 to 1) with its ``seat``."""
    points: list[JSONValue] = []
    for entry in entries:
        after: Any = entry.get("after")
        if entry.get("judged") == "yes" and isinstance(after, dict):
            value = 2.0 * float(after["expected"]) - 1.0
            points.append({"move": entry["number"], "value": value, "seat": entry["seat"]})
    return points
