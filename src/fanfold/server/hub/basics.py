"""What the hub's jobs share: the kinds of seat a table opens with, the options the hub keeps
with a table (its table-level ending, a standing draw offer, the aids its players used), a
table's options as the store keeps them, the rating a game's end commits with, the seats of a
table's bots, and the wait for an action's commit.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from dataclasses import replace

import fanfold.server.refusals  # noqa: F401  (registers the refusals' templates)
from fanfold.agents.base import parse_agent
from fanfold.core.config import JSONObject
from fanfold.core.errors import Refusal
from fanfold.core.registry import AnyGame
from fanfold.play.setup import fresh_agent_seed, make_seats
from fanfold.play.table import ENDLESS, Seat, Table
from fanfold.server.budget import BotBudget
from fanfold.server.live import LiveTable
from fanfold.server.ratings import rated_game
from fanfold.server.store import InTransaction
from fanfold.server.table_options import TableOptions

#: A seat the creator plays.
YOU = "you"
#: A seat the creator hands to someone at the same screen (the creator's token holds it).
HOTSEAT = "hotseat"
#: A seat for a friend, who claims it with an invitation link (and gets a token of its own).
FRIEND = "friend"
#: A seat anyone may take from the lobby's open tables (:meth:`Seating.join`).
OPEN = "open"

#: How long an unfinished table may go without an action before it expires (is deleted):
#: 30 days (``fanfold serve --expire-days``).
EXPIRE_SECONDS = 30 * 24 * 3600.0

#: Why a socket is closed when its table moves to another server process: the close reason is
#: the refusal's code (a close frame's reason holds 123 bytes), which the page words from its
#: catalogue ("the table moved to another server process; reconnect" in English).
MOVED = Refusal("close.moved").code
#: What a player is told when another process stored the table's next action first.
MOVED_ON = Refusal("store.moved_on")

#: What a spent or replaced invitation is told.
USED_INVITATION = Refusal("seat.used_invitation")

#: The options that keep a table-level ending (:mod:`fanfold.core.rulings`), and the seat
#: whose draw offer stands (withdrawn once another side plays).
RULING, DRAW_OFFER = "ruling", "draw_offer"
#: The ending word for leaving a game of three or more sides, which goes on with a bot.
LEAVE = "leave"

#: The option that lists the aids a table's players used (``undo``, and each analysis asked
#: for by name: ``hint``, ``winnable``), oldest first.
AIDS = "aids"


def bot_text(budget: BotBudget, game: AnyGame, text: str) -> str:
    """The canonical agent text a bot seat plays with: ``text`` within the server's limits
    (``budget``, :mod:`fanfold.server.budget`), the time cap added when the agent takes one
    and the text does not set it.

    Raises:
        BudgetError: the text asks for more than the server's limits allow.
        FanfoldError: not an agent, or one that does not play ``game``.
    """
    spec = parse_agent(text)
    spec.create(game)  # raises the clear error for an agent that does not play the game
    return str(budget.check(spec))


def seats_for(game: AnyGame, players: Sequence[str]) -> list[Seat]:
    """A table's seats for ``players`` (``"human"`` or agent texts), its bots with a random
    stream of their own, drawn apart from the deal and never stored."""
    return make_seats(game, players, fresh_agent_seed())


def with_aid(options: TableOptions, aid: str) -> TableOptions:
    """``options`` with ``aid`` in their :data:`AIDS` (unchanged when it is there)."""
    if aid in options.aids:
        return options
    return replace(options, aids=(*options.aids, aid))


def plays_on_alone(table: Table, options: TableOptions) -> bool:
    """Whether play goes on at ``table`` without a person: it is unfinished and a bot decides
    next, or a person decides under a time limit, whose timer runs. Start-up loads only those
    tables, and a stopping process's others take only those (and the watched ones) at once."""
    clocks = options.clocks
    timed = options.time_limit is not None
    timed = timed or (clocks is not None and clocks.running is not None)
    bots = table.agent_to_move() is not None and len(table.played) < ENDLESS
    return table.decider is not None and (bots or timed)


def stored_options(table: Table, options: TableOptions) -> JSONObject:
    """A table's options as the store keeps them: with :data:`~fanfold.server.store.RESUME`,
    true while play goes on without a person (:func:`plays_on_alone`), so that start-up loads
    only those tables."""
    stored = replace(options, resume=plays_on_alone(table, options))
    if table.ruling is not None:
        stored = replace(stored, ruling=table.ruling.to_json())
    return stored.to_stored()


def rating_of(live: LiveTable) -> InTransaction | None:
    """What a table's last action commits with it: the rating update of a rated game that
    has just ended (:mod:`fanfold.server.ratings`), else nothing."""
    table = live.table
    if table.outcome is None or not live.options.rated:
        return None
    rated = rated_game(
        live.id,
        table.game,
        table.config,
        live.options,
        [entry.player for entry in table.seats],
        live.accounts,
        table.outcome.to_json(),
    )
    if rated is None:
        return None
    return rated.apply


def other_side(table: Table, offered: int | None, seat: int) -> bool:
    """Whether a draw offered by ``offered`` (``None``: no offer) came from another side than
    ``seat``'s."""
    if offered is None:
        return False
    teams = table.game.teams(table.config)
    return not any(offered in team and seat in team for team in teams)


async def settled(future: asyncio.Future[None]) -> None:
    """Wait for a row's commit; a caller stopped meanwhile (its task cancelled) still waits
    for the write to end, so that the table's lock is never let go while its action is in
    flight, and the table takes the action back if it was not stored."""
    try:
        await asyncio.shield(future)
    except asyncio.CancelledError:
        while not future.done():
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait({future})  # never raises the write's error
        raise
