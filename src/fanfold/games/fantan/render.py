"""Drawing a Fan Tan view as plain text for the terminal."""

from __future__ import annotations

from fanfold.core.cards import SUITS, Card, rank_text
from fanfold.games.fantan.cards import cards_of, rank_order, row_ranks
from fanfold.games.fantan.config import Scoring
from fanfold.games.fantan.rules import seat_name
from fanfold.games.fantan.view import FanTanView

_SCORE_LABEL = {
    Scoring.PLAIN: "hands won",
    Scoring.CHIPS: "chips",
    Scoring.PENALTY: "penalty",
}


def render(view: FanTanView) -> str:
    """The layout as a grid (one line per suit, ranks in order), the players, and your hand."""
    config = view.config
    order = rank_order(config.ace_high)
    name = [seat_name(seat) for seat in range(config.players)]
    lines = []
    hand_label = f"Hand {view.hand_number + 1}" + (
        f" of {config.hands}" if config.hands > 1 else ""
    )
    start = "chosen by the first card" if view.start_rank is None else rank_text(view.start_rank)
    lines.append(f"{hand_label}, dealt by {name[view.dealer]}; rows start at: {start}")
    if view.last_winner is not None:
        lines.append(f"Previous hand won by {name[view.last_winner]}")
    lines.append("Layout:")
    lines.append("      " + " ".join(f"{rank_text(rank):>2}" for rank in order))
    for number, suit in enumerate(SUITS):
        present = set(row_ranks(view.layout, number, config.ace_high))
        cells = " ".join(f"{rank_text(rank) if rank in present else '.':>2}" for rank in order)
        lines.append(f"  {suit.symbol} {suit.value} {cells}")
    lines.append("Players:")
    for seat in range(config.players):
        marks = []
        if seat == view.player:
            marks.append("you")
        if seat == view.dealer:
            marks.append("dealer")
        if seat == view.to_move:
            marks.append("to play")
        tail = f" ({', '.join(marks)})" if marks else ""
        score = f", {_SCORE_LABEL[config.scoring]} {view.scores[seat]}"
        lines.append(
            f"  {name[seat]}{tail}: {view.hand_counts[seat]} cards, "
            f"{view.passes[seat]} passes{score}"
        )
    if config.scoring is Scoring.CHIPS:
        lines.append(f"Pool: {view.pool} chips")
    if view.history:
        recent = view.history[-2 * config.players :]
        lines.append("Recent: " + " ".join(str(action) for action in recent))
    lines.append("Your hand: " + _hand_by_suit(view.hand, config.ace_high))
    if view.revealed is not None:
        lines.append("Cards left at the end:")
        for seat, hand in enumerate(view.revealed):
            lines.append(f"  {name[seat]}: {_hand_by_suit(hand, config.ace_high)}")
    return "\n".join(lines)


def _hand_by_suit(mask: int, ace_high: bool) -> str:
    order = rank_order(ace_high)
    groups = []
    for suit in SUITS:
        ranks = sorted((card.rank for card in cards_of(mask) if card.suit is suit), key=order.index)
        if ranks:
            groups.append(" ".join(str(Card(rank, suit)) for rank in ranks))
    return "  ".join(groups) or "(none)"
