"""The web application: lobby, tables, rules pages, the JSON API and the WebSocket.

:func:`create_app` builds a FastAPI application around a :class:`~fanfold.server.hub.Hub`
(started by :func:`fanfold.server.runtime.lifespan`) from its :class:`Settings`: the error
handlers, the middleware, and the routers (:mod:`fanfold.server.routes`,
:mod:`fanfold.server.ws`); the messages are :mod:`fanfold.server.protocol`'s. ``fanfold serve``
runs it with uvicorn. Every page and script is served from the package's own
``static`` folder (the API's docs, ``/api/docs``, from an installed copy of Swagger UI):
nothing is fetched from elsewhere at run time, and every answer carries a
Content-Security-Policy that allows no inline script or style (:mod:`fanfold.server.headers`).

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
* ``GET /api/tables/{id}/review``: the engines' review of a finished game (started by the
  first request; see :mod:`fanfold.server.reviews`), whose page is ``/table/{id}/review``;
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

from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from fanfold import __version__
from fanfold.core.errors import FanfoldError, StaleVersionError, TurnError
from fanfold.server import not_found
from fanfold.server.accounts import SignInError, TooManyError
from fanfold.server.cross_site import CrossSiteGuard
from fanfold.server.forwarded import ForwardedHeaders, is_https_site
from fanfold.server.headers import SecurityHeaders, add_api_docs
from fanfold.server.i18n import LanguageChoice, load_languages
from fanfold.server.live import BadRequestError, ForbiddenError, NotFoundError, StorageError
from fanfold.server.logs import TableContext
from fanfold.server.protocol import MAX_BODY, ErrorBody, error_body, unreadable_body
from fanfold.server.request_metrics import RequestObserver
from fanfold.server.review_sweep import with_review_sweep
from fanfold.server.reviews import NotReviewableError
from fanfold.server.routes import (
    accounts,
    chat,
    daily,
    health,
    lessons,
    moderation,
    open_tables,
    pages,
    players,
    records,
    review_socket,
    reviews,
    tables,
)
from fanfold.server.runtime import (
    NO_AUTOMATIC_FULL_COLLECTION,
    BodyLimit,
    ProtocolHeader,
    lifespan,
)
from fanfold.server.settings import Settings
from fanfold.server.static_files import VersionedStatic
from fanfold.server.throttle import QuietMemoryStorage, Throttle, trusted_networks
from fanfold.server.ws import BURST, MAX_MESSAGE, RATE
from fanfold.server.ws import router as socket_router

if TYPE_CHECKING:
    from fanfold.server.store import Store

STATIC = pages.STATIC

# ------------------------------------------------------------------ errors


def status_of(error: Exception) -> int:
    """The HTTP status for an error a request caused."""
    if isinstance(error, SignInError):
        return 401
    if isinstance(error, TooManyError):
        return 429
    if isinstance(error, NotFoundError):
        return 404
    if isinstance(error, ForbiddenError):
        return 403
    if isinstance(error, StaleVersionError | TurnError | NotReviewableError):
        return 409
    if isinstance(error, StorageError):
        return 503
    return 400


def create_app(store_url: str | Settings, *, store: Store | None = None, **fields: Any) -> FastAPI:
    """The application, from one :class:`~fanfold.server.settings.Settings`, or on the store
    at ``store_url`` with the settings given by their names (each is a field of
    :class:`Settings`, checked there: an unknown name or a bad value is refused).
    ``store``: that store already open (``fanfold serve`` opened it to check it), which the
    application's first run serves and closes at its end instead of opening it again.

    Raises:
        TypeError: a :class:`Settings` given with settings by name too.
        pydantic.ValidationError: a setting unknown or out of its range.
        ValueError: a trusted proxy that is not an address or a network.
    """
    if isinstance(store_url, Settings):
        if fields:
            raise TypeError(f"settings given twice: {', '.join(sorted(fields))}")
        settings = store_url
    else:
        settings = Settings(store_url=store_url, **fields)
    proxies = trusted_networks(settings.trusted_proxies)
    load_languages()  # the catalogues read now: a broken one stops the start, not a page
    # The API's docs come from the package's files, not FastAPI's CDN (add_api_docs below);
    # no ReDoc page (it would need a CDN and inline styles).
    app = FastAPI(
        title="fanfold",
        version=__version__,
        lifespan=with_review_sweep(lifespan(settings)),
        docs_url=None,
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.opened_store = store  # taken by the life span's first run

    @app.exception_handler(FanfoldError)
    async def _fanfold_error(request: Request, error: FanfoldError) -> Response:
        if isinstance(error, NotFoundError) and not_found.wants_page(request):
            return not_found.missing_thing(error)
        return JSONResponse(
            error_body(error).model_dump(exclude_unset=True), status_code=status_of(error)
        )

    @app.exception_handler(RequestValidationError)
    async def _bad_request(request: Request, error: RequestValidationError) -> JSONResponse:
        del request
        unreadable = unreadable_body(error.errors())
        if unreadable is not None:  # not JSON, or not an object: 400, as docs/server/security.md
            body = ErrorBody(error=f"malformed request: {unreadable}", kind="MalformedRequest")
            return JSONResponse(body.model_dump(), status_code=400)
        problems = "; ".join(
            f"{'.'.join(str(p) for p in item.get('loc', ()) if p != 'body')}: {item.get('msg')}"
            for item in error.errors()[:5]
        )
        body = ErrorBody(error=f"malformed request: {problems}", kind="MalformedRequest")
        return JSONResponse(body.model_dump(), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, error: StarletteHTTPException) -> Response:
        # an unknown path, a wrong method, a body that cannot be read: the same shape, but for
        # a browser's page (an HTML page: fanfold.server.not_found)
        if error.status_code in (404, 405) and not_found.wants_page(request):
            return not_found.missing_address(error.status_code, error.headers)
        if isinstance(error.__cause__, RecursionError):  # the body parser gave up
            sentence = "malformed request: the JSON body is nested too deeply"
            body = ErrorBody(error=sentence, kind="MalformedRequest")
            return JSONResponse(body.model_dump(), status_code=400)
        body = ErrorBody(error=f"{error.detail} (HTTP {error.status_code})", kind="HTTPError")
        return JSONResponse(body.model_dump(), status_code=error.status_code, headers=error.headers)

    app.add_middleware(LanguageChoice)  # the language each page is drawn in (innermost)
    app.add_middleware(CrossSiteGuard)  # another site's requests, before any is read
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    # A client over its limits costs the server as little as possible.
    # Its counts, which the sweeper lets go once their windows pass (fanfold.server.runtime).
    app.state.rate_counters = counters = QuietMemoryStorage()
    # Its clients are the scope's, resolved by ForwardedHeaders below.
    app.add_middleware(Throttle, limits=settings.limits, counters=counters)
    app.add_middleware(TableContext)  # the log lines of a table's requests name it
    app.add_middleware(ProtocolHeader)  # every answer names the protocol
    # Every answer carries the policy (and HSTS where the public origin is HTTPS).
    app.add_middleware(SecurityHeaders, hsts=is_https_site(settings.public_origin))
    # Every request counted by its route's template and logged, refusals too, with the client
    # resolved just outside (fanfold.server.metrics).
    app.add_middleware(RequestObserver)
    # Outermost: the trusted proxies' X-Forwarded-For and X-Forwarded-Proto, read here and
    # nowhere else, become the scope's client and scheme before anything else runs.
    app.add_middleware(ForwardedHeaders, trusted_proxies=proxies)

    add_api_docs(app, "/api/docs")
    app.include_router(pages.router)
    app.include_router(lessons.router)
    app.mount("/static", VersionedStatic(directory=STATIC), name="static")
    app.include_router(tables.router)
    app.include_router(records.router)
    app.include_router(reviews.router)
    app.include_router(review_socket.router)
    app.include_router(socket_router)
    app.include_router(health.router)
    app.include_router(accounts.router)
    app.include_router(players.router)
    app.include_router(open_tables.router)
    app.include_router(open_tables.socket_router)
    app.include_router(daily.router)
    app.include_router(moderation.router)
    app.include_router(chat.router)
    return app


__all__ = [
    "BURST",
    "MAX_BODY",
    "MAX_MESSAGE",
    "NO_AUTOMATIC_FULL_COLLECTION",
    "RATE",
    "BadRequestError",
    "Settings",
    "create_app",
    "error_body",
    "status_of",
]
