"""The review of Fano and Fan Tan games from each seat's view (:mod:`fanfold.play.review_cards`):
the same review when the other seats' hidden cards are dealt otherwise under the same view and
seed; a move that is the best found gets no mark; a planted losing move is marked with the
better move named; bots' seats and forced moves are listed but not judged; the marks' cut-offs
and the noise floor; variants outside the compiled search are refused."""

from __future__ import annotations

import random
from typing import Any

import pytest

from fanfold.agents import create_agent
from fanfold.core.records import GameRecord
from fanfold.core.registry import AnyGame, get_game
from fanfold.play.review import Mark, ReviewError
from fanfold.play.review_cards import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    NOISE_FLOOR,
    decision_seed,
    mark_of,
    review_cards,
    review_moves,
    reviews_cards,
    values_of,
)
from fanfold.play.setup import play_game

#: Few deals keep the tests quick; every result is exact for given deals and seed.
DEALS = {"fano": 4, "fantan": 40}
#: Deals of games with a decision of the first seat whose moves differ by more than a blunder.
PLANTED = {"fano": 21, "fantan": 22}
SEED = "123"


def _midgame(game: AnyGame, seed: int, actions: int) -> Any:
    """A position after ``actions`` actions of ``medium`` bots where the seat to move has a
    choice."""
    config = game.default_config()
    state = game.new_state(config, seed)
    bots = [create_agent("medium", game, seed=seat) for seat in range(game.num_players(config))]
    played = 0
    while True:
        seat = game.current_player(state)
        assert seat is not None, "the game ended before the position wanted"
        legal = game.legal_actions(state)
        if played >= actions and len(legal) > 1:
            return state
        state = game.apply_legal(state, bots[seat].choose(game.observe(state, seat), legal))
        played += 1


def _seat_turn(game: AnyGame, state: Any, seed: int) -> list[str]:
    """The actions a ``medium`` bot plays for the seat to move until another seat is to move
    (its turn: several actions in Fano, one in Fan Tan)."""
    seat = game.current_player(state)
    assert seat is not None
    bot = create_agent("medium", game, seed=seed)
    actions = []
    while game.current_player(state) == seat:
        action = bot.choose(game.observe(state, seat), game.legal_actions(state))
        actions.append(game.action_text(action))
        state = game.apply_legal(state, action)
    return actions


@pytest.mark.parametrize("name", ["fano", "fantan"])
def test_other_hidden_cards_under_the_same_view_give_the_same_review(name: str) -> None:
    game = get_game(name)
    config = game.default_config()
    state = _midgame(game, 11, 14)
    seat = game.current_player(state)
    assert seat is not None
    view = game.observe(state, seat)
    other = game.sample_state(view, random.Random(7))
    assert other != state, "the other seats' hidden cards are dealt otherwise"
    assert game.observe(other, seat) == view
    actions = _seat_turn(game, state, 3)
    # The seat's turn may draw a card, which the two deals hold otherwise: the review is the
    # same for the moves made while the seat's view is the same in both.
    kept, here, there = [], state, other
    for text in actions:
        if game.observe(here, seat) != game.observe(there, seat):
            break
        kept.append(text)
        here = game.apply_legal(here, game.parse_action(text))
        there = game.apply_legal(there, game.parse_action(text))
    assert kept, "the seat's view is the same at its first move"
    actions = kept
    reviews = []
    for start in (state, other):
        record = GameRecord(
            game.id, config.to_json(), 0, tuple(actions), game.format_position(start)
        )
        made: Any = review_cards(record, seed=SEED, deals=DEALS[name], seats=[seat])
        judged = [move for move in made["moves"] if move["judged"] == "yes"]
        assert judged, "the seat had a choice"
        reviews.append({key: made[key] for key in ("moves", "summary", "engine")})
    assert reviews[0] == reviews[1]
    # The evaluation itself: the same view and seed, the same values.
    legal = list(game.legal_actions(state))
    evaluate = values_of(game)
    assert evaluate(view, legal, 5, DEALS[name]) == evaluate(
        game.observe(other, seat), legal, 5, DEALS[name]
    )


def _planted(game: AnyGame, seed: int, *, worst: bool) -> tuple[GameRecord, int, list[float]]:
    """A game of ``medium`` bots whose first seat, at its first decision after the opening
    where the moves' expected results differ by more than a blunder, plays the best move
    found (``worst=False``) or the worst (``worst=True``); the rest played out by the bots.
    Returns the record, the move's number and the values the review finds there."""
    config = game.default_config()
    state = game.new_state(config, seed)
    bots = [create_agent("medium", game, seed=seat) for seat in range(game.num_players(config))]
    evaluate = values_of(game)
    record = GameRecord.start(game, config, seed)
    chosen: tuple[int, list[float]] | None = None
    while (seat := game.current_player(state)) is not None:
        legal = list(game.legal_actions(state))
        view = game.observe(state, seat)
        action = bots[seat].choose(view, legal)
        number = len(record.actions) + 1
        if chosen is None and seat == 0 and len(legal) > 1 and number > 4:
            found = evaluate(view, legal, decision_seed(SEED, number), DEALS[game.name])
            if max(found) - min(found) > BLUNDER + 0.02:
                pick = min if worst else max
                action = legal[found.index(pick(found))]
                chosen = (number, found)
        record = record.extend(game, action)
        state = game.apply_legal(state, action)
    assert chosen is not None, "no decision with a large enough spread"
    return record, chosen[0], chosen[1]


@pytest.mark.parametrize("name", ["fano", "fantan"])
def test_the_best_move_found_gets_no_mark(name: str) -> None:
    game = get_game(name)
    record, number, found = _planted(game, PLANTED[name], worst=False)
    moves = review_moves(record, seed=SEED, deals=DEALS[name], seats=[0], stop=number)
    move = moves[-1]
    assert (move.number, move.judged) == (number, "yes")
    assert move.played == max(found) == move.best_value
    assert (move.loss, move.mark, move.best, move.best_words) == (0.0, None, None, None)


@pytest.mark.parametrize("name", ["fano", "fantan"])
def test_a_planted_losing_move_is_marked_with_the_better_move(name: str) -> None:
    game = get_game(name)
    record, number, found = _planted(game, PLANTED[name], worst=True)
    made: Any = review_cards(record, seed=SEED, deals=DEALS[name], seats=[0])
    moves = made["moves"]
    move = moves[number - 1]
    assert move["number"] == number
    assert move["mark"] == Mark.BLUNDER.value
    assert move["loss"] == pytest.approx(max(found) - min(found), abs=1e-6)
    assert move["best"] is not None
    assert move["best"] != move["text"]
    assert move["best_words"].endswith(".")
    sentence = next(line for line in made["summary"] if f", {move['text']}," in line)
    assert "was a blunder" in sentence
    assert str(move["best"]) in sentence
    # Only the first seat was judged: the others' moves are listed as bots'.
    assert {entry["judged"] for entry in moves if entry["seat"] != 0} == {"bot"}
    assert all(entry["mark"] is None for entry in moves if entry["judged"] != "yes")
    assert made["engine"]["deals"] == DEALS[name]
    assert made["engine"]["seed"] == SEED
    assert any("Bots' seats are not reviewed" in line for line in made["summary"])


def test_forced_moves_are_not_judged() -> None:
    game = get_game("fantan")
    record = play_game(game, None, ["medium"] * 4, seed=2, agent_seed=2).finish()
    moves = review_moves(record, seed=SEED, deals=DEALS["fantan"], seats=[0, 1, 2, 3], stop=30)
    states = record.states()
    for move in moves:
        forced = len(game.legal_actions(states[move.number - 1])) == 1
        assert (move.judged == "forced") == forced
        assert (move.played is None) == forced


def test_marks_need_the_noise_floor_and_the_cut_offs() -> None:
    assert INACCURACY < MISTAKE < BLUNDER
    floor = NOISE_FLOOR["fano"]
    assert mark_of(0.0, floor) is None
    assert mark_of(floor, floor) is None
    assert mark_of(max(floor, INACCURACY) + 0.001, floor) in (Mark.INACCURACY, Mark.MISTAKE)
    assert mark_of(BLUNDER, 0.0) is Mark.BLUNDER
    assert mark_of(MISTAKE, 0.0) is Mark.MISTAKE
    assert mark_of(INACCURACY, 0.0) is Mark.INACCURACY
    assert mark_of(INACCURACY - 0.001, 0.0) is None
    assert mark_of(0.5, 0.6) is None  # within a floor that high


def test_variants_outside_the_compiled_search_are_refused() -> None:
    game = get_game("fantan")
    config = game.config_from_json({"scoring": "chips"})
    assert not reviews_cards(game, config)
    record = GameRecord.start(game, config, 0)
    with pytest.raises(ReviewError, match="no engine review for this Fan Tan variant"):
        review_moves(record, seed=SEED)
    assert reviews_cards(get_game("fano"), get_game("fano").preset("trionfey").config)


def test_a_game_of_bots_only_judges_nothing_and_says_so() -> None:
    game = get_game("fantan")
    record = play_game(game, None, ["medium"] * 4, seed=3, agent_seed=3).finish()
    assert record.players == ("medium",) * 4
    made: Any = review_cards(record, seed=SEED, deals=DEALS["fantan"])
    assert {move["judged"] for move in made["moves"]} == {"bot"}
    assert made["engine"]["seats"] == []
    assert made["summary"][0].startswith("No decision was judged")
    assert (
        "Bots' seats are not reviewed: Player 1, Player 2, Player 3, Player 4." in made["summary"]
    )
