"""Why an action is illegal, in a player's words, from the checks the legal moves are made of.

:func:`why_illegal` walks an action through the same checks the move generator
(:mod:`.moves`, :mod:`.attacks`) uses, in the order a player would look: whose decision it is,
the phase, the edition, then the cards. It answers None exactly for the legal actions: the last
check is membership in the generated moves of the action's kind, so a check missing here can
only make an explanation vaguer, never make an illegal action pass. The tests play random games
of every preset and check every legal action and many near misses against it.
"""

from __future__ import annotations

import fanfold.games.fano.rules.refusals  # noqa: F401  (registers the refusals' templates)
from fanfold.core.errors import Refusal
from fanfold.games.fano import actions as fa
from fanfold.games.fano.cards import (
    ATTACK_SUPPORT,
    LINE_THIRD,
    MAX_COMBAT,
    MAX_VALUE,
    TEMP,
    base_card,
    card_text,
    is_combat,
    is_joker,
    kind_of,
    value_of,
)
from fanfold.games.fano.config import FanoConfig, PromotionMode, Special, Teams
from fanfold.games.fano.rules.attacks import (
    active,
    attack_direction,
    can_reverse,
    enters_as,
    support_value,
)
from fanfold.games.fano.rules.moves import (
    combine_results,
    combining,
    is_legal,
    playable,
    promotion_sets,
    returnable,
    team_promotions,
)
from fanfold.games.fano.rules.specials import (
    JOKER_SUPPLY,
    TRIBUTE_COST,
    can_place_joker,
    can_substitute_down,
    can_use,
)
from fanfold.games.fano.rules.turns import opponents, outcome, teammates
from fanfold.games.fano.rules.zones import FIELD_SLOTS, remove_card
from fanfold.games.fano.state import FanoState, Pending, Phase, PlayerState

_MAIN_ONLY = (
    fa.Attack,
    fa.Combine,
    fa.Promote,
    fa.Defend,
    fa.Declare,
    fa.Recruit,
    fa.Flip,
    fa.PlaceJoker,
)
#: What promoting needs, by mode: the code of the words said inside a refusal.
_PROMOTION_NEEDS = {
    PromotionMode.EASY: "fano.needs_easy",
    PromotionMode.INTERMEDIATE: "fano.needs_intermediate",
    PromotionMode.HARD: "fano.needs_hard",
}


def why_illegal(state: FanoState, action: fa.FanoAction) -> Refusal | None:
    """A sentence saying why ``action`` breaks a rule here, or None when it is legal."""
    reason = _reason(state, action)
    if reason is None and not is_legal(state, action):
        return Refusal("fano.not_legal", action=str(action))
    return reason


def _reason(state: FanoState, action: fa.FanoAction) -> Refusal | None:
    if outcome(state) is not None:
        return Refusal("fano.over")
    phase = state.phase
    if phase is Phase.MULLIGAN:
        if isinstance(action, fa.Mulligan):
            return None
        return Refusal("fano.answer_mulligan")
    if phase is Phase.DRAW_SHUFFLE or phase is Phase.SHUFFLE:
        if isinstance(action, fa.Shuffle):
            return None
        return Refusal("fano.answer_shuffle")
    if phase is Phase.REACT:
        return _react(state, action)
    if isinstance(action, fa.CombineCounter | fa.Allow):
        return Refusal("fano.no_attack_to_answer")
    if isinstance(action, fa.Sacrifice):
        return Refusal("fano.sacrifice_when_shown")
    if isinstance(action, fa.Mulligan):
        return Refusal("fano.no_redraw")
    if isinstance(action, fa.Shuffle):
        return Refusal("fano.no_reshuffle")
    if isinstance(action, fa.END_ACTIONS):
        return _end_action(state, action)
    if phase is Phase.END and isinstance(action, _MAIN_ONLY):
        return Refusal("fano.promoted")
    return _main_action(state, action)


# ----------------------------------------------------------------------------- main phase
def _main_action(state: FanoState, action: fa.FanoAction) -> Refusal | None:
    trionfey = state.config.trionfey
    if isinstance(action, fa.Attack):
        if trionfey:
            attack = f"{card_text(action.attacker)}>{card_text(action.target)}"
            return Refusal("fano.trionfey_declare", attack=attack)
        return _attack(state, action)
    if isinstance(action, fa.Combine):
        return _combine(state, action)
    if isinstance(action, fa.Promote):
        return _promote(state, action)
    if isinstance(action, fa.Defend):
        if trionfey:
            return Refusal("fano.trionfey_defense")
        return _defend(state, action)
    if not trionfey:
        if isinstance(action, fa.Declare):
            return Refusal("fano.classic_attack")
        if isinstance(action, fa.Recruit):
            return Refusal("fano.classic_recruit")
        return Refusal("fano.trionfey_only")
    if isinstance(action, fa.Declare):
        return _declare(state, action)
    if isinstance(action, fa.Recruit):
        return _recruit(state, action)
    if isinstance(action, fa.Flip):
        if action.card not in state.players[state.turn_player].hidden:
            return Refusal("fano.no_face_down", card=card_text(action.card))
        return None
    return _place_joker(state)


def _in_play(player: PlayerState, card: int) -> Refusal | None:
    """Why ``card`` is not one of ``player``'s face-up cards in play, if it is not."""
    if card not in player.field:
        return Refusal("fano.not_in_play", card=card_text(card))
    if card in player.hidden:
        return Refusal("fano.face_down", card=card_text(card))
    return None


def _direction(a: int, x: int, reverse: bool, reverse_ok: bool, no_reverse: str) -> Refusal | None:
    """Why an ``a`` may not attack an ``x`` as asked (with Reverse Fano when ``reverse``; the
    refusal ``no_reverse`` when Reverse Fano is not the player's now)."""
    if reverse:
        if not reverse_ok:
            return Refusal(no_reverse)
        if attack_direction(a, x, True) < 0:
            return None
        if ATTACK_SUPPORT[a][x]:
            return Refusal("fano.reverse_not_needed", a=a, x=x)
        return Refusal("fano.reverse_wrong", a=a, x=x)
    if attack_direction(a, x, False) > 0:
        return None
    if ATTACK_SUPPORT[x][a]:
        return Refusal("fano.cannot_attack_reversed", a=a, x=x)
    return Refusal("fano.cannot_attack", a=a, x=x)


def _attack(state: FanoState, action: fa.Attack) -> Refusal | None:
    seat = state.turn_player
    me = state.players[seat]
    target_seat = state.target_of(seat)
    opponent = state.players[target_seat]
    reason = _in_play(me, action.attacker)
    if reason:
        return reason
    if not is_combat(action.attacker):
        return Refusal("fano.prestige_no_attack")
    if action.target not in opponent.field:
        target = card_text(action.target)
        return Refusal("fano.target_not_in_play", player=target_seat + 1, card=target)
    if not is_combat(action.target):
        return Refusal("fano.prestige_not_attacked")
    if action.target in opponent.protected:
        return Refusal("fano.protected", card=card_text(action.target))
    a, x = value_of(action.attacker), value_of(action.target)
    reason = _direction(
        a,
        x,
        action.reverse,
        can_reverse(state, seat),
        "fano.reverse_spent",
    )
    if reason:
        return reason
    needed = support_value(a, x, action.reverse)
    if not enters_as(me.hand, action.support, needed):
        if base_card(action.support) not in me.hand:
            return Refusal("fano.not_in_hand", card=card_text(base_card(action.support)))
        support = card_text(action.support)
        return Refusal("fano.wrong_support", a=a, x=x, needed=needed, card=support)
    return None


def _declare(state: FanoState, action: fa.Declare) -> Refusal | None:
    seat = state.turn_player
    me = state.players[seat]
    foes = opponents(state, seat)
    named = len(state.players) > 2
    if named and action.seat is None:
        named_attack = fa.Declare(action.attacker, action.target, foes[0], action.reverse)
        return Refusal("fano.name_the_player", attack=str(named_attack))
    if not named and action.seat is not None:
        attack = f"{card_text(action.attacker)}>{card_text(action.target)}"
        return Refusal("fano.no_at_sign", attack=attack)
    foe = action.seat if action.seat is not None else state.target_of(seat)
    if foe not in foes:
        if foe == seat or not 0 <= foe < len(state.players):
            return Refusal("fano.attack_an_opponent")
        if state.target_seat is not None:
            return Refusal("fano.one_opponent", player=foes[0] + 1)
        return Refusal("fano.partner", player=foe + 1)
    reason = _in_play(me, action.attacker)
    if reason:
        return reason
    if not is_combat(action.attacker):
        return Refusal("fano.prestige_no_attack")
    opponent = state.players[foe]
    if action.target not in opponent.field:
        return Refusal("fano.player_lacks", player=foe + 1, card=card_text(action.target))
    if action.target in opponent.hidden:
        return Refusal("fano.hidden_target", card=card_text(action.target))
    if not is_combat(action.target):
        return Refusal("fano.prestige_not_attacked")
    return _direction(
        value_of(action.attacker),
        value_of(action.target),
        action.reverse,
        can_reverse(state, seat),
        "fano.reverse_needs_hearts",
    )


def _recruit(state: FanoState, action: fa.Recruit) -> Refusal | None:
    me = state.players[state.turn_player]
    for card in (action.first, action.second):
        reason = _in_play(me, card)
        if reason:
            return reason
        if not is_combat(card):
            return Refusal("fano.prestige_no_recruit")
    if base_card(action.card) not in me.hand:
        return Refusal("fano.not_in_hand", card=card_text(base_card(action.card)))
    third = LINE_THIRD[value_of(action.first)][value_of(action.second)]
    if not enters_as(me.hand, action.card, third):
        return Refusal("fano.recruit_line")
    if len(me.field) >= FIELD_SLOTS:
        return Refusal("fano.field_full")
    return None


def _combine(state: FanoState, action: fa.Combine) -> Refusal | None:
    seat = state.turn_player
    config = state.config
    me = state.players[seat]
    for card in (action.first, action.second):
        reason = _in_play(me, card)
        if reason:
            return reason
    if action.first == action.second and combining(me).count(action.first) < 2:
        return Refusal("fano.only_one", card=card_text(action.first))
    if base_card(action.result) not in me.hand:
        return Refusal("fano.not_in_hand", card=card_text(base_card(action.result)))
    total = value_of(action.first) + value_of(action.second)
    oversum_ok = can_use(config, me, seat, Special.OVERSUM)
    results = combine_results(
        total,
        base_card(action.result),
        oversum_ok,
        config.oversum_prestige_only,
        config.joker_prestige,
    )
    result = value_of(action.result)
    if (action.result, action.oversum) not in results:
        if action.oversum:
            if not oversum_ok:
                if config.trionfey:
                    return Refusal("fano.oversum_clubs", cost=TRIBUTE_COST)
                return Refusal("fano.oversum_spent")
            if result == total:
                return Refusal("fano.is_the_sum", card=card_text(action.result))
            if config.oversum_prestige_only and result < 8:
                return Refusal("fano.oversum_prestige")
            if is_joker(action.result) and not 1 <= result <= _joker_top(config, action.result):
                return _joker_values(config, action.result)
            return Refusal("fano.oversum_less", total=total)
        if is_joker(action.result):
            values = _joker_values(config, action.result)
            return Refusal("fano.joker_as_sum", values=values, total=total)
        first, second = card_text(action.first), card_text(action.second)
        return Refusal("fano.wrong_sum", first=first, second=second, total=total, result=result)
    if action.returned not in returnable(action.first, action.second):
        return Refusal("fano.return_one")
    return None


def _joker_top(config: FanoConfig, joker: int) -> int:
    """The highest value ``joker`` may enter play as by combination."""
    return MAX_VALUE if config.joker_prestige and kind_of(joker) == TEMP else MAX_COMBAT


def _joker_values(config: FanoConfig, joker: int) -> Refusal:
    """What ``joker`` may enter play as by combination, in words."""
    if _joker_top(config, joker) == MAX_VALUE:
        return Refusal("fano.joker_any")
    if kind_of(joker) == TEMP and not config.trionfey:
        return Refusal("fano.joker_combat_temp")
    return Refusal("fano.joker_combat")


def _promote(state: FanoState, action: fa.Promote) -> Refusal | None:
    seat = state.turn_player
    config = state.config
    if config.teams is not Teams.ONE_FOR_ALL:
        if action.owners:
            return Refusal("fano.team_only")
        me = state.players[seat]
        need = Refusal(_PROMOTION_NEEDS[config.promotion])
        for card in action.cards:
            if card not in me.field:
                return Refusal("fano.promote_missing", card=card_text(card), need=need)
        if action.cards not in promotion_sets(config, combining(me)):
            return Refusal("fano.promote_needs", need=need)
        return None
    owners = action.owners or (None,) * len(action.cards)
    partners = teammates(config, seat)
    for card, owner in zip(action.cards, owners, strict=False):
        if owner == seat:
            return Refusal("fano.own_cards_plain", card=card_text(card))
        if owner is not None and owner not in partners:
            return Refusal("fano.team_fields")
        holder = seat if owner is None else owner
        if card not in state.players[holder].field:
            if owner is None:
                return Refusal("fano.not_in_play", card=card_text(card))
            return Refusal("fano.player_lacks", player=owner + 1, card=card_text(card))
    if action not in team_promotions(state, seat):
        need = Refusal(_PROMOTION_NEEDS[PromotionMode.INTERMEDIATE])
        return Refusal("fano.promote_needs", need=need)
    return None


def _defend(state: FanoState, action: fa.Defend) -> Refusal | None:
    seat = state.turn_player
    me = state.players[seat]
    if not can_use(state.config, me, seat, Special.DEFENSE):
        return Refusal("fano.defense_spent")
    if action.card not in me.field:
        return Refusal("fano.not_in_play", card=card_text(action.card))
    if not is_combat(action.card):
        return Refusal("fano.defense_combat")
    if action.card in me.protected:
        return Refusal("fano.defended", card=card_text(action.card))
    return None


def _place_joker(state: FanoState) -> Refusal | None:
    seat = state.turn_player
    config = state.config
    me = state.players[seat]
    if not config.tribute:
        return Refusal("fano.no_tribute")
    if not can_use(config, me, seat, Special.TEMP_JOKER):
        return Refusal("fano.not_your_special", cost=TRIBUTE_COST)
    if not can_place_joker(config, me, seat):
        return Refusal("fano.joker_supply", supply=JOKER_SUPPLY)
    return None


# ---------------------------------------------------------------------------- end actions
def _end_action(state: FanoState, action: fa.FanoAction) -> Refusal | None:
    seat = state.turn_player
    me = state.players[seat]
    if isinstance(action, fa.Discard):
        rest = me.hand
        for card in action.cards:
            if card not in rest:
                return Refusal("fano.not_held", card=card_text(card))
            rest = remove_card(rest, card)
        if not action.cards:
            return Refusal("fano.name_discards")
        if tuple(sorted(action.cards)) != action.cards:
            return Refusal("fano.discard_order")
        return None
    if not isinstance(action, fa.Play | fa.Substitute):
        return None  # pass
    if isinstance(action, fa.Substitute) and action.removed not in me.field:
        return Refusal("fano.not_in_play", card=card_text(action.removed))
    card = action.card
    if card not in playable(me.hand):
        if base_card(card) not in me.hand:
            return Refusal("fano.not_in_hand", card=card_text(base_card(card)))
        if value_of(card) > MAX_COMBAT:
            return Refusal("fano.prestige_by_combination")
        return Refusal("fano.joker_value")
    if isinstance(action, fa.Play) and len(me.field) >= FIELD_SLOTS:
        return Refusal("fano.field_full_sub")
    if action.face_down:
        return _face_down(state, action)
    return None


def _face_down(state: FanoState, action: fa.Play | fa.Substitute) -> Refusal | None:
    """Trionfey Diamonds: why the card may not go in face down."""
    config = state.config
    seat = state.turn_player
    me = state.players[seat]
    if not config.trionfey:
        return Refusal("fano.trionfey_only")
    if not config.tribute:
        return Refusal("fano.no_tribute")
    if isinstance(action, fa.Substitute):
        if not can_substitute_down(config, me, seat):
            return Refusal("fano.sub_down_counters", cost=TRIBUTE_COST)
    elif not can_use(config, me, seat, Special.DEFENSE):
        return Refusal("fano.not_your_special", cost=TRIBUTE_COST)
    if is_joker(action.card):
        if isinstance(action, fa.Substitute):
            return Refusal("fano.sub_joker_down")
        return Refusal("fano.play_joker_down")
    return None


# ---------------------------------------------------------------------- the counter window
def _react(state: FanoState, action: fa.FanoAction) -> Refusal | None:
    pending = state.pending
    if pending is None:  # pragma: no cover - the react phase always has an attack
        return Refusal("fano.no_attack")
    attacker, target = card_text(pending.attacker), card_text(pending.target)
    me = state.players[pending.defender]
    if isinstance(action, fa.Allow):
        return None
    if pending.support:
        if isinstance(action, fa.Sacrifice):
            if action.card not in me.hidden:
                return Refusal("fano.no_face_down", card=card_text(action.card))
            return None
        support = card_text(pending.support)
        return Refusal("fano.allow_or_sacrifice", attacker=attacker, target=target, support=support)
    if isinstance(action, fa.Sacrifice):
        return Refusal("fano.sacrifice_once_shown")
    if isinstance(action, fa.Flip):
        if action.card not in me.hidden:
            return Refusal("fano.no_face_down", card=card_text(action.card))
        return None
    if not isinstance(action, fa.CombineCounter):
        return Refusal("fano.counter_or_allow", attacker=attacker, target=target)
    return _counter(pending, me, action)


def _counter(pending: Pending, me: PlayerState, action: fa.CombineCounter) -> Refusal | None:
    target = pending.target
    if target not in (action.first, action.second):
        return Refusal("fano.counter_with_target", card=card_text(target))
    if base_card(action.result) not in me.hand:
        return Refusal("fano.not_in_hand", card=card_text(base_card(action.result)))
    partner = action.second if action.first == target else action.first
    total = value_of(action.first) + value_of(action.second)
    if action.recruited or action.recruiters:
        reason = _recruit_counter(me, action, partner, target)
        if reason:
            return reason
        hand = remove_card(me.hand, base_card(action.recruited))
    else:
        if partner == target:
            return Refusal("fano.counter_with_target", card=card_text(target))
        reason = _in_play(me, partner)
        if reason:
            return reason
        if not is_combat(partner):
            return Refusal("fano.counter_combat")
        hand = me.hand
    if total > MAX_COMBAT:
        return Refusal("fano.counter_makes_combat")
    if not enters_as(hand, action.result, total):
        if base_card(action.result) not in hand:
            return Refusal("fano.not_in_hand", card=card_text(base_card(action.result)))
        first, second = card_text(action.first), card_text(action.second)
        return Refusal(
            "fano.counter_sum", first=first, second=second, result=card_text(action.result)
        )
    if action.returned not in returnable(action.first, action.second):
        return Refusal("fano.return_one")
    return None


def _recruit_counter(
    me: PlayerState, action: fa.CombineCounter, partner: int, target: int
) -> Refusal | None:
    """Why the recruit of a recruit-combine counter fails, if it does."""
    if action.recruited != partner or partner == target:
        return Refusal("fano.recruited_from_hand", card=card_text(target))
    if len(action.recruiters) != 2 or action.recruiters[0] == action.recruiters[1]:
        return Refusal("fano.two_recruiters")
    cards = active(me)
    for card in action.recruiters:
        reason = _in_play(me, card)
        if reason:
            return reason
        if card not in cards:
            return Refusal("fano.prestige_no_recruit")
    if len(me.field) >= FIELD_SLOTS:
        return Refusal("fano.field_full_recruit")
    one, two = action.recruiters
    third = LINE_THIRD[value_of(one)][value_of(two)]
    if base_card(action.recruited) not in me.hand:
        return Refusal("fano.not_in_hand", card=card_text(base_card(action.recruited)))
    if not enters_as(me.hand, action.recruited, third):
        return Refusal("fano.recruit_line")
    return None
