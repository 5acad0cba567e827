"""The ladder as agents: ``ladder`` (with ``style=``), deciding in compiled code where it can."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from fanfold.agents.base import Agent, AgentConfig
from fanfold.agents.ladder.search import Params, decide
from fanfold.agents.ladder.styles import Style, params
from fanfold.agents.strategy import prepare
from fanfold.core.config import GameConfig, ranged
from fanfold.core.errors import ConfigError, Refusal
from fanfold.games.fano import fast
from fanfold.games.fano.actions import FanoAction, Promote
from fanfold.games.fano.config import FanoConfig
from fanfold.games.fano.state import FanoState
from fanfold.games.fano.view import FanoView

#: The members a mixed decision (``mix``) is made by.
MIXED = (Style.RUSH, Style.DEFEND, Style.ATTACK)


@dataclass(frozen=True)
class LadderConfig(AgentConfig):
    """A ladder member's settings.

    Attributes:
        style: how it plays (:mod:`fanfold.agents.ladder.styles`).
        nodes: positions of its own turn searched a decision.
        compiled: decide in compiled code (Numba) where the fast path covers the variant;
            ``false``: always the Python twin (the same decisions, slower).
        deals: look ahead on this many deals of the view (0, the default: no look-ahead):
            every legal move is played on each deal and the game carried on by the member (its
            style) for every seat to the end of the seat's next turn, where the learned
            evaluation judges it (:mod:`fanfold.agents.ladder.lookahead`); the best mean
            wins. Compiled only: a variant the fast path does not cover decides without it.
        keep: with ``deals``, look ahead only on the ``keep`` moves the member's own search
            values highest (the member's move first, ties by the legal order), where it
            searches the turn (0, the default: every legal move): a move the member ranks far
            down seldom wins its deals, and each move left out saves its continuations on
            every deal.
        budget: with ``deals``, the most continuations a decision plays (moves looked ahead
            on x deals; 0, the default: no bound): where more moves are legal than
            ``budget // deals``, look ahead only on that many, the member's best by its own
            search (as ``keep``); where the member does not search the turn (a shuffle, a
            mulligan, a defender's answer), on every move with ``budget // moves`` deals (at
            least one). Decisions within the budget are unchanged. An iteration budget, so
            that a seeded game is the same on any machine; ``seconds`` stays the wall-clock
            guard.
        mix: the chance that a decision is made by another member instead (rush, defend or
            attack, drawn from the agent's generator, so that a seeded game is the same): a
            mixed policy, less predictable to a player who has learnt the member's.
        seconds: with ``deals``, stop dealing once a decision has taken this long (at least
            one deal; ``None``: no cap): ``deals`` is the budget, ``seconds`` the wall-clock
            guard, so that a busy machine plays the same bot, slower, until the guard cuts (the
            agent's ``budget_cut`` tells, and the server counts it); the server's deadline
            (:attr:`~fanfold.agents.base.Agent.deadline`) cuts it the same way.
    """

    style: Style = Style.BALANCED
    nodes: int = ranged(300, 1, 100_000)
    compiled: bool = True
    deals: int = ranged(0, 0, 100_000)
    keep: int = ranged(0, 0, 1_000)
    budget: int = ranged(0, 0, 100_000_000)
    mix: float = ranged(0.0, 0.0, 1.0)
    seconds: float | None = None

    def validate(self) -> None:
        super().validate()
        if self.seconds is not None and self.seconds <= 0:
            raise ConfigError(
                Refusal("agent.more_than_zero", name="seconds", value=f"{self.seconds}")
            )


class LadderAgent(Agent[FanoView, FanoAction]):
    """A ladder member: its own turn searched, judged by the learned evaluation; reads only
    its view (a state dealt from it fills what the seat cannot see, and the decision never
    reads that part)."""

    name = "ladder"

    def __init__(self, game: Any, config: LadderConfig, seed: int = 0) -> None:
        super().__init__(game, seed)
        self.config = config
        #: The last look-ahead's deals and totals a move (``deals``), for inspection.
        self.last_totals: tuple[int, npt.NDArray[np.float64]] | None = None
        #: The indices in ``legal`` of the moves the last look-ahead looked ahead on.
        self.last_kept: tuple[int, ...] = ()

    def prepare(self, config: GameConfig, say: Callable[[str], None]) -> None:
        """Load the compiled decision with the rest of Fano's compiled code (compiled ahead in
        a subprocess on a fresh installation: :func:`fanfold.agents.strategy.prepare`)."""
        if self.config.compiled and isinstance(config, FanoConfig) and fast.supports(config):
            prepare(self.game, say)

    def choose(self, view: FanoView, legal: Sequence[FanoAction]) -> FanoAction:
        self.budget_cut = False
        if len(legal) == 1:
            return legal[0]
        started = time.monotonic()
        # The hidden cards are dealt at random; the decision never reads them.
        state = self.game.sample_state(view, random.Random(0))
        style = self.config.style
        if self.config.mix and self.rng.random() < self.config.mix:
            style = MIXED[self.rng.randrange(len(MIXED))]
        chosen = params(style, view.config, self.config.nodes)
        if self.config.compiled and fast.supports(view.config):
            from fanfold.agents.ladder import compiled

            own = compiled.decide(state, view.player, legal, chosen)
            if self.config.deals and not isinstance(legal[own], Promote):
                allowance = self.within_deadline(started, self.config.seconds)
                return legal[self._look_ahead(view, state, legal, own, chosen, started, allowance)]
            return legal[own]
        return legal[decide(state, view.player, legal, chosen)]

    def hurried(self, view: FanoView, legal: Sequence[FanoAction]) -> FanoAction:
        """The member's own move (its turn searched, a few milliseconds), without the
        look-ahead (``deals``) or the mix."""
        state = self.game.sample_state(view, random.Random(0))
        chosen = params(self.config.style, view.config, self.config.nodes)
        if self.config.compiled and fast.supports(view.config):
            from fanfold.agents.ladder import compiled

            return legal[compiled.decide(state, view.player, legal, chosen)]
        return legal[decide(state, view.player, legal, chosen)]

    def opponents(self, view: FanoView) -> Params | None:
        """How the look-ahead's continuations play the opponents' seats: ``None``, as the
        member itself (an exploiter plays them as its target:
        :mod:`fanfold.agents.ladder.exploit`)."""
        del view
        return None

    def model(self) -> tuple[int, int] | None:
        """Whether the opponents in the look-ahead's continuations look ahead themselves:
        ``None``, they do not (an exploiter of a look-ahead may model them so: its deals and
        budget, :mod:`fanfold.agents.ladder.modelled`)."""
        return None

    def _look_ahead(
        self,
        view: FanoView,
        state: FanoState,
        legal: Sequence[FanoAction],
        own: int,
        chosen: Params,
        started: float,
        allowance: float | None = None,
    ) -> int:
        """The index in ``legal`` of the best mean over the deals looked ahead on
        (:func:`fanfold.agents.ladder.compiled.look_ahead`), among the moves kept
        (:meth:`_kept`; ``state``: the view's state the member decided on); ``own`` (the
        member's move) on a tie, then the first. Dealing stops once ``allowance`` seconds
        from ``started`` are spent (at least one deal; ``None``: the deals alone)."""
        from fanfold.agents.ladder import compiled
        from fanfold.games.fano.fast import codec, engine

        every = np.array([codec.action_id(action) for action in legal], np.int64)
        kept, deals = self._bounded(state, view.player, every, own, chosen)
        ids = every[kept]
        totals = np.zeros(len(kept))
        engine.seed(self.rng.getrandbits(31))
        dealt = 0
        while dealt < deals:
            if dealt and allowance is not None and time.monotonic() - started > allowance:
                self.budget_cut = True
                break
            deal = engine.encode(self.game.sample_state(view, self.rng))
            compiled.look_ahead(
                [deal], view.player, ids, chosen, totals, self.opponents(view), self.model()
            )
            dealt += 1
        full = np.zeros(len(legal))
        full[kept] = totals
        self.last_totals = (dealt, full)
        self.last_kept = tuple(int(index) for index in kept)
        best = own
        for index in kept:
            if full[index] > full[best] + 1e-9:
                best = int(index)
        return best

    def _bounded(
        self, state: FanoState, seat: int, ids: npt.NDArray[np.int64], own: int, chosen: Params
    ) -> tuple[npt.NDArray[np.int64], int]:
        """The indices (ascending) of the moves looked ahead on and the deals each: with
        ``keep`` (:meth:`_kept`), then within ``budget`` continuations (see
        :class:`LadderConfig`); every move on ``deals`` deals where the budget allows."""
        deals, budget = self.config.deals, self.config.budget
        kept = self._kept(state, seat, ids, own, chosen, self.config.keep)
        if not budget or len(kept) * deals <= budget:
            return kept, deals
        width = max(1, budget // deals)
        narrowed = self._kept(state, seat, ids, own, chosen, min(width, len(kept)))
        if len(narrowed) <= width:
            return narrowed, deals
        # The member does not search this turn: every move, on fewer deals.
        return kept, max(1, budget // len(kept))

    def _kept(
        self,
        state: FanoState,
        seat: int,
        ids: npt.NDArray[np.int64],
        own: int,
        chosen: Params,
        keep: int,
    ) -> npt.NDArray[np.int64]:
        """The indices (ascending) of the moves looked ahead on: every one, or with ``keep``
        the ``keep`` the member's search values highest (``own`` among them:
        :func:`fanfold.agents.ladder.compiled.root_values`), where it searches the turn."""
        if not keep or keep >= len(ids):
            return np.arange(len(ids), dtype=np.int64)
        from fanfold.agents.ladder import compiled

        values = compiled.root_values(state, seat, ids, chosen)
        if values is None:
            return np.arange(len(ids), dtype=np.int64)
        order = sorted(range(len(ids)), key=lambda index: (index != own, -values[index], index))
        return np.array(sorted(order[:keep]), np.int64)


def make_ladder(game: Any, config: Any, seed: int) -> LadderAgent:
    """The registry's maker."""
    return LadderAgent(game, config, seed)
