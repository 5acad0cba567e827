"""Fan patience encoding.

Actions: a card to its foundation from each of the 18 fans (indices 0..17), then every move
from a fan to another fan: ``source`` 1..18, ``target`` the 17 other fans in order and, where
sequences may move, the number of cards 1..13. That is 18 + 18 * 17 = 324 actions one card at
a time, and 18 + 18 * 17 * 13 = 3996 with sequence moves.

Observation: for each of the 52 cards (clubs, diamonds, hearts, spades; ace to king) where it
is (one of the 18 fans, or its foundation) and, in a fan, how deep (0 the bottom card). A fan
holds at most 16 cards: its three dealt cards under a descending run of at most 13.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from functools import cached_property

from fanfold.core.cards import Card
from fanfold.envs.encoding import Encoding
from fanfold.envs.layout import Block, FloatArray, Layout
from fanfold.games.fan import NUM_FANS, FanMove, FanView
from fanfold.games.fan.deals import KING

#: The most cards a fan can hold: two dealt cards under a dealt king and its run down to the ace.
MAX_FAN = 15
CARDS = 52


class FanEncoding(Encoding):
    """Actions and observations of Fan patience (one variant's move rules)."""

    def make_layout(self) -> Layout:
        return Layout(
            (
                Block(
                    "where",
                    (CARDS, NUM_FANS + 1),
                    "card (C, D, H, S; A..K) x place (fans 1..18, then the foundation): 1 "
                    "where the card is",
                ),
                Block(
                    "depth",
                    (CARDS, MAX_FAN),
                    "card x position in its fan (0 the bottom card): 1 there; all 0 for a card "
                    "on its foundation",
                ),
            )
        )

    def relative_actions(self) -> Iterable[Hashable]:
        for source in range(1, NUM_FANS + 1):
            yield FanMove(source, None)
        counts = range(1, KING + 1) if self.config.sequence_moves else range(1, 2)
        for source in range(1, NUM_FANS + 1):
            for target in range(1, NUM_FANS + 1):
                if target != source:
                    for count in counts:
                        yield FanMove(source, target, count)

    def fill(self, view: FanView, blocks: dict[str, FloatArray]) -> None:
        state = view.state
        places: list[int] = []  # flat indices into the where block
        depths: list[int] = []  # and into the depth block
        cells = self._fan_cells
        for number, fan in enumerate(state.fans):
            known = cells[number]
            if known[0] is not fan:  # a step changes one or two fans; the others are kept
                indices = [card.index for card in fan]
                known = (
                    fan,
                    [index * (NUM_FANS + 1) + number for index in indices],
                    [index * MAX_FAN + position for position, index in enumerate(indices)],
                )
                cells[number] = known
            places += known[1]
            depths += known[2]
        for suit_number, top in enumerate(state.foundations):
            first = suit_number * KING
            places += range(
                first * (NUM_FANS + 1) + NUM_FANS, (first + top) * (NUM_FANS + 1), NUM_FANS + 1
            )
        blocks["where"].reshape(-1)[places] = 1.0
        blocks["depth"].reshape(-1)[depths] = 1.0

    @cached_property
    def _fan_cells(self) -> list[tuple[tuple[Card, ...] | None, list[int], list[int]]]:
        """Per fan, the last fan seen there and its cells in the where and depth blocks."""
        return [(None, [], [])] * NUM_FANS
