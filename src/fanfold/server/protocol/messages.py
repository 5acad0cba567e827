"""What the server pushes on a WebSocket, each message a model defined here once: a seat's
:class:`State` (built by :func:`~fanfold.server.protocol.views.state_for`), :class:`Ok` and
:class:`Error` answers, the table's chat (:class:`Chat`, :class:`ChatRoom`), a restart's
notice (:class:`Restarting`) and the lobby's :class:`LobbyTables`; a :class:`Replay` frame
goes over HTTP. Whoever sends one builds its model and serialises it with
:func:`~fanfold.server.protocol.sending.wire`: the fields it was given, as ``json.dumps`` writes
them, in the model's order (an outcome's keys in the game record's order).

Every message on a socket carries ``"protocol": PROTOCOL`` and its ``type``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Protocol

from pydantic import Field, TypeAdapter

from fanfold.server.protocol.base import PROTOCOL, Ending, Out
from fanfold.server.protocol.review_messages import Review, ReviewAnswer


class GameName(Out):
    name: str
    id: str
    title: str


class SeatInfo(Out):
    """A seat as the table's watchers see it."""

    seat: int
    name: str
    player: str
    bot: bool
    yours: bool
    #: A friend's seat waiting for its invitation to be claimed.
    open: bool
    #: A connection holds the seat now.
    present: bool
    #: The seat's name as a code and params (``fanfold.core.phrases.Phrase``), where the
    #: game words it so: the page words it in its reader's language.
    said: dict[str, Any] | None = None


class LogEntry(Out):
    """An action as a watcher was told it (an action it is not told of has no entry)."""

    number: int
    seat: int
    #: The action in the game's notation, as this watcher may see it.
    text: str
    #: What happened, in a sentence written for this watcher (cards with suit symbols).
    words: str | None = None
    #: The references (as choices' ``points``) of what moved, to mark on the board.
    highlight: list[str] = Field(default_factory=list)
    #: ``words`` as a code and params (``fanfold.core.phrases.Phrase``), where the game words
    #: it so: the page words it in its reader's language, from the catalogue's template.
    said: dict[str, Any] | None = None


class Outcome(Out):
    """How the game ended (``Outcome.to_json()``): a sentence, each seat's return, the
    winners; ``by_limit`` when a length limit stopped it, ``termination`` a machine-readable
    reason where the game gives one. A socket sends the keys in the game record's order
    (:data:`~fanfold.server.protocol.sending.SOCKET_OUTCOME_ORDER`,
    :func:`~fanfold.server.protocol.sending.as_json`), an HTTP answer in this model's."""

    reason: str
    returns: list[int | float]
    winners: list[int]
    by_limit: bool | None = None
    termination: str | None = None
    #: ``reason`` as a code and params (``fanfold.core.phrases.Phrase``), where the game
    #: words it so; sent after the record's keys.
    said: dict[str, Any] | None = None


class Choice(Out):
    """A legal action described for pointing at it (``fanfold.core.game.Choice``): the text
    to send back, a kind, a label in words, the references pointed at, and details."""

    text: str
    kind: str
    label: str
    points: list[str]
    details: dict[str, Any]
    #: ``label`` as a code and params (``fanfold.core.phrases.Phrase``), where the game words
    #: it so: the page words it in its reader's language.
    said: dict[str, Any] | None = None


class AnalysisName(Out):
    name: str
    help: str


class Clock(Out):
    """The time limit of the decision now: seconds per decision and seconds left."""

    limit: float
    left: float


class RematchSeats(Out):
    """A finished table's rematch: the new table, and the seats there that the watcher's own
    token holds (none for a spectator)."""

    table: str
    seats: list[int]


class GameClocks(Out):
    """A table's chess clocks: its speed, each seat's seconds left (``None``: a bot's seat)
    and the seat whose clock runs."""

    speed: str
    left: list[float | None]
    running: int | None


class ClaimCountdown(Out):
    """How long until the win may be claimed because the other side left."""

    left: float


class State(Out):
    """What one watcher is told about a table (:func:`~.views.state_for`), on every change."""

    protocol: int

    type: Literal["state"]
    table: str
    version: int
    game: GameName
    config: dict[str, Any]
    options: dict[str, Any]
    seats: list[SeatInfo]
    #: The seat whose view this is (``None``: a spectator's public view).
    seat: int | None
    yours: list[int]
    decider: int | None
    #: A seat whose bot is choosing now.
    thinking: int | None
    view: Any
    text: str
    #: The legal actions in the notation, when this seat decides.
    legal: list[str]
    #: The same actions described for pointing at them, in the same order.
    choices: list[Choice]
    log: list[LogEntry]
    outcome: Outcome | None
    can_undo: bool
    #: The table-level endings open to the watcher's seats now (:func:`~.views.endings_open`).
    endings: list[Ending]
    #: Seconds until the win may be claimed because the other side left (0: now), while none
    #: of its people is connected; ``None`` otherwise.
    claim: ClaimCountdown | None
    analyses: list[AnalysisName]
    clock: Clock | None
    #: The table's chess clocks, at a table with a time control.
    clocks: GameClocks | None
    hidden_information: bool
    #: The rematch, once one of the players opened it.
    rematch: RematchSeats | None = None


class Replay(Out):
    """A finished game after ``step`` actions (:func:`~.views.replay_frame`), over HTTP."""

    protocol: int

    type: Literal["replay"]
    table: str
    game: str
    step: int
    steps: int
    view: Any
    text: str
    log: list[LogEntry]
    outcome: Outcome | None


class Ok(Out):
    """A socket's action (``played``, ``number``) or undo (``undone``) was done."""

    protocol: int

    type: Literal["ok"]
    played: str | None = None
    number: int | None = None
    undone: bool | None = None
    #: A table-level ending asked for: whether the game ended (a draw offered: not yet).
    ended: bool | None = None


class ErrorBody(Out):
    """A refusal: the sentence and the error's name (HTTP: with a 4xx or 5xx status), and a
    :class:`~fanfold.core.errors.Refusal`'s code and params (a refusal inside as its JSON)."""

    error: str
    kind: str
    code: str | None = None
    params: dict[str, Any] | None = None


class Error(Out):
    """A refusal on a socket (an :class:`ErrorBody` with the protocol's number and its type):
    nothing changed."""

    protocol: int

    type: Literal["error"]
    error: str
    kind: str
    code: str | None = None
    params: dict[str, Any] | None = None


class Restarting(Out):
    """The server restarts in ``seconds`` (an operator's ``fanfold restart``): shown as a
    banner; the table's socket is then closed with 1012 and reconnects at once to another
    server process, the game going on from where it was."""

    protocol: int

    type: Literal["restarting"]
    seconds: int
    message: str


class ChatLineOut(Out):
    """A line of chat: its id (to report it), who said it (an account's name, or a guest's
    seat's), from which seat (``None``: a spectator), the text and when (seconds); a preset
    phrase also has its key (``phrase``, sent only then), which the page words in its
    language, ``text`` being its English words."""

    id: int
    name: str
    seat: int | None
    text: str
    at: float
    phrase: str | None = None


class Chat(Out):
    """A line said in a room of the table (``players`` or ``spectators``), sent to those who
    read that room; never a game state (:mod:`fanfold.server.chat`)."""

    protocol: int

    type: Literal["chat"]
    room: str
    line: ChatLineOut


class ChatRoom(Out):
    """On a hello that asks for chat: the room the connection reads, whether it may write
    there, the preset phrases (their English words, ``phrases``, and their keys in the same
    order, ``phrase_keys``), whether only they may be said until the game ends, and the room's
    last lines (oldest first)."""

    protocol: int

    type: Literal["chat_room"]
    room: str
    writable: bool
    presets_only: bool
    phrases: list[str]
    phrase_keys: list[str]
    lines: list[ChatLineOut]


#: Every message the server pushes on a table's socket, told apart by ``type``.
Outgoing = Annotated[
    State | Replay | Ok | Error | Restarting | Chat | ChatRoom | Review,
    Field(discriminator="type"),
]
OUTGOING: TypeAdapter[State | Replay | Ok | Error | Restarting | Chat | ChatRoom | Review] = (
    TypeAdapter(Outgoing)
)


def restarting(seconds: int) -> Restarting:
    """The notice of a restart in ``seconds`` (:class:`Restarting`), its sentence in minutes
    once it is a minute or more away."""
    minutes = round(seconds / 60)
    when = (
        f"in {minutes} minute{'s' if minutes != 1 else ''}"
        if seconds >= 60
        else f"in {seconds} seconds"
        if seconds > 0
        else "now"
    )
    return Restarting(
        protocol=PROTOCOL,
        type="restarting",
        seconds=seconds,
        message=f"The server restarts {when}: your game carries on, reconnected at once.",
    )


class OpenTable(Out):
    """A line of the lobby's open tables: a listed table with seats anyone may take."""

    table: str
    game: str
    variant: str | None
    players: int
    free: int
    rated: bool
    time_limit: int | None = None


class LobbyTables(Out):
    """The lobby's open tables pushed on ``/ws/lobby``, once on connecting and after every
    change (:mod:`fanfold.server.lobby_feed`)."""

    type: Literal["open_tables"]
    protocol: int
    tables: list[OpenTable]


# ------------------------------------------------------------------ builders


class _Numbered(Protocol):
    """An action done: its text and its number (a table's ``Played``, the hub's ``Acted``)."""

    @property
    def text(self) -> str: ...

    @property
    def number(self) -> int: ...


class _Done(Protocol):
    """A table-level ending asked for (the hub's ``Ended``): whether the game ended."""

    @property
    def done(self) -> bool: ...


def ok_played(played: _Numbered) -> Ok:
    """A socket's action done (:class:`Ok`)."""
    return Ok(protocol=PROTOCOL, type="ok", played=played.text, number=played.number)


def ok_undone(undone: object) -> Ok:
    """A socket's undo done (:class:`Ok`): ``undone`` is true when anything was taken back
    (a bool, or the hub's ``Undone``)."""
    return Ok(protocol=PROTOCOL, type="ok", undone=bool(undone))


def ok_ended(ended: _Done) -> Ok:
    """A socket's ending asked for (:class:`Ok`)."""
    return Ok(protocol=PROTOCOL, type="ok", ended=ended.done)


def lobby_tables(lines: list[OpenTable]) -> LobbyTables:
    """The lobby's open tables, pushed (:class:`LobbyTables`)."""
    return LobbyTables(type="open_tables", protocol=PROTOCOL, tables=lines)


__all__ = [
    "OUTGOING",
    "AnalysisName",
    "Chat",
    "ChatLineOut",
    "ChatRoom",
    "Choice",
    "ClaimCountdown",
    "Clock",
    "Error",
    "ErrorBody",
    "GameClocks",
    "GameName",
    "LobbyTables",
    "LogEntry",
    "Ok",
    "OpenTable",
    "Outcome",
    "Outgoing",
    "RematchSeats",
    "Replay",
    "Restarting",
    "Review",
    "ReviewAnswer",
    "SeatInfo",
    "State",
    "lobby_tables",
    "ok_ended",
    "ok_played",
    "ok_undone",
    "restarting",
]
