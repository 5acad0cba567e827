"""The shape of a Fan layout, deals compatible with PySolFC, and boards in fc-solve's format.

PySolFC numbers its deals from 1; "Fan deal 1234" here is the same layout as in PySolFC, made
with the ``pysol-cards`` package (PySolFC's own dealing code, published separately): the
shuffled pack is dealt two rounds to the first 17 fans, then one round to all 18, so fans
1..17 hold three cards and fan 18 one.

fc-solve's board format has one fan a line, cards bottom to top separated by spaces, and an
optional ``Foundations:`` line such as ``Foundations: H-0 C-2 D-A S-0``.
"""

from __future__ import annotations

from collections.abc import Sequence

from fanfold.core.cards import SUITS, Card, Suit, parse_rank, rank_text
from fanfold.core.errors import NotationError, Refusal, reason_of, templates

#: The notation's errors (:class:`~fanfold.core.errors.Refusal`), worded on the play
#: server's page from the same templates translated.
templates(
    {
        "fan.deal_foundation": "line {line}: foundation '{text}' should look like H-5 or S-0",
        "fan.deal_free_cells": "line {line}: Fan has no free cells",
        "fan.deal_line": "line {line}: {reason}",
        "fan.deal_suit": "line {line}: '{text}' is not a suit",
    }
)

#: Fans in a Fan layout: 17 of three cards and one of one.
NUM_FANS = 18
#: The rank of a king: a full foundation, and (classic game) the only card for an empty fan.
KING = 13
#: pysol-cards numbers suits C, S, H, D.
_PYSOL_SUITS = "CSHD"


def deal_fans(deal: int) -> tuple[tuple[Card, ...], ...]:
    """The 18 fans of PySolFC's Fan deal number ``deal``, each bottom to top.

    >>> [" ".join(map(str, fan)) for fan in deal_fans(1234)[:2]]
    ['4C 2C 4S', '3D 7C AD']
    """
    from pysol_cards.cards import createCards
    from pysol_cards.random import MTRandom, shuffle
    from pysol_cards.random_base import RandomBase

    if deal >= 1:
        cards = shuffle(createCards(1), deal, RandomBase.DEALS_PYSOLFC)
    else:
        # PySolFC numbers deals from 1; deal 0 uses its generator for large deal numbers.
        generator = MTRandom()
        generator.setSeed(0)
        cards = generator.shuffle(createCards(1))
    cards.reverse()
    fans: list[list[Card]] = [[] for _ in range(NUM_FANS)]
    for position, pysol_card in enumerate(cards):
        card = Card(pysol_card.rank, Suit(_PYSOL_SUITS[pysol_card.suit]))
        fans[position % 17 if position < 51 else 17].append(card)
    return tuple(tuple(fan) for fan in fans)


def format_fcs_board(
    fans: Sequence[Sequence[Card]], foundations: Sequence[int] = (0, 0, 0, 0)
) -> str:
    """A board in fc-solve's text format (a ``Foundations:`` line, then one fan a line).

    Empty fans are written as a lone ``:``.
    """
    home = " ".join(
        f"{suit.value}-{rank_text(rank) if rank else '0'}"
        for suit, rank in zip(SUITS, foundations, strict=True)
    )
    lines = [f"Foundations: {home}"]
    for fan in fans:
        lines.append(": " + " ".join(str(card) for card in fan) if fan else ":")
    return "\n".join(lines) + "\n"


def parse_fcs_board(text: str) -> tuple[list[tuple[Card, ...]], tuple[int, int, int, int]]:
    """Read a board in fc-solve's text format: fans and foundation ranks (C, D, H, S).

    Lines are fans bottom to top (an optional leading ``:``); a ``Foundations:`` line gives the
    foundations; blank lines after the last fan and ``#`` comments are ignored.

    Raises:
        NotationError: on a card or foundation that does not parse.
    """
    fans: list[tuple[Card, ...]] = []
    foundations = [0, 0, 0, 0]
    lines = [line.split("#", 1)[0].rstrip() for line in text.splitlines()]
    while lines and not lines[-1].strip():
        lines.pop()
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if stripped.lower().startswith("foundations:"):
            for item in stripped.split(":", 1)[1].split():
                suit_text, _, rank_part = item.partition("-")
                if not rank_part:
                    raise NotationError(Refusal("fan.deal_foundation", line=number, text=item))
                suit = _suit_of(suit_text, number)
                rank = 0 if rank_part == "0" else parse_rank(rank_part)
                foundations[suit.order] = rank
            continue
        if stripped.lower().startswith("freecells:"):
            if stripped.split(":", 1)[1].strip():
                raise NotationError(Refusal("fan.deal_free_cells", line=number))
            continue
        if stripped.startswith(":"):
            stripped = stripped[1:]
        try:
            fans.append(tuple(Card.parse(word) for word in stripped.split()))
        except NotationError as error:
            raise NotationError(
                Refusal("fan.deal_line", line=number, reason=reason_of(error))
            ) from None
    return fans, (foundations[0], foundations[1], foundations[2], foundations[3])


def _suit_of(text: str, line: int) -> Suit:
    try:
        return Suit.parse(text)
    except NotationError:
        raise NotationError(Refusal("fan.deal_suit", line=line, text=text)) from None
