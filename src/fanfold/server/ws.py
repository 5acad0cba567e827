"""The WebSocket ``/ws/tables/{id}``: one connection's loop.

The first message is a hello (a seat's token, or none for a spectator; ``chat: true`` to take
part in the table's chat, :mod:`fanfold.server.chat`); then act, undo, end, takeback, view or chat
(:data:`fanfold.server.protocol.INCOMING`, read once and dispatched on its type). Each
connection may send :data:`RATE` messages a second on average (bursts of :data:`BURST`) of at
most :data:`MAX_MESSAGE` bytes; a refusal is an error message and changes nothing. Everything
the connection is told goes through its own outbox (:mod:`fanfold.server.outbox`).
"""

from __future__ import annotations

import json
import time

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError
from starlette.websockets import WebSocketDisconnected

from fanfold.core.config import JSONObject
from fanfold.core.errors import FanfoldError, Refusal
from fanfold.server.live import (
    CrowdedError,
    ForbiddenError,
    NotFoundError,
    StorageError,
    Watcher,
    storage_failure,
)
from fanfold.server.metrics import since_ns
from fanfold.server.outbox import BEHIND, Outbox, spectators_pacer
from fanfold.server.ownership import ElsewhereError
from fanfold.server.protocol import (
    INCOMING_TYPES,
    Error,
    ErrorBody,
    Hello,
    Ok,
    WsAct,
    WsChat,
    WsEnd,
    WsTakeback,
    WsUndo,
    WsView,
    check_spectator,
    error_message,
    malformed,
    message_text,
    ok_ended,
    ok_played,
    ok_undone,
    parse_incoming,
    parse_json,
    wire,
)
from fanfold.server.routes import HubDep
from fanfold.server.routes.chat import rooms_of
from fanfold.server.routes.deps import signed_in
from fanfold.server.routes.tables import chosen_seat
from fanfold.server.settings import Settings

#: The largest WebSocket message accepted, in bytes.
MAX_MESSAGE = 8 * 1024
#: WebSocket messages a connection may send per second, on average, and in a burst.
RATE, BURST = 20.0, 40.0

router = APIRouter(tags=["play"])


@router.websocket("/ws/tables/{table_id}")
async def socket(websocket: WebSocket, table_id: str, hub: HubDep) -> None:
    settings: Settings = websocket.app.state.settings
    # New connections come in a few at a time (a crowd arriving at once, such as the
    # spectators who follow a watched player to a new table): the players' actions are
    # read between them.
    await spectators_pacer().turn()
    await websocket.accept()

    async def close(code: int, reason: str) -> None:
        await websocket.close(code=code, reason=reason)

    # Everything this connection is told goes through its outbox, written by its own
    # task: an answer never waits for another connection (see fanfold.server.outbox).
    outbox = Outbox(websocket.send_text, close)

    async def send(message: JSONObject) -> None:  # what the hub tells a watcher without
        # an outbox: never this one, whose messages the hub posts to its outbox itself
        outbox.post(json.dumps(message))

    def answer(message: Ok | Error) -> None:
        outbox.post(wire(message))

    async def refuse(error: FanfoldError | ErrorBody, code: int, reason: str) -> None:
        answer(error_message(error))
        outbox.shut(code, reason)
        await outbox.wait()

    try:
        live = await hub.get(table_id)
    except (NotFoundError, StorageError) as error:
        if isinstance(error, NotFoundError):
            await refuse(error, 4404, "no such table")
        elif isinstance(error, ElsewhereError):  # moving between processes: ask again soon
            await refuse(error, 4503, "the table is moving to another process; try again")
        else:
            await refuse(error, 1011, "the store failed")
        await outbox.stop()
        return
    watcher: Watcher | None = None
    allowance, last = BURST, time.monotonic()
    hub.metrics.sockets.inc()
    try:
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                raise WebSocketDisconnect(frame.get("code", 1000))
            raw: str | None = frame.get("text")
            received = time.perf_counter_ns()
            now = time.monotonic()
            allowance = min(BURST, allowance + (now - last) * RATE)
            last = now
            if allowance < 1:
                await refuse(
                    ErrorBody(error="too many messages; slow down", kind="Flood"),
                    1008,
                    "too many messages",
                )
                return
            allowance -= 1
            if raw is None:  # a binary frame
                answer(malformed("send JSON text, not binary data"))
                continue
            if len(raw) > MAX_MESSAGE or len(raw.encode()) > MAX_MESSAGE:
                sentence = f"message too large (at most {MAX_MESSAGE} bytes)"
                answer(error_message(ErrorBody(error=sentence, kind="TooLarge")))
                continue
            try:
                message = parse_incoming(parse_json(raw), hello=watcher is None)
                if isinstance(message, Hello):
                    held = live.seats_of(message.token)
                    if message.token and not held and not live.is_creator(message.token):
                        raise ForbiddenError(Refusal("server.no_seat_held"))
                    chosen = chosen_seat(live.table.decider, held, message.seat)
                    check_spectator(live, chosen)  # before the hello counts
                    account = None
                    if message.chat:  # who is signed in: a spectator writes signed in
                        try:
                            account = await signed_in(websocket)
                        except Exception as error:  # the store failed: no hello yet
                            raise storage_failure("store.chat_join", error) from error
                    watcher = Watcher(chosen, held, send, message.token, outbox, message.chat)
                    if account is not None:
                        watcher.account = (account.id, account.name)
                    if watcher.spectating:
                        # A crowd of spectators arriving at once (a watched game ended,
                        # and they follow its player) is let in a few at a time: the
                        # players' actions are read between them.
                        await spectators_pacer().turn()
                    try:
                        live = await hub.watch(live, watcher, spectators=settings.limits.spectators)
                    except CrowdedError as error:
                        watcher = None
                        await refuse(error, BEHIND, "the table has all the spectators it takes")
                        return
                    if watcher.chat:
                        outbox.post(await rooms_of(websocket).join(live, watcher))
                    continue
                assert watcher is not None  # parse_incoming reads a hello first
                if isinstance(message, WsAct):
                    hub.metrics.act_stage_seconds.labels("parse").observe(since_ns(received))
                    played = await hub.act(
                        table_id,
                        watcher.token,
                        message.version,
                        message.action,
                        message.seat,  # None: the decider when held (hot-seat)
                    )
                    answer(ok_played(played))
                elif isinstance(message, WsUndo):
                    done = await hub.undo(table_id, watcher.token, message.version)
                    answer(ok_undone(done))
                elif isinstance(message, WsEnd):
                    ended = await hub.end(
                        table_id, watcher.token, message.version, message.ending, message.seat
                    )
                    answer(ok_ended(ended))
                elif isinstance(message, WsTakeback):
                    taken = await hub.takeback(table_id, watcher.token, message.answer)
                    answer(ok_undone(taken))
                elif isinstance(message, WsChat):
                    if not watcher.chat:
                        raise ForbiddenError("say hello with chat: true to take part in chat")
                    await rooms_of(websocket).say(live, watcher, message.room, message.text)
                elif isinstance(message, WsView):
                    if message.seat is not None and message.seat not in watcher.seats:
                        raise ForbiddenError("this link does not hold that seat")
                    check_spectator(live, message.seat)  # refused: nothing changes
                    watcher.seat = message.seat
                    async with live.lock:  # never an action still being stored
                        text = message_text(live, watcher.seat, watcher.seats)
                    outbox.post(text)
            except ValidationError as error:
                first = error.errors()[0]
                place = tuple(first.get("loc", ()))
                if place and place[0] in INCOMING_TYPES:  # the union's tag, said already
                    place = place[1:]
                where = ".".join(str(p) for p in place)
                answer(malformed(f"{where}: {first.get('msg')}"))
            except FanfoldError as error:
                answer(error_message(error))
            except ValueError as error:
                answer(malformed(str(error)))
    except (WebSocketDisconnect, WebSocketDisconnected):
        pass  # the browser went away (WebSocketDisconnected: a send after it closed)
    finally:
        hub.metrics.sockets.dec()
        if watcher is not None:
            hub.unwatch(live, watcher)
        await outbox.stop()
        if watcher is not None:
            await hub.tell_left(live, watcher)
