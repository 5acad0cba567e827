"""What the routes take from the running application, in one place: the hub, the accounts,
the settings, the signed-in account and the client's address, each as a function of the
request (for a helper that has the request) and, but for the settings, as a FastAPI
dependency (``...Dep``, for a route's parameters). :func:`fanfold.server.runtime.lifespan`
sets them on ``app.state``.

Every dependency is a coroutine, so that FastAPI calls it on the event loop (a plain function
dependency runs in a worker thread, at the cost of two hand-overs of the interpreter lock for
every request and every WebSocket).
"""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from fanfold.server.accounts import SESSION_COOKIE, Account, Accounts
from fanfold.server.hub import Hub
from fanfold.server.settings import Settings
from fanfold.server.throttle import client_address, trusted_networks


def hub_of(connection: HTTPConnection) -> Hub:
    """The running application's hub."""
    hub: Hub = connection.app.state.hub
    return hub


def accounts_of(connection: HTTPConnection) -> Accounts:
    """The running application's accounts."""
    found: Accounts = connection.app.state.accounts
    return found


def settings_of(connection: HTTPConnection) -> Settings:
    """The running application's settings."""
    settings: Settings = connection.app.state.settings
    return settings


def client_of(connection: HTTPConnection) -> str:
    """The request's client address (``--trusted-proxy`` applies: behind a trusted proxy, the
    address it forwarded), which limits and shares are counted by."""
    networks = trusted_networks(settings_of(connection).trusted_proxies)
    return client_address(connection.scope, networks)


def session_token(connection: HTTPConnection) -> str | None:
    """The session token of the request's cookie (its signature checked), if any."""
    return accounts_of(connection).token_of(connection.cookies.get(SESSION_COOKIE))


async def signed_in(connection: HTTPConnection) -> Account | None:
    """The account signed in on this request's browser (``None``: a guest)."""
    token = session_token(connection)
    if token is None:
        return None
    return await asyncio.to_thread(accounts_of(connection).account_of, token)


async def _hub(connection: HTTPConnection) -> Hub:
    return hub_of(connection)


async def _accounts(connection: HTTPConnection) -> Accounts:
    return accounts_of(connection)


async def _client(connection: HTTPConnection) -> str:
    return client_of(connection)


#: A route's hub.
HubDep = Annotated[Hub, Depends(_hub)]
#: A route's accounts.
AccountsDep = Annotated[Accounts, Depends(_accounts)]
#: A route's client address (:func:`client_of`).
ClientDep = Annotated[str, Depends(_client)]
#: A route's signed-in account (``None`` for a guest).
AccountDep = Annotated[Account | None, Depends(signed_in)]
