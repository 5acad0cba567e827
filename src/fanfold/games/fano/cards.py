"""Fano cards as small integers, and the Fano plane's attack graph.

A card is an ``int`` code ``value * 16 + kind``:

* ``kind`` 0..3 is a suit in bridge order (clubs, diamonds, hearts, spades) and ``value`` is
  1..10 (the ace is 1);
* ``kind`` 4 is the wild joker of the Joker's wild variant and ``kind`` 5 a temporary joker of
  the Temporary Joker special. A joker off the field has value 0; on the field it carries the
  combat value declared when it entered play.

Codes sort by value, then suit, so sorted tuples read naturally. Text: rank then suit letter
(``AH``, ``7S``, ``TD`` for the 10), ``JK``/``TJ`` for a wild/temporary joker off the field and
``JK4``/``TJ4`` for one in play as a 4.

>>> card_text(parse_card("10h")), card_text(parse_card("jk3"))
('TH', 'JK3')
>>> ATTACK_SUPPORT[4][6], ATTACK_SUPPORT[6][4]
(3, 0)
"""

from __future__ import annotations

from fanfold.core.errors import NotationError, Refusal, templates

#: The cards' notation errors (:class:`~fanfold.core.errors.Refusal`), worded on the play
#: server's page from the same templates translated.
templates(
    {
        "fano.bad_joker": "'{text}': a joker in play is JK with a value 1-7 or TJ with a value "
        "1-10 (8-10 only where a Temporary Joker may be a prestige card), e.g. JK4",
        "fano.not_a_card": "'{text}' is not a card: write the rank then the suit, e.g. 4H, AS "
        "or TD (jokers: JK, TJ; in play JK4)",
        "fano.bad_rank": "'{text}' is not a Fano card: ranks are A (or 1), 2-9 and T (or 10)",
    }
)

#: The seven directed cycles i -> i+1 -> i+3 (mod 7, labels 1..7).
CYCLES: tuple[tuple[int, int, int], ...] = tuple(
    (i, (i % 7) + 1, ((i + 2) % 7) + 1) for i in range(1, 8)
)

#: ``ATTACK_SUPPORT[a][x]``: the value that must be in hand for an ``a`` to attack an ``x``
#: (0 when ``a`` cannot attack ``x``). Index 0 is unused.
ATTACK_SUPPORT: tuple[tuple[int, ...], ...]
#: ``LINE_THIRD[a][x]``: the third point of the line through ``a`` and ``x`` (0 when a == x).
LINE_THIRD: tuple[tuple[int, ...], ...]


def _tables() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    support = [[0] * 8 for _ in range(8)]
    third = [[0] * 8 for _ in range(8)]
    for a, b, c in CYCLES:
        for x, y, z in ((a, b, c), (b, c, a), (c, a, b)):
            support[x][y] = z
            third[x][y] = third[y][x] = z
    return tuple(map(tuple, support)), tuple(map(tuple, third))


ATTACK_SUPPORT, LINE_THIRD = _tables()

#: Every attack sequence ``(attacker, target, support)``: the 21 rotations of the cycles.
SEQUENCES: tuple[tuple[int, int, int], ...] = tuple(
    sorted((a, x, ATTACK_SUPPORT[a][x]) for a in range(1, 8) for x in range(1, 8) if a != x
           and ATTACK_SUPPORT[a][x])
)  # fmt: skip

CLUBS, DIAMONDS, HEARTS, SPADES, WILD, TEMP = 0, 1, 2, 3, 4, 5
SUIT_LETTERS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RANKS = "A23456789T"
WILD_JOKER = WILD  # value 0, kind 4
TEMP_JOKER = TEMP  # value 0, kind 5
MAX_COMBAT = 7
MAX_VALUE = 10
PRESTIGE_VALUES = (8, 9, 10)


def make_card(value: int, kind: int) -> int:
    """The code of a card of ``value`` (0..10) and ``kind`` (suit 0..3, joker 4..5)."""
    return value * 16 + kind


def value_of(card: int) -> int:
    """The card's value (a joker's declared value, 0 for a joker off the field)."""
    return card >> 4


def kind_of(card: int) -> int:
    """The suit index (0..3) or joker kind (4 wild, 5 temporary)."""
    return card & 15


def is_joker(card: int) -> bool:
    """True for either kind of joker."""
    return (card & 15) >= WILD


def is_prestige(card: int) -> bool:
    """8, 9 and 10 (a joker only where a variant lets a Temporary Joker enter play as one:
    jokers carry no value off the field and combat values otherwise)."""
    return card >> 4 >= 8


def is_combat(card: int) -> bool:
    """A card of value 1..7 (a joker counts once it has a declared value)."""
    return 1 <= card >> 4 <= MAX_COMBAT


def declared_as(joker: int, value: int) -> int:
    """``joker`` entering play as a card of ``value`` (a suited card's value is its own)."""
    return value * 16 + (joker & 15)


def is_suited(card: int) -> bool:
    """True for a card of a suit (not a joker)."""
    return (card & 15) < WILD


def base_card(card: int) -> int:
    """The card as it is off the field: a declared joker becomes wild again."""
    return card & 15 if (card & 15) >= WILD else card


def card_text(card: int) -> str:
    """``AH``, ``TS``, ``JK``, ``JK4``, ``TJ``, ``TJ2``."""
    kind = card & 15
    value = card >> 4
    if kind >= WILD:
        prefix = "JK" if kind == WILD else "TJ"
        return prefix + (str(value) if value else "")
    return RANKS[value - 1] + SUIT_LETTERS[kind]


def cards_text(cards: tuple[int, ...] | list[int], empty: str = "-") -> str:
    """Cards joined by commas, ``empty`` when there are none."""
    return ",".join(card_text(card) for card in cards) if cards else empty


def parse_card(text: str) -> int:
    """A card code from its text (any case; ``10`` and ``1`` are read as ``T`` and ``A``).

    Raises:
        NotationError: the text is not a card.
    """
    key = text.strip().upper()
    if key.startswith(("JK", "TJ")) and not key[2:].startswith(tuple(SUIT_LETTERS)):
        kind = WILD if key.startswith("JK") else TEMP
        rest = key[2:]
        if not rest:
            return make_card(0, kind)
        top = MAX_VALUE if kind == TEMP else MAX_COMBAT
        if rest.isdigit() and 1 <= int(rest) <= top:
            return make_card(int(rest), kind)
        raise NotationError(Refusal("fano.bad_joker", text=text))
    if len(key) < 2 or key[-1] not in SUIT_LETTERS:
        raise NotationError(Refusal("fano.not_a_card", text=text))
    rank = key[:-1]
    if rank in ("10", "T"):
        value = 10
    elif rank in ("1", "A"):
        value = 1
    elif len(rank) == 1 and rank in RANKS:
        value = RANKS.index(rank) + 1
    else:
        raise NotationError(Refusal("fano.bad_rank", text=text))
    return make_card(value, SUIT_LETTERS.index(key[-1]))


def parse_cards(text: str) -> tuple[int, ...]:
    """Comma-separated cards (``-`` or nothing for none), in the order given."""
    key = text.strip()
    if key in ("", "-"):
        return ()
    return tuple(parse_card(part) for part in key.split(","))


def suit_deck(suit: int, prestige: bool = True) -> tuple[int, ...]:
    """A..10 of one suit (A..7 when ``prestige`` is False)."""
    top = MAX_VALUE if prestige else MAX_COMBAT
    return tuple(make_card(value, suit) for value in range(1, top + 1))
