"""The rematch of a finished table: :class:`Rematch`.

The same game and variant, a new deal drawn by the server, everyone one seat on (or, when
asked, at the same seats), each seat held by the token that held the seat it comes from;
opened once (a second request gets the same table) by
:class:`~fanfold.server.hub.opening.Opening`.
"""

from __future__ import annotations

import secrets

from fanfold.core.config import JSONObject
from fanfold.core.errors import ConfigError
from fanfold.server.clocks import CONTROL
from fanfold.server.hub.basics import stored_options
from fanfold.server.hub.host import TableHost
from fanfold.server.hub.opening import Opening
from fanfold.server.hub.residency import Residency
from fanfold.server.hub.turns import play_on
from fanfold.server.live import (
    REMATCH,
    REMATCH_OF,
    REMATCH_SAME,
    ForbiddenError,
    storage_failure,
)
from fanfold.server.ratings import LEVELS, RATED
from fanfold.server.store import token_hash
from fanfold.server.store.protocols import TableStore


class Rematch:
    """The rematches of the finished tables of ``store`` (in memory: ``residency``), each
    opened by ``opening``; the finished table is told through ``host``."""

    def __init__(
        self, store: TableStore, *, residency: Residency, opening: Opening, host: TableHost
    ) -> None:
        self.store = store
        self.residency = residency
        self.opening = opening
        self.host = host

    async def rematch(self, table_id: str, token: str | None, *, same_seats: bool = False) -> str:
        """The rematch of a finished table, opened once (a second request gets the same
        table): the same game and variant, a new deal drawn by the server, and everyone one
        seat on (the player of seat ``n`` sits at seat ``n + 1``, the last at seat 1: two
        players swap colours and who goes first), or with ``same_seats`` everyone at the
        seat they had (noted in the finished table's options, :data:`REMATCH_SAME`).

        Each seat of the new table is held by the same token as the seat it comes from, so
        every player (and the hot-seat creator, whose one token holds several seats) finds
        their own seat there with the link they hold already, and nobody is sent anyone
        else's: a seat is taken only by the token that held it. Bots stay bots. A friend's
        seat nobody had claimed is a friend's seat again, for the creator to invite someone
        to (:meth:`Seating.reinvite`). Each seat keeps its account; the rematch of a rated
        table is rated when every person's seat was held by an account (as fair as the
        first: a new deal drawn by the server, no undo), its bots rated by their levels.

        Raises:
            NotFoundError: no such table.
            ForbiddenError: ``token`` holds no seat there and is not the creator's.
            ConfigError: the game is not over.
            StorageError: the store could not keep it (nothing changed).
        """
        async with self.residency.holding(table_id) as live:
            if not live.seats_of(token) and not live.is_creator(token):
                raise ForbiddenError("only a player at this table may ask for a rematch")
            made = live.options.get(REMATCH)
            if isinstance(made, str):
                return made
            table = live.table
            if table.outcome is None:
                raise ConfigError("the game is not over: a rematch follows a finished game")
            count = len(table.seats)
            shift = 0 if same_seats else 1
            players: list[str] = [""] * count
            hashes: list[str | None] = [None] * count
            invite_hashes: list[str | None] = [None] * count
            accounts: list[int | None] = [None] * count
            invites: dict[int, str] = {}
            # A rated table's rematch is rated when it is as fair: every person's seat held
            # by the account that held it (the deal is drawn again, never undo).
            rated = bool(live.options.get(RATED)) and all(
                account is not None
                for entry, account in zip(table.seats, live.accounts, strict=True)
                if entry.is_human
            )
            for old, entry in enumerate(table.seats):
                new = (old + shift) % count
                players[new] = entry.player
                accounts[new] = live.accounts[old]
                if not entry.is_human:
                    continue
                held = live.seat_hashes[old]
                if held is None:  # never claimed: a friend's seat again, with a new link
                    invites[new] = secrets.token_urlsafe(18)
                    invite_hashes[new] = token_hash(invites[new])
                hashes[new] = held
            kept = ("variant", "time_limit", CONTROL)
            options: JSONObject = {
                name: live.options[name] for name in kept if name in live.options
            }
            options[REMATCH_OF] = live.id
            if rated:
                levels = live.options.get(LEVELS)
                options[RATED] = True
                options[LEVELS] = {
                    str((int(seat) + shift) % count): level
                    for seat, level in (levels if isinstance(levels, dict) else {}).items()
                }
            created = await self.opening.open(
                table.game,
                table.config,
                players,
                hashes,
                invite_hashes,
                live.creator_hash,
                invites,
                token="",
                options=options,
                practice=bool(live.options.get("practice")),
                listed=bool(live.options.get("listed")),
                account_ids=accounts,
                client=live.client,
            )
            live.options[REMATCH] = created.id
            if same_seats:
                live.options[REMATCH_SAME] = True
            try:
                self.store.set_options(live.id, stored_options(table, live.options))
            except Exception as error:
                live.options.pop(REMATCH, None)
                live.options.pop(REMATCH_SAME, None)
                raise storage_failure("the rematch could not be stored", error) from None
        await play_on(self.host, live)
        return created.id


__all__ = ["Rematch"]
