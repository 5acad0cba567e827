"""Fano: a card game on the Fano plane, in two editions chosen by config.

Rules texts: the classic edition, seeds/000_20e0e87f70a9328e.txt ("How to play Fano"), and
"The battle for Trionfey", seeds/001_4b741ffe6572c987.txt (``edition=trionfey``).

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
play; the third promotion wins. A turn limit (``turns_per_player``, default 400 turns for each
player) ends the game drawn.

Variants (config flags, with presets): 2 to 8 players (each attacks the next player), the 2-suit
2-player game (all six prestige cards with easy/intermediate/hard promotion, or three removed),
Joker's wild, and the four specials (Reverse Fano, Oversum, Temporary Joker, Perfect defense),
once per commander level, by suit or by choice.

The Trionfey edition (presets ``trionfey``: two promotions win; ``trionfey-queen``: one;
``trionfey-tournament``: three) declares attacks without showing the support (``4H>6S``; a
bluff is legal: without the support the attacker is discarded face up). The defender decides
in a counter window during the attacker's turn (``current_player`` is the defender): a combine
counter (``counter 3S+2S=5S``) or a recruit-combine counter redirects the attack to the new
card, which may end it or be countered again; or ``allow``. Recruit (``recruit 2H with AH 4H``)
brings a card from hand when the three values share a line. Only a hand of 8, 9 and 10 may be
redrawn. With three players each turn's first declaration chooses the opponent (``4H>6S@3``).
Tribute counters (``tribute=true``, preset ``trionfey-specials``) buy each suit's special:
Spades ``joker``, Hearts ``... reverse``, Clubs ``... oversum``, Diamonds ``play 5D down`` or
``sub 8D 5D down`` (then ``flip 5D`` or ``sacrifice 5D``). 4, 6 or 8 players play in two
partnerships (odd against even seats, turns in priority order): ``trionfey-all-for-one`` and
``trionfey-one-for-all`` (one shared commander, ``promote 8H 9S@3 TH``).

Every legal action comes from the move generator in :mod:`fanfold.games.fano.rules`, and
:func:`why_illegal` explains any other action from the same checks (None for a legal one).

Notation: ``4H>6S:3H`` attack, ``1H+4H=5H return 1H`` combine, ``promote 8H 9H TH``,
``play 5H``, ``sub 8H 5H``, ``discard 9H``, ``pass``; see :mod:`fanfold.games.fano.actions`
and, for positions, :mod:`fanfold.games.fano.notation`. Every reading of an open point is in
``docs/rules/fano.md``.
"""

from fanfold.core.game import Termination
from fanfold.core.plugin import GamePlugin, WebHints
from fanfold.games.fano.actions import (
    Allow,
    Attack,
    Combine,
    CombineCounter,
    Declare,
    Defend,
    Discard,
    FanoAction,
    Mulligan,
    Pass,
    Play,
    Promote,
    Recruit,
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
    Teams,
)
from fanfold.games.fano.game import FanoGame
from fanfold.games.fano.rules import why_illegal
from fanfold.games.fano.state import FanoState, Pending, Phase, PlayerState
from fanfold.games.fano.view import FanoView, PublicPlayer

GAME = FanoGame()

#: What the layers above the rules need of Fano (:mod:`fanfold.core.plugin`).
PLUGIN = GamePlugin(
    GAME,
    terminations=(Termination.PROMOTIONS, Termination.TURN_LIMIT),
    lessons="fanfold.games.fano.lessons:lesson_book",
    strategy="fanfold.agents.strategy.fano",
    clock="rapid",
    rating_families={
        "fano-classic": "Fano (classic)",
        "fano-trionfey": "Fano (The battle for Trionfey)",
    },
    # The turn planner with one deal and 40 positions a decision: about as strong as
    # ``medium`` in the classic game and several times faster in Trionfey (docs/balance.md).
    lab_player="planner(deals=1, nodes=40)",
    encoding="fanfold.envs.fano:FanoEncoding",
    web=WebHints(
        blurb="A card duel on the lines of the Fano plane: attack, combine and promote your "
        "commander. 2 to 8 players.",
        order=1,
        notation_example="4H>6C:3H",
        options_example="promotions_to_win=2",
    ),
)

__all__ = [
    "GAME",
    "PLUGIN",
    "PRESETS",
    "Allow",
    "Attack",
    "Combine",
    "CombineCounter",
    "Declare",
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
    "Pending",
    "Phase",
    "Play",
    "PlayerState",
    "Promote",
    "PromotionMode",
    "PublicPlayer",
    "Recruit",
    "Shuffle",
    "Special",
    "SpecialsMode",
    "Substitute",
    "Teams",
    "why_illegal",
]
