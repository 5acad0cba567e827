"""Attacks: which card may attack which, with what support; the classic attack, and the
Trionfey declared attack with the defender's counter window and its resolution.

The checks here serve both the move generator (:mod:`.moves`) and the explanation of an
illegal action (:mod:`.legality`).
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from itertools import combinations

from fanfold.games.fano.actions import (
    Allow,
    Attack,
    CombineCounter,
    Declare,
    FanoAction,
    Flip,
    Sacrifice,
)
from fanfold.games.fano.cards import (
    ATTACK_SUPPORT,
    LINE_THIRD,
    MAX_COMBAT,
    MAX_VALUE,
    base_card,
    declared_as,
    is_combat,
    is_joker,
    is_suited,
    value_of,
)
from fanfold.games.fano.config import Special
from fanfold.games.fano.rules.specials import can_use, earn, spend
from fanfold.games.fano.rules.turns import after_main_action, opponents
from fanfold.games.fano.rules.zones import (
    FIELD_SLOTS,
    edit_player,
    edit_state,
    insert_card,
    leave_field,
    remove_card,
    replace_seat,
    return_to_hand,
    take_from_hand,
)
from fanfold.games.fano.state import FanoState, Pending, Phase, PlayerState

# Legal-action lists are rebuilt on every move; equal actions are equal immutable values, so
# one shared instance per action saves building it again (bounded caches).
_attack = lru_cache(maxsize=1 << 16)(Attack)
_declare = lru_cache(maxsize=1 << 14)(Declare)
_combine_counter = lru_cache(maxsize=1 << 16)(CombineCounter)


# ------------------------------------------------------------------------------ the checks
def support_value(attacker: int, target: int, reverse: bool) -> int:
    """The support value an ``attacker`` value needs against a ``target`` value (0: that is
    not a legal direction), with the arrows reversed when ``reverse``."""
    if reverse:
        return LINE_THIRD[attacker][target] if ATTACK_SUPPORT[target][attacker] else 0
    return ATTACK_SUPPORT[attacker][target]


def attack_direction(attacker: int, target: int, reverse_ok: bool) -> int:
    """How an ``attacker`` value may attack a ``target`` value: 1 along the arrows, -1 only
    reversed (when Reverse Fano may be used: ``reverse_ok``), 0 not at all. Reverse Fano is
    for the attacks the arrows do not allow."""
    if ATTACK_SUPPORT[attacker][target]:
        return 1
    if reverse_ok and ATTACK_SUPPORT[target][attacker]:
        return -1
    return 0


def _attack_ways(reverse_ok: bool) -> tuple[tuple[tuple[int, bool] | None, ...], ...]:
    """``[attacker][target]``: the support value and whether the attack is reversed, or None
    (values 0..10; only combat values ever attack)."""
    ways: list[tuple[tuple[int, bool] | None, ...]] = []
    for attacker in range(MAX_VALUE + 1):
        row: list[tuple[int, bool] | None] = []
        for target in range(MAX_VALUE + 1):
            direction = 0
            if 1 <= attacker <= MAX_COMBAT and 1 <= target <= MAX_COMBAT:
                direction = attack_direction(attacker, target, reverse_ok)
            reverse = direction < 0
            row.append((support_value(attacker, target, reverse), reverse) if direction else None)
        ways.append(tuple(row))
    return tuple(ways)


#: ``ATTACK_WAYS[reverse_ok][attacker value][target value]``: :func:`attack_direction` as
#: ``(support value, reverse)`` or None, looked up by the move generator's inner loops.
ATTACK_WAYS = (_attack_ways(False), _attack_ways(True))


def can_reverse(state: FanoState, seat: int) -> bool:
    """Whether ``seat`` may use Reverse Fano now."""
    return can_use(state.config, state.players[seat], seat, Special.REVERSE)


def active(player: PlayerState) -> tuple[int, ...]:
    """The combat cards in play that may attack, be attacked (Trionfey), recruit or counter:
    face up."""
    return _combat_cards(player.field, player.hidden)


def attackable(player: PlayerState) -> tuple[int, ...]:
    """The cards of ``player`` that classic attacks may target: combat cards in play without
    Perfect defense."""
    return _combat_cards(player.field, player.protected)


@lru_cache(maxsize=1 << 12)
def _combat_cards(field: tuple[int, ...], left_out: tuple[int, ...]) -> tuple[int, ...]:
    """The combat cards of ``field`` not in ``left_out`` (cached: fields repeat)."""
    return tuple(card for card in field if is_combat(card) and card not in left_out)


def hand_cards(hand: tuple[int, ...], value: int) -> tuple[int, ...]:
    """The hand cards that can enter play as ``value`` (a joker declared as it): suited cards
    first, then the jokers."""
    return _hand_cards(hand, value)


@lru_cache(maxsize=1 << 12)
def _hand_cards(hand: tuple[int, ...], value: int) -> tuple[int, ...]:
    found = [card for card in hand if is_suited(card) and value_of(card) == value]
    found.extend(declared_as(card, value) for card in sorted(set(hand)) if is_joker(card))
    return tuple(found)


def enters_as(hand: tuple[int, ...], card: int, value: int) -> bool:
    """Whether ``card`` is a hand card (a declared joker: a joker in hand) that enters play as
    ``value``: the test behind :func:`hand_cards`."""
    return value > 0 and value_of(card) == value and base_card(card) in hand


def counter_shapes(defender: PlayerState, target: int) -> list[tuple[int, int, int, int]]:
    """Every counter the defender's field allows against ``target``, whatever the hand:
    ``(partner, result value, recruit value, recruiter pair index)`` rows; ``recruit value``
    is 0 for a combine counter (the pair index is then -1). Public: the window opens only when
    this is not empty."""
    x = value_of(target)
    cards = active(defender)
    shapes: list[tuple[int, int, int, int]] = []
    for partner in cards:
        total = x + value_of(partner)
        if partner != target and total <= MAX_COMBAT:
            shapes.append((partner, total, 0, -1))
    if len(defender.field) < FIELD_SLOTS:
        for index, (one, two) in enumerate(combinations(cards, 2)):
            third = LINE_THIRD[value_of(one)][value_of(two)]
            if third and x + third <= MAX_COMBAT:
                shapes.append((0, x + third, third, index))
    return shapes


def window_opens(state: FanoState, defender_seat: int, target: int) -> bool:
    """Whether the defender gets a counter window: the field (public) allows some counter, or
    holds a face-down card (which could be flipped for one)."""
    defender = state.players[defender_seat]
    return bool(defender.hidden) or bool(counter_shapes(defender, target))


# ------------------------------------------------------------------------------ generation
def classic_attacks(
    state: FanoState, seat: int, me: PlayerState, actions: list[FanoAction]
) -> None:
    """Every classic attack of ``seat`` on the next player, each support named."""
    opponent = state.players[state.target_of(seat)]
    if me.field and opponent.field and me.hand:
        targets = attackable(opponent)
        actions.extend(_attacks(me.field, targets, me.hand, can_reverse(state, seat)))


@lru_cache(maxsize=1 << 14)
def _attacks(
    field: tuple[int, ...], targets: tuple[int, ...], hand: tuple[int, ...], reverse_ok: bool
) -> tuple[Attack, ...]:
    """Every attack of a card of ``field`` on one of ``targets`` with a support from ``hand``
    (cached: positions repeat within and across games)."""
    ways = ATTACK_WAYS[reverse_ok]
    attacks: list[Attack] = []
    for attacker in field:
        row = ways[value_of(attacker)]
        for target in targets:
            way = row[value_of(target)]
            if way is not None:
                support, reverse = way
                for card in hand_cards(hand, support):
                    attacks.append(_attack(attacker, target, card, reverse))
    return tuple(attacks)


def declarations(state: FanoState, seat: int, me: PlayerState, actions: list[FanoAction]) -> None:
    """Every Trionfey declared attack of ``seat`` (the support is not named)."""
    attackers = active(me)
    if not attackers:
        return
    reverse_ok = can_reverse(state, seat)
    named = len(state.players) > 2
    for foe in opponents(state, seat):
        targets = active(state.players[foe])
        if targets:
            actions.extend(_declarations(attackers, targets, foe if named else None, reverse_ok))


@lru_cache(maxsize=1 << 14)
def _declarations(
    attackers: tuple[int, ...], targets: tuple[int, ...], foe: int | None, reverse_ok: bool
) -> tuple[Declare, ...]:
    ways = ATTACK_WAYS[reverse_ok]
    found: list[Declare] = []
    for attacker in attackers:
        row = ways[value_of(attacker)]
        for target in targets:
            way = row[value_of(target)]
            if way is not None:
                found.append(_declare(attacker, target, foe, way[1]))
    return tuple(found)


def counters(pending: Pending, defender: PlayerState) -> list[FanoAction]:
    """The defender's answers in the counter window: ``allow``; before the support is shown,
    flips and counters; after, sacrifices of face-down cards."""
    actions: list[FanoAction] = [Allow()]
    target = pending.target
    if pending.support:
        actions.extend(Sacrifice(card) for card in defender.hidden)
        return actions
    actions.extend(Flip(card) for card in defender.hidden)
    pairs = list(combinations(active(defender), 2))
    for partner, total, third, index in counter_shapes(defender, target):
        if not third:
            for result in hand_cards(defender.hand, total):
                one, two = min(partner, target), max(partner, target)
                for returned in (0, one, two):
                    if is_suited(returned):
                        actions.append(_combine_counter(one, two, result, returned))
            continue
        recruiters = pairs[index]
        for recruited in hand_cards(defender.hand, third):
            rest = remove_card(defender.hand, base_card(recruited))
            for result in hand_cards(rest, total):
                one, two = min(recruited, target), max(recruited, target)
                for returned in (0, one, two):
                    if is_suited(returned):
                        actions.append(
                            _combine_counter(one, two, result, returned, recruited, recruiters)
                        )
    return actions


# ------------------------------------------------------------------------------- applying
def apply_attack(state: FanoState, action: Attack) -> FanoState:
    """A classic attack: attacker and target to their owners' discard piles face up, the
    support into play."""
    seat = state.turn_player
    me = state.players[seat]
    players = state.players
    target_seat = state.target_of(seat)
    me = take_from_hand(me, action.support)
    me = leave_field(me, action.attacker)
    me = edit_player(me, field=insert_card(me.field, action.support))
    if action.reverse:
        me = spend(state.config, me, Special.REVERSE)
    players = replace_seat(players, target_seat, leave_field(players[target_seat], action.target))
    return after_main_action(state, players, seat, me)


def apply_attack_step(
    state: FanoState, action: Declare | CombineCounter | Allow | Sacrifice
) -> FanoState:
    """A declaration, a counter, or the defender letting the attack resolve (Trionfey)."""
    if isinstance(action, Declare):
        return _declare_attack(state, action)
    if isinstance(action, Allow):
        if state.pending is not None and state.pending.support:
            return _complete(state, state.pending.target)
        return _resolve(state)
    if isinstance(action, Sacrifice):
        return _complete(state, action.card)
    return _counter(state, action)


def _declare_attack(state: FanoState, action: Declare) -> FanoState:
    seat = state.turn_player
    defender = action.seat if action.seat is not None else state.target_of(seat)
    me = state.players[seat]
    if action.reverse:
        me = spend(state.config, me, Special.REVERSE)
    state = edit_state(
        state,
        players=replace_seat(state.players, seat, me),
        pending=Pending(action.attacker, action.target, defender, action.reverse),
        target_seat=defender if len(state.players) > 2 else None,
    )
    if window_opens(state, defender, action.target):
        return edit_state(state, phase=Phase.REACT)
    return _resolve(state)


def _counter(state: FanoState, action: CombineCounter) -> FanoState:
    """The defender's counter: the attack turns on the card it makes."""
    pending = state.pending
    if pending is None:  # pragma: no cover - the caller checked legality
        return state
    seat = pending.defender
    me = state.players[seat]
    if action.recruiters:
        me = take_from_hand(me, action.recruited)
        me = edit_player(me, field=insert_card(me.field, action.recruited))
    me = take_from_hand(me, action.result)
    for card in (action.first, action.second):
        me = return_to_hand(me, card) if card == action.returned else leave_field(me, card)
    me = edit_player(me, field=insert_card(me.field, action.result))
    me = earn(state.config, me)
    pending = replace(pending, target=action.result)
    state = edit_state(state, players=replace_seat(state.players, seat, me), pending=pending)
    # The attack turns on the new card: it goes on only if that is still a legal direction
    # and the attacker holds the support; otherwise only the attacker is discarded.
    needed = support_value(value_of(pending.attacker), value_of(action.result), pending.reverse)
    attacker = state.players[state.turn_player]
    if not needed or not hand_cards(attacker.hand, needed):
        return _fail_attack(state)
    if window_opens(state, seat, action.result):
        return edit_state(state, phase=Phase.REACT)
    return _resolve(state)


def _resolve(state: FanoState) -> FanoState:
    """The defender lets the attack be: the attacker shows the support, or loses the attacker."""
    pending = state.pending
    if pending is None:  # pragma: no cover - only called with an attack pending
        return state
    me = state.players[state.turn_player]
    needed = support_value(value_of(pending.attacker), value_of(pending.target), pending.reverse)
    supports = hand_cards(me.hand, needed) if needed else []
    if not supports:
        return _fail_attack(state)
    # A real card is shown before a joker (the joker stays wild in hand).
    state = edit_state(state, pending=replace(pending, support=supports[0]))
    if state.players[pending.defender].hidden:
        # Perfect defense: the defender may discard a face-down card instead.
        return edit_state(state, phase=Phase.REACT)
    return _complete(state, pending.target)


def _complete(state: FanoState, lost: int) -> FanoState:
    """The attack succeeds: the attacker and ``lost`` (the target, or a face-down card
    sacrificed for it, which goes face down) are discarded and the support enters play."""
    pending = state.pending
    if pending is None:  # pragma: no cover - only called with an attack pending
        return state
    seat = state.turn_player
    me = state.players[seat]
    me = take_from_hand(me, pending.support)
    me = leave_field(me, pending.attacker)
    me = edit_player(me, field=insert_card(me.field, pending.support))
    defender = state.players[pending.defender]
    face_up = lost not in defender.hidden
    players = replace_seat(state.players, pending.defender, leave_field(defender, lost, face_up))
    state = edit_state(state, pending=None, phase=Phase.MAIN)
    return after_main_action(state, players, seat, me)


def _fail_attack(state: FanoState) -> FanoState:
    """The attack cannot be completed: only the attacking card is discarded, face up."""
    pending = state.pending
    if pending is None:  # pragma: no cover - only called with an attack pending
        return state
    seat = state.turn_player
    me = leave_field(state.players[seat], pending.attacker)
    return edit_state(
        state, players=replace_seat(state.players, seat, me), pending=None, phase=Phase.MAIN
    )


def clear_caches() -> None:
    """Forget the cached attack lists and card lists."""
    _attacks.cache_clear()
    _declarations.cache_clear()
    _combat_cards.cache_clear()
    _hand_cards.cache_clear()
