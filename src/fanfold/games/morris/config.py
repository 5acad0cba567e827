"""Fano330-R-Morris variant configuration and presets (rules text: seeds/002)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from fanfold.core.config import GameConfig
from fanfold.core.game import Preset


class Adjacency(enum.Enum):
    """Which points a piece may move between."""

    GEOMETRIC = "geometric"
    COMPLETE = "complete"


@dataclass(frozen=True)
class MorrisConfig(GameConfig):
    """Variant options.

    Attributes:
        adjacency: ``geometric`` (neighbours on the drawing: 15 pairs) or ``complete`` (any two
            points on a common line: all 21 pairs).
    """

    adjacency: Adjacency = Adjacency.GEOMETRIC


#: The named variants, the default first.
PRESETS: tuple[Preset[MorrisConfig], ...] = (
    Preset(
        "geometric",
        MorrisConfig(Adjacency.GEOMETRIC),
        "pieces move to neighbouring points on the drawing (15 adjacent pairs)",
        aliases=("standard", "default"),
        player_counts=(2,),
    ),
    Preset(
        "complete",
        MorrisConfig(Adjacency.COMPLETE),
        "pieces move to any point sharing a line (all 21 pairs)",
        aliases=("any-line",),
        player_counts=(2,),
    ),
)
