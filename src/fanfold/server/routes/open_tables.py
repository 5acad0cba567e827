"""Open tables: the lobby's list of listed tables with seats anyone may take
(``GET /api/open-tables``, and pushed on the WebSocket ``/ws/lobby`` whenever it changes:
:mod:`fanfold.server.lobby_feed`), taking one (``POST /api/tables/{id}/join``) and quick match
(``POST /api/quick-match``: the oldest open table of the same settings), and the creator
giving a seat nobody took to a bot (``POST /api/tables/{id}/bot``)."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Query, WebSocket

from fanfold.core.config import JSONObject
from fanfold.core.registry import set_up
from fanfold.server import protocol
from fanfold.server.live import NotFoundError, storage_failure
from fanfold.server.lobby_feed import LobbyFeed, open_table_lines
from fanfold.server.outbox import Outbox, spectators_pacer
from fanfold.server.routes import HubDep
from fanfold.server.routes.accounts import AccountDep

router = APIRouter(prefix="/api")
#: The lobby's socket, outside ``/api``.
socket_router = APIRouter()


async def _open(hub: Any, limit: int) -> list[JSONObject]:
    try:
        return await asyncio.to_thread(open_table_lines, hub.store, limit)
    except Exception as error:
        raise storage_failure("the open tables could not be listed", error) from None


@router.get(
    "/open-tables", response_model=list[protocol.OpenTable], response_model_exclude_unset=True
)
async def open_tables(
    hub: HubDep, limit: Annotated[int, Query(ge=1, le=100)] = 50
) -> list[JSONObject]:
    return await _open(hub, limit)


@router.post(
    "/tables/{table_id}/join", response_model=protocol.Claimed, response_model_exclude_unset=True
)
async def join(table_id: str, hub: HubDep, account: AccountDep) -> JSONObject:
    seat, token = await hub.join(table_id, account.id if account is not None else None)
    return {"table": table_id, "seat": seat, "token": token}


@router.post(
    "/tables/{table_id}/bot", response_model=protocol.SeatGiven, response_model_exclude_unset=True
)
async def seat_bot(table_id: str, body: protocol.GiveSeat, hub: HubDep) -> JSONObject:
    await hub.seat_bot(table_id, body.token, body.seat, body.level)
    return {"table": table_id, "seat": body.seat, "level": body.level}


@router.post("/quick-match", response_model=protocol.Claimed, response_model_exclude_unset=True)
async def quick_match(body: protocol.QuickMatch, hub: HubDep, account: AccountDep) -> JSONObject:
    game, config = set_up(body.game, body.variant, {}, body.players)
    variant = body.variant or game.presets()[0].name
    count = game.num_players(config)
    for line in reversed(await _open(hub, 100)):  # the table waiting longest first
        if (
            line["game"] == game.name
            and line["variant"] == variant
            and line["players"] == count
            and line["rated"] == body.rated
        ):
            try:
                seat, token = await hub.join(
                    str(line["table"]), account.id if account is not None else None
                )
            except NotFoundError:
                continue
            return {"table": line["table"], "seat": seat, "token": token}
    raise NotFoundError(
        "no open table waits with these settings just now; open one and it will be listed"
    )


#: The close code for a lobby socket that was sent something (it only listens).
LISTENS_ONLY = 1003


@socket_router.websocket("/ws/lobby")
async def lobby_socket(websocket: WebSocket) -> None:
    """The lobby's open tables (``LobbyTables``): sent once the socket opens and again after
    every change. The socket takes no messages: one is answered by closing it (1003)."""
    feed: LobbyFeed = websocket.app.state.lobby
    await spectators_pacer().turn()  # a crowd of lobbies opening is let in a few at a time
    await websocket.accept()

    async def close(code: int, reason: str) -> None:
        await websocket.close(code=code, reason=reason)

    outbox = Outbox(websocket.send_text, close)
    sent: list[str] = [""]

    def push(text: str) -> None:
        if text != sent[0]:
            sent[0] = text
            outbox.post(text)

    stop = feed.subscribe(push)
    sockets = websocket.app.state.hub.metrics.sockets  # counted with the tables' sockets
    sockets.inc()
    try:
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            outbox.shut(LISTENS_ONLY, "the lobby's socket takes no messages")
            await outbox.wait()
            break
    finally:
        sockets.dec()
        stop()
        await outbox.stop()
