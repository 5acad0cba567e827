"""Fan patience: the strategy and the difficulty levels.

The strategy (:class:`FanKnowledge`) is a greedy player's rule of thumb, one move at a time:

* a card that can go home goes home (in Fan that never hurts: building is by suit, so nothing
  could ever be built on that card);
* then a move that uncovers a card that can go home, or that digs out a card buried above a
  lower card of its own suit (such a card blocks its suit's foundation until it moves);
* then building a card onto its successor, above all one that leaves its fan empty;
* never moving a card that already lies on its successor, except home: it gains nothing (and
  where any card may fill an empty fan, shuttling it there and back would never end).

The solver-backed agent (:mod:`fanfold.agents.fan_solver`) wins every winnable deal and falls
back on this strategy when a position is lost. Levels: ``easy`` is the strategy alone,
``medium`` the solver's plan with one move in twenty chosen at random among the others
(``solver(mistakes=0.05)``: a random move in Fan is often fatal, so even that rate gives away
many winnable deals), ``hard`` the solver's plan (measured in ``docs/agents.md``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from fanfold.agents.knowledge import Knowledge
from fanfold.core.cards import Card
from fanfold.core.registry import AnyGame
from fanfold.games.fan.actions import FanMove
from fanfold.games.fan.deals import KING
from fanfold.games.fan.state import FanState
from fanfold.games.fan.view import FanView

#: What each kind of move is worth to the greedy player (higher is better).
HOME = 100.0
UNCOVERS_HOME = 40.0
EMPTIES_FAN = 15.0
BUILD = 10.0
PER_BURIED = 6.0
TO_EMPTY = 2.0
USELESS = -50.0


def _on_successor(fan: Sequence[Card], depth: int) -> bool:
    """Whether the card ``depth`` places from the top of ``fan`` (1: the top) lies on the next
    higher card of its suit."""
    if depth >= len(fan):
        return False
    card, below = fan[-depth], fan[-depth - 1]
    return below.suit is card.suit and below.rank == card.rank + 1


def _buried_lower(fan: Sequence[Card], depth: int, card: Card) -> int:
    """How many cards of ``card``'s suit and lower rank lie below the top ``depth`` cards."""
    return sum(
        1 for other in fan[: len(fan) - depth] if other.suit is card.suit and other.rank < card.rank
    )


def move_score(state: FanState, move: FanMove) -> float:
    """The greedy value of a legal ``move`` in ``state``."""
    fans, home = state.fans, state.foundations
    fan = fans[move.source - 1]
    head = fan[-move.count]
    if move.target is None:
        return HOME
    rest = fan[: -move.count]
    score = 0.0
    if rest:
        uncovered = rest[-1]
        if home[uncovered.suit.order] + 1 == uncovered.rank:
            score += UNCOVERS_HOME
    score += PER_BURIED * _buried_lower(fan, move.count, head)
    moved_on_successor = _on_successor(fan, move.count)
    if fans[move.target - 1]:
        score += BUILD
        if not rest:
            score += EMPTIES_FAN
    else:
        score += TO_EMPTY if head.rank == KING else 0.0
        if moved_on_successor or len(rest) == 0:
            score += USELESS
    if moved_on_successor:
        score += USELESS
    return score


def greedy_move(state: FanState, legal: Sequence[FanMove], rng: random.Random) -> FanMove:
    """The best-scored of ``legal`` (ties broken by ``rng``)."""
    scored = [(move_score(state, move), move) for move in legal]
    best = max(score for score, _ in scored)
    top = [move for score, move in scored if score == best]
    return top[0] if len(top) == 1 else top[rng.randrange(len(top))]


class FanKnowledge(Knowledge[FanState, FanMove, FanView]):
    """The greedy Fan player: home first, then uncover and dig out, then build."""

    def __init__(self, game: AnyGame) -> None:
        super().__init__(game)

    def choose(self, view: FanView, legal: Sequence[FanMove], rng: random.Random) -> FanMove:
        return greedy_move(view.state, legal, rng)

    def playout_action(
        self, state: FanState, legal: Sequence[FanMove], rng: random.Random
    ) -> FanMove:
        return greedy_move(state, legal, rng)

    def evaluate(self, state: FanState) -> tuple[float, ...] | None:
        """The share of the cards that are home (a won game returns 1)."""
        return (state.cards_on_foundations / 52.0,)


def _make(game: AnyGame) -> Knowledge[Any, Any, Any]:
    return FanKnowledge(game)


#: What makes the game's strategy.
KNOWLEDGE = _make

#: The agent behind each level.
LEVELS = {"easy": "heuristic", "medium": "solver(mistakes=0.05)", "hard": "solver"}
