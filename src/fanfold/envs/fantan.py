"""Fan Tan encoding.

Actions: the play of each of the 52 cards (index ``suit * 13 + rank - 1``: clubs, diamonds,
hearts, spades; ace to king), then ``pass`` at 52: 53 actions in every variant.

Observation, seen from the observing seat: seats are counted from it (0 is the observer, 1 the
next seat to the left, ...). It holds the observer's hand, the layout, who played each card of
this hand, every seat's card count and passes, the starting rank, the dealer, leader and
player to act, and the match: hand number, scores, pool and the last hand's winner. Other
seats' cards are never in it (the view does not hold them until the match is over).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable

import numpy as np
from numpy.typing import NDArray

from fanfold.envs.encoding import Encoding
from fanfold.envs.layout import Block, FloatArray, Layout
from fanfold.games.fantan import PASS, PLAYS, FanTanAction, FanTanView, Play

CARDS = 52
RANKS = 13


class FanTanEncoding(Encoding):
    """Actions and observations of Fan Tan (one variant and player count)."""

    def make_layout(self) -> Layout:
        players = self.players
        return Layout(
            (
                Block("hand", (CARDS,), "card (C, D, H, S; A..K): 1 for each card I hold"),
                Block("layout", (CARDS,), "card: 1 for each card on the table"),
                Block(
                    "played_by",
                    (players, CARDS),
                    "seat (0 me, then to my left) x card: who played each card this hand",
                ),
                Block(
                    "hand_counts",
                    (players,),
                    "seat: cards held",
                    high=float(math.ceil(CARDS / players)),
                ),
                Block("passes", (players,), "seat: passes this hand", high=math.inf),
                Block(
                    "start_rank",
                    (RANKS + 1,),
                    "1 at the rank rows start with (1..13), or at 0 while still to be chosen",
                ),
                Block("dealer", (players,), "1 at the dealer's seat"),
                Block("leader", (players,), "1 at the seat that led this hand"),
                Block("to_move", (players,), "1 at the seat to act (all 0 once the match is over)"),
                Block("hand_number", (1,), "hands finished before this one", high=math.inf),
                Block(
                    "scores",
                    (players,),
                    "seat: hands won, net chips or penalty points (the variant's scoring)",
                    low=-math.inf,
                    high=math.inf,
                ),
                Block("pool", (1,), "chips in the pool", high=math.inf),
                Block("last_winner", (players,), "1 at the seat that won the last hand, if any"),
            )
        )

    def relative_actions(self) -> Iterable[Hashable]:
        yield from PLAYS
        yield PASS

    def _seat(self, view: FanTanView, seat: int) -> int:
        return (seat - view.player) % self.players

    def fill(self, view: FanTanView, blocks: dict[str, FloatArray]) -> None:
        players = self.players
        me = view.player
        blocks["hand"][:] = card_bits(view.hand)
        blocks["layout"][:] = card_bits(view.layout)
        plays = self._plays(view.history)
        if plays:
            # the seat of the action at position n is (leader + n) % players; relative to me
            first = view.leader - me
            blocks["played_by"][
                [(first + n) % players for n, _ in plays], [c for _, c in plays]
            ] = 1.0
        blocks["hand_counts"][:] = view.hand_counts[me:] + view.hand_counts[:me]
        blocks["passes"][:] = view.passes[me:] + view.passes[:me]
        blocks["scores"][:] = view.scores[me:] + view.scores[:me]
        blocks["start_rank"][view.start_rank or 0] = 1.0
        blocks["dealer"][(view.dealer - me) % players] = 1.0
        blocks["leader"][(view.leader - me) % players] = 1.0
        if view.to_move is not None:
            blocks["to_move"][(view.to_move - me) % players] = 1.0
        blocks["hand_number"][0] = view.hand_number
        blocks["pool"][0] = view.pool
        if view.last_winner is not None:
            blocks["last_winner"][(view.last_winner - me) % players] = 1.0

    def _plays(self, history: tuple[FanTanAction, ...]) -> list[tuple[int, int]]:
        """(position in the hand's history, card index) of each play of ``history``; the
        last history's plays are kept, so a history one action longer costs one action."""
        known, plays = self._last_plays
        if len(history) < len(known) or history[: len(known)] != known:
            known, plays = (), []
        else:
            plays = list(plays)
        for number in range(len(known), len(history)):
            action = history[number]
            if isinstance(action, Play):
                plays.append((number, action.index))
        self._last_plays = (history, plays)
        return plays

    _last_plays: tuple[tuple[FanTanAction, ...], list[tuple[int, int]]] = ((), [])


def card_bits(mask: int) -> NDArray[np.uint8]:
    """A 52-card mask as 52 zeros and ones, in card index order."""
    return np.unpackbits(
        np.array([mask], dtype="<u8").view(np.uint8), count=CARDS, bitorder="little"
    )
