"""Fan patience rules: the deal, legal moves, applying them, the end of the game.

Everything the rules decide is decided here, once (rules text: seeds/004; readings:
``docs/rules/fan.md``). :func:`why_illegal` is the single source of legality: a move is legal
exactly when it returns ``None``, and :func:`legal_moves` lists exactly those moves (tested).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import fanfold.games.fan.refusals  # noqa: F401  (registers the refusals' templates)
from fanfold.core.cards import Card
from fanfold.core.errors import ConfigError, NotationError, Refusal, reason_of
from fanfold.core.game import Outcome, Termination
from fanfold.core.phrases import Phrase, phrases
from fanfold.games.fan.actions import FanMove
from fanfold.games.fan.config import FanConfig
from fanfold.games.fan.deals import KING, deal_fans
from fanfold.games.fan.state import FanState, make_state


def new_state(config: FanConfig, deal: int) -> FanState:
    """PySolFC's Fan deal number ``deal`` (0 or more)."""
    if deal < 0:
        raise ConfigError(Refusal("fan.deal_number", deal=deal))
    return make_state(config, deal_fans(deal), deal=deal)


def run_length(fan: Sequence[Card]) -> int:
    """How many cards at the top of ``fan`` form a run: one suit, each one rank below the last."""
    if not fan:
        return 0
    length = 1
    while length < len(fan):
        upper, lower = fan[-length], fan[-length - 1]
        if upper.suit is not lower.suit or upper.rank + 1 != lower.rank:
            break
        length += 1
    return length


def legal_moves(state: FanState) -> tuple[FanMove, ...]:
    """Every legal move, in a stable order: by source fan, foundation first, then by target."""
    if state.is_won:
        return ()
    config = state.config
    fans = state.fans
    moves: list[FanMove] = []
    for source, fan in enumerate(fans, start=1):
        if not fan:
            continue
        top = fan[-1]
        if state.foundations[top.suit.order] + 1 == top.rank:
            moves.append(FanMove(source, None))
        longest = run_length(fan) if config.sequence_moves else 1
        for count in range(1, longest + 1):
            head = fan[-count]
            for target, other in enumerate(fans, start=1):
                if target == source:
                    continue
                if other:
                    below = other[-1]
                    if below.suit is head.suit and below.rank == head.rank + 1:
                        moves.append(FanMove(source, target, count))
                elif count < len(fan) and (config.any_card_to_empty or head.rank == KING):
                    moves.append(FanMove(source, target, count))
    moves.sort(key=_move_order)
    return tuple(moves)


def _move_order(move: FanMove) -> tuple[int, int, int]:
    return (move.source, 0 if move.target is None else move.target, move.count)


def why_illegal(state: FanState, move: FanMove) -> Refusal | None:
    """A sentence saying why ``move`` breaks a rule here, or ``None`` when it is legal."""
    if state.is_won:
        return Refusal("fan.won")
    fans = state.fans
    for number in (move.source, move.target):
        if number is not None and not 1 <= number <= len(fans):
            return Refusal("fan.no_such_fan", fan=number, fans=len(fans))
    fan = fans[move.source - 1]
    if not fan:
        return Refusal("fan.empty", fan=move.source)
    if move.count < 1:
        return Refusal("fan.no_cards")
    if move.count > 1 and not state.config.sequence_moves:
        return Refusal("fan.one_at_a_time")
    if move.count > len(fan):
        return Refusal("fan.too_few", fan=move.source, count=len(fan))
    if move.count > run_length(fan):
        return Refusal("fan.not_a_run", count=move.count, fan=move.source)
    head = fan[-move.count]
    if move.target is None:
        if move.count != 1:
            return Refusal("fan.home_one_at_a_time")
        have = state.foundations[head.suit.order]
        if have + 1 != head.rank:
            needed = Card(have + 1, head.suit) if have < KING else None
            return Refusal(
                "fan.not_next_home", card=str(head), suit=head.suit.name.lower(), needed=str(needed)
            )
        return None
    if move.target == move.source:
        return Refusal("fan.same_fan")
    target = fans[move.target - 1]
    if target:
        below = target[-1]
        if below.suit is not head.suit or below.rank != head.rank + 1:
            return Refusal("fan.not_down_by_suit", card=str(head), below=str(below))
        return None
    if not state.config.any_card_to_empty and head.rank != KING:
        return Refusal("fan.king_only", card=str(head))
    if move.count == len(fan):
        return Refusal("fan.empty_to_empty", fan=move.source)
    return None


def apply_move(state: FanState, move: FanMove) -> FanState:
    """The position after a legal move (not checked)."""
    fans = list(state.fans)
    source = fans[move.source - 1]
    moving = source[-move.count :]
    fans[move.source - 1] = source[: -move.count]
    foundations = state.foundations
    if move.target is None:
        card = moving[0]
        as_list = list(foundations)
        as_list[card.suit.order] = card.rank
        foundations = (as_list[0], as_list[1], as_list[2], as_list[3])
    else:
        fans[move.target - 1] = fans[move.target - 1] + moving
    return FanState(state.config, tuple(fans), foundations, state.deal)


phrases(
    {
        "fan.all_home": "all 52 cards are on the foundations",
        "fan.stuck": "no legal move is left with {count} of 52 cards on the foundations",
    }
)


def outcome(state: FanState) -> Outcome | None:
    """Won with every card home; lost when no legal move is left; ``None`` while play goes on."""
    if state.is_won:
        return Outcome(
            "won: all 52 cards are on the foundations",
            (1.0,),
            termination=Termination.ALL_ON_FOUNDATIONS,
        )
    if not legal_moves(state):
        return Outcome(
            f"lost: no legal move is left with {state.cards_on_foundations} of 52 cards "
            "on the foundations",
            (0.0,),
            termination=Termination.NO_MOVE,
        )
    return None


def ending_words(state: FanState) -> Phrase | None:
    """How the game ended, in words a page words in its language (a
    :class:`~fanfold.core.phrases.Phrase`, the English of :func:`outcome`'s reason);
    ``None`` while play goes on. Apart from :func:`outcome`, which the bots' playouts call:
    they never pay for the words."""
    ended = _worded_outcome(state)
    return None if ended is None else cast(Phrase, ended.reason)


def _worded_outcome(state: FanState) -> Outcome | None:
    """:func:`outcome`, its reason a :class:`~fanfold.core.phrases.Phrase`."""
    if state.is_won:
        return Outcome(
            Phrase("words.won", why=Phrase("fan.all_home")),
            (1.0,),
            termination=Termination.ALL_ON_FOUNDATIONS,
        )
    if not legal_moves(state):
        return Outcome(
            Phrase("words.lost", why=Phrase("fan.stuck", count=state.cards_on_foundations)),
            (0.0,),
            termination=Termination.NO_MOVE,
        )
    return None


def invariant_violations(state: FanState) -> list[str]:
    """Rule invariants ``state`` breaks: every card exactly once, in a fan or home."""
    try:
        make_state(state.config, state.fans, state.foundations)
    except NotationError as error:
        return [reason_of(error)]
    return []
