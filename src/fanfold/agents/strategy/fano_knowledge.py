"""Fano's strategy: a potential for each player's position, the moves it prefers, an evaluation.

The road to a promotion is always the same: combat cards in play whose sum is a missing
prestige value, that prestige card in hand, the combination (prestige cards are never
attacked once in play), and the 8, 9 and 10 together in play. :func:`potential` scores how
far along that road a player is, from the values alone (cached: positions repeat), in
*units* where a promotion is worth :data:`LEVEL` units:

* distinct prestige values in play (:data:`PROGRESS`, rising faster than linearly: the third
  one is a promotion in waiting);
* for each missing value: a pair in play that sums to it, more when the prestige card is in
  hand (the combination is ready), less when only one card of the pair is in play and the
  other in hand (one end action away); the prestige card in hand by itself;
* a little for each combat card in play and each card in hand (material).

Moves are scored by how they change the potentials: your own, and the opponent's for an
attack (a card that completes their pair is worth more than a stray one). On top of that:
promote at once; an attack weighs the material taken; a card played where the opponent's
field can attack it costs a little; cycling the deck (a face-down discard, an empty hand
drawing three) gains a little; a special is used when the move it enables pays for it.
Perfect defense (classic) goes on the card in play whose expected loss is largest: the chance
that a player who attacks you holds the support for one of the attacks on it (from what is in
sight: known hand cards, the copies of the value already seen, the hidden cards), times what
losing it costs; it is used before ending the turn when that beats the special's use, and a
protected card is used only when the move pays for giving up its protection. The
Trionfey defender compares letting the attack through with each counter: a counter that
leaves the attacker without a legal direction or without the support (in the dealt state)
ends the attack at the cost of the combined cards.

The evaluation (:meth:`FanoKnowledge.evaluate`) adds each player's promotions and potential,
less a little for each of their combat cards the players who attack them could attack, and
maps the difference to the best opponent (or partnership) onto -1..1 with ``tanh``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import cache, lru_cache

import numpy as np
import numpy.typing as npt

from fanfold.agents.knowledge import Knowledge
from fanfold.core.game import Game
from fanfold.games.fano import actions as fa
from fanfold.games.fano import fast
from fanfold.games.fano.cards import (
    ATTACK_SUPPORT,
    MAX_COMBAT,
    PRESTIGE_VALUES,
    base_card,
    is_joker,
    value_of,
)
from fanfold.games.fano.config import FanoConfig, Special, Teams
from fanfold.games.fano.rules import (
    FIELD_SLOTS,
    TRIBUTE_CAP,
    can_use,
    specials_of,
    support_value,
    teammates,
)
from fanfold.games.fano.state import FanoState, Phase, PlayerState
from fanfold.games.fano.view import FanoView

#: Units of one promotion.
LEVEL = 14.0
#: Units for 0, 1, 2 and 3 distinct prestige values in play.
PROGRESS = (0.0, 4.0, 8.5, 12.5)
#: A pair in play summing to a missing prestige value held in hand: the combination is ready.
PAIR_READY = 1.4
#: A pair in play summing to a missing prestige value not in hand.
PAIR = 0.5
#: One card of such a pair in play, the other in hand (and a free slot), the prestige in hand.
HALF_READY = 0.5
#: ... the prestige card not in hand.
HALF = 0.2
#: A missing prestige card in hand.
PRESTIGE_IN_HAND = 0.4
#: A combat card in play that could make a missing prestige value with another combat card.
COMBAT = 0.45
#: A combat card in play that could not (it only takes a slot, attacks and is attacked).
DEAD = 0.1
#: A combat card in hand; a prestige card in hand (as material, beside its use above).
CARD = 0.1
PRESTIGE_CARD = 0.05
#: A joker in hand: any combat value.
JOKER = 0.5
#: One tribute counter (a third of a Trionfey special).
TRIBUTE = 0.25
#: A combat card in play that a player who attacks you could attack.
EXPOSED = 0.15
#: A whole new hand drawn at once when an attack or a combination empties the hand.
FRESH_HAND = 0.4
#: Each card sent round the deck by a face-down discard.
CYCLE = 0.15
#: What a classic special costs when used (one use per commander level).
SPECIAL = 1.0
#: What Perfect defense costs when it is the only special the seat may use (the level's use
#: then buys nothing else but a later defense).
DEFENSE_ONLY = 0.3
#: What using a card under Perfect defense gives up (its protection ends).
PROTECTION = 0.3
#: A decision of the evaluation's scale: the difference that maps to tanh(1).
SCALE = 0.4

_PROMOTE = 1000.0
_DRAW_PHASES = (Phase.MULLIGAN, Phase.DRAW_SHUFFLE, Phase.SHUFFLE)
_NEVER = -1000.0


@lru_cache(maxsize=1 << 16)
def potential(
    prestige: tuple[int, ...], combat: tuple[int, ...], hand: tuple[int, ...], free: int
) -> float:
    """How far along the road to a promotion a player is, in units (:data:`LEVEL` a
    promotion): ``prestige`` the prestige values in play, ``combat`` the combat values in
    play, ``hand`` the values in hand (0: a joker), ``free`` the empty slots. A card in play
    counts towards one pair at most (the combination uses it up)."""
    have = set(prestige)
    units = PROGRESS[min(len(have), 3)]
    jokers = hand.count(0)
    wanted = [value for value in PRESTIGE_VALUES if value not in have]
    unused = list(combat)
    # Ready combinations first (the prestige card in hand), then pairs waiting for it.
    for ready in (True, False):
        for value in wanted:
            if (value in hand) != ready:
                continue
            for i, first in enumerate(unused):
                if value - first in unused[i + 1 :]:
                    units += PAIR_READY if ready else PAIR
                    unused.remove(first)
                    unused.remove(value - first)
                    wanted = [other for other in wanted if other != value]
                    break
    for value in wanted:
        ready = value in hand
        if ready:
            units += PRESTIGE_IN_HAND
        if free:
            for first in unused:
                partner = value - first
                if 1 <= partner <= MAX_COMBAT and partner != first and (partner in hand or jokers):
                    units += HALF_READY if ready else HALF
                    break
    missing = [value for value in PRESTIGE_VALUES if value not in have]
    for value in combat:
        useful = any(
            1 <= other - value <= MAX_COMBAT and other - value != value for other in missing
        )
        units += COMBAT if useful else DEAD
    for value in hand:
        units += JOKER if value == 0 else (PRESTIGE_CARD if value > MAX_COMBAT else CARD)
    return units


def _split(field: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The prestige values and the combat values of cards in play."""
    prestige: list[int] = []
    combat: list[int] = []
    for card in field:
        value = card >> 4
        (prestige if value > MAX_COMBAT else combat).append(value)
    return tuple(prestige), tuple(combat)


def _hand_values(hand: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted(0 if is_joker(card) else card >> 4 for card in hand))


def player_potential(player: PlayerState) -> float:
    """:func:`potential` of one player's cards."""
    return _cards_potential(player.field, player.hand)


@lru_cache(maxsize=1 << 16)
def _cards_potential(field: tuple[int, ...], hand: tuple[int, ...]) -> float:
    """:func:`potential` of cards in play and in hand (cached: the same cards come back)."""
    prestige, combat = _split(field)
    return potential(prestige, combat, _hand_values(hand), FIELD_SLOTS - len(field))


def _without(cards: tuple[int, ...], *gone: int) -> tuple[int, ...]:
    rest = list(cards)
    for card in gone:
        if card in rest:
            rest.remove(card)
        elif is_joker(card) and base_card(card) in rest:
            rest.remove(base_card(card))
    return tuple(rest)


def attackers_of(config: FanoConfig, seat: int, players: int) -> tuple[int, ...]:
    """The seats that may attack ``seat``: the previous player (classic, and any 2-player
    game), or every player of the other side (Trionfey with three players or partnerships)."""
    if not config.trionfey or players == 2:
        return ((seat - 1) % players,)
    partners = teammates(config, seat)
    return tuple(other for other in range(players) if other not in partners)


@lru_cache(maxsize=1 << 12)
def _exposed(card_value: int, attackers: tuple[int, ...]) -> int:
    """How many of ``attackers`` (values in play) could attack a card of ``card_value``."""
    return sum(
        1 for value in attackers if value <= MAX_COMBAT and ATTACK_SUPPORT[value][card_value]
    )


class FanoKnowledge(Knowledge[FanoState, fa.FanoAction, FanoView]):
    """Fano's strategy for both editions and every variant (see the module text).

    Args:
        game: the Fano game.
    """

    #: Main-phase moves the heuristic makes in one turn before it ends the turn regardless.
    MAIN_MOVES = 24
    #: Positions whose move scores are remembered (then forgotten all at once).
    REMEMBERED = 1 << 13

    def __init__(self, game: Game[FanoConfig, FanoState, fa.FanoAction, FanoView]) -> None:
        super().__init__(game)
        self._turn = (-1, -1)
        self._moves = 0
        self._scores: dict[tuple[object, ...], dict[fa.FanoAction, float]] = {}

    # -------------------------------------------------------------------------- deciding
    def choose(
        self, view: FanoView, legal: Sequence[fa.FanoAction], rng: random.Random
    ) -> fa.FanoAction:
        state = self.game.sample_state(view, rng)
        if view.phase is Phase.MAIN and view.turn_player == view.player:
            key = (view.turn, view.player)
            if key != self._turn:
                self._turn, self._moves = key, 0
            self._moves += 1
            if self._moves > self.MAIN_MOVES:
                # A guard against a turn that never ends: only end actions from here.
                ends = [
                    a
                    for a in legal
                    if isinstance(a, fa.Play | fa.Substitute | fa.Discard | fa.Pass)
                ]
                if ends:
                    return self.best(state, ends, rng)
        return self.best(state, legal, rng)

    def playout_action(
        self, state: FanoState, legal: Sequence[fa.FanoAction], rng: random.Random
    ) -> fa.FanoAction:
        if len(legal) == 1:
            return legal[0]
        return self.best(state, legal, rng)

    def priors(self, state: FanoState, legal: Sequence[fa.FanoAction]) -> Sequence[float]:
        return self.scores(state, legal)

    def obvious(self, view: FanoView, legal: Sequence[fa.FanoAction]) -> fa.FanoAction | None:
        """Promote whenever possible; the draw phase's questions (redraw, Temporary Joker)
        by the heuristic's rule, which reads only the seat's own cards."""
        for action in legal:
            if isinstance(action, fa.Promote):
                return action
        if view.phase in _DRAW_PHASES and view.turn_player == view.player:
            state = self.game.sample_state(view, random.Random(view.turn))
            scores = self.scores(state, legal)
            return legal[scores.index(max(scores))]
        return None

    def best(
        self, state: FanoState, legal: Sequence[fa.FanoAction], rng: random.Random
    ) -> fa.FanoAction:
        """The best-scored action of ``legal`` (ties broken at random)."""
        scores = self.scores(state, legal)
        top = max(scores)
        choices = [action for action, score in zip(legal, scores, strict=True) if score >= top]
        return choices[rng.randrange(len(choices))] if len(choices) > 1 else choices[0]

    def scores(self, state: FanoState, legal: Sequence[fa.FanoAction]) -> list[float]:
        """Each action's score for the decider of ``state`` (higher is better). A move's score
        reads only the cards in play and in hand, so scores are remembered by those (search
        and playouts meet the same cards again and again)."""
        if state.phase is Phase.REACT:
            return _React(state).scores(legal)
        me = state.players[state.turn_player]
        key = (
            state.config,
            state.phase,
            state.turn_player,
            me.hand,
            me.tribute,
            tuple((p.field, p.level, p.hidden, p.protected) for p in state.players),
        )
        known = self._scores.get(key)
        if known is None:
            if len(self._scores) >= self.REMEMBERED:
                self._scores.clear()
            known = self._scores[key] = {}
        turn = None
        result = []
        defends = []
        for index, action in enumerate(legal):
            if isinstance(action, fa.Defend):
                # Read from the others' hidden cards too, so never remembered; scored below.
                defends.append(index)
                result.append(0.0)
                continue
            score = known.get(action)
            if score is None:
                if turn is None:
                    turn = _Turn(state)
                score = known[action] = turn.score(action)
            result.append(score)
        if defends:
            turn = turn or _Turn(state)
            # Perfect defense does not end the turn: it adds to the best end action.
            ends = [
                score
                for action, score in zip(legal, result, strict=True)
                if isinstance(action, fa.Play | fa.Substitute | fa.Discard | fa.Pass)
            ]
            after = max(ends) if ends else 0.0
            for index in defends:
                action = legal[index]
                assert isinstance(action, fa.Defend)
                result[index] = after + turn.defend(action.card)
        return result

    def fast_rollout(
        self, state: FanoState, limit: int, rng: random.Random, policy: str = "random"
    ) -> tuple[float, ...] | None:
        """Up to ``limit`` actions chosen by ``policy`` (``random``, ``greedy`` or
        ``heuristic``) on the compiled fast path (:mod:`fanfold.games.fano.fast`; its own
        generator, seeded from ``rng``), scored by :meth:`evaluate`; ``None`` for a variant
        the fast path does not cover."""
        if not fast.supports(state.config):
            return None
        from fanfold.agents.strategy.fano_fast import heuristic_playout
        from fanfold.games.fano.fast import engine

        engine.seed(rng.getrandbits(31))
        start = engine.encode(state)
        if policy == "heuristic":
            end, _ = heuristic_playout(start, policy_weights(), limit)
        else:
            end, _ = (engine.greedy_playout if policy == "greedy" else engine.playout)(start, limit)
        return self.evaluate(engine.decode(end))

    # ------------------------------------------------------------------------ evaluating
    def evaluate(self, state: FanoState) -> tuple[float, ...] | None:
        outcome = self.game.outcome(state)
        if outcome is not None:
            return tuple(outcome.returns)
        return evaluation(state)


@cache
def policy_weights() -> npt.NDArray[np.float64]:
    """The strategy's weights as the compiled policy reads them
    (:mod:`fanfold.agents.strategy.fano_policy`, imported here only when first needed: it
    loads Numba)."""
    from fanfold.agents.strategy import fano_policy as p

    weights = np.zeros(p.WEIGHTS, np.float64)
    weights[p.W_PROGRESS : p.W_PROGRESS + 4] = PROGRESS
    for index, value in (
        (p.W_PAIR_READY, PAIR_READY),
        (p.W_PAIR, PAIR),
        (p.W_HALF_READY, HALF_READY),
        (p.W_HALF, HALF),
        (p.W_PRESTIGE_IN_HAND, PRESTIGE_IN_HAND),
        (p.W_COMBAT, COMBAT),
        (p.W_DEAD, DEAD),
        (p.W_CARD, CARD),
        (p.W_PRESTIGE_CARD, PRESTIGE_CARD),
        (p.W_JOKER, JOKER),
        (p.W_EXPOSED, EXPOSED),
        (p.W_FRESH_HAND, FRESH_HAND),
        (p.W_CYCLE, CYCLE),
        (p.W_SPECIAL, SPECIAL),
        (p.W_PROTECTION, PROTECTION),
        (p.W_LEVEL, LEVEL),
        (p.W_TRIBUTE, TRIBUTE),
        (p.W_SCALE, SCALE),
    ):
        weights[index] = value
    return weights


def standing(state: FanoState, seat: int) -> float:
    """One player's promotions and potential in units, less their exposed combat cards."""
    me = state.players[seat]
    units = LEVEL * me.level + player_potential(me) + TRIBUTE * me.tribute
    players = len(state.players)
    attacking = tuple(
        card >> 4
        for other in attackers_of(state.config, seat, players)
        for card in state.players[other].field
        if card not in state.players[other].hidden
    )
    if attacking:
        for card in me.field:
            value = card >> 4
            if (
                value <= MAX_COMBAT
                and card not in me.protected
                and card not in me.hidden
                and _exposed(value, attacking)
            ):
                units -= EXPOSED
    return units


def evaluation(state: FanoState) -> tuple[float, ...]:
    """Each seat's expected return (-1..1): ``tanh`` of its standing less its best rival's,
    scaled by the promotions a win needs. In "One for all" a partnership shares one commander:
    its standing is its best member's, and its rivals are the other partnership. In "All for
    one" each player wins alone: a seat's rivals are every other seat, its partners included
    (a partner's promotion is not the seat's, and a partner's win is the seat's loss)."""
    config = state.config
    players = len(state.players)
    own = [standing(state, seat) for seat in range(players)]
    shared = config.teams is Teams.ONE_FOR_ALL
    if shared:
        sides = [max(own[member] for member in teammates(config, seat)) for seat in range(players)]
    else:
        sides = own
    scale = SCALE / (LEVEL * config.promotions_to_win) * 3.0
    values = []
    for seat in range(players):
        partners = teammates(config, seat) if shared else (seat,)
        rival = max(sides[other] for other in range(players) if other not in partners)
        values.append(math.tanh(scale * (sides[seat] - rival)))
    return tuple(values)


class _Turn:
    """Scores the turn player's moves (draw phase, main phase, end actions)."""

    def __init__(self, state: FanoState) -> None:
        self.state = state
        self.config = state.config
        self.seat = state.turn_player
        self.me = state.players[self.seat]
        self.base = player_potential(self.me)
        players = len(state.players)
        self.threats = tuple(
            card >> 4
            for other in attackers_of(self.config, self.seat, players)
            for card in state.players[other].field
            if card not in state.players[other].hidden
        )
        self._foes: dict[int, float] = {}
        #: What one more tribute counter is worth (nothing at the cap).
        self.earn = TRIBUTE if self.config.tribute and self.me.tribute < TRIBUTE_CAP else 0.0

    def scores(self, legal: Sequence[fa.FanoAction]) -> list[float]:
        return [self.score(action) for action in legal]

    def mine(self, field: tuple[int, ...], hand: tuple[int, ...]) -> float:
        """The change in potential if my cards became ``field`` and ``hand``."""
        gain = _cards_potential(field, hand) - self.base
        if not hand and self.state.phase is Phase.MAIN:
            gain += FRESH_HAND
        return gain

    def foe_loss(self, seat: int, target: int) -> float:
        """What losing ``target`` costs the player at ``seat`` (their potential drop, from
        their cards in play: their hand is hidden), plus a little for the leader."""
        foe = self.state.players[seat]
        before = self._foes.get(seat)
        if before is None:
            before = self._foes[seat] = _cards_potential(foe.field, ())
        after = _cards_potential(_without(foe.field, target), ())
        lead = 0.05 * (LEVEL * (foe.level - self.me.level) + before - self.base)
        return before - after + max(0.0, lead)

    def score(self, action: fa.FanoAction) -> float:
        me = self.me
        if isinstance(action, fa.Promote):
            return _PROMOTE
        if isinstance(action, fa.Combine):
            field = (*_without(me.field, action.first, action.second), action.result)
            hand = _without(me.hand, action.result)
            if action.returned:
                hand = (*hand, action.returned)
            gain = self.mine(field, hand) - self.unprotect(action.first, action.second)
            if action.oversum:
                gain -= SPECIAL
            if value_of(action.result) <= MAX_COMBAT:
                gain += self.earn
            return gain - 0.05
        if isinstance(action, fa.Attack):
            field = (*_without(me.field, action.attacker), action.support)
            hand = _without(me.hand, action.support)
            gain = self.mine(field, hand) + self.foe_loss(
                self.state.target_of(self.seat), action.target
            )
            gain -= self.unprotect(action.attacker)
            return gain - (SPECIAL if action.reverse else 0.0)
        if isinstance(action, fa.Declare):
            return self.declare(action)
        if isinstance(action, fa.Recruit):
            field = (*me.field, action.card)
            return self.mine(field, _without(me.hand, action.card)) - self.exposure(action.card)
        if isinstance(action, fa.Play):
            gain = self.mine((*me.field, action.card), _without(me.hand, action.card))
            if action.face_down:
                return gain - 3 * TRIBUTE
            return gain - self.exposure(action.card)
        if isinstance(action, fa.Substitute):
            field = (*_without(me.field, action.removed), action.card)
            gain = self.mine(field, _without(me.hand, action.card)) - 0.1 + self.earn
            gain -= self.unprotect(action.removed)
            if action.face_down:
                return gain - 3 * TRIBUTE
            return gain - self.exposure(action.card)
        if isinstance(action, fa.Discard):
            hand = _without(me.hand, *action.cards)
            gain = _cards_potential(me.field, hand) - self.base + CYCLE * len(action.cards)
            return gain + self.earn
        if isinstance(action, fa.Pass):
            return 0.0
        if isinstance(action, fa.Defend):
            return self.defend(action.card)
        if isinstance(action, fa.Flip):
            return self.flip(action.card)
        if isinstance(action, fa.PlaceJoker):
            return JOKER + CARD
        if isinstance(action, fa.Mulligan):
            return self.mulligan(action.take)
        if isinstance(action, fa.Shuffle):
            return 1.0 if action.joker else 0.0
        return _NEVER

    def exposure(self, card: int) -> float:
        value = card >> 4
        if value > MAX_COMBAT or not self.threats:
            return 0.0
        return EXPOSED * min(2, _exposed(value, self.threats))

    def declare(self, action: fa.Declare) -> float:
        """A declared attack: with the support in hand, an attack that may be countered; without
        it, a bluff that loses the attacker unless the defender wastes a counter."""
        me = self.me
        seat = action.seat if action.seat is not None else self.state.target_of(self.seat)
        needed = support_value(value_of(action.attacker), value_of(action.target), action.reverse)
        support = next((card for card in me.hand if card >> 4 == needed), 0)
        if not support and any(is_joker(card) for card in me.hand):
            support = next(card for card in me.hand if is_joker(card)) | (needed << 4)
        cost = 3 * TRIBUTE if action.reverse else 0.0
        if not support:
            loss = self.mine(_without(me.field, action.attacker), me.hand)
            return loss - 0.3 - cost
        field = (*_without(me.field, action.attacker), support)
        hand = _without(me.hand, support)
        gain = self.mine(field, hand) + self.foe_loss(seat, action.target)
        return 0.85 * gain - cost

    def unprotect(self, *cards: int) -> float:
        """What using ``cards`` gives up: the Perfect defense of those under it."""
        protected = self.me.protected
        return PROTECTION * sum(1 for card in cards if card in protected) if protected else 0.0

    def defend(self, card: int) -> float:
        """Classic Perfect defense on ``card``, against using nothing: the chance that it is
        attacked (:meth:`threat`) times what losing it costs, less the special's use (the
        level's only use of any special, so dearer when the seat may use others)."""
        threat = self.threat(card)
        if not threat:
            return -0.5
        loss = self.base - _cards_potential(_without(self.me.field, card), self.me.hand)
        others = specials_of(self.config, self.seat) - {Special.DEFENSE}
        cost = SPECIAL if others else DEFENSE_ONLY
        return threat * (loss + CARD) - cost

    def threat(self, card: int) -> float:
        """The chance that a player who attacks me can attack ``card`` on their next turn: for
        each of their cards in play that attacks it (reversed too while they may use Reverse
        Fano), the chance they hold the support (:meth:`holds`), the attacks taken as
        independent."""
        value = card >> 4
        if value > MAX_COMBAT:
            return 0.0
        state = self.state
        safe = 1.0
        for seat in attackers_of(self.config, self.seat, len(state.players)):
            foe = state.players[seat]
            ways = (False, True) if can_use(self.config, foe, seat, Special.REVERSE) else (False,)
            for attacker in foe.field:
                if attacker in foe.hidden or attacker >> 4 > MAX_COMBAT:
                    continue
                for reverse in ways:
                    needed = support_value(attacker >> 4, value, reverse)
                    if needed:
                        safe *= 1.0 - self.holds(seat, needed)
        return 1.0 - safe

    def holds(self, seat: int, value: int) -> float:
        """The chance that the player at ``seat`` holds a card of ``value`` (or a joker), read
        from what every player sees, not from this state's dealt hand: certain when a known
        card of their hand is one; else the chance that their unknown hand cards include one
        of the copies not in sight (one per suit they command, less those in play, face up in
        their discards or known in hand), drawn from all their hidden cards (hand, draw pile,
        face-down discards)."""
        foe = self.state.players[seat]
        if any(card >> 4 == value or is_joker(card) for card in foe.known):
            return 1.0
        unknown = len(foe.hand) - len(foe.known)
        if unknown <= 0:
            return 0.0
        seen = sum(
            1
            for card in (*foe.field, *foe.up, *foe.known)
            if card >> 4 == value and not is_joker(card)
        )
        copies = len(self.config.suits_of(seat)) - seen
        if copies <= 0:
            return 0.0
        pool = unknown + len(foe.draw) + len(foe.down)
        if pool - copies < unknown:
            return 1.0
        return 1.0 - math.comb(pool - copies, unknown) / math.comb(pool, unknown)

    def flip(self, card: int) -> float:
        """Turning a face-down card up in the main phase: only for a ready combination."""
        me = self.me
        value = card >> 4
        hand = {c >> 4 for c in me.hand}
        for other in me.field:
            total = value + (other >> 4)
            if other != card and other not in me.hidden and total in hand and total >= 8:
                return 0.05
        return -0.5

    def mulligan(self, take: bool) -> float:
        """Redraw a hand of prestige cards only when no combination can use it soon."""
        me = self.me
        _, combat = _split(me.field)
        hand = {card >> 4 for card in me.hand}
        usable = any(
            first + second in hand for i, first in enumerate(combat) for second in combat[i + 1 :]
        )
        if take:
            return -0.5 if usable or len(combat) >= 3 else 0.5
        return 0.0


class _React:
    """Scores the Trionfey defender's answers to a declared attack."""

    def __init__(self, state: FanoState) -> None:
        pending = state.pending
        assert pending is not None  # phase react always has an attack pending
        self.state = state
        self.pending = pending
        self.me = state.players[pending.defender]
        self.attacker = state.players[state.turn_player]
        self.base = player_potential(self.me)

    def scores(self, legal: Sequence[fa.FanoAction]) -> list[float]:
        return [self.score(action) for action in legal]

    def holds(self, target_value: int) -> bool:
        """Whether the attacker (in this dealt state) holds the support against a card of
        ``target_value``."""
        needed = support_value(value_of(self.pending.attacker), target_value, self.pending.reverse)
        if not needed:
            return False
        return any(card >> 4 == needed or is_joker(card) for card in self.attacker.hand)

    def lose(self, card: int) -> float:
        return _cards_potential(_without(self.me.field, card), self.me.hand) - self.base

    def fails(self) -> float:
        """What the attacker loses when the attack fails: the attacking card."""
        field = _without(self.attacker.field, self.pending.attacker)
        return player_potential(self.attacker) - _cards_potential(field, self.attacker.hand)

    def succeeds(self) -> float:
        """What the attacker gains when the attack succeeds: the support replaces the
        attacking card."""
        pending = self.pending
        needed = support_value(
            value_of(pending.attacker), value_of(pending.target), pending.reverse
        )
        support = pending.support or next(
            (card for card in self.attacker.hand if card >> 4 == needed), 0
        )
        if not support:
            joker = next((card for card in self.attacker.hand if is_joker(card)), 0)
            support = joker | (needed << 4) if joker else 0
        field = (*_without(self.attacker.field, pending.attacker), support)
        hand = _without(self.attacker.hand, support)
        return _cards_potential(field, hand) - player_potential(self.attacker)

    def score(self, action: fa.FanoAction) -> float:
        pending = self.pending
        if isinstance(action, fa.Allow):
            if pending.support or self.holds(value_of(pending.target)):
                return self.lose(pending.target) - self.succeeds()
            return self.fails()
        if isinstance(action, fa.Sacrifice):
            return self.lose(action.card) - self.succeeds()
        if isinstance(action, fa.CombineCounter):
            me = self.me
            hand = _without(me.hand, action.result)
            field = me.field
            if action.recruiters:
                hand = _without(hand, action.recruited)
                field = (*field, action.recruited)
            field = (*_without(field, action.first, action.second), action.result)
            if action.returned:
                hand = (*hand, action.returned)
            after = _cards_potential(field, hand) - self.base
            if self.state.config.tribute and self.me.tribute < TRIBUTE_CAP:
                after += TRIBUTE
            if self.holds(value_of(action.result)):
                # The attack goes on against the new card: count it lost.
                after += _cards_potential(_without(field, action.result), hand) - (
                    _cards_potential(field, hand)
                )
                return after - self.succeeds() - 0.05
            return after + self.fails() - 0.05
        return _NEVER
