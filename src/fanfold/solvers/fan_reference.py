"""The plain-Python Fan search: the reference the compiled search is tested against.

A depth-first search over positions with a set of visited positions. Positions are compared by
a canonical key: the fans sorted (fans are interchangeable), the foundations being implied by
the cards left in the fans. With ``prune=False`` it is the plain exhaustive search (every legal
move tried, nothing cut but revisits), which the tests use to check each pruning rule. With
``prune=True`` it applies the sound rules documented in ``docs/solvers/fan.md``:

1. every card that can go to its foundation goes there at once (foundation moves are safe in
   Fan because building is by suit: nothing can ever be built on such a card);
2. where only kings fill empty fans, a position in which a card can leave its fan only for
   the foundation while a lower card of its own suit lies beneath it is lost;
3. a top card goes onto its successor at once when that successor can never leave its fan
   again except for the foundation (and always where sequences move).

Cards are integers ``suit * 13 + rank - 1`` (suits C, D, H, S), as ``Card.index``. A move is a
tuple ``(source, target, count)`` of 0-based fan numbers, ``target == -1`` for the foundations.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

KING_RANK = 13
FOUNDATION = -1

#: Rule 1: play every card that can go to its foundation at once.
HOME = "home"
#: Rule 3: build a top card onto its successor at once when that loses nothing.
BUILD = "build"
#: Rule 2: cut positions where a pinned card lies above a lower card of its suit.
DEAD = "dead"
ALL_RULES = frozenset({HOME, BUILD, DEAD})

Move = tuple[int, int, int]

#: Rank (1..13) and suit (0..3) of each card index, looked up rather than computed.
_RANKS = tuple(card % 13 + 1 for card in range(52))
_SUITS = tuple(card // 13 for card in range(52))


@dataclass(frozen=True)
class SearchResult:
    """What a search found.

    Attributes:
        verdict: ``"solved"``, ``"unsolvable"`` or ``"unknown"`` (the state limit was hit).
        moves: the winning moves when solved, else ``()``.
        states: distinct positions expanded.
    """

    verdict: str
    moves: tuple[Move, ...]
    states: int


def _rank(card: int) -> int:
    return card % 13 + 1


def _suit(card: int) -> int:
    return card // 13


def _run_length(fan: list[int]) -> int:
    length = 1
    while length < len(fan) and fan[-length] + 1 == fan[-length - 1] and _rank(fan[-length]) < 13:
        length += 1
    return length


class _Search:
    def __init__(
        self,
        fans: Sequence[Sequence[int]],
        foundations: Sequence[int],
        any_card_to_empty: bool,
        sequence_moves: bool,
        rules: frozenset[str],
    ) -> None:
        self.fans = [list(fan) for fan in fans]
        self.home = list(foundations)
        self.any_card_to_empty = any_card_to_empty
        self.sequence_moves = sequence_moves
        self.rules = rules
        self.path: list[Move] = []

    # ------------------------------------------------------------ moving cards
    def apply(self, move: Move) -> None:
        source, target, count = move
        fan = self.fans[source]
        if target == FOUNDATION:
            self.home[_suit(fan.pop())] += 1
        else:
            moving = fan[-count:]
            del fan[-count:]
            self.fans[target].extend(moving)
        self.path.append(move)

    def undo_to(self, length: int, homes: list[int]) -> None:
        """Take back moves until the path has ``length`` moves; ``homes`` lists the cards
        played home, in order, so foundation moves can be reversed."""
        while len(self.path) > length:
            source, target, count = self.path.pop()
            if target == FOUNDATION:
                card = homes.pop()
                self.home[_suit(card)] -= 1
                self.fans[source].append(card)
            else:
                fan = self.fans[target]
                moving = fan[-count:]
                del fan[-count:]
                self.fans[source].extend(moving)

    # --------------------------------------------------------------- analysis
    def key(self) -> bytes:
        """The fans sorted (they are interchangeable), as bytes; 64 separates fans."""
        return b"@".join(sorted(bytes(fan) for fan in self.fans if fan))

    def is_won(self) -> bool:
        return all(rank == KING_RANK for rank in self.home)

    def home_moves(self) -> list[Move]:
        home = self.home
        return [
            (number, FOUNDATION, 1)
            for number, fan in enumerate(self.fans)
            if fan and home[_SUITS[fan[-1]]] + 1 == _RANKS[fan[-1]]
        ]

    def moves(self) -> list[Move]:
        result: list[Move] = [] if HOME in self.rules else self.home_moves()
        tops = {fan[-1]: number for number, fan in enumerate(self.fans) if fan}
        first_empty = next((number for number, fan in enumerate(self.fans) if not fan), None)
        for source, fan in enumerate(self.fans):
            if not fan:
                continue
            longest = _run_length(fan) if self.sequence_moves else 1
            for count in range(1, longest + 1):
                head = fan[-count]
                if _rank(head) < KING_RANK:
                    target = tops.get(head + 1)
                    if target is not None and target != source:
                        result.append((source, target, count))
                if (
                    first_empty is not None
                    and count < len(fan)
                    and (self.any_card_to_empty or _rank(head) == KING_RANK)
                ):
                    result.append((source, first_empty, count))
        return result

    def safe_build(self) -> Move | None:
        """Rule 3: a top card that may go onto its successor at once, when that loses nothing.

        With sequence moves always; with single-card moves when the successor can never leave
        its fan except for the foundation.
        """
        tops = {fan[-1]: number for number, fan in enumerate(self.fans) if fan}
        for card, source in tops.items():
            if _RANKS[card] == KING_RANK:
                continue
            target = tops.get(card + 1)
            if target is None:
                continue
            if self.sequence_moves or self._is_pinned(
                self.fans[target], len(self.fans[target]) - 1
            ):
                return (source, target, 1)
        return None

    def _is_pinned(self, fan: list[int], index: int) -> bool:
        """Whether the card at ``fan[index]`` (single-card moves) can leave only for home."""
        card = fan[index]
        if _rank(card) == KING_RANK:
            return index == 0
        return not self.any_card_to_empty and card + 1 in fan[:index]

    def is_dead(self) -> bool:
        """Rule 2: a card pinned above a lower card of its own suit (kings-only variants)."""
        if self.any_card_to_empty:
            return False
        for fan in self.fans:
            for index in range(1, len(fan)):
                card = fan[index]
                bottom = index  # the lowest card of the block that must move with ``card``
                if self.sequence_moves:
                    while (
                        bottom > 0
                        and fan[bottom] + 1 == fan[bottom - 1]
                        and _RANKS[fan[bottom]] < KING_RANK
                    ):
                        bottom -= 1
                head = fan[bottom]
                if _RANKS[head] == KING_RANK or head + 1 not in fan[:bottom]:
                    continue
                # A lower card of the same suit is an index from the suit's ace up to card - 1.
                ace = card - _RANKS[card] + 1
                if any(ace <= other < card for other in fan[:bottom]):
                    return True
        return False

    # ------------------------------------------------------------------ search
    def run(self, max_states: int | None) -> SearchResult:
        seen: set[bytes] = set()
        homes: list[int] = []
        # Each frame: the moves still to try here and the path length when the node was entered.
        frames: list[tuple[list[Move], int]] = []
        pending: int | None = 0  # path length before the move into the node being entered
        while True:
            if pending is not None:
                entry = pending
                pending = None
                children = self._enter(seen, homes)
                if children is True:
                    return SearchResult("solved", tuple(self.path), len(seen))
                if children is not False:
                    frames.append((children, entry))
                else:
                    self.undo_to(entry, homes)
                if max_states is not None and len(seen) > max_states:
                    return SearchResult("unknown", (), len(seen))
            if not frames:
                return SearchResult("unsolvable", (), len(seen))
            children_left, entry = frames[-1]
            if not children_left:
                frames.pop()
                self.undo_to(entry, homes)
                continue
            move = children_left.pop()
            pending = len(self.path)
            if move[1] == FOUNDATION:
                homes.append(self.fans[move[0]][-1])
            self.apply(move)

    def _enter(self, seen: set[bytes], homes: list[int]) -> list[Move] | bool:
        played = True
        while played:
            played = False
            if HOME in self.rules:
                for move in self.home_moves():
                    homes.append(self.fans[move[0]][-1])
                    self.apply(move)
                    played = True
            if not played and BUILD in self.rules:
                move_on = self.safe_build()
                if move_on is not None:
                    self.apply(move_on)
                    played = True
        if self.is_won():
            return True
        key = self.key()
        if key in seen:
            return False
        seen.add(key)
        if DEAD in self.rules and self.is_dead():
            return False
        children = self.moves()
        children.reverse()  # popped from the end: try them in generation order ...
        children.sort(key=self.promise)  # ... the most promising first (the sort is stable)
        return children

    def promise(self, move: Move) -> int:
        """How promising a move looks, for the order of the search only (never its verdict):
        a foundation move, then one that uncovers a card that can go home, then one that
        empties a fan, are tried first; filling an empty fan is tried last."""
        source, target, count = move
        if target == FOUNDATION:
            return 4
        fan = self.fans[source]
        if count == len(fan):
            return 2
        uncovered = fan[-count - 1]
        score = 3 if self.home[_SUITS[uncovered]] + 1 == _RANKS[uncovered] else 0
        return score - 1 if not self.fans[target] else score


def search(
    fans: Sequence[Sequence[int]],
    foundations: Sequence[int],
    *,
    any_card_to_empty: bool = False,
    sequence_moves: bool = False,
    prune: bool | Collection[str] = True,
    max_states: int | None = None,
) -> SearchResult:
    """Decide a Fan position by exhaustive depth-first search.

    Args:
        fans: the fans as card indices, bottom to top.
        foundations: the top rank of each foundation (C, D, H, S), 0 when empty.
        any_card_to_empty: the variant where any card fills an empty fan.
        sequence_moves: the variant where runs of one suit move as a unit.
        prune: apply the sound pruning rules: True for all of them, False for none (the
            plain exhaustive search), or a collection of rule names (``HOME``, ``BUILD``,
            ``DEAD``) for some.
        max_states: give up with ``"unknown"`` after this many positions.

    Returns:
        The verdict, the winning moves when solved, and the positions searched.
    """
    if prune is True:
        rules = ALL_RULES
    elif prune is False:
        rules = frozenset()
    else:
        rules = frozenset(prune)
        unknown = rules - ALL_RULES
        if unknown:
            raise ValueError(f"unknown pruning rules {sorted(unknown)}; known: {sorted(ALL_RULES)}")
    return _Search(fans, foundations, any_card_to_empty, sequence_moves, rules).run(max_states)
