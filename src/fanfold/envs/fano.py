"""Fano encoding: an action table built from the variant's material, relative to the seat.

**Why not list every text.** A Fano action names cards: an attack three, a combination up to
four, a discard any set of the hand. Listing every combination of card texts would give
millions of indices, nearly all of them impossible. The table here lists only what the
variant's *material and arithmetic* allow, whatever the position:

* **Cards are named relative to their owner.** A seat's suited card is its value (1..10) and
  its suit *slot*: slot 0 is the owner's first suit, slot 1 the second (the 2-suit game). Jokers
  keep their kind (wild, temporary) and, in play, their declared value (1..7). So one index
  means "attack with my 4 on the next player's 6 with my 3" for every seat, whichever suits
  the seats command; seats in actions (a declared attack's foe, a partner's card in a
  promotion) are counted from the acting seat.
* **Only what the arithmetic allows.** An attack pairs an attacker value with a target value on
  one of the 21 directed cycles (42 with Reverse Fano), and its support value follows; a
  combination's result is the sum (any smaller value with Oversum); a recruit's card is the
  third value of a line; counters add to at most 7.
* **A discard is a set of at most three cards.** A hand never holds more than three cards
  (drawing fills it to three, and every other move takes cards out or returns one for one
  taken), so a discard is one of the sets of one to three cards of the owner's material.

Specials, jokers, Trionfey moves and partnerships add their actions only in the variants that
have them. ``docs/envs/encodings.md`` gives the size of every preset's table.

Observation, seen from the observing seat (seat 0 is the observer, then the seats in turn
order): every seat's public zones (field, Perfect-defense marks, face-up discards, the hand
cards everyone has seen), counts and progress; the observer's own hand, face-down discards and
face-down cards in play; the turn, phase and a pending Trionfey attack. Card vectors use the
owner-relative cards above: ``slot * 10 + value - 1`` for suited cards, then for each joker
kind either its declared values 1..7 (cards in play) or one count (cards off the field).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Iterator
from dataclasses import replace
from itertools import combinations, combinations_with_replacement
from typing import Any

from fanfold.core import lab_refusals as _lab_refusals  # noqa: F401  (registers the codes)
from fanfold.core.errors import ConfigError, Refusal
from fanfold.envs.encoding import Encoding, one_hot
from fanfold.envs.layout import Block, FloatArray, Layout
from fanfold.games.fano import (
    Allow,
    Attack,
    Combine,
    CombineCounter,
    Declare,
    Defend,
    Discard,
    FanoConfig,
    FanoView,
    Mulligan,
    Pass,
    Phase,
    Play,
    Promote,
    PromotionMode,
    Recruit,
    Shuffle,
    Special,
    Substitute,
    Teams,
)
from fanfold.games.fano.actions import Flip, PlaceJoker, Sacrifice
from fanfold.games.fano.cards import (
    LINE_THIRD,
    MAX_COMBAT,
    MAX_VALUE,
    TEMP,
    WILD,
    declared_as,
    is_joker,
    kind_of,
    value_of,
)
from fanfold.games.fano.rules import HAND_SIZE, deck_of, teammates
from fanfold.games.fano.rules.attacks import ATTACK_WAYS
from fanfold.games.fano.rules.moves import combine_results
from fanfold.games.fano.rules.specials import specials_of, suit_specials

#: The specials, in the order of the ``specials_used`` block.
SPECIALS = tuple(Special)
#: The phases, in the order of the ``phase`` block.
PHASES = tuple(Phase)
#: Counts kept for every seat, in the order of the ``counts`` block.
COUNTS = (
    "hand",
    "draw pile",
    "face-down discards",
    "face-down in play",
    "commander level",
    "reshuffles",
    "temporary jokers",
    "tribute",
    "jokers on the draw pile",
)


def relative_card(card: int, suits: tuple[int, ...]) -> int:
    """``card`` of an owner commanding ``suits``, with its suit replaced by the slot."""
    kind = kind_of(card)
    if kind >= WILD:
        return card
    return value_of(card) * 16 + suits.index(kind)


def absolute_card(card: int, suits: tuple[int, ...]) -> int:
    """The card a relative card is for an owner commanding ``suits``."""
    kind = kind_of(card)
    if kind >= WILD:
        return card
    return value_of(card) * 16 + suits[kind]


class FanoEncoding(Encoding):
    """Actions and observations of one Fano variant (edition, player count, options)."""

    def __init__(self, game: Any, config: FanoConfig) -> None:
        if config.joker_prestige:
            raise ConfigError(Refusal("envs.fano_joker_prestige"))
        players = config.players
        self.suit_slots = 2 if config.two_suit else 1
        possible: set[Special] = set()
        for seat in range(players):
            if config.trionfey:
                if config.tribute:
                    possible |= suit_specials(config.suits_of(seat))
            else:
                possible |= specials_of(config, seat)
        self.possible_specials = frozenset(possible)
        #: Joker kinds the variant can have: wild (Joker's wild), temporary (the special).
        self.joker_kinds = tuple(
            kind
            for kind, present in (
                (WILD, config.jokers),
                (TEMP, Special.TEMP_JOKER in self.possible_specials),
            )
            if present
        )
        suited: set[int] = set()
        for seat in range(players):
            suits = config.suits_of(seat)
            suited.update(
                relative_card(card, suits) for card in deck_of(config, seat) if not is_joker(card)
            )
        #: The owner-relative suited cards of the variant, sorted.
        self.suited = tuple(sorted(suited))
        self._suited_span = self.suit_slots * MAX_VALUE
        super().__init__(game, config)

    # ------------------------------------------------------------ card spaces
    @property
    def field_width(self) -> int:
        """Entries of a vector of cards in play: suited cards, then jokers by declared value."""
        return self._suited_span + len(self.joker_kinds) * MAX_COMBAT

    @property
    def hand_width(self) -> int:
        """Entries of a vector of cards off the field: suited cards, then a count per joker."""
        return self._suited_span + len(self.joker_kinds)

    def field_index(self, card: int) -> int:
        """Where an owner-relative card in play is in a vector of cards in play.

        Raises:
            ValueError: a joker of a kind this variant does not have.
        """
        kind = kind_of(card)
        if kind < WILD:
            return kind * MAX_VALUE + value_of(card) - 1
        return self._suited_span + self.joker_kinds.index(kind) * MAX_COMBAT + value_of(card) - 1

    def hand_index(self, card: int) -> int:
        """Where an owner-relative card off the field is in a vector of such cards.

        Raises:
            ValueError: a joker of a kind this variant does not have.
        """
        kind = kind_of(card)
        if kind < WILD:
            return kind * MAX_VALUE + value_of(card) - 1
        return self._suited_span + self.joker_kinds.index(kind)

    # ---------------------------------------------------------------- layout
    def make_layout(self) -> Layout:
        players = self.players
        field, hand = self.field_width, self.hand_width
        seats = "seat (0 me, then in turn order)"
        return Layout(
            (
                Block("field", (players, field), f"{seats} x card in play: face up"),
                Block("protected", (players, field), f"{seats} x card in play: Perfect defense"),
                Block(
                    "face_up_discards",
                    (players, hand),
                    f"{seats} x card: face-up discards",
                    high=math.inf,
                ),
                Block(
                    "known_in_hand",
                    (players, hand),
                    f"{seats} x card: hand cards every player has seen",
                    high=math.inf,
                ),
                Block(
                    "counts",
                    (players, len(COUNTS)),
                    f"{seats} x ({', '.join(COUNTS)})",
                    high=math.inf,
                ),
                Block(
                    "specials_used",
                    (players, len(SPECIALS)),
                    f"{seats} x special ({', '.join(s.value for s in SPECIALS)}): times used",
                    high=math.inf,
                ),
                Block(
                    "special_this_level",
                    (players,),
                    f"{seats}: 1 when a special was used since the last promotion",
                ),
                Block("hand", (hand,), "card: my hand", high=math.inf),
                Block("face_down_discards", (hand,), "card: my face-down discards", high=math.inf),
                Block("face_down_in_play", (field,), "card in play: mine lying face down"),
                Block("turn", (1,), "turn number / last turn of the turn limit"),
                Block("turn_player", (players,), "1 at the seat whose turn it is"),
                Block(
                    "phase",
                    (len(PHASES),),
                    "1 at the phase (" + ", ".join(p.value for p in PHASES) + ")",
                ),
                Block("priority", (players,), "1 at the seat holding priority (partnerships)"),
                Block("target_seat", (players,), "1 at the opponent chosen this turn, if any"),
                Block("attack_attacker", (field,), "pending attack: the attacking card"),
                Block("attack_target", (field,), "pending attack: the attacked card"),
                Block("attack_defender", (players,), "pending attack: 1 at the defender"),
                Block("attack_reverse", (1,), "pending attack: 1 when declared reversed"),
                Block("attack_support", (field,), "pending attack: the support once shown"),
            )
        )

    def fill(self, view: FanoView, blocks: dict[str, FloatArray]) -> None:
        config = self.config
        players = self.players
        me = view.player
        for seat, public in enumerate(view.players):
            row = (seat - me) % players
            suits = config.suits_of(seat)
            for card in public.field:
                blocks["field"][row, self.field_index(relative_card(card, suits))] += 1.0
            for card in public.protected:
                blocks["protected"][row, self.field_index(relative_card(card, suits))] = 1.0
            for card in public.up:
                blocks["face_up_discards"][row, self.hand_index(relative_card(card, suits))] += 1
            for card in public.known:
                blocks["known_in_hand"][row, self.hand_index(relative_card(card, suits))] += 1
            counts = blocks["counts"][row]
            for column, value in enumerate(
                (
                    public.hand_count,
                    public.draw_count,
                    public.down_count,
                    public.hidden_count,
                    public.level,
                    public.shuffles,
                    public.temp_jokers,
                    public.tribute,
                    public.jokers_on_draw,
                )
            ):
                counts[column] = value
            for level, special in public.specials:
                blocks["specials_used"][row, SPECIALS.index(special)] += 1.0
                if level == public.level:
                    blocks["special_this_level"][row] = 1.0
        own = config.suits_of(me)
        for card in view.hand:
            blocks["hand"][self.hand_index(relative_card(card, own))] += 1.0
        for card in view.down:
            blocks["face_down_discards"][self.hand_index(relative_card(card, own))] += 1.0
        for card in view.hidden:
            blocks["face_down_in_play"][self.field_index(relative_card(card, own))] += 1.0
        blocks["turn"][0] = min(view.turn / config.last_turn, 1.0)
        one_hot(blocks["turn_player"], (view.turn_player - me) % players)
        one_hot(blocks["phase"], PHASES.index(view.phase))
        one_hot(blocks["priority"], (view.priority - me) % players)
        if view.target_seat is not None:
            one_hot(blocks["target_seat"], (view.target_seat - me) % players)
        pending = view.pending
        if pending is not None:
            attacker_suits = config.suits_of(view.turn_player)
            defender_suits = config.suits_of(pending.defender)
            attacker = relative_card(pending.attacker, attacker_suits)
            blocks["attack_attacker"][self.field_index(attacker)] = 1.0
            target = relative_card(pending.target, defender_suits)
            blocks["attack_target"][self.field_index(target)] = 1.0
            one_hot(blocks["attack_defender"], (pending.defender - me) % players)
            blocks["attack_reverse"][0] = 1.0 if pending.reverse else 0.0
            if pending.support:
                support = relative_card(pending.support, attacker_suits)
                blocks["attack_support"][self.field_index(support)] = 1.0

    # ------------------------------------------------------------ conversions
    def to_relative(self, seat: int, action: Any) -> Hashable:
        key: Hashable = self._convert(seat, action, relative=True)
        return key

    def from_relative(self, seat: int, key: Hashable) -> Any:
        return self._convert(seat, key, relative=False)

    def action_label(self, index: int) -> str:
        """The action at ``index`` as the first seat would write it."""
        return self.game.action_text(self.action(0, index))

    def _convert(self, seat: int, action: Any, relative: bool) -> Any:
        """``action`` of ``seat`` turned into relative form (or back): suits to slots and
        seats to offsets from ``seat``, card lists kept in canonical (sorted) order."""
        config = self.config
        players = self.players
        convert_card = relative_card if relative else absolute_card

        def seat_of(other: int) -> int:
            return (other - seat) % players if relative else (seat + other) % players

        own = config.suits_of(seat)

        def mine(card: int) -> int:
            return convert_card(card, own) if card else 0

        def pair(one: int, two: int) -> tuple[int, int]:
            first, second = mine(one), mine(two)
            return (first, second) if first <= second else (second, first)

        if isinstance(action, Attack):
            foe = config.suits_of((seat + 1) % players)
            return Attack(
                mine(action.attacker),
                convert_card(action.target, foe),
                mine(action.support),
                action.reverse,
            )
        if isinstance(action, Declare):
            named: int | None = None
            if action.seat is None:
                foe_seat = (seat + 1) % players
            elif relative:
                foe_seat, named = action.seat, seat_of(action.seat)
            else:
                foe_seat = named = seat_of(action.seat)
            foe = config.suits_of(foe_seat)
            return Declare(
                mine(action.attacker), convert_card(action.target, foe), named, action.reverse
            )
        if isinstance(action, Combine):
            first, second = pair(action.first, action.second)
            return Combine(
                first, second, mine(action.result), mine(action.returned), action.oversum
            )
        if isinstance(action, CombineCounter):
            first, second = pair(action.first, action.second)
            recruiters: tuple[int, ...] = ()
            if action.recruiters:
                recruiters = pair(action.recruiters[0], action.recruiters[1])
            return CombineCounter(
                first,
                second,
                mine(action.result),
                mine(action.returned),
                mine(action.recruited),
                recruiters,
            )
        if isinstance(action, Recruit):
            first, second = pair(action.first, action.second)
            return Recruit(mine(action.card), first, second)
        if isinstance(action, Promote):
            owners = action.owners or (None,) * len(action.cards)
            cards: list[tuple[int, int | None]] = []
            for card, owner in zip(action.cards, owners, strict=True):
                if owner is None:
                    cards.append((mine(card), None))
                else:
                    holder = owner if relative else seat_of(owner)
                    converted = convert_card(card, config.suits_of(holder))
                    cards.append((converted, seat_of(owner)))
            cards.sort(key=lambda item: (item[0], -1 if item[1] is None else item[1]))
            new_owners = tuple(owner for _, owner in cards)
            return Promote(
                (cards[0][0], cards[1][0], cards[2][0]),
                () if all(owner is None for owner in new_owners) else new_owners,
            )
        if isinstance(action, Discard):
            return Discard(tuple(sorted(mine(card) for card in action.cards)))
        if isinstance(action, Play):
            return replace(action, card=mine(action.card))
        if isinstance(action, Substitute):
            return replace(action, removed=mine(action.removed), card=mine(action.card))
        if isinstance(action, Defend | Flip | Sacrifice):
            return replace(action, card=mine(action.card))
        return action

    # ---------------------------------------------------------------- actions
    def relative_actions(self) -> Iterable[Hashable]:
        return dict.fromkeys(self._enumerate())

    def _as_value(self, value: int) -> list[int]:
        """Hand cards that can enter play as ``value``: suited cards of that value, jokers
        declared as it."""
        cards = [card for card in self.suited if value_of(card) == value]
        if 1 <= value <= MAX_COMBAT:
            cards.extend(declared_as(kind, value) for kind in self.joker_kinds)
        return cards

    def _enumerate(self) -> Iterator[Hashable]:
        config = self.config
        trionfey = config.trionfey
        specials = self.possible_specials
        defense = Special.DEFENSE in specials
        reverse_ok = Special.REVERSE in specials
        oversum_ok = Special.OVERSUM in specials
        jokers_in_play = [
            declared_as(kind, value)
            for kind in self.joker_kinds
            for value in range(1, MAX_COMBAT + 1)
        ]
        field = sorted([*self.suited, *jokers_in_play])
        combat = [card for card in field if 1 <= value_of(card) <= MAX_COMBAT]
        hand = sorted([*self.suited, *self.joker_kinds])

        yield Pass()
        yield Mulligan(True)
        yield Mulligan(False)
        if Special.TEMP_JOKER in specials and not trionfey:
            yield Shuffle(False)
            yield Shuffle(True)
        if trionfey:
            yield Allow()
            if Special.TEMP_JOKER in specials:
                yield PlaceJoker()
        # End actions: plays, substitutes, discards.
        for card in combat:
            yield Play(card)
        if trionfey and defense:
            for card in combat:
                if not is_joker(card):
                    yield Play(card, face_down=True)
        for removed in field:
            for card in combat:
                yield Substitute(removed, card)
        if trionfey and defense:
            for removed in field:
                for card in combat:
                    if not is_joker(card):
                        yield Substitute(removed, card, face_down=True)
        for size in range(1, HAND_SIZE + 1):
            for chosen in combinations_with_replacement(hand, size):
                if _repeats_only_temporary(chosen):
                    yield Discard(chosen)
        # Attacks.
        ways = ATTACK_WAYS[reverse_ok]
        foes = self._foe_offsets()
        for attacker in combat:
            for target in combat:
                way = ways[value_of(attacker)][value_of(target)]
                if way is None:
                    continue
                support, reverse = way
                if trionfey:
                    for foe in foes:
                        yield Declare(attacker, target, foe, reverse)
                else:
                    for card in self._as_value(support):
                        yield Attack(attacker, target, card, reverse)
        # Combinations and promotions.
        for first, second in combinations_with_replacement(field, 2):
            if first == second and kind_of(first) != TEMP:
                continue
            total = value_of(first) + value_of(second)
            returns = [0, *(card for card in (first, second) if not is_joker(card))]
            for card in hand:
                for result, oversum in combine_results(
                    total, card, oversum_ok, config.oversum_prestige_only
                ):
                    for returned in dict.fromkeys(returns):
                        yield Combine(first, second, result, returned, oversum)
        yield from self._promotions()
        if not trionfey and defense:
            for card in combat:
                yield Defend(card)
        if trionfey:
            yield from self._trionfey_moves(combat)

    def _foe_offsets(self) -> list[int | None]:
        config = self.config
        if self.players == 2:
            return [None]
        offsets: set[int] = set()
        for seat in range(self.players):
            partners = teammates(config, seat)
            offsets.update(
                (other - seat) % self.players
                for other in range(self.players)
                if other not in partners
            )
        found: list[int | None] = []
        found.extend(sorted(offsets))
        return found

    def _promotions(self) -> Iterator[Hashable]:
        config = self.config
        prestige = [card for card in self.suited if value_of(card) >= 8]
        if config.teams is Teams.ONE_FOR_ALL:
            partners: set[int] = set()
            for seat in range(self.players):
                partners.update((other - seat) % self.players for other in teammates(config, seat))
            holders: list[int | None] = [None, *sorted(partners - {0})]
            by_value = {
                value: [
                    (card, holder)
                    for card in prestige
                    if value_of(card) == value
                    for holder in holders
                ]
                for value in (8, 9, 10)
            }
            for eight in by_value[8]:
                for nine in by_value[9]:
                    for ten in by_value[10]:
                        owners = (eight[1], nine[1], ten[1])
                        yield Promote(
                            (eight[0], nine[0], ten[0]),
                            () if all(owner is None for owner in owners) else owners,
                        )
            return
        easy = config.promotion is PromotionMode.EASY and config.six_prestige
        hard = config.promotion is PromotionMode.HARD
        for trio in combinations(prestige, 3):
            values = sorted(value_of(card) for card in trio)
            one_slot = len({kind_of(card) for card in trio}) == 1
            if easy or (values == [8, 9, 10] and (not hard or one_slot)):
                yield Promote((trio[0], trio[1], trio[2]))

    def _trionfey_moves(self, combat: list[int]) -> Iterator[Hashable]:
        specials = self.possible_specials
        pairs = [
            (one, two)
            for one, two in combinations_with_replacement(combat, 2)
            if one != two or kind_of(one) == TEMP
        ]
        for first, second in pairs:
            third = LINE_THIRD[value_of(first)][value_of(second)]
            if third:
                for card in self._as_value(third):
                    yield Recruit(card, first, second)
        for target in combat:
            x = value_of(target)
            for partner in combat:
                total = x + value_of(partner)
                if total > MAX_COMBAT or (partner == target and kind_of(target) != TEMP):
                    continue
                one, two = min(partner, target), max(partner, target)
                for result in self._as_value(total):
                    for returned in _returnable(one, two):
                        yield CombineCounter(one, two, result, returned)
            for recruiters in pairs:
                third = LINE_THIRD[value_of(recruiters[0])][value_of(recruiters[1])]
                if not third or x + third > MAX_COMBAT:
                    continue
                for recruited in self._as_value(third):
                    one, two = min(recruited, target), max(recruited, target)
                    for result in self._as_value(x + third):
                        for returned in _returnable(one, two):
                            yield CombineCounter(one, two, result, returned, recruited, recruiters)
        if Special.DEFENSE in specials:
            for card in combat:
                if not is_joker(card):
                    yield Flip(card)
                    yield Sacrifice(card)


def _repeats_only_temporary(cards: tuple[int, ...]) -> bool:
    """Whether the only card named twice in ``cards`` is a Temporary Joker (of which a hand
    may hold several): every other card exists once."""
    return all(card == TEMP or cards.count(card) == 1 for card in cards)


def _returnable(one: int, two: int) -> list[int]:
    """Nothing (0) or one of the two combined cards that is not a joker, once each."""
    return list(dict.fromkeys([0, *(card for card in (one, two) if not is_joker(card))]))
