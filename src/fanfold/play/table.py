"""A :class:`Table`: one game in progress, the thing every front end drives.

A table holds the game, its seats (a human or an agent each), the state, the record and a
version number that grows with every change. Front ends never keep their own loop: the terminal,
the server, the arena and the balance lab all submit text for a seat, step the agents, and read
views and announcements from here::

    >>> from fanfold.core.registry import get_game
    >>> from fanfold.play.setup import new_table
    >>> table = new_table(get_game("morris"), seats=["human", "random"], seed=1)
    >>> table.decider, table.version
    (0, 0)
    >>> played = table.submit(0, "C1", version=0)
    >>> played.text, table.version, table.decider
    ('C1', 1, 1)
    >>> len(table.play_agents()), table.decider
    (1, 0)

Every refusal (a seat that is not the one to decide, a stale version, text that does not parse,
an action the rules forbid) raises the matching :class:`~fanfold.core.errors.FanfoldError` and
changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import fanfold.play.refusals  # noqa: F401  (registers the refusals' templates)
from fanfold.agents.base import AnyAgent
from fanfold.core.config import GameConfig
from fanfold.core.errors import Refusal, StaleVersionError, TurnError
from fanfold.core.game import Outcome
from fanfold.core.kinds import allowed
from fanfold.core.records import GameRecord
from fanfold.core.registry import AnyGame
from fanfold.core.rulings import Ruling, RulingError, check_ruling, ruled_outcome

HUMAN = "human"


#: Actions after which bots stop playing a game as endless: over five times the longest game
#: the turn limits allow (random Fano players at eight seats reach the limit in about 3,600
#: actions), but in Fan patience with any card allowed into an empty fan play can go round in
#: circles for ever, a card moved to an empty fan and back.
ENDLESS = 20_000


@dataclass(frozen=True)
class Seat:
    """Who sits at a seat: a human (``agent`` is ``None``) or an agent.

    Attributes:
        player: ``"human"`` or the agent's canonical text (``"mcts(iterations=500)"``).
        agent: the agent, or ``None`` for a human.
        forbidden: action kinds this seat's agent is not offered (an experiment's restriction,
            e.g. ``("oversum",)``; see :mod:`fanfold.core.kinds`). The table tells every
            seat's agent all the seats' restrictions when it is made
            (:meth:`~fanfold.agents.base.Agent.restrict`).
    """

    player: str
    agent: AnyAgent | None = None
    forbidden: tuple[str, ...] = ()

    @property
    def is_human(self) -> bool:
        """True for a seat whose decisions a person submits."""
        return self.agent is None


@dataclass(frozen=True)
class Played:
    """One applied action, as the table remembers it.

    Attributes:
        number: 1 for the first action of the game, 2 for the next, ...
        seat: who decided it.
        action: the action value.
        text: its canonical text (what the deciding seat and the record see).
        before: the state it was applied to (what announcements are computed from).
    """

    number: int
    seat: int
    action: Any
    text: str
    before: Any = field(repr=False)


@dataclass(frozen=True)
class Told:
    """An action as one observer is told it (:meth:`Table.told`).

    Attributes:
        text: the action in the game's notation, as that observer may see it.
        words: what happened, in a sentence for a person.
        highlight: the references of what moved, to mark on the board.
    """

    text: str
    words: str
    highlight: tuple[str, ...]


@dataclass
class _Snapshot:
    state: Any
    record: GameRecord
    played: int


@dataclass(frozen=True)
class TableCheckpoint:
    """A table's game at one moment (:meth:`Table.checkpoint`)."""

    state: Any
    record: GameRecord
    played: tuple[Played, ...]
    past: tuple[_Snapshot, ...]
    version: int


class Table:
    """One game in progress.

    Args:
        game: the game.
        state: the state to start from (dealt from the record's seed, or a loaded position).
        record: the record so far (its actions lead from the start to ``state``).
        seats: one per player, in seat order.
        allow_undo: whether :meth:`undo` may take moves back (a front end may forbid it);
            without it the table keeps only what :meth:`take_back` needs, the last action's.
    """

    def __init__(
        self,
        game: AnyGame,
        state: Any,
        record: GameRecord,
        seats: Sequence[Seat],
        *,
        allow_undo: bool = True,
    ) -> None:
        config = game.config_of(state)
        if len(seats) != game.num_players(config):
            raise ValueError(
                f"{game.title} with this variant has {game.num_players(config)} seats, "
                f"not {len(seats)}"
            )
        self.game = game
        self.config: GameConfig = config
        self.seats = tuple(seats)
        self.state = state
        self.record = record
        self.allow_undo = allow_undo
        self.version = 0
        self.played: list[Played] = []
        #: A table-level ending (resign, agreed draw, abort) that ended the game, if any.
        self.ruling: Ruling | None = None
        #: The outcome :attr:`ruling` gives, worked out once (a time-out asks the game
        #: whether the other side could still have won, a search).
        self._ruled: Outcome | None = None
        self._past: list[_Snapshot] = []
        self._told: dict[tuple[int, int | None], tuple[Played, Told | None]] = {}
        restrictions = tuple(seat.forbidden for seat in self.seats)
        if any(restrictions):
            for seat in self.seats:
                if seat.agent is not None:
                    seat.agent.restrict(restrictions)

    # ----------------------------------------------------------------- reading
    @property
    def decider(self) -> int | None:
        """The seat that decides next, or ``None`` when the game is over."""
        if self.ruling is not None:
            return None
        return self.game.current_player(self.state)

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""
        if self.ruling is not None:
            if self._ruled is None:
                self._ruled = ruled_outcome(self.game, self.state, self.ruling)
            return self._ruled
        return self.game.outcome(self.state)

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.decider is None

    @property
    def humans(self) -> tuple[int, ...]:
        """The seats people play."""
        return tuple(number for number, seat in enumerate(self.seats) if seat.is_human)

    def seat_name(self, seat: int) -> str:
        """The game's name for a seat: ``"White"``, ``"Player 3"``, ..."""
        return self.game.seat_name(self.config, seat)

    def legal_actions(self) -> Sequence[Any]:
        """The decider's legal actions (empty once the game is over)."""
        if self.ruling is not None:
            return ()
        return self.game.legal_actions(self.state)

    def legal_texts(self) -> list[str]:
        """The decider's legal actions in the game's notation."""
        return [self.game.action_text(action) for action in self.legal_actions()]

    def view(self, seat: int) -> Any:
        """What ``seat`` may see now, built fresh from the state."""
        return self.game.observe(self.state, seat)

    def announcement(self, played: Played, observer: int | None) -> str:
        """How ``played`` is announced to ``observer`` (``None``: a spectator): the game hides
        what that observer may not see, such as which cards went face down."""
        if observer == played.seat:
            return played.text
        return self.game.public_action_text(played.before, played.action, observer)

    def told(self, played: Played, observer: int | None) -> Told | None:
        """What ``observer`` (``None``: a spectator) is told of ``played``: the notation (as
        :meth:`announcement`), the game's sentence in words and the references to mark on the
        board (:meth:`~fanfold.core.game.Game.describe_action`,
        :meth:`~fanfold.core.game.Game.action_highlight`); ``None`` when the observer is told
        nothing. Kept per action and observer, so a long log is described once."""
        key = (played.number, observer)
        kept = self._told.get(key)
        if kept is not None and kept[0] is played:
            return kept[1]
        text = self.announcement(played, observer)
        told = None
        if text:
            game = self.game
            after = self._after(played)
            words = game.describe_action(played.before, played.action, observer, after) or text
            marks = game.action_highlight(played.before, played.action, observer, after)
            told = Told(text, words, marks)
        self._told[key] = (played, told)
        return told

    def _after(self, played: Played) -> Any:
        """The state ``played`` led to: the next action's ``before``, or the state now."""
        index = played.number
        if not 0 < index <= len(self.played) or self.played[index - 1] is not played:
            return None
        return self.played[index].before if index < len(self.played) else self.state

    def log(self, observer: int | None) -> list[str]:
        """Every action so far as ``observer`` was told it (those it was not told of left out)."""
        return [text for played in self.played if (text := self.announcement(played, observer))]

    # ---------------------------------------------------------------- changing
    def submit(self, seat: int, text: str, version: int | None = None) -> Played:
        """Parse ``text`` with the game's notation and apply it for ``seat``.

        Args:
            seat: the seat submitting.
            text: the action in the game's notation.
            version: the version the submitter saw; ``None`` skips the check.

        Raises:
            StaleVersionError: the table has moved on since ``version``.
            TurnError: ``seat`` is not the one to decide now (or the game is over).
            NotationError: the text does not parse.
            IllegalActionError: the rules forbid the action here.
        """
        self._check_turn(seat, version)
        return self._apply(seat, self.game.parse_action(text))

    def submit_action(self, seat: int, action: Any, version: int | None = None) -> Played:
        """Apply an action value for ``seat``, with the checks of :meth:`submit`."""
        self._check_turn(seat, version)
        return self._apply(seat, action)

    def agent_to_move(self) -> int | None:
        """The seat whose agent decides next, or ``None`` when a human decides or the game is
        over."""
        seat = self.decider
        if seat is None or self.seats[seat].agent is None:
            return None
        return seat

    def agent_choice(self, seat: int) -> Any:
        """What ``seat``'s agent chooses now, from its view and the legal actions; nothing is
        applied (a front end may run this off its event loop, then submit it with
        :meth:`submit_action` and the version it was asked on).

        Raises:
            TurnError: ``seat`` has no agent or does not decide now.
        """
        agent = self.seats[seat].agent if 0 <= seat < len(self.seats) else None
        if agent is None or seat != self.decider:
            raise TurnError(Refusal("table.agent_not_now", seat=self.seat_name(seat)))
        return agent.choose(self.game.observe(self.state, seat), self.offered(seat))

    def offered(self, seat: int) -> Sequence[Any]:
        """The legal actions ``seat``'s agent is offered: all of them, less the kinds its
        seat's restriction forbids; all of them again when the restriction would leave none
        (a seat must act, so a restriction yields where the rules leave no other choice)."""
        legal = self.game.legal_actions(self.state)
        forbidden = self.seats[seat].forbidden
        if not forbidden:
            return legal
        return allowed(self.game, self.state, legal, forbidden) or legal

    def step(self) -> Played | None:
        """Let the agent whose decision it is choose and apply; ``None`` when the decider is a
        human or the game is over."""
        seat = self.agent_to_move()
        if seat is None:
            return None
        return self._apply(seat, self.agent_choice(seat))

    def play_agents(
        self, on_played: Callable[[Played], None] | None = None, max_actions: int = 1_000_000
    ) -> list[Played]:
        """Step agents until a human must decide or the game ends; returns what they played.

        Raises:
            RuntimeError: more than ``max_actions`` actions without reaching either (a game
                whose agents never finish).
        """
        played: list[Played] = []
        for _ in range(max_actions):
            step = self.step()
            if step is None:
                return played
            played.append(step)
            if on_played is not None:
                on_played(step)
        raise RuntimeError(f"{self.game.title} did not end within {max_actions} actions")

    def rule(self, ruling: Ruling, *, offered: int | None = None, agreed: bool = False) -> None:
        """End the game by a table-level ending (:mod:`fanfold.core.rulings`): a resignation,
        a draw accepted from an ``offered`` seat (``agreed``: a record's draw, taken as
        agreed), or an abort. The version moves on.

        Raises:
            RulingError: the ending may not be made here (nothing changes).
        """
        if self.ruling is not None:
            raise RulingError(Refusal("table.ruled_already"))
        movers = [played.seat for played in self.played]
        check_ruling(self.game, self.state, ruling, movers, offered=offered, agreed=agreed)
        self.ruling = ruling
        self._ruled = None
        self.version += 1

    def unrule(self) -> None:
        """Take back the ruling :meth:`rule` just made (a front end whose store refused to
        keep it); the version goes back with it."""
        if self.ruling is not None:
            self.ruling = None
            self._ruled = None
            self.version -= 1

    def _undo_point(self) -> int | None:
        """Where :meth:`undo` would take the game back to: the index in the past of the last
        position a human decided in, or ``None`` when undo is not allowed or no human has
        decided yet (only bots moved: there is nothing of a person's to take back)."""
        if not self.allow_undo or self.ruling is not None:
            return None
        for index in range(len(self._past) - 1, -1, -1):
            player = self.game.current_player(self._past[index].state)
            if player is not None and self.seats[player].is_human:
                return index
        return None

    @property
    def can_undo(self) -> bool:
        """Whether :meth:`undo` would take anything back now."""
        return self._undo_point() is not None

    def undo(self) -> bool:
        """Take moves back until a human decides again, before that human's last decision.

        Returns:
            False (with nothing changed) when undo is not allowed here or there is nothing
            to take back (:attr:`can_undo`).
        """
        index = self._undo_point()
        if index is None:
            return False
        snapshot = self._past[index]
        del self._past[index:]
        self.state, self.record = snapshot.state, snapshot.record
        del self.played[snapshot.played :]
        self.version += 1
        return True

    def rewind(self, keep: int) -> bool:
        """Take the game back to just after the first ``keep`` actions this table played,
        whoever played the ones after (a takeback the players agreed to, which undo does not
        need to allow). The version moves on.

        Returns:
            False (with nothing changed) when the game was ruled (resigned, drawn, aborted)
            or nothing was played after the first ``keep`` actions.
        """
        if self.ruling is not None or not 0 <= keep < len(self.played):
            return False
        first = self.played[keep]
        earlier = len(self.record.actions) - len(self.played)  # a loaded record's own actions
        self.state = first.before
        self.record = GameRecord(
            self.record.game,
            self.record.config,
            self.record.seed,
            self.record.actions[: earlier + keep],
            self.record.start_position,
            self.record.players,
        )
        del self.played[keep:]
        self._past[:] = [snapshot for snapshot in self._past if snapshot.played < keep]
        self._told.clear()
        self.version += 1
        return True

    def checkpoint(self) -> TableCheckpoint:
        """Where the game stands now, for :meth:`restore` (a front end that must undo an
        :meth:`undo` its store refused to keep)."""
        return TableCheckpoint(
            self.state, self.record, tuple(self.played), tuple(self._past), self.version
        )

    def restore(self, checkpoint: TableCheckpoint) -> None:
        """Put the game back where :meth:`checkpoint` found it: state, record, the actions
        played, what undo can take back, and the version."""
        self.state, self.record = checkpoint.state, checkpoint.record
        self.played[:] = checkpoint.played
        self._past[:] = checkpoint.past
        self.version = checkpoint.version

    def take_back(self) -> Played:
        """Remove the last action whoever played it, as if it had never been submitted (a
        front end whose store refused to keep it): the table is back at the version it had
        before, so every acknowledged action is exactly one version and the next one takes
        the number the removed action had. Only for an action nobody was told of.

        Raises:
            ValueError: nothing has been played.
        """
        if not self._past:
            raise ValueError("nothing to take back")
        snapshot = self._past.pop()
        self.state, self.record = snapshot.state, snapshot.record
        last = self.played.pop()
        self.version -= 1
        return last

    def finish(self) -> GameRecord:
        """The record with the outcome written in when the game has ended."""
        outcome = self.outcome
        if outcome is None:
            return self.record
        return GameRecord(
            self.record.game,
            self.record.config,
            self.record.seed,
            self.record.actions,
            self.record.start_position,
            self.record.players,
            outcome.to_json(),
            self.ruling.to_json() if self.ruling is not None else None,
        )

    # ----------------------------------------------------------------- helpers
    def _check_turn(self, seat: int, version: int | None) -> None:
        if version is not None and version != self.version:
            raise StaleVersionError(Refusal("table.stale", version=version, now=self.version))
        decider = self.decider
        if decider is None:
            raise TurnError(Refusal("table.over"))
        if not 0 <= seat < len(self.seats):
            raise TurnError(Refusal("table.no_seat", seat=seat + 1))
        if seat != decider:
            deciding, acting = self.seat_name(decider), self.seat_name(seat)
            raise TurnError(Refusal("table.not_your_decision", decider=deciding, seat=acting))

    def _apply(self, seat: int, action: Any) -> Played:
        before = self.state
        after = self.game.apply(before, action)  # raises IllegalActionError, nothing changed
        if not self.allow_undo:
            # Only take_back (of the last action) can use the past: keeping every snapshot
            # (each with the record so far) would grow with the square of the game's length.
            self._past.clear()
        self._past.append(_Snapshot(before, self.record, len(self.played)))
        self.state = after
        self.record = self.record.extend(self.game, action)
        self.version += 1
        played = Played(
            len(self.record.actions), seat, action, self.game.action_text(action), before
        )
        self.played.append(played)
        return played
