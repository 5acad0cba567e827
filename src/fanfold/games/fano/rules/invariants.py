"""The rules' invariants: what every reachable state keeps (checked by the tests and the
conformance suite)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import pairwise

from fanfold.core.errors import Refusal, templates
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

#: Each broken invariant's code and English template: a position read from text that breaks
#: one is refused with them (``game.impossible_position``), worded in the reader's language.
templates(
    {
        "fano.inv_players": "{count} players but the config has {players}",
        "fano.inv_turn_player": "the player to move, {seat}, is out of range",
        "fano.inv_turn": "turn {turn} outside 1..{last}",
        "fano.inv_commander": "Players {seat} and {partner} share a commander",
        "fano.inv_winners": "several winners: players {seats}",
        "fano.inv_priority": "priority without partnerships",
        "fano.inv_priority_team": "the turn player is not in the partnership holding priority",
        "fano.inv_player": "Player {seat}: {problem}",
        "fano.inv_mulligan": "a mulligan is offered for a hand that does not allow it",
        "fano.inv_legal_attack": "legal attack {action} involves a prestige card",
        "fano.inv_legal_play": "legal {action} plays a prestige card from hand",
        "fano.inv_pending": "a declared attack is pending exactly in the counter window",
        "fano.inv_target": "impossible attacked player {seat}",
        "fano.inv_classic_attack": "a declared attack in the classic edition",
        "fano.inv_defender": "the defender is not an opponent",
        "fano.inv_attacker_card": "the declared attacker is not a face-up combat card in play",
        "fano.inv_target_card": "the attacked card is not a face-up combat card in play",
        "fano.inv_support": "the shown support does not fit the attack",
        "fano.inv_support_waits": "a shown support waits with no face-down card to sacrifice",
        "fano.inv_defender_target": "the defender is not the player attacked this turn",
        "fano.inv_order": "{zone} not in order",
        "fano.zone_hand": "hand",
        "fano.zone_field": "field",
        "fano.zone_up": "face-up discards",
        "fano.zone_down": "face-down discards",
        "fano.inv_temp_joker": "a Temporary Joker without specials",
        "fano.inv_joker_value": "joker {card} in play without a combat value",
        "fano.inv_joker_kept": "joker {card} keeps a value off the field",
        "fano.inv_cards": "cards not each in exactly one place (missing: {missing}; extra or "
        "repeated: {extra})",
        "fano.inv_temp_count": "{count} Temporary Jokers",
        "fano.inv_field_count": "{count} cards in play",
        "fano.inv_hand_count": "{count} cards in hand",
        "fano.inv_known": "known cards not in hand",
        "fano.inv_protected": "a protected card is not in play",
        "fano.inv_protected_prestige": "a prestige card under Perfect defense",
        "fano.inv_level": "commander level {level}",
        "fano.inv_specials": "more than one special at a commander level",
        "fano.inv_special_kind": "a special this player may not use",
        "fano.inv_shuffles": "negative shuffle count",
        "fano.inv_tribute": "{count} tribute counters",
        "fano.inv_hidden_classic": "face-down cards in play without the Trionfey specials",
        "fano.inv_hidden_off": "a face-down card is not in play",
        "fano.inv_hidden_prestige": "a face-down card in play that is not a combat card",
        "fano.inv_draw_joker": "a Spades joker inside the draw pile (they lie on top)",
    }
)
#: The zones whose cards are kept in order, each as the refusal that names it.
ZONES = {
    "hand": Refusal("fano.zone_hand"),
    "field": Refusal("fano.zone_field"),
    "up": Refusal("fano.zone_up"),
    "down": Refusal("fano.zone_down"),
}


def invariant_violations(state: FanoState) -> list[str]:
    """Every broken rule invariant of ``state``."""
    problems: list[str] = []
    config = state.config
    if len(state.players) != config.players:
        problems.append(
            Refusal("fano.inv_players", count=len(state.players), players=config.players)
        )
        return problems
    if not 0 <= state.turn_player < config.players:
        problems.append(Refusal("fano.inv_turn_player", seat=state.turn_player + 1))
    if not 1 <= state.turn <= last_turn(config) + 1:
        problems.append(Refusal("fano.inv_turn", turn=state.turn, last=last_turn(config) + 1))
    winners = [seat for seat, p in enumerate(state.players) if p.level >= config.promotions_to_win]
    if config.teams is Teams.ONE_FOR_ALL:
        winners = sorted({min(teammates(config, seat)) for seat in winners})
        for seat in range(config.players):
            partner = (seat + 2) % config.players
            if state.players[seat].level != state.players[partner].level:
                problems.append(Refusal("fano.inv_commander", seat=seat + 1, partner=partner + 1))
    if len(winners) > 1:
        problems.append(Refusal("fano.inv_winners", seats=", ".join(str(w + 1) for w in winners)))
    if config.teams is Teams.NONE and state.priority != 0:
        problems.append(Refusal("fano.inv_priority"))
    if config.teams is not Teams.NONE and (
        not 0 <= state.priority < config.players
        or state.turn_player not in teammates(config, state.priority)
    ):
        problems.append(Refusal("fano.inv_priority_team"))
    for seat, player in enumerate(state.players):
        problems.extend(
            Refusal("fano.inv_player", seat=seat + 1, problem=problem)
            for problem in _player_problems(state, seat, player)
        )
    if state.phase is Phase.MULLIGAN and not mulligan_offered(
        config, state.players[state.turn_player].hand
    ):
        problems.append(Refusal("fano.inv_mulligan"))
    problems.extend(_attack_problems(state))
    if problems:
        return problems
    for action in legal_actions(state):
        if isinstance(action, Attack) and not (
            is_combat(action.attacker) and is_combat(action.target)
        ):
            problems.append(Refusal("fano.inv_legal_attack", action=str(action)))
        if isinstance(action, Play | Substitute) and value_of(action.card) > MAX_COMBAT:
            problems.append(Refusal("fano.inv_legal_play", action=str(action)))
    return problems


def _attack_problems(state: FanoState) -> Iterable[Refusal]:
    pending = state.pending
    if (pending is not None) != (state.phase is Phase.REACT):
        yield Refusal("fano.inv_pending")
    if state.target_seat is not None and (
        not state.config.trionfey
        or len(state.players) == 2
        or state.target_seat == state.turn_player
        or not 0 <= state.target_seat < len(state.players)
    ):
        yield Refusal("fano.inv_target", seat=state.target_seat + 1)
    if pending is None:
        return
    if not state.config.trionfey:
        yield Refusal("fano.inv_classic_attack")
        return
    if pending.defender == state.turn_player or not 0 <= pending.defender < len(state.players):
        yield Refusal("fano.inv_defender")
        return
    if pending.attacker not in active(state.players[state.turn_player]):
        yield Refusal("fano.inv_attacker_card")
    if pending.target not in active(state.players[pending.defender]):
        yield Refusal("fano.inv_target_card")
    if pending.support:
        needed = support_value(
            value_of(pending.attacker), value_of(pending.target), pending.reverse
        )
        hand = state.players[state.turn_player].hand
        if value_of(pending.support) != needed or base_card(pending.support) not in hand:
            yield Refusal("fano.inv_support")
        if not state.players[pending.defender].hidden:
            yield Refusal("fano.inv_support_waits")
    if len(state.players) > 2 and state.target_seat != pending.defender:
        yield Refusal("fano.inv_defender_target")


def _player_problems(state: FanoState, seat: int, player: PlayerState) -> Iterable[Refusal]:
    config = state.config
    zones = {
        "hand": player.hand,
        "field": player.field,
        "draw": player.draw,
        "up": player.up,
        "down": player.down,
    }
    have: list[int] = []
    for name, cards in zones.items():
        if name != "draw" and any(a > b for a, b in pairwise(cards)):
            yield Refusal("fano.inv_order", zone=ZONES[name])
        for card in cards:
            if not is_joker(card):
                have.append(card)
                continue
            have.append(base_card(card))
            if kind_of(card) == TEMP and config.specials is SpecialsMode.OFF and not config.tribute:
                yield Refusal("fano.inv_temp_joker")
            prestige = config.joker_prestige and kind_of(card) == TEMP and is_prestige(card)
            if name == "field" and not is_combat(card) and not prestige:
                yield Refusal("fano.inv_joker_value", card=card_text(card))
            if name != "field" and value_of(card):
                yield Refusal("fano.inv_joker_kept", card=card_text(card))
    have.sort()
    want = sorted((*deck_of(config, seat), *([TEMP_JOKER] * player.temp_jokers)))
    if have != want:
        missing = sorted((Counter(want) - Counter(have)).elements())
        extra = sorted((Counter(have) - Counter(want)).elements())
        yield Refusal(
            "fano.inv_cards",
            missing=" ".join(card_text(c) for c in missing) or "-",
            extra=" ".join(card_text(c) for c in extra) or "-",
        )
    # Classic: one Temporary Joker at most per commander level below the winning one.
    if (
        not 0
        <= player.temp_jokers
        <= (JOKER_SUPPLY if config.trionfey else config.promotions_to_win)
    ):
        yield Refusal("fano.inv_temp_count", count=player.temp_jokers)
    if len(player.field) > FIELD_SLOTS:
        yield Refusal("fano.inv_field_count", count=len(player.field))
    if len(player.hand) > HAND_SIZE:
        yield Refusal("fano.inv_hand_count", count=len(player.hand))
    if not set(player.known) <= set(player.hand):
        yield Refusal("fano.inv_known")
    if not set(player.protected) <= set(player.field):
        yield Refusal("fano.inv_protected")
    if any(not is_combat(card) for card in player.protected):
        yield Refusal("fano.inv_protected_prestige")
    if not 0 <= player.level <= config.promotions_to_win:
        yield Refusal("fano.inv_level", level=player.level)
    levels = [level for level, _ in player.specials]
    if len(set(levels)) != len(levels) or any(level > player.level for level in levels):
        yield Refusal("fano.inv_specials")
    if any(special not in specials_of(config, seat) for _, special in player.specials):
        yield Refusal("fano.inv_special_kind")
    if player.shuffles < 0:
        yield Refusal("fano.inv_shuffles")
    if not 0 <= player.tribute <= TRIBUTE_CAP or (player.tribute and not config.tribute):
        yield Refusal("fano.inv_tribute", count=player.tribute)
    if player.hidden and not config.tribute:
        yield Refusal("fano.inv_hidden_classic")
    if not set(player.hidden) <= set(player.field):
        yield Refusal("fano.inv_hidden_off")
    if any(not is_combat(card) for card in player.hidden):
        yield Refusal("fano.inv_hidden_prestige")
    if config.trionfey:
        jokers = player.draw.count(TEMP_JOKER)
        if jokers and set(player.draw[-jokers:]) != {TEMP_JOKER}:
            yield Refusal("fano.inv_draw_joker")
