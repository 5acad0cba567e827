"""The Fan search itself: depth-first over positions, with sound pruning and a best-first pass.

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

With ``best_first`` set (as :func:`fanfold.solvers.fan.solve` does), the depth-first search
pauses after ``best_first_after`` positions and a best-first pass with a small budget looks for
a quick win, most promising position first (rated by cards buried above lower cards of their
suit, cards lying on the next card each suit needs, and cards home); if it finds none, the
depth-first search goes on where it stopped, so a deal is still proved unsolvable only by an
exhaustive search. The pass changes how soon a win is found, never a verdict.

Cards are integers ``suit * 13 + rank - 1`` (suits C, D, H, S), as ``Card.index``. A move is a
tuple ``(source, target, count)`` of 0-based fan numbers, ``target == -1`` for the foundations.
"""

from __future__ import annotations

import heapq
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

#: The depth-first search pauses after this many positions for the best-first pass ...
BEST_FIRST_AFTER = 500
#: ... which gives up after this many (the depth-first search then goes on where it stopped).
BEST_FIRST_STATES = 600

#: Rank (1..13) and suit (0..3) of each card index, looked up rather than computed.
_RANKS = tuple(card % 13 + 1 for card in range(52))
_SUITS = tuple(card // 13 for card in range(52))


@dataclass(frozen=True)
class SearchResult:
    """What a search found.

    Attributes:
        verdict: ``"solved"``, ``"unsolvable"`` or ``"unknown"`` (the state limit was hit).
        moves: the winning moves when solved, else ``()``.
        states: distinct positions seen, by both passes.
        best_first_states: of those, the positions the best-first pass saw (0 without it).
        by_best_first: whether the best-first pass reached the verdict (found the win, or
            exhausted the space), rather than the depth-first search.
    """

    verdict: str
    moves: tuple[Move, ...]
    states: int
    best_first_states: int = 0
    by_best_first: bool = False


def _run_length(fan: bytes) -> int:
    """How many cards at the top of ``fan`` form a run of one suit (each on its successor)."""
    length = 1
    while (
        length < len(fan)
        and fan[-length] + 1 == fan[-length - 1]
        and _RANKS[fan[-length]] < KING_RANK
    ):
        length += 1
    return length


class _Search:
    """One search: the position being looked at (fans as bytes, bottom to top), the foundations
    and the moves that led here from the start."""

    def __init__(
        self,
        fans: Sequence[Sequence[int]],
        foundations: Sequence[int],
        any_card_to_empty: bool,
        sequence_moves: bool,
        rules: frozenset[str],
    ) -> None:
        self.fans = [bytes(fan) for fan in fans]
        self.home = list(foundations)
        self.any_card_to_empty = any_card_to_empty
        self.sequence_moves = sequence_moves
        self.rules = rules
        self.path: list[Move] = []
        # The depth-first search's visited set and stack, kept so that it can be paused.
        self.seen: set[bytes] = set()
        # Each frame: the moves still to try from a position, and the position itself.
        self.frames: list[tuple[list[Move], int, tuple[bytes, ...], tuple[int, ...]]] = []
        self.started = False
        # What rule 2 and the rating found for each fan seen so far.
        self.dead_fans: dict[bytes, bool] = {}
        self.buried_in_fan: dict[bytes, int] = {}

    # ------------------------------------------------------------ moving cards
    def apply(self, move: Move) -> None:
        source, target, count = move
        fan = self.fans[source]
        if target == FOUNDATION:
            self.home[_SUITS[fan[-1]]] += 1
            self.fans[source] = fan[:-1]
        else:
            self.fans[target] += fan[-count:]
            self.fans[source] = fan[:-count]
        self.path.append(move)

    def restore(self, fans: tuple[bytes, ...], home: tuple[int, ...], length: int) -> None:
        """Go back to a position saved earlier, reached by the first ``length`` moves."""
        self.fans = list(fans)
        self.home = list(home)
        del self.path[length:]

    def settle(self) -> None:
        """Play the moves the rules in force make at once: every card that can go home
        (rule 1), then one safe build (rule 3), until neither applies."""
        fans, home, path = self.fans, self.home, self.path
        home_rule, build_rule = HOME in self.rules, BUILD in self.rules
        while True:
            tops = {fan[-1]: number for number, fan in enumerate(fans) if fan}
            if home_rule:
                went_home = played = False
                while True:
                    for suit in range(4):
                        rank = home[suit]
                        # The card that can go home next in this suit is index suit*13 + rank.
                        while rank < KING_RANK and suit * 13 + rank in tops:
                            number = tops.pop(suit * 13 + rank)
                            fan = fans[number] = fans[number][:-1]
                            if fan:
                                tops[fan[-1]] = number
                            path.append((number, FOUNDATION, 1))
                            rank += 1
                            played = True
                        home[suit] = rank
                    if not played:
                        break
                    went_home, played = True, False
                if went_home:  # the build below looks at the fans in order
                    tops = {fan[-1]: number for number, fan in enumerate(fans) if fan}
            move_on = self.safe_build(tops) if build_rule else None
            if move_on is None:
                return
            self.apply(move_on)

    # --------------------------------------------------------------- analysis
    def key(self) -> bytes:
        """The fans sorted (they are interchangeable), as bytes; 64 separates fans."""
        return b"@".join(sorted([fan for fan in self.fans if fan]))

    def is_won(self) -> bool:
        return sum(self.home) == 4 * KING_RANK

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
                if _RANKS[head] < KING_RANK:
                    target = tops.get(head + 1)
                    if target is not None and target != source:
                        result.append((source, target, count))
                if (
                    first_empty is not None
                    and count < len(fan)
                    and (self.any_card_to_empty or _RANKS[head] == KING_RANK)
                ):
                    result.append((source, first_empty, count))
        return result

    def safe_build(self, tops: dict[int, int]) -> Move | None:
        """Rule 3: a top card that may go onto its successor at once, when that loses nothing.

        With sequence moves always; with single-card moves when the successor can never leave
        its fan except for the foundation. ``tops`` maps each top card to its fan, in fan order.
        """
        fans, sequence_moves = self.fans, self.sequence_moves
        for card, source in tops.items():
            target = tops.get(card + 1)
            if target is None or _RANKS[card] == KING_RANK:
                continue
            if sequence_moves or self._is_pinned(fans[target]):
                return (source, target, 1)
        return None

    def _is_pinned(self, fan: bytes) -> bool:
        """Whether the top card of ``fan`` (single-card moves) can leave only for home: a king
        alone in its fan, or (kings only in empty fans) a card above its own successor."""
        card = fan[-1]
        if _RANKS[card] == KING_RANK:
            return len(fan) == 1
        return not self.any_card_to_empty and card + 1 in fan  # the top is not card + 1

    def is_dead(self) -> bool:
        """Rule 2: a card pinned above a lower card of its own suit (kings-only variants).

        Each fan is judged on its own, and most fans recur from position to position, so the
        answer for each fan is remembered.
        """
        if self.any_card_to_empty:
            return False
        known = self.dead_fans
        for fan in self.fans:
            dead = known.get(fan)
            if dead is None:
                dead = known[fan] = self._is_dead_fan(fan)
            if dead:
                return True
        return False

    def _is_dead_fan(self, fan: bytes) -> bool:
        """Rule 2 in one fan, in one pass up it: ``below`` holds the cards under the current
        one (a bit per card), ``head`` the lowest card of the block that must move with it (the
        card itself with single-card moves; the bottom of its run of one suit with sequence
        moves)."""
        sequence_moves = self.sequence_moves
        below = 0
        head = previous = -1
        for card in fan:
            rank = _RANKS[card]
            if not (sequence_moves and card + 1 == previous and rank < KING_RANK):
                head = card
            if (
                below >> (head + 1) & 1
                and _RANKS[head] < KING_RANK
                and below & ((1 << card) - (1 << (card - rank + 1)))
            ):
                return True
            below |= 1 << card
            previous = card
        return False

    def buried(self) -> int:
        """How many cards lie above a lower card of their own suit (each must move again
        before that card can go home): part of the best-first pass's rating."""
        known = self.buried_in_fan
        total = 0
        for fan in self.fans:
            count = known.get(fan)
            if count is None:
                count = 0
                below = 0
                for card in fan:
                    if below & ((1 << card) - (1 << (card - _RANKS[card] + 1))):
                        count += 1
                    below |= 1 << card
                known[fan] = count
            total += count
        return total

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

    # ------------------------------------------------------------------ search
    def _enter(self, seen: set[bytes]) -> list[Move] | bool:
        """Settle the position just reached: True when won, False when it needs no search
        (seen before, or lost by rule 2), else its moves, the most promising last."""
        self.settle()
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

    def depth_first(self, limit: int | None) -> str:
        """Run (or go on with) the exhaustive depth-first search from the starting position.

        Returns ``"solved"`` (the moves are in :attr:`path`), ``"unsolvable"``, or
        ``"unknown"`` once more than ``limit`` positions have been seen; a later call goes on
        from where this one stopped, with the same visited set and stack.
        """
        seen, frames = self.seen, self.frames
        if not self.started:
            self.started = True
            children = self._enter(seen)
            if children is True:
                return "solved"
            if children is not False:
                frames.append((children, len(self.path), tuple(self.fans), tuple(self.home)))
        while True:
            if limit is not None and len(seen) > limit:
                return "unknown"
            while frames and not frames[-1][0]:
                frames.pop()
            if not frames:
                return "unsolvable"
            moves_left, length, fans, home = frames[-1]
            self.restore(fans, home, length)
            self.apply(moves_left.pop())
            children = self._enter(seen)
            if children is True:
                return "solved"
            if children is not False:
                frames.append((children, len(self.path), tuple(self.fans), tuple(self.home)))

    def best_first(self, budget: int) -> SearchResult:
        """Best-first search from the current position, most promising position first.

        Answers ``"solved"`` with the moves, ``"unsolvable"`` when every reachable position
        was expanded (the pass is then exhaustive too), or ``"unknown"`` once more than
        ``budget`` positions have been seen.
        """
        seen: set[bytes] = set()
        root = self._enter(seen)
        if root is True:
            return SearchResult("solved", tuple(self.path), len(seen))
        if root is False:
            return SearchResult("unsolvable", (), len(seen))
        start = list(self.path)
        # Each node: the position, the node it was reached from and the moves from there.
        nodes: list[tuple[tuple[bytes, ...], tuple[int, ...], int, tuple[Move, ...]]] = [
            (tuple(self.fans), tuple(self.home), -1, ())
        ]
        frontier = [(0, 0)]
        while frontier:
            if len(seen) > budget:
                return SearchResult("unknown", (), len(seen))
            _, parent = heapq.heappop(frontier)
            fans, home, _, _ = nodes[parent]
            self.restore(fans, home, 0)
            for move in self.moves():
                self.restore(fans, home, 0)
                self.apply(move)
                self.settle()
                if self.is_won():
                    moves = (*start, *self._path_to(nodes, parent), *self.path)
                    return SearchResult("solved", moves, len(seen))
                key = self.key()
                if key in seen:
                    continue
                seen.add(key)
                if DEAD in self.rules and self.is_dead():
                    continue
                nodes.append((tuple(self.fans), tuple(self.home), parent, tuple(self.path)))
                heapq.heappush(frontier, (self.rating(), len(nodes) - 1))
        return SearchResult("unsolvable", (), len(seen))

    def rating(self) -> int:
        """The best-first pass's order, lower first: cards buried above a lower card of their
        suit, plus cards lying on the next card each suit needs, less cards home."""
        return self.buried() + self.depth_of_next() - sum(self.home)

    def depth_of_next(self) -> int:
        """How many cards lie on the cards that go home next, one a suit."""
        wanted = {suit * 13 + rank for suit, rank in enumerate(self.home) if rank < KING_RANK}
        total = 0
        for fan in self.fans:
            for index, card in enumerate(fan):
                if card in wanted:
                    total += len(fan) - 1 - index
        return total

    @staticmethod
    def _path_to(
        nodes: list[tuple[tuple[bytes, ...], tuple[int, ...], int, tuple[Move, ...]]], node: int
    ) -> list[Move]:
        segments = []
        while node >= 0:
            _, _, parent, moves = nodes[node]
            segments.append(moves)
            node = parent
        return [move for segment in reversed(segments) for move in segment]


def search(
    fans: Sequence[Sequence[int]],
    foundations: Sequence[int],
    *,
    any_card_to_empty: bool = False,
    sequence_moves: bool = False,
    prune: bool | Collection[str] = True,
    max_states: int | None = None,
    best_first: int = 0,
    best_first_after: int = BEST_FIRST_AFTER,
) -> SearchResult:
    """Decide a Fan position by exhaustive depth-first search (with an optional best-first pass).

    Args:
        fans: the fans as card indices, bottom to top.
        foundations: the top rank of each foundation (C, D, H, S), 0 when empty.
        any_card_to_empty: the variant where any card fills an empty fan.
        sequence_moves: the variant where runs of one suit move as a unit.
        prune: apply the sound pruning rules: True for all of them, False for none (the
            plain exhaustive search), or a collection of rule names (``HOME``, ``BUILD``,
            ``DEAD``) for some.
        max_states: give up with ``"unknown"`` once the depth-first search has seen this
            many positions (the best-first pass then has at most as many).
        best_first: when above 0, the depth-first search pauses after ``best_first_after``
            positions and a best-first pass of at most this many positions looks for a win
            (or exhausts the space, which also decides it) before the depth-first search goes
            on where it stopped; 0 (the default) is the depth-first search alone.
        best_first_after: how many positions the depth-first search sees before that pass.

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

    def new_search() -> _Search:
        return _Search(fans, foundations, any_card_to_empty, sequence_moves, rules)

    exhaustive = new_search()
    guided_states = 0
    verdict = "unknown"
    if best_first > 0:
        head_start = best_first_after if max_states is None else min(best_first_after, max_states)
        verdict = exhaustive.depth_first(head_start)
        if verdict == "unknown" and head_start == best_first_after:
            budget = best_first if max_states is None else min(best_first, max_states)
            guided = new_search().best_first(budget)
            if guided.verdict != "unknown":
                states = len(exhaustive.seen) + guided.states
                return SearchResult(guided.verdict, guided.moves, states, guided.states, True)
            guided_states = guided.states
    if verdict == "unknown":
        verdict = exhaustive.depth_first(max_states)
    moves = tuple(exhaustive.path) if verdict == "solved" else ()
    return SearchResult(verdict, moves, len(exhaustive.seen) + guided_states, guided_states)
