"""Moving cards between a player's places: the small immutable edits every rule is made of.

States are frozen tuples; these helpers build the changed copies. They are the apply path's
hot spot, so :func:`edit_player` and :func:`edit_state` list the fields by hand instead of
calling ``dataclasses.replace``.
"""

from __future__ import annotations

import enum

from fanfold.games.fano.cards import TEMP_JOKER, base_card
from fanfold.games.fano.config import Special
from fanfold.games.fano.state import FanoState, Pending, Phase, PlayerState

#: Cards a player may have in play at once.
FIELD_SLOTS = 4


class Keep(enum.Enum):
    """Marks a state field that :func:`edit_state` leaves as it was (``None`` is a value)."""

    KEEP = 0


KEEP = Keep.KEEP


def edit_player(
    p: PlayerState,
    *,
    hand: tuple[int, ...] | None = None,
    field: tuple[int, ...] | None = None,
    draw: tuple[int, ...] | None = None,
    up: tuple[int, ...] | None = None,
    down: tuple[int, ...] | None = None,
    known: tuple[int, ...] | None = None,
    level: int = -1,
    specials: tuple[tuple[int, Special], ...] | None = None,
    protected: tuple[int, ...] | None = None,
    shuffles: int = -1,
    temp_jokers: int = -1,
    tribute: int = -1,
    hidden: tuple[int, ...] | None = None,
) -> PlayerState:
    """``p`` with the given fields changed: ``dataclasses.replace`` without its generic cost."""
    return PlayerState(
        p.hand if hand is None else hand,
        p.field if field is None else field,
        p.draw if draw is None else draw,
        p.up if up is None else up,
        p.down if down is None else down,
        p.known if known is None else known,
        p.level if level < 0 else level,
        p.specials if specials is None else specials,
        p.protected if protected is None else protected,
        p.shuffles if shuffles < 0 else shuffles,
        p.temp_jokers if temp_jokers < 0 else temp_jokers,
        p.tribute if tribute < 0 else tribute,
        p.hidden if hidden is None else hidden,
    )


def edit_state(
    s: FanoState,
    *,
    players: tuple[PlayerState, ...] | None = None,
    turn_player: int = -1,
    phase: Phase | None = None,
    turn: int = -1,
    pending: Pending | Keep | None = KEEP,
    target_seat: int | Keep | None = KEEP,
    priority: int = -1,
) -> FanoState:
    """``s`` with the given fields changed (see :func:`edit_player`)."""
    return FanoState(
        s.config,
        s.seed,
        s.players if players is None else players,
        s.turn_player if turn_player < 0 else turn_player,
        s.phase if phase is None else phase,
        s.turn if turn < 0 else turn,
        s.pending if pending is KEEP else pending,
        s.target_seat if target_seat is KEEP else target_seat,
        s.priority if priority < 0 else priority,
    )


def replace_seat(
    players: tuple[PlayerState, ...], seat: int, player: PlayerState
) -> tuple[PlayerState, ...]:
    """``players`` with ``seat``'s entry replaced by ``player``."""
    return (*players[:seat], player, *players[seat + 1 :])


def remove_card(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    """``cards`` less one copy of ``card`` (which must be there)."""
    index = cards.index(card)
    return cards[:index] + cards[index + 1 :]


def insert_card(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    """The sorted ``cards`` with ``card`` added in its place."""
    return tuple(sorted((*cards, card)))


def leave_field(player: PlayerState, card: int, face_up: bool = True) -> PlayerState:
    """``card`` leaves ``player``'s field (and its Perfect defense or face-down mark) for the
    discard pile, face up or face down; a Temporary Joker leaves the game instead, and a
    declared joker becomes wild again."""
    field = remove_card(player.field, card)
    protected = player.protected
    if card in protected:
        protected = remove_card(protected, card)
    hidden = player.hidden
    if card in hidden:
        hidden = remove_card(hidden, card)
    base = base_card(card)
    if base == TEMP_JOKER:
        return edit_player(
            player,
            field=field,
            protected=protected,
            hidden=hidden,
            temp_jokers=player.temp_jokers - 1,
        )
    if face_up:
        return edit_player(
            player, field=field, protected=protected, hidden=hidden, up=insert_card(player.up, base)
        )
    return edit_player(
        player,
        field=field,
        protected=protected,
        hidden=hidden,
        down=insert_card(player.down, base),
    )


def return_to_hand(player: PlayerState, card: int) -> PlayerState:
    """``card`` goes from ``player``'s field back to the hand, seen by everyone (a combine's
    returned card)."""
    protected = player.protected
    if card in protected:
        protected = remove_card(protected, card)
    return edit_player(
        player,
        field=remove_card(player.field, card),
        protected=protected,
        hand=insert_card(player.hand, card),
        known=insert_card(player.known, card),
    )


def take_from_hand(
    player: PlayerState, card: int, field: tuple[int, ...] | None = None
) -> PlayerState:
    """Take ``card`` (a declared joker: the joker) from the hand; ``field``, when given,
    becomes the field in the same step."""
    card = base_card(card)
    known = player.known
    if card in known:
        known = remove_card(known, card)
    return edit_player(player, hand=remove_card(player.hand, card), known=known, field=field)


def enter_play(player: PlayerState, card: int) -> PlayerState:
    """``card`` (a declared joker: with its value) goes from the hand into play."""
    return take_from_hand(player, card, field=insert_card(player.field, card))
