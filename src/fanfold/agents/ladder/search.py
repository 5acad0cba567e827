"""The ladder's decision in Python: the seat's whole turn searched on the reference rules,
judged by a learned evaluation, reading only what the seat may know.

This is the Python twin of :mod:`fanfold.agents.ladder.kernels` (the same decision on the
compiled array state); both follow the steps below in the same order and are tested equal
decision by decision.

**The turn.** In its main phase the seat searches every sequence of its own actions
(attacks, combines with each return, recruits, promotions, specials), depth first, each
closed by every end action, within :attr:`Params.nodes` positions (positions met again are
searched once). A position where the turn ends is worth :func:`evaluate`: the learned
weights (:mod:`fanfold.agents.ladder.model`) times the features of
:mod:`fanfold.agents.ladder.features`, a logit of winning. The search never reads what the
seat may not know:

* an action that empties the hand draws three unknown cards: the search stops there, worth
  the position with an empty hand plus :attr:`Params.fresh` (the new cards and the rest of
  the turn);
* a Trionfey declaration that opens the defender's counter window is not played out with the
  defender's dealt hand: it is worth the attack carried through (the defender allows, the
  support shown) and the attack failed (the attacker lost), weighted by the chance that the
  defender holds a counter that stops it (from the public field and the copies not in sight),
  times :attr:`Params.counter_belief`; a bluff (no support in hand) is worth the attack failed
  plus that chance times :attr:`Params.bluff_gain` (a counter spends the defender's cards);
* the end action's effect on the seat's own cards is computed without passing the turn (the
  next player's draw is never dealt).

**The defender** (Trionfey counter window) compares allowing the attack, each counter and
each sacrifice by the evaluation of what follows, the attacker holding the support with the
chance read from the copies not in sight. **The draw phase**: the redraw of a hand of
prestige cards when an empty hand plus :attr:`Params.fresh` is worth more; a Temporary Joker
is always added.

**The turn's next decision.** A search that left no action of the turn unsearched (within
the node budget and the depth) may be kept (:class:`Kept`, one a seat at one table) for the
seat's next decision: when that decision's position is one the search valued and the rules,
the context (what the seat reads of its opponents and its draw pile) and the parameters are
the same, every position of its turn is worth what the kept memo says, so the search goes on
from the memo, its root's actions each one step, and stops at the first action worth the
position's kept value (the first of equal ones, as the whole search chooses). The choice is
the one a fresh search makes; only the work differs.

A style (:mod:`fanfold.agents.ladder.styles`) changes the weights and some decisions:
whether to bluff, whether to counter or to let attacks through, whether to spend tribute,
whom to attack.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from fanfold.agents.ladder.features import Foe, Seen, dot, features, holds
from fanfold.games.fano.actions import (
    Allow,
    Attack,
    Combine,
    CombineCounter,
    Declare,
    Discard,
    FanoAction,
    Mulligan,
    Pass,
    PlaceJoker,
    Play,
    Promote,
    Sacrifice,
    Shuffle,
    Substitute,
)
from fanfold.games.fano.cards import LINE_THIRD, MAX_COMBAT, is_joker
from fanfold.games.fano.config import Special
from fanfold.games.fano.rules import (
    apply,
    can_use,
    legal_actions,
    support_value,
    teammates,
    window_opens,
    winner,
)
from fanfold.games.fano.rules.attacks import _fail_attack
from fanfold.games.fano.rules.specials import TRIBUTE_CAP, earn, spend
from fanfold.games.fano.rules.zones import (
    edit_player,
    edit_state,
    enter_play,
    insert_card,
    leave_field,
    replace_seat,
    return_to_hand,
)
from fanfold.games.fano.state import FanoState, Phase, PlayerState

#: A won game (a logit above any position's).
WIN = 100.0
#: An action the style refuses.
NEVER = -math.inf
#: The most main-phase actions of one turn the search follows.
DEPTH = 12

#: Declarations: as the evaluation says, never without the support, always when possible.
BLUFF_EVAL, BLUFF_NEVER, BLUFF_ALWAYS = 0, 1, 2
#: The defender: as the evaluation says, always let the attack through, counter whenever it can.
REACT_EVAL, REACT_ALLOW, REACT_COUNTER = 0, 1, 2

_END = (Play, Substitute, Discard, Pass)


@dataclass(frozen=True)
class Params:
    """How one ladder member decides (see :mod:`fanfold.agents.ladder.styles`).

    Attributes:
        weights: the evaluation's weights, one per feature.
        fresh: what an emptied hand's three new cards add to the empty-handed position.
        counter_belief: how far the chance that a defender holds a stopping counter is
            believed to make it counter.
        bluff_gain: what a counter spent on the seat's declaration is worth to the seat.
        bluff: ``BLUFF_EVAL``, ``BLUFF_NEVER`` or ``BLUFF_ALWAYS``.
        bluff_bonus: with ``BLUFF_ALWAYS``, what a declaration without its support gains.
        react: ``REACT_EVAL``, ``REACT_ALLOW`` or ``REACT_COUNTER``.
        hoard: never spend tribute counters (until they reach the cap).
        weakest: a bonus for declaring on the weakest opponent (three players or more).
        nodes: positions of the turn searched a decision.
    """

    weights: tuple[float, ...]
    fresh: float = 0.3
    counter_belief: float = 1.0
    bluff_gain: float = 0.5
    bluff: int = BLUFF_EVAL
    bluff_bonus: float = 0.0
    react: int = REACT_EVAL
    hoard: bool = False
    weakest: float = 0.0
    nodes: int = 300


def spends_tribute(action: FanoAction) -> bool:
    """Whether ``action`` buys a Trionfey special (or uses a classic one)."""
    if isinstance(action, Declare | Attack):
        return action.reverse
    if isinstance(action, Combine):
        return action.oversum
    if isinstance(action, Play | Substitute):
        return action.face_down
    return isinstance(action, PlaceJoker)


def end_player(state: FanoState, me: PlayerState, action: FanoAction) -> PlayerState:
    """The seat's own cards after an end action, the turn not yet passed."""
    config = state.config
    if isinstance(action, Play):
        me = enter_play(me, action.card)
        if action.face_down:
            me = spend(config, me, Special.DEFENSE)
            me = edit_player(me, hidden=insert_card(me.hidden, action.card))
    elif isinstance(action, Substitute):
        me = leave_field(me, action.removed)
        me = enter_play(me, action.card)
        me = earn(config, me)
        if action.face_down:
            me = spend(config, me, Special.DEFENSE)
            me = edit_player(me, hidden=insert_card(me.hidden, action.card))
    elif isinstance(action, Discard):
        hand = me.hand
        for card in action.cards:
            index = hand.index(card)
            hand = hand[:index] + hand[index + 1 :]
        me = earn(config, edit_player(me, hand=hand))
    return me


#: The most positions a search's memo may hold to be kept (the compiled memo table's first
#: capacity is twice this: a search that fills it past half grows a table of its own, which
#: is not kept).
KEPT_MOST = 128


@dataclass
class Kept:
    """A complete search's memo kept for the seat's next decision (module text, "The turn's
    next decision"); the compiled decision keeps it in its workspace. One a seat at one
    table: :meth:`forget` it when another game or table begins.

    Attributes:
        key: what the memo's values depend on (the rules, the context, the parameters);
            ``None``: nothing kept.
        memo: the kept search's value of each position of the turn it searched.
        used: how many searches went on from a kept memo.
    """

    key: tuple[Any, ...] | None = None
    memo: dict[FanoState, float] = field(default_factory=dict)
    used: int = 0

    def forget(self) -> None:
        """Keep nothing: the next decision searches afresh."""
        self.key = None
        self.memo = {}


class Decision:
    """One decision of the seat ``seat`` in ``state`` (a state its view allows: only what
    the seat may know is read), with the seat's :class:`Kept` memo where given."""

    def __init__(
        self, state: FanoState, seat: int, params: Params, kept: Kept | None = None
    ) -> None:
        self.kept = kept
        self.cut = False  # an action of the turn left unsearched (the node budget, the depth)
        self.state = state
        self.seat = seat
        self.params = params
        config = state.config
        self.config = config
        self.goal = config.promotions_to_win
        count = len(state.players)
        self.count = count
        self.partners = teammates(config, seat)
        if not config.trionfey or count == 2:
            self.attackers: tuple[int, ...] = ((seat - 1) % count,)
            self.targets: tuple[int, ...] = ((seat + 1) % count,)
        else:
            rivals = tuple(other for other in range(count) if other not in self.partners)
            self.attackers = self.targets = rivals
        self.later: dict[int, tuple[float, ...]] = {}
        self.now: dict[int, tuple[float, ...]] = {}
        self.reverse: dict[int, bool] = {}
        weakest, low = -1, 1 << 30
        for other in range(count):
            if other in self.partners:
                continue
            player = state.players[other]
            face_up = player.field
            if player.hidden:
                face_up = tuple(card for card in player.field if card not in player.hidden)
            seen = Seen(
                len(config.suits_of(other)),
                len(player.hand),
                len(player.draw),
                len(player.down),
                len(player.hidden),
                player.known,
                face_up,
                player.up,
            )
            self.later[other] = tuple(
                holds(seen, value, True) if value else 0.0 for value in range(11)
            )
            self.now[other] = tuple(
                holds(seen, value, False) if value else 0.0 for value in range(11)
            )
            self.reverse[other] = can_use(config, player, other, Special.REVERSE)
            score = player.level * 4 + sum(
                1 for m in (8, 9, 10) if any(card >> 4 == m for card in face_up)
            )
            if score < low:
                weakest, low = other, score
        self.weakest = weakest
        me = state.players[seat]
        self.pool = tuple(0 if is_joker(card) else card >> 4 for card in me.draw)
        self.memo: dict[FanoState, float] = {}
        self.nodes = 0

    # ------------------------------------------------------------------------ judging
    def evaluate(self, state: FanoState, me: PlayerState) -> float:
        """The evaluation of ``state`` with the seat's own cards ``me``."""
        return dot(self.params.weights, self.features(state, me))

    def features(self, state: FanoState, me: PlayerState) -> list[float]:
        """The features of ``state`` with the seat's own cards ``me``."""
        foes = []
        for other in range(self.count):
            if other in self.partners:
                continue
            player = state.players[other]
            face_up = player.field
            if player.hidden:
                face_up = tuple(card for card in player.field if card not in player.hidden)
            foes.append(
                Foe(
                    player.level,
                    face_up,
                    player.protected,
                    len(player.hidden),
                    player.tribute,
                    self.later[other],
                    self.reverse[other],
                    other in self.attackers,
                    other in self.targets,
                )
            )
        return features(
            self.goal,
            me.level,
            me.field,
            me.hand,
            me.hidden,
            me.protected,
            me.tribute,
            self.pool,
            foes,
        )

    def end_value(self, state: FanoState, action: FanoAction) -> float:
        """The value of the end action ``action`` in ``state``."""
        if self.refused(state, action):
            return NEVER
        return self.evaluate(state, end_player(state, state.players[self.seat], action))

    def refused(self, state: FanoState, action: FanoAction) -> bool:
        """Whether the style refuses ``action``: a hoarder spends no tribute counter below
        the cap (classic specials are not tribute: it uses them)."""
        return (
            self.params.hoard
            and self.config.tribute
            and spends_tribute(action)
            and state.players[self.seat].tribute < TRIBUTE_CAP
        )

    def drawn(self, state: FanoState) -> float:
        """The hand was emptied and three unknown cards drawn."""
        me = edit_player(state.players[self.seat], hand=(), known=())
        return self.evaluate(state, me) + self.params.fresh

    # ------------------------------------------------------------------------ the turn
    def choose(self, legal: Sequence[FanoAction]) -> int:
        """The index in ``legal`` of the seat's choice."""
        if len(legal) == 1:
            return 0
        for index, action in enumerate(legal):
            if isinstance(action, Promote):
                return index
        phase = self.state.phase
        if phase is Phase.DRAW_SHUFFLE or phase is Phase.SHUFFLE:
            for index, action in enumerate(legal):
                if isinstance(action, Shuffle) and action.joker:
                    return index
            return 0
        if phase is Phase.MULLIGAN:
            me = self.state.players[self.seat]
            keep = self.evaluate(self.state, me)
            take = self.evaluate(self.state, edit_player(me, hand=(), known=())) + (
                self.params.fresh
            )
            for index, action in enumerate(legal):
                if isinstance(action, Mulligan) and action.take == (take > keep):
                    return index
            return 0
        if phase is Phase.REACT:
            return self.react(legal)
        most = math.inf
        kept = self.kept
        key = self.key()
        if kept is not None:
            if kept.key is not None and kept.key == key and self.state in kept.memo:
                self.memo = kept.memo
                most = kept.memo[self.state]
                kept.used += 1
            kept.forget()
        best, top = 0, NEVER
        for index, action in enumerate(legal):
            value = self.child(self.state, action, 1)
            if value > top:
                best, top = index, value
            if top == most:
                break
        if kept is not None and not self.cut and len(self.memo) < KEPT_MOST:
            kept.key = key
            kept.memo = self.memo
        return best

    def key(self) -> tuple[Any, ...]:
        """What the search's values depend on besides the position: the rules, the seat's
        context and the parameters."""
        return (
            self.config,
            self.seat,
            self.params,
            self.later,
            self.now,
            self.reverse,
            self.weakest,
            self.pool,
        )

    def child(self, state: FanoState, action: FanoAction, depth: int) -> float:
        """The value of ``action`` in ``state``, the seat's turn searched on."""
        if isinstance(action, _END):
            return self.end_value(state, action)
        params = self.params
        if self.refused(state, action):
            return NEVER
        bonus = 0.0
        if isinstance(action, Declare):
            defender = action.seat if action.seat is not None else state.target_of(self.seat)
            if params.weakest and defender == self.weakest and self.count > 2:
                bonus = params.weakest
            if window_opens(state, defender, action.target):
                return self.declared(state, action, defender, depth) + bonus
            if params.bluff == BLUFF_NEVER and not self.supported(state, action):
                return NEVER
        return self.after(state, apply(state, action), depth) + bonus

    def after(self, before: FanoState, state: FanoState, depth: int) -> float:
        """The value of ``state``, reached by a main-phase action from ``before``."""
        won = winner(state)
        if won is not None:
            return WIN if won in self.partners else -WIN
        old = before.players[self.seat]
        new = state.players[self.seat]
        if len(new.draw) < len(old.draw) or new.shuffles != old.shuffles:
            return self.drawn(state)
        if state.phase is not Phase.MAIN and state.phase is not Phase.END:
            return self.drawn(state)
        return self.node(state, depth)

    def node(self, state: FanoState, depth: int) -> float:
        """The best the seat can make of ``state`` to the end of its turn."""
        known = self.memo.get(state)
        if known is not None:
            return known
        deep = depth < DEPTH and self.nodes < self.params.nodes
        self.nodes += 1
        best = NEVER
        for action in legal_actions(state):
            if isinstance(action, _END):
                value = self.end_value(state, action)
            elif deep:
                value = self.child(state, action, depth + 1)
            else:
                self.cut = True
                continue
            if value > best:
                best = value
        if best == NEVER:
            best = self.evaluate(state, state.players[self.seat])
        self.memo[state] = best
        return best

    def supported(self, state: FanoState, action: Declare) -> bool:
        """Whether the seat holds the support of a declaration."""
        need = support_value(action.attacker >> 4, action.target >> 4, action.reverse)
        if not need:
            return False
        return any(card >> 4 == need or is_joker(card) for card in state.players[self.seat].hand)

    def declared(self, state: FanoState, action: Declare, defender: int, depth: int) -> float:
        """A declaration that opens the defender's counter window."""
        params = self.params
        opened = apply(state, action)
        failed = self.after(state, _fail_attack(opened), depth)
        chance = self.counter_chance(state, action, defender) * params.counter_belief
        if not self.supported(state, action):
            if params.bluff == BLUFF_NEVER:
                return NEVER
            value = failed + chance * params.bluff_gain
            if params.bluff == BLUFF_ALWAYS:
                value += params.bluff_bonus
            return value
        carried = apply(opened, Allow())
        if carried.phase is Phase.REACT:
            carried = apply(carried, Allow())
        through = self.after(state, carried, depth)
        return (1.0 - chance) * through + chance * (failed + params.bluff_gain)

    def counter_chance(self, state: FanoState, action: Declare, defender: int) -> float:
        """The chance that the defender holds a counter that stops the attack: the new card
        safe from the attacker, or one whose support the seat lacks."""
        foe = state.players[defender]
        hand = state.players[self.seat].hand
        now = self.now[defender]
        x = action.target >> 4
        a = action.attacker >> 4
        active = [c for c in foe.field if 1 <= c >> 4 <= MAX_COMBAT and c not in foe.hidden]
        best = 0.0
        for partner in active:
            total = x + (partner >> 4)
            if partner == action.target or total > MAX_COMBAT:
                continue
            if self.stops(a, total, action.reverse, hand):
                chance = now[total]
                if chance > best:
                    best = chance
        if len(foe.field) < 4:
            for i in range(len(active)):
                for j in range(i + 1, len(active)):
                    third = LINE_THIRD[active[i] >> 4][active[j] >> 4]
                    if not third or x + third > MAX_COMBAT:
                        continue
                    if self.stops(a, x + third, action.reverse, hand):
                        chance = now[third] * now[x + third]
                        if chance > best:
                            best = chance
        return best

    @staticmethod
    def stops(attacker: int, value: int, reverse: bool, hand: Sequence[int]) -> bool:
        """Whether a counter making a card of ``value`` stops the attack."""
        need = support_value(attacker, value, reverse)
        if not need:
            return True
        return not any(card >> 4 == need or is_joker(card) for card in hand)

    # --------------------------------------------------------------------- the defender
    def react(self, legal: Sequence[FanoAction]) -> int:
        """The defender's answer: the best of ``legal`` by the expected evaluation."""
        state = self.state
        pending = state.pending
        assert pending is not None  # phase react always has an attack pending
        params = self.params
        counters = any(isinstance(action, CombineCounter) for action in legal)
        best, top = 0, NEVER
        for index, action in enumerate(legal):
            value = NEVER
            if isinstance(action, Allow):
                if not (params.react == REACT_COUNTER and counters):
                    me = state.players[self.seat]
                    value = self.attacked(me, pending.target)
            elif isinstance(action, Sacrifice):
                if not (params.react == REACT_COUNTER and counters):
                    me = state.players[self.seat]
                    value = self.hit(me, action.card, False)
            elif isinstance(action, CombineCounter):  # noqa: SIM102 - as the compiled twin
                if params.react != REACT_ALLOW:
                    value = self.attacked(self.countered(action), action.result)
            if value > top:
                best, top = index, value
        return best

    def countered(self, action: CombineCounter) -> PlayerState:
        """The defender's cards after the counter ``action``."""
        me = self.state.players[self.seat]
        if action.recruiters:
            me = enter_play(me, action.recruited)
        me = enter_play(me, action.result)
        for card in (action.first, action.second):
            me = return_to_hand(me, card) if card == action.returned else leave_field(me, card)
        return earn(self.config, me)

    def attacked(self, me: PlayerState, target: int) -> float:
        """The expected evaluation when the attack goes on against ``target``: it succeeds
        when the attacker holds the support."""
        state = self.state
        pending = state.pending
        assert pending is not None
        need = support_value(pending.attacker >> 4, target >> 4, pending.reverse)
        if not need:
            return self.hit(me, 0, True)
        chance = 1.0 if pending.support else self.now[state.turn_player][need]
        lost = self.hit(me, target, True, need)
        kept = self.hit(me, 0, True)
        return chance * lost + (1.0 - chance) * kept

    def hit(self, me: PlayerState, lost: int, face_up: bool, need: int = 0) -> float:
        """The evaluation once the attack ends: the defender's ``lost`` card (0: none, the
        attack failed) discarded and the support (of value ``need``) in play, or the
        attacking card discarded."""
        state = self.state
        pending = state.pending
        assert pending is not None
        attacker_seat = state.turn_player
        attacker = state.players[attacker_seat]
        if lost:
            me = leave_field(me, lost, face_up)
            support = pending.support or (need << 4) | (pending.attacker & 15)
            attacker = leave_field(attacker, pending.attacker)
            attacker = edit_player(attacker, field=insert_card(attacker.field, support))
        else:
            attacker = leave_field(attacker, pending.attacker)
        players = replace_seat(state.players, attacker_seat, attacker)
        players = replace_seat(players, self.seat, me)
        return self.evaluate(edit_state(state, players=players, pending=None), me)


def decide(
    state: FanoState,
    seat: int,
    legal: Sequence[FanoAction],
    params: Params,
    kept: Kept | None = None,
) -> int:
    """The index in ``legal`` of the ladder's choice for ``seat`` in ``state`` (a state its
    view allows; nothing the seat may not know is read); ``kept``: the seat's :class:`Kept`
    memo, read and replaced (the same choice as without it)."""
    return Decision(state, seat, params, kept).choose(legal)
