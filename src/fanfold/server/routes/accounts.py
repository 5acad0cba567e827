"""The accounts' API: create an account, sign in, sign out, sign out everywhere, and who is
signed in (:mod:`fanfold.server.accounts` says how each is kept safe)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

from fastapi import APIRouter, Request, Response
from starlette.requests import HTTPConnection

from fanfold.core.errors import FanfoldError
from fanfold.server import protocol
from fanfold.server.accounts import (
    CSRF_COOKIE,
    SESSION_COOKIE,
    SESSION_SECONDS,
    Account,
    Accounts,
    SignInError,
)
from fanfold.server.fairplay import DEVICE_COOKIE, DEVICE_SECONDS, new_device_id
from fanfold.server.live import storage_failure
from fanfold.server.refusals import refusal
from fanfold.server.routes.deps import (
    AccountDep,
    AccountsDep,
    HubDep,
    accounts_of,
    client_of,
    session_token,
    settings_of,
)
from fanfold.server.store import Store
from fanfold.server.waiting import waiting_for

router = APIRouter(prefix="/api", tags=["accounts"])
T = TypeVar("T")


async def count_new_table(connection: HTTPConnection) -> None:
    """Count a table the request opens against its client's tables a minute in the store,
    which every server process shares (the throttle's count in memory is one process's).

    Raises:
        TooManyError: the client opened its tables a minute already (nothing counted).
    """
    limit = settings_of(connection).limits.tables_per_minute
    await asyncio.to_thread(accounts_of(connection).count_table, client_of(connection), limit)


def _set_cookies(request: Request, response: Response, accounts: Accounts, token: str) -> None:
    # Secure over HTTPS: the request's scheme, which behind a trusted proxy terminating TLS is
    # its X-Forwarded-Proto (fanfold.server.forwarded), or an HTTPS public origin.
    origin = settings_of(request).public_origin
    secure = request.url.scheme == "https" or (origin or "").startswith("https://")
    age = int(SESSION_SECONDS)
    if not request.cookies.get(DEVICE_COOKIE):  # the browser's lasting id (fairplay)
        response.set_cookie(
            DEVICE_COOKIE,
            new_device_id(),
            max_age=DEVICE_SECONDS,
            httponly=True,
            samesite="lax",
            secure=secure,
            path="/",
        )
    response.set_cookie(
        SESSION_COOKIE,
        accounts.cookie_value(token),
        max_age=age,
        httponly=True,
        samesite="lax",
        secure=secure,
        path="/",
    )
    response.set_cookie(
        CSRF_COOKIE,
        accounts.csrf_token(token),
        max_age=age,
        httponly=False,
        samesite="strict",
        secure=secure,
        path="/",
    )


def _clear_cookies(response: Response) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")
    response.delete_cookie(CSRF_COOKIE, path="/", samesite="strict")


def _me(account: Account | None) -> protocol.Me:
    if account is None:
        return protocol.Me(signed_in=False)
    return protocol.Me(signed_in=True, id=account.id, name=account.name)


@router.get("/account", response_model=protocol.Me, response_model_exclude_unset=True)
async def me(account: AccountDep) -> protocol.Me:
    return _me(account)


@router.get(
    "/me/waiting", response_model=list[protocol.WaitingGame], response_model_exclude_unset=True
)
async def my_waiting_games(account: AccountDep, hub: HubDep) -> list[protocol.WaitingGame]:
    """The unfinished games waiting for the signed-in player's move; a guest (and a server
    without accounts' SQL store) has none: an empty list, never an error, so that the lobby
    asks the same way signed in or not."""
    if account is None or not isinstance(hub.store, Store):
        return []
    try:
        return await waiting_for(hub.store, hub.live, account.id)
    except Exception as error:
        raise storage_failure("store.waiting_games", error) from None


async def _kept(doing: str, call: Awaitable[T]) -> T:
    """``call``'s answer; the store failing under it (anything but a refusal of fanfold's) is
    told to the player as :func:`storage_failure` of ``doing``, a ``store.*`` code."""
    try:
        return await call
    except FanfoldError:
        raise
    except Exception as error:
        raise storage_failure(doing, error) from None


@router.post("/accounts", response_model=protocol.Me, response_model_exclude_unset=True)
async def create_account(
    body: protocol.Credentials, request: Request, response: Response, accounts: AccountsDep
) -> protocol.Me:
    account, token = await _kept(
        "store.account_create", accounts.create(body.name, body.password, client_of(request))
    )
    _set_cookies(request, response, accounts, token)
    return _me(account)


@router.post("/session", response_model=protocol.Me, response_model_exclude_unset=True)
async def sign_in(
    body: protocol.Credentials, request: Request, response: Response, accounts: AccountsDep
) -> protocol.Me:
    account, token = await _kept(
        "store.account_read", accounts.sign_in(body.name, body.password, client_of(request))
    )
    _set_cookies(request, response, accounts, token)
    return _me(account)


@router.delete("/session", response_model=protocol.Me, response_model_exclude_unset=True)
async def sign_out(request: Request, response: Response, accounts: AccountsDep) -> protocol.Me:
    token = session_token(request)
    if token is not None:
        await _kept("store.sign_out", asyncio.to_thread(accounts.sign_out, token))
    _clear_cookies(response)
    return _me(None)


@router.delete("/sessions", response_model=protocol.SignedOut, response_model_exclude_unset=True)
async def sign_out_everywhere(
    response: Response, accounts: AccountsDep, account: AccountDep
) -> protocol.SignedOut:
    if account is None:
        raise SignInError(refusal("account.sign_in_first"))
    ended = await _kept(
        "store.sign_out", asyncio.to_thread(accounts.sign_out_everywhere, account.id)
    )
    _clear_cookies(response)
    return protocol.SignedOut(signed_in=False, sessions_ended=ended)
