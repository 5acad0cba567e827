"""The games waiting for a signed-in player's move (``GET /api/me/waiting``, the lobby's badge
and the profile's "Your move"): the unfinished tables where the account holds the seat whose
turn it is, of any speed, the daily ones with the time their move has left.

Whose turn it is comes from the table in memory when this process holds it, else from the
stored table replayed off the event loop (read only: the table is neither taken nor played
on). Nothing of a player's view is told but the seat to move: no hand, no seed, no position.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping, Sequence

from fanfold.core.config import JSONValue
from fanfold.core.phrases import Phrase, phrases, said
from fanfold.play.table import HUMAN
from fanfold.server.clocks import DAILY, Clocks
from fanfold.server.hub.residency import rebuild
from fanfold.server.i18n import gettext
from fanfold.server.live import LiveTable
from fanfold.server.protocol import WaitingGame
from fanfold.server.store import Store
from fanfold.server.store.rating_store import SqlRatings
from fanfold.server.store.records import StoredTable
from fanfold.server.table_options import TableOptions

#: A bot level as players read it (the lobby's ``botName``).
LEVEL_WORDS = {"easy": "Easy bot", "medium": "Medium bot", "hard": "Hard bot"}
#: A guest and the bot levels among the others at a table, as codes a page words in its
#: language (:class:`~fanfold.core.phrases.Phrase`).
phrases(
    {
        "player.guest": "a guest",
        **{f"player.{level}_bot": words for level, words in LEVEL_WORDS.items()},
    }
)
#: The most unfinished tables of one player looked at (the most recently changed).
LIMIT = 50


def _seats(store: Store, account_id: int) -> list[tuple[str, int]]:
    data = SqlRatings(store.engine)
    with data.reading() as tx:
        return data.unfinished_seats(tx, account_id, LIMIT)


def _names(store: Store, ids: set[int]) -> dict[int, str]:
    data = SqlRatings(store.engine)
    with data.reading() as tx:
        return data.account_names(tx, ids)


def _deciders(stored: Sequence[StoredTable]) -> dict[str, tuple[int | None, str]]:
    """Each stored table's seat to move (``None``: over) and its game's title, replayed."""
    found: dict[str, tuple[int | None, str]] = {}
    for table in stored:
        live = rebuild(table)
        found[table.id] = (live.table.decider, live.table.game.title)
    return found


def _clock_of(options: Mapping[str, JSONValue]) -> tuple[str | None, Clocks | None]:
    typed = TableOptions.from_stored(options)
    control = typed.time_control
    return (control.speed if control is not None else None), typed.clocks


def _opponent(table: StoredTable, seat: int, names: Mapping[int, str]) -> str:
    held = table.seats[seat]
    if held.account_id is not None and held.account_id in names:
        return names[held.account_id]
    if held.player == HUMAN:
        return Phrase("player.guest")
    level = held.player.split("(")[0]  # as the lobby says it: never the agent's settings
    return Phrase(f"player.{level}_bot") if level in LEVEL_WORDS else f"Bot ({level})"


async def waiting_for(
    store: Store, live: Mapping[str, LiveTable], account_id: int
) -> list[WaitingGame]:
    """The games waiting for ``account_id``'s move, the longest waiting first."""
    held = await asyncio.to_thread(_seats, store, account_id)
    if not held:
        return []
    mine: dict[str, set[int]] = {}
    for table_id, seat in held:
        mine.setdefault(table_id, set()).add(seat)
    stored = await asyncio.to_thread(store.load_many, list(mine))
    turns: dict[str, tuple[int | None, str]] = {}
    for table_id in stored:
        held_now = live.get(table_id)
        if held_now is not None and not held_now.evicted:
            turns[table_id] = (held_now.table.decider, held_now.table.game.title)
    replay = [table for table_id, table in stored.items() if table_id not in turns]
    if replay:
        turns.update(await asyncio.to_thread(_deciders, replay))
    due = [
        (stored[table_id], decider, title)
        for table_id, (decider, title) in turns.items()
        if decider is not None and decider in mine.get(table_id, set())
    ]
    known = {
        seat.account_id
        for table, _, _ in due
        for seat in table.seats
        if seat.account_id is not None
    }
    names = await asyncio.to_thread(_names, store, known) if known else {}
    now = time.time()
    games: list[WaitingGame] = []
    for table, decider, title in due:
        speed, clocks = _clock_of(table.options)
        running = clocks is not None and clocks.running == decider and clocks.since is not None
        since = clocks.since if running and clocks is not None and clocks.since else table.updated
        left = clocks.remaining(decider, now) if clocks is not None and speed == DAILY else None
        others = [
            _opponent(table, seat, names)
            for seat in range(len(table.seats))
            if seat not in mine[table.id]
        ]
        game = WaitingGame(
            table=table.id,
            game=title,
            seat=decider,
            opponents=others,
            since=since,
            page=f"/table/{table.id}",
            daily=speed == DAILY,
        )
        coded = [said(other) for other in others]
        if any(coded):
            game.opponents_said = coded
        if speed is not None:
            game.speed = speed
        if left is not None:
            game.left = max(0.0, left)
        games.append(game)
    games.sort(key=lambda game: game.since)
    return games


def duration_words(seconds: float) -> str:
    """A length of time in words, to the largest unit: "40 s", "12 min", "5 h", "2 days"."""
    seconds = max(0.0, seconds)
    if seconds < 60:
        return f"{int(seconds)} s"
    if seconds < 3600:
        return f"{int(seconds // 60)} min"
    if seconds < 2 * 86400:
        return f"{int(seconds // 3600)} h"
    return f"{int(seconds // 86400)} days"


def _worded(game: WaitingGame) -> list[str]:
    """The others at ``game``'s table in the page's language: a guest and the bot levels in
    its words, the accounts' names as they are."""
    coded = game.opponents_said or [None] * len(game.opponents)
    return [
        gettext(name) if code else name for name, code in zip(game.opponents, coded, strict=True)
    ]


def described(game: WaitingGame, now: float) -> dict[str, str]:
    """A waiting game as a page shows it: its link, its title, the others at the table, how
    long it has waited, and for a daily game the time its move has left."""
    return {
        "page": game.page,
        "game": game.game,
        "opponents": ", ".join(_worded(game)) or gettext("nobody else"),
        "waited": duration_words(now - game.since),
        "left": "" if game.left is None else duration_words(game.left),
    }
