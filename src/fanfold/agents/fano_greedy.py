"""``greedy``: a fast Fano player for measuring the others, written apart from the strategy.

It reads only its view and the legal actions and searches nothing: each action is scored by
what it changes at once, by rules a Fano player keeps in mind, and the best is played (ties at
random). About a millisecond a decision. Its pieces:

* **Progress** (:func:`progress`): distinct prestige values in play, and for each missing one
  the best route to it (a pair in play summing to it with the card in hand, the pair without
  the card, half a pair in play with its partner and the card in hand, the card alone), plus
  material (combat cards in play, cards in hand).
* **Danger** (:func:`danger`): each combat card of its own left exposed is priced by the
  chance that an attacker holds a support for it (its known hand cards, else three cards from
  the copies not in sight) times what losing it costs.
* **Attacks** take the opponent's card at the cost of the attacker card (the support enters
  play, a free card); a card that completes an opponent's pair is worth more. A Trionfey
  declaration is an attack that a counter may stop (when the defender's field opens a window);
  a bluff is made only when the attacker card is worth little and the defender's counters would
  cost them. The defender counters when the new card can not be attacked by the attacker or
  the counter costs less than the card; sacrifices a face-down card worth less than the one
  attacked.
* Main-phase actions that gain anything are played before the end action (they do not end the
  turn); the end action plays the card that helps most where it is safest, substitutes a dead
  card, or cycles unusable cards face down.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fanfold.agents.base import Agent, AgentConfig
from fanfold.games.fano import actions as fa
from fanfold.games.fano.cards import ATTACK_SUPPORT, LINE_THIRD, MAX_COMBAT, is_joker
from fanfold.games.fano.config import Special
from fanfold.games.fano.rules.attacks import support_value
from fanfold.games.fano.rules.turns import teammates
from fanfold.games.fano.state import Phase
from fanfold.games.fano.view import FanoView, PublicPlayer

_ROUTES = {8: ((1, 7), (2, 6), (3, 5), (4, 4)), 9: ((2, 7), (3, 6), (4, 5)), 10: ((3, 7), (4, 6))}
#: Progress for 0, 1, 2 and 3 distinct prestige values in play.
PRESTIGE_IN_PLAY = (0.0, 5.0, 10.5, 16.0)
#: What one promotion is worth.
PROMOTION = 16.0
#: Extra for a main-phase action: it leaves the end action still to play.
KEEPS_TURN = 0.15
_NEVER = -1e9
#: What ending a turn with ``pass`` costs (a stand-off would last until the turn limit).
STALL = 0.3
#: How much of an exposed card's expected loss counts.
DANGER = 0.5


def _values(cards: Sequence[int]) -> list[int]:
    return [card >> 4 for card in cards]


def progress(field: Sequence[int], hand: Sequence[int], free: int) -> float:
    """How near a promotion cards in play (``field``) and in hand are, in points
    (:data:`PROMOTION` a promotion); ``free``: empty slots. A joker in hand (value 0) stands
    for any combat value."""
    values = _values(field)
    have = {value for value in values if value > MAX_COMBAT}
    combat = [value for value in values if 1 <= value <= MAX_COMBAT]
    held = _values(hand)
    jokers = held.count(0)
    points = PRESTIGE_IN_PLAY[min(3, len(have))]
    used: list[int] = []
    for target in (10, 9, 8):
        if target in have:
            continue
        in_hand = target in held
        best = 0.8 if in_hand else 0.0
        pair: tuple[int, int] | None = None
        pool = _rest(combat, used)
        for one, two in _ROUTES[target]:
            if one in pool and two in pool and (one != two or pool.count(one) > 1):
                if (3.2 if in_hand else 1.1) > best:
                    best, pair = (3.2 if in_hand else 1.1), (one, two)
            elif free and (
                (one in pool and (two in held or jokers))
                or (two in pool and (one in held or jokers))
            ):
                best = max(best, 1.4 if in_hand else 0.45)
        if pair is not None:
            used.extend(pair)
        points += best
    missing = [target for target in (8, 9, 10) if target not in have]
    for value in combat:
        useful = any(0 < t - value <= MAX_COMBAT and t - value != value for t in missing)
        points += 1.0 if useful else 0.2
    for value in held:
        points += 0.25 if value == 0 else (0.2 if value <= MAX_COMBAT else 0.1)
    return points


def _rest(values: list[int], used: list[int]) -> list[int]:
    rest = list(values)
    for value in used:
        if value in rest:
            rest.remove(value)
    return rest


def _without(cards: Sequence[int], *gone: int) -> list[int]:
    rest = list(cards)
    for card in gone:
        if card in rest:
            rest.remove(card)
        else:
            for index, other in enumerate(rest):
                if is_joker(other) and is_joker(card) and other & 15 == card & 15:
                    del rest[index]
                    break
    return rest


def chance_held(view: FanoView, seat: int, value: int, cards: int = 3) -> float:
    """The chance that ``seat`` holds a card of ``value`` (or a joker) among ``cards`` hand
    cards, from what the view shows."""
    public = view.players[seat]
    if any(card >> 4 == value or is_joker(card) for card in public.known):
        return 1.0
    unknown = cards - len(public.known)
    if unknown <= 0:
        return 0.0
    seen = sum(1 for card in (*public.field, *public.up, *public.known) if card >> 4 == value)
    copies = len(view.config.suits_of(seat)) - seen
    pool = public.hand_count - len(public.known) + public.draw_count + public.down_count
    if copies <= 0 or pool <= 0:
        return 0.0
    if pool - copies < unknown:
        return 1.0
    return 1.0 - math.comb(pool - copies, unknown) / math.comb(pool, unknown)


@dataclass(frozen=True)
class GreedyConfig(AgentConfig):
    """The greedy player has no settings."""


class GreedyAgent(Agent[FanoView, fa.FanoAction]):
    """Scores each legal action by its immediate effect (see the module text)."""

    name = "greedy"

    def choose(self, view: FanoView, legal: Sequence[fa.FanoAction]) -> fa.FanoAction:
        if len(legal) == 1:
            return legal[0]
        scores = _Scorer(view).scores(legal)
        top = max(scores)
        best = [action for action, score in zip(legal, scores, strict=True) if score >= top]
        return best[self.rng.randrange(len(best))] if len(best) > 1 else best[0]


class _Scorer:
    def __init__(self, view: FanoView) -> None:
        self.view = view
        self.seat = view.player
        self.me = view.players[self.seat]
        self.field = self._own_field()
        self.hand = list(view.hand)
        self.base = progress(self.field, self.hand, 4 - len(self.field))
        count = len(view.players)
        config = view.config
        if not config.trionfey or count == 2:
            self.attackers: tuple[int, ...] = ((self.seat - 1) % count,)
        else:
            partners = teammates(config, self.seat)
            self.attackers = tuple(o for o in range(count) if o not in partners)
        self.base_danger = self.danger(self.field, self.hand)

    def _own_field(self) -> list[int]:
        return sorted((*self.me.field, *self.view.hidden))

    def mine(self, field: Sequence[int], hand: Sequence[int]) -> float:
        """The change in progress less danger if the seat's cards became these."""
        after = progress(field, hand, 4 - len(field))
        if not hand and self.view.phase is Phase.MAIN:
            after += 0.5  # an emptied hand draws three at once
        return after - self.base - (self.danger(field, hand) - self.base_danger)

    def danger(self, field: Sequence[int], hand: Sequence[int]) -> float:
        """The expected loss of the seat's exposed combat cards to its attackers' next turn."""
        view = self.view
        hidden = set(view.hidden)
        protected = set(self.me.protected)
        total = 0.0
        base = None
        for card in field:
            value = card >> 4
            if value > MAX_COMBAT or card in hidden or card in protected:
                continue
            safe = 1.0
            for other in self.attackers:
                foe = view.players[other]
                reverse = _may_reverse(view, other)
                for attacker in foe.field:
                    strength = attacker >> 4
                    if strength > MAX_COMBAT:
                        continue
                    for way in (False, True) if reverse else (False,):
                        needed = support_value(strength, value, way)
                        if needed:
                            safe *= 1.0 - chance_held(view, other, needed)
            if safe < 1.0:
                if base is None:
                    base = progress(field, hand, 4 - len(field))
                rest = _without(field, card)
                loss = base - progress(rest, hand, 4 - len(rest)) + 0.5
                factor = DANGER * (0.8 if view.config.trionfey else 1.0)
                total += factor * (1.0 - safe) * loss
        return total

    def foe_loss(self, seat: int, target: int) -> float:
        """What losing ``target`` costs the player at ``seat`` (from their cards in play)."""
        foe = self.view.players[seat]
        field = list(foe.field)
        before = progress(field, (), 4 - len(field))
        rest = _without(field, target)
        lead = 0.1 * max(0, foe.level - self.me.level) * PROMOTION / 4
        return before - progress(rest, (), 4 - len(rest)) + 0.6 + lead

    def scores(self, legal: Sequence[fa.FanoAction]) -> list[float]:
        return [self.score(action) for action in legal]

    def score(self, action: fa.FanoAction) -> float:
        field, hand = self.field, self.hand
        view = self.view
        if isinstance(action, fa.Promote):
            return 1e6
        if isinstance(action, fa.Combine):
            after = [*_without(field, action.first, action.second), action.result]
            rest = _without(hand, action.result)
            if action.returned:
                rest.append(action.returned)
            gain = self.mine(after, rest) + KEEPS_TURN
            return gain - (2.0 if action.oversum else 0.0)
        if isinstance(action, fa.Attack):
            after = [*_without(field, action.attacker), action.support]
            gain = self.mine(after, _without(hand, action.support))
            gain += self.foe_loss((self.seat + 1) % len(view.players), action.target)
            return gain + KEEPS_TURN - (2.0 if action.reverse else 0.0)
        if isinstance(action, fa.Declare):
            return self.declare(action)
        if isinstance(action, fa.Recruit):
            after = [*field, action.card]
            return self.mine(after, _without(hand, action.card)) + KEEPS_TURN
        if isinstance(action, fa.Play):
            after = [*field, action.card]
            gain = self.mine(after, _without(hand, action.card))
            if action.face_down:
                gain += self.hidden_bonus(after, action.card) - 0.6
            return gain
        if isinstance(action, fa.Substitute):
            after = [*_without(field, action.removed), action.card]
            gain = self.mine(after, _without(hand, action.card)) - 0.05
            if action.face_down:
                gain += self.hidden_bonus(after, action.card) - 0.6
            return gain + (0.2 if view.config.tribute else 0.0)
        if isinstance(action, fa.Discard):
            rest = _without(hand, *action.cards)
            cycled = 0.05 * len(action.cards)
            return self.mine(field, rest) + cycled + (0.2 if view.config.tribute else 0.0)
        if isinstance(action, fa.Pass):
            return -STALL
        if isinstance(action, fa.Defend):
            return self.defend(action.card)
        if isinstance(action, fa.Flip):
            return -0.3 if view.phase is Phase.MAIN else self.flip_counter()
        if isinstance(action, fa.PlaceJoker):
            return 1.0
        if isinstance(action, fa.Shuffle):
            return 1.0 if action.joker else 0.0
        if isinstance(action, fa.Mulligan):
            combat = [v for v in _values(field) if v <= MAX_COMBAT]
            return (0.5 if len(combat) < 2 else -0.5) if action.take else 0.0
        if isinstance(action, fa.Allow | fa.CombineCounter | fa.Sacrifice):
            return self.react(action)
        return _NEVER

    def hidden_bonus(self, field: Sequence[int], card: int) -> float:
        """What playing ``card`` face down saves: its danger face up."""
        return self.danger(field, self.hand) - self.danger(_without(field, card), self.hand)

    def defend(self, card: int) -> float:
        """Classic Perfect defense: the danger it removes, less the special's use."""
        field = self.field
        before = self.danger(field, self.hand)
        protected = self.me.protected
        self.me = _protect(self.me, card)
        after = self.danger(field, self.hand)
        self.me = _protect(self.me, -1, protected)
        return before - after - 0.9

    def declare(self, action: fa.Declare) -> float:
        """A Trionfey declaration: an attack that the defender may counter; without the support
        in hand, a bluff that loses the attacker unless the defender answers."""
        view, field, hand = self.view, self.field, self.hand
        seat = action.seat if action.seat is not None else (self.seat + 1) % len(view.players)
        needed = support_value(action.attacker >> 4, action.target >> 4, action.reverse)
        held = next((card for card in hand if card >> 4 == needed), 0)
        if not held:
            held = next((card for card in hand if is_joker(card)), 0)
            if held:
                held = (held & 15) | (needed << 4)
        cost = 2.0 if action.reverse else 0.0
        foe = view.players[seat]
        window = _counter_possible(foe, action.target)
        if not held:
            lost = self.mine(_without(field, action.attacker), hand)
            # A bluff: a defender with a window may waste a counter on it.
            return lost - 0.4 - cost + (0.3 if window else 0.0)
        after = [*_without(field, action.attacker), held]
        gain = self.mine(after, _without(hand, held)) + self.foe_loss(seat, action.target)
        if window:
            gain *= 0.7
        return gain + KEEPS_TURN - cost

    def react(self, action: fa.FanoAction) -> float:
        """The defender's answer to a declared attack."""
        view = self.view
        pending = view.pending
        assert pending is not None
        attacker = view.turn_player
        field, hand = self.field, self.hand
        strength = pending.attacker >> 4
        base = progress(field, hand, 4 - len(field))

        def has(value: int) -> float:
            if not value:
                return 0.0
            public = view.players[attacker]
            return chance_held(view, attacker, value, public.hand_count)

        if isinstance(action, fa.Allow):
            if pending.support:
                p = 1.0
            else:
                # Players seldom bluff: lean on the support being there.
                p = max(0.7, has(support_value(strength, pending.target >> 4, pending.reverse)))
            rest = _without(field, pending.target)
            return -p * (base - progress(rest, hand, 4 - len(rest)) + 0.6)
        if isinstance(action, fa.Sacrifice):
            rest = _without(field, action.card)
            return -(base - progress(rest, hand, 4 - len(rest)) + 0.6)
        assert isinstance(action, fa.CombineCounter)
        rest_hand = _without(hand, action.result)
        after = list(field)
        if action.recruiters:
            rest_hand = _without(rest_hand, action.recruited)
            after.append(action.recruited)
        after = [*_without(after, action.first, action.second), action.result]
        if action.returned:
            rest_hand.append(action.returned)
        cost = progress(after, rest_hand, 4 - len(after)) - base + 0.2
        again = has(support_value(strength, action.result >> 4, pending.reverse))
        if again:
            left = _without(after, action.result)
            cost -= again * (progress(after, rest_hand, 0) - progress(left, rest_hand, 0) + 0.6)
        else:
            cost += 0.6  # the attacker loses its card
        return cost

    def flip_counter(self) -> float:
        return -0.2


def _counter_possible(foe: PublicPlayer, target: int) -> bool:
    """Whether a defender with this field could counter an attack on ``target``."""
    value = target >> 4
    combat = [card >> 4 for card in foe.field if 1 <= card >> 4 <= MAX_COMBAT]
    if foe.hidden_count:
        return True
    for other in combat:
        if other != value and value + other <= MAX_COMBAT:
            return True
    if len(foe.field) + foe.hidden_count < 4:
        for i, one in enumerate(combat):
            for two in combat[i + 1 :]:
                third = LINE_THIRD[one][two]
                if third and value + third <= MAX_COMBAT:
                    return True
    return False


def _may_reverse(view: FanoView, seat: int) -> bool:
    """Whether ``seat`` could use Reverse Fano on its next turn (from what is public)."""
    config = view.config
    public = view.players[seat]
    if config.trionfey:
        return bool(config.tribute) and public.tribute >= 3 and "H" in _suit_letters(view, seat)
    from fanfold.games.fano.rules.specials import specials_of

    if Special.REVERSE not in specials_of(config, seat):
        return False
    return not any(level == public.level for level, _ in public.specials)


def _suit_letters(view: FanoView, seat: int) -> str:
    return "".join("CDHS"[suit] for suit in view.config.suits_of(seat))


def _protect(player: PublicPlayer, card: int, restore: tuple[int, ...] | None = None) -> Any:
    from dataclasses import replace

    if restore is not None:
        return replace(player, protected=restore)
    return replace(player, protected=(*player.protected, card))


def make_greedy(game: Any, config: Any, seed: int) -> GreedyAgent:
    """The registry's maker."""
    del config
    return GreedyAgent(game, seed)


del ATTACK_SUPPORT
