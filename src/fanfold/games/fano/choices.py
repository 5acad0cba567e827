"""Fano's legal actions described for the player who decides: what to point at, in words.

References (``points``) name the cards a player clicks, as the view JSON names them:

* ``f:SEAT:CARD``: a card in play (face up, or the seat's own face-down card), ``CARD`` as the
  view writes it (``JK4``: a joker in play as a 4); the view lists them in each player's
  ``field_refs`` and in ``face_down_in_play_refs``;
* ``h:SEAT:CARD``: a card in the seat's own hand; the second of two equal hand cards (two
  Temporary Jokers) is ``h:SEAT:TJ~1``; the view lists them in ``hand_refs``.

An attack or declaration points at the attacker, then the target; a combine at its two cards;
a substitute at the card in play, then the hand card; a play at the hand card; a discard at
every card discarded; a recruit at the hand card, then the two recruiters; defend (and flip
outside a counter window) at the card. The other actions have no points: a button each.

``details`` name cards by their text as the view shows them (a joker from hand as ``JK`` or
``TJ``, with the value it enters play as beside it).
"""

from __future__ import annotations

from collections.abc import Sequence

from fanfold.core.config import JSONObject, JSONValue
from fanfold.core.game import Choice
from fanfold.core.phrases import Phrase, phrases
from fanfold.games.fano import actions as fa
from fanfold.games.fano.cards import (
    SUIT_SYMBOLS,
    WILD,
    base_card,
    card_text,
    is_joker,
    kind_of,
    value_of,
)
from fanfold.games.fano.rules.attacks import hand_cards, support_value
from fanfold.games.fano.state import Phase
from fanfold.games.fano.view import FanoView, field_ref, hand_refs

phrases(
    {
        "fano.joker": "joker",
        "fano.temporary_joker": "temporary joker",
        "fano.joker_as": "{joker} as {value}",
    }
)


def card_name(card: int) -> str:
    """A card in words for a player: ``3♥``, ``10♠``, ``joker``, ``temporary joker as 4``."""
    value = value_of(card)
    if is_joker(card):
        name = Phrase("fano.joker" if kind_of(card) == WILD else "fano.temporary_joker")
        return Phrase("fano.joker_as", joker=name, value=value) if value else name
    return ("A" if value == 1 else str(value)) + SUIT_SYMBOLS[kind_of(card)]


def _from_hand(card: int) -> str:
    """A hand card's text as the view's hand shows it (a joker without its declared value)."""
    return card_text(base_card(card))


def _arrow(attacker: int, target: int, reverse: bool) -> list[JSONValue]:
    """The plane's arrow an attack goes along, as two point values (Reverse Fano: the arrow
    it turns round)."""
    ends: list[JSONValue] = [value_of(attacker), value_of(target)]
    return ends[::-1] if reverse else ends


_SIMPLE: dict[str, tuple[str, str]] = {
    "pass": ("pass", "Pass: end the turn"),
    "allow": ("allow", "Allow: no counter"),
    "keep": ("keep", "Keep this hand"),
    "mulligan": ("mulligan", "Mulligan: discard them face up and draw three"),
    "shuffle": ("shuffle", "Reshuffle the discard pile"),
    "shuffle joker": ("shuffle", "Reshuffle with a Temporary Joker"),
    "joker": ("joker", "Spades joker: a joker on top of your draw pile (3 tribute)"),
}


class _Describer:
    """Describes the actions of the seat whose view it holds."""

    def __init__(self, view: FanoView) -> None:
        self.view = view
        self.me = view.player
        self.count = len(view.players)
        self.refs: dict[int, str] = {}
        for card, ref in zip(view.hand, hand_refs(self.me, view.hand), strict=True):
            self.refs.setdefault(card, ref)

    def hand(self, card: int) -> str:
        """The reference of the first hand card that ``card`` is (a declared joker: a joker)."""
        return self.refs[base_card(card)]

    def field(self, card: int, seat: int | None = None) -> str:
        return field_ref(self.me if seat is None else seat, card)

    def describe(self, action: fa.FanoAction) -> Choice:
        text = str(action)
        if isinstance(action, fa.Pass | fa.Allow | fa.Mulligan | fa.Shuffle | fa.PlaceJoker):
            kind, label = _SIMPLE[text]
            return Choice(text, kind, label)
        if isinstance(action, fa.Attack):
            return self.attack(text, action)
        if isinstance(action, fa.Declare):
            return self.declare(text, action)
        if isinstance(action, fa.Combine):
            return self.combine(text, action)
        if isinstance(action, fa.CombineCounter):
            return self.counter(text, action)
        if isinstance(action, fa.Promote):
            owners = action.owners or (None,) * len(action.cards)
            words = [
                card_name(card) + ("" if owner is None else f" of Player {owner + 1}")
                for card, owner in zip(action.cards, owners, strict=True)
            ]
            details: JSONObject = {
                "cards": [card_text(card) for card in action.cards],
                "owners": list[JSONValue](owners),
            }
            return Choice(
                text, "promote", f"Promote your commander with {', '.join(words)}", (), details
            )
        if isinstance(action, fa.Defend):
            return Choice(
                text,
                "defend",
                f"Perfect defense on {card_name(action.card)}",
                (self.field(action.card),),
                {"card": card_text(action.card)},
            )
        if isinstance(action, fa.Flip):
            points = () if self.view.phase is Phase.REACT else (self.field(action.card),)
            return Choice(
                text,
                "flip",
                f"Flip {card_name(action.card)} face up",
                points,
                {"card": card_text(action.card)},
            )
        if isinstance(action, fa.Sacrifice):
            return Choice(
                text,
                "sacrifice",
                f"Sacrifice your face-down {card_name(action.card)} instead",
                (),
                {"card": card_text(action.card)},
            )
        if isinstance(action, fa.Play):
            down = " face down (Perfect defense)" if action.face_down else ""
            return Choice(
                text,
                "play",
                f"Play {card_name(action.card)}{down}",
                (self.hand(action.card),),
                {
                    "card": _from_hand(action.card),
                    "value": value_of(action.card),
                    "face_down": action.face_down,
                },
            )
        if isinstance(action, fa.Substitute):
            down = " face down" if action.face_down else ""
            return Choice(
                text,
                "sub",
                f"Substitute: {card_name(action.removed)} to the discard pile, "
                f"{card_name(action.card)} into play{down}",
                (self.field(action.removed), self.hand(action.card)),
                {
                    "removed": card_text(action.removed),
                    "card": _from_hand(action.card),
                    "value": value_of(action.card),
                    "face_down": action.face_down,
                },
            )
        if isinstance(action, fa.Discard):
            cards = action.cards
            what = card_name(cards[0]) if len(cards) == 1 else f"{len(cards)} cards"
            texts: list[JSONValue] = [card_text(card) for card in cards]
            return Choice(
                text,
                "discard",
                f"Discard {what} face down",
                tuple(hand_refs(self.me, cards)),
                {"cards": texts},
            )
        assert isinstance(action, fa.Recruit)
        return Choice(
            text,
            "recruit",
            f"Recruit {card_name(action.card)} with {card_name(action.first)} and "
            f"{card_name(action.second)}",
            (self.hand(action.card), self.field(action.first), self.field(action.second)),
            {
                "card": _from_hand(action.card),
                "value": value_of(action.card),
                "with": [card_text(action.first), card_text(action.second)],
            },
        )

    def attack(self, text: str, action: fa.Attack) -> Choice:
        seat = (self.me + 1) % self.count
        reverse = " (Reverse Fano)" if action.reverse else ""
        return Choice(
            text,
            "attack",
            f"Attack {card_name(action.target)} with {card_name(action.attacker)}: "
            f"{card_name(action.support)} from hand enters play{reverse}",
            (self.field(action.attacker), self.field(action.target, seat)),
            {
                "attacker": card_text(action.attacker),
                "target": card_text(action.target),
                "seat": seat,
                "needs": value_of(action.support),
                "support": _from_hand(action.support),
                "reverse": action.reverse,
                "arrow": _arrow(action.attacker, action.target, action.reverse),
            },
        )

    def declare(self, text: str, action: fa.Declare) -> Choice:
        view = self.view
        if action.seat is not None:
            seat = action.seat
        elif view.target_seat is not None:
            seat = view.target_seat
        else:
            seat = (self.me + 1) % self.count
        needs = support_value(value_of(action.attacker), value_of(action.target), action.reverse)
        supports = hand_cards(view.hand, needs)
        held = _from_hand(supports[0]) if supports else None
        whom = f" of Player {action.seat + 1}" if action.seat is not None else ""
        reverse = " (Reverse Fano)" if action.reverse else ""
        holding = f"you hold {card_name(supports[0])}" if supports else "you hold none: a bluff"
        return Choice(
            text,
            "declare",
            f"Declare: {card_name(action.attacker)} attacks {card_name(action.target)}{whom}"
            f"{reverse}; it needs a {needs}, {holding}",
            (self.field(action.attacker), self.field(action.target, seat)),
            {
                "attacker": card_text(action.attacker),
                "target": card_text(action.target),
                "seat": seat,
                "needs": needs,
                "held": held,
                "bluff": held is None,
                "reverse": action.reverse,
                "arrow": _arrow(action.attacker, action.target, action.reverse),
            },
        )

    def combine(self, text: str, action: fa.Combine) -> Choice:
        one, two, result = action.first, action.second, action.result
        after = (
            f", {card_name(action.returned)} back to your hand"
            if action.returned
            else ", both to the discard pile"
        )
        oversum = " (Oversum)" if action.oversum else ""
        return Choice(
            text,
            "combine",
            f"{card_name(one)} + {card_name(two)} → {card_name(result)}{oversum}{after}",
            (self.field(one), self.field(two)),
            {
                "cards": [card_text(one), card_text(two)],
                "sum": value_of(one) + value_of(two),
                "result": _from_hand(result),
                "value": value_of(result),
                "oversum": action.oversum,
                "returns": card_text(action.returned) if action.returned else None,
            },
        )

    def counter(self, text: str, action: fa.CombineCounter) -> Choice:
        recruited = action.recruited

        def named(card: int) -> str:
            return _from_hand(card) if recruited and card == recruited else card_text(card)

        first = ""
        if action.recruiters:
            one, two = action.recruiters
            first = (
                f"recruit {card_name(recruited)} with {card_name(one)} and {card_name(two)}, then "
            )
        back = f", {card_name(action.returned)} back to hand" if action.returned else ""
        details: JSONObject = {
            "cards": [named(action.first), named(action.second)],
            "sum": value_of(action.first) + value_of(action.second),
            "result": _from_hand(action.result),
            "value": value_of(action.result),
            "returns": named(action.returned) if action.returned else None,
            "recruited": _from_hand(recruited) if recruited else None,
            "with": [card_text(card) for card in action.recruiters],
        }
        return Choice(
            text,
            "counter",
            f"Counter: {first}{card_name(action.first)} + {card_name(action.second)} → "
            f"{card_name(action.result)}{back}",
            (),
            details,
        )


def choices_for(view: FanoView, actions: Sequence[fa.FanoAction]) -> list[Choice]:
    """The seat's legal ``actions`` described from its ``view``, one choice each, in order."""
    describer = _Describer(view)
    return [describer.describe(action) for action in actions]
