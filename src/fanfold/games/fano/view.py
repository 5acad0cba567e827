"""What one Fano player may see, and states dealt consistent with it.

A player sees their own hand and face-down discards; of every player (themselves included)
the field, Perfect defense marks, face-up discards, the number of cards in hand, in the draw
pile and face down, the hand cards everyone has seen (returned to hand by a combine),
commander level, specials used, reshuffle count and how many Temporary Jokers are in the game.
Nobody sees the order of any draw pile, their own included.

The view's JSON also carries what a front end needs to draw and point without knowing a rule:
references naming each card a player may point at (``field_refs`` of every player,
``hand_refs`` and ``face_down_in_play_refs`` of the seat: see :mod:`fanfold.games.fano.choices`),
the partnership of each seat (``teams``), and the plane (``plane``): its seven directed cycles
as point triples and the arrows of the attacks the player to move could make now from what is
in play (``[attacker value, target value]``, supports aside).

Trionfey adds: a declared attack waiting for the defender and the opponent chosen this turn
(public, the support is not: it is shown only when the attack resolves); every player's tribute
counters (public); cards in play lying face down (Perfect defense) are seen only by their owner,
the others see how many there are.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from fanfold.core.config import JSONObject, JSONValue
from fanfold.games.fano.cards import (
    ATTACK_SUPPORT,
    CYCLES,
    MAX_COMBAT,
    TEMP_JOKER,
    base_card,
    card_text,
    is_combat,
    value_of,
)
from fanfold.games.fano.config import FanoConfig, Special, Teams
from fanfold.games.fano.rules import deck_of
from fanfold.games.fano.rules.attacks import support_value
from fanfold.games.fano.rules.turns import teammates
from fanfold.games.fano.state import FanoState, Pending, Phase, PlayerState


@dataclass(frozen=True, slots=True)
class PublicPlayer:
    """What everyone sees of one player."""

    field: tuple[int, ...]
    protected: tuple[int, ...]
    up: tuple[int, ...]
    hand_count: int
    draw_count: int
    down_count: int
    known: tuple[int, ...]
    level: int
    specials: tuple[tuple[int, Special], ...]
    shuffles: int
    temp_jokers: int
    tribute: int = 0
    hidden_count: int = 0
    jokers_on_draw: int = 0

    def to_json(self) -> JSONObject:
        """The public part as JSON (cards as text)."""
        return {
            "field": [card_text(card) for card in self.field],
            "protected": [card_text(card) for card in self.protected],
            "face_up_discards": [card_text(card) for card in self.up],
            "hand_count": self.hand_count,
            "draw_count": self.draw_count,
            "face_down_count": self.down_count,
            "known_in_hand": [card_text(card) for card in self.known],
            "level": self.level,
            "specials_used": [[level, special.value] for level, special in self.specials],
            "shuffles": self.shuffles,
            "temporary_jokers": self.temp_jokers,
            "tribute": self.tribute,
            "face_down_in_play": self.hidden_count,
            "jokers_on_draw_pile": self.jokers_on_draw,
        }


@dataclass(frozen=True, slots=True)
class FanoView:
    """One seat's view of a Fano state.

    Attributes:
        player: the seat.
        config: the variant.
        turn: the turn number.
        turn_player: whose turn it is.
        phase: the phase of the turn (another player's mulligan decision shows as ``main``).
        players: the public part of every seat.
        hand: this seat's hand.
        down: this seat's face-down discards.
        hidden: this seat's cards in play lying face down (Trionfey Perfect defense).
        pending: the declared attack in a counter window (Trionfey).
        target_seat: the opponent chosen this turn (Trionfey, three or more players).
        priority: the seat holding priority (Trionfey partnerships).
    """

    player: int
    config: FanoConfig
    turn: int
    turn_player: int
    phase: Phase
    players: tuple[PublicPlayer, ...]
    hand: tuple[int, ...]
    down: tuple[int, ...]
    hidden: tuple[int, ...] = ()
    pending: Pending | None = None
    target_seat: int | None = None
    priority: int = 0

    def to_json(self) -> JSONObject:
        """The view as JSON, as a server sends it to the seat."""
        players: list[JSONValue] = []
        for seat, player in enumerate(self.players):
            data = player.to_json()
            data["field_refs"] = [field_ref(seat, card) for card in player.field]
            players.append(data)
        return {
            "player": self.player,
            "config": self.config.to_json(),
            "turn": self.turn,
            "turn_player": self.turn_player,
            "phase": self.phase.value,
            "players": players,
            "hand": [card_text(card) for card in self.hand],
            "face_down_discards": [card_text(card) for card in self.down],
            "face_down_in_play": [card_text(card) for card in self.hidden],
            "attack": _pending_json(self.pending),
            "target_seat": self.target_seat,
            "priority": self.priority,
            "hand_refs": list[JSONValue](hand_refs(self.player, self.hand)),
            "face_down_in_play_refs": [field_ref(self.player, card) for card in self.hidden],
            "teams": _teams(self.config),
            "plane": {"cycles": [list(cycle) for cycle in CYCLES], "arrows": _arrows(self)},
        }


def field_ref(seat: int, card: int) -> str:
    """The reference of ``seat``'s ``card`` in play: ``f:SEAT:CARD``."""
    return f"f:{seat}:{card_text(card)}"


def hand_refs(seat: int, cards: tuple[int, ...]) -> list[str]:
    """The references of ``seat``'s hand ``cards`` (or of some of them, in hand order):
    ``h:SEAT:CARD``, the second of two equal cards ``h:SEAT:CARD~1``; a joker declared as a
    value is the joker in hand."""
    seen: dict[str, int] = {}
    refs = []
    for card in cards:
        text = card_text(base_card(card))
        count = seen.get(text, 0)
        seen[text] = count + 1
        refs.append(f"h:{seat}:{text}" + (f"~{count}" if count else ""))
    return refs


def _teams(config: FanoConfig) -> JSONValue:
    """Each seat's partnership (0 or 1), or None without partnerships."""
    if config.teams is Teams.NONE:
        return None
    return [0 if 0 in teammates(config, seat) else 1 for seat in range(config.players)]


def _arrows(view: FanoView) -> list[JSONValue]:
    """The attacks the player to move could make now along the arrows, from what is in play:
    ``[attacker value, target value]`` pairs, each once (in the main phase only)."""
    if view.phase is not Phase.MAIN:
        return []
    seat = view.turn_player
    count = len(view.players)
    if not view.config.trionfey or count == 2:
        foes: tuple[int, ...] = ((seat + 1) % count,)
    elif view.target_seat is not None:
        foes = (view.target_seat,)
    else:
        partners = teammates(view.config, seat)
        foes = tuple(other for other in range(count) if other not in partners)
    found: set[tuple[int, int]] = set()
    for attacker in view.players[seat].field:
        for foe in foes:
            public = view.players[foe]
            for target in public.field:
                if not (is_combat(attacker) and is_combat(target)) or target in public.protected:
                    continue
                if ATTACK_SUPPORT[value_of(attacker)][value_of(target)]:
                    found.add((value_of(attacker), value_of(target)))
    return [[a, b] for a, b in sorted(found)]


def _pending_json(pending: Pending | None) -> JSONValue:
    if pending is None:
        return None
    attacker, target = value_of(pending.attacker), value_of(pending.target)
    arrow: list[JSONValue] = [target, attacker] if pending.reverse else [attacker, target]
    return {
        "attacker": card_text(pending.attacker),
        "target": card_text(pending.target),
        "defender": pending.defender,
        "reverse": pending.reverse,
        "support": card_text(pending.support) if pending.support else None,
        "needs": support_value(attacker, target, pending.reverse),
        "arrow": arrow,
    }


def public_part(player: PlayerState, trionfey: bool = False) -> PublicPlayer:
    """What everyone sees of ``player`` (``trionfey``: Spades jokers lie face up on the draw
    pile)."""
    field = player.field
    if player.hidden:
        field = tuple(card for card in field if card not in player.hidden)
    return PublicPlayer(
        field=field,
        protected=player.protected,
        up=player.up,
        hand_count=len(player.hand),
        draw_count=len(player.draw),
        down_count=len(player.down),
        known=player.known,
        level=player.level,
        specials=player.specials,
        shuffles=player.shuffles,
        temp_jokers=player.temp_jokers,
        tribute=player.tribute,
        hidden_count=len(player.hidden),
        jokers_on_draw=player.draw.count(TEMP_JOKER) if trionfey else 0,
    )


def observe(state: FanoState, seat: int) -> FanoView:
    """Build ``seat``'s view fresh from the state."""
    own = state.players[seat]
    phase = state.phase
    if phase is Phase.MULLIGAN and seat != state.turn_player:
        # Being offered a mulligan would tell the others the hand is all prestige.
        phase = Phase.MAIN
    return FanoView(
        player=seat,
        config=state.config,
        turn=state.turn,
        turn_player=state.turn_player,
        phase=phase,
        players=tuple(public_part(player, state.config.trionfey) for player in state.players),
        hand=own.hand,
        down=own.down,
        hidden=own.hidden,
        pending=state.pending,
        target_seat=state.target_seat,
        priority=state.priority,
    )


def public_view(state: FanoState) -> JSONObject:
    """What a spectator may see, as JSON: every seat's public part, whose turn and which phase
    (a mulligan decision shows as ``main``, as it does to the other seats), the declared attack
    and the chosen opponent; no hand, no face-down card. The same shape as a seat's view, with
    ``"player": None`` and the private lists empty."""
    phase = Phase.MAIN if state.phase is Phase.MULLIGAN else state.phase
    data = FanoView(
        player=0,
        config=state.config,
        turn=state.turn,
        turn_player=state.turn_player,
        phase=phase,
        players=tuple(public_part(player, state.config.trionfey) for player in state.players),
        hand=(),
        down=(),
        pending=state.pending,
        target_seat=state.target_seat,
        priority=state.priority,
    ).to_json()
    data["player"] = None
    return data


def _unseen(config: FanoConfig, seat: int, public: PublicPlayer, seen: list[int]) -> list[int]:
    """``seat``'s cards that are in none of the places listed in ``seen`` (field, ...)."""
    pool = list(deck_of(config, seat))
    pool.extend([TEMP_JOKER] * public.temp_jokers)
    for card in seen:
        pool.remove(base_card(card))
    return sorted(pool)


def sample_state(view: FanoView, rng: random.Random) -> FanoState:
    """A full state consistent with ``view``: every card the view shows stays where it is,
    the others are dealt at random among the places they could be (the viewer's own draw
    pile; other players' unknown hand cards, draw piles and face-down discards). The seed is
    drawn afresh, so later reshuffles are unknown too."""
    config = view.config
    players = []
    for seat, public in enumerate(view.players):
        on_top: tuple[int, ...] = (TEMP_JOKER,) * public.jokers_on_draw
        specials = public.specials
        field = public.field
        hidden: tuple[int, ...] = ()
        if seat == view.player:
            hidden = view.hidden
            field = tuple(sorted((*field, *hidden)))
            pool = _unseen(
                config, seat, public, [*field, *public.up, *view.hand, *view.down, *on_top]
            )
            rng.shuffle(pool)
            hand, down, draw = view.hand, view.down, (*pool, *on_top)
        else:
            in_hand = list(public.known)
            shown = view.pending.support if view.pending is not None else 0
            if shown and seat == view.turn_player and base_card(shown) not in in_hand:
                # The support was shown from the attacker's hand.
                in_hand.append(base_card(shown))
            pool = _unseen(config, seat, public, [*public.field, *public.up, *in_hand, *on_top])
            rng.shuffle(pool)
            if public.hidden_count:
                # Face-down cards in play are combat cards played from hand.
                combat = [card for card in pool if 1 <= card >> 4 <= MAX_COMBAT]
                hidden = tuple(sorted(combat[: public.hidden_count]))
                for card in hidden:
                    pool.remove(card)
                field = tuple(sorted((*field, *hidden)))
            extra = public.hand_count - len(in_hand)
            hand = tuple(sorted((*in_hand, *pool[:extra])))
            down = tuple(sorted(pool[extra : extra + public.down_count]))
            draw = (*pool[extra + public.down_count :], *on_top)
        players.append(
            PlayerState(
                hand=hand,
                field=field,
                draw=draw,
                up=public.up,
                down=down,
                known=public.known,
                level=public.level,
                specials=specials,
                protected=public.protected,
                shuffles=public.shuffles,
                temp_jokers=public.temp_jokers,
                tribute=public.tribute,
                hidden=hidden,
            )
        )
    return FanoState(
        config=config,
        seed=rng.getrandbits(63),
        players=tuple(players),
        turn_player=view.turn_player,
        phase=view.phase,
        turn=view.turn,
        pending=view.pending,
        target_seat=view.target_seat,
        priority=view.priority,
    )
