"""Fano states: immutable tuples of small ints (see :mod:`fanfold.games.fano.cards`)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from fanfold.games.fano.config import FanoConfig, Special


class Phase(enum.Enum):
    """Where the turn player is in their turn.

    ``draw-shuffle`` and ``shuffle`` wait for the turn player's reshuffle decision (only asked
    when a Temporary Joker could be added): after ``draw-shuffle`` the draw phase goes on to the
    mulligan check, after ``shuffle`` the main phase resumes. ``end`` is the main phase closed
    by a promotion (only with ``promotion_ends_main``). ``over`` is a game ended by the turn
    limit (a win is read from the commander levels). ``react`` (Trionfey) is the defender's
    counter window of a declared attack: the defender decides during the attacker's turn.
    """

    DRAW_SHUFFLE = "draw-shuffle"
    MULLIGAN = "mulligan"
    MAIN = "main"
    REACT = "react"
    SHUFFLE = "shuffle"
    END = "end"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class PlayerState:
    """One player's cards and progress.

    Attributes:
        hand: cards in hand, sorted.
        field: cards in play (at most 4), sorted; a joker carries its declared value.
        draw: the draw pile, the next card to draw last.
        up: face-up discards, sorted.
        down: face-down discards, sorted.
        known: hand cards every player has seen (returned by a combine), sorted.
        level: promotions so far (0 Jack, 1 Queen, 2 King).
        specials: ``(level, special)`` for each special used, in order.
        protected: field cards under Perfect defense, sorted.
        shuffles: how many times the discard pile was reshuffled (names the shuffle's seed).
        temp_jokers: Temporary Jokers now in the game (classic: at most one added per
            commander level, several may be in the game at once; Trionfey: Spades jokers, up
            to ``JOKER_SUPPLY``).
        tribute: Trionfey tribute counters held (0 to 7).
        hidden: Trionfey Perfect defense: cards in play that lie face down, sorted.
    """

    hand: tuple[int, ...] = ()
    field: tuple[int, ...] = ()
    draw: tuple[int, ...] = ()
    up: tuple[int, ...] = ()
    down: tuple[int, ...] = ()
    known: tuple[int, ...] = ()
    level: int = 0
    specials: tuple[tuple[int, Special], ...] = ()
    protected: tuple[int, ...] = ()
    shuffles: int = 0
    temp_jokers: int = 0
    tribute: int = 0
    hidden: tuple[int, ...] = ()

    @property
    def special_used_this_level(self) -> bool:
        """True once a special was used since the last promotion."""
        return any(level == self.level for level, _ in self.specials)


@dataclass(frozen=True, slots=True)
class Pending:
    """A declared attack (Trionfey) waiting for the defender's answer.

    Attributes:
        attacker: the attacking card, on the turn player's field.
        target: the card now attacked (a counter redirects the attack to the card it makes).
        defender: the seat that owns ``target``.
        reverse: declared with Reverse Fano (the arrows turned round for this attack).
        support: the support card once shown (0 before): the defender may then sacrifice a
            face-down card (Perfect defense) instead of the attacked card.
    """

    attacker: int
    target: int
    defender: int
    reverse: bool = False
    support: int = 0


@dataclass(frozen=True, slots=True)
class FanoState:
    """A whole Fano position.

    Attributes:
        config: the variant.
        seed: the game's seed; shuffles derive their generators from it.
        players: each seat's cards, in turn order.
        turn_player: whose turn it is. The decider (``current_player``) is the turn player in the
            classic edition; the field is kept apart so that a defender's reaction can later
            make someone else the decider.
        phase: where the turn is.
        turn: the turn number, from 1.
        pending: the declared attack in the defender's counter window (phase ``react``).
        target_seat: Trionfey with three or more players: the opponent chosen this turn (by the
            first declaration), or None.
        priority: Trionfey partnerships: the seat holding priority (its partnership's turn
            began with it); 0 otherwise.
    """

    config: FanoConfig
    seed: int
    players: tuple[PlayerState, ...]
    turn_player: int
    phase: Phase
    turn: int = 1
    pending: Pending | None = None
    target_seat: int | None = None
    priority: int = 0

    @property
    def decider(self) -> int:
        """The seat that decides now: the defender in a counter window, else the turn player."""
        return self.pending.defender if self.pending is not None else self.turn_player

    def target_of(self, seat: int) -> int:
        """The player ``seat`` attacks: the next player in turn order."""
        return (seat + 1) % len(self.players)
