"""The sweeper (:func:`sweep`): idle tables leave memory, tables nobody plays are taken,
abandoned ones expire, ended sessions and old origins are deleted, and memory is given back
(:func:`fanfold.server.runtime.memory.give_back`) on a clock or once a crowd has gone."""

from __future__ import annotations

import asyncio
import logging
import time

from fanfold.server.accounts import Accounts
from fanfold.server.fairplay import ORIGIN_DAYS, delete_old_origins
from fanfold.server.hub import Hub
from fanfold.server.runtime.memory import FULL_COLLECTION_SECONDS, give_back
from fanfold.server.throttle import QuietMemoryStorage

log = logging.getLogger(__name__)


#: How often the sweeper lets abandoned tables expire (:meth:`Hub.expire_abandoned`).
EXPIRY_SWEEP_SECONDS = 3600.0


#: When the tables in memory fall to half of their peak since the last full collection, and
#: at least this many left, the sweeper runs the full collection at once (:func:`give_back`)
#: rather than at its ten minutes: the tables that left hold their memory until it runs.
GIVE_BACK_TABLES = 50

#: The same for the rate limits' counters (:class:`fanfold.server.throttle.QuietMemoryStorage`,
#: one per client and kind of limit, kept a minute after the client's last request): a crowd
#: that came and went leaves thousands of them, made during the load and spread over the
#: memory it took, which they keep until they go and the collection hands it back. Only
#: once the tables left too (at most :data:`GIVE_BACK_TABLES` in memory): a full collection
#: among a thousand tables in play holds them all for a few tenths of a second, and the
#: counters of a crowd that moved on go a minute later, in the middle of the next one's play.
GIVE_BACK_COUNTERS = 1000


def _halved(peak: int, now: int, least: int) -> bool:
    """Whether a count fell to half of its ``peak`` or below, by ``least`` at least."""
    return peak - now >= least and now <= peak / 2


async def _delete_expired(accounts: Accounts | None) -> None:
    """Delete the ended sessions and the passed sign-in attempts (:meth:`Accounts.delete_expired`)
    and the seats' origins past their days (:func:`fanfold.server.fairplay.delete_old_origins`);
    a failure is logged, and the next sweep tries again."""
    if accounts is None:
        return
    try:
        gone = await asyncio.to_thread(accounts.delete_expired)
    except Exception:
        log.exception("ended sessions could not be deleted; the next sweep tries again")
        return
    if gone:
        log.info("%d ended sessions deleted", gone)
    try:
        old = await asyncio.to_thread(delete_old_origins, accounts.store)
    except Exception:
        log.exception("old seat origins could not be deleted; the next sweep tries again")
        return
    if old:
        log.info("%d seat origins older than %d days deleted", old, ORIGIN_DAYS)


async def sweep(
    hub: Hub, accounts: Accounts | None = None, counters: QuietMemoryStorage | None = None
) -> None:
    """Let idle tables go from memory now and then, a table a turn of the event loop
    (:meth:`Hub.evict_idle_in_turns`), take the tables no live process plays where play goes
    on without a person (:meth:`Hub.take_orphans`), let the rate limits' counters whose
    minute has passed (:meth:`QuietMemoryStorage.sweep`), run a full garbage collection
    every :data:`FULL_COLLECTION_SECONDS`, or as soon as half the tables left memory
    (:data:`GIVE_BACK_TABLES`) or, once the tables left, half the counters went
    (:data:`GIVE_BACK_COUNTERS`), and every :data:`EXPIRY_SWEEP_SECONDS` let abandoned tables
    expire and delete the ended sessions (at start-up too)."""
    collected = time.monotonic()
    await _delete_expired(accounts)
    expired = time.monotonic()
    peak = len(hub.live)
    peak_counters = counters.clients if counters is not None else 0
    while True:
        if time.monotonic() - expired >= EXPIRY_SWEEP_SECONDS:
            await hub.expire_abandoned()
            await _delete_expired(accounts)
            expired = time.monotonic()
        keep = min(hub.keep_seconds, hub.keep_finished_seconds)
        await asyncio.sleep(max(1.0, min(60.0, keep / 2)))
        peak = max(peak, len(hub.live))
        gone = await hub.evict_idle_in_turns()
        if gone:
            log.info("%d idle tables left memory (%d remain)", gone, len(hub.live))
        try:
            taken = await hub.take_orphans()
        except Exception as error:  # the store away: the next round tries again
            log.warning("the tables nobody plays could not be looked for: %s", error)
        else:
            if taken:
                log.info("%d tables nobody played were taken", taken)
        held = 0
        if counters is not None:
            peak_counters = max(peak_counters, counters.clients)
            counters.sweep()
            held = counters.clients
        if (
            time.monotonic() - collected >= FULL_COLLECTION_SECONDS
            or _halved(peak, len(hub.live), GIVE_BACK_TABLES)
            or (
                _halved(peak_counters, held, GIVE_BACK_COUNTERS)
                and len(hub.live) <= GIVE_BACK_TABLES
            )
        ):
            started = time.monotonic()
            found, trimmed = give_back()
            collected = time.monotonic()
            peak = len(hub.live)
            peak_counters = held
            log.info(
                "full collection: %d objects in %.3f s%s",
                found,
                collected - started,
                ", heap trimmed" if trimmed else "",
            )


__all__ = ["EXPIRY_SWEEP_SECONDS", "GIVE_BACK_COUNTERS", "GIVE_BACK_TABLES", "sweep"]
