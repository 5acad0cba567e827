"""The web application: lobby, tables, rules pages, the JSON API and the WebSocket.

:func:`create_app` builds a FastAPI application around a :class:`~fanfold.server.hub.Hub`;
``fanfold serve`` runs it with uvicorn. Every page and script is served from the package's own
``static`` folder: nothing is fetched from elsewhere at run time.

HTTP API (JSON in and out; errors are ``{"error": sentence, "kind": name}`` with a 4xx code):

* ``GET /api/games``: games, variants with player counts, bots, analyses;
* ``POST /api/tables``: open a table (``game``, ``variant``, ``players``, ``options``,
  ``seats``, ``seed`` or ``deal``, ``time_limit``: seconds per decision, for games with a
  passive choice); answers its id, the creator's token and the friends' tokens;
* ``GET /api/tables``: recent tables (for the lobby and spectators);
* ``GET /api/tables/{id}?seat=N`` with header ``X-Fanfold-Token``: that seat's message (without
  a token: the spectator's);
* ``POST /api/tables/{id}/act`` (``token``, ``version``, ``action``, optional ``seat``),
  ``POST /api/tables/{id}/undo`` (``token``, ``version``);
* ``GET /api/tables/{id}/analysis/{name}``: an analysis of the position (where the table
  allows it);
* ``GET /api/tables/{id}/record``: the record (once the game is over, or at any time for games
  without hidden information); ``GET /api/tables/{id}/replay?step=K&seat=N``: a finished game
  after ``K`` actions;
* ``POST /api/records``: open a table from a record (to replay it or play it on);
* ``GET /api/lessons``, ``GET /api/lessons/{game}/{id}?step=K``, ``POST
  /api/lessons/{game}/{id}/try``: the lessons (worked examples to play; see
  :mod:`fanfold.server.lessons`), whose pages are ``/learn/{game}`` and ``/learn/{game}/{id}``.

WebSocket ``/ws/tables/{id}``: the first message is ``{"type": "hello", "token": ..., "seat":
N}`` (token and seat optional: a spectator); then ``{"type": "act", "version": V, "action":
"3-5"}``, ``{"type": "undo", "version": V}`` or ``{"type": "view", "seat": N}``. The server
answers ``{"type": "ok", ...}`` or ``{"type": "error", ...}`` and pushes ``{"type": "state",
...}`` to every watcher after each change.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import gc
import json
import logging
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnected

from fanfold import __version__
from fanfold.core.config import JSONObject, JSONValue
from fanfold.core.errors import (
    FanfoldError,
    StaleVersionError,
    TurnError,
    UnknownAgentError,
    UnknownGameError,
)
from fanfold.core.records import MAX_SEED_DIGITS, GameRecord
from fanfold.core.registry import get_game
from fanfold.play.analysis import analyses_for
from fanfold.server.bots import BotPool
from fanfold.server.hub import (
    EXPIRE_SECONDS,
    Created,
    CrowdedError,
    ForbiddenError,
    Hub,
    NotFoundError,
    StorageError,
    Watcher,
    game_catalogue,
    message_for,
    storage_failure,
)
from fanfold.server.lessons import has_lessons, lessons_router
from fanfold.server.outbox import BEHIND, Outbox, spectators_pacer
from fanfold.server.rules import rules_page
from fanfold.server.store import Store
from fanfold.server.throttle import ClientLimits, Throttle, trusted_networks

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
#: The largest request body or WebSocket message accepted, in bytes (a long record fits).
MAX_BODY = 512 * 1024
MAX_MESSAGE = 8 * 1024
#: WebSocket messages a connection may send per second, on average, and in a burst.
RATE, BURST = 20.0, 40.0


# ------------------------------------------------------------------ requests


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
    #: A practice table: undo allowed in games with hidden cards, told to all, never fair.
    practice: bool = False
    #: List the table in the lobby (for anyone to watch).
    public: bool = False


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


class Hello(_Strict):
    type: str = Field(pattern="^hello$")
    token: str | None = Field(default=None, max_length=200)
    seat: int | None = Field(default=None, ge=0, le=16)


class WsAct(_Strict):
    type: str = Field(pattern="^act$")
    version: int | None = Field(default=None, ge=0)
    action: str = Field(max_length=400)
    seat: int | None = Field(default=None, ge=0, le=16)


class WsUndo(_Strict):
    type: str = Field(pattern="^undo$")
    version: int | None = Field(default=None, ge=0)


class WsView(_Strict):
    type: str = Field(pattern="^view$")
    seat: int | None = Field(default=None, ge=0, le=16)


# ------------------------------------------------------------------ errors


def status_of(error: Exception) -> int:
    """The HTTP status for an error a request caused."""
    if isinstance(error, NotFoundError):
        return 404
    if isinstance(error, ForbiddenError):
        return 403
    if isinstance(error, StaleVersionError | TurnError):
        return 409
    if isinstance(error, StorageError):
        return 503
    return 400


def error_body(error: Exception) -> JSONObject:
    """``{"error": sentence, "kind": name}``; the sentence is the error's own."""
    message = error.args[0] if error.args else str(error)
    return {"error": str(message), "kind": type(error).__name__}


def _daily_deal(today: dt.date | None = None) -> int:
    """Today's Fan deal: the date as a number, ``20261123``, the same for everyone."""
    day = today or dt.datetime.now(dt.UTC).date()
    return day.year * 10000 + day.month * 100 + day.day


def _warm_fast() -> None:
    """Load Fano's and Fan Tan's compiled kernels from Numba's cache (compile them on first
    use), then set aside what that loaded (:func:`_set_aside`)."""
    from fanfold.agents.strategy import fantan_fast
    from fanfold.games.fano.fast import engine

    started = time.monotonic()
    engine.warm_up()
    log.info("Fano's compiled engine ready in %.1f s", time.monotonic() - started)
    started = time.monotonic()
    fantan_fast.warm_up()
    log.info("Fan Tan's compiled search ready in %.1f s", time.monotonic() - started)
    _set_aside()


def _set_aside() -> None:
    """Move every object alive now (the modules, Numba's compiled kernels and their types,
    the tables loaded at start-up) out of the garbage collector's reach, for the life of the
    process (see :data:`FULL_COLLECTION_SECONDS`)."""
    gc.collect()
    gc.freeze()
    log.info("%d objects set aside from garbage collection", gc.get_freeze_count())


#: How often the server runs the garbage collector's full collection itself (its sweeper does,
#: :func:`_sweep`), instead of letting Python start one whenever enough objects have grown old.
#:
#: Python's cycle collector walks every object it tracks in a full collection, and every
#: table waits while it does: after the warm-up that was about two hundred thousand objects
#: (set aside by :func:`_set_aside`), and a busy server adds one or two hundred thousand more
#: (its tables, their moves, the connections), each walk about 0.2 s. Young objects are still
#: collected as usual (a few milliseconds), and finished games leave memory soon
#: (``keep_finished_seconds``). Measured with ``benchmarks/server.py`` in ``docs/server.md``.
FULL_COLLECTION_SECONDS = 600.0
#: The third generation's threshold that keeps Python from starting full collections itself.
NO_AUTOMATIC_FULL_COLLECTION = 1 << 30


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413: by their ``Content-Length`` before
    reading them, and, for a body sent in chunks without one, as soon as what arrived passes
    the limit (the application is then told the client went away, and what it answers is
    dropped), so no request body larger than the limit is ever held in memory.

    Args:
        app: the ASGI application behind it.
        limit: the most bytes a request body may have.
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def _refuse(self, send: Send) -> None:
        body = json.dumps(
            {"error": f"request too large (at most {self.limit} bytes)", "kind": "TooLarge"}
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await self._refuse(send)
            return
        refused = started = False
        received = 0

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if refused:
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        async def limited_receive() -> Message:
            nonlocal refused, received
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    if not started:
                        await self._refuse(send)
                    refused = True
                    return {"type": "http.disconnect"}
            return message

        await self.app(scope, limited_receive, guarded_send)


#: How often the sweeper lets abandoned tables expire (:meth:`Hub.expire_abandoned`).
EXPIRY_SWEEP_SECONDS = 3600.0


async def _sweep(hub: Hub) -> None:
    """Let idle tables go from memory now and then (:meth:`Hub.evict_idle`), run a full
    garbage collection every :data:`FULL_COLLECTION_SECONDS` and let abandoned tables expire
    every :data:`EXPIRY_SWEEP_SECONDS`."""
    collected = expired = time.monotonic()
    while True:
        if time.monotonic() - expired >= EXPIRY_SWEEP_SECONDS:
            await hub.expire_abandoned()
            expired = time.monotonic()
        keep = min(hub.keep_seconds, hub.keep_finished_seconds)
        await asyncio.sleep(max(1.0, min(60.0, keep / 2)))
        gone = hub.evict_idle()
        if gone:
            log.info("%d idle tables left memory (%d remain)", gone, len(hub.live))
        if time.monotonic() - collected >= FULL_COLLECTION_SECONDS:
            started = time.monotonic()
            found = gc.collect()
            collected = time.monotonic()
            log.info("full collection: %d objects in %.3f s", found, collected - started)


# -------------------------------------------------------------------- the app


def create_app(
    store_url: str,
    *,
    bot_seconds: float | None = 1.0,
    bot_pause: float = 0.0,
    resume: bool = True,
    warm_fast: bool = False,
    keep_seconds: float = 600.0,
    keep_finished_seconds: float = 30.0,
    bot_workers: int = 4,
    bot_processes: bool = False,
    expire_seconds: float | None = EXPIRE_SECONDS,
    limits: ClientLimits | None = None,
    trusted_proxies: Sequence[str] = (),
) -> FastAPI:
    """The application, on the store at ``store_url``.

    Args:
        bot_seconds: the time cap per decision for bots that take one.
        bot_pause: seconds between bot actions, so that people can follow them.
        resume: at start-up, let abandoned tables expire and load the unfinished tables
            where play goes on without a person (bots, time limits: :meth:`Hub.resume_all`).
        warm_fast: load (or, on a fresh installation, compile) Fano's compiled engine and
            search and Fan Tan's compiled search where the bots think (in every worker
            process, or once in a worker thread) at start-up, so that the first ``hard`` Fano
            or Fan Tan bot does not pay for it in play.
        keep_seconds: how long a table nobody watches and nothing plays on stays in memory
            (games their players left); the store keeps it, and it comes back when asked
            for.
        keep_finished_seconds: the same for a finished game (see :class:`Hub`).
        bot_workers: how many bot decisions run at once, in the pool shared fairly by the
            tables (:class:`~fanfold.server.bots.BotPool`).
        bot_processes: bots think in worker processes (``fanfold serve``), so that no search
            slows the server's answers; otherwise in threads of the server's process (tests).
        expire_seconds: an unfinished table with no action for this long is deleted
            (``None``: never; see :meth:`Hub.expire_abandoned`).
        limits: what one client may do: tables and requests a minute, open sockets, and
            the spectators a table takes (:class:`~fanfold.server.throttle.ClientLimits`;
            default: its defaults).
        trusted_proxies: addresses or networks of the proxies in front of the server whose
            ``X-Forwarded-For`` names the client (default: none, every client is its own
            address).

    Raises:
        ValueError: a trusted proxy that is not an address or a network.
    """
    client_limits = limits if limits is not None else ClientLimits()
    proxies = trusted_networks(trusted_proxies)
    state: dict[str, Hub] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await asyncio.to_thread(Store, store_url)
        hub = Hub(
            store,
            bot_seconds=bot_seconds,
            bot_pause=bot_pause,
            keep_seconds=keep_seconds,
            keep_finished_seconds=keep_finished_seconds,
            pool=BotPool(
                bot_workers, processes=bot_processes, warm=_warm_fast if warm_fast else None
            ),
            expire_seconds=expire_seconds,
        )
        state["hub"] = hub
        app.state.hub = hub
        hub.pool.start()  # a worker thread's warm-up sets what it loads aside once loaded
        if resume:
            await hub.resume_all()
        if not warm_fast or bot_processes:
            _set_aside()
        thresholds = gc.get_threshold()
        gc.set_threshold(thresholds[0], thresholds[1], NO_AUTOMATIC_FULL_COLLECTION)
        sweeper = asyncio.get_running_loop().create_task(_sweep(hub))
        try:
            yield
        finally:
            sweeper.cancel()
            gc.set_threshold(*thresholds)
            for live in hub.live.values():
                for task in (live.bots, live.clock):
                    if task is not None:
                        task.cancel()
            hub.executor.shutdown(wait=False, cancel_futures=True)
            hub.pool.shutdown()
            store.close()

    app = FastAPI(title="fanfold", version=__version__, lifespan=lifespan, docs_url="/api/docs")

    def hub() -> Hub:
        return state["hub"]

    @app.exception_handler(FanfoldError)
    async def _fanfold_error(request: Request, error: FanfoldError) -> JSONResponse:
        del request
        return JSONResponse(error_body(error), status_code=status_of(error))

    @app.exception_handler(RequestValidationError)
    async def _bad_request(request: Request, error: RequestValidationError) -> JSONResponse:
        del request
        problems = "; ".join(
            f"{'.'.join(str(p) for p in item.get('loc', ()) if p != 'body')}: {item.get('msg')}"
            for item in error.errors()[:5]
        )
        return JSONResponse(
            {"error": f"malformed request: {problems}", "kind": "MalformedRequest"},
            status_code=422,
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
        del request  # an unknown path, a wrong method, a body that cannot be read: same shape
        if isinstance(error.__cause__, RecursionError):  # the body parser gave up
            return JSONResponse(
                {
                    "error": "malformed request: the JSON body is nested too deeply",
                    "kind": "MalformedRequest",
                },
                status_code=400,
            )
        return JSONResponse(
            {"error": f"{error.detail} (HTTP {error.status_code})", "kind": "HTTPError"},
            status_code=error.status_code,
            headers=error.headers,
        )

    app.add_middleware(BodyLimit, limit=MAX_BODY)
    # Outermost: a client over its limits costs the server as little as possible.
    app.add_middleware(Throttle, limits=client_limits, trusted_proxies=proxies)

    # ---------------------------------------------------------------- pages
    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    @app.get("/table/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        del table_id
        return FileResponse(STATIC / "table.html")

    @app.get("/rules/{name}", include_in_schema=False)
    async def rules(name: str) -> HTMLResponse:
        try:
            game = get_game(name)
        except UnknownGameError as error:
            return HTMLResponse(str(error.args[0]), status_code=404)
        return HTMLResponse(rules_page(game, lessons=has_lessons(game.name)))

    app.include_router(lessons_router())  # /learn pages and /api/lessons (see lessons.py)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # ------------------------------------------------------------------ API
    @app.get("/api/games", response_model=None)
    async def games() -> list[JSONValue]:
        return game_catalogue()

    @app.get("/api/daily", response_model=None)
    async def daily() -> JSONObject:
        return {"game": "fan", "deal": _daily_deal()}

    @app.post("/api/tables", response_model=None)
    async def create(body: CreateTable) -> JSONObject:
        game = get_game(body.game)
        config = game.preset(body.variant).config if body.variant else game.default_config()
        if body.options:
            config = config.with_options(body.options)
        if body.players is not None:
            config = game.with_players(config, body.players)
        seats = list(body.seats) or ["you"] + ["medium"] * (game.num_players(config) - 1)
        if body.seed is not None and body.deal is not None and body.seed != body.deal:
            raise BadRequestError("give a seed or a deal number, not both")
        seed = body.seed if body.seed is not None else body.deal
        options: JSONObject = {"variant": body.variant or game.presets()[0].name}
        if body.time_limit is not None:
            if not game.has_passive_action:
                raise BadRequestError(
                    f"{game.title} takes no time limit: some of its decisions have no passive "
                    "choice to play when the time runs out"
                )
            options["time_limit"] = body.time_limit
        try:
            created = await hub().create(
                game,
                config,
                seats,
                seed=seed,
                start_position=body.position,
                options=options,
                practice=body.practice,
                listed=body.public,
            )
        except UnknownAgentError as error:
            raise BadRequestError(str(error.args[0])) from None
        return _created(created)

    @app.get("/api/tables/{table_id}/invitation", response_model=None)
    async def invitation(
        table_id: str,
        invite: Annotated[str, Header(alias="X-Fanfold-Invite", max_length=200)],
    ) -> JSONObject:
        seat = await hub().invitation(table_id, invite)
        live = await hub().get(table_id)
        return {
            "table": table_id,
            "seat": seat,
            "name": live.table.seat_name(seat),
            "game": live.table.game.title,
            "variant": live.options.get("variant"),
            "chosen_deal": bool(live.options.get("chosen_deal")),
            "practice": bool(live.options.get("practice")),
        }

    @app.post("/api/tables/{table_id}/claim", response_model=None)
    async def claim(table_id: str, body: Claim) -> JSONObject:
        seat, token = await hub().claim(table_id, body.invite)
        return {"table": table_id, "seat": seat, "token": token}

    @app.post("/api/tables/{table_id}/invite", response_model=None)
    async def reinvite(table_id: str, body: Invite) -> JSONObject:
        invite = await hub().reinvite(table_id, body.token, body.seat)
        return {"table": table_id, "seat": body.seat, "invite": invite}

    @app.get("/api/tables", response_model=None)
    async def recent(limit: Annotated[int, Query(ge=1, le=100)] = 20) -> list[JSONValue]:
        try:
            summaries = await asyncio.to_thread(hub().store.recent, limit)
        except Exception as error:
            raise storage_failure("the tables could not be listed", error) from None
        return [
            {
                "table": s.id,
                "game": s.game.split(".")[0],
                "players": list(s.players),
                "moves": s.moves,
                "over": s.over,
                "updated": s.updated,
            }
            for s in summaries
        ]

    @app.get("/api/tables/{table_id}", response_model=None)
    async def table_state(
        table_id: str,
        seat: Annotated[int | None, Query(ge=0, le=16)] = None,
        token: Annotated[str | None, Header(alias="X-Fanfold-Token", max_length=200)] = None,
    ) -> JSONObject:
        live = await hub().get(table_id)
        async with live.lock:
            held = live.seats_of(token)
            chosen = _chosen_seat(live.table.decider, held, seat)
            return _message(live, chosen, held)

    @app.post("/api/tables/{table_id}/act", response_model=None)
    async def act(table_id: str, body: Act) -> JSONObject:
        played = await hub().act(table_id, body.token, body.version, body.action, body.seat)
        live = await hub().get(table_id)
        return {
            "ok": True,
            "played": played.text,
            "number": played.number,
            "version": live.table.version,
        }

    @app.post("/api/tables/{table_id}/undo", response_model=None)
    async def undo(table_id: str, body: Undo) -> JSONObject:
        done = await hub().undo(table_id, body.token, body.version)
        live = await hub().get(table_id)
        return {"ok": done, "version": live.table.version}

    @app.get("/api/tables/{table_id}/analysis/{name}", response_model=None)
    async def analysis(
        table_id: str,
        name: str,
        token: Annotated[str | None, Header(alias="X-Fanfold-Token", max_length=200)] = None,
    ) -> JSONObject:
        live = await hub().get(table_id)
        if not live.seats_of(token):
            raise ForbiddenError("only a player at this table may ask for an analysis")
        found = analyses_for(live.table.game).get(name) if live.options.get("analysis") else None
        if found is None:
            raise NotFoundError(f"this table offers no analysis called {name!r}")
        async with live.lock:  # never a position whose last action is still being stored
            position, version = live.table.state, live.table.version  # the version analysed
        loop = asyncio.get_running_loop()
        text = await loop.run_in_executor(hub().executor, found.run, position)
        data = (
            await loop.run_in_executor(hub().executor, found.data, position)
            if found.data is not None
            else None
        )
        return {"name": name, "text": text, "data": data, "version": version}

    @app.get("/api/tables/{table_id}/record", response_model=None)
    async def record(table_id: str) -> Response:
        live = await hub().get(table_id)
        table = live.table
        async with live.lock:  # never an action that is still being stored
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

    @app.get("/api/tables/{table_id}/replay", response_model=None)
    async def replay(
        table_id: str,
        step: Annotated[int, Query(ge=0)] = 0,
        seat: Annotated[int | None, Query(ge=0, le=16)] = None,
    ) -> JSONObject:
        live = await hub().get(table_id)
        table = live.table
        async with live.lock:  # never an action that is still being stored
            if table.game.has_hidden_information and not table.is_over:
                raise ForbiddenError("a game with hidden cards can be replayed once it is over")
            return _replay_frame(live, step, seat)

    @app.post("/api/records", response_model=None)
    async def load_record(body: LoadRecord) -> JSONObject:
        if (body.record is None) == (body.text is None):
            raise BadRequestError("send the record as 'record' (JSON) or 'text', one of them")
        try:
            if body.text is not None:
                record = GameRecord.loads(body.text)
            else:
                record = GameRecord.from_json(body.record or {})
        except (KeyError, TypeError, ValueError, RecursionError) as error:
            if isinstance(error, FanfoldError):
                raise
            raise BadRequestError(f"this is not a fanfold record: {error}") from None
        if not 0 <= record.seed < 10**MAX_SEED_DIGITS:
            raise BadRequestError(
                f"the record's seed must be 0 or more, up to {MAX_SEED_DIGITS} digits"
            )
        game = get_game(record.game)
        config = game.config_from_json(record.config)
        count = game.num_players(config)
        seats = list(body.seats) or ["you"] * count
        created = await hub().create(
            game, config, seats, record=record, options={"variant": "loaded record"}
        )
        return _created(created)

    # ------------------------------------------------------------- websocket
    @app.websocket("/ws/tables/{table_id}")
    async def socket(websocket: WebSocket, table_id: str) -> None:
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

        async def send(message: JSONObject) -> None:
            outbox.post(json.dumps(message))

        async def refuse(error: FanfoldError | JSONObject, code: int, reason: str) -> None:
            body = error_body(error) if isinstance(error, Exception) else error
            await send({"type": "error", **body})
            outbox.shut(code, reason)
            await outbox.wait()

        try:
            live = await hub().get(table_id)
        except (NotFoundError, StorageError) as error:
            if isinstance(error, NotFoundError):
                await refuse(error, 4404, "no such table")
            else:
                await refuse(error, 1011, "the store failed")
            await outbox.stop()
            return
        watcher: Watcher | None = None
        allowance, last = BURST, time.monotonic()
        try:
            while True:
                frame = await websocket.receive()
                if frame["type"] == "websocket.disconnect":
                    raise WebSocketDisconnect(frame.get("code", 1000))
                raw: str | None = frame.get("text")
                now = time.monotonic()
                allowance = min(BURST, allowance + (now - last) * RATE)
                last = now
                if allowance < 1:
                    await refuse(
                        {"error": "too many messages; slow down", "kind": "Flood"},
                        1008,
                        "too many messages",
                    )
                    return
                allowance -= 1
                if raw is None:  # a binary frame
                    await send(
                        {
                            "type": "error",
                            "error": "malformed message: send JSON text, not binary data",
                            "kind": "MalformedRequest",
                        }
                    )
                    continue
                if len(raw) > MAX_MESSAGE or len(raw.encode()) > MAX_MESSAGE:
                    await send(
                        {
                            "type": "error",
                            "error": f"message too large (at most {MAX_MESSAGE} bytes)",
                            "kind": "TooLarge",
                        }
                    )
                    continue
                try:
                    data = parse_json(raw)
                    if not isinstance(data, dict):
                        raise ValueError("a message is a JSON object")
                    kind = data.get("type")
                    if watcher is None:
                        hello = Hello.model_validate(data)
                        held = live.seats_of(hello.token)
                        if hello.token and not held and not live.is_creator(hello.token):
                            raise ForbiddenError("this link holds no seat at this table")
                        chosen = _chosen_seat(live.table.decider, held, hello.seat)
                        _check_spectator(live, chosen)  # before the hello counts
                        watcher = Watcher(chosen, held, send, hello.token, outbox)
                        if watcher.spectating:
                            # A crowd of spectators arriving at once (a watched game ended,
                            # and they follow its player) is let in a few at a time: the
                            # players' actions are read between them.
                            await spectators_pacer().turn()
                        try:
                            live = await hub().watch(
                                live, watcher, spectators=client_limits.spectators
                            )
                        except CrowdedError as error:
                            watcher = None
                            await refuse(error, BEHIND, "the table has all the spectators it takes")
                            return
                        continue
                    if kind == "act":
                        act_message = WsAct.model_validate(data)
                        played = await hub().act(
                            table_id,
                            watcher.token,
                            act_message.version,
                            act_message.action,
                            act_message.seat,  # None: the decider when held (hot-seat)
                        )
                        await send({"type": "ok", "played": played.text, "number": played.number})
                    elif kind == "undo":
                        undo_message = WsUndo.model_validate(data)
                        done = await hub().undo(table_id, watcher.token, undo_message.version)
                        await send({"type": "ok", "undone": done})
                    elif kind == "view":
                        view_message = WsView.model_validate(data)
                        if view_message.seat is not None and view_message.seat not in watcher.seats:
                            raise ForbiddenError("this link does not hold that seat")
                        _check_spectator(live, view_message.seat)  # refused: nothing changes
                        watcher.seat = view_message.seat
                        async with live.lock:  # never an action still being stored
                            message = message_for(live, watcher.seat, watcher.seats)
                        await send(message)
                    else:
                        raise ValueError(f"unknown message type {kind!r}; use act, undo or view")
                except ValidationError as error:
                    first = error.errors()[0]
                    where = ".".join(str(p) for p in first.get("loc", ()))
                    await send(
                        {
                            "type": "error",
                            "error": f"malformed message: {where}: {first.get('msg')}",
                            "kind": "MalformedRequest",
                        }
                    )
                except FanfoldError as error:
                    await send({"type": "error", **error_body(error)})
                except ValueError as error:
                    await send(
                        {
                            "type": "error",
                            "error": f"malformed message: {error}",
                            "kind": "MalformedRequest",
                        }
                    )
        except (WebSocketDisconnect, WebSocketDisconnected):
            pass  # the browser went away (WebSocketDisconnected: a send after it closed)
        finally:
            if watcher is not None:
                hub().unwatch(live, watcher)
            await outbox.stop()

    return app


class BadRequestError(FanfoldError, ValueError):
    """A request the server cannot act on (an unknown agent, a broken record)."""


def _created(created: Created) -> JSONObject:
    """The answer to a new table: its id, the creator's token and the invitations."""
    return {
        "table": created.id,
        "token": created.token,
        "invites": {str(seat): invite for seat, invite in created.invites.items()},
    }


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


def _chosen_seat(decider: int | None, held: frozenset[int], wanted: int | None) -> int | None:
    """The seat a watcher sees: the one asked for (when held), else the decider when held,
    else the first held, else ``None`` (a spectator)."""
    if wanted is not None:
        if wanted not in held:
            raise ForbiddenError("this link does not hold that seat")
        return wanted
    if decider is not None and decider in held:
        return decider
    return min(held) if held else None


def _check_spectator(live: Any, seat: int | None) -> None:
    if seat is None and live.table.game.has_hidden_information:
        try:
            live.table.game.public_view(live.table.state)
        except NotImplementedError as error:
            raise ForbiddenError(str(error)) from None


def _message(live: Any, seat: int | None, held: frozenset[int]) -> JSONObject:
    _check_spectator(live, seat)
    return message_for(live, seat, held)


def _replay_frame(live: Any, step: int, seat: int | None) -> JSONObject:
    """The game after ``step`` actions, from ``seat``'s side (``None``: seat 0's view for games
    without hidden information, the public view otherwise)."""
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
    log: list[JSONValue] = [
        {"number": p.number, "seat": p.seat, "text": told}
        for p in table.played[:step]
        if (told := table.announcement(p, seat))
    ]
    return {
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
