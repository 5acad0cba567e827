"""A table as each watcher is told it: a seat's (or a spectator's) :class:`State`
(:func:`state_for`; :func:`message_for` and :func:`message_text` its JSON and its text), a
finished game's :class:`Replay` frame (:func:`replay_frame`), and the parts of a state (the
log, the endings open, the claim's countdown, the clocks, the rematch).

Nothing here comes from the full state except through the game's views and public
announcements, so no hidden card reaches a watcher who may not see it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from fanfold.core.config import JSONObject, JSONValue
from fanfold.core.game import Outcome as GameOutcome
from fanfold.core.phrases import said
from fanfold.play.analysis import analyses_for
from fanfold.play.table import Played, Table
from fanfold.server.clocks import HOLDER
from fanfold.server.live import ForbiddenError, LiveTable, NotFoundError
from fanfold.server.protocol.base import PROTOCOL, Ending
from fanfold.server.protocol.messages import (
    AnalysisName,
    Choice,
    ClaimCountdown,
    Clock,
    GameClocks,
    GameName,
    LogEntry,
    Outcome,
    RematchSeats,
    Replay,
    SeatInfo,
    State,
)
from fanfold.server.protocol.sending import as_json, wire
from fanfold.server.refusals import refusal

#: The fields of a :class:`State` before its log (:func:`message_text` splices the log in).
_BEFORE_LOG = frozenset(list(State.model_fields)[: list(State.model_fields).index("log")])


def _shown_options(live: LiveTable) -> dict[str, JSONValue]:
    """The table's options as a state message shows them: the creator's hash left out, and
    ``open`` the lobby's seats still waiting for a player (a seat taken by a join, or given to
    a bot, is no longer open)."""
    shown = {key: value for key, value in live.options.to_stored().items() if key != HOLDER}
    if "open" in shown:
        shown["open"] = list[JSONValue](live.free_lobby_seats())
    return shown


def _said(words: str) -> dict[str, dict[str, Any]]:
    """``{"said": ...}`` for words that are a :class:`~fanfold.core.phrases.Phrase`, else
    nothing (the field left unset, so not sent)."""
    coded = said(words)
    return {} if coded is None else {"said": coded}


def check_spectator(live: LiveTable, seat: int | None) -> None:
    """Refuse a spectator's view of a game with hidden information that has none."""
    if seat is None and live.table.game.has_hidden_information:
        try:
            live.table.game.public_view(live.table.state)
        except NotImplementedError as error:
            raise ForbiddenError(str(error)) from None


def outcome_of(outcome: GameOutcome | None, table: Table | None = None) -> Outcome | None:
    """A game's outcome as the protocol sends it (``None``: the game goes on), with the
    reason as a code and params where the game words the ending of ``table``'s state so and
    its English is the outcome's, or where the reason is a phrase itself (a resignation, a
    clock run out: :func:`fanfold.core.rulings.ruled_outcome`)."""
    if outcome is None:
        return None
    data = outcome.to_json()
    coded = said(outcome.reason)  # a table-level ending (fanfold.core.rulings) is a phrase
    if coded is None:
        words = table.game.ending_words(table.state) if table is not None else None
        coded = said(words) if words == outcome.reason else None
    if coded is not None:
        data["said"] = coded
    return Outcome.model_validate(data)


def replay_frame(live: LiveTable, step: int, seat: int | None) -> Replay:
    """The game after ``step`` actions (:class:`Replay`), from ``seat``'s side (``None``: seat
    0's view for games without hidden information, the public view otherwise)."""
    table = live.table
    game = table.game
    states = table.finish().states()
    if step >= len(states):
        raise NotFoundError(refusal("found.replay_step", count=len(states) - 1, step=step))
    position = states[step]
    if seat is not None and not 0 <= seat < len(table.seats):
        raise NotFoundError(refusal("found.seat", seat=seat + 1))
    if seat is None:
        try:
            view: JSONValue = game.public_view(position)
        except NotImplementedError as error:
            raise ForbiddenError(f"{error}: replay it from a seat's side (seat=N)") from None
        text = game.render(game.observe(position, 0)) if not game.has_hidden_information else ""
    else:
        seat_view = game.observe(position, seat)
        view, text = seat_view.to_json(), game.render(seat_view)
    return Replay(
        protocol=PROTOCOL,
        type="replay",
        table=live.id,
        game=game.name,
        step=step,
        steps=len(states) - 1,
        view=view,
        text=text,
        log=log_entries(table.played[:step], table, seat),
        outcome=outcome_of(table.outcome, table),
    )


def log_entries(played: Sequence[Played], table: Table, seat: int | None) -> list[LogEntry]:
    """The log as ``seat`` (``None``: a spectator) is told it (:class:`LogEntry`): each action
    in notation and in words, with what it moved; an action it is not told of has no entry."""
    entries: list[LogEntry] = []
    for each in played:
        told = table.told(each, seat)
        if told is not None:
            entries.append(
                LogEntry(
                    number=each.number,
                    seat=each.seat,
                    text=told.text,
                    words=told.words,
                    highlight=list(told.highlight),
                    **_said(told.words),
                )
            )
    return entries


def _kept_log(live: LiveTable, seat: int | None) -> tuple[list[LogEntry], list[str]]:
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
        texts.append(wire(told[0]) if told else "")
    return [entry for entry in entries if entry is not None], [text for text in texts if text]


def log_text(live: LiveTable, seat: int | None) -> str:
    """The log as ``seat`` is told it, as JSON text: exactly the JSON of
    ``log_entries(live.table.played, live.table, seat)``, each entry serialised once
    (:func:`_kept_log`), so that a message after an action serialises only that action's
    entry, not the whole log again."""
    return "[" + ", ".join(_kept_log(live, seat)[1]) + "]"


def state_for(live: LiveTable, seat: int | None, held: frozenset[int]) -> State:
    """What one watcher is told about a table (:class:`State`): the view of ``seat``
    (``None``: a spectator's public view), the legal moves when that seat decides, and the
    announcements it may hear; ``held``: the seats the watcher's token holds."""
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
    analyses = analyses_for(game) if live.options.analysis else {}
    seats = [
        SeatInfo(
            seat=number,
            name=table.seat_name(number),
            player=entry.player,
            bot=not entry.is_human,
            yours=number in held,
            # A friend's seat: waiting for its invitation to be claimed, and held by a
            # connection now.
            open=live.is_open(number),
            present=live.is_present(number),
            **_said(table.seat_name(number)),
        )
        for number, entry in enumerate(table.seats)
    ]
    choices = game.choices(table.state) if deciding else []
    return State(
        protocol=PROTOCOL,
        type="state",
        table=live.id,
        version=table.version,
        game=GameName(name=game.name, id=game.id, title=game.title),
        config=live.config_json(),
        options=_shown_options(live),
        seats=seats,
        seat=seat,
        yours=sorted(held),
        decider=decider,
        thinking=live.thinking,
        view=view,
        text=text,
        legal=table.legal_texts() if deciding else [],
        choices=[
            Choice.model_validate({**choice.to_json(), **_said(choice.label)}) for choice in choices
        ],
        log=_kept_log(live, seat)[0],
        outcome=outcome_of(table.outcome, table),
        can_undo=bool(held) and table.can_undo,
        endings=endings_open(live, held),
        claim=claim_countdown(live, held),
        analyses=[AnalysisName(name=a.name, help=a.help) for a in analyses.values()],
        clock=clock(live),
        clocks=game_clocks(live),
        hidden_information=game.has_hidden_information,
        rematch=rematch_seats(live, held),
    )


def message_for(live: LiveTable, seat: int | None, held: frozenset[int]) -> JSONObject:
    """:func:`state_for` as JSON, as a socket sends it (:func:`~.sending.as_json`)."""
    return as_json(state_for(live, seat, held))


def message_text(
    live: LiveTable, seat: int | None, held: frozenset[int], state: State | None = None
) -> str:
    """The text a WebSocket is sent: exactly ``json.dumps(message_for(...))``, ``state``
    being :func:`state_for` of the same table, seat and seats, built just before under the
    same lock (built now when not given), with the log's text from :func:`log_text` (the
    rest of the message serialised as ever)."""
    if state is None:
        state = state_for(live, seat, held)
    entries, texts = _kept_log(live, seat)
    same = len(state.log) == len(entries)
    if not same or any(a is not b for a, b in zip(state.log, entries, strict=True)):
        return json.dumps(as_json(state))  # not the table as it is now: serialised whole
    data = as_json(state, exclude={"log"})
    head = json.dumps({key: value for key, value in data.items() if key in _BEFORE_LOG})
    tail = json.dumps({key: value for key, value in data.items() if key not in _BEFORE_LOG})
    return f"{head[:-1]}, {json.dumps('log')}: [{', '.join(texts)}], {tail[1:]}"


def rematch_seats(live: LiveTable, held: frozenset[int]) -> RematchSeats | None:
    """A finished table's rematch as a watcher holding ``held`` is told it
    (:class:`RematchSeats`): each held seat moves one on (or stays, for a rematch at the same
    seats); ``None`` before any rematch."""
    made = live.options.rematch
    if made is None:
        return None
    count = len(live.table.seats)
    shift = 0 if live.options.rematch_same else 1
    return RematchSeats(table=made, seats=sorted((seat + shift) % count for seat in held))


def endings_open(live: LiveTable, held: frozenset[int]) -> list[Ending]:
    """The table-level endings (:mod:`fanfold.core.rulings`) a watcher holding ``held`` may
    ask for now: ``resign`` in a game of one or two sides, ``draw`` (offer or accept) where
    the rules have draws and another side has a person, ``abort`` while some side has not
    moved; none once the game is over, nor for a spectator."""
    table = live.table
    if not held or table.is_over:
        return []
    game = table.game
    teams = game.teams(table.config)
    found: list[Ending] = []
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


def claim_countdown(live: LiveTable, held: frozenset[int]) -> ClaimCountdown | None:
    """The seconds until a seat of ``held`` may claim the win because the other side left
    (0: now; :meth:`LiveTable.claim_wait`), or ``None`` while the other side is here (or
    cannot leave: a bot)."""
    waits = [wait for seat in sorted(held) if (wait := live.claim_wait(seat)) is not None]
    return ClaimCountdown(left=round(min(waits), 1)) if waits else None


def game_clocks(live: LiveTable) -> GameClocks | None:
    """The table's chess clocks (:mod:`fanfold.server.clocks`): its ``speed``, each seat's
    seconds ``left`` now (``None`` for a bot's seat) and the seat whose clock is ``running``;
    ``None`` at a table without a time control."""
    clocks = live.options.clocks
    control = live.options.time_control
    if clocks is None or control is None:
        return None
    speed = control.speed
    now = time.time()
    left: list[float | None] = []
    for seat in range(len(clocks.left)):
        remaining = clocks.remaining(seat, now)
        left.append(None if remaining is None else round(max(0.0, remaining), 1))
    return GameClocks(speed=speed, left=left, running=clocks.running)


def clock(live: LiveTable) -> Clock | None:
    """The time limit of the decision now: its seconds per decision and seconds left, or
    ``None`` (no limit, or a bot decides)."""
    if live.options.time_control is not None:
        return None  # a table with chess clocks: game_clocks
    deadline = live.deadline
    if deadline is None or deadline[0] != live.table.version:
        return None
    left = max(0.0, deadline[1] - time.monotonic())
    return Clock(limit=live.time_limit, left=round(left, 1))


__all__ = [
    "check_spectator",
    "claim_countdown",
    "clock",
    "endings_open",
    "game_clocks",
    "log_entries",
    "log_text",
    "message_for",
    "message_text",
    "outcome_of",
    "rematch_seats",
    "replay_frame",
    "state_for",
]
