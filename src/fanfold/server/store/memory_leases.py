"""The bot pool's leases in one process's memory: the
:class:`~fanfold.server.store.table_side_protocols.BotLeases` of tests (one process has its own
share already; :mod:`fanfold.server.bot_shares` uses the SQL store's across processes)."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass
class _Lease:
    client: str
    until: float
    granted: bool = False


class MemoryBotLeases:
    """Leases by id (in the order asked for), guarded by a lock."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._leases: dict[int, _Lease] = {}
        self._ids = itertools.count(1)

    def ask(self, client: str, holder: str, now: float, seconds: float) -> int:
        """A waiting lease for ``client`` until ``now + seconds``; its id."""
        del holder  # one process holds them all
        with self._lock:
            for number in [n for n, lease in self._leases.items() if lease.until <= now]:
                del self._leases[number]
            number = next(self._ids)
            self._leases[number] = _Lease(client, now + seconds)
        return number

    def take(self, lease: int, client: str, most: int, now: float) -> bool:
        """Whether the lease is granted now: it was, or fewer than ``most`` of the client's
        live leases are granted or were asked for before it."""
        with self._lock:
            found = self._leases.get(lease)
            if found is None or found.until <= now:
                return False
            if not found.granted:
                ahead = sum(
                    other.client == client and other.until > now and (other.granted or n < lease)
                    for n, other in self._leases.items()
                )
                found.granted = ahead < most
            return found.granted

    def give_back(self, lease: int) -> None:
        """End a lease (nothing happens when it is gone)."""
        with self._lock:
            self._leases.pop(lease, None)

    def renew(self, leases: Sequence[int], until: float) -> None:
        """Hold ``leases`` until ``until``."""
        with self._lock:
            for number in leases:
                if number in self._leases:
                    self._leases[number].until = until

    def held(self, client: str, now: float) -> int:
        """How many granted leases ``client`` holds at ``now``."""
        with self._lock:
            return sum(
                lease.client == client and lease.until > now and lease.granted
                for lease in self._leases.values()
            )
