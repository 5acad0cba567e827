"""The server's limits on what a bot may spend on one decision.

Any agent text a client sends (the seats of ``POST /api/tables`` and ``POST /api/records``) is
checked here before a table opens: the time cap (``seconds``) may not exceed the server's
``--bot-seconds`` and is set to it where the text leaves it out, and every budget option of the
registered agents (:data:`MAXIMA`) has a server maximum. The levels (``easy``, ``medium``,
``hard``) are the exception to the time cap: their budgets are counted in iterations and deals
(Fano's ``hard``: 24 deals, at most 384 continuations; ``medium``: 4 deals, at most 32), so
they get a wall-clock guard instead (:data:`GUARD_SECONDS`, or ``--bot-seconds`` where that is
larger): a busy server plays the same level, slower, until the guard cuts. A time cap is the
most the player waits: it counts from the moment the bot pool queues the decision, not from
when a worker takes it, so a decision that waited in the queue has only what is left (one whose
time ran out in the queue plays its agent's cheapest legal move at once:
:mod:`fanfold.server.bots.decisions`). The server counts each cut
(``fanfold_bot_budget_cut_total{game,level}``). A text over a limit is refused with a sentence
naming it (:class:`BudgetError`, a 400 to the client). Texts already in a store are checked
again when their table is rebuilt: those are capped to the limits (and the change logged),
never played as stored.

The maxima are chosen so that the levels (``easy``, ``medium``, ``hard``,
:mod:`fanfold.agents.levels`), the registered agents' defaults and the lobby's list pass
unchanged: the largest of them are Fano's former ``hard`` (``iterations=4000``) and Fan
Tan's ``hard`` (``deals=2000, lookahead=2``).

    >>> budget = BotBudget(seconds=1.0)
    >>> str(budget.check(parse_agent("mcts(iterations=2000)")))
    'mcts(iterations=2000, seconds=1.0)'
    >>> str(budget.check(parse_agent("hard")))
    'hard(seconds=5.0)'
    >>> str(budget.cap(parse_agent("mcts(iterations=100000000, seconds=600)"))[0])
    'mcts(iterations=5000, seconds=1.0)'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from fanfold.agents.base import SECONDS, AgentSpec, parse_agent, with_time_cap
from fanfold.agents.levels import LEVELS
from fanfold.core.errors import ConfigError, FanfoldError

#: The wall-clock guard of a level's decision (``easy``, ``medium``, ``hard``), in seconds,
#: counted from the moment the bot pool queues it (the player's wait): the levels' budgets are
#: counted in iterations and deals and end well within it on a quiet machine (Fano's ``hard``
#: at two players: 1.0 CPU s at the slowest, ``benchmarks/hard_decision.py``), so it cuts only
#: on a machine far busier than its cores, or behind a long queue of other tables' decisions.
GUARD_SECONDS = 5.0

#: The most of each budget option (a name any registered agent's config may have) a bot may
#: be given on this server. ``iterations``: search playouts per decision (``mcts``);
#: ``deals``: determinizations per decision (``pimc``, ``mcts(tree=fast)``);
#: ``rollout_limit``: actions per playout; ``lookahead``: own decisions searched inside each
#: deal (``pimc``); ``nodes``, ``replies``, ``reply_nodes``: positions of the seat's turn a
#: deal, turns answered a first action, positions of each answer (Fano's ``planner``);
#: ``model_deals``, ``model_budget``: the deals and continuations of the look-ahead that models
#: each opponent decision of an exploiter's continuations (``exploit``).
MAXIMA: Mapping[str, int] = MappingProxyType(
    {
        "iterations": 5000,
        "deals": 2000,
        "rollout_limit": 400,
        "lookahead": 2,
        "nodes": 1000,
        "replies": 10,
        "reply_nodes": 500,
        "model_deals": 4,
        "model_budget": 64,
    }
)
#: Numeric agent options that are not budgets (they do not make a decision cost more):
#: ``turn_seconds`` only lowers the time of a turn's decisions under ``seconds``; ``mix`` (the
#: ladder's) only chooses which member decides; ``keep`` (the ladder's look-ahead) only narrows
#: the moves looked ahead on, which ``deals`` bounds with every legal move; ``budget`` (the
#: ladder's look-ahead) only caps its continuations (moves x deals), which ``deals`` bounds too.
NOT_BUDGETS = frozenset(
    {"exploration", "widening", "group", "mistakes", "turn_seconds", "mix", "keep", "budget"}
)


class BudgetError(ConfigError):
    """An agent text asks for more than the server allows a bot."""


@dataclass(frozen=True)
class BotBudget:
    """The limits on a bot's decision on this server.

    Attributes:
        seconds: the most seconds a bot that takes a time cap may think per decision (the
            server's ``--bot-seconds``); ``None``: no time cap (the maxima still apply).
        maxima: the most of each budget option (:data:`MAXIMA`).
        guard: a level's time cap, its wall-clock guard (:data:`GUARD_SECONDS`; ``seconds``
            where that is larger); ``None``: the levels get ``seconds`` as every agent does.
    """

    seconds: float | None = 1.0
    maxima: Mapping[str, int] = field(default_factory=lambda: MAXIMA)
    guard: float | None = GUARD_SECONDS

    def limit(self, spec: AgentSpec) -> float | None:
        """The time cap of a bot of ``spec``: the guard for a level, else ``seconds``
        (``None``: no time cap).

            >>> budget = BotBudget(seconds=1.0)
            >>> budget.limit(parse_agent("hard")), budget.limit(parse_agent("mcts"))
            (5.0, 1.0)
        """
        if self.seconds is None:
            return None
        if self.guard is not None and spec.name in LEVELS:
            return max(self.seconds, self.guard)
        return self.seconds

    def check(self, spec: AgentSpec) -> AgentSpec:
        """``spec`` with the time cap set where it sets none.

        Raises:
            BudgetError: an option over its limit; the sentence names the limit.
        """
        options = spec.config.option_texts()
        for name, most in self.maxima.items():
            value = getattr(spec.config, name, None) if name in options else None
            if isinstance(value, int | float) and value > most:
                raise BudgetError(
                    f"{name} may be at most {most} on this server, not {_shown(value)} "
                    f"(agent {spec.name})"
                )
        own = getattr(spec.config, SECONDS, None) if SECONDS in options else None
        limit = self.limit(spec)
        if limit is not None and isinstance(own, int | float) and own > limit:
            raise BudgetError(
                f"seconds may be at most {limit:g} on this server, not {_shown(own)} "
                f"(agent {spec.name})"
            )
        return self._timed(spec)

    def cap(self, spec: AgentSpec) -> tuple[AgentSpec, list[str]]:
        """``spec`` brought within the limits: every option over its limit set to it, the
        time cap set where it is missing or above the server's; also the sentences saying
        what was lowered (empty when nothing was)."""
        options = spec.config.option_texts()
        lowered: dict[str, str] = {}
        said: list[str] = []
        for name, most in self.maxima.items():
            value = getattr(spec.config, name, None) if name in options else None
            if isinstance(value, int | float) and value > most:
                lowered[name] = str(most)
                said.append(f"{name} {_shown(value)} -> {most}")
        own = getattr(spec.config, SECONDS, None) if SECONDS in options else None
        limit = self.limit(spec)
        if limit is not None and isinstance(own, int | float) and own > limit:
            lowered[SECONDS] = f"{limit:g}"
            said.append(f"seconds {_shown(own)} -> {limit:g}")
        if lowered:
            spec = AgentSpec(spec.name, spec.config.with_options(lowered))
        return self._timed(spec), said

    def _timed(self, spec: AgentSpec) -> AgentSpec:
        """``spec`` with the server's time cap (:meth:`limit`) where the agent takes one and
        sets none (a cap above the server's was refused or lowered before)."""
        return with_time_cap(spec, self.limit(spec))

    def capped_text(self, text: str) -> tuple[str, list[str]]:
        """An agent text as stored brought within the limits (see :meth:`cap`); a text that is
        not an agent's comes back as it is (rebuilding the table says what is wrong)."""
        try:
            spec = parse_agent(text)
        except FanfoldError:  # an unknown agent or a malformed text: rebuilding says so
            return text, []
        capped, said = self.cap(spec)
        return str(capped), said


def _shown(value: float) -> str:
    """A number as a person writes it (``100000000``, ``0.5``)."""
    return str(value) if isinstance(value, int) else f"{value:g}"


__all__ = ["GUARD_SECONDS", "MAXIMA", "NOT_BUDGETS", "SECONDS", "BotBudget", "BudgetError"]
