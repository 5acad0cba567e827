"""Records: a table's record to download, a finished game's replay frames, and a table opened
from a record."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from fanfold.core.errors import FanfoldError
from fanfold.core.records import MAX_SEED_DIGITS, GameRecord
from fanfold.core.registry import get_game
from fanfold.server import protocol
from fanfold.server.live import BadRequestError, ForbiddenError
from fanfold.server.protocol import LoadRecord, created_message, replay_frame
from fanfold.server.ratings import running_rated
from fanfold.server.refusals import refusal
from fanfold.server.routes.accounts import count_new_table
from fanfold.server.routes.deps import HubDep
from fanfold.server.routes.tables import bots_client
from fanfold.server.table_options import TableOptions

router = APIRouter(prefix="/api", tags=["records"])


@router.get(
    "/tables/{table_id}/record",
    response_class=Response,
    responses={
        200: {
            "description": "The record, as a file to download.",
            "content": {"application/json": {"schema": protocol.RecordFile.model_json_schema()}},
        }
    },
)
async def record(table_id: str, hub: HubDep) -> Response:
    live = await hub.get(table_id)
    table = live.table
    async with live.lock:  # never an action that is still being stored
        if running_rated(live.options, table):
            raise ForbiddenError(refusal("record.download_rated"))
        if table.game.has_hidden_information and not table.is_over:
            raise ForbiddenError(
                "the record holds every hidden card: it can be downloaded once the game is over"
            )
        body = table.finish().dumps()
    name = f"{table.game.name}-{table_id}.json"
    return Response(
        body,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@router.get(
    "/tables/{table_id}/replay", response_model=protocol.Replay, response_model_exclude_unset=True
)
async def replay(
    table_id: str,
    hub: HubDep,
    step: Annotated[int, Query(ge=0)] = 0,
    seat: Annotated[int | None, Query(ge=0, le=16)] = None,
) -> protocol.Replay:
    live = await hub.get(table_id)
    table = live.table
    async with live.lock:  # never an action that is still being stored
        if running_rated(live.options, table):
            raise ForbiddenError(refusal("record.replay_rated"))
        if table.game.has_hidden_information and not table.is_over:
            raise ForbiddenError(refusal("record.replay_hidden"))
        return replay_frame(live, step, seat)


@router.post("/records", response_model=protocol.Created, response_model_exclude_unset=True)
async def load_record(body: LoadRecord, request: Request, hub: HubDep) -> protocol.Created:
    if (body.record is None) == (body.text is None):
        raise BadRequestError(refusal("record.sent_twice"))
    try:
        if body.text is not None:
            record = GameRecord.loads(body.text)
        else:
            record = GameRecord.from_json(body.record or {})
    except (KeyError, TypeError, ValueError, RecursionError) as error:
        if isinstance(error, FanfoldError):
            raise
        raise BadRequestError(refusal("record.not_a_record", reason=str(error))) from None
    if not 0 <= record.seed < 10**MAX_SEED_DIGITS:
        raise BadRequestError(refusal("record.seed_range", digits=MAX_SEED_DIGITS))
    game = get_game(record.game)
    config = game.config_from_json(record.config)
    count = game.num_players(config)
    seats = list(body.seats) or ["you"] * count
    await count_new_table(request)  # every process's count of the client's tables
    created = await hub.create(
        game,
        config,
        seats,
        record=record,
        options=TableOptions(variant="loaded record"),
        client=bots_client(request, None),
    )
    return created_message(created)
