"""Drawing a Fan Tan view as plain text for the terminal."""

from __future__ import annotations

from fanfold.core.cards import SUITS, Card, rank_text
from fanfold.core.game import drawn
from fanfold.core.phrases import Phrase, joined, phrases
from fanfold.games.fantan.cards import cards_of, rank_order, row_ranks
from fanfold.games.fantan.config import FanTanConfig, Scoring
from fanfold.games.fantan.rules import seat_words
from fanfold.games.fantan.view import FanTanView

phrases(
    {
        "fantan.board_hand": "Hand {number}, dealt by {dealer}; rows start at: {start}",
        "fantan.board_hand_of": "Hand {number} of {hands}, dealt by {dealer}; rows start at: "
        "{start}",
        "fantan.board_first_card": "chosen by the first card",
        "fantan.board_last_winner": "Previous hand won by {name}",
        "fantan.board_layout": "Layout:",
        "fantan.board_players": "Players:",
        "fantan.board_marked": "{name} ({marks})",
        "fantan.board_you": "you",
        "fantan.board_dealer": "dealer",
        "fantan.board_to_play": "to play",
        "fantan.board_player": "{who}: {cards} cards, {passes} passes",
        "fantan.board_won": "hands won {score}",
        "fantan.board_chips": "chips {score}",
        "fantan.board_penalty": "penalty {score}",
        "fantan.board_pool": "Pool: {count} chips",
        "fantan.board_recent": "Recent: {actions}",
        "fantan.board_hand_held": "Your hand: {cards}",
        "fantan.board_none": "(none)",
        "fantan.board_left": "Cards left at the end:",
        "fantan.hand": "hand {number}",
        "fantan.hand_of": "hand {number} of {hands}",
        "fantan.opens_with": "{name} holds the {card} and must open with it ({hand})",
        "fantan.opens_any": "{name} to open with a card of any rank; every row will start "
        "with it ({hand})",
        "fantan.to_play": "{name} to play ({hand})",
        "fantan.to_pass": "{name} to pass (no playable card) ({hand})",
    },
    terminal=True,
)

_SCORE_LABEL = {
    Scoring.PLAIN: "fantan.board_won",
    Scoring.CHIPS: "fantan.board_chips",
    Scoring.PENALTY: "fantan.board_penalty",
}


def hand_words(config: FanTanConfig, hand_number: int) -> Phrase:
    """``hand 2`` (of a match: ``hand 2 of 3``), the hand from 0."""
    if config.hands > 1:
        return Phrase("fantan.hand_of", number=hand_number + 1, hands=config.hands)
    return Phrase("fantan.hand", number=hand_number + 1)


def drawing(view: FanTanView) -> list[tuple[str, ...]]:
    """The layout as a grid (one line per suit, ranks in order), the players, and your hand,
    as lines of pieces (:meth:`fanfold.core.game.Game.drawing`)."""
    config = view.config
    order = rank_order(config.ace_high)
    name = [seat_words(seat) for seat in range(config.players)]
    lines: list[tuple[str, ...]] = []
    start = (
        Phrase("fantan.board_first_card") if view.start_rank is None else rank_text(view.start_rank)
    )
    number, dealer = view.hand_number + 1, name[view.dealer]
    if config.hands > 1:
        heading = Phrase(
            "fantan.board_hand_of", number=number, hands=config.hands, dealer=dealer, start=start
        )
    else:
        heading = Phrase("fantan.board_hand", number=number, dealer=dealer, start=start)
    lines.append((heading,))
    if view.last_winner is not None:
        lines.append((Phrase("fantan.board_last_winner", name=name[view.last_winner]),))
    lines.append((Phrase("fantan.board_layout"),))
    lines.append(("      " + " ".join(f"{rank_text(rank):>2}" for rank in order),))
    for row, suit in enumerate(SUITS):
        present = set(row_ranks(view.layout, row, config.ace_high))
        cells = " ".join(f"{rank_text(rank) if rank in present else '.':>2}" for rank in order)
        lines.append((f"  {suit.symbol} {suit.value} {cells}",))
    lines.append((Phrase("fantan.board_players"),))
    for seat in range(config.players):
        marks: list[str] = []
        if seat == view.player:
            marks.append(Phrase("fantan.board_you"))
        if seat == view.dealer:
            marks.append(Phrase("fantan.board_dealer"))
        if seat == view.to_move:
            marks.append(Phrase("fantan.board_to_play"))
        who: str = name[seat]
        if marks:
            who = Phrase("fantan.board_marked", name=name[seat], marks=joined(marks))
        held = Phrase(
            "fantan.board_player", who=who, cards=view.hand_counts[seat], passes=view.passes[seat]
        )
        score = Phrase(_SCORE_LABEL[config.scoring], score=view.scores[seat])
        lines.append(("  ", held, ", ", score))
    if config.scoring is Scoring.CHIPS:
        lines.append((Phrase("fantan.board_pool", count=view.pool),))
    if view.history:
        recent = view.history[-2 * config.players :]
        actions = " ".join(str(action) for action in recent)
        lines.append((Phrase("fantan.board_recent", actions=actions),))
    lines.append(
        (Phrase("fantan.board_hand_held", cards=_hand_by_suit(view.hand, config.ace_high)),)
    )
    if view.revealed is not None:
        lines.append((Phrase("fantan.board_left"),))
        for seat, hand in enumerate(view.revealed):
            lines.append(("  ", name[seat], ": ", _hand_by_suit(hand, config.ace_high)))
    return lines


def render(view: FanTanView) -> str:
    """:func:`drawing` as text, in English."""
    return drawn(drawing(view))


def _hand_by_suit(mask: int, ace_high: bool) -> str:
    order = rank_order(ace_high)
    groups = []
    for suit in SUITS:
        ranks = sorted((card.rank for card in cards_of(mask) if card.suit is suit), key=order.index)
        if ranks:
            groups.append(" ".join(str(Card(rank, suit)) for rank in ranks))
    return "  ".join(groups) or Phrase("fantan.board_none")
