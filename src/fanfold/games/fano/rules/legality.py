"""Why an action is illegal, in a player's words, from the checks the legal moves are made of.

:func:`why_illegal` walks an action through the same checks the move generator
(:mod:`.moves`, :mod:`.attacks`) uses, in the order a player would look: whose decision it is,
the phase, the edition, then the cards. It answers None exactly for the legal actions: the last
check is membership in the generated moves of the action's kind, so a check missing here can
only make an explanation vaguer, never make an illegal action pass. The tests play random games
of every preset and check every legal action and many near misses against it.
"""

from __future__ import annotations

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

LEGAL_HINT = "; type 'legal' to list the legal moves"
_SPECIAL_SPENT = "not your special, or you used a special at this commander level"
_TRIONFEY_ONLY = "that belongs to the Trionfey edition's tribute specials"
_NO_TRIBUTE = "this game is played without the tribute specials"
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
_PROMOTION_NEEDS = {
    PromotionMode.EASY: "three prestige cards in play (any three in this variant)",
    PromotionMode.INTERMEDIATE: "three prestige cards in play: an 8, a 9 and a 10",
    PromotionMode.HARD: "three prestige cards in play: an 8, a 9 and a 10 of one suit",
}


def why_illegal(state: FanoState, action: fa.FanoAction) -> str | None:
    """A sentence saying why ``action`` breaks a rule here, or None when it is legal."""
    reason = _reason(state, action)
    if reason is None and not is_legal(state, action):
        return f"{action} is not a legal move here{LEGAL_HINT}"
    return reason


def _reason(state: FanoState, action: fa.FanoAction) -> str | None:
    if outcome(state) is not None:
        return "the game is over"
    phase = state.phase
    if phase is Phase.MULLIGAN:
        if isinstance(action, fa.Mulligan):
            return None
        return "your hand may be redrawn: answer 'mulligan' or 'keep' first"
    if phase is Phase.DRAW_SHUFFLE or phase is Phase.SHUFFLE:
        if isinstance(action, fa.Shuffle):
            return None
        return "your draw pile is empty: answer 'shuffle' or 'shuffle joker' first"
    if phase is Phase.REACT:
        return _react(state, action)
    if isinstance(action, fa.CombineCounter | fa.Allow):
        return "counters and 'allow' answer an attack declared on one of your cards"
    if isinstance(action, fa.Sacrifice):
        return "a face-down card is sacrificed only after an attack on you shows its support"
    if isinstance(action, fa.Mulligan):
        return "the redraw is only offered in the draw phase, for a hand that allows it"
    if isinstance(action, fa.Shuffle):
        return "there is no reshuffle to decide now"
    if isinstance(action, fa.END_ACTIONS):
        return _end_action(state, action)
    if phase is Phase.END and isinstance(action, _MAIN_ONLY):
        return "you promoted, which ends the main phase: play, sub, discard or pass"
    return _main_action(state, action)


# ----------------------------------------------------------------------------- main phase
def _main_action(state: FanoState, action: fa.FanoAction) -> str | None:
    trionfey = state.config.trionfey
    if isinstance(action, fa.Attack):
        if trionfey:
            return (
                "in the Trionfey edition you declare an attack without naming the support: "
                f"{card_text(action.attacker)}>{card_text(action.target)}"
            )
        return _attack(state, action)
    if isinstance(action, fa.Combine):
        return _combine(state, action)
    if isinstance(action, fa.Promote):
        return _promote(state, action)
    if isinstance(action, fa.Defend):
        if trionfey:
            return (
                "the Trionfey edition's Perfect defense plays a card face down at the end of "
                "the turn (play 5D down)"
            )
        return _defend(state, action)
    if not trionfey:
        if isinstance(action, fa.Declare):
            return "in the classic edition attacks name their support, e.g. 4H>6S:3H"
        if isinstance(action, fa.Recruit):
            return "in the classic edition there is no recruit"
        return _TRIONFEY_ONLY
    if isinstance(action, fa.Declare):
        return _declare(state, action)
    if isinstance(action, fa.Recruit):
        return _recruit(state, action)
    if isinstance(action, fa.Flip):
        if action.card not in state.players[state.turn_player].hidden:
            return f"you have no face-down {card_text(action.card)} in play"
        return None
    return _place_joker(state)


def _in_play(player: PlayerState, card: int, owner: str = "you have") -> str | None:
    """Why ``card`` is not one of ``player``'s face-up cards in play, if it is not."""
    if card not in player.field:
        return f"{owner} no {card_text(card)} in play"
    if card in player.hidden:
        return f"{card_text(card)} lies face down: flip it first"
    return None


def _direction(a: int, x: int, reverse: bool, reverse_ok: bool, edition: str) -> str | None:
    """Why an ``a`` may not attack an ``x`` as asked (with Reverse Fano when ``reverse``)."""
    if reverse:
        if not reverse_ok:
            return edition
        if attack_direction(a, x, True) < 0:
            return None
        if ATTACK_SUPPORT[a][x]:
            return f"a {a} attacks a {x} without Reverse Fano (it reverses only other attacks)"
        return f"reversed, a {a} can attack only what attacks it normally, and {x} does not"
    if attack_direction(a, x, False) > 0:
        return None
    return f"a {a} can not attack a {x}" + (
        f" ({x} attacks {a} instead)" if ATTACK_SUPPORT[x][a] else ""
    )


def _attack(state: FanoState, action: fa.Attack) -> str | None:
    seat = state.turn_player
    me = state.players[seat]
    target_seat = state.target_of(seat)
    opponent = state.players[target_seat]
    reason = _in_play(me, action.attacker)
    if reason:
        return reason
    if not is_combat(action.attacker):
        return "prestige cards can not attack"
    if action.target not in opponent.field:
        target = card_text(action.target)
        return f"Player {target_seat + 1} (the player you attack) has no {target} in play"
    if not is_combat(action.target):
        return "prestige cards can not be attacked"
    if action.target in opponent.protected:
        return f"{card_text(action.target)} has Perfect defense and can not be removed"
    a, x = value_of(action.attacker), value_of(action.target)
    reason = _direction(
        a,
        x,
        action.reverse,
        can_reverse(state, seat),
        f"you can not use Reverse Fano now ({_SPECIAL_SPENT})",
    )
    if reason:
        return reason
    needed = support_value(a, x, action.reverse)
    if not enters_as(me.hand, action.support, needed):
        if base_card(action.support) not in me.hand:
            return f"you have no {card_text(base_card(action.support))} in hand"
        return f"{a} -> {x} needs a {needed} in hand as support, not {card_text(action.support)}"
    return None


def _declare(state: FanoState, action: fa.Declare) -> str | None:
    seat = state.turn_player
    me = state.players[seat]
    foes = opponents(state, seat)
    named = len(state.players) > 2
    if named and action.seat is None:
        named_attack = fa.Declare(action.attacker, action.target, foes[0], action.reverse)
        return f"name the player you attack: {named_attack}"
    if not named and action.seat is not None:
        attack = f"{card_text(action.attacker)}>{card_text(action.target)}"
        return f"with two players write the attack without @: {attack}"
    foe = action.seat if action.seat is not None else state.target_of(seat)
    if foe not in foes:
        if foe == seat or not 0 <= foe < len(state.players):
            return "attack one of your opponents"
        if state.target_seat is not None:
            return f"this turn you attack Player {foes[0] + 1} only (one opponent per turn)"
        return f"Player {foe + 1} is your partner: attack a player of the other partnership"
    reason = _in_play(me, action.attacker)
    if reason:
        return reason
    if not is_combat(action.attacker):
        return "prestige cards can not attack"
    opponent = state.players[foe]
    if action.target not in opponent.field:
        return f"Player {foe + 1} has no {card_text(action.target)} in play"
    if action.target in opponent.hidden:
        target = card_text(action.target)
        return f"{target} lies face down (Perfect defense): it can not be attacked"
    if not is_combat(action.target):
        return "prestige cards can not be attacked"
    return _direction(
        value_of(action.attacker),
        value_of(action.target),
        action.reverse,
        can_reverse(state, seat),
        "Reverse Fano needs the Hearts tribute special and three tribute counters",
    )


def _recruit(state: FanoState, action: fa.Recruit) -> str | None:
    me = state.players[state.turn_player]
    for card in (action.first, action.second):
        reason = _in_play(me, card)
        if reason:
            return reason
        if not is_combat(card):
            return "prestige cards can not recruit"
    if base_card(action.card) not in me.hand:
        return f"you have no {card_text(base_card(action.card))} in hand"
    third = LINE_THIRD[value_of(action.first)][value_of(action.second)]
    if not enters_as(me.hand, action.card, third):
        return "a recruit needs three different values on one line of the Fano plane ('plane')"
    if len(me.field) >= FIELD_SLOTS:
        return "your four field slots are full"
    return None


def _combine(state: FanoState, action: fa.Combine) -> str | None:
    seat = state.turn_player
    config = state.config
    me = state.players[seat]
    for card in (action.first, action.second):
        reason = _in_play(me, card)
        if reason:
            return reason
    if action.first == action.second and combining(me).count(action.first) < 2:
        return f"you have only one {card_text(action.first)} in play"
    if base_card(action.result) not in me.hand:
        return f"you have no {card_text(base_card(action.result))} in hand"
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
                    return f"Oversum is the Clubs tribute special ({TRIBUTE_COST} tribute counters)"
                return f"you can not use Oversum now ({_SPECIAL_SPENT})"
            if result == total:
                return f"{card_text(action.result)} is the sum: combine without Oversum"
            if config.oversum_prestige_only and result < 8:
                return "Oversum may only make a prestige card in this variant"
            if is_joker(action.result) and not 1 <= result <= _joker_top(config, action.result):
                return _joker_values(config, action.result)
            return f"Oversum needs a card worth less than {total}"
        if is_joker(action.result):
            return f"{_joker_values(config, action.result)} declared as the sum {total}"
        pair = f"{card_text(action.first)} + {card_text(action.second)}"
        return f"{pair} = {total}, not {result}"
    if action.returned not in returnable(action.first, action.second):
        return "only one of the two combined cards can return to hand, and never a joker"
    return None


def _joker_top(config: FanoConfig, joker: int) -> int:
    """The highest value ``joker`` may enter play as by combination."""
    return MAX_VALUE if config.joker_prestige and kind_of(joker) == TEMP else MAX_COMBAT


def _joker_values(config: FanoConfig, joker: int) -> str:
    """What ``joker`` may enter play as by combination, in words."""
    if _joker_top(config, joker) == MAX_VALUE:
        return "a Temporary Joker can be a combat or prestige card (1-10) in this variant"
    if kind_of(joker) == TEMP and not config.trionfey:
        return (
            "a joker can only be a combat card (1-7; a Temporary Joker may be a prestige card "
            "only with joker_prestige=true)"
        )
    return "a joker can only be a combat card (1-7)"


def _promote(state: FanoState, action: fa.Promote) -> str | None:
    seat = state.turn_player
    config = state.config
    if config.teams is not Teams.ONE_FOR_ALL:
        if action.owners:
            return 'only in a "One for all" partnership may partners\' cards pay a promotion'
        me = state.players[seat]
        need = _PROMOTION_NEEDS[config.promotion]
        for card in action.cards:
            if card not in me.field:
                return f"you have no {card_text(card)} in play; promoting needs {need}"
        if action.cards not in promotion_sets(config, combining(me)):
            return f"promoting needs {need}"
        return None
    owners = action.owners or (None,) * len(action.cards)
    partners = teammates(config, seat)
    for card, owner in zip(action.cards, owners, strict=False):
        if owner == seat:
            return f"write your own cards without @: {card_text(card)}"
        if owner is not None and owner not in partners:
            return "a promotion is paid only from your own and your partners' fields"
        holder = seat if owner is None else owner
        if card not in state.players[holder].field:
            who = "you have" if owner is None else f"Player {owner + 1} has"
            return f"{who} no {card_text(card)} in play"
    if action not in team_promotions(state, seat):
        return f"promoting needs {_PROMOTION_NEEDS[PromotionMode.INTERMEDIATE]}"
    return None


def _defend(state: FanoState, action: fa.Defend) -> str | None:
    seat = state.turn_player
    me = state.players[seat]
    if not can_use(state.config, me, seat, Special.DEFENSE):
        return f"you can not use Perfect defense now ({_SPECIAL_SPENT})"
    if action.card not in me.field:
        return f"you have no {card_text(action.card)} in play"
    if not is_combat(action.card):
        return "Perfect defense goes on one of your combat cards in play"
    if action.card in me.protected:
        return f"{card_text(action.card)} already has Perfect defense"
    return None


def _place_joker(state: FanoState) -> str | None:
    seat = state.turn_player
    config = state.config
    me = state.players[seat]
    if not config.tribute:
        return _NO_TRIBUTE
    if not can_use(config, me, seat, Special.TEMP_JOKER):
        return (
            "that is not your suit's special, or you have fewer than "
            f"{TRIBUTE_COST} tribute counters"
        )
    if not can_place_joker(config, me, seat):
        return f"at most {JOKER_SUPPLY} jokers are in the game at a time"
    return None


# ---------------------------------------------------------------------------- end actions
def _end_action(state: FanoState, action: fa.FanoAction) -> str | None:
    seat = state.turn_player
    me = state.players[seat]
    if isinstance(action, fa.Discard):
        rest = me.hand
        for card in action.cards:
            if card not in rest:
                return f"you do not hold {card_text(card)}"
            rest = remove_card(rest, card)
        if not action.cards:
            return "name the cards to discard, or pass"
        if tuple(sorted(action.cards)) != action.cards:
            return "list the discarded cards in order"
        return None
    if not isinstance(action, fa.Play | fa.Substitute):
        return None  # pass
    if isinstance(action, fa.Substitute) and action.removed not in me.field:
        return f"you have no {card_text(action.removed)} in play"
    card = action.card
    if card not in playable(me.hand):
        if base_card(card) not in me.hand:
            return f"you have no {card_text(base_card(card))} in hand"
        if value_of(card) > MAX_COMBAT:
            return "prestige cards can only enter play by combination"
        return "name the joker's value when you play it, e.g. play JK4"
    if isinstance(action, fa.Play) and len(me.field) >= FIELD_SLOTS:
        return "your four field slots are full: use sub to replace a card"
    if action.face_down:
        return _face_down(state, action)
    return None


def _face_down(state: FanoState, action: fa.Play | fa.Substitute) -> str | None:
    """Trionfey Diamonds: why the card may not go in face down."""
    config = state.config
    seat = state.turn_player
    me = state.players[seat]
    if not config.trionfey:
        return _TRIONFEY_ONLY
    if not config.tribute:
        return _NO_TRIBUTE
    if isinstance(action, fa.Substitute):
        if not can_substitute_down(config, me, seat):
            return (
                "that is not your suit's special, or you have too few tribute counters "
                f"({TRIBUTE_COST}, counting the one the substitute earns)"
            )
    elif not can_use(config, me, seat, Special.DEFENSE):
        return (
            "that is not your suit's special, or you have fewer than "
            f"{TRIBUTE_COST} tribute counters"
        )
    if is_joker(action.card):
        what = "substitute" if isinstance(action, fa.Substitute) else "play"
        return f"{what} a combat card (not a joker) face down: a joker was seen drawn"
    return None


# ---------------------------------------------------------------------- the counter window
def _react(state: FanoState, action: fa.FanoAction) -> str | None:
    pending = state.pending
    if pending is None:  # pragma: no cover - the react phase always has an attack
        return "there is no attack to answer"
    attack = f"{card_text(pending.attacker)} attacks your {card_text(pending.target)}"
    me = state.players[pending.defender]
    if isinstance(action, fa.Allow):
        return None
    if pending.support:
        if isinstance(action, fa.Sacrifice):
            if action.card not in me.hidden:
                return f"you have no face-down {card_text(action.card)} in play"
            return None
        return (
            f"{attack} and showed {card_text(pending.support)}: answer 'allow' or sacrifice "
            "a face-down card" + LEGAL_HINT
        )
    if isinstance(action, fa.Sacrifice):
        return "a face-down card is sacrificed only once the attack's support is shown"
    if isinstance(action, fa.Flip):
        if action.card not in me.hidden:
            return f"you have no face-down {card_text(action.card)} in play"
        return None
    if not isinstance(action, fa.CombineCounter):
        return f"{attack}: answer with a counter or 'allow'" + LEGAL_HINT
    return _counter(pending, me, action)


def _counter(pending: Pending, me: PlayerState, action: fa.CombineCounter) -> str | None:
    target = pending.target
    if target not in (action.first, action.second):
        return f"a counter combines the attacked {card_text(target)} with another card"
    if base_card(action.result) not in me.hand:
        return f"you have no {card_text(base_card(action.result))} in hand"
    partner = action.second if action.first == target else action.first
    total = value_of(action.first) + value_of(action.second)
    if action.recruited or action.recruiters:
        reason = _recruit_counter(me, action, partner, target)
        if reason:
            return reason
        hand = remove_card(me.hand, base_card(action.recruited))
    else:
        if partner == target:
            return f"a counter combines the attacked {card_text(target)} with another card"
        reason = _in_play(me, partner)
        if reason:
            return reason
        if not is_combat(partner):
            return "a counter combines combat cards"
        hand = me.hand
    if total > MAX_COMBAT:
        return "a counter makes a combat card (1-7)"
    if not enters_as(hand, action.result, total):
        if base_card(action.result) not in hand:
            return f"you have no {card_text(base_card(action.result))} in hand"
        pair = f"{card_text(action.first)} + {card_text(action.second)}"
        return f"{pair} is not {card_text(action.result)}"
    if action.returned not in returnable(action.first, action.second):
        return "only one of the two combined cards can return to hand, and never a joker"
    return None


def _recruit_counter(
    me: PlayerState, action: fa.CombineCounter, partner: int, target: int
) -> str | None:
    """Why the recruit of a recruit-combine counter fails, if it does."""
    if action.recruited != partner or partner == target:
        return (
            f"the recruited card comes from hand and combines with the attacked {card_text(target)}"
        )
    if len(action.recruiters) != 2 or action.recruiters[0] == action.recruiters[1]:
        return "two different cards in play recruit a third from hand"
    cards = active(me)
    for card in action.recruiters:
        reason = _in_play(me, card)
        if reason:
            return reason
        if card not in cards:
            return "prestige cards can not recruit"
    if len(me.field) >= FIELD_SLOTS:
        return "your four field slots are full: no room to recruit"
    one, two = action.recruiters
    third = LINE_THIRD[value_of(one)][value_of(two)]
    if base_card(action.recruited) not in me.hand:
        return f"you have no {card_text(base_card(action.recruited))} in hand"
    if not enters_as(me.hand, action.recruited, third):
        return "a recruit needs three different values on one line of the Fano plane ('plane')"
    return None
