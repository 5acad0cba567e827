"""Boosting: rated games between accounts that share an address or a device are flagged for
the moderators (never blocked: families and campuses share both), and repeated results between
the same people within a day move ratings less.

* **Where a seat was taken from** (``seat_origins``): when a signed-in player takes a
  seat at a rated table, the store keeps a keyed hash (HMAC-SHA256 with a key of the store's,
  :data:`KEY_NAME`) of the client's address (an IPv6 address by its /64 network, where one
  household or phone usually has many addresses) and of the browser's device cookie
  (:data:`DEVICE_COOKIE`, a random id kept for years), never the address or the id
  themselves. They are deleted after :data:`ORIGIN_DAYS` days (:func:`delete_old_origins`,
  run by the server's hourly sweep).
* **Flags** (``fairplay_flags``): when a rated game ends (in the transaction that rates
  it), every pair of its people whose seats share an address or a device is flagged
  (``same-address``, ``same-device``), with the table and the two accounts.
* **Repeated results** (:func:`repeat_weight`): a player's rating change in a game is scaled
  by :data:`REPEAT_FACTOR` to the power of the rated games they played with the same person
  (any person of this game) in the last :data:`REPEAT_SECONDS`, at least
  :data:`LEAST_WEIGHT`; the weight is recorded with each rating change.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import ipaddress
import logging
import secrets
import time
from collections.abc import Sequence
from itertools import combinations

from starlette.requests import HTTPConnection

from fanfold.server.signing_keys import stored_key
from fanfold.server.store import Store, Transaction
from fanfold.server.store.fairplay_store import SqlFairPlay
from fanfold.server.store.protocols import FairPlayStore
from fanfold.server.store.records import Flag, Origin
from fanfold.server.throttle import client_address, trusted_networks

log = logging.getLogger(__name__)

#: The browser's long-lived device id (HttpOnly), set when a player signs in or signs up.
DEVICE_COOKIE = "fanfold_device"
DEVICE_SECONDS = 5 * 365 * 24 * 3600
#: The name of the origin-hashing key in the store's ``server_keys``.
KEY_NAME = "origin-hashing"
#: Days a seat's origin is kept.
ORIGIN_DAYS = 30
#: Repeated results: the window, the factor per earlier game with the same person, the floor.
REPEAT_SECONDS = 24 * 3600.0
REPEAT_FACTOR = 0.5
LEAST_WEIGHT = 0.1


def new_device_id() -> str:
    """A new device id for :data:`DEVICE_COOKIE`."""
    return secrets.token_urlsafe(18)


def address_key(address: str) -> str:
    """What identifies an address here: an IPv6 address by its /64 network, an IPv4 address
    (or an IPv4 address mapped into IPv6) as itself; anything else as written."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


def keyed_hash(key: str, kind: str, value: str) -> str:
    """The keyed hash the store keeps of ``value`` (an address key or a device id)."""
    return hmac.new(key.encode(), f"{kind}:{value}".encode(), hashlib.sha256).hexdigest()


def origin_key(store: Store) -> str:
    """The store's origin-hashing key (made by the first process that needs it)."""
    return stored_key(store, KEY_NAME)


def record_origin(
    store: Store,
    table_id: str,
    seats: Sequence[int],
    account_id: int,
    address: str | None,
    device: str | None,
    now: float | None = None,
) -> None:
    """Keep where ``account_id`` took ``seats`` of a rated table from (keyed hashes only)."""
    key = origin_key(store)
    address_hash = keyed_hash(key, "address", address_key(address)) if address else None
    device_hash = keyed_hash(key, "device", device) if device else None
    at = time.time() if now is None else now
    data: FairPlayStore = SqlFairPlay(store.engine)
    data.record_origins(
        [Origin(table_id, seat, account_id, address_hash, device_hash, at) for seat in seats]
    )


async def note_origin(
    connection: HTTPConnection,
    store: Store,
    table_id: str,
    seats: Sequence[int],
    account_id: int | None,
    *,
    rated: bool,
) -> None:
    """After a signed-in player took ``seats`` of a rated table over ``connection``: keep
    where from (:func:`record_origin`), the client's address read as the limits read it
    (trusted proxies' forwarded address) and the browser's device cookie. A store that
    refuses costs the seat nothing: the game goes on, unflagged."""
    if account_id is None or not rated or not seats:
        return
    settings = connection.app.state.settings
    address = client_address(connection.scope, trusted_networks(settings.trusted_proxies))
    device = connection.cookies.get(DEVICE_COOKIE)
    try:
        await asyncio.to_thread(record_origin, store, table_id, seats, account_id, address, device)
    except Exception as error:
        log.warning("table %s: where a seat was taken from was not kept: %s", table_id, error)


def flag_shared_origins(tx: Transaction, table_id: str, now: float) -> int:
    """In a rated game's rating transaction: flag every pair of its accounts whose seats were
    taken from one address or one device; returns how many flags."""
    data: FairPlayStore = SqlFairPlay.of(tx)
    flags: list[Flag] = []
    for one, other in combinations(data.origins(tx, table_id), 2):
        if one.account_id == other.account_id:
            continue
        first, second = sorted((one.account_id, other.account_id))
        for kind, mine, theirs in (
            ("same-address", one.address_hash, other.address_hash),
            ("same-device", one.device_hash, other.device_hash),
        ):
            if mine is not None and mine == theirs:
                flags.append(Flag(table_id, kind, first, second, now))
    data.add_flags(tx, flags)
    return len(flags)


def repeat_weight(
    tx: Transaction, player: str, others: Sequence[str], table_id: str, now: float
) -> float:
    """The weight of ``player``'s rating change at ``table_id``: :data:`REPEAT_FACTOR` to the
    power of the most rated games it played with any one of ``others`` (people's keys) in
    the last :data:`REPEAT_SECONDS`, at least :data:`LEAST_WEIGHT`."""
    if not player.startswith("a:"):
        return 1.0
    people = [key for key in others if key.startswith("a:") and key != player]
    if not people:
        return 1.0
    data: FairPlayStore = SqlFairPlay.of(tx)
    most = data.games_together(tx, player, people, now - REPEAT_SECONDS, table_id)
    return max(LEAST_WEIGHT, REPEAT_FACTOR**most)


def delete_old_origins(store: Store, now: float | None = None) -> int:
    """Delete the seats' origins older than :data:`ORIGIN_DAYS` days; returns how many."""
    now = time.time() if now is None else now
    return SqlFairPlay(store.engine).delete_origins(now - ORIGIN_DAYS * 86400)
