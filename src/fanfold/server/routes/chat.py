"""Chat over HTTP (:mod:`fanfold.server.chat` says what chat is; lines themselves go over the
table's socket):

* ``POST /api/tables/{id}/chat/{line}/report``: a reader of the line's room reports it (a seat's
  token in ``X-Fanfold-Token`` for the players' room, a signed-in spectator for the
  spectators'), with an optional note; kept with the lines around it;
* ``GET /api/moderation/chat-reports``: the open reports with their lines, for the moderators
  (``?all=true``: the settled ones too);
* ``POST /api/moderation/chat-reports/{id}/settle``: a moderator settles one, with a note
  (logged, as the moderators' other actions are).
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import HTTPConnection

from fanfold.server.chat import REPORT_NOTE, ChatRooms, shown
from fanfold.server.moderation_actions import settle_chat_report
from fanfold.server.moderators import moderator_of
from fanfold.server.routes import HubDep
from fanfold.server.routes.deps import AccountDep
from fanfold.server.routes.moderation import ModeratorNote, Resolved
from fanfold.server.store.chat_store import SqlChat
from fanfold.server.store.memory_chat import MemoryChat
from fanfold.server.store.protocols import ChatStore

router = APIRouter(tags=["chat"])


def rooms_of(connection: HTTPConnection) -> ChatRooms:
    """The running application's chat, made at its first use: on the tables' SQL store's
    engine, or in memory for a hub whose tables are kept in memory."""
    state = connection.app.state
    rooms: ChatRooms | None = getattr(state, "chat", None)
    if rooms is None:
        engine = getattr(state.hub.store, "engine", None)
        store: ChatStore = SqlChat(engine) if engine is not None else MemoryChat()
        rooms = state.chat = ChatRooms(store)
    return rooms


class ChatReportRequest(BaseModel):
    """Why a line is reported (optional)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    note: str = Field(default="", max_length=REPORT_NOTE)


class _Answer(BaseModel):
    model_config = ConfigDict(extra="allow")


class ChatReported(_Answer):
    """A report was kept."""

    report: int


class ChatLineShown(_Answer):
    """A line as the moderators see it (a preset phrase: its English words and its key)."""

    id: int
    room: str
    name: str
    account: int | None
    seat: int | None
    text: str
    phrase: str | None
    at: float


class ChatReportShown(_Answer):
    """A reported line with the lines around it (``lines``, oldest first)."""

    id: int
    table: str
    message: int
    reporter: str
    note: str
    at: float
    lines: list[ChatLineShown]
    resolved_at: float | None
    resolved_by: str | None
    resolution: str | None


class ChatReports(_Answer):
    reports: list[ChatReportShown]


@router.post("/api/tables/{table_id}/chat/{line_id}/report", response_model=ChatReported)
async def report_line(
    table_id: str,
    line_id: int,
    body: ChatReportRequest,
    hub: HubDep,
    account: AccountDep,
    request: Request,
    token: Annotated[str | None, Header(alias="X-Fanfold-Token", max_length=200)] = None,
) -> dict[str, Any]:
    live = await hub.get(table_id)
    who = None if account is None else (account.id, account.name)
    number = await rooms_of(request).report(
        live, line_id, seat_token=token, account=who, note=body.note
    )
    return {"report": number}


@router.get("/api/moderation/chat-reports", response_model=ChatReports)
async def chat_reports(
    hub: HubDep,
    account: AccountDep,
    request: Request,
    everything: Annotated[bool, Query(alias="all")] = False,
) -> dict[str, Any]:
    await asyncio.to_thread(moderator_of, hub.store.engine, account)
    found = await rooms_of(request).reports(settled=everything)
    return {
        "reports": [
            {
                "id": report.id,
                "table": report.table_id,
                "message": report.message_id,
                "reporter": report.reporter,
                "note": report.note,
                "at": report.at,
                "resolved_at": report.resolved_at,
                "resolved_by": report.resolved_by,
                "resolution": report.resolution,
                "lines": [
                    {
                        "id": line.id,
                        "room": line.room,
                        "name": line.name,
                        "account": line.account_id,
                        "seat": line.seat,
                        "text": shown(line.text)[0],
                        "phrase": shown(line.text)[1],
                        "at": line.at,
                    }
                    for line in report.context
                ],
            }
            for report in found
        ]
    }


@router.post("/api/moderation/chat-reports/{number}/settle", response_model=Resolved)
async def settle_chat_api(
    number: int, body: ModeratorNote, hub: HubDep, account: AccountDep
) -> dict[str, Any]:
    engine = hub.store.engine
    moderator = await asyncio.to_thread(moderator_of, engine, account)
    return await asyncio.to_thread(settle_chat_report, engine, number, body.note, moderator)
