"""Fano, classic edition: a card game on the Fano plane (rules: seeds/000_20e0e87f70a9328e.txt).

Each player commands one suit: A (1) to 10 shuffled as their own draw pile, J/Q/K as the
commander track, four field slots and a discard pile (face up, and face down for end-of-turn
discards). A turn is: draw to three cards (reshuffling the discard pile when the draw pile runs
out; a hand of only prestige cards may be redrawn once); a main phase of attacks, combinations
and promotions in any order and number (cards entering play act at once; an empty hand draws
three); one end action (play a combat card, substitute, discard any number face down, or pass).

An attack takes three cards on one directed cycle ``i -> i+1 -> i+3`` (mod 7): the attacker in
play, the target on the next player's field, the support in hand; attacker and target go to
their owners' discard piles face up and the support enters play. A combination removes two of
your cards in play and plays their sum (at most 10) from hand, optionally returning one to hand;
it is the only way prestige cards (8, 9, 10) enter play. Promoting discards an 8, 9 and 10 in
play; the third promotion wins. A turn limit (default 200 turns) ends the game drawn.

Variants (config flags, with presets): 2 to 8 players (each attacks the next player), the 2-suit
2-player game (all six prestige cards with easy/intermediate/hard promotion, or three removed),
Joker's wild, and the four specials (Reverse Fano, Oversum, Temporary Joker, Perfect defense),
once per commander level, by suit or by choice.

Notation: ``4H>6S:3H`` attack, ``1H+4H=5H return 1H`` combine, ``promote 8H 9H TH``,
``play 5H``, ``sub 8H 5H``, ``discard 9H``, ``pass``; see :mod:`fanfold.games.fano.actions`
and, for positions, :mod:`fanfold.games.fano.notation`. Every reading of an open point is in
``docs/rules/fano.md``.
"""

from fanfold.core.registry import register
from fanfold.games.fano.actions import (
    Attack,
    Combine,
    Defend,
    Discard,
    FanoAction,
    Mulligan,
    Pass,
    Play,
    Promote,
    Shuffle,
    Substitute,
)
from fanfold.games.fano.config import (
    PRESETS,
    Edition,
    FanoConfig,
    PromotionMode,
    Special,
    SpecialsMode,
)
from fanfold.games.fano.game import FanoGame
from fanfold.games.fano.state import FanoState, Phase, PlayerState
from fanfold.games.fano.view import FanoView, PublicPlayer

GAME = register(FanoGame(), "fano-classic", "fano.classic")

__all__ = [
    "GAME",
    "PRESETS",
    "Attack",
    "Combine",
    "Defend",
    "Discard",
    "Edition",
    "FanoAction",
    "FanoConfig",
    "FanoGame",
    "FanoState",
    "FanoView",
    "Mulligan",
    "Pass",
    "Phase",
    "Play",
    "PlayerState",
    "Promote",
    "PromotionMode",
    "PublicPlayer",
    "Shuffle",
    "Special",
    "SpecialsMode",
    "Substitute",
]
