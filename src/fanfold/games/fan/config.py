"""Fan patience variant configuration and presets (rules text: seeds/004)."""

from __future__ import annotations

from dataclasses import dataclass

from fanfold.core.config import GameConfig
from fanfold.core.game import Preset


@dataclass(frozen=True)
class FanConfig(GameConfig):
    """Variant options.

    Attributes:
        any_card_to_empty: any card may fill an empty fan (the rules text's relaxed house rule);
            by default only a king may.
        sequence_moves: a run of cards of one suit in descending order at the top of a fan
            moves as one unit (the other relaxed house rule); by default one card at a time.
    """

    any_card_to_empty: bool = False
    sequence_moves: bool = False


#: The named variants, the default first.
PRESETS: tuple[Preset[FanConfig], ...] = (
    Preset(
        "classic",
        FanConfig(),
        "one card at a time; only a king fills an empty fan",
        aliases=("standard", "default"),
        player_counts=(1,),
    ),
    Preset(
        "any-to-empty",
        FanConfig(any_card_to_empty=True),
        "relaxed: any card may fill an empty fan",
        aliases=("any-card-to-empty", "relaxed-empty"),
        player_counts=(1,),
    ),
    Preset(
        "sequences",
        FanConfig(sequence_moves=True),
        "relaxed: runs of one suit in descending order move as a unit",
        aliases=("sequence-moves", "relaxed-sequences"),
        player_counts=(1,),
    ),
    Preset(
        "relaxed",
        FanConfig(any_card_to_empty=True, sequence_moves=True),
        "both relaxed rules: any card fills an empty fan and runs move as a unit",
        aliases=("relaxed-both",),
        player_counts=(1,),
    ),
)
