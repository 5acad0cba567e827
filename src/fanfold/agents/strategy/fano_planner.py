"""Fano's turn planner: whole turns searched on deals of the view, judged by what they leave.

A Fano turn is a sequence of the turn player's own actions (attacks or declarations, combines
with their return choices, recruits, promotions, specials) closed by one end action, before
any opponent plays. The planner deals a few states consistent with its view
(:meth:`fanfold.core.game.Game.sample_state`), and in each searches its own turn depth first:
every sequence of main-phase actions, each closed by every end action, within a node budget
(transpositions are met once: many orders reach the same cards). Where the sequence needs a
chance or an opponent (a hand emptied draws three from the dealt pile; a Trionfey declaration
waits for the defender, answered by the strategy of :mod:`.fano_knowledge` in the dealt
state) the deal decides. The first action with the best mean over the deals is played; the
decision is made again at each action, so what a draw or a counter shows is used at once.

A position a turn leaves is judged by :func:`turn_value`, from what the deciding seat could
know only (the dealt hands are never read there):

* each player's promotions and road to the next one (:func:`.fano_knowledge.potential`:
  prestige cards in play, pairs in play that sum to a missing prestige value, ...), the
  opponents' from their cards in play alone;
* **what the opponents can do next**: each of the seat's exposed combat cards (not under
  Perfect defense, not face down) that a player who attacks it can hit along the Fano lines is
  counted lost with the chance that player holds the support at their next turn: their
  known hand cards, else the copies of the support not in sight among their hidden cards, of
  which they will hold three after drawing (:func:`holds_chance`); in Trionfey the counter
  window (the seat could answer a declaration) lowers that chance;
* the same pricing the other way: the opponents' exposed cards the seat can hit at its next
  turn, at a lower weight (they move first);
* a card cycled through a face-down discard, and tribute counters (a third of a special);
  a turn ended with ``pass`` costs a little, so that two cautious players do not stand off
  until the turn limit draws the game.

The difference to the best opponent (or partnership) is the value; a won game is worth more
than any position.

Where the table restricts seats (an experiment's ``forbid=``, told through
:meth:`fanfold.agents.base.Agent.restrict`), the search honours every seat's restriction: the
seat's own turn, an opponent's answer to a declaration and, with replies, the opponent's turn
are searched over the allowed actions only (all of them where none is allowed, as the table
does), and an opponent forbidden Reverse Fano (or attacks) is not feared for it. Without
restrictions nothing changes.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from fanfold.agents.strategy.fano_knowledge import (
    CARD,
    CYCLE,
    LEVEL,
    TRIBUTE,
    FanoKnowledge,
    attackers_of,
    player_potential,
)
from fanfold.core.game import Game
from fanfold.core.kinds import allowed, forbids
from fanfold.games.fano.actions import (
    Discard,
    FanoAction,
    Pass,
    Play,
    Promote,
    Substitute,
)
from fanfold.games.fano.cards import MAX_COMBAT, is_joker
from fanfold.games.fano.config import FanoConfig, Special, Teams
from fanfold.games.fano.rules import can_use, teammates
from fanfold.games.fano.rules.attacks import support_value
from fanfold.games.fano.rules.deck import HAND_SIZE
from fanfold.games.fano.state import FanoState, Phase, PlayerState
from fanfold.games.fano.view import FanoView

#: The table's restrictions, one tuple of forbidden action kinds per seat (empty: none).
Restrictions = Sequence[tuple[str, ...]]

#: A won game, above any position.
WIN = 1000.0
#: How much of an exposed card's expected loss counts (the attacker may have better to do).
THREAT = 0.9
#: The same when the seat's field opens a Trionfey counter window (it may answer).
COUNTERABLE = 0.7
#: What the attacker gains besides the card it takes: its support enters play.
SUPPORT_GAIN = 0.3
#: How much of the seat's own next-turn attacks count (the opponents move first).
OPPORTUNITY = 0.35
#: What ending a turn with ``pass`` costs: a turn that changes nothing lets a stand-off
#: last until the turn limit draws the game; cycling a card or playing one moves it on.
STALL = 0.3
#: The most actions of one turn the search follows.
DEPTH = 12

_END = (Play, Substitute, Discard, Pass)


def holds_chance(config: FanoConfig, player: PlayerState, seat: int, value: int) -> float:
    """The chance that the player at ``seat`` holds a card of ``value`` (or a joker) once they
    have drawn to three at their next turn, from what every player sees: certain when a card
    of their hand known to all is one; else their unknown hand cards (three, less the known
    ones) are drawn from the copies of ``value`` not in sight (not in play, not face up in
    their discards, not known in hand) among all their hidden cards (hand, draw pile,
    face-down discards)."""
    known = player.known
    for card in known:
        if card >> 4 == value or is_joker(card):
            return 1.0
    unknown = HAND_SIZE - len(known)
    if unknown <= 0:
        return 0.0
    seen = 0
    for card in (*player.field, *player.up, *known):
        if card >> 4 == value and not is_joker(card):
            seen += 1
    copies = len(config.suits_of(seat)) - seen
    if copies <= 0:
        return 0.0
    pool = len(player.hand) - len(known) + len(player.draw) + len(player.down)
    if pool <= unknown or pool - copies < unknown:
        return 1.0
    return 1.0 - math.comb(pool - copies, unknown) / math.comb(pool, unknown)


def _own_chance(player: PlayerState, config: FanoConfig, seat: int, value: int) -> float:
    """The chance that the deciding seat holds ``value`` at its next turn: certain when in
    hand, else drawn from its own draw pile (whose cards it knows, not their order)."""
    if any(card >> 4 == value or is_joker(card) for card in player.hand):
        return 1.0
    wanted = len(player.draw) and sum(
        1 for card in player.draw if card >> 4 == value or is_joker(card)
    )
    draws = min(HAND_SIZE - len(player.hand), len(player.draw))
    if not wanted or draws <= 0:
        return 0.0
    pool = len(player.draw)
    if pool - wanted < draws:
        return 1.0
    del config, seat
    return 1.0 - math.comb(pool - wanted, draws) / math.comb(pool, draws)


def _loss(player: PlayerState, card: int, base: float, hand: bool) -> float:
    """What losing ``card`` from play costs ``player`` (potential, with or without the hand)."""
    field = list(player.field)
    field.remove(card)
    return base - _potential(tuple(field), player.hand if hand else ()) + CARD


def _potential(field: tuple[int, ...], hand: tuple[int, ...]) -> float:
    return player_potential(PlayerState(hand=hand, field=field))


def _offered(
    game: Game[FanoConfig, FanoState, FanoAction, FanoView],
    state: FanoState,
    legal: Sequence[FanoAction],
    forbidden: Restrictions,
    seat: int,
) -> Sequence[FanoAction]:
    """``legal`` less the kinds ``seat``'s restriction forbids, or all of ``legal`` where that
    leaves none (as :meth:`fanfold.play.table.Table.offered`)."""
    names = forbidden[seat] if seat < len(forbidden) else ()
    if not names:
        return legal
    return allowed(game, state, legal, names) or legal


def _ways(
    config: FanoConfig, player: PlayerState, seat: int, names: Sequence[str]
) -> tuple[bool, ...]:
    """How the player at ``seat`` may attack at its next turn: plainly (``False``) and with
    Reverse Fano (``True``) where the rules give it the special, less the ways its restriction
    ``names`` forbids (an attack is a ``declare`` in Trionfey)."""
    reverse = can_use(config, player, seat, Special.REVERSE)
    if not names:
        return (False, True) if reverse else (False,)
    kind = "declare" if config.trionfey else "attack"
    ways: list[bool] = []
    if not forbids(names, kind):
        ways.append(False)
    if reverse and not forbids(names, f"{kind}+reverse"):
        ways.append(True)
    return tuple(ways)


def _exposure(
    state: FanoState,
    seat: int,
    attackers: Sequence[int],
    chance: Callable[[PlayerState, int, int], float],
    with_hand: bool,
    forbidden: Restrictions = (),
) -> float:
    """The expected loss of ``seat``'s exposed combat cards to the players ``attackers``, each
    holding a support with ``chance(player, attacker_seat, value)``: a card is lost if any of
    the attacks on it (those the attacker's restriction in ``forbidden`` allows) has its
    support, the attacks taken as independent."""
    config = state.config
    victim = state.players[seat]
    base = _potential(victim.field, victim.hand if with_hand else ())
    total = 0.0
    for card in victim.field:
        value = card >> 4
        if value > MAX_COMBAT or card in victim.protected or card in victim.hidden:
            continue
        safe = 1.0
        gain = 0.0
        for other in attackers:
            foe = state.players[other]
            ways = _ways(config, foe, other, forbidden[other] if other < len(forbidden) else ())
            for attacker in foe.field:
                strength = attacker >> 4
                if strength > MAX_COMBAT or attacker in foe.hidden:
                    continue
                for reverse in ways:
                    needed = support_value(strength, value, reverse)
                    if needed:
                        held = chance(foe, other, needed)
                        safe *= 1.0 - held
                        gain = max(gain, held)
        hit = 1.0 - safe
        if hit:
            total += hit * _loss(victim, card, base, with_hand) + gain * SUPPORT_GAIN
    return total


def turn_value(state: FanoState, seat: int, forbidden: Restrictions = ()) -> float:
    """The value for ``seat`` of ``state``, a position its turn left (see the module text):
    its standing less the best opposing one, in units where a promotion is
    :data:`.fano_knowledge.LEVEL`; :data:`WIN` (or its opposite) once the game is decided.
    ``forbidden`` (one tuple of kinds per seat) leaves out the attacks a seat's restriction
    forbids it."""
    config = state.config
    players = state.players
    count = len(players)
    goal = config.promotions_to_win
    partners = teammates(config, seat)
    for other, player in enumerate(players):
        if player.level >= goal:
            return WIN if other in partners else -WIN
    me = players[seat]
    mine = LEVEL * me.level + player_potential(me) + TRIBUTE * me.tribute
    attackers = attackers_of(config, seat, count)

    def theirs(player: PlayerState, other: int, value: int) -> float:
        return holds_chance(config, player, other, value)

    weight = THREAT
    if config.trionfey and _window(me):
        weight = COUNTERABLE
    mine -= weight * _exposure(state, seat, attackers, theirs, True, forbidden)
    rivals: dict[int, float] = {}
    for other in range(count):
        if other in partners:
            continue
        foe = players[other]
        rivals[other] = LEVEL * foe.level + _potential(foe.field, ()) + TRIBUTE * foe.tribute
    # The seat's own attacks at its next turn, on the players it may attack.
    for other in _targets(state, seat):
        if other in rivals:

            def own(player: PlayerState, mover: int, value: int) -> float:
                del player, mover
                return _own_chance(me, config, seat, value)

            rivals[other] -= OPPORTUNITY * _exposure(state, other, (seat,), own, False, forbidden)
    if config.teams is Teams.ONE_FOR_ALL or config.teams is Teams.ALL_FOR_ONE:
        best_partner = max(
            (
                LEVEL * players[p].level + _potential(players[p].field, ())
                for p in partners
                if p != seat
            ),
            default=-math.inf,
        )
        mine = max(mine, best_partner)
    return mine - max(rivals.values(), default=0.0)


def _window(player: PlayerState) -> bool:
    """Whether ``player``'s field would open a Trionfey counter window: a face-down card, or
    two combat cards in play (a combine counter needs one besides the attacked card)."""
    combat = [card for card in player.field if 1 <= card >> 4 <= MAX_COMBAT]
    return bool(player.hidden) or len(combat) >= 2


def _targets(state: FanoState, seat: int) -> tuple[int, ...]:
    """The players ``seat`` may attack at its next turn."""
    config = state.config
    if not config.trionfey or len(state.players) == 2:
        return ((seat + 1) % len(state.players),)
    return tuple(
        other for other in range(len(state.players)) if other not in teammates(config, seat)
    )


#: A position where the seat's turn ended: its value, the part of it that came from the
#: actions closing the turn (a discard's cycling, a pass's cost), and the position itself.
Leaf = tuple[float, float, FanoState]
#: A search's value of a position, with the best positions where the turn ends.
Found = tuple[float, tuple[Leaf, ...]]


def _keep(leaves: list[Leaf], keep: int) -> tuple[Leaf, ...]:
    """The ``keep`` best of ``leaves`` by value, each position once."""
    if keep <= 0:
        return ()
    leaves.sort(key=lambda leaf: -leaf[0])
    kept: list[Leaf] = []
    seen: set[FanoState] = set()
    for leaf in leaves:
        if leaf[2] not in seen:
            seen.add(leaf[2])
            kept.append(leaf)
            if len(kept) == keep:
                break
    return tuple(kept)


def _plus(leaves: tuple[Leaf, ...], bonus: float) -> tuple[Leaf, ...]:
    return tuple((value + bonus, extra + bonus, state) for value, extra, state in leaves)


@dataclass
class _Search:
    """One deal's search of the deciding seat's turn; with ``keep`` above 0 it also collects,
    under each position, the ``keep`` best positions where the turn ends (:data:`Leaf`)."""

    game: Game[FanoConfig, FanoState, FanoAction, FanoView]
    knowledge: FanoKnowledge
    seat: int
    budget: int
    deadline: float | None
    clock: Callable[[], float]
    rng: random.Random
    keep: int = 0
    #: False for an opponent's answering turn: its end actions are not searched, each of its
    #: main-phase positions judged as it stands (the end action's effect left out).
    ends: bool = True
    #: The table's restrictions, one tuple per seat (empty: none).
    forbidden: Restrictions = ()

    def __post_init__(self) -> None:
        self.memo: dict[FanoState, Found] = {}
        self.nodes = 0

    def out_of_time(self) -> bool:
        if self.nodes >= self.budget:
            return True
        return self.deadline is not None and self.clock() >= self.deadline

    def end(self, state: FanoState) -> Found:
        value = turn_value(state, self.seat, self.forbidden)
        return value, ((value, 0.0, state),) if self.keep else ()

    def legal(self, state: FanoState, decider: int) -> Sequence[FanoAction]:
        """What ``decider`` may choose in ``state``: its legal actions less its restriction."""
        return _offered(self.game, state, self.game.legal_actions(state), self.forbidden, decider)

    def value(self, state: FanoState, depth: int) -> Found:
        """The best the seat can make of ``state`` from here to the end of its turn, and the
        best positions where that turn ends."""
        game = self.game
        decider = game.current_player(state)
        if decider is None:
            return self.end(state)
        mine = state.turn_player == self.seat
        if not mine and decider != self.seat:
            return self.end(state)
        if state.phase is Phase.REACT and decider != self.seat:
            # The opponent answers the seat's declaration in the dealt state.
            legal = self.legal(state, decider)
            action = self.knowledge.best(state, legal, self.rng)
            return self.value(game.apply_legal(state, action), depth)
        if not mine and state.phase is not Phase.REACT:
            return self.end(state)
        known = self.memo.get(state)
        if known is not None:
            return known
        legal = self.legal(state, decider)
        if depth >= DEPTH or self.out_of_time():
            result = self.quick(state, legal)
        else:
            self.nodes += 1
            best = -math.inf
            leaves: list[Leaf] = []
            stand = not self.ends and mine and state.phase is Phase.MAIN
            if stand:
                best = turn_value(state, self.seat, self.forbidden)
            for action in legal:
                if stand and isinstance(action, _END):
                    continue
                after = game.apply_legal(state, action)
                if isinstance(action, _END) or (not mine):
                    score, found = self.leaf(after, depth)
                    bonus = 0.0
                    if isinstance(action, Discard):
                        bonus = CYCLE * len(action.cards)
                    elif isinstance(action, Pass):
                        bonus = -STALL
                    if bonus:
                        score += bonus
                        found = _plus(found, bonus)
                else:
                    score, found = self.value(after, depth + 1)
                best = max(best, score)
                leaves.extend(found)
            result = (best, _keep(leaves, self.keep))
        self.memo[state] = result
        return result

    def leaf(self, after: FanoState, depth: int) -> Found:
        """An end action's (or a defender's answer's) position: judged where the turn passed,
        searched on where the seat still decides (a counter window or a reshuffle)."""
        if self.game.current_player(after) == self.seat:
            return self.value(after, depth + 1)
        return self.value(after, depth)

    def quick(self, state: FanoState, legal: Sequence[FanoAction]) -> Found:
        """Out of budget: the best end action's position, or the position as it stands."""
        ends = [action for action in legal if isinstance(action, _END)]
        if not ends or not self.ends:
            return self.end(state)
        leaves: list[Leaf] = []
        for action in ends:
            after = self.game.apply_legal(state, action)
            value = turn_value(after, self.seat, self.forbidden)
            leaves.append((value, 0.0, after))
        best = max(leaf[0] for leaf in leaves)
        return best, _keep(leaves, self.keep)


def _replied(
    game: Game[FanoConfig, FanoState, FanoAction, FanoView],
    knowledge: FanoKnowledge,
    seat: int,
    leaf: FanoState,
    nodes: int,
    deadline: float | None,
    clock: Callable[[], float],
    rng: random.Random,
    forbidden: Restrictions = (),
) -> float:
    """The value for ``seat`` of ``leaf`` (its turn just ended, two players) once the
    opponent has played its best turn in the dealt state: the opponent's turn searched like
    the seat's own (within ``nodes`` positions, its draws from its dealt pile, the seat's
    counters answered by the strategy; each seat's restriction in ``forbidden`` honoured),
    each of its turns judged from the opponent's side."""
    mover = game.current_player(leaf)
    if mover is None or leaf.turn_player == seat:
        return turn_value(leaf, seat, forbidden)
    search = _Search(
        game,
        knowledge,
        leaf.turn_player,
        nodes,
        deadline,
        clock,
        rng,
        ends=False,
        forbidden=forbidden,
    )
    # The opponent's value counts its own hand but not the seat's: the seat's hand at the
    # end of its turn is added back.
    me = leaf.players[seat]
    held = _potential(me.field, me.hand) - _potential(me.field, ())
    return held - search.value(leaf, 0)[0]


def plan(
    game: Game[FanoConfig, FanoState, FanoAction, FanoView],
    knowledge: FanoKnowledge,
    view: FanoView,
    legal: Sequence[FanoAction],
    rng: random.Random,
    deals: int,
    nodes: int,
    deadline: float | None = None,
    clock: Callable[[], float] = time.monotonic,
    replies: int = 0,
    reply_nodes: int = 0,
    forbidden: Restrictions = (),
) -> list[float]:
    """Each of ``legal``'s mean value (:func:`turn_value` of the best turn it starts) over
    ``deals`` states dealt from ``view``, each searched within ``nodes`` nodes shared by all
    the first actions; past ``deadline`` (a ``clock`` time) every search ends its turns with
    their best end action, and no further deal is made once one was searched.

    With ``replies`` above 0 (two players), each first action's ``replies`` best turns in a
    deal are judged again after the opponent's best answering turn in that deal
    (:func:`_replied`, ``reply_nodes`` positions each), and the action is worth the best of
    them.

    ``forbidden`` holds the table's restrictions, one tuple of action kinds per seat: the
    searches offer each seat only what its restriction allows (``legal`` is what the table
    offered the seat already); empty, nothing is restricted."""
    seat = view.player
    totals = [0.0] * len(legal)
    keep = replies if replies > 0 and len(view.players) == 2 else 0
    for index in range(deals):
        if index and deadline is not None and clock() >= deadline:
            break
        state = game.sample_state(view, rng)
        search = _Search(
            game, knowledge, seat, nodes, deadline, clock, rng, keep, forbidden=forbidden
        )
        mine = state.turn_player == seat
        answered: dict[FanoState, float] = {}
        for position, action in enumerate(legal):
            after = game.apply_legal(state, action)
            if isinstance(action, Promote) and after.players[seat].level >= (
                state.config.promotions_to_win
            ):
                totals[position] += WIN
                continue
            if mine and not isinstance(action, _END) and state.phase is Phase.MAIN:
                score, leaves = search.value(after, 1)
            else:
                score, leaves = search.leaf(after, 1)
            if leaves:
                best = -math.inf
                for _, extra, end in leaves:
                    reply = answered.get(end)
                    if reply is None:
                        reply = _replied(
                            game,
                            knowledge,
                            seat,
                            end,
                            reply_nodes,
                            deadline,
                            clock,
                            rng,
                            forbidden,
                        )
                        answered[end] = reply
                    best = max(best, reply + extra)
                score = best
            totals[position] += score
            if isinstance(action, Discard):
                totals[position] += CYCLE * len(action.cards)
            elif isinstance(action, Pass):
                totals[position] -= STALL
    return totals
