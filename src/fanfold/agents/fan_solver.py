"""The solver-backed Fan patience agent: it wins every winnable deal.

At its first decision the agent decides the position with the exact solver
(:func:`fanfold.solvers.fan.solve`) and keeps the winning move list as its plan; every later
decision checks that the position is the one the plan expects and plays the plan's next move,
so a whole game costs one search (under a second on every deal of 1..1000, see
``docs/agents.md``). A position off the plan (an undo, a position loaded by hand, or one of its
own deliberate mistakes) is solved afresh.

On a position the solver proves lost it plays the greedy strategy of
:mod:`fanfold.agents.strategy.fan` (home first, dig out buried cards, build), without solving
again: every position reached from a lost one is lost too, so while the game goes on from
where it left it (the position is the one its own last move made) it knows the verdict.

``mistakes`` grades it down for players who want a weaker helper: with that probability a
decision that has a choice plays a move other than the plan's, uniformly among the others (the
next decision then solves the position it finds, within a budget of positions, and plays the
greedy strategy where that budget finds no win). ``solver(mistakes=0)`` is the full-strength
agent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fanfold.agents.base import Agent, AgentConfig
from fanfold.agents.strategy.fan import greedy_move
from fanfold.core.errors import ConfigError, Refusal
from fanfold.core.registry import AnyGame
from fanfold.games.fan import FanGame, FanMove, FanState, FanView

#: Positions a graded agent's search may expand (a few tenths of a second at most).
GRADED_STATES = 5000


def plays_fan(game: AnyGame) -> bool:
    """The solver agent plays Fan patience only."""
    return isinstance(game, FanGame)


@dataclass(frozen=True)
class SolverConfig(AgentConfig):
    """Settings of the solver-backed Fan agent.

    Attributes:
        mistakes: the probability that a decision with a choice plays a move other than the
            solution's (0: always the solution's move).
    """

    mistakes: float = 0.0

    def validate(self) -> None:
        if not 0.0 <= self.mistakes <= 1.0:
            raise ConfigError(
                Refusal("agent.zero_to_one", name="mistakes", value=f"{self.mistakes}")
            )


def _same_position(first: FanState, second: FanState) -> bool:
    return (
        first.fans == second.fans
        and first.foundations == second.foundations
        and first.config == second.config
    )


class FanSolverAgent(Agent[FanView, FanMove]):
    """Plays the exact solver's solution; the greedy strategy on lost positions.

    Args:
        game: the Fan game.
        config: the rate of deliberate mistakes.
        seed: seeds the agent's own generator (mistakes and ties of the greedy strategy).

    Attributes:
        solves: how many times the agent has run the solver (once per game without mistakes).
    """

    name = "solver"

    def __init__(self, game: AnyGame, config: SolverConfig, seed: int = 0) -> None:
        if not plays_fan(game):
            raise TypeError(f"the solver agent plays Fan patience, not {game.title}")
        super().__init__(game, seed)
        self.config = config
        self.solves = 0
        #: The winning moves still to play, the next first, from the position ``_expected``.
        self._plan: list[FanMove] = []
        self._expected: FanState | None = None
        #: The position the agent's last move made, and whether it is known to be lost.
        self._after_last: FanState | None = None
        self._lost = False

    def choose(self, view: FanView, legal: Sequence[FanMove]) -> FanMove:
        state = view.state
        continues = self._after_last is not None and _same_position(state, self._after_last)
        if not continues:
            self._lost = False
        on_plan = (
            bool(self._plan)
            and self._expected is not None
            and _same_position(state, self._expected)
        )
        if not on_plan and not self._lost:
            self._solve(state)
        if self._lost or not self._plan:
            move = greedy_move(state, legal, self.rng)
        else:
            move = self._plan[0]
            others = [other for other in legal if other != move]
            if self.config.mistakes and others and self.rng.random() < self.config.mistakes:
                move = others[self.rng.randrange(len(others))]
        after = self.game.apply_legal(state, move)
        if self._plan and move == self._plan[0]:
            self._plan.pop(0)
            self._expected = after
        else:
            self._plan = []
            self._expected = None
        self._after_last = after
        return move

    def _solve(self, state: FanState) -> None:
        from fanfold.solvers.fan import solve

        # Graded play solves within a budget: it need not find every win, and a position a
        # mistake has lost could otherwise take a long exhaustive search at every mistake.
        budget = GRADED_STATES if self.config.mistakes else None
        self.solves += 1
        result = solve(state, max_states=budget)
        self._plan = list(result.moves)
        self._expected = state if result.moves else None
        # Not proved winnable within the budget: play on by the greedy strategy.
        self._lost = not result.moves
