"""Moderation over HTTP (:mod:`fanfold.server.moderation` says what each does):

* players: ``POST /api/reports`` (a signed-in player at the table reports another seat's
  account) and ``POST /api/appeals`` (a closed account's owner, by name and password: no
  session is made; the password is checked as a sign-in is, under its limits), and the page
  ``/appeal``;
* moderators (a signed-in moderator's session; a guest gets 401, anyone else 403):
  ``GET /api/moderation/reports`` (``?all=true``: settled ones too), ``/flags``,
  ``/appeals``, ``/log``, ``/accounts/{name}``; ``POST /api/moderation/accounts/{name}/close``
  and ``/reopen`` and ``POST /api/moderation/reports/{id}/resolve``, each with a ``note``;
  and the page ``/moderation`` (a 403 page for anyone else).

The answers' models are here rather than in :mod:`fanfold.server.protocol`: they are the
moderators' own, not the players' protocol.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from fanfold.server.accounts import SignInError
from fanfold.server.i18n import gettext
from fanfold.server.moderation import (
    APPEAL_LENGTH,
    MODERATOR_NOTE_LENGTH,
    NOTE_LENGTH,
    Closing,
    account_summary,
    close_account,
    file_appeal,
    file_report,
    is_moderator,
    list_appeals,
    list_flags,
    list_log,
    list_reports,
    moderator_of,
    reopen_account,
    resolve_report,
)
from fanfold.server.refusals import refusal
from fanfold.server.routes.deps import AccountDep, AccountsDep, ClientDep, HubDep
from fanfold.server.routes.players import _page
from fanfold.server.templating import render

#: Reports and appeals, the moderators' pages; their API is :data:`api`, included in it.
router = APIRouter(tags=["moderation"])
api = APIRouter(prefix="/api/moderation")  # its tags are the router's, on inclusion


# ------------------------------------------------------------------ models


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _Answer(BaseModel):
    model_config = ConfigDict(extra="allow")


class ReportRequest(_In):
    """A player's report: the table, the seat reported, the reason and a note."""

    table: str = Field(min_length=1, max_length=40)
    seat: int = Field(ge=0, le=7)
    reason: Literal["cheating", "abuse", "boosting", "other"]
    note: str = Field(default="", max_length=NOTE_LENGTH)


class AppealRequest(_In):
    """A closed account's appeal: its name and password, and the note."""

    name: str = Field(min_length=1, max_length=40)
    password: str = Field(min_length=1, max_length=200)
    note: str = Field(min_length=1, max_length=APPEAL_LENGTH)


class ModeratorNote(_In):
    """Why a moderator acts, for the log."""

    note: str = Field(min_length=1, max_length=MODERATOR_NOTE_LENGTH)


class Person(_Answer):
    """An account named in a moderator's list."""

    id: int
    name: str
    closed: bool


class Report(_Answer):
    """A report with its context: the table, its game, rated or not, the seat reported, the
    moves played when it was filed, who reported whom; settled or not."""

    id: int
    table: str
    game: str
    rated: bool
    seat: int
    moves: int
    reason: str
    note: str
    at: float
    reporter: Person
    reported: Person
    resolved_at: float | None
    resolved_by: str | None
    resolution: str | None


class Reports(_Answer):
    reports: list[Report]


class Flag(_Answer):
    """A fair-play flag: two accounts that shared an address or a device at a rated table."""

    id: int
    table: str
    kind: str
    first: Person
    second: Person
    at: float


class Flags(_Answer):
    flags: list[Flag]


class Appeal(_Answer):
    id: int
    account: Person
    note: str
    at: float


class Appeals(_Answer):
    appeals: list[Appeal]


class LogEntry(_Answer):
    """A moderator's action: who, what, whom, the note, what it did, when."""

    id: int
    moderator: str
    moderator_id: int | None
    action: str
    account: str | None
    account_id: int | None
    note: str
    detail: str
    at: float


class Log(_Answer):
    log: list[LogEntry]


class AccountSummary(_Answer):
    id: int
    name: str
    role: str
    closed: bool
    open_reports: int
    flags: int
    appeals: int
    refunded: float


class RefundGiven(_Answer):
    table: str
    player: str
    family: str
    points: float


class Closed(_Answer):
    """What closing an account did."""

    account: str
    closed: bool
    was_closed: bool
    sessions_ended: int
    reports_settled: int
    refunded: float
    refunds: list[RefundGiven]


class Reopened(_Answer):
    account: str
    closed: bool


class Resolved(_Answer):
    id: int
    resolved_at: float
    resolved_by: str
    resolution: str


class AppealSent(_Answer):
    id: int
    account: str
    at: float


# ------------------------------------------------------------------ players


@router.post("/api/reports", response_model=Report)
async def report(body: ReportRequest, hub: HubDep, account: AccountDep) -> dict[str, Any]:
    if account is None:
        raise SignInError(refusal("report.sign_in"))
    return await asyncio.to_thread(
        file_report, hub.store.engine, account.id, body.table, body.seat, body.reason, body.note
    )


@router.post("/api/appeals", response_model=AppealSent)
async def appeal(
    body: AppealRequest, hub: HubDep, accounts: AccountsDep, client: ClientDep
) -> dict[str, Any]:
    found, _closed = await accounts.check(body.name, body.password, client)
    return await asyncio.to_thread(file_appeal, hub.store.engine, found.id, body.note)


@router.get("/appeal", include_in_schema=False)
async def appeal_page() -> HTMLResponse:
    return HTMLResponse(render("moderation.html"))


# ------------------------------------------------------------------ moderators


def _read(hub: Any, account: Any, reader: Any, **more: Any) -> Any:
    moderator_of(hub.store.engine, account)
    with hub.store.engine.connect() as connection:
        return reader(connection, **more)


@router.get("/moderation", include_in_schema=False)
async def moderation_page(hub: HubDep, account: AccountDep) -> Response:
    if not await asyncio.to_thread(is_moderator, hub.store.engine, account):
        page = _page(gettext("Moderators only"), "moderators_only.html")
        return HTMLResponse(page, status_code=403)
    return HTMLResponse(render("moderation.html"))


@api.get("/reports", response_model=Reports)
async def reports_api(
    hub: HubDep, account: AccountDep, everything: Annotated[bool, Query(alias="all")] = False
) -> dict[str, Any]:
    found = await asyncio.to_thread(_read, hub, account, list_reports, everything=everything)
    return {"reports": found}


@api.get("/flags", response_model=Flags)
async def flags_api(hub: HubDep, account: AccountDep) -> dict[str, Any]:
    return {"flags": await asyncio.to_thread(_read, hub, account, list_flags)}


@api.get("/appeals", response_model=Appeals)
async def appeals_api(hub: HubDep, account: AccountDep) -> dict[str, Any]:
    return {"appeals": await asyncio.to_thread(_read, hub, account, list_appeals)}


@api.get("/log", response_model=Log)
async def log_api(hub: HubDep, account: AccountDep) -> dict[str, Any]:
    return {"log": await asyncio.to_thread(_read, hub, account, list_log)}


@api.get("/accounts/{name}", response_model=AccountSummary)
async def account_api(name: str, hub: HubDep, account: AccountDep) -> dict[str, Any]:
    found: dict[str, Any] = await asyncio.to_thread(_read, hub, account, account_summary, name=name)
    return found


def _closed(closing: Closing) -> dict[str, Any]:
    return {
        "account": closing.account.name,
        "closed": True,
        "was_closed": closing.was_closed,
        "sessions_ended": closing.sessions_ended,
        "reports_settled": closing.reports_settled,
        "refunded": closing.refunded,
        "refunds": [
            {"table": r.table, "player": r.name, "family": r.family, "points": r.points}
            for r in closing.refunds
        ],
    }


@api.post("/accounts/{name}/close", response_model=Closed)
async def close_api(
    name: str, body: ModeratorNote, hub: HubDep, account: AccountDep
) -> dict[str, Any]:
    engine = hub.store.engine
    moderator = await asyncio.to_thread(moderator_of, engine, account)
    closing = await asyncio.to_thread(close_account, engine, name, body.note, moderator)
    return _closed(closing)


@api.post("/accounts/{name}/reopen", response_model=Reopened)
async def reopen_api(
    name: str, body: ModeratorNote, hub: HubDep, account: AccountDep
) -> dict[str, Any]:
    engine = hub.store.engine
    moderator = await asyncio.to_thread(moderator_of, engine, account)
    state = await asyncio.to_thread(reopen_account, engine, name, body.note, moderator)
    return {"account": state.name, "closed": state.closed}


@api.post("/reports/{number}/resolve", response_model=Resolved)
async def resolve_api(
    number: int, body: ModeratorNote, hub: HubDep, account: AccountDep
) -> dict[str, Any]:
    engine = hub.store.engine
    moderator = await asyncio.to_thread(moderator_of, engine, account)
    return await asyncio.to_thread(resolve_report, engine, number, body.note, moderator)


router.include_router(api)
