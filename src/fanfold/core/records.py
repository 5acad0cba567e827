"""Game records: game id, config, seed and action texts, as JSON, that replay exactly.

>>> from fanfold.core.registry import get_game
>>> game = get_game("morris")
>>> record = GameRecord.start(game, game.default_config(), seed=0)
>>> record = record.extend(game, "C1")
>>> GameRecord.from_json(record.to_json()) == record
True
>>> game.format_position(record.replay())
'C/-/-/-/-/-/- b'
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fanfold.core.config import JSONObject, JSONValue
from fanfold.core.errors import FanfoldError, RecordError, Refusal, reason_of, templates
from fanfold.core.files import UnreadableFileError, read_text
from fanfold.core.game import Outcome
from fanfold.core.pauses import pause_point
from fanfold.core.registry import AnyGame, get_game
from fanfold.core.rulings import Ruling, check_ruling, ruled_outcome

#: The record format written now: the seed is a string of decimal digits, since a seed of a
#: dealt game has 128 bits and JSON readers (a browser's among them) keep numbers to 53.
RECORD_FORMAT = "fanfold.record/2"
#: The first format, with the seed as a JSON number; such records still load.
RECORD_FORMAT_1 = "fanfold.record/1"
#: The most digits a seed may have in a record (a 128-bit seed has 39).
MAX_SEED_DIGITS = 60
#: Actions replayed between two pause points of :meth:`GameRecord.states` (a few ms of work).
REPLAY_PAUSE_EVERY = 16

#: Why a record does not load (a broken or forged file, a record sent to the play server): each
#: reason a code, worded in the reader's language where a page or the terminal has one.
templates(
    {
        "record.not_object": "a record must be a JSON object",
        "record.not_json": "the record is not valid JSON (line {line}, column {column})",
        "record.not_fanfold": "not a fanfold record (expected format '{format}')",
        "record.bad_game": "the record's 'game' must be a game id",
        "record.bad_config": "the record's 'config' must be an object",
        "record.bad_actions": "the record's 'actions' must be a list of action texts",
        "record.bad_start": "the record's 'start_position' must be text",
        "record.bad_players": "the record's 'players' must be a list of names",
        "record.bad_outcome": "the record's 'outcome' must be an object",
        "record.bad_ruling": "the record's 'ruling' must be an object",
        "record.invalid_config": "the record's game or config is not valid: {reason}",
        "record.seed_digits": "the record's 'seed' must be a string of decimal digits",
        "record.seed_long": "the record's 'seed' has more than {digits} digits",
        "record.seed_whole": "the record's 'seed' must be a whole number",
        "record.unreadable": "cannot read {path}: {reason}",
        "record.no_start": "the record's start cannot be built: {reason}",
        "record.no_replay": "action {number} ('{text}') does not replay: {reason}",
        "record.ruling": "the record's ruling does not stand: {reason}",
        "record.after_end": "the record goes on after the game ended",
        "record.outcome_unfinished": "the record gives an outcome, but its game is unfinished "
        "after its actions",
        "record.outcome_differs": "the record's outcome (returns {stored}) is not its game's: "
        "its actions give returns {real}",
    }
)


@dataclass(frozen=True)
class GameRecord:
    """A replayable game: everything needed to rebuild every state exactly.

    Attributes:
        game: the versioned game id.
        config: the variant config as JSON.
        seed: the seed the game was dealt from.
        actions: the action texts in order.
        start_position: a position to start from instead of the dealt start (puzzles, tests).
        players: a label per seat (``"human"``, ``"perfect"``, ...), for the reader.
        outcome: the outcome as JSON when the game ended, for the reader; replay recomputes it.
        ruling: a table-level ending after the actions (a resignation, an agreed draw, an
            abort: :class:`fanfold.core.rulings.Ruling` as JSON), checked by :meth:`states`.
    """

    game: str
    config: JSONObject
    seed: int
    actions: tuple[str, ...] = ()
    start_position: str | None = None
    players: tuple[str, ...] = ()
    outcome: JSONObject | None = field(default=None, compare=False)
    ruling: JSONObject | None = None

    @classmethod
    def start(
        cls,
        game: AnyGame,
        config: Any,
        seed: int,
        *,
        start_position: str | None = None,
        players: Sequence[str] = (),
    ) -> GameRecord:
        """An empty record for a new game."""
        return cls(
            game=game.id,
            config=config.to_json(),
            seed=seed,
            start_position=start_position,
            players=tuple(players),
        )

    def extend(self, game: AnyGame, action: object) -> GameRecord:
        """The record with one more action (an action value or its text)."""
        text = action if isinstance(action, str) else game.action_text(action)
        return GameRecord(
            self.game,
            self.config,
            self.seed,
            (*self.actions, text),
            self.start_position,
            self.players,
            self.outcome,
            self.ruling,
        )

    def initial_state(self) -> Any:
        """The state before the first action."""
        game = get_game(self.game)
        config = game.config_from_json(self.config)
        if self.start_position is not None:
            return game.parse_position(self.start_position, config)
        return game.new_state(config, self.seed)

    def states(self) -> list[Any]:
        """Every state of the game, the start first. Raises :class:`RecordError`. A long
        replay has a :func:`~fanfold.core.pauses.pause_point` every :data:`REPLAY_PAUSE_EVERY`
        actions (a review's step may wait there for live play)."""
        game = get_game(self.game)
        try:
            state = self.initial_state()
        except FanfoldError as error:
            raise RecordError(Refusal("record.no_start", reason=reason_of(error))) from error
        states = [state]
        for number, text in enumerate(self.actions, start=1):
            if not number % REPLAY_PAUSE_EVERY:
                pause_point()
            try:
                state = game.apply_text(state, text)
            except FanfoldError as error:
                raise RecordError(
                    Refusal("record.no_replay", number=number, text=text, reason=reason_of(error))
                ) from error
            states.append(state)
        if self.ruling is not None:
            self._check_ruling(game, states)
        return states

    def check_outcome(self, states: Sequence[Any]) -> None:
        """Raise :class:`RecordError` when the record's stored outcome is not the one its
        replay (``states``, from :meth:`states`) reaches: its returns and winners, the reason's
        words aside (they may change between versions). A record edited by hand, or pieced
        together from two games, is caught here; a record without an outcome passes."""
        if self.outcome is None:
            return
        game = get_game(self.game)
        final = states[-1]
        outcome: Outcome | None = (
            ruled_outcome(game, final, Ruling.from_json(self.ruling))
            if self.ruling is not None
            else game.outcome(final)
        )
        if outcome is None:
            raise RecordError(Refusal("record.outcome_unfinished"))
        real = outcome.to_json()
        stored_returns = self.outcome.get("returns")
        winners = self.outcome.get("winners", real["winners"])
        if stored_returns != real["returns"] or winners != real["winners"]:
            raise RecordError(
                Refusal(
                    "record.outcome_differs",
                    stored=json.dumps(stored_returns),
                    real=json.dumps(real["returns"]),
                )
            )

    def _check_ruling(self, game: AnyGame, states: Sequence[Any]) -> None:
        """Raise :class:`RecordError` unless the record's ruling could be made where the
        record puts it (a record of a finished game: an agreed draw's offer is taken as
        made)."""
        try:
            ruling = Ruling.from_json(self.ruling)
            movers = [game.current_player(state) for state in states[:-1]]
            check_ruling(
                game,
                states[-1],
                ruling,
                [seat for seat in movers if seat is not None],
                agreed=True,
            )
        except FanfoldError as error:
            raise RecordError(Refusal("record.ruling", reason=reason_of(error))) from error

    def replay(self) -> Any:
        """The final state."""
        return self.states()[-1]

    def to_json(self) -> JSONObject:
        """The record as a JSON object."""
        data: JSONObject = {
            "format": RECORD_FORMAT,
            "game": self.game,
            "config": self.config,
            "seed": str(self.seed),
            "actions": list(self.actions),
        }
        if self.start_position is not None:
            data["start_position"] = self.start_position
        if self.players:
            data["players"] = list(self.players)
        if self.outcome is not None:
            data["outcome"] = self.outcome
        if self.ruling is not None:
            data["ruling"] = self.ruling
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameRecord:
        """Read a record; a malformed one raises :class:`RecordError` with the reason."""
        if not isinstance(data, Mapping):
            raise RecordError(Refusal("record.not_object"))
        form = data.get("format")
        if form not in (RECORD_FORMAT, RECORD_FORMAT_1):
            raise RecordError(Refusal("record.not_fanfold", format=RECORD_FORMAT))
        game, config = data.get("game"), data.get("config")
        seed = _read_seed(data.get("seed"), text=form == RECORD_FORMAT)
        actions, start = data.get("actions"), data.get("start_position")
        players, outcome = data.get("players", []), data.get("outcome")
        if not isinstance(game, str):
            raise RecordError(Refusal("record.bad_game"))
        if not isinstance(config, dict):
            raise RecordError(Refusal("record.bad_config"))
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise RecordError(Refusal("record.bad_actions"))
        if start is not None and not isinstance(start, str):
            raise RecordError(Refusal("record.bad_start"))
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise RecordError(Refusal("record.bad_players"))
        if outcome is not None and not isinstance(outcome, dict):
            raise RecordError(Refusal("record.bad_outcome"))
        ruling = data.get("ruling")
        if ruling is not None and not isinstance(ruling, dict):
            raise RecordError(Refusal("record.bad_ruling"))
        try:
            get_game(game).config_from_json(config)
        except FanfoldError as error:
            raise RecordError(Refusal("record.invalid_config", reason=reason_of(error))) from error
        return cls(game, config, seed, tuple(actions), start, tuple(players), outcome, ruling)

    def dumps(self) -> str:
        """The record as JSON text."""
        return json.dumps(self.to_json(), indent=2) + "\n"

    @classmethod
    def loads(cls, text: str) -> GameRecord:
        """Read a record from JSON text."""
        try:
            data: JSONValue = json.loads(text)
        except json.JSONDecodeError as error:
            raise RecordError(
                Refusal("record.not_json", line=error.lineno, column=error.colno)
            ) from error
        if not isinstance(data, dict):
            raise RecordError(Refusal("record.not_object"))
        return cls.from_json(data)

    def save(self, path: str | Path) -> None:
        """Write the record to a file."""
        Path(path).write_text(self.dumps(), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """Read a record from a file."""
        try:
            text = read_text(path)
        except UnreadableFileError as error:
            raise RecordError(
                Refusal("record.unreadable", path=str(path), reason=error.why)
            ) from None
        return cls.loads(text)


def _read_seed(value: object, *, text: bool) -> int:
    """A record's seed: decimal digits in a string (``text``, the current format), a whole
    number in the first format."""
    if text:
        if not isinstance(value, str) or not value.isascii() or not value.isdigit():
            raise RecordError(Refusal("record.seed_digits"))
        if len(value) > MAX_SEED_DIGITS:
            raise RecordError(Refusal("record.seed_long", digits=MAX_SEED_DIGITS))
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(Refusal("record.seed_whole"))
    return value
