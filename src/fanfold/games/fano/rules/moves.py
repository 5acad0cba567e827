"""The legal actions: every move of the decider, in a stable order.

Each kind of move has its check in one place, shared with :mod:`.legality` (which explains an
illegal action from the same checks): attacks and counters in :mod:`.attacks`, the rest here.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from fanfold.games.fano import actions as fa
from fanfold.games.fano.cards import (
    LINE_THIRD,
    MAX_COMBAT,
    MAX_VALUE,
    TEMP,
    declared_as,
    is_combat,
    is_joker,
    is_prestige,
    is_suited,
    kind_of,
    value_of,
)
from fanfold.games.fano.config import FanoConfig, PromotionMode, Special, Teams
from fanfold.games.fano.rules.attacks import (
    active,
    classic_attacks,
    counters,
    declarations,
)
from fanfold.games.fano.rules.attacks import clear_caches as clear_attack_caches
from fanfold.games.fano.rules.specials import can_place_joker, can_substitute_down, can_use
from fanfold.games.fano.rules.turns import teammates, winner
from fanfold.games.fano.rules.zones import FIELD_SLOTS
from fanfold.games.fano.state import FanoState, Phase, PlayerState

# Legal-action lists are rebuilt on every move; equal actions are equal immutable values, so
# one shared instance per action saves building it again (bounded caches).
_combine = lru_cache(maxsize=1 << 16)(fa.Combine)
_recruit = lru_cache(maxsize=1 << 14)(fa.Recruit)

MULLIGANS: tuple[fa.FanoAction, ...] = (fa.Mulligan(True), fa.Mulligan(False))
SHUFFLES: tuple[fa.FanoAction, ...] = (fa.Shuffle(False), fa.Shuffle(True))
_PASS = fa.Pass()


def legal_actions(state: FanoState) -> tuple[fa.FanoAction, ...]:
    """Every legal action of the decider, in a stable order."""
    phase = state.phase
    if phase is Phase.OVER or winner(state) is not None:
        return ()
    if phase is Phase.MULLIGAN:
        return MULLIGANS
    if phase is Phase.DRAW_SHUFFLE or phase is Phase.SHUFFLE:
        return SHUFFLES
    if phase is Phase.REACT:
        return react_actions(state)
    seat = state.turn_player
    me = state.players[seat]
    actions: list[fa.FanoAction] = []
    if phase is Phase.MAIN:
        main_actions(state, seat, me, actions)
    end_actions(state, seat, me, actions)
    if any(player.temp_jokers > 1 for player in state.players):
        # Two jokers in play with one value are one card for the rules: list each move once.
        return tuple(dict.fromkeys(actions))
    return tuple(actions)


def is_legal(state: FanoState, action: fa.FanoAction) -> bool:
    """``action in legal_actions(state)``, enumerating only the part of the legal actions
    that can hold an action of its kind (end actions, or main-phase actions)."""
    phase = state.phase
    if phase is Phase.OVER or winner(state) is not None:
        return False
    if phase is Phase.MULLIGAN:
        return action in MULLIGANS
    if phase is Phase.DRAW_SHUFFLE or phase is Phase.SHUFFLE:
        return action in SHUFFLES
    if phase is Phase.REACT:
        return action in react_actions(state)
    seat = state.turn_player
    me = state.players[seat]
    actions: list[fa.FanoAction] = []
    if isinstance(action, fa.Play | fa.Substitute | fa.Discard | fa.Pass):
        end_actions(state, seat, me, actions)
    elif phase is not Phase.MAIN:
        return False
    else:
        main_actions(state, seat, me, actions)
    return action in actions


def react_actions(state: FanoState) -> tuple[fa.FanoAction, ...]:
    """The defender's answers to the pending attack (Trionfey counter window)."""
    pending = state.pending
    if pending is None:
        return ()
    defender = state.players[pending.defender]
    if defender.temp_jokers > 1:
        return tuple(dict.fromkeys(counters(pending, defender)))
    return tuple(counters(pending, defender))


# ----------------------------------------------------------------------------- main phase
def main_actions(
    state: FanoState, seat: int, me: PlayerState, actions: list[fa.FanoAction]
) -> None:
    """The turn player's main-phase moves, in either edition."""
    config = state.config
    if config.trionfey:
        declarations(state, seat, me, actions)
        recruits(me, actions)
        combines_and_promotions(state, seat, me, actions)
        actions.extend(fa.Flip(card) for card in me.hidden)
        if can_place_joker(config, me, seat):
            actions.append(fa.PlaceJoker())
        return
    classic_attacks(state, seat, me, actions)
    combines_and_promotions(state, seat, me, actions)
    if can_use(config, me, seat, Special.DEFENSE):
        actions.extend(fa.Defend(card) for card in defendable(me))


def defendable(me: PlayerState) -> list[int]:
    """The cards Perfect defense (classic) may mark: combat cards in play not yet marked."""
    return [card for card in me.field if is_combat(card) and card not in me.protected]


def recruits(me: PlayerState, actions: list[fa.FanoAction]) -> None:
    """Trionfey recruits: two face-up combat cards in play bring the third value of their line
    from hand into a free slot."""
    if len(me.field) < FIELD_SLOTS and me.hand:
        actions.extend(_recruits(active(me), me.hand))


@lru_cache(maxsize=1 << 12)
def _recruits(cards: tuple[int, ...], hand: tuple[int, ...]) -> tuple[fa.Recruit, ...]:
    found: list[fa.Recruit] = []
    for first, second in combinations(cards, 2):
        third = LINE_THIRD[value_of(first)][value_of(second)]
        if not third:
            continue
        for card in sorted(set(hand)):
            if is_joker(card):
                found.append(_recruit(declared_as(card, third), first, second))
            elif value_of(card) == third:
                found.append(_recruit(card, first, second))
    return tuple(found)


def combining(me: PlayerState) -> tuple[int, ...]:
    """The cards in play that may combine (face up)."""
    if me.hidden:
        return tuple(card for card in me.field if card not in me.hidden)
    return me.field


def combines_and_promotions(
    state: FanoState, seat: int, me: PlayerState, actions: list[fa.FanoAction]
) -> None:
    """Every combination and promotion of the turn player."""
    config = state.config
    field = combining(me)
    if len(field) >= 2 and me.hand:
        oversum_ok = can_use(config, me, seat, Special.OVERSUM)
        actions.extend(
            _combines(
                field, me.hand, oversum_ok, config.oversum_prestige_only, config.joker_prestige
            )
        )
    if config.teams is Teams.ONE_FOR_ALL:
        actions.extend(team_promotions(state, seat))
        return
    actions.extend(fa.Promote(trio) for trio in promotion_sets(config, field))


def combine_results(
    total: int, card: int, oversum_ok: bool, prestige_only: bool, joker_prestige: bool = False
) -> list[tuple[int, bool]]:
    """What the hand card ``card`` may enter play as when two cards worth ``total`` combine:
    ``(result, oversum)`` pairs. A suited card is the sum, or with Oversum any card worth less
    (``prestige_only``: a prestige card); a joker is declared as the sum when that is a combat
    value, or with Oversum as any smaller combat value. With ``joker_prestige`` a Temporary
    Joker may be declared as a prestige value (8-10) too."""
    if is_suited(card):
        value = value_of(card)
        if value == total:
            return [(card, False)]
        if value < total and oversum_ok and (not prestige_only or value >= 8):
            return [(card, True)]
        return []
    results = []
    top = MAX_VALUE if joker_prestige and kind_of(card) == TEMP else MAX_COMBAT
    if total <= top:
        results.append((declared_as(card, total), False))
    if oversum_ok:
        lowest = 8 if prestige_only else 1
        results.extend(
            (declared_as(card, value), True) for value in range(lowest, min(top + 1, total))
        )
    return results


def returnable(first: int, second: int) -> list[int]:
    """What a combination of ``first`` and ``second`` may return to hand: nothing (0) or one
    of them that is not a joker."""
    returns = [0]
    if is_suited(first):
        returns.append(first)
    if is_suited(second):
        returns.append(second)
    return returns


@lru_cache(maxsize=1 << 14)
def _combines(
    field: tuple[int, ...],
    hand: tuple[int, ...],
    oversum_ok: bool,
    prestige_only: bool,
    joker_prestige: bool = False,
) -> tuple[fa.Combine, ...]:
    """Every combination of two cards of ``field`` (face up) for a card of ``hand``. Cached:
    a field and hand often come back within and across games."""
    actions: list[fa.Combine] = []
    cards = sorted(set(hand))
    for first, second in combinations(field, 2):
        total = value_of(first) + value_of(second)
        returns = returnable(first, second)
        for card in cards:
            for result, oversum in combine_results(
                total, card, oversum_ok, prestige_only, joker_prestige
            ):
                for returned in returns:
                    actions.append(_combine(first, second, result, returned, oversum))
    return tuple(actions)


def promotion_sets(config: FanoConfig, field: tuple[int, ...]) -> tuple[tuple[int, int, int], ...]:
    """The sets of three prestige cards in ``field`` that may be promoted with."""
    easy = config.promotion is PromotionMode.EASY and config.six_prestige
    return _promotion_sets(field, easy, config.promotion is PromotionMode.HARD)


@lru_cache(maxsize=1 << 12)
def _promotion_sets(
    field: tuple[int, ...], easy: bool, hard: bool
) -> tuple[tuple[int, int, int], ...]:
    """Any three prestige cards (``easy``), or an 8, a 9 and a 10 (``hard``: of one suit)."""
    prestige = [card for card in field if is_prestige(card)]
    result = []
    for trio in combinations(prestige, 3):
        values = sorted(value_of(card) for card in trio)
        # A Temporary Joker entered as a prestige card (joker_prestige) stands for any suit.
        one_suit = len({kind_of(card) for card in trio if is_suited(card)}) <= 1
        if easy or (values == [8, 9, 10] and (not hard or one_suit)):
            result.append((trio[0], trio[1], trio[2]))
    return tuple(result)


def team_promotions(state: FanoState, seat: int) -> list[fa.Promote]:
    """One for all: an 8, a 9 and a 10 of any suits from the fields of the partnership; a
    partner's card names its owner."""
    by_value: dict[int, list[tuple[int, int | None]]] = {8: [], 9: [], 10: []}
    for member in teammates(state.config, seat):
        owner = None if member == seat else member
        for card in state.players[member].field:
            if is_prestige(card):
                by_value[value_of(card)].append((card, owner))
    promotions = []
    for eight in by_value[8]:
        for nine in by_value[9]:
            for ten in by_value[10]:
                owners = (eight[1], nine[1], ten[1])
                cards = (eight[0], nine[0], ten[0])
                promotions.append(
                    fa.Promote(cards, () if all(o is None for o in owners) else owners)
                )
    return promotions


# ---------------------------------------------------------------------------- end actions
def end_actions(state: FanoState, seat: int, me: PlayerState, actions: list[fa.FanoAction]) -> None:
    """The turn's end actions: play, substitute, discard, pass."""
    config = state.config
    hand = me.hand
    field = me.field
    plays, down_plays, discards = _hand_end_actions(hand)
    if len(field) < FIELD_SLOTS:
        actions.extend(plays)
        if config.trionfey and can_use(config, me, seat, Special.DEFENSE):
            actions.extend(down_plays)
    for removed in field:
        actions.extend(_substitutes(removed, hand, False))
    if field and config.trionfey and can_substitute_down(config, me, seat):
        for removed in field:
            actions.extend(_substitutes(removed, hand, True))
    actions.extend(discards)
    actions.append(_PASS)


def playable(hand: tuple[int, ...]) -> list[int]:
    """The combat cards ``hand`` can play (a joker as each combat value), in order."""
    cards: list[int] = []
    for card in sorted(set(hand)):
        if is_joker(card):
            cards.extend(declared_as(card, value) for value in range(1, MAX_COMBAT + 1))
        elif value_of(card) <= MAX_COMBAT:
            cards.append(card)
    return cards


@lru_cache(maxsize=4096)
def _hand_end_actions(
    hand: tuple[int, ...],
) -> tuple[tuple[fa.Play, ...], tuple[fa.Play, ...], tuple[fa.Discard, ...]]:
    """The end actions a hand allows, whatever the field: plays, face-down plays (Trionfey
    Diamonds: a joker was seen drawn face up, so only suited cards go in face down) and
    discards. Cached: hands repeat across turns and games."""
    cards = playable(hand)
    discards = tuple(
        fa.Discard(chosen)
        for size in range(1, len(hand) + 1)
        for chosen in dict.fromkeys(combinations(hand, size))
    )
    return (
        tuple(fa.Play(card) for card in cards),
        tuple(fa.Play(card, face_down=True) for card in cards if is_suited(card)),
        discards,
    )


@lru_cache(maxsize=8192)
def _substitutes(removed: int, hand: tuple[int, ...], face_down: bool) -> tuple[fa.Substitute, ...]:
    """Every substitute of ``removed`` (in play) by a card of ``hand`` (face down: suited
    cards only)."""
    cards = playable(hand)
    if face_down:
        return tuple(fa.Substitute(removed, card, True) for card in cards if is_suited(card))
    return tuple(fa.Substitute(removed, card) for card in cards)


def clear_caches() -> None:
    """Forget the cached move lists (tests compare them with a cold enumeration)."""
    clear_attack_caches()
    _recruits.cache_clear()
    _promotion_sets.cache_clear()
    _hand_end_actions.cache_clear()
    _substitutes.cache_clear()
    _combines.cache_clear()
