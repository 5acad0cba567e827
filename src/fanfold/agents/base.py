"""Agents as data: the agent protocol, agent configs and the registry of agents by name.

An agent is a registered name plus a frozen, validated config, written as text the way game
options are: ``random``, ``mcts``, ``mcts(iterations=2000)``, ``mcts(iterations=500, seconds=1)``.
:func:`parse_agent` reads such a text into an :class:`AgentSpec`, whose ``str()`` is the
canonical text again, and :meth:`AgentSpec.create` makes the agent for a game::

    >>> spec = parse_agent("MCTS( iterations = 2000 )")
    >>> str(spec), spec.config.iterations
    ('mcts(iterations=2000)', 2000)
    >>> str(parse_agent("mcts-strong"))
    'mcts-strong'

Budgets are counted in iterations, so a seeded game plays the same moves on any machine; a
time cap (``seconds=``) applies only where the caller asks for one.
"""

from __future__ import annotations

import random
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points
from typing import Any, ClassVar, Generic, TypeVar

from fanfold.core.config import Config, GameConfig
from fanfold.core.errors import (
    ConfigError,
    NotationError,
    Refusal,
    UnknownAgentError,
    reason_of,
    templates,
)
from fanfold.core.game import ActionT, Game, ViewT
from fanfold.core.registry import AnyGame, load_entry_points

#: An agent's refusals (:class:`~fanfold.core.errors.Refusal`): a name that is no agent, an
#: agent for another game, an agent's text that does not parse; worded on the play server's
#: page from the same templates translated.
templates(
    {
        "agent.unknown": "no agent called '{name}'; agents: {names}",
        "agent.not_for_game": "the agent '{name}' does not play {game}; agents for it: {names}",
        "agent.not_an_agent": "'{text}' is not an agent: write a name such as 'mcts' or "
        "'mcts(iterations=2000, seconds=1)'",
        "agent.not_key_value": "agent parameters are key=value, not '{text}'",
        "agent.no_level": "no level called '{name}'; levels: {names}",
        "agent.no_levels": "{game} has no difficulty levels",
        "agent.bad_option": "agent {name}: {reason}",
    }
)

#: The checks of an agent's own settings (each agent's ``validate``), the option's name and the
#: value given as typed: worded in the terminal's and the page's language like the rest.
templates(
    {
        "agent.more_than_zero": "{name} must be more than 0, not {value}",
        "agent.at_least_one": "{name} must be at least 1, not {value}",
        "agent.zero_or_more": "{name} must be 0 or more, not {value}",
        "agent.zero_to_one": "{name} must be between 0 and 1, not {value}",
        "agent.one_of": "{name} must be one of {choices}, not {value}",
        "agent.needs": "{option} needs {needed}, not {value}",
        "agent.time_cap": "a time cap is more than 0 seconds, not {seconds}",
        "agent.not_a_member": "Fano's {target} level ({agent}) is not a ladder member",
    }
)


@dataclass(frozen=True)
class AgentConfig(Config):
    """Base class of every agent's settings (frozen, validated, text and JSON in and out)."""


AgentConfigT = TypeVar("AgentConfigT", bound=AgentConfig)


class TurnTimed:
    """Settings of an agent whose decisions have a time cap (``seconds``) and whose decisions
    of one turn share a cap together (``turn_seconds``; three times ``seconds`` when unset)."""

    seconds: float | None
    turn_seconds: float | None

    def check_turn_time(self) -> None:
        """Refuse a cap that is not more than 0 (:class:`ConfigError`)."""
        if self.seconds is not None and self.seconds <= 0:
            raise ConfigError(
                Refusal("agent.more_than_zero", name="seconds", value=f"{self.seconds}")
            )
        if self.turn_seconds is not None and self.turn_seconds <= 0:
            shown = f"{self.turn_seconds}"
            raise ConfigError(Refusal("agent.more_than_zero", name="turn_seconds", value=shown))

    def turn_cap(self) -> float | None:
        """The cap on one turn's decisions together (``None`` without ``seconds``)."""
        if self.seconds is None:
            return None
        return self.turn_seconds if self.turn_seconds is not None else 3 * self.seconds


class TurnBudget:
    """The time a seat's decisions of one turn have spent, against its settings' caps
    (:class:`TurnTimed`): each decision may take ``seconds``, less where the turn's cap has
    less left (never below 0); a new turn starts its own count."""

    def __init__(self, config: TurnTimed) -> None:
        self.config = config
        #: The turn (e.g. its number and turn player) last decided in, and the time it spent.
        self.turn: object = None
        self.spent = 0.0

    def allowance(self, turn: object) -> float | None:
        """The seconds a decision in ``turn`` may take (``None`` without ``seconds``)."""
        seconds, cap = self.config.seconds, self.config.turn_cap()
        if seconds is None or cap is None:
            return None
        if turn != self.turn:
            self.turn, self.spent = turn, 0.0
        return max(0.0, min(seconds, cap - self.spent))

    def spend(self, seconds: float) -> None:
        """Count a decision's ``seconds`` against the turn."""
        self.spent += seconds


class Agent(ABC, Generic[ViewT, ActionT]):
    """A player that chooses among legal actions from what its seat may see.

    Args:
        game: the game being played.
        seed: seeds the agent's own generator (never the dealer's).
    """

    #: The name the command line and records use; set from the spec that made the agent.
    name: str = "agent"
    #: Whether every decision takes a few microseconds whatever the position (no search, no
    #: knowledge): the browser server decides for such an agent on its event loop instead of
    #: sending the decision to its bot pool, whose hand-over costs far more than the choice.
    instant: ClassVar[bool] = False

    def __init__(self, game: Game[Any, Any, ActionT, ViewT], seed: int = 0) -> None:
        self.game = game
        self.rng = random.Random(seed)
        #: Whether the last decision's time cap (``seconds``) stopped it before it had spent
        #: its budget (an agent whose budget is not cut by time leaves it false): the server
        #: counts such decisions (``fanfold_bot_budget_cut_total``).
        self.budget_cut = False
        #: The time (of the agent's clock: :func:`time.monotonic` unless a test gives another)
        #: by which the next decision must end whatever its own time cap: the server's bot pool
        #: sets it to the player's wait counted from the moment the decision was queued. An
        #: agent with a time cap stops its search there as at its own cap (``budget_cut``);
        #: ``None``: its own cap only.
        self.deadline: float | None = None

    @abstractmethod
    def choose(self, view: ViewT, legal: Sequence[ActionT]) -> ActionT:
        """One of ``legal`` for the seat whose view this is."""

    def hurried(self, view: ViewT, legal: Sequence[ActionT]) -> ActionT:
        """The agent's cheapest legal choice, made at once without its search: what the
        server's bot pool plays when a decision's deadline (:attr:`deadline`) has passed before
        a worker could start it. The default draws one of ``legal`` from the agent's own
        generator; an agent that searches offers its game strategy's move instead."""
        del view
        return legal[self.rng.randrange(len(legal))]

    def within_deadline(self, started: float, allowance: float | None) -> float | None:
        """The seconds from ``started`` that a decision may take: ``allowance`` (its own cap;
        ``None``: none), less where :attr:`deadline` comes sooner (never below 0).

            >>> from fanfold.core.registry import get_game
            >>> agent = create_agent("random", get_game("fano"))
            >>> agent.within_deadline(10.0, 2.0), agent.within_deadline(10.0, None)
            (2.0, None)
            >>> agent.deadline = 11.5
            >>> agent.within_deadline(10.0, 2.0), agent.within_deadline(10.0, None)
            (1.5, 1.5)
            >>> agent.deadline = 9.0
            >>> agent.within_deadline(10.0, 2.0)
            0.0
        """
        if self.deadline is None:
            return allowance
        left = max(0.0, self.deadline - started)
        return left if allowance is None else min(allowance, left)

    def prepare(self, config: GameConfig, say: Callable[[str], None]) -> None:
        """Get ready for a game with ``config`` before it starts (load tables, warm up),
        telling the player through ``say`` about anything slow. The default has nothing to do."""
        del config, say

    def restrict(self, forbidden: Sequence[tuple[str, ...]]) -> None:
        """Learn the table's restrictions (:mod:`fanfold.core.kinds`): ``forbidden`` holds, for
        each seat in order, the action kinds that seat's player is never offered (an
        experiment's rules, known to every seat). The table calls this before the first
        decision when any seat has a restriction; the agent is offered only its allowed actions
        either way, and one that searches ahead may honour the restrictions in its search. The
        default ignores them."""
        del forbidden


AnyAgent = Agent[Any, Any]
#: Makes an agent: ``make(game, config, seed)``.
AgentMaker = Callable[[AnyGame, Any, int], AnyAgent]


@dataclass(frozen=True)
class RegisteredAgent:
    """A registered agent: its name, its default config, how to make it, which games it plays.

    Attributes:
        name: the name in texts such as ``mcts(iterations=2000)``.
        config: the default config; a text's ``key=value`` pairs change fields of it.
        make: builds the agent from a game, a config of ``config``'s type and a seed.
        description: one line for ``fanfold games`` and ``--help``.
        supports: whether the agent plays a game.
        strength: orders agents; the strongest that plays a game is its default.
    """

    name: str
    config: AgentConfig
    make: AgentMaker
    description: str
    supports: Callable[[AnyGame], bool]
    strength: int

    def parameters(self) -> str:
        """The config's fields with their defaults, e.g. ``iterations=200, seconds=none``."""
        return ", ".join(f"{key}={value}" for key, value in self.config.option_texts().items())


@dataclass(frozen=True)
class AgentSpec:
    """An agent as data: a registered name and a config. ``str()`` is the canonical text."""

    name: str
    config: AgentConfig

    def __str__(self) -> str:
        changed = self.config.changed_options_from(registered_agent(self.name).config)
        if not changed:
            return self.name
        return f"{self.name}(" + ", ".join(f"{k}={v}" for k, v in changed.items()) + ")"

    def create(self, game: AnyGame, seed: int = 0) -> AnyAgent:
        """Make this agent for ``game``, its generator seeded with ``seed``."""
        entry = registered_agent(self.name)
        if not entry.supports(game):
            names = ", ".join(agent_names(game))
            raise UnknownAgentError(
                Refusal("agent.not_for_game", name=self.name, game=game.title, names=names)
            )
        agent = entry.make(game, self.config, seed)
        agent.name = str(self)
        return agent


_AGENTS: dict[str, RegisteredAgent] = {}
_loaded = False
_TEXT = re.compile(r"^\s*([A-Za-z][\w-]*)\s*(?:\((.*)\))?\s*$", re.DOTALL)


#: The entry-point group of agents from other packages.
ENTRY_POINT_GROUP = "fanfold.agents"


def register_agent(entry: RegisteredAgent) -> None:
    """Add an agent to the registry under ``entry.name``."""
    _AGENTS[entry.name] = entry


def register_entry_point(entry: EntryPoint) -> list[RegisteredAgent]:
    """Register the agents an entry point names (a :class:`RegisteredAgent` or a sequence of
    them); returns those new to the registry (a built-in agent is listed both here and in
    :mod:`fanfold.agents.builtin`).

    Raises:
        TypeError: the entry point names something else.
        ValueError: another agent of the same name is registered already.
    """
    found = entry.load()
    entries = [found] if isinstance(found, RegisteredAgent) else found
    if not isinstance(entries, Sequence) or not all(
        isinstance(item, RegisteredAgent) for item in entries
    ):
        raise TypeError(
            f"the {ENTRY_POINT_GROUP} entry point {entry.name} = {entry.value!r} names "
            f"{type(found).__name__}, not a RegisteredAgent or a sequence of them"
        )
    new = []
    for item in entries:
        known = _AGENTS.get(item.name)
        if known is item:
            continue
        if known is not None:
            raise ValueError(f"an agent called {item.name!r} is already registered")
        register_agent(item)
        new.append(item)
    return new


def _ensure_loaded() -> None:
    """Register the agents of other packages' entry points, once."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    load_entry_points(entry_points(group=ENTRY_POINT_GROUP), register_entry_point, "agent")


def registered_agent(name: str) -> RegisteredAgent:
    """The registry entry called ``name`` (case-insensitive)."""
    _ensure_loaded()
    entry = _AGENTS.get(name.strip().lower())
    if entry is None:
        names = ", ".join(_AGENTS)
        raise UnknownAgentError(Refusal("agent.unknown", name=name.strip(), names=names))
    return entry


def registered_agents(game: AnyGame | None = None) -> list[RegisteredAgent]:
    """Registered agents (those that play ``game`` when it is given)."""
    _ensure_loaded()
    return [entry for entry in _AGENTS.values() if game is None or entry.supports(game)]


def agent_names(game: AnyGame | None = None) -> list[str]:
    """Names of the registered agents (those that play ``game`` when it is given)."""
    return [entry.name for entry in registered_agents(game)]


def strongest_agent(game: AnyGame) -> str:
    """The name of the strongest registered agent that plays ``game``."""
    return max(registered_agents(game), key=lambda entry: entry.strength).name


def parse_agent(text: str) -> AgentSpec:
    """Read ``name`` or ``name(key=value, ...)`` into an :class:`AgentSpec`.

    Raises:
        NotationError: the text is not of that shape.
        UnknownAgentError: no agent has that name.
        ConfigError: a parameter is unknown or its value is out of range.
    """
    match = _TEXT.match(text)
    if match is None:
        raise NotationError(Refusal("agent.not_an_agent", text=text))
    entry = registered_agent(match.group(1))
    options: dict[str, str] = {}
    for item in (match.group(2) or "").split(","):
        if not item.strip():
            continue
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise NotationError(Refusal("agent.not_key_value", text=item.strip()))
        options[key.strip()] = value.strip()
    try:
        config = entry.config.with_options(options)
    except ConfigError as error:
        raise ConfigError(
            Refusal("agent.bad_option", name=entry.name, reason=reason_of(error))
        ) from None
    return AgentSpec(entry.name, config)


#: The agent option that caps a decision's time.
SECONDS = "seconds"


def takes_time_cap(spec: AgentSpec) -> bool:
    """Whether the agent of ``spec`` takes a time cap (a ``seconds`` option)."""
    return SECONDS in spec.config.option_texts()


def with_time_cap(spec: AgentSpec, seconds: float | None) -> AgentSpec:
    """``spec`` thinking at most ``seconds`` a decision: its own cap where that is lower,
    else ``seconds``. An agent that takes no time cap, or ``seconds`` of ``None``, leaves
    ``spec`` as it is. The one place a front end's time cap meets an agent's text::

        >>> str(with_time_cap(parse_agent("mcts(seconds=5)"), 1))
        'mcts(seconds=1.0)'
        >>> str(with_time_cap(parse_agent("mcts(seconds=0.5)"), 1))
        'mcts(seconds=0.5)'
        >>> str(with_time_cap(parse_agent("random"), 1))
        'random'

    Raises:
        ConfigError: ``seconds`` is not more than 0.
    """
    if seconds is None or not takes_time_cap(spec):
        return spec
    if seconds <= 0:
        raise ConfigError(Refusal("agent.time_cap", seconds=f"{seconds:g}"))
    own = getattr(spec.config, SECONDS, None)
    if own is not None and own <= seconds:
        return spec
    return AgentSpec(spec.name, spec.config.with_options({SECONDS: f"{seconds:g}"}))


def create_agent(text: str, game: AnyGame, seed: int = 0) -> AnyAgent:
    """Make the agent written as ``text`` (e.g. ``mcts(iterations=500)``) for ``game``."""
    return parse_agent(text).create(game, seed)
