"""Fan patience: a one-player card game with an open deal (rules: seeds/004).

The 52 cards are dealt face up to 17 fans of three and one fan of one. Only the top card of a
fan moves, one card at a time: to its foundation (built up by suit from the ace) or onto the top
card of another fan that is one rank higher in the same suit (fans build down by suit). Only a
king may fill an empty fan. There is no stock and no redeal. The game is won when all 52 cards
are on the foundations and lost when no legal move is left.

Variants (presets): ``classic`` (the default), ``any-to-empty`` (any card fills an empty fan),
``sequences`` (a run of one suit in descending order moves as a unit) and ``relaxed`` (both).
Deals are numbered as in PySolFC (``new_state(config, 1234)`` is PySolFC's Fan deal 1234).

Notation: fans are numbered 1..18; ``3-7`` moves the top card of fan 3 onto fan 7, ``3-F`` to
its foundation, ``3-7:2`` the top two cards together where sequences may move. A position is
the 18 fans bottom to top joined by ``/`` (``-`` when empty), then the top rank of the C, D, H
and S foundations: ``4C2C4S/3D7CAD/.../3H A---``. Boards in fc-solve's text format are read and
written by :func:`parse_fcs_board` and :func:`format_fcs_board`. See ``docs/rules/fan.md``.

Modules: ``config`` (options and presets), ``deals`` (PySolFC's deals, fc-solve's boards),
``actions``, ``state`` (positions, checked), ``rules`` (everything the rules decide;
``why_illegal`` is the one source of legality), ``view``, ``notation``, ``render`` and ``game``
(the :class:`~fanfold.core.game.Game` object).
"""

from fanfold.core.game import Termination
from fanfold.core.plugin import GamePlugin, WebHints
from fanfold.games.fan.actions import FanMove, parse_move
from fanfold.games.fan.config import PRESETS, FanConfig
from fanfold.games.fan.deals import (
    KING,
    NUM_FANS,
    deal_fans,
    format_fcs_board,
    parse_fcs_board,
)
from fanfold.games.fan.game import FanGame
from fanfold.games.fan.notation import format_position, parse_position
from fanfold.games.fan.rules import apply_move, legal_moves, run_length, why_illegal
from fanfold.games.fan.state import FanState, make_state
from fanfold.games.fan.view import FanView

GAME = FanGame()

#: What the layers above the rules need of Fan patience (:mod:`fanfold.core.plugin`).
PLUGIN = GamePlugin(
    GAME,
    terminations=(Termination.ALL_ON_FOUNDATIONS, Termination.NO_MOVE),
    lessons="fanfold.games.fan.lessons:lesson_book",
    strategy="fanfold.agents.strategy.fan",
    analyses="fanfold.play.analysis:FAN_ANALYSES",
    encoding="fanfold.envs.fan:FanEncoding",
    web=WebHints(
        blurb="A patience with every card face up: free all 52 cards from 18 fans onto the "
        "foundations. 1 player.",
        order=4,
        seed_label="Deal number (PySolFC)",
        notation_example="11-F",
        options_example="sequence_moves=true",
    ),
)

__all__ = [
    "GAME",
    "KING",
    "NUM_FANS",
    "PLUGIN",
    "PRESETS",
    "FanConfig",
    "FanGame",
    "FanMove",
    "FanState",
    "FanView",
    "apply_move",
    "deal_fans",
    "format_fcs_board",
    "format_position",
    "legal_moves",
    "make_state",
    "parse_fcs_board",
    "parse_move",
    "parse_position",
    "run_length",
    "why_illegal",
]
