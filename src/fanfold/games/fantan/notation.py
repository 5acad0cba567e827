"""Fan Tan position notation: writing a position, and reading it back under the rules.

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
from collections.abc import Sequence

from fanfold.core.cards import Card
from fanfold.core.errors import (
    ConfigError,
    NotationError,
    Refusal,
    problems_joined,
    reason_of,
    templates,
)
from fanfold.games.fantan.actions import FanTanAction, Play, parse_action
from fanfold.games.fantan.cards import ALL_CARDS, CARDS, cards_of
from fanfold.games.fantan.config import FanTanConfig
from fanfold.games.fantan.rules import (
    deal_sizes,
    dealer_of,
    hand_winner,
    history_seats,
    invariant_violations,
    leader_of,
    step,
    why_illegal,
)
from fanfold.games.fantan.state import FanTanState

#: The notation's errors (:class:`~fanfold.core.errors.Refusal`), worded on the play
#: server's page from the same templates translated.
templates(
    {
        "fantan.not_a_number": "{key}= needs a whole number, not '{text}'",
        "fantan.not_a_seat": "{key}= must be a seat from 1 to {players}, not {seat}",
        "fantan.bad_hand": "seat {seat}'s hand: {reason}",
        "fantan.card_twice": "seat {seat}'s hand lists {card} twice",
        "fantan.not_a_position": "a Fan Tan position has three parts separated by '|': the "
        "header (hand= leader= scores= pool= last= seed=), the hands separated by '/', and "
        "this hand's actions",
        "fantan.unknown_item": "unknown header item '{text}'; expected {keys}",
        "fantan.item_twice": "header item {key}= is given twice",
        "fantan.header_lacks": "the header lacks {keys}",
        "fantan.hand_count": "the position has {count} hands: {reason}",
        "fantan.hand_range": "hand= must be 1 to {hands}, not {hand}",
        "fantan.hand_from_one": "hand= must be 1 or more, not {hand}",
        "fantan.scores_count": "scores= needs {players} numbers separated by commas",
        "fantan.card_shared": "seat {seat} holds a card another seat holds",
        "fantan.card_again": "{card} is both held or played more than once",
        "fantan.cards_missing": "every card must be held or played; missing: {cards}",
        "fantan.deal_sizes": "the seats were dealt {sizes} cards, but a deal by seat {dealer} "
        "gives {dealt}",
        "fantan.wrong_leader": "seat {leader} leads this hand, not seat {seat}",
        "fantan.hand_over": "the hand was over before action {number} ({action})",
        "fantan.action_illegal": "action {number} ({action}) is illegal: {reason}",
    }
)

_KEYS = ("hand", "leader", "scores", "pool", "last", "seed")


def _number(key: str, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise NotationError(Refusal("fantan.not_a_number", key=key, text=text)) from None


def _seat(key: str, text: str, players: int) -> int:
    seat = _number(key, text)
    if not 1 <= seat <= players:
        raise NotationError(Refusal("fantan.not_a_seat", key=key, players=players, seat=seat))
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
            raise NotationError(
                Refusal("fantan.bad_hand", seat=seat + 1, reason=reason_of(error))
            ) from None
        if mask >> card.index & 1:
            raise NotationError(Refusal("fantan.card_twice", seat=seat + 1, card=str(card)))
        mask |= 1 << card.index
    return mask


def format_position(state: FanTanState) -> str:
    """The position: header, hands and this hand's actions (see the module docstring)."""
    header = (
        f"hand={state.hand_number + 1} leader={state.leader + 1} "
        f"scores={_scores_text(state.scores)} pool={state.pool} "
        f"last={'-' if state.last_winner is None else state.last_winner + 1} "
        f"seed={state.seed}"
    )
    hands = " / ".join(_hand_text(hand) for hand in state.hands)
    history = " ".join(str(action) for action in state.history) or "-"
    return f"{header} | {hands} | {history}"


def _scores_text(scores: Sequence[int]) -> str:
    return ",".join(str(score) for score in scores)


def _hand_text(mask: int) -> str:
    return " ".join(str(card) for card in cards_of(mask)) or "-"


def parse_position(text: str, config: FanTanConfig | None = None) -> FanTanState:
    """Read a position, replaying its hand under the rules. Raises :class:`NotationError`."""
    parts = text.split("|")
    if len(parts) != 3:
        raise NotationError(Refusal("fantan.not_a_position"))
    header: dict[str, str] = {}
    for token in parts[0].split():
        key, sep, value = token.partition("=")
        if not sep or key not in _KEYS:
            raise NotationError(Refusal("fantan.unknown_item", text=token, keys=", ".join(_KEYS)))
        if key in header:
            raise NotationError(Refusal("fantan.item_twice", key=key))
        header[key] = value
    missing = [key for key in _KEYS if key not in header]
    if missing:
        raise NotationError(
            Refusal("fantan.header_lacks", keys=", ".join(key + "=" for key in missing))
        )
    seat_texts = parts[1].split("/")
    try:  # the position's hands say how many play; the config says the rest
        if config is None:
            config = FanTanConfig(players=len(seat_texts))
        elif config.players != len(seat_texts):
            config = config.replace(players=len(seat_texts))
    except ConfigError as error:
        raise NotationError(
            Refusal("fantan.hand_count", count=len(seat_texts), reason=reason_of(error))
        ) from None
    players = config.players
    hands = [_hand(seat_text, seat) for seat, seat_text in enumerate(seat_texts)]
    history_tokens = parts[2].split()
    if history_tokens == ["-"]:
        history_tokens = []
    history: list[FanTanAction] = [parse_action(token) for token in history_tokens]

    hand_number = _number("hand", header["hand"]) - 1
    if hand_number < 0 or (config.hands and hand_number >= config.hands):
        if config.hands:
            raise NotationError(
                Refusal("fantan.hand_range", hands=config.hands, hand=hand_number + 1)
            )
        raise NotationError(Refusal("fantan.hand_from_one", hand=hand_number + 1))
    leader = _seat("leader", header["leader"], players)
    scores_text = header["scores"].split(",")
    if len(scores_text) != players:
        raise NotationError(Refusal("fantan.scores_count", players=players))
    scores = tuple(_number("scores", item) for item in scores_text)
    pool = _number("pool", header["pool"])
    last_winner = None if header["last"] == "-" else _seat("last", header["last"], players)
    seed = _number("seed", header["seed"])

    played = 0
    start_hands = list(hands)
    held = 0
    for seat, hand in enumerate(hands):
        if held & hand:
            raise NotationError(Refusal("fantan.card_shared", seat=seat + 1))
        held |= hand
    for seat, action in zip(history_seats(leader, players, len(history)), history, strict=True):
        if isinstance(action, Play):
            bit = 1 << action.index
            if (played | held) & bit:
                raise NotationError(Refusal("fantan.card_again", card=str(action)))
            played |= bit
            start_hands[seat] |= bit
    if played | held != ALL_CARDS:
        missing_cards = " ".join(str(c) for c in CARDS if not (played | held) >> c.index & 1)
        raise NotationError(Refusal("fantan.cards_missing", cards=missing_cards))
    dealer = dealer_of(players, hand_number)
    sizes = tuple(hand.bit_count() for hand in start_hands)
    if sizes != deal_sizes(players, dealer):
        raise NotationError(
            Refusal(
                "fantan.deal_sizes",
                sizes=", ".join(map(str, sizes)),
                dealer=dealer + 1,
                dealt=", ".join(map(str, deal_sizes(players, dealer))),
            )
        )
    if leader != leader_of(config, dealer, start_hands):
        raise NotationError(
            Refusal(
                "fantan.wrong_leader",
                leader=leader_of(config, dealer, start_hands) + 1,
                seat=leader + 1,
            )
        )
    state = FanTanState(
        config, seed, hand_number, dealer, leader, leader, tuple(start_hands), 0,
        config.start_rank, (), (0,) * players, scores, pool, last_winner, False,
    )  # fmt: skip
    for number, action in enumerate(history, start=1):
        if hand_winner(state) is not None:
            raise NotationError(Refusal("fantan.hand_over", number=number, action=str(action)))
        reason = why_illegal(state, action)
        if reason is not None:
            raise NotationError(
                Refusal("fantan.action_illegal", number=number, action=str(action), reason=reason)
            )
        state = step(state, action)
    state = dataclasses.replace(
        state, scores=scores, pool=pool, finished=hand_winner(state) is not None
    )
    problems = invariant_violations(state)
    if problems:
        raise NotationError(Refusal("game.impossible_position", problems=problems_joined(problems)))
    return state


__all__ = ["format_position", "parse_position"]
