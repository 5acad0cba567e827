"""The protocol between the server and its clients: a pydantic model for every message in and
out, and the only functions that build what a client is told.

Incoming: the HTTP requests' bodies (:class:`CreateTable`, :class:`Act`...) and the WebSocket
messages, one union discriminated on ``type`` (:data:`INCOMING`: hello, act, undo, view).
Outgoing: a seat's :class:`State` (:func:`message_for`), a :class:`Replay` frame
(:func:`replay_frame`), :class:`Ok` and :class:`Error` on a socket, and the HTTP answers
(:class:`Created`, :class:`Invitation`, :class:`Claimed`, :class:`Catalogue` entries,
:class:`TableSummary`, :class:`AnalysisAnswer`...), each the ``response_model`` of its route, so
``/openapi.json`` describes every answer.

Every message on a socket (and the same messages over HTTP: a seat's state, a replay frame)
carries ``"protocol": PROTOCOL``, and every HTTP answer the header ``X-Fanfold-Protocol``
(:data:`PROTOCOL_HEADER`). Later features add fields (the models
allow fields they do not name, and a client ignores those it does not know); a change that
renames, retypes or drops a field, or changes what one means, is a new :data:`PROTOCOL`. The
builders return plain JSON objects, serialised once per broadcast, not the models: the
models describe them, and the tests check every recorded message against them.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter

from fanfold.agents.base import registered_agents
from fanfold.agents.levels import LEVELS, level_agent
from fanfold.core.config import JSONObject, JSONValue
from fanfold.core.records import MAX_SEED_DIGITS
from fanfold.core.registry import all_games
from fanfold.play.analysis import analyses_for
from fanfold.play.table import Played, Table
from fanfold.server import live as done
from fanfold.server.clocks import CLOCK, CONTROL, Clocks
from fanfold.server.live import Created as NewTable
from fanfold.server.live import ForbiddenError, LiveTable, NotFoundError

#: The protocol's number: every message on a socket carries it as ``"protocol"``, and every HTTP
#: answer as the header :data:`PROTOCOL_HEADER`. Fields added later keep it; a change that
#: renames, retypes or drops a field, or changes what one means, is a new number.
PROTOCOL = 1
PROTOCOL_HEADER = "X-Fanfold-Protocol"

#: The largest request body accepted, in bytes (a long record fits).
MAX_BODY = 512 * 1024

# ------------------------------------------------------------------ incoming


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _seed_value(value: object) -> int:
    """A seed from a request: decimal digits in a string, or a whole JSON number."""
    if isinstance(value, str):
        text = value.strip()
        if not text.isascii() or not text.isdigit() or len(text) > MAX_SEED_DIGITS:
            raise ValueError(f"a seed is up to {MAX_SEED_DIGITS} decimal digits")
        return int(text)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError("a seed is a whole number, written in decimal digits")
    if not 0 <= value < 10**MAX_SEED_DIGITS:
        raise ValueError(f"a seed is from 0 to {MAX_SEED_DIGITS} digits long")
    return value


#: A seed in a request (see :func:`_seed_value`).
Seed = Annotated[int, BeforeValidator(_seed_value)]


class CreateTable(_Strict):
    """Open a table."""

    game: str = Field(min_length=1, max_length=60)
    variant: str | None = Field(default=None, max_length=60)
    players: int | None = Field(default=None, ge=1, le=16)
    options: dict[str, str] = Field(default_factory=dict, max_length=40)
    seats: list[Annotated[str, Field(max_length=200)]] = Field(default_factory=list, max_length=16)
    #: A seed in decimal digits (a string: seeds have up to 128 bits, more than a browser's
    #: JSON numbers keep); a JSON number is taken too. Told to everyone who joins.
    seed: Seed | None = None
    deal: Seed | None = None
    position: str | None = Field(default=None, max_length=2000)
    time_limit: int | None = Field(default=None, ge=1, le=3600)
    #: The table's time control, by speed (``blitz``, ``rapid``, ``classical``, ``daily``):
    #: chess clocks for its people. A rated table gets its game's default speed without one.
    speed: Literal["blitz", "rapid", "classical", "daily"] | None = None
    #: A practice table: undo allowed in games with hidden cards, told to all, never fair.
    practice: bool = False
    #: List the table in the lobby (for anyone to watch).
    public: bool = False
    #: A rated table (issue 31): only a fair table whose every person is signed in changes
    #: ratings (:mod:`fanfold.server.ratings`).
    rated: bool = False


class Act(_Strict):
    """Play an action for a seat."""

    token: str = Field(max_length=200)
    version: int | None = Field(default=None, ge=0)
    action: str = Field(max_length=400)
    seat: int | None = Field(default=None, ge=0, le=16)


class Undo(_Strict):
    """Take moves back."""

    token: str = Field(max_length=200)
    version: int | None = Field(default=None, ge=0)


class LoadRecord(_Strict):
    """Open a table from a record: the record as JSON, or its file's text (``text``, which
    keeps every digit of a seed written as a number)."""

    record: dict[str, Any] | None = None
    text: str | None = Field(default=None, max_length=MAX_BODY)
    seats: list[Annotated[str, Field(max_length=200)]] = Field(default_factory=list, max_length=16)


class Claim(_Strict):
    """Take the seat an invitation opens."""

    invite: str = Field(min_length=1, max_length=200)


class Invite(_Strict):
    """A new invitation to a seat, for the table's creator."""

    token: str = Field(max_length=200)
    seat: int = Field(ge=0, le=16)


class Rematch(_Strict):
    """Open (or find) a finished table's rematch, for one of its players."""

    token: str = Field(max_length=200)


class Hello(_Strict):
    """The first message on a socket: a seat's token (none: a spectator) and the seat to
    see (a hot-seat token holds several)."""

    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=200)
    seat: int | None = Field(default=None, ge=0, le=16)


class WsAct(_Strict):
    """Play an action (``seat``: the seat it is for; none: the decider, when held)."""

    type: Literal["act"]
    version: int | None = Field(default=None, ge=0)
    action: str = Field(max_length=400)
    seat: int | None = Field(default=None, ge=0, le=16)


class WsUndo(_Strict):
    """Take moves back to the holder's last decision."""

    type: Literal["undo"]
    version: int | None = Field(default=None, ge=0)


class WsEnd(_Strict):
    """End the game at the table (:mod:`fanfold.core.rulings`): ``resign``, ``abort``, or
    ``draw`` (an offer, or the acceptance of another side's), for ``seat`` (none: the
    holder's first seat)."""

    type: Literal["end"]
    ending: Literal["resign", "draw", "abort", "claim", "leave"]
    version: int | None = Field(default=None, ge=0)
    seat: int | None = Field(default=None, ge=0, le=16)


class WsView(_Strict):
    """See the table from another seat the token holds (none: as a spectator)."""

    type: Literal["view"]
    seat: int | None = Field(default=None, ge=0, le=16)


#: A WebSocket message from a client: one of :class:`Hello`, :class:`WsAct`, :class:`WsUndo`,
#: :class:`WsEnd`, :class:`WsView`, told apart by ``type``.
Incoming = Annotated[Hello | WsAct | WsUndo | WsEnd | WsView, Field(discriminator="type")]
#: Reads an incoming WebSocket message (:func:`parse_incoming`).
INCOMING: TypeAdapter[Hello | WsAct | WsUndo | WsEnd | WsView] = TypeAdapter(Incoming)
#: The ``type`` of every incoming message.
INCOMING_TYPES = ("hello", "act", "undo", "end", "view")


def parse_json(raw: str | bytes) -> Any:
    """``raw`` as JSON.

    Raises:
        ValueError: not JSON, or nested so deeply that the parser gives up (a few KB of
            brackets do that), with a sentence.
    """
    try:
        return json.loads(raw)
    except RecursionError:
        raise ValueError("the JSON is nested too deeply; a message never is") from None


def parse_incoming(data: object, *, hello: bool) -> Hello | WsAct | WsUndo | WsEnd | WsView:
    """A WebSocket message read from JSON: a :class:`Hello` when ``hello`` (the first message
    of a connection), else one of the others.

    Raises:
        ValueError: not an object, or a type the connection cannot send now (a sentence).
        pydantic.ValidationError: a field missing, extra or out of range.
    """
    if not isinstance(data, dict):
        raise ValueError("a message is a JSON object")
    kind = data.get("type")
    if hello:
        if kind != "hello":
            return Hello.model_validate(data)  # says what the first message must be
    elif kind not in INCOMING_TYPES[1:]:
        raise ValueError(f"unknown message type {kind!r}; use act, undo, end or view")
    return INCOMING.validate_python(data)


# ------------------------------------------------------------------ outgoing


class _Out(BaseModel):
    """An outgoing message: fields it does not name are allowed (later features add some)."""

    model_config = ConfigDict(extra="allow")


class GameName(_Out):
    name: str
    id: str
    title: str


class SeatInfo(_Out):
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


class LogEntry(_Out):
    """An action as a watcher was told it (an action it is not told of has no entry)."""

    number: int
    seat: int
    #: The action in the game's notation, as this watcher may see it.
    text: str
    #: What happened, in a sentence written for this watcher (cards with suit symbols).
    words: str | None = None
    #: The references (as choices' ``points``) of what moved, to mark on the board.
    highlight: list[str] = Field(default_factory=list)


class Outcome(_Out):
    """How the game ended (``Outcome.to_json()``): a sentence, each seat's return, the
    winners; ``by_limit`` when a length limit stopped it, ``termination`` a machine-readable
    reason where the game gives one."""

    reason: str
    returns: list[int | float]
    winners: list[int]
    by_limit: bool | None = None
    termination: str | None = None


class Choice(_Out):
    """A legal action described for pointing at it (``fanfold.core.game.Choice``): the text
    to send back, a kind, a label in words, the references pointed at, and details."""

    text: str
    kind: str
    label: str
    points: list[str]
    details: dict[str, Any]


class AnalysisName(_Out):
    name: str
    help: str


class Clock(_Out):
    """The time limit of the decision now: seconds per decision and seconds left."""

    limit: float
    left: float


class RematchSeats(_Out):
    """A finished table's rematch: the new table, and the seats there that the watcher's own
    token holds (none for a spectator)."""

    table: str
    seats: list[int]


class GameClocks(_Out):
    """A table's chess clocks: its speed, each seat's seconds left (``None``: a bot's seat)
    and the seat whose clock runs."""

    speed: str
    left: list[float | None]
    running: int | None


class ClaimCountdown(_Out):
    """How long until the win may be claimed because the other side left."""

    left: float


class State(_Out):
    """What one watcher is told about a table (:func:`message_for`), on every change."""

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
    #: The table-level endings open to the watcher's seats now (:func:`endings_open`).
    endings: list[Literal["resign", "draw", "abort", "claim", "leave"]]
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


class Replay(_Out):
    """A finished game after ``step`` actions (:func:`replay_frame`)."""

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


class Ok(_Out):
    """A socket's action (``played``, ``number``) or undo (``undone``) was done."""

    protocol: int

    type: Literal["ok"]
    played: str | None = None
    number: int | None = None
    undone: bool | None = None
    #: A table-level ending asked for: whether the game ended (a draw offered: not yet).
    ended: bool | None = None


class ErrorBody(_Out):
    """A refusal: the sentence and the error's name (HTTP: with a 4xx or 5xx status)."""

    error: str
    kind: str


class Error(ErrorBody):
    """A refusal on a socket: nothing changed."""

    protocol: int

    type: Literal["error"]


#: Every message the server pushes on a socket, told apart by ``type``.
Outgoing = Annotated[State | Replay | Ok | Error, Field(discriminator="type")]
OUTGOING: TypeAdapter[State | Replay | Ok | Error] = TypeAdapter(Outgoing)


class Created(_Out):
    """A new table: its id, the creator's token and an invitation per friend's seat."""

    table: str
    token: str
    invites: dict[str, str]


class Invitation(_Out):
    """What an invitation opens (nothing changes)."""

    table: str
    seat: int
    name: str
    game: str
    variant: Any
    chosen_deal: bool
    practice: bool


# ------------------------------------------------ accounts and ratings (issue 31)


class Credentials(_Strict):
    """A name and a password: to create an account or to sign in."""

    name: str = Field(min_length=1, max_length=40)
    password: str = Field(min_length=1, max_length=200)


class Me(_Out):
    """Who is signed in on this browser (``signed_in`` false: a guest)."""

    signed_in: bool
    id: int | None = None
    name: str | None = None


class SignedOut(_Out):
    """Every session of an account ended."""

    signed_in: bool
    sessions_ended: int


class QuickMatch(_Strict):
    """Join the open table of these settings that has waited longest: the game, its variant
    as the variant has it (a table opened with options of its own is not matched), the
    players, rated or not, and the time limit per decision (``None``: none)."""

    game: str = Field(min_length=1, max_length=60)
    variant: str | None = Field(default=None, max_length=60)
    players: int | None = Field(default=None, ge=1, le=16)
    rated: bool = False
    time_limit: int | None = Field(default=None, ge=1, le=3600)


class GiveSeat(_Strict):
    """The creator gives an open seat nobody took to a bot level."""

    token: str = Field(max_length=200)
    seat: int = Field(ge=0, le=16)
    level: str = Field(max_length=20)


class SeatGiven(_Out):
    """An open seat given to a bot."""

    table: str
    seat: int
    level: str


class DailyLine(_Out):
    """A win of the daily Fan deal by a signed-in player: ranked (``rank``) only without
    aids; ``aids`` lists the undo and analyses (``hint``, ``winnable``) the table used."""

    rank: int | None
    name: str
    moves: int
    aids: list[str]
    table: str


class DailyBoard(_Out):
    """The daily deal's board: the date (UTC), the deal and its wins."""

    date: str
    deal: int
    lines: list[DailyLine]


class OpenTable(_Out):
    """A line of the lobby's open tables: a listed table with seats anyone may take."""

    table: str
    game: str
    variant: str | None
    players: int
    free: int
    rated: bool
    time_limit: int | None = None


class LobbyTables(_Out):
    """The lobby's open tables pushed on ``/ws/lobby``, once on connecting and after every
    change (:mod:`fanfold.server.lobby_feed`)."""

    type: Literal["open_tables"]
    protocol: int
    tables: list[OpenTable]


class RatingLine(_Out):
    """One player's rating in one family (a leaderboard's line, a profile's rating). A bot
    level (``bot``) names its ``level``; ``anchored`` says that its rating is the one arena
    runs measured (it has played no rated game yet); ``page`` is the player's page."""

    player: str
    name: str
    family: str
    rating: int
    uncertainty: int
    games: int
    provisional: bool
    bot: bool
    level: str | None = None
    anchored: bool = False
    page: str | None = None


class RatingPoint(_Out):
    """One rated game in a player's history."""

    table: str
    family: str
    before: int
    after: int
    uncertainty: int
    rank: int
    at: float


class Profile(_Out):
    """A player's page: ratings, rating history, recent rated games, results against bots."""

    name: str
    ratings: list[RatingLine]
    history: list[RatingPoint]
    against_bots: list[dict[str, Any]]


class SeatAccount(_Out):
    """A seat held by a signed-in player: the account's name and its page."""

    seat: int
    name: str
    page: str


class TablePlayers(_Out):
    """The signed-in players at a table, by seat (``GET /api/tables/ID/players``); a seat of a
    guest, a bot or nobody yet is not listed."""

    table: str
    seats: list[SeatAccount]


class RatingChange(_Out):
    """One seat's rating change in a rated game (its player's, from before to after)."""

    seat: int
    name: str
    bot: bool
    page: str
    before: int
    after: int
    uncertainty: int


class TableRatings(_Out):
    """What a finished table did to ratings (``GET /api/tables/ID/ratings``): ``rated`` is
    whether it was rated, ``changes`` each moved player's change, by seat (a bot level at
    several seats moves not)."""

    table: str
    family: str | None
    rated: bool
    changes: list[RatingChange]


class Measured(_Out):
    """How a bot level's starting rating was measured: arena runs of the levels against each
    other (``games`` of them for this level), rated with the server's model by ``command``."""

    rating: int
    uncertainty: int
    games: int
    command: str


class PersonResult(_Out):
    """A bot level's rated games against one person, from the bot's side."""

    name: str
    page: str
    won: int
    lost: int
    drawn: int


class BotProfile(_Out):
    """A bot level's page in one family (``GET /api/bots/FAMILY/LEVEL``): its rating, how it
    was measured (``null`` for a level never measured), its rating history from rated games
    against people and its results against each person."""

    name: str
    family: str
    level: str
    rating: RatingLine
    measured: Measured | None
    history: list[RatingPoint]
    against_people: list[PersonResult]


class BotRating(_Out):
    """A bot level's rating in one family: the one rated games gave it, or its measured
    starting rating (``measured``: either of those, not the first rating of a newcomer)."""

    level: str
    rating: int
    uncertainty: int
    games: int
    provisional: bool
    measured: bool


class BotRatings(_Out):
    """The bot levels' ratings for a game and variant (``GET /api/bot-ratings``); ``family``
    is ``null`` (and ``levels`` empty) for a game with no ratings (Fan patience)."""

    family: str | None
    levels: list[BotRating]


class Claimed(_Out):
    """A claimed seat and the token that holds it now."""

    table: str
    seat: int
    token: str


class Reinvited(_Out):
    """A new invitation to a seat."""

    table: str
    seat: int
    invite: str


class RematchAnswer(_Out):
    """A rematch opened (or found): the new table and the asker's seats there."""

    table: str
    seats: list[int]


class Acted(_Out):
    """An HTTP action done: the action, its number and the version it produced."""

    ok: bool
    played: str
    number: int
    version: int


class Undone(_Out):
    """An HTTP undo: whether anything was taken back, and the version after it."""

    ok: bool
    version: int


class EndTable(_Strict):
    """End the game over HTTP, as :class:`WsEnd` does on a socket."""

    token: str = Field(max_length=200)
    ending: Literal["resign", "draw", "abort", "claim", "leave"]
    version: int | None = Field(default=None, ge=0)
    seat: int | None = Field(default=None, ge=0, le=16)


class EndedAnswer(_Out):
    """An HTTP ending: whether the game ended (a draw offered: not yet), and the version."""

    ok: bool
    version: int


class AnalysisAnswer(_Out):
    """An analysis of the position at ``version``."""

    name: str
    text: str
    data: Any
    version: int


class TableSummary(_Out):
    """A line of the lobby's list of public tables."""

    table: str
    game: str
    players: list[str]
    moves: int
    over: bool
    updated: float


class Daily(_Out):
    """Today's Fan deal, the same for everyone: a PySolFC deal number that the solver proved
    winnable under the ``variant`` (:mod:`fanfold.server.daily`), and the day (UTC)."""

    game: str
    deal: int
    variant: str | None = None
    date: str | None = None


class Preset(_Out):
    name: str
    description: str
    players: list[int]
    default_players: int


class Bot(_Out):
    name: str
    description: str
    strength: int
    #: One of the levels (easy, medium, hard); ``agent`` is what it plays as.
    level: bool
    agent: str


class CatalogueEntry(_Out):
    """A game with its presets, bots and analyses (``GET /api/games``)."""

    name: str
    id: str
    title: str
    summary: str
    hidden_information: bool
    #: Whether a table may have a time limit per decision.
    time_limit: bool
    presets: list[Preset]
    bots: list[Bot]
    analyses: list[str]


class RecordFile(_Out):
    """A game's record (``GET /api/tables/{id}/record``, a file to download)."""

    format: str
    game: str
    config: dict[str, Any]
    #: Decimal digits (a seed has up to 128 bits).
    seed: str
    actions: list[str]
    start_position: str | None = None
    players: list[str] | None = None
    outcome: Outcome | None = None


class LessonSummary(_Out):
    game: str
    id: str
    title: str
    source: str
    variant: Any
    steps: int


class LessonStep(_Out):
    """A step of a lesson as the learner sees it."""

    index: int
    prompt: str | None
    hint: str | None
    view: Any
    text: str
    legal: list[str]
    choices: list[Choice]
    log: list[dict[str, Any]]
    outcome: Outcome | None


class LessonAnswer(LessonSummary):
    """A lesson and one of its steps."""

    intro: str
    seat: int
    seats: list[str]
    next_lesson: LessonSummary | None
    step: LessonStep


class LessonShown(_Out):
    """The lesson's move(s) at a step, and why."""

    step: int
    answers: list[str]
    #: Each answer in words, as the board's buttons say it.
    labels: list[str] | None = None
    explanation: str


class LessonVerdict(_Out):
    """The verdict on a learner's move."""

    verdict: str
    played: str | None
    #: The move played, in words (when it is legal).
    label: str | None = None
    message: str
    done: bool | None = None
    next: LessonStep | None = None
    summary: str | None = None
    next_lesson: LessonSummary | None = None


# ------------------------------------------------------------------ builders


def error_body(error: Exception) -> JSONObject:
    """``{"error": sentence, "kind": name}``; the sentence is the error's own."""
    message = error.args[0] if error.args else str(error)
    return {"error": str(message), "kind": type(error).__name__}


def error_message(error: Exception | JSONObject) -> JSONObject:
    """A refusal on a socket (:class:`Error`): an error, or an error's body."""
    body = error_body(error) if isinstance(error, Exception) else error
    return {"protocol": PROTOCOL, "type": "error", **body}


def malformed(sentence: str) -> JSONObject:
    """A refusal of a message the server cannot read."""
    return error_message({"error": f"malformed message: {sentence}", "kind": "MalformedRequest"})


def ok_played(played: Played | done.Acted) -> JSONObject:
    """A socket's action done (:class:`Ok`)."""
    return {"protocol": PROTOCOL, "type": "ok", "played": played.text, "number": played.number}


def ok_undone(undone: bool | done.Undone) -> JSONObject:
    """A socket's undo done (:class:`Ok`)."""
    return {"protocol": PROTOCOL, "type": "ok", "undone": bool(undone)}


def ok_ended(ended: done.Ended) -> JSONObject:
    """A socket's ending asked for (:class:`Ok`)."""
    return {"protocol": PROTOCOL, "type": "ok", "ended": ended.done}


def created_message(created: NewTable) -> JSONObject:
    """The answer to a new table (:class:`Created`)."""
    return {
        "table": created.id,
        "token": created.token,
        "invites": {str(seat): invite for seat, invite in created.invites.items()},
    }


def check_spectator(live: LiveTable, seat: int | None) -> None:
    """Refuse a spectator's view of a game with hidden information that has none."""
    if seat is None and live.table.game.has_hidden_information:
        try:
            live.table.game.public_view(live.table.state)
        except NotImplementedError as error:
            raise ForbiddenError(str(error)) from None


def replay_frame(live: LiveTable, step: int, seat: int | None) -> JSONObject:
    """The game after ``step`` actions (:class:`Replay`), from ``seat``'s side (``None``: seat
    0's view for games without hidden information, the public view otherwise)."""
    table = live.table
    game = table.game
    states = table.finish().states()
    if step >= len(states):
        raise NotFoundError(f"the game has {len(states) - 1} actions; there is no step {step}")
    position = states[step]
    if seat is not None and not 0 <= seat < len(table.seats):
        raise NotFoundError(f"there is no seat {seat + 1}")
    if seat is None:
        try:
            view: JSONValue = game.public_view(position)
        except NotImplementedError as error:
            raise ForbiddenError(f"{error}: replay it from a seat's side (seat=N)") from None
        text = game.render(game.observe(position, 0)) if not game.has_hidden_information else ""
    else:
        seat_view = game.observe(position, seat)
        view, text = seat_view.to_json(), game.render(seat_view)
    log = log_entries(table.played[:step], table, seat)
    return {
        "protocol": PROTOCOL,
        "type": "replay",
        "table": live.id,
        "game": game.name,
        "step": step,
        "steps": len(states) - 1,
        "view": view,
        "text": text,
        "log": log,
        "outcome": table.outcome.to_json() if table.outcome is not None else None,
    }


def log_entries(played: Sequence[Played], table: Table, seat: int | None) -> list[JSONValue]:
    """The log as ``seat`` (``None``: a spectator) is told it (:class:`LogEntry`): each action
    in notation and in words, with what it moved; an action it is not told of has no entry."""
    entries: list[JSONValue] = []
    for each in played:
        told = table.told(each, seat)
        if told is not None:
            highlight: list[JSONValue] = list(told.highlight)
            entries.append(
                {
                    "number": each.number,
                    "seat": each.seat,
                    "text": told.text,
                    "words": told.words,
                    "highlight": highlight,
                }
            )
    return entries


def _kept_log(live: LiveTable, seat: int | None) -> tuple[list[JSONValue], list[str]]:
    """The log as ``seat`` (``None``: a spectator) is told it (:func:`log_entries`) and each
    entry serialised, from what the live table keeps (:attr:`LiveTable.log_texts`): an entry
    is made and serialised once, kept with the action it tells (the same object); the entries
    of actions taken back or undone since are dropped."""
    table = live.table
    played = table.played
    kept = live.log_texts.get(seat)
    if kept is None:
        kept = live.log_texts[seat] = ([], [], [])
    actions, entries, texts = kept
    same = 0
    for before, now in zip(actions, played, strict=False):
        if before is not now:
            break
        same += 1
    if same < len(actions):  # taken back since
        del actions[same:], entries[same:], texts[same:]
    for each in played[same:]:
        told = log_entries([each], table, seat)
        actions.append(each)
        entries.append(told[0] if told else None)
        texts.append(json.dumps(told[0]) if told else "")
    return [entry for entry in entries if entry is not None], [text for text in texts if text]


def log_text(live: LiveTable, seat: int | None) -> str:
    """The log as ``seat`` is told it, as JSON text: exactly
    ``json.dumps(log_entries(live.table.played, live.table, seat))``, each entry serialised
    once (:func:`_kept_log`), so that a message after an action serialises only that
    action's entry, not the whole log again."""
    return "[" + ", ".join(_kept_log(live, seat)[1]) + "]"


def message_text(
    live: LiveTable, seat: int | None, held: frozenset[int], message: JSONObject | None = None
) -> str:
    """The text a WebSocket is sent: exactly ``json.dumps(message)``, ``message`` being
    :func:`message_for` of the same table, seat and seats, built just before under the same
    lock (built now when not given), with the log's text from :func:`log_text` (the rest of
    the message serialised as ever)."""
    if message is None:
        message = message_for(live, seat, held)
    entries, texts = _kept_log(live, seat)
    if message.get("log") != entries:  # not the table as it is now: serialised whole
        return json.dumps(message)
    keys = list(message)
    at = keys.index("log")
    head = json.dumps({key: message[key] for key in keys[:at]})
    tail = json.dumps({key: message[key] for key in keys[at + 1 :]})
    return f"{head[:-1]}, {json.dumps('log')}: [{', '.join(texts)}], {tail[1:]}"


def message_for(live: LiveTable, seat: int | None, held: frozenset[int]) -> JSONObject:
    """What one watcher is told about a table: the view of ``seat`` (``None``: a spectator's
    public view), the legal moves when that seat decides, and the announcements it may hear.

    Nothing here comes from the full state except through the game's views and public
    announcements, so no hidden card reaches a watcher who may not see it.
    """
    head, tail = _state_parts(live, seat, held)
    return {**head, "log": list[JSONValue](_kept_log(live, seat)[0]), **tail}


def _state_parts(
    live: LiveTable, seat: int | None, held: frozenset[int]
) -> tuple[JSONObject, JSONObject]:
    """A :func:`message_for` message without its log: the fields before the log and those
    after it, in the message's order."""
    table = live.table
    game = table.game
    view: JSONValue
    if seat is None:
        view = game.public_view(table.state)
        text = ""
    else:
        seat_view = table.view(seat)
        view = seat_view.to_json()
        text = game.render(seat_view)
    decider = table.decider
    deciding = seat is not None and decider == seat
    outcome = table.outcome
    analyses = analyses_for(game) if live.options.get("analysis") else {}
    seats: list[JSONValue] = [
        {
            "seat": number,
            "name": table.seat_name(number),
            "player": entry.player,
            "bot": not entry.is_human,
            "yours": number in held,
            # A friend's seat: waiting for its invitation to be claimed, and held by a
            # connection now.
            "open": live.is_open(number),
            "present": live.is_present(number),
        }
        for number, entry in enumerate(table.seats)
    ]
    head: JSONObject = {
        "protocol": PROTOCOL,
        "type": "state",
        "table": live.id,
        "version": table.version,
        "game": {"name": game.name, "id": game.id, "title": game.title},
        "config": live.config_json(),
        "options": live.options,
        "seats": seats,
        "seat": seat,
        "yours": list[JSONValue](sorted(held)),
        "decider": decider,
        "thinking": live.thinking,
        "view": view,
        "text": text,
        "legal": list[JSONValue](table.legal_texts() if deciding else []),
        "choices": [choice.to_json() for choice in game.choices(table.state)] if deciding else [],
    }
    tail: JSONObject = {
        "outcome": outcome.to_json() if outcome is not None else None,
        "can_undo": table.allow_undo and bool(held) and bool(table.played),
        "endings": list[JSONValue](endings_open(live, held)),
        "claim": claim_countdown(live, held),
        "analyses": [{"name": a.name, "help": a.help} for a in analyses.values()],
        "clock": clock(live),
        "clocks": game_clocks(live),
        "hidden_information": game.has_hidden_information,
        "rematch": rematch_seats(live, held),
    }
    return head, tail


def rematch_seats(live: LiveTable, held: frozenset[int]) -> JSONObject | None:
    """A finished table's rematch as a watcher holding ``held`` is told it
    (:class:`RematchSeats`): each held seat moves one on; ``None`` before any rematch."""
    made = live.options.get(done.REMATCH)
    if not isinstance(made, str):
        return None
    count = len(live.table.seats)
    seats: list[JSONValue] = list[JSONValue](sorted((seat + 1) % count for seat in held))
    return {"table": made, "seats": seats}


def endings_open(live: LiveTable, held: frozenset[int]) -> list[str]:
    """The table-level endings (:mod:`fanfold.core.rulings`) a watcher holding ``held`` may
    ask for now: ``resign`` in a game of one or two sides, ``draw`` (offer or accept) where
    the rules have draws and another side has a person, ``abort`` while some side has not
    moved; none once the game is over, nor for a spectator."""
    table = live.table
    if not held or table.is_over:
        return []
    game = table.game
    teams = game.teams(table.config)
    found: list[str] = []
    if len(teams) <= 2:
        found.append("resign")
    elif any(table.seats[seat].is_human for seat in held):
        found.append("leave")  # the game goes on without the leaver, a bot at its seat
    people = [seat for seat, entry in enumerate(table.seats) if entry.is_human]
    others = [seat for seat in people if not any(seat in t and held & set(t) for t in teams)]
    if game.has_draws and others:  # bots never take a draw: none is offered to them
        found.append("draw")
    moved = {n for n, team in enumerate(teams) for played in table.played if played.seat in team}
    if len(moved) < len(teams):
        found.append("abort")
    if any(live.claim_wait(seat) == 0 for seat in held):
        found.append("claim")
    return found


def claim_countdown(live: LiveTable, held: frozenset[int]) -> JSONValue:
    """``{"left": seconds}`` until a seat of ``held`` may claim the win because the other
    side left (0: now; :meth:`LiveTable.claim_wait`), or ``None`` while the other side is
    here (or cannot leave: a bot)."""
    waits = [wait for seat in sorted(held) if (wait := live.claim_wait(seat)) is not None]
    return {"left": round(min(waits), 1)} if waits else None


def game_clocks(live: LiveTable) -> JSONValue:
    """The table's chess clocks (:mod:`fanfold.server.clocks`): its ``speed``, each seat's
    seconds ``left`` now (``None`` for a bot's seat) and the seat whose clock is ``running``;
    ``None`` at a table without a time control."""
    clocks = Clocks.from_json(live.options.get(CLOCK))
    control = live.options.get(CONTROL)
    if clocks is None or not isinstance(control, dict):
        return None
    now = time.time()
    left: list[JSONValue] = []
    for seat in range(len(clocks.left)):
        remaining = clocks.remaining(seat, now)
        left.append(None if remaining is None else round(max(0.0, remaining), 1))
    return {"speed": control.get("speed"), "left": left, "running": clocks.running}


def clock(live: LiveTable) -> JSONValue:
    """The time limit of the decision now: ``{"limit": seconds, "left": seconds}``, or None
    (no limit, or a bot decides)."""
    if CONTROL in live.options:
        return None  # a table with chess clocks: game_clocks
    deadline = live.deadline
    if deadline is None or deadline[0] != live.table.version:
        return None
    left = max(0.0, deadline[1] - time.monotonic())
    return {"limit": live.time_limit, "left": round(left, 1)}


def game_catalogue() -> list[JSONValue]:
    """Every game with its presets (and their player counts) and the bots that play it."""
    games: list[JSONValue] = []
    for game in all_games():
        presets: list[JSONValue] = []
        for preset in game.presets():
            counts = list(preset.player_counts) or [game.num_players(preset.config)]
            presets.append(
                {
                    "name": preset.name,
                    "description": preset.description,
                    "players": list[JSONValue](counts),
                    "default_players": game.num_players(preset.config),
                }
            )
        bots: list[JSONValue] = [
            {
                "name": entry.name,
                "description": entry.description,
                "strength": entry.strength,
                "level": entry.name in LEVELS,
                "agent": level_agent(game, entry.name) if entry.name in LEVELS else entry.name,
            }
            for entry in sorted(registered_agents(game), key=lambda e: e.strength)
        ]
        games.append(
            {
                "name": game.name,
                "id": game.id,
                "title": game.title,
                "summary": game.summary,
                "hidden_information": game.has_hidden_information,
                "time_limit": game.has_passive_action,
                "presets": presets,
                "bots": bots,
                "analyses": list[JSONValue](sorted(analyses_for(game))),
            }
        )
    return games


def summaries(found: Any) -> list[JSONValue]:
    """The lobby's list (:class:`TableSummary`) from the store's lines."""
    return [
        {
            "table": s.id,
            "game": s.game.split(".")[0],
            "players": list(s.players),
            "moves": s.moves,
            "over": s.over,
            "updated": s.updated,
        }
        for s in found
    ]
