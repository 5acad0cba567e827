"""What one Fano player may see, and states dealt consistent with it.

A player sees their own hand and face-down discards; of every player (themselves included)
the field, Perfect defense marks, face-up discards, the number of cards in hand, in the draw
pile and face down, the hand cards everyone has seen (returned to hand by a combine),
commander level, specials used, reshuffle count and whether a Temporary Joker is in the game.
Nobody sees the order of any draw pile, their own included.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from fanfold.core.config import JSONObject, JSONValue
from fanfold.games.fano.cards import TEMP_JOKER, base_card, card_text
from fanfold.games.fano.config import FanoConfig, Special
from fanfold.games.fano.rules import deck_of
from fanfold.games.fano.state import FanoState, Phase, PlayerState


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
    """

    player: int
    config: FanoConfig
    turn: int
    turn_player: int
    phase: Phase
    players: tuple[PublicPlayer, ...]
    hand: tuple[int, ...]
    down: tuple[int, ...]

    def to_json(self) -> JSONObject:
        """The view as JSON, as a server sends it to the seat."""
        players: list[JSONValue] = [player.to_json() for player in self.players]
        return {
            "player": self.player,
            "config": self.config.to_json(),
            "turn": self.turn,
            "turn_player": self.turn_player,
            "phase": self.phase.value,
            "players": players,
            "hand": [card_text(card) for card in self.hand],
            "face_down_discards": [card_text(card) for card in self.down],
        }


def public_part(player: PlayerState) -> PublicPlayer:
    """What everyone sees of ``player``."""
    return PublicPlayer(
        field=player.field,
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
        players=tuple(public_part(player) for player in state.players),
        hand=own.hand,
        down=own.down,
    )


def _unseen(config: FanoConfig, seat: int, public: PublicPlayer, seen: list[int]) -> list[int]:
    """``seat``'s cards that are in none of the places listed in ``seen`` (field, ...)."""
    pool = list(deck_of(config, seat))
    if public.temp_jokers:
        pool.append(TEMP_JOKER)
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
        specials = public.specials
        if seat == view.player:
            pool = _unseen(
                config, seat, public, [*public.field, *public.up, *view.hand, *view.down]
            )
            rng.shuffle(pool)
            hand, down, draw = view.hand, view.down, tuple(pool)
        else:
            pool = _unseen(config, seat, public, [*public.field, *public.up, *public.known])
            rng.shuffle(pool)
            extra = public.hand_count - len(public.known)
            hand = tuple(sorted((*public.known, *pool[:extra])))
            down = tuple(sorted(pool[extra : extra + public.down_count]))
            draw = tuple(pool[extra + public.down_count :])
        players.append(
            PlayerState(
                hand=hand,
                field=public.field,
                draw=draw,
                up=public.up,
                down=down,
                known=public.known,
                level=public.level,
                specials=specials,
                protected=public.protected,
                shuffles=public.shuffles,
                temp_jokers=public.temp_jokers,
            )
        )
    return FanoState(
        config=config,
        seed=rng.getrandbits(63),
        players=tuple(players),
        turn_player=view.turn_player,
        phase=view.phase,
        turn=view.turn,
    )
