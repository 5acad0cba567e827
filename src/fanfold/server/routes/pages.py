"""The pages: the lobby, a table's page, How to play each game (``/rules/GAME`` leads there)
and its exact rules for developers, the icon, and the board modules of games from other
packages (``/static/plugins/GAME.js``). A table the store does not hold, or a game that is not
registered, is a page of its own (404, :mod:`fanfold.server.not_found`)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response

from fanfold.core.errors import UnknownGameError
from fanfold.core.registry import get_game
from fanfold.server import not_found
from fanfold.server.games import plugin_renderer
from fanfold.server.howto import has_howto, howto_page
from fanfold.server.i18n import ENGLISH, known, messages
from fanfold.server.lessons import has_lessons
from fanfold.server.routes.deps import HubDep
from fanfold.server.rules import rules_page
from fanfold.server.static_files import MODULE, module_text
from fanfold.server.templating import render

STATIC = Path(__file__).parent.parent / "static"

router = APIRouter(include_in_schema=False, tags=["pages"])


@router.get("/")
async def lobby() -> HTMLResponse:
    return HTMLResponse(render("lobby.html"))


@router.get("/i18n/{code}.json")
async def script_messages(code: str, v: str = "") -> Response:
    """The page scripts' catalogue of a language (``fanfold.server.i18n``); kept for long by
    browsers when asked for at its current version (the address the pages give)."""
    if code == ENGLISH or not known(code):
        return Response(f"no catalogue for the language {code!r}", 404, media_type="text/plain")
    found = messages(code)
    cache = "public, max-age=31536000, immutable" if v == found.version() else "no-cache"
    return Response(
        found.script_json(), media_type="application/json", headers={"Cache-Control": cache}
    )


@router.get("/favicon.ico")
async def favicon() -> FileResponse:
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")


@router.get("/table/{table_id}")
async def table_page(table_id: str, hub: HubDep) -> HTMLResponse:
    if not await not_found.table_known(hub, table_id):
        return not_found.missing_table()
    return HTMLResponse(render("table.html"))


@router.get("/table/{table_id}/review")
async def review_page(table_id: str) -> RedirectResponse:
    """A finished game's review: its replay with the engines' review beside it."""
    return RedirectResponse(f"/table/{quote(table_id, safe='')}?replay=1&review=1", status_code=307)


@router.get("/how-to-play/{name}")
async def how_to_play(name: str) -> HTMLResponse:
    try:
        game = get_game(name)
    except UnknownGameError:
        return not_found.missing_game(name)
    if not has_howto(game):
        return HTMLResponse(rules_page(game, lessons=has_lessons(game.name)))
    return HTMLResponse(howto_page(game, lessons=has_lessons(game.name)))


@router.get("/static/plugins/{name}.js")
async def plugin_board(name: str) -> Response:
    """The board module of a game from another package (``WebHints.renderer``), served beside
    fanfold's own (``/static/games/NAME.js``) so that it imports ``../common.js`` as they do."""
    path = plugin_renderer(name)
    if path is None:
        return HTMLResponse(f"no game called {name!r} ships a board module", status_code=404)
    # its imports of fanfold's modules versioned, as at /static/plugins/ beside static/games
    return Response(module_text(path, STATIC / "plugins"), media_type=MODULE)


@router.get("/rules/{name}")
async def rules(name: str) -> Response:
    try:
        game = get_game(name)
    except UnknownGameError:
        return not_found.missing_game(name)
    return RedirectResponse(f"/how-to-play/{game.name}", status_code=307)


@router.get("/rules/{name}/exact")
async def exact_rules(name: str) -> HTMLResponse:
    try:
        game = get_game(name)
    except UnknownGameError:
        return not_found.missing_game(name)
    return HTMLResponse(rules_page(game, lessons=has_lessons(game.name)))
