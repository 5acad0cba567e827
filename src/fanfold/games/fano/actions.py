"""Fano actions: small immutable values whose ``str()`` is the canonical notation.

=====================  ================================================================
``4H>6S:3H``           attack: your 4H in play attacks the 6S in play with the 3H from hand
``4H>3S:6H reverse``   the same with the Reverse Fano special (arrows reversed)
``1H+4H=5H``           combine 1H and 4H in play for the 5H from hand, both to discard
``1H+4H=5H return 1H`` ... and return the 1H to hand
``5H+6H=9H oversum``   Oversum special: any value below the sum
``3H+4H=JK7``          a joker from hand enters play declared as a 7
``promote 8H 9H TH``   discard three prestige cards in play and promote your commander
``defend 5H``          Perfect defense special on a card in play
``play 5H``            end action: play a combat card (``play JK4``: the joker as a 4)
``sub 8H 5H``          end action: send 8H from play to discard, then play 5H
``discard 8H 9H``      end action: discard any number of hand cards face down
``pass``               end action: do nothing (the same as discarding none)
``mulligan``/``keep``  draw phase, all-prestige hand: discard it face up and draw three, or not
``shuffle``            reshuffle the discard pile (``shuffle joker``: add a Temporary Joker)
=====================  ================================================================

The Trionfey edition adds:

=========================================  ================================================
``4H>6S``                                  declare an attack (support shown on resolving)
``4H>6S@3``                                ... on Player 3 (three players: the chosen foe)
``4H>6S reverse``                          ... with Reverse Fano (tribute special)
``recruit 2H with AH 4H``                  AH and 4H in play bring 2H from hand into play
``counter 3S+2S=5S``                       defender: combine counter with the attacked 3S
``counter 3S+4S=7S recruit 4S with AS 2S``  defender: recruit-combine counter
``... return 2S``                          ... returning one combined card to hand
``allow``                                  defender: no counter, the support is asked for
``joker``                                  Spades special: a joker on top of the draw pile
``play 5D down``                           Diamonds special: end action, a card face down
``sub 8D 5D down``                         ... the same as a substitute (8D leaves face up)
``flip 5D``                                turn a face-down card in play face up
``sacrifice 5D``                           the face-down 5D is discarded instead
=========================================  ================================================

Card lists inside an action are in canonical (value, suit) order. "Discard any number" is one
action carrying the set of cards, so the legal actions stay finite (at most seven discards).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from fanfold.core.errors import NotationError, Refusal, templates
from fanfold.games.fano.cards import card_text, is_joker, parse_card

#: The actions' notation errors (:class:`~fanfold.core.errors.Refusal`), worded on the play
#: server's page from the same templates translated.
templates(
    {
        "fano.empty_move": "empty move; type 'legal' to list the legal moves",
        "fano.defend_form": "defend names one card in play, e.g. defend 5H",
        "fano.play_form": "play names one card from hand, e.g. play 5H, play JK4 or play 5D down",
        "fano.flip_form": "{word} names one face-down card in play, e.g. {word} 5D",
        "fano.sub_form": "sub names the card in play, then the card to play: sub 8H 5H (or sub "
        "8D 5D down)",
        "fano.discard_twice": "discard names each card once (two jokers: discard TJ TJ)",
        "fano.recruit_form": "recruit names the card from hand, then two in play: recruit 2H "
        "with AH 4H",
        "fano.recruit_same": "recruiting needs two different cards in play",
        "fano.combine_same": "a combine needs two different cards in play",
        "fano.return_other": "only one of the two combined cards can return to hand",
        "fano.return_joker": "a joker can not be returned to hand after a combination",
        "fano.seat_from_one": "players are numbered from 1: write 4H>6S@2",
        "fano.not_a_move": "'{text}' is not a Fano move: try 4H>6S:3H (attack), 1H+4H=5H "
        "return 1H (combine), promote 8H 9H TH, play 5H, sub 8H 5H, discard 9H, pass; 'help' "
        "explains",
        "fano.promote_form": "promote names three prestige cards in play, e.g. promote 8H 9H TH",
        "fano.partner_card": "'{text}': a partner's card is written 8H@3 (Player 3)",
        "fano.counter_form": "a counter is written counter 3S+2S=5S (return 2S), or with a "
        "recruit: counter 3S+4S=7S recruit 4S with AS 2S",
        "fano.counter_same": "a counter combines two different cards",
        "fano.counter_recruited": "the recruited card is one of the two combined cards",
        "fano.counter_recruiters": "two different cards in play recruit a third from hand",
    }
)


@dataclass(frozen=True, slots=True)
class Attack:
    """Attack ``target`` (next player's field) with ``attacker`` (own field), ``support`` from
    hand (a joker support carries its declared value)."""

    attacker: int
    target: int
    support: int
    reverse: bool = False

    def __str__(self) -> str:
        text = f"{card_text(self.attacker)}>{card_text(self.target)}:{card_text(self.support)}"
        return text + " reverse" if self.reverse else text


@dataclass(frozen=True, slots=True)
class Combine:
    """Combine ``first`` and ``second`` (own field, ``first < second``) for ``result`` from
    hand; ``returned`` (0 for none) goes back to hand."""

    first: int
    second: int
    result: int
    returned: int = 0
    oversum: bool = False

    def __str__(self) -> str:
        text = f"{card_text(self.first)}+{card_text(self.second)}={card_text(self.result)}"
        if self.oversum:
            text += " oversum"
        if self.returned:
            text += f" return {card_text(self.returned)}"
        return text


@dataclass(frozen=True, slots=True)
class Promote:
    """Discard three prestige cards in play and promote the commander. ``owners`` (Trionfey
    "One for all") gives, card by card, the partner whose field holds it (None: your own);
    empty when all three are your own."""

    cards: tuple[int, int, int]
    owners: tuple[int | None, ...] = ()

    def __str__(self) -> str:
        owners = self.owners or (None,) * len(self.cards)
        return "promote " + " ".join(
            card_text(card) + ("" if owner is None else f"@{owner + 1}")
            for card, owner in zip(self.cards, owners, strict=True)
        )


@dataclass(frozen=True, slots=True)
class Defend:
    """Perfect defense special: ``card`` in play cannot be removed by opponents."""

    card: int

    def __str__(self) -> str:
        return f"defend {card_text(self.card)}"


@dataclass(frozen=True, slots=True)
class Play:
    """End action: play a combat card from hand to an empty slot (``face_down``: Trionfey
    Perfect defense, the card goes in face down)."""

    card: int
    face_down: bool = False

    def __str__(self) -> str:
        return f"play {card_text(self.card)}" + (" down" if self.face_down else "")


@dataclass(frozen=True, slots=True)
class Substitute:
    """End action: send ``removed`` from play to the discard pile face up, then play ``card``
    (``face_down``: Trionfey Perfect defense, the card goes in face down)."""

    removed: int
    card: int
    face_down: bool = False

    def __str__(self) -> str:
        text = f"sub {card_text(self.removed)} {card_text(self.card)}"
        return text + " down" if self.face_down else text


@dataclass(frozen=True, slots=True)
class Discard:
    """End action: discard one or more hand cards face down (canonical order)."""

    cards: tuple[int, ...]

    def __str__(self) -> str:
        return "discard " + " ".join(card_text(card) for card in self.cards)


@dataclass(frozen=True, slots=True)
class Pass:
    """End action: end the turn doing nothing."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Mulligan:
    """Draw phase, hand entirely prestige: ``take`` discards it face up and draws three."""

    take: bool

    def __str__(self) -> str:
        return "mulligan" if self.take else "keep"


@dataclass(frozen=True, slots=True)
class Shuffle:
    """Reshuffle the discard pile into the draw pile, with a Temporary Joker if ``joker``."""

    joker: bool = False

    def __str__(self) -> str:
        return "shuffle joker" if self.joker else "shuffle"


@dataclass(frozen=True, slots=True)
class Declare:
    """Trionfey: declare an attack of ``attacker`` (own field) on ``target``; the support is
    shown only when the attack resolves. ``seat`` names the attacked player when there are
    three or more players (None with two)."""

    attacker: int
    target: int
    seat: int | None = None
    reverse: bool = False

    def __str__(self) -> str:
        text = f"{card_text(self.attacker)}>{card_text(self.target)}"
        if self.seat is not None:
            text += f"@{self.seat + 1}"
        return text + " reverse" if self.reverse else text


@dataclass(frozen=True, slots=True)
class Recruit:
    """Trionfey: ``first`` and ``second`` in play (``first < second``) bring ``card`` from hand
    into an empty slot; the three distinct values share a line of the plane."""

    card: int
    first: int
    second: int

    def __str__(self) -> str:
        return (
            f"recruit {card_text(self.card)} with {card_text(self.first)} {card_text(self.second)}"
        )


@dataclass(frozen=True, slots=True)
class CombineCounter:
    """Trionfey, the defender's counter: ``first`` and ``second`` (``first < second``, one of
    them the attacked card) combine for ``result`` from hand, and the attack turns on
    ``result``. With ``recruiters`` it is a recruit-combine counter: the two cards in play
    first recruit ``recruited`` (the other combined card) from hand. ``returned`` (0: none)
    goes back to hand."""

    first: int
    second: int
    result: int
    returned: int = 0
    recruited: int = 0
    recruiters: tuple[int, ...] = ()

    def __str__(self) -> str:
        text = f"counter {card_text(self.first)}+{card_text(self.second)}={card_text(self.result)}"
        if self.recruiters:
            text += f" recruit {card_text(self.recruited)} with " + " ".join(
                card_text(card) for card in self.recruiters
            )
        if self.returned:
            text += f" return {card_text(self.returned)}"
        return text


@dataclass(frozen=True, slots=True)
class Flip:
    """Trionfey Perfect defense: turn your face-down ``card`` in play face up."""

    card: int

    def __str__(self) -> str:
        return f"flip {card_text(self.card)}"


@dataclass(frozen=True, slots=True)
class Sacrifice:
    """Trionfey Perfect defense: the attack's support was shown; discard your face-down
    ``card`` (face down) instead of the attacked card."""

    card: int

    def __str__(self) -> str:
        return f"sacrifice {card_text(self.card)}"


@dataclass(frozen=True, slots=True)
class PlaceJoker:
    """Trionfey Spades special: a joker face up on top of your draw pile (3 tribute)."""

    def __str__(self) -> str:
        return "joker"


@dataclass(frozen=True, slots=True)
class Allow:
    """Trionfey, the defender: no counter; the attacker must now show the support."""

    def __str__(self) -> str:
        return "allow"


FanoAction = (
    Attack
    | Combine
    | Promote
    | Defend
    | Play
    | Substitute
    | Discard
    | Pass
    | Mulligan
    | Shuffle
    | Declare
    | Recruit
    | CombineCounter
    | Allow
    | Flip
    | Sacrifice
    | PlaceJoker
)

#: Actions that end the turn.
END_ACTIONS = (Play, Substitute, Discard, Pass)

_ATTACK = re.compile(r"^(\S+?)\s*(?:>|->)\s*(\S+?)\s*(?::|->)\s*(\S+?)(\s+reverse)?$")
_COMBINE = re.compile(r"^(\S+?)\s*\+\s*(\S+?)\s*=\s*(\S+?)(\s+oversum)?(?:\s+return\s+(\S+))?$")
_DECLARE = re.compile(r"^(\S+?)\s*(?:>|->)\s*([^\s@]+?)(?:\s*@\s*(\d))?(\s+reverse)?$")
_RECRUIT = re.compile(r"^recruit\s+(\S+)\s+with\s+(\S+)\s+(\S+)$")
_COUNTER = re.compile(
    r"^counter\s+(\S+?)\s*\+\s*(\S+?)\s*=\s*(\S+?)"
    r"(?:\s+recruit\s+(\S+)\s+with\s+(\S+)\s+(\S+))?(?:\s+return\s+(\S+))?$"
)


def parse_action(text: str) -> FanoAction:
    """Read an action's text (case and extra spaces do not matter).

    Raises:
        NotationError: with a hint at the right form.
    """
    key = " ".join(text.strip().lower().split())
    if not key:
        raise NotationError(Refusal("fano.empty_move"))
    words = key.split(" ")
    head = words[0]
    if key == "pass" or key == "discard":
        return Pass()
    if key in ("mulligan", "keep"):
        return Mulligan(key == "mulligan")
    if key in ("shuffle", "shuffle joker"):
        return Shuffle(key == "shuffle joker")
    if head == "promote":
        return _parse_promote(words[1:])
    if head == "defend":
        if len(words) != 2:
            raise NotationError(Refusal("fano.defend_form"))
        return Defend(parse_card(words[1]))
    if head == "play":
        if len(words) == 3 and words[2] == "down":
            return Play(parse_card(words[1]), face_down=True)
        if len(words) != 2:
            raise NotationError(Refusal("fano.play_form"))
        return Play(parse_card(words[1]))
    if key == "joker":
        return PlaceJoker()
    if head in ("flip", "sacrifice"):
        if len(words) != 2:
            raise NotationError(Refusal("fano.flip_form", word=head))
        card = parse_card(words[1])
        return Flip(card) if head == "flip" else Sacrifice(card)
    if head in ("sub", "substitute"):
        if len(words) == 4 and words[3] == "down":
            return Substitute(parse_card(words[1]), parse_card(words[2]), face_down=True)
        if len(words) != 3:
            raise NotationError(Refusal("fano.sub_form"))
        return Substitute(parse_card(words[1]), parse_card(words[2]))
    if head == "discard":
        cards = tuple(sorted(parse_card(word) for word in words[1:]))
        suited = [card for card in cards if not is_joker(card)]
        if len(set(suited)) != len(suited):
            raise NotationError(Refusal("fano.discard_twice"))
        return Discard(cards)
    if key == "allow":
        return Allow()
    if head == "recruit":
        match = _RECRUIT.match(key)
        if not match:
            raise NotationError(Refusal("fano.recruit_form"))
        card, first, second = (parse_card(match.group(i)) for i in (1, 2, 3))
        if first == second:
            raise NotationError(Refusal("fano.recruit_same"))
        return Recruit(card, min(first, second), max(first, second))
    if head == "counter":
        return _parse_counter(key)
    match = _ATTACK.match(key)
    if match:
        attacker, target, support = (parse_card(match.group(i)) for i in (1, 2, 3))
        return Attack(attacker, target, support, bool(match.group(4)))
    match = _COMBINE.match(key)
    if match:
        first, second, result = (parse_card(match.group(i)) for i in (1, 2, 3))
        if first == second and not is_joker(first):
            raise NotationError(Refusal("fano.combine_same"))
        first, second = min(first, second), max(first, second)
        returned = parse_card(match.group(5)) if match.group(5) else 0
        if returned and returned not in (first, second):
            raise NotationError(Refusal("fano.return_other"))
        if returned and is_joker(returned):
            raise NotationError(Refusal("fano.return_joker"))
        return Combine(first, second, result, returned, bool(match.group(4)))
    match = _DECLARE.match(key)
    if match:
        attacker, target = parse_card(match.group(1)), parse_card(match.group(2))
        seat = int(match.group(3)) - 1 if match.group(3) else None
        if seat is not None and seat < 0:
            raise NotationError(Refusal("fano.seat_from_one"))
        return Declare(attacker, target, seat, bool(match.group(4)))
    raise NotationError(Refusal("fano.not_a_move", text=text.strip()))


def _parse_promote(words: list[str]) -> Promote:
    if len(words) != 3:
        raise NotationError(Refusal("fano.promote_form"))
    pairs: list[tuple[int, int | None]] = []
    for word in words:
        card_word, at, seat_word = word.partition("@")
        owner = None
        if at:
            if not seat_word.isdigit() or int(seat_word) < 1:
                raise NotationError(Refusal("fano.partner_card", text=word))
            owner = int(seat_word) - 1
        pairs.append((parse_card(card_word), owner))
    pairs.sort(key=lambda pair: (pair[0], -1 if pair[1] is None else pair[1]))
    cards = (pairs[0][0], pairs[1][0], pairs[2][0])
    owners = tuple(owner for _, owner in pairs)
    return Promote(cards, () if all(owner is None for owner in owners) else owners)


def _parse_counter(key: str) -> CombineCounter:
    match = _COUNTER.match(key)
    if not match:
        raise NotationError(Refusal("fano.counter_form"))
    first, second, result = (parse_card(match.group(i)) for i in (1, 2, 3))
    if first == second and not is_joker(first):
        raise NotationError(Refusal("fano.counter_same"))
    first, second = min(first, second), max(first, second)
    recruited = 0
    recruiters: tuple[int, ...] = ()
    if match.group(4):
        recruited = parse_card(match.group(4))
        one, two = parse_card(match.group(5)), parse_card(match.group(6))
        if recruited not in (first, second):
            raise NotationError(Refusal("fano.counter_recruited"))
        if one == two or recruited in (one, two):
            raise NotationError(Refusal("fano.counter_recruiters"))
        recruiters = (min(one, two), max(one, two))
    returned = parse_card(match.group(7)) if match.group(7) else 0
    if returned and returned not in (first, second):
        raise NotationError(Refusal("fano.return_other"))
    if returned and is_joker(returned):
        raise NotationError(Refusal("fano.return_joker"))
    return CombineCounter(first, second, result, returned, recruited, recruiters)
