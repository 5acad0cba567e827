"""The rules' invariants: what every reachable state keeps (checked by the tests and the
conformance suite)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import pairwise

from fanfold.games.fano.actions import Attack, Play, Substitute
from fanfold.games.fano.cards import (
    MAX_COMBAT,
    TEMP,
    TEMP_JOKER,
    base_card,
    card_text,
    is_combat,
    is_joker,
    is_prestige,
    kind_of,
    value_of,
)
from fanfold.games.fano.config import SpecialsMode, Teams
from fanfold.games.fano.rules.attacks import active, support_value
from fanfold.games.fano.rules.deck import HAND_SIZE, deck_of, mulligan_offered
from fanfold.games.fano.rules.moves import legal_actions
from fanfold.games.fano.rules.specials import JOKER_SUPPLY, TRIBUTE_CAP, specials_of
from fanfold.games.fano.rules.turns import last_turn, teammates
from fanfold.games.fano.rules.zones import FIELD_SLOTS
from fanfold.games.fano.state import FanoState, Phase, PlayerState


def invariant_violations(state: FanoState) -> list[str]:
    """Every broken rule invariant of ``state``."""
    problems: list[str] = []
    config = state.config
    if len(state.players) != config.players:
        problems.append(f"{len(state.players)} players but the config has {config.players}")
        return problems
    if not 0 <= state.turn_player < config.players:
        problems.append(f"turn player {state.turn_player} out of range")
    if not 1 <= state.turn <= last_turn(config) + 1:
        problems.append(f"turn {state.turn} outside 1..{last_turn(config) + 1}")
    winners = [seat for seat, p in enumerate(state.players) if p.level >= config.promotions_to_win]
    if config.teams is Teams.ONE_FOR_ALL:
        winners = sorted({min(teammates(config, seat)) for seat in winners})
        for seat in range(config.players):
            partner = (seat + 2) % config.players
            if state.players[seat].level != state.players[partner].level:
                problems.append(f"Players {seat + 1} and {partner + 1} share a commander")
    if len(winners) > 1:
        problems.append(f"several winners: {winners}")
    if config.teams is Teams.NONE and state.priority != 0:
        problems.append("priority without partnerships")
    if config.teams is not Teams.NONE and (
        not 0 <= state.priority < config.players
        or state.turn_player not in teammates(config, state.priority)
    ):
        problems.append("the turn player is not in the partnership holding priority")
    for seat, player in enumerate(state.players):
        problems.extend(
            f"Player {seat + 1}: {text}" for text in _player_problems(state, seat, player)
        )
    if state.phase is Phase.MULLIGAN and not mulligan_offered(
        config, state.players[state.turn_player].hand
    ):
        problems.append("a mulligan is offered for a hand that does not allow it")
    problems.extend(_attack_problems(state))
    if problems:
        return problems
    for action in legal_actions(state):
        if isinstance(action, Attack) and not (
            is_combat(action.attacker) and is_combat(action.target)
        ):
            problems.append(f"legal attack {action} involves a prestige card")
        if isinstance(action, Play | Substitute) and value_of(action.card) > MAX_COMBAT:
            problems.append(f"legal {action} plays a prestige card from hand")
    return problems


def _attack_problems(state: FanoState) -> Iterable[str]:
    pending = state.pending
    if (pending is not None) != (state.phase is Phase.REACT):
        yield "a declared attack is pending exactly in the counter window"
    if state.target_seat is not None and (
        not state.config.trionfey
        or len(state.players) == 2
        or state.target_seat == state.turn_player
        or not 0 <= state.target_seat < len(state.players)
    ):
        yield f"impossible attacked player {state.target_seat + 1}"
    if pending is None:
        return
    if not state.config.trionfey:
        yield "a declared attack in the classic edition"
        return
    if pending.defender == state.turn_player or not 0 <= pending.defender < len(state.players):
        yield "the defender is not an opponent"
        return
    if pending.attacker not in active(state.players[state.turn_player]):
        yield "the declared attacker is not a face-up combat card in play"
    if pending.target not in active(state.players[pending.defender]):
        yield "the attacked card is not a face-up combat card in play"
    if pending.support:
        needed = support_value(
            value_of(pending.attacker), value_of(pending.target), pending.reverse
        )
        hand = state.players[state.turn_player].hand
        if value_of(pending.support) != needed or base_card(pending.support) not in hand:
            yield "the shown support does not fit the attack"
        if not state.players[pending.defender].hidden:
            yield "a shown support waits with no face-down card to sacrifice"
    if len(state.players) > 2 and state.target_seat != pending.defender:
        yield "the defender is not the player attacked this turn"


def _player_problems(state: FanoState, seat: int, player: PlayerState) -> Iterable[str]:
    config = state.config
    zones = {
        "hand": player.hand,
        "field": player.field,
        "draw pile": player.draw,
        "face-up discards": player.up,
        "face-down discards": player.down,
    }
    have: list[int] = []
    for name, cards in zones.items():
        if name != "draw pile" and any(a > b for a, b in pairwise(cards)):
            yield f"{name} not in order"
        for card in cards:
            if not is_joker(card):
                have.append(card)
                continue
            have.append(base_card(card))
            if kind_of(card) == TEMP and config.specials is SpecialsMode.OFF and not config.tribute:
                yield "a Temporary Joker without specials"
            prestige = config.joker_prestige and kind_of(card) == TEMP and is_prestige(card)
            if name == "field" and not is_combat(card) and not prestige:
                yield f"joker {card_text(card)} in play without a combat value"
            if name != "field" and value_of(card):
                yield f"joker {card_text(card)} keeps a value off the field"
    have.sort()
    want = sorted((*deck_of(config, seat), *([TEMP_JOKER] * player.temp_jokers)))
    if have != want:
        missing = sorted((Counter(want) - Counter(have)).elements())
        extra = sorted((Counter(have) - Counter(want)).elements())
        yield (
            f"cards not each in exactly one place (missing {[card_text(c) for c in missing]}, "
            f"extra or repeated {[card_text(c) for c in extra]})"
        )
    # Classic: one Temporary Joker at most per commander level below the winning one.
    if (
        not 0
        <= player.temp_jokers
        <= (JOKER_SUPPLY if config.trionfey else config.promotions_to_win)
    ):
        yield f"{player.temp_jokers} Temporary Jokers"
    if len(player.field) > FIELD_SLOTS:
        yield f"{len(player.field)} cards in play"
    if len(player.hand) > HAND_SIZE:
        yield f"{len(player.hand)} cards in hand"
    if not set(player.known) <= set(player.hand):
        yield "known cards not in hand"
    if not set(player.protected) <= set(player.field):
        yield "a protected card is not in play"
    if any(not is_combat(card) for card in player.protected):
        yield "a prestige card under Perfect defense"
    if not 0 <= player.level <= config.promotions_to_win:
        yield f"commander level {player.level}"
    levels = [level for level, _ in player.specials]
    if len(set(levels)) != len(levels) or any(level > player.level for level in levels):
        yield "more than one special at a commander level"
    if any(special not in specials_of(config, seat) for _, special in player.specials):
        yield "a special this player may not use"
    if player.shuffles < 0:
        yield "negative shuffle count"
    if not 0 <= player.tribute <= TRIBUTE_CAP or (player.tribute and not config.tribute):
        yield f"{player.tribute} tribute counters"
    if player.hidden and not config.tribute:
        yield "face-down cards in play without the Trionfey specials"
    if not set(player.hidden) <= set(player.field):
        yield "a face-down card is not in play"
    if any(not is_combat(card) for card in player.hidden):
        yield "a face-down card in play that is not a combat card"
    if config.trionfey:
        jokers = player.draw.count(TEMP_JOKER)
        if jokers and set(player.draw[-jokers:]) != {TEMP_JOKER}:
            yield "a Spades joker inside the draw pile (they lie on top)"
