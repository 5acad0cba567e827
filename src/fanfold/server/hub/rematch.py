"""The rematch of a finished table: :class:`Rematch`.

The same game and variant, a new deal drawn by the server, everyone one seat on (or, when
asked, at the same seats), each seat held by the token that held the seat it comes from;
opened once (a second request gets the same table) by
:class:`~fanfold.server.hub.opening.Opening`.
"""

from __future__ import annotations

import secrets
from dataclasses import replace

import fanfold.server.refusals  # noqa: F401  (registers the refusals' templates)
from fanfold.core.errors import ConfigError, Refusal
from fanfold.server.hub.basics import stored_options
from fanfold.server.hub.host import TableHost
from fanfold.server.hub.opening import Opening
from fanfold.server.hub.residency import Residency
from fanfold.server.hub.turns import play_on
from fanfold.server.live import ForbiddenError, storage_failure
from fanfold.server.store import SeatPlan, token_hash
from fanfold.server.store.protocols import TableStore
from fanfold.server.table_options import TableOptions


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
        seat they had (noted in the finished table's options: ``rematch_same``).

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
                raise ForbiddenError(Refusal("rematch.players_only"))
            made = live.options.rematch
            if made is not None:
                return made
            table = live.table
            if table.outcome is None:
                raise ConfigError(Refusal("rematch.not_over"))
            count = len(table.seats)
            plans: list[SeatPlan] = [SeatPlan("")] * count
            shift = 0 if same_seats else 1
            invites: dict[int, str] = {}
            # A rated table's rematch is rated when it is as fair: every person's seat held
            # by the account that held it (the deal is drawn again, never undo).
            rated = live.options.rated and all(
                account is not None
                for entry, account in zip(table.seats, live.accounts, strict=True)
                if entry.is_human
            )
            for old, entry in enumerate(table.seats):
                new = (old + shift) % count
                held = live.seat_hashes[old] if entry.is_human else None
                invite = None
                if entry.is_human and held is None:  # never claimed: a friend's seat again,
                    invites[new] = secrets.token_urlsafe(18)  # with a new link
                    invite = token_hash(invites[new])
                plans[new] = SeatPlan(entry.player, held, invite, live.accounts[old])
            was = live.options
            options = TableOptions(
                variant=was.variant,
                time_limit=was.time_limit,
                time_control=was.time_control,
                rematch_of=live.id,
                rated=rated,
                levels={(seat + shift) % count: level for seat, level in was.levels.items()}
                if rated
                else {},
            )
            created = await self.opening.open(
                table.game,
                table.config,
                plans,
                live.creator_hash,
                invites,
                token="",
                options=options,
                practice=live.options.practice,
                listed=live.options.listed,
                client=live.client,
            )
            before = live.options
            live.options = replace(before, rematch=created.id, rematch_same=same_seats)
            try:
                self.store.set_options(live.id, stored_options(table, live.options))
            except Exception as error:
                live.options = before
                raise storage_failure("store.rematch", error) from None
        await play_on(self.host, live)
        return created.id


__all__ = ["Rematch"]
