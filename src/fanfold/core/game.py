"""The game protocol: the one API every game implements and everything else speaks.

A game is a stateless object (one per rules edition, registered under a versioned id such as
``morris.v1``) that works on immutable states:

* :meth:`Game.new_state` deals or sets up a state from a config and a seed;
* :meth:`Game.current_player` says who decides next: the player to move, or a player whose
  turn it is not when the rules give them a decision (a reaction), or ``None`` when the game
  is over;
* :meth:`Game.legal_actions` and :meth:`Game.apply` move the game on; ``apply`` never mutates
  and raises :class:`IllegalActionError` for an action the rules forbid here;
* :meth:`Game.outcome` is the single source of truth for the end of the game;
* :meth:`Game.observe` builds, fresh, what one player may see: agents and clients get views,
  never states;
* :meth:`Game.choices` describes the legal actions for the player who decides, as
  :class:`Choice` values a front end draws and selects (what to point at, a label in words)
  without reading the notation;
* :meth:`Game.sample_state` deals a full state consistent with one player's view
  (determinisation, for information-set search);
* actions have a canonical text (``str(action)``) that :meth:`Game.parse_action` reads back,
  and positions have a notation (:meth:`Game.format_position` / :meth:`Game.parse_position`).

Chance (shuffles, deals) is resolved inside ``new_state`` and ``apply`` from the seed kept in
the state, so a record of game id, config, seed and action texts replays exactly.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import KW_ONLY, dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Generic, Protocol, TypeVar, cast

from fanfold.core.config import GameConfig, JSONObject, JSONValue
from fanfold.core.errors import (
    ConfigError,
    IllegalActionError,
    NotationError,
    Refusal,
    UnknownGameError,
    templates,
)
from fanfold.core.phrases import Phrase, phrases

#: The refusals of a set-up the game does not have (``docs/i18n.md``).
templates(
    {
        "game.no_variant": "{title} has no variant '{name}'; variants: {variants}",
        "game.seats_fixed": "{title} is for {count} players",
    }
)

phrases(
    {
        "game.notation_help": "Type one of the legal moves exactly as listed.",
        "game.to_move": "Player {number} to move",
        "game.over_because": "Game over: {reason}",
        "game.board_position": "position: {position}",
    },
    terminal=True,
)


def game_over(reason: str) -> Phrase:
    """``Game over: …`` (a game's status line once it ended), ``reason`` worded by the page
    or the terminal where it is a :class:`~fanfold.core.phrases.Phrase`."""
    return Phrase("game.over_because", reason=reason)


def drawn(lines: Sequence[Sequence[str]]) -> str:
    """A :meth:`Game.drawing` in English: each line's pieces joined, the lines by newlines."""
    return "\n".join("".join(pieces) for pieces in lines)


class View(Protocol):
    """What one player may see of a state. Frozen, comparable, and JSON-serialisable."""

    @property
    def player(self) -> int:
        """The seat this view belongs to."""
        ...

    def to_json(self) -> JSONObject:
        """The view as JSON, as the server sends it to that seat."""
        ...


class Termination(StrEnum):
    """How a game ended, for a program to read (the :class:`Outcome`'s ``reason`` is the
    sentence for a person). Each value is the text written in JSON.

    These are the built-in games' endings and the table's, the same for every game. A game
    from another package declares its own endings as a ``StrEnum`` in its package and lists
    them in its plugin (:attr:`fanfold.core.plugin.GamePlugin.terminations`): an
    :class:`Outcome`'s ``termination`` is a member of either."""

    #: Fano: a player (in Trionfey's one-for-all partnerships, a partnership) promoted its
    #: commander the times the variant needs, and wins.
    PROMOTIONS = "promotions"
    #: Fano: the turn limit was reached; a draw.
    TURN_LIMIT = "turn_limit"
    #: Fan Tan, one hand: a player went out (played their last card).
    WENT_OUT = "went_out"
    #: Fan Tan, a match: a player went out in the match's last hand.
    HANDS_PLAYED = "hands_played"
    #: Fan Tan, a match: a player went out, and some score reached the match's target.
    TARGET_REACHED = "target_reached"
    #: Morris: a player ended their turn with three of one colour or one shape on a line,
    #: and loses.
    LINE_OF_THREE = "line_of_three"
    #: Morris: a position repeated; a draw.
    REPETITION = "repetition"
    #: Morris: the player to move has no legal move, and loses; Fan: no legal move is left,
    #: and the deal is lost.
    NO_MOVE = "no_move"
    #: Fan: all 52 cards are on the foundations; the deal is won.
    ALL_ON_FOUNDATIONS = "all_on_foundations"
    #: Not an end the rules give: the arena stopped a game that went on past its limit of
    #: actions (play going round in circles).
    CUT_SHORT = "cut_short"
    # Endings of the table, not of any game's rules (:mod:`fanfold.core.rulings`): the same
    # for every game, written in a record as its ruling.
    #: A side resigned, and loses.
    RESIGNED = "resigned"
    #: The sides agreed to a draw.
    AGREED_DRAW = "agreed_draw"
    #: The game was called off before every side had moved: no result.
    ABORTED = "aborted"
    #: A side left the game, and the other claimed the win.
    ABANDONED = "abandoned"
    #: A side's clock ran out, and it loses.
    TIME_FORFEIT = "time_forfeit"


@dataclass(frozen=True)
class Outcome:
    """How a game ended: a short reason a player can read, each player's return, and the
    :class:`Termination` a program can read.

    Returns are +1 for a win and -1 for a loss in two-player games, 0 for a draw; games with
    scores (penalty points, chips) use them directly, and :attr:`winners` reads the best.
    ``by_limit`` marks a game stopped by a length limit (Fano's turn limit) rather than
    decided by play. ``termination`` is a :class:`Termination`, or a member of the game's own
    ``StrEnum`` of endings.
    """

    reason: str
    returns: tuple[float, ...]
    by_limit: bool = False
    _: KW_ONLY
    termination: StrEnum

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats with the best return, or ``()`` when every return is equal (a draw); in a
        one-player game, the player when the return is positive (a solitaire won)."""
        if len(self.returns) == 1:
            return (0,) if self.returns[0] > 0 else ()
        best = max(self.returns)
        if all(value == best for value in self.returns):
            return ()
        return tuple(seat for seat, value in enumerate(self.returns) if value == best)

    @property
    def is_draw(self) -> bool:
        """True when nobody did better than anyone else."""
        return not self.winners

    def to_json(self) -> JSONObject:
        """The outcome as JSON."""
        data: JSONObject = {
            "reason": self.reason,
            "termination": self.termination.value,
            "returns": list(self.returns),
            "winners": list(self.winners),
        }
        if self.by_limit:
            data["by_limit"] = True
        return data


@dataclass(frozen=True)
class Choice:
    """One legal action described for the player who may take it, so that a front end can
    offer it without reading the notation or knowing a rule.

    Attributes:
        text: the action's canonical notation: what a front end sends back to take it.
        kind: a short machine word for the kind of action (``"attack"``, ``"play"``,
            ``"pass"``, ``"place"``, ``"move"``...), the same for every action of that kind.
        label: a sentence in words for a player (cards named with suit symbols ♣♦♥♠).
        points: what a player points at on the board to make it, in the order they would,
            as references the game's view JSON uses for those things (each game documents
            its scheme); empty for an action taken by a button of its own.
        details: a small JSON object with what a front end shows beside it (the support an
            attack needs and whether it is held, what a combine returns...); cards are named
            by their text as the view shows them.
    """

    text: str
    kind: str
    label: str
    points: tuple[str, ...] = ()
    details: JSONObject = field(default_factory=dict)

    def to_json(self) -> JSONObject:
        """The choice as JSON, as the server sends it beside the legal texts."""
        points: list[JSONValue] = list(self.points)
        return {
            "text": self.text,
            "kind": self.kind,
            "label": self.label,
            "points": points,
            "details": dict(self.details),
        }


@dataclass(frozen=True)
class Traits:
    """What a game declares about itself, so that front ends, environments and agents ask the
    game instead of testing its name.

    Attributes:
        chance: the game deals or draws at random (its seed changes what happens).
        zero_sum: the returns of every outcome add up to 0.
        returns: the least and the most one player's return can be.
    """

    chance: bool
    zero_sum: bool
    returns: tuple[float, float]

    def __post_init__(self) -> None:
        low, high = self.returns
        if low > high:
            raise ValueError(f"returns run from the least to the most, not {self.returns}")


ConfigT = TypeVar("ConfigT", bound=GameConfig)
StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT", bound=Hashable)
ViewT = TypeVar("ViewT", bound=View)


@dataclass(frozen=True)
class Preset(Generic[ConfigT]):
    """A named variant: a config with a description and alternative names."""

    name: str
    config: ConfigT
    description: str
    aliases: tuple[str, ...] = ()
    player_counts: tuple[int, ...] = field(default=())


class Game(ABC, Generic[ConfigT, StateT, ActionT, ViewT]):
    """Base class of every game. Subclasses are stateless; all state lives in ``StateT``."""

    #: Versioned id, e.g. ``"morris.v1"``. The part before the dot is the short name.
    id: ClassVar[str]
    #: Human title, e.g. ``"Fano330-R-Morris"``.
    title: ClassVar[str]
    #: Where the rules text lives and what kind of game it is, one line.
    summary: ClassVar[str]
    #: The config dataclass.
    config_type: ClassVar[type[GameConfig]]
    #: True when some players may not see everything (hands, decks).
    has_hidden_information: ClassVar[bool] = False
    #: Chance, zero-sum and the bounds of the returns (:class:`Traits`).
    traits: ClassVar[Traits]
    #: Other names the registry finds the game by (besides its id and short name).
    aliases: ClassVar[tuple[str, ...]] = ()

    @property
    def name(self) -> str:
        """The short name, e.g. ``"morris"``."""
        return self.id.split(".")[0]

    # ----------------------------------------------------------------- variants
    @abstractmethod
    def presets(self) -> Sequence[Preset[ConfigT]]:
        """Named variants, the default first."""

    def default_config(self) -> ConfigT:
        """The config of the first preset."""
        return self.presets()[0].config

    def preset(self, name: str) -> Preset[ConfigT]:
        """Find a preset by name or alias (case-insensitive, ``_`` and ``-`` alike)."""
        wanted = _normalise(name)
        for preset in self.presets():
            if wanted in (_normalise(preset.name), *(_normalise(a) for a in preset.aliases)):
                return preset
        names = ", ".join(preset.name for preset in self.presets())
        raise UnknownGameError(
            Refusal("game.no_variant", title=self.title, name=name, variants=names)
        )

    def config_from_json(self, data: Mapping[str, Any]) -> ConfigT:
        """Read a config written by ``config.to_json()``."""
        return cast(ConfigT, self.config_type.from_json(data))

    @abstractmethod
    def num_players(self, config: ConfigT) -> int:
        """How many seats a game with this config has."""

    def seat_name(self, config: ConfigT, seat: int) -> str:
        """How players call seat ``seat`` (0-based): ``"Player 1"``, ``"White"``, ... (a
        :class:`~fanfold.core.phrases.Phrase`, so that a page words it in its language)."""
        return Phrase("game.player", number=seat + 1)

    def with_players(self, config: ConfigT, players: int) -> ConfigT:
        """The config changed to seat ``players`` (games with a fixed count refuse others)."""
        if players != self.num_players(config):
            count = self.num_players(config)
            raise ConfigError(Refusal("game.seats_fixed", title=self.title, count=count))
        return config

    def longest_game(self, config: ConfigT) -> int | None:
        """A bound on the number of actions of a game with ``config`` (turn limits, cards),
        or ``None`` when play may go on for ever (a caller then sets its own step limit)."""
        del config
        return None

    def rating_family(self, config: ConfigT) -> str:
        """The family of ``config``'s games that share a rating scale: the game's name,
        unless its variants play as different games (Fano's two editions)."""
        del config
        return self.name

    def teams(self, config: ConfigT) -> list[tuple[int, ...]]:
        """The seats that win or lose together, each team once in seat order: one seat a
        team unless the game has partnerships."""
        return [(seat,) for seat in range(self.num_players(config))]

    # ------------------------------------------------------------------ playing
    @abstractmethod
    def new_state(self, config: ConfigT, seed: int = 0) -> StateT:
        """The starting state (shuffled and dealt from ``seed`` where the game has chance)."""

    @abstractmethod
    def config_of(self, state: StateT) -> ConfigT:
        """The config a state was made with."""

    @abstractmethod
    def current_player(self, state: StateT) -> int | None:
        """The seat that decides next, or ``None`` when the game is over."""

    @abstractmethod
    def legal_actions(self, state: StateT) -> Sequence[ActionT]:
        """Every legal action for the current player, in a stable order; empty iff over."""

    @abstractmethod
    def outcome(self, state: StateT) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""

    def is_legal(self, state: StateT, action: ActionT) -> bool:
        """Whether ``action`` may be applied now."""
        return action in self.legal_actions(state)

    def explain_illegal(self, state: StateT, action: ActionT) -> str:
        """A sentence telling a player why ``action`` is not allowed here: a
        :class:`~fanfold.core.errors.Refusal` (a code, its params and the English sentence) in
        the games of this package, which the play server sends for a page to word."""
        if self.outcome(state) is not None:
            return Refusal("game.over")
        return Refusal("game.not_legal", action=str(action))

    def choices(self, state: StateT) -> list[Choice]:
        """The legal actions of the player who decides, described for that player, in the
        order of :meth:`legal_actions` (empty when the game is over).

        Built from that player's view and the legal actions only (see :meth:`choices_for`),
        so a choice never tells the player more than their view does."""
        player = self.current_player(state)
        if player is None:
            return []
        return self.choices_for(self.observe(state, player), self.legal_actions(state))

    def choices_for(self, view: ViewT, actions: Sequence[ActionT]) -> list[Choice]:
        """``actions`` (the legal actions of the seat whose view is ``view``) as choices, one
        each, in order. Games override this with words, kinds and the things to point at;
        the default names each action by its text, of kind ``"move"``."""
        del view
        return [
            Choice(text, "move", text) for text in (self.action_text(action) for action in actions)
        ]

    def passive_action(self, state: StateT) -> ActionT | None:
        """The legal action that commits the decider to nothing (pass, keep, allow...), which
        a front end plays for a player whose time to decide ran out; ``None`` when the game
        has no such action here. Games that have one in every position take a time limit per
        decision (:attr:`has_passive_action`)."""
        del state
        return None

    def can_still_win(self, state: StateT, seat: int) -> bool:
        """Whether ``seat``'s side could still win by some legal sequence of actions from
        ``state``, every seat playing any legal action (the other side helping). A table whose
        clock runs out draws instead of losing where the other side could not (chess's
        time-out against insufficient material; :mod:`fanfold.core.rulings`). The default
        says yes: games override it where the rules make it false in some positions."""
        del state, seat
        return True

    #: True when :meth:`passive_action` answers in every position where someone decides.
    has_passive_action: ClassVar[bool] = False
    #: True when the rules have drawn games, so that the sides may agree to a draw too
    #: (:mod:`fanfold.core.rulings`).
    has_draws: ClassVar[bool] = False

    def played_flags(self, state: StateT, action: ActionT) -> tuple[str, ...]:
        """Flags that playing ``action`` in ``state`` adds to the action's kind, which the
        action alone does not tell (:mod:`fanfold.core.kinds`): Fano's Trionfey attack declared
        without the support in hand is a ``bluff``. The default adds none."""
        del state, action
        return ()

    #: The kinds :meth:`played_flags` can make that no action alone has (``declare+bluff``):
    #: names a restriction or a report may use.
    played_kinds: ClassVar[tuple[str, ...]] = ()

    def apply(self, state: StateT, action: ActionT) -> StateT:
        """The state after ``action``. Raises :class:`IllegalActionError`; never mutates."""
        if not self.is_legal(state, action):
            raise IllegalActionError(self.explain_illegal(state, action))
        return self.apply_legal(state, action)

    @abstractmethod
    def apply_legal(self, state: StateT, action: ActionT) -> StateT:
        """The state after an action already known to be legal (the fast path)."""

    def apply_text(self, state: StateT, text: str) -> StateT:
        """Parse ``text`` with the game's notation and apply it."""
        return self.apply(state, self.parse_action(text))

    # ----------------------------------------------------------------- notation
    @abstractmethod
    def parse_action(self, text: str) -> ActionT:
        """Read an action's text. Raises :class:`NotationError`. ``str(action)`` is canonical."""

    def action_text(self, action: ActionT) -> str:
        """The canonical text of an action."""
        return str(action)

    def public_action_text(self, state: StateT, action: ActionT, observer: int | None) -> str:
        """How ``action``, taken in ``state``, is announced to seat ``observer`` (``None``: a
        spectator who sees only what is public). Games hide here what the rules keep secret,
        such as which cards went face down; the default is the full text. An empty text means
        the observer is told nothing: the action leaves no trace they may see."""
        return self.action_text(action)

    def ending_words(self, state: StateT) -> str | None:
        """How the game ended, in words for a person (``None`` while play goes on): the
        outcome's reason, as a :class:`~fanfold.core.phrases.Phrase` where the game words it
        so (the page words it in its reader's language; :meth:`outcome` keeps a plain
        sentence, cheap for the bots' playouts). The default is the outcome's reason."""
        ended = self.outcome(state)
        return None if ended is None else ended.reason

    def describe_action(
        self, state: StateT, action: ActionT, observer: int | None, after: StateT | None = None
    ) -> str:
        """What ``action``, taken in ``state``, did, in a sentence for the person at seat
        ``observer`` (``None``: a spectator), written from what that person may know: no more
        than :meth:`public_action_text` tells them and what their views before and after
        show. ``after`` is the state the action led to (``None``: the game applies it). Cards
        are named with suit symbols (``A♥``); the deciding seat is "You" to its own player.
        Empty when the observer is told nothing. The default is the public text."""
        del after
        return self.public_action_text(state, action, observer)

    def action_highlight(
        self, state: StateT, action: ActionT, observer: int | None, after: StateT | None = None
    ) -> tuple[str, ...]:
        """The references (in the scheme of :attr:`Choice.points`) of the things ``action``,
        taken in ``state`` (leading to ``after``, as in :meth:`describe_action`), moved, as
        ``observer`` may see them: what a front end marks on the board as the last move. Only
        things the observer's view after the action shows; the default is none."""
        del state, action, observer, after
        return ()

    def public_view(self, state: StateT) -> JSONObject:
        """What a spectator may see, as JSON, with ``"player": None``. Games without hidden
        information show seat 0's view; games with hidden information override this to leave
        out every card no spectator may see.

        Raises:
            NotImplementedError: a game with hidden information that has no spectator view.
        """
        if self.has_hidden_information:
            raise NotImplementedError(f"{self.title} has no spectator view yet")
        data = dict(self.observe(state, 0).to_json())
        data["player"] = None
        return data

    def notation_help(self) -> str:
        """How to write actions, for a player who asks (a :class:`~fanfold.core.phrases.Phrase`
        where the game words it so: the terminal words it in its language; the notation
        itself is never translated)."""
        return Phrase("game.notation_help")

    @abstractmethod
    def format_position(self, state: StateT) -> str:
        """The position in the game's notation."""

    @abstractmethod
    def parse_position(self, text: str, config: ConfigT | None = None) -> StateT:
        """A state from the game's position notation. Raises :class:`NotationError`."""

    # ------------------------------------------------------ hidden information
    @abstractmethod
    def observe(self, state: StateT, player: int) -> ViewT:
        """What ``player`` may see, built fresh from the state."""

    @abstractmethod
    def sample_state(self, view: ViewT, rng: random.Random) -> StateT:
        """A full state consistent with ``view``: hidden cards dealt at random among the
        places they could be, everything the view shows kept. For games with no hidden
        information this is the observed state itself."""

    # --------------------------------------------------------------- rendering
    @abstractmethod
    def render(self, view: ViewT) -> str:
        """The view drawn as text for a terminal (plain text, no colour codes)."""

    def drawing(self, view: ViewT) -> Sequence[Sequence[str]]:
        """:meth:`render`'s lines, each as its pieces one after the other: plain text (a
        card, the board's lines) or a :class:`~fanfold.core.phrases.Phrase` (a label, a
        sentence), so that the terminal words the labels in its language and keeps the
        rest (:func:`drawn` joins them in English). The default is each line of
        :meth:`render` as one piece."""
        return [(line,) for line in self.render(view).split("\n")]

    def reference_texts(self) -> Mapping[str, tuple[str, str]]:
        """Reference material a player can ask for by name at a prompt:
        ``name -> (one-line help, text)``. Nothing here may depend on a position."""
        return {}

    def describe(self, state: StateT) -> str:
        """One line on whose turn it is and what phase the game is in."""
        outcome = self.outcome(state)
        if outcome is not None:
            return game_over(self.ending_words(state) or outcome.reason)
        return Phrase("game.to_move", number=self.current_player(state) or 0)

    # ---------------------------------------------------------------- testing
    def invariant_violations(self, state: StateT) -> list[str]:
        """Rule invariants broken by ``state`` (empty when all hold); the conformance suite
        checks these after every action."""
        return []


_StateIn = TypeVar("_StateIn", contravariant=True)
_ActionIn = TypeVar("_ActionIn", contravariant=True)


class MoveWords(Protocol[_StateIn, _ActionIn]):
    """A game's module that tells its moves in words (``fanfold.games.<name>.words``)."""

    def describe(
        self, state: _StateIn, after: _StateIn, action: _ActionIn, observer: int | None, /
    ) -> str:
        """``action``, taken in ``state`` (leading to ``after``), in a sentence for
        ``observer``."""
        ...

    def highlight(self, action: _ActionIn, /) -> tuple[str, ...]:
        """The references of the things ``action`` moved."""
        ...


class NarratedGame(Game[ConfigT, StateT, ActionT, ViewT]):
    """A game whose words module (:meth:`move_words`) tells each move from the states before
    and after it and the observer's seat, and marks the same things for every observer:
    :meth:`describe_action` and :meth:`action_highlight` read it."""

    @abstractmethod
    def move_words(self) -> MoveWords[StateT, ActionT]:
        """The module that tells the game's moves."""

    def describe_action(
        self, state: StateT, action: ActionT, observer: int | None, after: StateT | None = None
    ) -> str:
        """The words module's sentence, with ``after`` applied here when not given."""
        done = self.apply_legal(state, action) if after is None else after
        return self.move_words().describe(state, done, action, observer)

    def action_highlight(
        self, state: StateT, action: ActionT, observer: int | None, after: StateT | None = None
    ) -> tuple[str, ...]:
        """The words module's references of what ``action`` moved."""
        del state, observer, after
        return self.move_words().highlight(action)


_Shown = TypeVar("_Shown", covariant=True)


class OpenView(View, Protocol[_Shown]):
    """A seat's view of a game with no hidden information: the whole state."""

    @property
    def state(self) -> _Shown:
        """The state, all of it."""
        ...


OpenViewT = TypeVar("OpenViewT", bound=OpenView[Any])


class OpenGame(NarratedGame[ConfigT, StateT, ActionT, OpenViewT]):
    """A narrated game with no hidden information (Fan, Morris): a seat's view is the whole
    state with the seat's number (:attr:`view_type`), and the one state consistent with a view
    is the state it shows."""

    #: The view's class, made from the seat and the state.
    view_type: Callable[[int, StateT], OpenViewT]

    def observe(self, state: StateT, player: int) -> OpenViewT:
        return self.view_type(player, state)

    def sample_state(self, view: OpenViewT, rng: random.Random) -> StateT:
        del rng
        shown: StateT = view.state
        return shown


def _normalise(name: str) -> str:
    return name.strip().lower().replace("_", "-").replace(" ", "-")


def require(condition: bool, message: str) -> None:
    """Raise :class:`NotationError` with ``message`` unless ``condition`` holds."""
    if not condition:
        raise NotationError(message)
