"""The tables' API: the games on offer, opening a table, a seat's (or a spectator's) message,
acting and undoing over HTTP, invitations, analyses and the lobby's list of public tables."""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Header, Query, Request

from fanfold.core.config import JSONValue
from fanfold.core.errors import UnknownAgentError
from fanfold.core.registry import set_up
from fanfold.play.analysis import analyses_for
from fanfold.server import protocol
from fanfold.server.daily import DAILY_GAME, DAILY_VARIANT, daily_deal, today
from fanfold.server.fairplay import note_origin
from fanfold.server.games import GameWeb, web_catalogue
from fanfold.server.live import BadRequestError, ForbiddenError, NotFoundError, storage_failure
from fanfold.server.protocol import (
    Act,
    Claim,
    CreateTable,
    EndTable,
    Invite,
    Rematch,
    Takeback,
    Undo,
    check_spectator,
    created_message,
    game_catalogue,
    rematch_seats,
    state_for,
)
from fanfold.server.ratings import running_rated
from fanfold.server.refusals import refusal
from fanfold.server.routes.accounts import count_new_table
from fanfold.server.routes.deps import AccountDep, HubDep, client_of
from fanfold.server.table_options import TableOptions

router = APIRouter(prefix="/api", tags=["tables"])


def chosen_seat(decider: int | None, held: frozenset[int], wanted: int | None) -> int | None:
    """The seat a watcher sees: the one asked for (when held), else the decider when held,
    else the first held, else ``None`` (a spectator)."""
    if wanted is not None:
        if wanted not in held:
            raise ForbiddenError("this link does not hold that seat")
        return wanted
    if decider is not None and decider in held:
        return decider
    return min(held) if held else None


@router.get(
    "/games", response_model=list[protocol.CatalogueEntry], response_model_exclude_unset=True
)
async def games() -> list[protocol.CatalogueEntry]:
    return game_catalogue()


@router.get("/daily", response_model=protocol.Daily, response_model_exclude_unset=True)
async def daily() -> protocol.Daily:
    day = today()
    deal = await asyncio.to_thread(daily_deal, day)
    return protocol.Daily(
        game=DAILY_GAME.name, deal=deal, variant=DAILY_VARIANT, date=day.isoformat()
    )


@router.get("/games/web", response_model=list[GameWeb])
async def games_web() -> list[JSONValue]:
    """What the browser shows of each game (the lobby's words and order, lessons, the seed
    box, the board module), in the lobby's order."""
    return web_catalogue()


def bots_client(request: Request, account: int | None) -> str:
    """Who opens a table, whose share of the bot pool its bots use: the account, else the
    client's address (``--trusted-proxy`` applies)."""
    if account is not None:
        return f"account:{account}"
    return f"address:{client_of(request)}"


@router.post("/tables", response_model=protocol.Created, response_model_exclude_unset=True)
async def create(
    body: CreateTable, request: Request, hub: HubDep, account: AccountDep
) -> protocol.Created:
    game, config = set_up(body.game, body.variant, body.options, body.players)
    seats = list(body.seats) or ["you"] + ["medium"] * (game.num_players(config) - 1)
    if body.seed is not None and body.deal is not None and body.seed != body.deal:
        raise BadRequestError(refusal("table.seed_or_deal"))
    seed = body.seed if body.seed is not None else body.deal
    await count_new_table(request)  # every process's count of the client's tables
    if body.time_limit is not None and not game.has_passive_action:
        raise BadRequestError(refusal("table.no_time_limit", game=game.title))
    # The table's options, checked here once (TableOptions refuses a bad value, said).
    options = TableOptions(
        variant=body.variant or game.presets()[0].name, time_limit=body.time_limit
    )
    try:
        created = await hub.create(
            game,
            config,
            seats,
            seed=seed,
            start_position=body.position,
            options=options,
            practice=body.practice,
            listed=body.public,
            account=account.id if account is not None else None,
            rated=body.rated,
            speed=body.speed,
            client=bots_client(request, account.id if account is not None else None),
        )
    except UnknownAgentError as error:
        # its refusal (a code, the unknown name and the known ones) when it has one
        raise BadRequestError(error.refusal or str(error.args[0])) from None
    mine = [n for n, wanted in enumerate(seats) if wanted.strip().lower() in ("you", "hotseat")]
    account_id = account.id if account is not None else None
    await note_origin(request, hub.store, created.id, mine, account_id, rated=body.rated)
    return created_message(created)


@router.get(
    "/tables/{table_id}/invitation",
    response_model=protocol.Invitation,
    response_model_exclude_unset=True,
)
async def invitation(
    table_id: str,
    invite: Annotated[str, Header(alias="X-Fanfold-Invite", max_length=200)],
    hub: HubDep,
) -> protocol.Invitation:
    seat = await hub.invitation(table_id, invite)
    live = await hub.get(table_id)
    return protocol.Invitation(
        table=table_id,
        seat=seat,
        name=live.table.seat_name(seat),
        game=live.table.game.title,
        variant=live.options.variant,
        chosen_deal=live.options.chosen_deal,
        practice=live.options.practice,
    )


@router.post(
    "/tables/{table_id}/claim", response_model=protocol.Claimed, response_model_exclude_unset=True
)
async def claim(
    table_id: str, body: Claim, request: Request, hub: HubDep, account: AccountDep
) -> protocol.Claimed:
    account_id = account.id if account is not None else None
    seat, token = await hub.claim(table_id, body.invite, account_id)
    live = await hub.get(table_id)
    rated = live.options.rated
    await note_origin(request, hub.store, table_id, [seat], account_id, rated=rated)
    return protocol.Claimed(table=table_id, seat=seat, token=token)


@router.post(
    "/tables/{table_id}/invite",
    response_model=protocol.Reinvited,
    response_model_exclude_unset=True,
)
async def reinvite(table_id: str, body: Invite, hub: HubDep) -> protocol.Reinvited:
    invite = await hub.reinvite(table_id, body.token, body.seat)
    return protocol.Reinvited(table=table_id, seat=body.seat, invite=invite)


@router.post(
    "/tables/{table_id}/rematch",
    response_model=protocol.RematchAnswer,
    response_model_exclude_unset=True,
)
async def rematch(table_id: str, body: Rematch, hub: HubDep) -> protocol.RematchAnswer:
    made = await hub.rematch(table_id, body.token, same_seats=body.seats == "same")
    live = await hub.get(table_id)
    found = rematch_seats(live, live.seats_of(body.token))
    if found is None:
        return protocol.RematchAnswer(table=made, seats=[])
    return protocol.RematchAnswer(table=found.table, seats=found.seats)


@router.get(
    "/tables", response_model=list[protocol.TableSummary], response_model_exclude_unset=True
)
async def recent(
    hub: HubDep, limit: Annotated[int, Query(ge=1, le=100)] = 20
) -> list[protocol.TableSummary]:
    try:
        found = await asyncio.to_thread(hub.store.recent, limit)
    except Exception as error:
        raise storage_failure("store.tables", error) from None
    return protocol.summaries(found)


@router.get("/tables/{table_id}", response_model=protocol.State, response_model_exclude_unset=True)
async def table_state(
    table_id: str,
    hub: HubDep,
    seat: Annotated[int | None, Query(ge=0, le=16)] = None,
    token: Annotated[str | None, Header(alias="X-Fanfold-Token", max_length=200)] = None,
) -> protocol.State:
    live = await hub.get(table_id)
    async with live.lock:
        held = live.seats_of(token)
        chosen = chosen_seat(live.table.decider, held, seat)
        check_spectator(live, chosen)
        return state_for(live, chosen, held)


@router.post(
    "/tables/{table_id}/act", response_model=protocol.Acted, response_model_exclude_unset=True
)
async def act(table_id: str, body: Act, hub: HubDep) -> protocol.Acted:
    acted = await hub.act(table_id, body.token, body.version, body.action, body.seat)
    return protocol.Acted(ok=True, played=acted.text, number=acted.number, version=acted.version)


@router.post(
    "/tables/{table_id}/undo", response_model=protocol.Undone, response_model_exclude_unset=True
)
async def undo(table_id: str, body: Undo, hub: HubDep) -> protocol.Undone:
    undone = await hub.undo(table_id, body.token, body.version)
    return protocol.Undone(ok=undone.done, version=undone.version)


@router.post(
    "/tables/{table_id}/takeback",
    response_model=protocol.Undone,
    response_model_exclude_unset=True,
)
async def takeback(table_id: str, body: Takeback, hub: HubDep) -> protocol.Undone:
    taken = await hub.takeback(table_id, body.token, body.answer)
    return protocol.Undone(ok=taken.done, version=taken.version)


@router.post(
    "/tables/{table_id}/end", response_model=protocol.EndedAnswer, response_model_exclude_unset=True
)
async def end(table_id: str, body: EndTable, hub: HubDep) -> protocol.EndedAnswer:
    ended = await hub.end(table_id, body.token, body.version, body.ending, body.seat)
    return protocol.EndedAnswer(ok=ended.done, version=ended.version)


@router.get(
    "/tables/{table_id}/analysis/{name}",
    response_model=protocol.AnalysisAnswer,
    response_model_exclude_unset=True,
)
async def analysis(
    table_id: str,
    name: str,
    hub: HubDep,
    token: Annotated[str | None, Header(alias="X-Fanfold-Token", max_length=200)] = None,
) -> protocol.AnalysisAnswer:
    live = await hub.get(table_id)
    if not live.seats_of(token):
        raise ForbiddenError(refusal("analysis.players_only"))
    if running_rated(live.options, live.table):
        raise ForbiddenError(refusal("analysis.rated"))
    found = analyses_for(live.table.game).get(name) if live.options.analysis else None
    if found is None:
        raise NotFoundError(refusal("found.analysis", name=repr(name)))
    await hub.note_aid(table_id, name)  # issue 31: the daily deal's board ranks unaided wins
    async with live.lock:  # never a position whose last action is still being stored
        position, version = live.table.state, live.table.version  # the version analysed
    loop = asyncio.get_running_loop()
    text = await loop.run_in_executor(hub.executor, found.run, position)
    data = (
        await loop.run_in_executor(hub.executor, found.data, position)
        if found.data is not None
        else None
    )
    return protocol.AnalysisAnswer(name=name, text=text, data=data, version=version)
