"""Fan Tan (Sevens, Parliament, Domino) and its variants (rules text: seeds/003).

Three to eight players share one 52-card pack, dealt one card at a time clockwise from the
dealer's left (the seats nearest the dealer's left get one card more when it does not divide
evenly); the deal passes to the left each hand. Each suit's row starts with its seven and
builds down to the two and up to the ace (ace high). At your turn you must play a card if you
can: a seven, or the card next in rank to an end of its suit's row; you pass only when you
cannot. The first player to play all their cards wins the hand.

Variants (presets; options combine where sensible, see :class:`FanTanConfig`): ``chips``
(ante, a chip per pass, the winner takes the pool and a chip per card left),
``seven-of-diamonds`` (its holder opens with it), ``ace-low``, ``sevens-online`` (seven of
hearts first, each suit's 8 before its 6, face-value penalty points), ``domino`` (the first
player chooses the starting rank for every suit), ``ten-titans`` (rows start at the ten,
penalty points), and matches of several hands (``chips-match``, ``sevens-match``). See
``docs/rules/fantan.md``.

Notation: a play is the card, rank then suit (``7D``, ``TH``); ``pass`` passes. A position is
``hand=1 leader=1 scores=0,0,0,0 pool=0 last=- seed=7 | <hand> / <hand> / ... | <actions>``
(see :mod:`fanfold.games.fantan.notation`).

Modules: ``config`` (options and presets), ``cards`` (cards as bits), ``actions``, ``state``,
``rules`` (everything the rules decide; ``why_illegal`` is the one source of legality),
``view`` (what a seat sees), ``sampling`` (deals consistent with a view), ``notation``,
``render``, ``game`` (the :class:`~fanfold.core.game.Game` object) and ``fast`` (a random
playout tested equal to the rules).
"""

from fanfold.core.game import Termination
from fanfold.core.plugin import GamePlugin, WebHints
from fanfold.games.fantan.actions import PASS, PLAYS, FanTanAction, Pass, Play
from fanfold.games.fantan.config import PRESETS, FanTanConfig, Scoring
from fanfold.games.fantan.game import FanTanGame
from fanfold.games.fantan.state import FanTanState
from fanfold.games.fantan.view import FanTanView

GAME = FanTanGame()

#: What the layers above the rules need of Fan Tan (:mod:`fanfold.core.plugin`).
PLUGIN = GamePlugin(
    GAME,
    terminations=(Termination.WENT_OUT, Termination.HANDS_PLAYED, Termination.TARGET_REACHED),
    lessons="fanfold.games.fantan.lessons:lesson_book",
    strategy="fanfold.agents.strategy.fantan",
    clock="rapid",
    rating_families={"fantan": "Fan Tan"},
    lab_player="heuristic",
    encoding="fanfold.envs.fantan:FanTanEncoding",
    web=WebHints(
        blurb="Sevens: build each suit out from its seven and be the first to play all your "
        "cards. 3 to 8 players.",
        order=3,
        notation_example="7H",
        options_example="hands=3",
    ),
)

__all__ = [
    "GAME",
    "PASS",
    "PLAYS",
    "PLUGIN",
    "PRESETS",
    "FanTanAction",
    "FanTanConfig",
    "FanTanGame",
    "FanTanState",
    "FanTanView",
    "Pass",
    "Play",
    "Scoring",
]
