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

from fanfold.envs.encoding import Encoding, one_hot
from fanfold.envs.layout import Block, FloatArray, Layout
from fanfold.games.fantan import PASS, PLAYS, FanTanView, Play
from fanfold.games.fantan.cards import indices_of
from fanfold.games.fantan.rules import history_seats

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
        blocks["hand"][indices_of(view.hand)] = 1.0
        blocks["layout"][indices_of(view.layout)] = 1.0
        played_by = blocks["played_by"]
        seats = history_seats(view.leader, players, len(view.history))
        for seat, action in zip(seats, view.history, strict=True):
            if isinstance(action, Play):
                played_by[self._seat(view, seat), action.index] = 1.0
        for seat in range(players):
            relative = self._seat(view, seat)
            blocks["hand_counts"][relative] = view.hand_counts[seat]
            blocks["passes"][relative] = view.passes[seat]
            blocks["scores"][relative] = view.scores[seat]
        one_hot(blocks["start_rank"], view.start_rank or 0)
        one_hot(blocks["dealer"], self._seat(view, view.dealer))
        one_hot(blocks["leader"], self._seat(view, view.leader))
        if view.to_move is not None:
            one_hot(blocks["to_move"], self._seat(view, view.to_move))
        blocks["hand_number"][0] = view.hand_number
        blocks["pool"][0] = view.pool
        if view.last_winner is not None:
            one_hot(blocks["last_winner"], self._seat(view, view.last_winner))
