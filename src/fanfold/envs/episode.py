"""One game in progress for an environment: a play-layer table plus the encoding.

Every environment (PettingZoo, Gymnasium, OpenSpiel) drives its game through an
:class:`Episode`, which drives a :class:`~fanfold.play.table.Table`: learners sit in human seats
and submit actions by index; bots sit in agent seats and are stepped by the table. The episode
checks an index before anything changes (an index out of range, a masked-out action, a seat
that does not decide now are refused with a clear error and no change).

The table seats the players and makes the bots; the episode then steps the table's state with
the game's rules directly (a learner's action checked by :meth:`~fanfold.core.game.Game.apply`,
a bot's applied as chosen), without the table's record of the game, its announcements and its
version count, which no environment reads: that bookkeeping was most of a step's cost.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from fanfold.core import lab_refusals as _lab_refusals  # noqa: F401  (registers the codes)
from fanfold.core.errors import IllegalActionError, Refusal, TurnError, reason_of
from fanfold.core.records import GameRecord
from fanfold.core.registry import AnyGame
from fanfold.envs.encoding import Encoding, MaskArray
from fanfold.envs.layout import FloatArray
from fanfold.play.setup import new_table
from fanfold.play.table import HUMAN, Table

#: Steps after which an episode of a game that may go on for ever is cut short (truncated)
#: unless the caller says otherwise: Fan patience with any card allowed to fill an empty fan can
#: move a card back and forth forever, and nothing bounds the length of a Morris game.
UNBOUNDED_MAX_STEPS = 1000


def default_max_steps(game: AnyGame) -> int | None:
    """The step limit of an episode when the caller sets none: :data:`UNBOUNDED_MAX_STEPS` for
    a game with no bound of its own (:meth:`~fanfold.core.game.Game.longest_game`), none for a
    game that ends by its own rules (turn limits, empty hands)."""
    return UNBOUNDED_MAX_STEPS if game.longest_game(game.default_config()) is None else None


def quiet(message: str) -> None:
    """A ``say`` callback for agents preparing in an environment: nobody is there to read it."""
    del message


class Episode:
    """A game between learners (human seats) and bots (agent seats) at a table.

    Args:
        game: the game.
        config: the variant.
        encoding: the encoding of that variant.
        seats: ``"human"`` for a seat an environment's caller plays, or an agent's text.
        seed: the game's seed (the deal).
        agent_seed: seeds the bots (seat ``n`` gets ``agent_seed + n``).
        max_steps: actions after which the episode is truncated (``None``: never).
        start_position: a position in the game's notation to start from instead of the deal.
    """

    def __init__(
        self,
        game: AnyGame,
        config: Any,
        encoding: Encoding,
        seats: Sequence[str],
        seed: int,
        agent_seed: int = 0,
        max_steps: int | None = None,
        start_position: str | None = None,
    ) -> None:
        self.game = game
        self.encoding = encoding
        self.max_steps = max_steps
        self.table: Table = new_table(
            game,
            config,
            list(seats),
            seed=seed,
            agent_seed=agent_seed,
            start_position=start_position,
            allow_undo=False,
        )
        for seat in self.table.seats:
            if seat.agent is not None:
                seat.agent.prepare(config, quiet)
        self.steps = 0

    def __deepcopy__(self, memo: dict[int, Any]) -> Episode:
        """A copy that goes on independently: a new table at the same state and record (states
        and records are immutable), sharing the game, the encoding and the seats."""
        copy = object.__new__(Episode)
        copy.game = self.game
        copy.encoding = self.encoding
        copy.max_steps = self.max_steps
        copy.steps = self.steps
        table = self.table
        copy.table = Table(table.game, table.state, table.record, table.seats, allow_undo=False)
        return copy

    def going_on_from(self, state: Any, seed: int) -> Episode:
        """A copy that goes on from ``state`` instead (a state of the same game and variant at
        the same point, such as one whose hidden cards were re-dealt consistently with a
        seat's view): same seats and step count, a record that starts at that position with
        ``seed`` (the state's own seed, named in its position)."""
        copy = self.__deepcopy__({})
        game = self.game
        record = GameRecord.start(
            game,
            game.config_of(state),
            seed,
            start_position=game.format_position(state),
            players=self.table.record.players,
        )
        copy.table = Table(game, state, record, self.table.seats, allow_undo=False)
        return copy

    def _known(self) -> Any:
        """The table's state, with what is known of it (the mover, the legal actions)
        forgotten when the state has changed since it was asked."""
        state = self.table.state
        if state is not getattr(self, "_known_state", None):
            self._known_state = state
            self._known_mover: tuple[int | None] | None = None  # None: not asked yet
            self._known_legal: Sequence[Any] | None = None
        return state

    def _mover(self) -> int | None:
        """The seat the rules say decides now (``None``: the game is over), asked once per
        state."""
        state = self._known()
        if self._known_mover is None:
            self._known_mover = (self.game.current_player(state),)
        return self._known_mover[0]

    def _legal(self) -> Sequence[Any]:
        """The decider's legal actions, asked once per state."""
        state = self._known()
        if self._known_legal is None:
            self._known_legal = self.game.legal_actions(state)
        return self._known_legal

    @property
    def decider(self) -> int | None:
        """The seat that decides now, or ``None`` when the game is over or truncated."""
        return None if self.is_truncated else self._mover()

    @property
    def is_terminal(self) -> bool:
        """True when the game has ended by its rules."""
        return self._mover() is None

    @property
    def is_truncated(self) -> bool:
        """True when the step limit cut the game short before its end."""
        return self.max_steps is not None and self.steps >= self.max_steps and not self.is_terminal

    def returns(self) -> tuple[float, ...]:
        """Each seat's return: the outcome's, or all 0 while the game goes on (or was cut)."""
        outcome = self.table.outcome
        if outcome is None:
            return (0.0,) * len(self.table.seats)
        return outcome.returns

    def observation(self, seat: int) -> FloatArray:
        """``seat``'s observation tensor, built from its view."""
        return self.encoding.observation(self.table.view(seat))

    def legal_indices(self) -> list[int]:
        """The decider's legal action indices (empty when nobody decides)."""
        seat = self.decider
        if seat is None:
            return []
        return self.encoding.legal_indices(seat, self._legal())

    def mask(self, seat: int) -> MaskArray:
        """``seat``'s action mask: its legal actions when it decides now, else all 0."""
        if seat != self.decider:
            return np.zeros(self.encoding.num_actions, dtype=np.int8)
        return self.encoding.legal_mask(seat, self._legal())

    def act(self, seat: int, index: Any) -> None:
        """Apply the action at ``index`` for ``seat``.

        Raises:
            TurnError: ``seat`` does not decide now (or the episode is over).
            IllegalActionError: ``index`` is not an integer in range, or its action is illegal
                here. Nothing changes.
        """
        if self.decider is None:
            raise TurnError(Refusal("envs.episode_over"))
        if seat != self.decider:
            raise TurnError(Refusal("envs.not_deciding", seat=seat, decider=self.decider))
        table = self.table
        table.state = apply_index(self.game, self.encoding, table.state, seat, index)
        self.steps += 1

    def play_bots(self) -> None:
        """Let the bots play until a learner decides, the game ends or the step limit is hit."""
        table, game = self.table, self.game
        while not self.is_truncated:
            seat = self._mover()
            agent = None if seat is None else table.seats[seat].agent
            if seat is None or agent is None:
                return
            # as the table's agent_choice: the seat's view and its legal actions (an
            # environment's seats have no restrictions)
            action = agent.choose(game.observe(table.state, seat), self._legal())
            table.state = game.apply_legal(table.state, action)
            self.steps += 1


def apply_index(game: AnyGame, encoding: Encoding, state: Any, seat: int, index: Any) -> Any:
    """The state after ``seat`` (the decider) takes the action at ``index`` in ``state``.

    Raises:
        IllegalActionError: ``index`` is not an integer in range, or its action is illegal
            here (the sentence says which action and why).
    """
    number = as_index(index)
    action = encoding.action(seat, number)
    try:
        return game.apply(state, action)
    except IllegalActionError as error:
        raise IllegalActionError(
            Refusal(
                "envs.not_legal_here",
                number=number,
                action=game.action_text(action),
                reason=reason_of(error),
            )
        ) from None


def as_index(index: Any) -> int:
    """An action index as an ``int``.

    Raises:
        IllegalActionError: not an integer (``bool``, ``float`` and ``None`` are refused).
    """
    if isinstance(index, bool) or not isinstance(index, int | np.integer):
        if isinstance(index, np.ndarray) and index.shape == () and index.dtype.kind in "iu":
            return int(index)
        raise IllegalActionError(Refusal("envs.not_an_index", value=repr(index)))
    return int(index)


def seat_names(players: int, learners: Sequence[int], opponents: Sequence[str]) -> list[str]:
    """Seat texts: ``"human"`` for each learner seat, the opponents' texts in the others."""
    others = [seat for seat in range(players) if seat not in learners]
    if len(opponents) != len(others):
        raise ValueError(
            f"{len(others)} opponent seat(s) to fill, but {len(opponents)} opponent(s) given"
        )
    names = [HUMAN] * players
    for seat, text in zip(others, opponents, strict=True):
        names[seat] = text
    return names


def draw_seed(rng: np.random.Generator) -> int:
    """A game seed from an environment's generator."""
    return int(rng.integers(0, 2**31 - 1))


def table_seeds(seed: int | Sequence[int | None] | None, tables: int) -> list[int | None]:
    """The seed of each of ``tables`` tables dealt at once: from one int, table ``i`` gets
    ``seed + i``; from a list, one per table; ``None``, none.

    Raises:
        ValueError: a list of seeds not one per table.
    """
    if seed is None or isinstance(seed, int):
        return [None if seed is None else seed + index for index in range(tables)]
    seeds = list(seed)
    if len(seeds) != tables:
        raise ValueError(f"{len(seeds)} seeds for {tables} tables")
    return seeds
