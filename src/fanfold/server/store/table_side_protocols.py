"""What the server keeps beside a table's game, one :class:`typing.Protocol` a subject: the
engines' reviews of finished tables (:class:`ReviewStore`) and the lines said at tables
(:class:`ChatStore`; their settling by the moderators, :class:`ChatSettling`), and the bot
pool's shares across processes (:class:`BotLeases`).
:mod:`fanfold.server.store.protocols` names them with the others."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Protocol

from fanfold.core.config import JSONObject, JSONValue
from fanfold.server.store.chat_records import ChatLine, ChatReport, LineLimits
from fanfold.server.store.records import ReviewJob, Transaction


class ReviewStore(Protocol):
    """The engines' reviews of finished tables: one job per table and review version, held by
    one process at a time under a lease (renewed as it works; once it has run out, another
    process may take the job over), and the judged moves, stored as they are computed.

    The stores (memory, SQL) inherit the rules written here once (what a new review holds,
    what each change of its holder sets) and keep the rows by :meth:`_open` and
    :meth:`_change`."""

    def open(
        self,
        table_id: str,
        version: int,
        *,
        game: str,
        moves: int,
        seed: str,
        budget: int | None,
        now: float,
    ) -> ReviewJob:
        """The table's review of ``version``: the stored one, or a new ``pending`` one."""
        job = ReviewJob(
            table_id, version, game, "pending", moves, seed, budget, None, 0.0, 0,
            None, None, None, None, now, now,
        )  # fmt: skip
        return self._open(job)

    def job(self, table_id: str, version: int) -> ReviewJob | None:
        """The table's review of ``version``, if any."""

    def claim(
        self, table_id: str, version: int, owner: str, now: float, lease: float
    ) -> ReviewJob | None:
        """Hold the review for ``lease`` seconds, if it is not done and nobody else holds it
        (no holder, or a holder whose lease ran out by ``now``): the job as held, else
        ``None``. Claiming again what ``owner`` holds renews its lease."""

    def renew(self, table_id: str, version: int, owner: str, now: float, lease: float) -> bool:
        """Extend ``owner``'s lease; false if it no longer holds the review."""
        return self._change(table_id, version, owner, {"lease_until": now + lease, "updated": now})

    def add_moves(
        self,
        table_id: str,
        version: int,
        owner: str,
        entries: Mapping[int, JSONObject],
        now: float,
        lease: float,
    ) -> bool:
        """Store judged moves by number (a move stored already is kept) and extend the lease,
        only while ``owner`` holds the review; false (nothing stored) if it does not."""
        held = {"lease_until": now + lease, "updated": now}
        return self._change(table_id, version, owner, held, entries)

    def finish(
        self,
        table_id: str,
        version: int,
        owner: str,
        engine: JSONObject,
        summary: Sequence[JSONValue],
        deal: JSONObject | None,
        now: float,
    ) -> bool:
        """Mark the review done with its engine, summary and deal, if ``owner`` holds it."""
        done = {
            "state": "done",
            "engine": engine,
            "summary": list(summary),
            "deal": deal,
            "updated": now,
        }
        return self._change(table_id, version, owner, done)

    def fail(self, table_id: str, version: int, owner: str, error: str, now: float) -> bool:
        """Mark the review failed, with why, if ``owner`` holds it."""
        failed = {"state": "failed", "error": error, "updated": now}
        return self._change(table_id, version, owner, failed)

    def moves(self, table_id: str, version: int, after: int = 0) -> list[JSONObject]:
        """The judged moves stored so far, by number: those numbered above ``after`` (0: all;
        a poll reads only the moves its client has not seen)."""

    def lapsed(self, version: int, now: float, limit: int) -> list[ReviewJob]:
        """At most ``limit`` reviews of ``version`` still to be worked on (pending or
        running) that nobody holds by ``now`` (no holder, or a lease run out), the least
        recently changed first: the jobs a process's sweep takes over."""

    def _open(self, job: ReviewJob) -> ReviewJob:
        """Keep the new review ``job`` unless its table's review of its version is kept
        already; the review as kept."""

    def _change(
        self,
        table_id: str,
        version: int,
        owner: str,
        values: Mapping[str, object],
        entries: Mapping[int, JSONObject] | None = None,
    ) -> bool:
        """At once, and only while ``owner`` holds the running review: set its ``values``
        (by :class:`ReviewJob` field; the JSON ones as they are, the store encodes them) and
        store the judged ``entries`` (a move stored already is kept). False (nothing
        changed) if ``owner`` does not hold it."""


class ChatStore(Protocol):
    """The lines said at tables and their reports (:mod:`fanfold.server.chat`); kept apart
    from the tables' actions, so that no record or replay holds a line of chat.

    The stores (memory, SQL) inherit the making of a line and a report written here once
    and keep them, counted against their limits, by :meth:`_keep_line` and
    :meth:`_keep_report`."""

    def add_line(
        self,
        table_id: str,
        room: str,
        account_id: int | None,
        name: str,
        seat: int | None,
        text: str,
        at: float,
        speaker: str | None = None,
        limits: LineLimits | None = None,
    ) -> ChatLine:
        """Keep a line said by ``speaker`` (a key of its own: an account's, a guest token's);
        the line as kept (its id given).

        Raises:
            OverLimitError: ``speaker`` has said as many lines as ``limits`` allow, at the
                table or at every table, counting the lines kept (by every process on the
                store); nothing kept.
        """
        line = ChatLine(0, table_id, room, account_id, name, seat, text, at)
        return dataclasses.replace(line, id=self._keep_line(line, speaker, limits))

    def recent(self, table_id: str, room: str, limit: int) -> list[ChatLine]:
        """The last ``limit`` lines of a table's room, oldest first."""

    def line(self, line_id: int) -> ChatLine | None:
        """A line by id."""

    def around(self, line: ChatLine, count: int) -> list[ChatLine]:
        """The lines of ``line``'s room around it, oldest first: up to ``count`` before it,
        the line, and up to ``count`` after it."""

    def reported(self, reporter: str, line_id: int) -> bool:
        """Whether ``reporter`` reported that line already."""

    def add_report(
        self,
        line: ChatLine,
        reporter: str,
        reporter_id: int | None,
        note: str,
        context: Sequence[ChatLine],
        at: float,
        most: int | None = None,
        seconds: float = 3600.0,
    ) -> int:
        """Keep a report of ``line`` with its context; the report's id.

        Raises:
            OverLimitError: the reporter (``reporter_id``, else ``reporter``) has filed
                ``most`` reports in the last ``seconds``, counting the reports kept; nothing
                kept.
        """
        report = ChatReport(
            0, line.id, line.table_id, reporter, reporter_id, note, tuple(context), at,
            line.account_id,
        )  # fmt: skip
        return self._keep_report(report, most, seconds)

    def reports(self, limit: int, settled: bool = True) -> list[ChatReport]:
        """The reports, newest first (the open ones only unless ``settled``)."""

    def _keep_line(self, line: ChatLine, speaker: str | None, limits: LineLimits | None) -> int:
        """Keep ``line`` (its id not given yet) said by ``speaker``, unless ``speaker`` is at
        one of ``limits``; its id.

        Raises:
            OverLimitError: which limit (``table`` or ``site``); nothing kept.
        """

    def _keep_report(self, report: ChatReport, most: int | None, seconds: float) -> int:
        """Keep ``report`` (its id not given yet), unless its reporter has filed ``most``
        reports in the last ``seconds``; its id.

        Raises:
            OverLimitError: ``reports``; nothing kept.
        """


class ChatSettling(Protocol):
    """The moderators' settling of chat reports, in a moderation transaction (SQL stores
    only: a server without a database has no moderators)."""

    def lock_report(self, tx: Transaction, report_id: int) -> ChatReport | None:
        """A report, locked for the transaction (``None``: no such report)."""

    def settle(self, tx: Transaction, report_id: int, at: float, by: str, resolution: str) -> None:
        """Settle a report: when, by whom, the note."""

    def settle_reports_about(
        self, tx: Transaction, account_id: int, at: float, by: str, resolution: str
    ) -> int:
        """Settle every open report of a line the account said; how many."""


class BotLeases(Protocol):
    """The bot pool's shares across server processes (:mod:`fanfold.server.bot_shares`): a
    lease per decision of a client's bots, asked for, then granted in the order asked once the
    client's share has room; it ends when given back or when its time runs out (a process
    killed frees its share that way)."""

    def ask(self, client: str, holder: str, now: float, seconds: float) -> int:
        """A waiting lease for ``client`` held by ``holder`` until ``now + seconds``; its
        id."""

    def take(self, lease: int, client: str, most: int, now: float) -> bool:
        """Whether the lease is granted now: it was, or fewer than ``most`` of the client's
        live leases are granted or were asked for before it."""

    def give_back(self, lease: int) -> None:
        """End a lease."""

    def renew(self, leases: Sequence[int], until: float) -> None:
        """Hold ``leases`` until ``until``."""

    def held(self, client: str, now: float) -> int:
        """How many granted leases ``client`` holds at ``now``."""
