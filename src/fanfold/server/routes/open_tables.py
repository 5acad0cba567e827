"""Open tables: the lobby's list of listed tables with seats anyone may take
(``GET /api/open-tables``, and pushed on the WebSocket ``/ws/lobby`` whenever it changes:
:mod:`fanfold.server.lobby_feed`), taking one (``POST /api/tables/{id}/join``) and quick match
(``POST /api/quick-match``: the oldest open table of the same settings: game, variant without
options of its own, players, rated or not, time limit), and the creator
giving a seat nobody took to a bot (``POST /api/tables/{id}/bot``)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, WebSocket

from fanfold.core.registry import set_up
from fanfold.server import protocol
from fanfold.server.fairplay import note_origin
from fanfold.server.live import NotFoundError, storage_failure
from fanfold.server.lobby_feed import RENEW, LobbyFeed, LobbySender, open_table_lines
from fanfold.server.outbox import spectators_pacer
from fanfold.server.refusals import refusal
from fanfold.server.routes.deps import AccountDep, HubDep

router = APIRouter(prefix="/api", tags=["open tables"])
#: The lobby's socket, outside ``/api``.
socket_router = APIRouter(tags=["open tables"])


async def _open(hub: Any, limit: int) -> list[protocol.OpenTable]:
    try:
        return await asyncio.to_thread(open_table_lines, hub.store, limit)
    except Exception as error:
        raise storage_failure("store.open_tables", error) from None


@router.get(
    "/open-tables", response_model=list[protocol.OpenTable], response_model_exclude_unset=True
)
async def open_tables(
    hub: HubDep, limit: Annotated[int, Query(ge=1, le=100)] = 50
) -> list[protocol.OpenTable]:
    return await _open(hub, limit)


@router.post(
    "/tables/{table_id}/join", response_model=protocol.Claimed, response_model_exclude_unset=True
)
async def join(
    table_id: str, request: Request, hub: HubDep, account: AccountDep
) -> protocol.Claimed:
    account_id = account.id if account is not None else None
    seat, token = await hub.join(table_id, account_id)
    rated = (await hub.get(table_id)).options.rated
    await note_origin(request, hub.store, table_id, [seat], account_id, rated=rated)
    return protocol.Claimed(table=table_id, seat=seat, token=token)


@router.post(
    "/tables/{table_id}/bot", response_model=protocol.SeatGiven, response_model_exclude_unset=True
)
async def seat_bot(table_id: str, body: protocol.GiveSeat, hub: HubDep) -> protocol.SeatGiven:
    await hub.seat_bot(table_id, body.token, body.seat, body.level)
    return protocol.SeatGiven(table=table_id, seat=body.seat, level=body.level)


@router.post("/quick-match", response_model=protocol.Claimed, response_model_exclude_unset=True)
async def quick_match(
    body: protocol.QuickMatch, request: Request, hub: HubDep, account: AccountDep
) -> protocol.Claimed:
    game, config = set_up(body.game, body.variant, {}, body.players)
    variant = body.variant or game.presets()[0].name
    count = game.num_players(config)
    for line in reversed(await _open(hub, 100)):  # the table waiting longest first
        if (
            line.game == game.name
            and line.variant == variant
            and line.players == count
            and line.rated == body.rated
            and line.time_limit == body.time_limit
        ):
            try:
                live = await hub.get(line.table)
                if live.table.config != config:
                    continue  # the variant with options of its own: joined from its line only
                account_id = account.id if account is not None else None
                seat, token = await hub.join(line.table, account_id)
            except NotFoundError:
                continue
            await note_origin(request, hub.store, line.table, [seat], account_id, rated=body.rated)
            return protocol.Claimed(table=line.table, seat=seat, token=token)
    raise NotFoundError(refusal("found.no_open_table"))


#: The close code for a lobby socket that was sent something (it only listens).
LISTENS_ONLY = 1003


def _client(websocket: WebSocket) -> str:
    """The client as the per-client limits count it (:mod:`fanfold.server.throttle`)."""
    counted = websocket.scope.get("state", {}).get("client")
    if isinstance(counted, str):
        return counted
    return websocket.client.host if websocket.client is not None else "unknown"


@socket_router.websocket("/ws/lobby")
async def lobby_socket(websocket: WebSocket) -> None:
    """The lobby's open tables (``LobbyTables``): sent once the socket opens and again after
    every change, within the lobby sockets' own limits
    (:class:`~fanfold.server.lobby_feed.LobbyLimits`). The socket takes no messages: one is
    answered by closing it (1003)."""
    feed: LobbyFeed = websocket.app.state.lobby
    limits = feed.limits
    client = _client(websocket)
    await spectators_pacer().turn()  # a crowd of lobbies opening is let in a few at a time
    refusal = feed.admit(client)
    await websocket.accept()
    if refusal is not None:
        code, sentence = refusal
        with contextlib.suppress(Exception):  # the client may be gone already
            await websocket.send_text(protocol.refusal_text(sentence, "RateLimited"))
            await websocket.close(code=code, reason=sentence[:120])
        return

    async def close(code: int, reason: str) -> None:
        await websocket.close(code=code, reason=reason)

    sender = LobbySender(
        websocket.send_text, close, send_seconds=limits.send_seconds, pacer=spectators_pacer()
    )
    counted = [True]

    def release() -> None:  # once, and before a renewal's close (so the page may reconnect)
        if counted[0]:
            counted[0] = False
            feed.leave(client)

    stop = feed.subscribe(sender.post)
    sockets = websocket.app.state.hub.metrics.sockets  # counted with the tables' sockets
    sockets.inc()
    receiving: asyncio.Task[Any] = asyncio.ensure_future(websocket.receive())
    try:
        done, _ = await asyncio.wait(
            {receiving, sender.task},
            timeout=limits.lifetime_seconds,
            return_when=asyncio.FIRST_COMPLETED,
        )
        if sender.task in done:
            return  # dropped (it did not read) or gone
        if receiving in done:
            gone = receiving.exception() is not None  # the socket failed
            if gone or receiving.result()["type"] == "websocket.disconnect":
                # its client went away, or the server stops: nothing is left to send, and
                # the sender, which waits for the next list, ends below
                return
            sender.shut(LISTENS_ONLY, "the lobby's socket takes no messages")
        else:
            minutes = limits.lifetime_seconds / 60
            release()
            sender.shut(
                RENEW, f"a lobby connection lasts {minutes:g} min; connect again for the list"
            )
        if not sender.task.done():
            await asyncio.wait({sender.task}, timeout=limits.send_seconds * 2)
    finally:
        receiving.cancel()
        sockets.dec()
        stop()
        release()
        await sender.stop()
