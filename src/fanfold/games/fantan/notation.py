"""Fan Tan position notation: reading a position back, and the invariants of a state.

A position is three parts separated by ``|``::

    hand=1 leader=1 scores=0,0,0,0 pool=0 last=- seed=7 | 2C 9C ... / ... / ... / ... | 7C pass 8C

* the header: the hand number in the match (from 1), the seat that leads this hand (from 1),
  the running scores, the chips in the pool, the winner of the previous hand (``-`` for none)
  and the seed later hands are dealt from;
* each seat's cards, seats separated by ``/`` (``-`` for an empty hand);
* this hand's actions in order (``-`` for none): the layout, the passes and the chosen
  starting rank all follow from them, and reading a position replays them under the rules.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from fanfold.core.cards import Card
from fanfold.core.errors import ConfigError, NotationError
from fanfold.games.fantan.config import FanTanConfig, Scoring
from fanfold.games.fantan.layout import ALL_CARDS, CARDS, is_valid_layout, suit_table
from fanfold.games.fantan.state import FanTanAction, FanTanState, Pass, Play

if TYPE_CHECKING:
    from fanfold.games.fantan.game import FanTanGame

_KEYS = ("hand", "leader", "scores", "pool", "last", "seed")


def _number(key: str, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise NotationError(f"{key}= needs a whole number, not {text!r}") from None


def _seat(key: str, text: str, players: int) -> int:
    seat = _number(key, text)
    if not 1 <= seat <= players:
        raise NotationError(f"{key}= must be a seat from 1 to {players}, not {seat}")
    return seat - 1


def _hand(text: str, seat: int) -> int:
    tokens = text.split()
    if tokens == ["-"]:
        return 0
    mask = 0
    for token in tokens:
        try:
            card = Card.parse(token)
        except NotationError as error:
            raise NotationError(f"seat {seat + 1}'s hand: {error}") from None
        if mask >> card.index & 1:
            raise NotationError(f"seat {seat + 1}'s hand lists {card} twice")
        mask |= 1 << card.index
    return mask


def parse_position(game: FanTanGame, text: str, config: FanTanConfig | None) -> FanTanState:
    """Read a position, replaying its hand under the rules. Raises :class:`NotationError`."""
    from fanfold.games.fantan.game import (
        deal_sizes,
        dealer_of,
        hand_winner,
        history_seats,
        leader_of,
        step,
    )

    parts = text.split("|")
    if len(parts) != 3:
        raise NotationError(
            "a Fan Tan position has three parts separated by '|': the header "
            "(hand= leader= scores= pool= last= seed=), the hands separated by '/', and this "
            "hand's actions"
        )
    header: dict[str, str] = {}
    for token in parts[0].split():
        key, sep, value = token.partition("=")
        if not sep or key not in _KEYS:
            raise NotationError(f"unknown header item {token!r}; expected {', '.join(_KEYS)}")
        if key in header:
            raise NotationError(f"header item {key}= is given twice")
        header[key] = value
    missing = [key for key in _KEYS if key not in header]
    if missing:
        raise NotationError(f"the header lacks {', '.join(key + '=' for key in missing)}")
    seat_texts = parts[1].split("/")
    try:  # the position's hands say how many play; the config says the rest
        if config is None:
            config = FanTanConfig(players=len(seat_texts))
        elif config.players != len(seat_texts):
            config = config.replace(players=len(seat_texts))
    except ConfigError as error:
        raise NotationError(f"the position has {len(seat_texts)} hands: {error}") from None
    players = config.players
    hands = [_hand(seat_text, seat) for seat, seat_text in enumerate(seat_texts)]
    history_tokens = parts[2].split()
    if history_tokens == ["-"]:
        history_tokens = []
    history: list[FanTanAction] = [game.parse_action(token) for token in history_tokens]

    hand_number = _number("hand", header["hand"]) - 1
    if hand_number < 0 or (config.hands and hand_number >= config.hands):
        limit = f"1 to {config.hands}" if config.hands else "1 or more"
        raise NotationError(f"hand= must be {limit}, not {hand_number + 1}")
    leader = _seat("leader", header["leader"], players)
    scores_text = header["scores"].split(",")
    if len(scores_text) != players:
        raise NotationError(f"scores= needs {players} numbers separated by commas")
    scores = tuple(_number("scores", item) for item in scores_text)
    pool = _number("pool", header["pool"])
    last_winner = None if header["last"] == "-" else _seat("last", header["last"], players)
    seed = _number("seed", header["seed"])

    played = 0
    start_hands = list(hands)
    held = 0
    for seat, hand in enumerate(hands):
        if held & hand:
            raise NotationError(f"seat {seat + 1} holds a card another seat holds")
        held |= hand
    for seat, action in zip(history_seats(leader, players, len(history)), history, strict=True):
        if isinstance(action, Play):
            bit = 1 << action.index
            if (played | held) & bit:
                raise NotationError(f"{action} is both held or played more than once")
            played |= bit
            start_hands[seat] |= bit
    if played | held != ALL_CARDS:
        missing_cards = " ".join(str(c) for c in CARDS if not (played | held) >> c.index & 1)
        raise NotationError(f"every card must be held or played; missing: {missing_cards}")
    dealer = dealer_of(players, hand_number)
    sizes = tuple(hand.bit_count() for hand in start_hands)
    if sizes != deal_sizes(players, dealer):
        raise NotationError(
            f"the seats were dealt {', '.join(map(str, sizes))} cards, but a deal by seat "
            f"{dealer + 1} gives {', '.join(map(str, deal_sizes(players, dealer)))}"
        )
    if leader != leader_of(config, dealer, start_hands):
        raise NotationError(
            f"seat {leader_of(config, dealer, start_hands) + 1} leads this hand, not seat "
            f"{leader + 1}"
        )
    state = FanTanState(
        config, seed, hand_number, dealer, leader, leader, tuple(start_hands), 0,
        config.start_rank, (), (0,) * players, scores, pool, last_winner, False,
    )  # fmt: skip
    for number, action in enumerate(history, start=1):
        if hand_winner(state) is not None:
            raise NotationError(f"the hand was over before action {number} ({action})")
        if not game.is_legal(state, action):
            raise NotationError(
                f"action {number} ({action}) is illegal: {game.explain_illegal(state, action)}"
            )
        state = step(state, action)
    state = dataclasses.replace(
        state, scores=scores, pool=pool, finished=hand_winner(state) is not None
    )
    problems = state_problems(state)
    if problems:
        raise NotationError("impossible position: " + "; ".join(problems))
    return state


def state_problems(state: FanTanState) -> list[str]:
    """Every rule invariant ``state`` breaks (empty when all hold)."""
    from fanfold.games.fantan.game import (
        deal_sizes,
        dealer_of,
        hand_winner,
        history_seats,
        leader_of,
    )

    config = state.config
    players = config.players
    problems: list[str] = []
    if not len(state.hands) == len(state.passes) == len(state.scores) == players:
        return [f"hands, passes and scores must have {players} entries"]
    held = 0
    for hand in state.hands:
        if held & hand:
            problems.append("two seats hold the same card")
        held |= hand
    if held & state.layout:
        problems.append("a card is both held and on the layout")
    if held | state.layout != ALL_CARDS:
        problems.append("some cards are neither held nor on the layout")
    played = 0
    passes = [0] * players
    start_hands = list(state.hands)
    first_rank: int | None = None
    for seat, action in zip(
        history_seats(state.leader, players, len(state.history)), state.history, strict=True
    ):
        if isinstance(action, Pass):
            passes[seat] += 1
        else:
            played |= 1 << action.index
            start_hands[seat] |= 1 << action.index
            if first_rank is None:
                first_rank = CARDS[action.index].rank
    if played != state.layout:
        problems.append("the layout is not the cards played this hand")
    if tuple(passes) != state.passes:
        problems.append("the pass counts do not match this hand's passes")
    expected_rank = config.start_rank if config.start_rank is not None else first_rank
    if state.start_rank != expected_rank:
        problems.append(f"the starting rank should be {expected_rank}")
    if state.start_rank is not None and not is_valid_layout(
        state.layout, suit_table(state.start_rank, config.ace_high, config.up_before_down)
    ):
        problems.append("a row of the layout is not a run from its starting card")
    if state.dealer != dealer_of(players, state.hand_number):
        problems.append(f"hand {state.hand_number + 1} is dealt by another seat")
    if tuple(hand.bit_count() for hand in start_hands) != deal_sizes(players, state.dealer):
        problems.append("the hands do not add up to the deal")
    if state.leader != leader_of(config, state.dealer, start_hands):
        problems.append("the wrong seat leads this hand")
    if config.hands and state.hand_number >= config.hands:
        problems.append(f"the match has only {config.hands} hands")
    winner = hand_winner(state)
    if state.finished != (winner is not None):
        problems.append("the match is over exactly when a seat has no cards")
    expected_to_move = (state.leader + len(state.history) - (1 if state.finished else 0)) % players
    if state.to_move != expected_to_move:
        problems.append(f"seat {expected_to_move + 1} should be to move")
    problems.extend(_score_problems(state))
    return problems


def _score_problems(state: FanTanState) -> list[str]:
    from fanfold.games.fantan.game import is_match_over as match_over

    config = state.config
    problems = []
    scores = state.scores
    if config.scoring is Scoring.CHIPS:
        if sum(scores) + state.pool != 0:
            problems.append("the chips in play do not add up")
        expected_pool = (
            0
            if state.finished
            else config.ante * config.players + config.pass_chips * sum(state.passes)
        )
        if state.pool != expected_pool:
            problems.append(f"the pool should hold {expected_pool} chips")
        before = [
            score + config.ante + config.pass_chips * passes
            for score, passes in zip(scores, state.passes, strict=True)
        ]
    else:
        if state.pool != 0:
            problems.append("only chip scoring has a pool")
        if any(score < 0 for score in scores):
            problems.append("scores cannot be negative")
        before = list(scores)
        if config.scoring is Scoring.PLAIN:
            won = state.hand_number + (1 if state.finished else 0)
            if sum(scores) != won:
                problems.append(f"{won} hands have been won, not {sum(scores)}")
    if state.finished and not match_over(config, state.hand_number, scores):
        problems.append("the match should go on to another hand")
    target = config.target
    if (
        not state.finished
        and state.hand_number > 0
        and target is not None
        and max(before) >= target
    ):
        problems.append("the target was reached, so the match should be over")
    if state.last_winner is None and state.hand_number > 0:
        problems.append("a later hand must name the previous hand's winner")
    if state.last_winner is not None and state.hand_number == 0:
        problems.append("the first hand has no previous winner")
    return problems


__all__ = ["parse_position", "state_problems"]
