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
from fanfold.core.phrases import Phrase, PhraseParam, joined, phrases
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


phrases(
    {
        "fano.choice.pass": "Pass: end the turn",
        "fano.choice.allow": "Allow: no counter",
        "fano.choice.keep": "Keep this hand",
        "fano.choice.mulligan": "Mulligan: discard them face up and draw three",
        "fano.choice.shuffle": "Reshuffle the discard pile",
        "fano.choice.shuffle_joker": "Reshuffle with a Temporary Joker",
        "fano.choice.joker": "Spades joker: a joker on top of your draw pile (3 tribute)",
        "fano.choice.card_of": "{card} of Player {number}",
        "fano.choice.promote": "Promote your commander with {cards}",
        "fano.choice.defend": "Perfect defense on {card}",
        "fano.choice.flip": "Flip {card} face up",
        "fano.choice.sacrifice": "Sacrifice your face-down {card} instead",
        "fano.choice.play": "Play {card}",
        "fano.choice.play_down": "Play {card} face down (Perfect defense)",
        "fano.choice.sub": "Substitute: {removed} to the discard pile, {card} into play",
        "fano.choice.sub_down": (
            "Substitute: {removed} to the discard pile, {card} into play face down"
        ),
        "fano.choice.discard_one": "Discard {card} face down",
        "fano.choice.discard": "Discard {count} cards face down",
        "fano.choice.recruit": "Recruit {card} with {first} and {second}",
        "fano.choice.attack": (
            "Attack {target} with {attacker}: {support} from hand enters play{reverse}"
        ),
        "fano.choice.declare": (
            "Declare: {attacker} attacks {target}{whom}{reverse}; it needs a {needs}, {holding}"
        ),
        "fano.choice.of_player": " of Player {number}",
        "fano.choice.you_hold": "you hold {card}",
        "fano.choice.bluff": "you hold none: a bluff",
        "fano.choice.combine": "{first} + {second} → {result}{oversum}{after}",
        "fano.choice.back": ", {card} back to your hand",
        "fano.choice.discarded": ", both to the discard pile",
        "fano.choice.counter": "Counter: {recruit}{first} + {second} → {result}{back}",
        "fano.choice.recruiting": "recruit {card} with {first} and {second}, then ",
        # shared with the moves told in words (fanfold.games.fano.words)
        "fano.reverse": " (Reverse Fano)",
        "fano.oversum": " (Oversum)",
        "fano.back": ", {card} back to hand",
    }
)

#: The actions taken by a button of their own: their kind and their words' code.
_SIMPLE: dict[str, tuple[str, str]] = {
    "pass": ("pass", "fano.choice.pass"),
    "allow": ("allow", "fano.choice.allow"),
    "keep": ("keep", "fano.choice.keep"),
    "mulligan": ("mulligan", "fano.choice.mulligan"),
    "shuffle": ("shuffle", "fano.choice.shuffle"),
    "shuffle joker": ("shuffle", "fano.choice.shuffle_joker"),
    "joker": ("joker", "fano.choice.joker"),
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
            kind, code = _SIMPLE[text]
            return Choice(text, kind, Phrase(code))
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
            words: list[PhraseParam] = [
                card_name(card)
                if owner is None
                else Phrase("fano.choice.card_of", card=card_name(card), number=owner + 1)
                for card, owner in zip(action.cards, owners, strict=True)
            ]
            details: JSONObject = {
                "cards": [card_text(card) for card in action.cards],
                "owners": list[JSONValue](owners),
            }
            label = Phrase("fano.choice.promote", cards=joined(words))
            return Choice(text, "promote", label, (), details)
        if isinstance(action, fa.Defend):
            return Choice(
                text,
                "defend",
                Phrase("fano.choice.defend", card=card_name(action.card)),
                (self.field(action.card),),
                {"card": card_text(action.card)},
            )
        if isinstance(action, fa.Flip):
            points = () if self.view.phase is Phase.REACT else (self.field(action.card),)
            return Choice(
                text,
                "flip",
                Phrase("fano.choice.flip", card=card_name(action.card)),
                points,
                {"card": card_text(action.card)},
            )
        if isinstance(action, fa.Sacrifice):
            return Choice(
                text,
                "sacrifice",
                Phrase("fano.choice.sacrifice", card=card_name(action.card)),
                (),
                {"card": card_text(action.card)},
            )
        if isinstance(action, fa.Play):
            code = "fano.choice.play_down" if action.face_down else "fano.choice.play"
            return Choice(
                text,
                "play",
                Phrase(code, card=card_name(action.card)),
                (self.hand(action.card),),
                {
                    "card": _from_hand(action.card),
                    "value": value_of(action.card),
                    "face_down": action.face_down,
                },
            )
        if isinstance(action, fa.Substitute):
            code = "fano.choice.sub_down" if action.face_down else "fano.choice.sub"
            return Choice(
                text,
                "sub",
                Phrase(code, removed=card_name(action.removed), card=card_name(action.card)),
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
            what = (
                Phrase("fano.choice.discard_one", card=card_name(cards[0]))
                if len(cards) == 1
                else Phrase("fano.choice.discard", count=len(cards))
            )
            texts: list[JSONValue] = [card_text(card) for card in cards]
            return Choice(
                text,
                "discard",
                what,
                tuple(hand_refs(self.me, cards)),
                {"cards": texts},
            )
        assert isinstance(action, fa.Recruit)
        return Choice(
            text,
            "recruit",
            Phrase(
                "fano.choice.recruit",
                card=card_name(action.card),
                first=card_name(action.first),
                second=card_name(action.second),
            ),
            (self.hand(action.card), self.field(action.first), self.field(action.second)),
            {
                "card": _from_hand(action.card),
                "value": value_of(action.card),
                "with": [card_text(action.first), card_text(action.second)],
            },
        )

    def attack(self, text: str, action: fa.Attack) -> Choice:
        seat = (self.me + 1) % self.count
        reverse: PhraseParam = Phrase("fano.reverse") if action.reverse else ""
        return Choice(
            text,
            "attack",
            Phrase(
                "fano.choice.attack",
                target=card_name(action.target),
                attacker=card_name(action.attacker),
                support=card_name(action.support),
                reverse=reverse,
            ),
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
        whom: PhraseParam = ""
        if action.seat is not None:
            whom = Phrase("fano.choice.of_player", number=action.seat + 1)
        reverse: PhraseParam = Phrase("fano.reverse") if action.reverse else ""
        holding = (
            Phrase("fano.choice.you_hold", card=card_name(supports[0]))
            if supports
            else Phrase("fano.choice.bluff")
        )
        label = Phrase(
            "fano.choice.declare",
            attacker=card_name(action.attacker),
            target=card_name(action.target),
            whom=whom,
            reverse=reverse,
            needs=needs,
            holding=holding,
        )
        return Choice(
            text,
            "declare",
            label,
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
            Phrase("fano.choice.back", card=card_name(action.returned))
            if action.returned
            else Phrase("fano.choice.discarded")
        )
        oversum: PhraseParam = Phrase("fano.oversum") if action.oversum else ""
        return Choice(
            text,
            "combine",
            Phrase(
                "fano.choice.combine",
                first=card_name(one),
                second=card_name(two),
                result=card_name(result),
                oversum=oversum,
                after=after,
            ),
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

        first: PhraseParam = ""
        if action.recruiters:
            one, two = action.recruiters
            first = Phrase(
                "fano.choice.recruiting",
                card=card_name(recruited),
                first=card_name(one),
                second=card_name(two),
            )
        back: PhraseParam = ""
        if action.returned:
            back = Phrase("fano.back", card=card_name(action.returned))
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
            Phrase(
                "fano.choice.counter",
                recruit=first,
                first=card_name(action.first),
                second=card_name(action.second),
                result=card_name(action.result),
                back=back,
            ),
            (),
            details,
        )


def choices_for(view: FanoView, actions: Sequence[fa.FanoAction]) -> list[Choice]:
    """The seat's legal ``actions`` described from its ``view``, one choice each, in order."""
    describer = _Describer(view)
    return [describer.describe(action) for action in actions]
