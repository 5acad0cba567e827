"""Applying a legal action: the state it leads to."""

from __future__ import annotations

from fanfold.games.fano import actions as fa
from fanfold.games.fano.cards import TEMP_JOKER, base_card, is_combat
from fanfold.games.fano.config import Special, Teams
from fanfold.games.fano.rules.attacks import apply_attack, apply_attack_step
from fanfold.games.fano.rules.deck import after_draw_phase, draw_to_three, reshuffle
from fanfold.games.fano.rules.specials import earn, earned, spend
from fanfold.games.fano.rules.turns import after_main_action, end_turn, teammates
from fanfold.games.fano.rules.zones import (
    edit_player,
    edit_state,
    enter_play,
    insert_card,
    leave_field,
    remove_card,
    replace_seat,
    return_to_hand,
    take_from_hand,
)
from fanfold.games.fano.state import FanoState, Phase, PlayerState


def apply(state: FanoState, action: fa.FanoAction) -> FanoState:
    """The state after a legal ``action`` (the caller checked legality)."""
    if isinstance(action, fa.END_ACTIONS):  # most moves: checked first
        return apply_end(state, action)
    if isinstance(action, fa.Declare | fa.CombineCounter | fa.Allow | fa.Sacrifice):
        return apply_attack_step(state, action)
    if isinstance(action, fa.Attack):
        return apply_attack(state, action)
    if isinstance(action, fa.Flip):
        seat = state.decider
        me = state.players[seat]
        me = edit_player(me, hidden=remove_card(me.hidden, action.card))
        return edit_state(state, players=replace_seat(state.players, seat, me))
    seat = state.turn_player
    me = state.players[seat]
    players = state.players
    if isinstance(action, fa.Combine):
        return after_main_action(state, players, seat, _combined(state, me, action))
    if isinstance(action, fa.Promote):
        return _promote(state, action)
    if isinstance(action, fa.PlaceJoker):
        me = spend(state.config, me, Special.TEMP_JOKER)
        me = edit_player(me, draw=(*me.draw, TEMP_JOKER), temp_jokers=me.temp_jokers + 1)
        return edit_state(state, players=replace_seat(players, seat, me))
    if isinstance(action, fa.Recruit):
        return after_main_action(state, players, seat, enter_play(me, action.card))
    if isinstance(action, fa.Defend):
        me = edit_player(
            me,
            protected=insert_card(me.protected, action.card),
            specials=(*me.specials, (me.level, Special.DEFENSE)),
        )
        return edit_state(state, players=replace_seat(players, seat, me))
    if isinstance(action, fa.Mulligan):
        if not action.take:
            return edit_state(state, phase=Phase.MAIN)
        me = edit_player(me, up=tuple(sorted((*me.up, *me.hand))), hand=(), known=())
        me, asked = draw_to_three(state, seat, me)
        phase = Phase.SHUFFLE if asked else Phase.MAIN
        return edit_state(state, players=replace_seat(players, seat, me), phase=phase)
    # The one kind left: a reshuffle decision.
    me = reshuffle(state, seat, me, action.joker)
    me, _ = draw_to_three(state, seat, me, ask=False)
    drawing = state.phase is Phase.DRAW_SHUFFLE
    phase = after_draw_phase(state.config, me) if drawing else Phase.MAIN
    return edit_state(state, players=replace_seat(players, seat, me), phase=phase)


def _combined(state: FanoState, me: PlayerState, action: fa.Combine) -> PlayerState:
    """``me`` after the combination: both cards leave play (one may return to hand), the
    result enters play."""
    me = take_from_hand(me, action.result)
    for card in (action.first, action.second):
        me = return_to_hand(me, card) if card == action.returned else leave_field(me, card)
    me = edit_player(me, field=insert_card(me.field, action.result))
    if action.oversum:
        me = spend(state.config, me, Special.OVERSUM)
    if not action.oversum or is_combat(action.result) or state.config.oversum_tribute:
        # No tribute for an Oversum combine that makes a prestige card (T), unless the
        # oversum_tribute option pays it like any combine.
        me = earn(state.config, me)
    return me


def _promote(state: FanoState, action: fa.Promote) -> FanoState:
    """Three prestige cards leave play (One for all: from partners' fields too) and the
    commander moves up."""
    seat = state.turn_player
    me = state.players[seat]
    players = state.players
    owners = action.owners or (None,) * len(action.cards)
    for card, owner in zip(action.cards, owners, strict=True):
        if owner is None:
            me = leave_field(me, card)
        else:
            players = replace_seat(players, owner, leave_field(players[owner], card))
    players = replace_seat(players, seat, me)
    # One for all: the partnership's shared commander moves up for every partner.
    config = state.config
    promoted = teammates(config, seat) if config.teams is Teams.ONE_FOR_ALL else (seat,)
    for member in promoted:
        player = players[member]
        players = replace_seat(players, member, edit_player(player, level=player.level + 1))
    phase = Phase.END if config.promotion_ends_main else state.phase
    return edit_state(state, players=players, phase=phase)


def apply_end(
    state: FanoState, action: fa.Play | fa.Substitute | fa.Discard | fa.Pass
) -> FanoState:
    """An end action, then the next player's turn."""
    seat = state.turn_player
    me = state.players[seat]
    if isinstance(action, fa.Play):
        me = enter_play(me, action.card)
        if action.face_down:
            me = spend(state.config, me, Special.DEFENSE)
            me = edit_player(me, hidden=insert_card(me.hidden, action.card))
    elif isinstance(action, fa.Substitute):
        me = leave_field(me, action.removed)
        me = enter_play(me, action.card)
        # The discard comes first and earns its counter, which may pay for the face-down play.
        me = earn(state.config, me)
        if action.face_down:
            me = spend(state.config, me, Special.DEFENSE)
            me = edit_player(me, hidden=insert_card(me.hidden, action.card))
    elif isinstance(action, fa.Discard):
        me = _discarded(state, me, action.cards)
    return end_turn(state, replace_seat(state.players, seat, me))


def _discarded(state: FanoState, me: PlayerState, cards: tuple[int, ...]) -> PlayerState:
    """``me`` after discarding ``cards`` from hand face down (a Temporary Joker leaves the
    game instead)."""
    hand = me.hand
    down = list(me.down)
    temp_jokers = me.temp_jokers
    for card in cards:
        hand = remove_card(hand, card)
        if base_card(card) == TEMP_JOKER:
            temp_jokers -= 1
        else:
            down.append(base_card(card))
    # Which hand cards went face down is hidden, so what others knew of the hand is lost
    # (a Spades joker leaves the game openly, so one still in hand stays known).
    known: tuple[int, ...] = ()
    if state.config.trionfey:
        known = tuple(card for card in hand if card == TEMP_JOKER)
    tribute = earned(me.tribute) if state.config.tribute else me.tribute
    return edit_player(
        me,
        hand=hand,
        down=tuple(sorted(down)),
        known=known,
        temp_jokers=temp_jokers,
        tribute=tribute,
    )
