"""What a game's strategy tells an agent: a heuristic move, a playout policy, an evaluation.

A game's :class:`Knowledge` is written once (in :mod:`fanfold.agents.strategy`) and used twice:
the ``heuristic`` agent plays its moves directly, and the search agents (``mcts`` with
``playout=heuristic``) use it to finish their simulated games with sensible moves instead of
uniformly random ones, and to score a playout cut off at ``rollout_limit`` actions by the
evaluation instead of calling it a draw.

Knowledge that works on a full state only ever sees a state the agent dealt itself, consistent
with its own view (:meth:`fanfold.core.game.Game.sample_state`), so it cannot peek at hidden
cards: the default :meth:`Knowledge.choose` deals such a state and plays the playout move in it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Generic

from fanfold.core.game import ActionT, Game, StateT, ViewT
from fanfold.core.registry import AnyGame


class Knowledge(Generic[StateT, ActionT, ViewT]):
    """A game's strategy. The base class knows nothing: random moves and no evaluation.

    Args:
        game: the game the knowledge is about.
    """

    def __init__(self, game: Game[Any, StateT, ActionT, ViewT]) -> None:
        self.game = game

    def choose(self, view: ViewT, legal: Sequence[ActionT], rng: random.Random) -> ActionT:
        """The heuristic's move for the seat whose view this is. The default deals a full state
        consistent with the view and plays :meth:`playout_action` in it."""
        state = self.game.sample_state(view, rng)
        return self.playout_action(state, legal, rng)

    def playout_action(
        self, state: StateT, legal: Sequence[ActionT], rng: random.Random
    ) -> ActionT:
        """A quick, sensible move among ``legal`` in a full (dealt) state. Default: random."""
        del state
        return legal[rng.randrange(len(legal))]

    def priors(self, state: StateT, legal: Sequence[ActionT]) -> Sequence[float] | None:
        """How much the strategy likes each action of ``legal`` in a full (dealt) state, higher
        first, on any scale; search tries the liked ones first and, with progressive
        widening, only the best few at a node visited a few times. Default: no preference."""
        del state, legal
        return None

    def obvious(self, view: ViewT, legal: Sequence[ActionT]) -> ActionT | None:
        """A move so clearly right that search need not look (e.g. the move that wins at
        once), or ``None``. Default: none."""
        del view, legal
        return None

    def rollout(self, state: StateT, rng: random.Random) -> tuple[float, ...] | None:
        """The returns of the game played on from ``state`` by :meth:`playout_action` for every
        seat, computed by a faster route than stepping the rules engine (a game's fast playout,
        tested equal to the stepped one); ``None``: no such route, the search steps the game.
        Default: ``None``."""
        del state, rng
        return None

    def search_values(
        self,
        states: Sequence[StateT],
        legal: Sequence[ActionT],
        player: int,
        rng: random.Random,
        depth: int,
        group: int,
        deadline: float | None,
        stopped: Callable[[], object] | None = None,
    ) -> list[float] | None:
        """Each of ``legal``'s total return for ``player`` over ``states`` (deals of its
        view), played out by the strategy except at ``player``'s next ``depth`` decisions,
        which are searched: one move per group of at least ``group`` deals that show it the
        same view there (the strategy's move after ``deadline``, a :func:`time.monotonic`
        time, and in smaller groups; ``stopped`` is called when the deadline stops a group's
        search, so the agent can tell its time cap cut its budget); ``None``: no such search,
        the caller plays every deal out by the strategy. Default: ``None``."""
        del states, legal, player, rng, depth, group, deadline, stopped
        return None

    def fast_values(
        self,
        view: ViewT,
        legal: Sequence[ActionT],
        deals: int,
        infer: bool,
        lookahead: int,
        group: int,
        rng: random.Random,
        deadline: float | None,
        stopped: Callable[[], object] | None = None,
    ) -> list[float] | None:
        """:meth:`search_values` over ``deals`` deals of ``view`` (read from the others' play
        when ``infer``, as :meth:`infer_states`), run by a compiled fast path: each of
        ``legal``'s total return for the viewing seat (``stopped``: called when ``deadline``
        stops a group's search, as there). ``None``: no fast path for this view, the caller
        deals and searches by the reference route. Default: ``None``."""
        del view, legal, deals, infer, lookahead, group, rng, deadline, stopped
        return None

    def fast_rollout(
        self, state: StateT, limit: int, rng: random.Random, policy: str = "random"
    ) -> tuple[float, ...] | None:
        """The returns after up to ``limit`` actions from ``state`` played by a compiled fast
        path (scored by :meth:`evaluate` when the game goes on), chosen by ``policy``:
        ``random`` (uniformly), ``greedy`` (a rough preference) or ``heuristic`` (the
        strategy's policy, compiled), for search with ``playout=fast``, ``fast-greedy`` or
        ``fast-heuristic``; ``None``: no fast path for this state, the search steps the game.
        Default: ``None``."""
        del state, limit, rng, policy
        return None

    def infer_states(self, view: ViewT, count: int, rng: random.Random) -> list[StateT] | None:
        """``count`` full states consistent with ``view``, drawn in proportion to how likely
        players of this strategy would have made the moves the view shows (reading the others'
        hidden cards from their play), for a search to play out. ``None``: the strategy reads
        nothing from play, and the search deals uniformly. Default: ``None``."""
        del view, count, rng
        return None

    def evaluate(self, state: StateT) -> tuple[float, ...] | None:
        """Each seat's expected return from ``state`` on the scale of
        :attr:`fanfold.core.game.Outcome.returns`; ``None``: no estimate (scored as a draw)."""
        del state
        return None


AnyKnowledge = Knowledge[Any, Any, Any]
#: Makes a game's knowledge: ``make(game)``.
KnowledgeMaker = Callable[[AnyGame], AnyKnowledge]
