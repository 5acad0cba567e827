"""Chat at a table: what may be said, by whom, in which room, how often.

A table has two rooms. Its **players' room** is read and written by the seats (every seat sees
every line: there are no private messages during a game). Its **spectators' room** is read by
the spectators only, and written by the signed-in ones (a guest spectator reads only); the
seats never see it, and a spectator never writes in the players' room.

At a rated table of three or more seats, the players' room takes only the preset phrases
(:data:`PHRASES`) until the game ends: a free line between two seats there would be a private
channel for collusion. Free text comes back once the game is over. A phrase has a stable key
besides its English words: a line that is a phrase is kept as its key (:func:`stored`), and goes
out with its English words and its key (``phrase``), which the page words in its reader's
language (``static/phrases.js``). Lines kept before the keys are shown as they were kept.

A line is at most :data:`MAX_TEXT` characters, its control characters (and the marks that
reorder text) taken out, and not empty. Each speaker (an account, else a guest's seat token:
counted per person, not per connection) may say :data:`TABLE_LINES` lines per
:data:`TABLE_SECONDS` seconds at one table and :data:`SITE_LINES` per :data:`SITE_SECONDS`
at all the tables of the site, and file :data:`REPORTS_AN_HOUR` reports an hour: the chat store
counts them from the lines and reports it keeps, so that every server process on one store
counts the same. A refusal is an error to the sender alone and changes nothing.

A line goes out as its own small message (:class:`~fanfold.server.protocol.Chat`), never with
a game state, and droppable (:meth:`fanfold.server.outbox.Outbox.post`): a slow reader loses
old lines, never its connection nor a state. The lines are kept apart from the game
(:class:`~fanfold.server.store.protocols.ChatStore`): no record or replay holds one. A line may
be reported; the report is kept with the lines around it for the moderators.
"""

from __future__ import annotations

import asyncio
import time
import unicodedata
from collections.abc import Callable

from fanfold.server.hashing import TooManyError
from fanfold.server.live import BadRequestError, ForbiddenError, LiveTable, NotFoundError, Watcher
from fanfold.server.live import storage_failure as _storage_failure
from fanfold.server.protocol import PROTOCOL, Chat, ChatLineOut, ChatRoom, wire
from fanfold.server.refusals import refusal
from fanfold.server.store import token_hash
from fanfold.server.store.chat_records import (
    PLAYERS,
    SPECTATORS,
    ChatLine,
    ChatReport,
    LineLimits,
    OverLimitError,
)
from fanfold.server.store.protocols import ChatStore

#: The phrases said at a rated table of three or more seats while its game goes on: each one's
#: stable key and its English words (a page words the key in its own language).
PHRASES = {
    "hello": "Hello",
    "good_luck": "Good luck",
    "have_fun": "Have fun",
    "well_played": "Well played",
    "nice_move": "Nice move",
    "thanks": "Thanks",
    "sorry": "Sorry",
    "oops": "Oops",
    "good_game": "Good game",
    "must_go": "Sorry, I must go",
}
#: A phrase's key by its English words.
_KEYS = {words: key for key, words in PHRASES.items()}
#: How a kept line marks a phrase: this character, then the phrase's key. No said line holds a
#: control character (:func:`clean` takes them out), so no free line is ever read as a phrase.
PHRASE_MARK = "\x1f"
#: The longest line, in characters.
MAX_TEXT = 300
#: Lines a speaker may say at one table per so many seconds.
TABLE_LINES, TABLE_SECONDS = 5, 10.0
#: Lines a speaker may say at all tables (of this process) per so many seconds.
SITE_LINES, SITE_SECONDS = 20, 60.0
#: The lines of a room a connection is shown when it joins (a reload shows them again).
RECENT = 50
#: Lines kept on each side of a reported line.
CONTEXT = 5
#: Reports one reporter may file per hour.
REPORTS_AN_HOUR = 10
#: The longest note with a report.
REPORT_NOTE = 500

#: Marks that reorder text on screen (bidirectional overrides and isolates): taken out too.
_REORDERING = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")


class ChatError(BadRequestError):
    """A line that cannot be said (empty, too long, not a preset phrase where only those go,
    the wrong room); nothing changed."""


class ChatFloodError(TooManyError):
    """A speaker (or reporter) over its limits; nothing changed."""


def clean(text: str) -> str:
    """``text`` as a line: control characters and reordering marks out (a line break or a
    tab becomes a space), spaces trimmed.

    Raises:
        ChatError: nothing left, or more than :data:`MAX_TEXT` characters.
    """
    kept = []
    for char in text:
        if char in "\n\r\t":
            kept.append(" ")
        elif unicodedata.category(char) != "Cc" and char not in _REORDERING:
            kept.append(char)
    line = "".join(kept).strip()
    if not line:
        raise ChatError(refusal("chat.empty"))
    if len(line) > MAX_TEXT:
        raise ChatError(refusal("chat.too_long", most=MAX_TEXT, count=len(line)))
    return line


def stored(line: str) -> str:
    """What is kept of a said (cleaned) line: a phrase's words as the phrase's key (kept in no
    language), any other line as it is."""
    key = _KEYS.get(line)
    return line if key is None else f"{PHRASE_MARK}{key}"


def shown(text: str) -> tuple[str, str | None]:
    """A kept line's words (a phrase's in English) and its phrase's key (``None``: a free
    line, or a phrase kept before the keys, as it was said)."""
    if text.startswith(PHRASE_MARK):
        key = text[len(PHRASE_MARK) :]
        return PHRASES.get(key, key), key
    return text, None


def presets_only(live: LiveTable) -> bool:
    """Whether the players' room takes only :data:`PHRASES` now: a rated table of three or
    more seats whose game goes on."""
    table = live.table
    return live.options.rated and len(table.seats) >= 3 and table.outcome is None


def room_of(watcher: Watcher) -> str:
    """The room a connection reads: the players' for a seat, else the spectators'."""
    return PLAYERS if watcher.seats else SPECTATORS


def speaker_key(watcher: Watcher) -> str:
    """Who a connection speaks as, for the limits: its account, else its seat token."""
    if watcher.account is not None:
        return f"a:{watcher.account[0]}"
    return f"t:{token_hash(watcher.token or '')}"


class Limits:
    """The speakers' budgets: per table and speaker, and per speaker at all tables. The chat
    store counts them from the lines it keeps (:class:`~fanfold.server.store.chat_records.
    LineLimits`), so that they hold across every server process on one store."""

    def __init__(
        self,
        table: tuple[int, float] = (TABLE_LINES, TABLE_SECONDS),
        site: tuple[int, float] = (SITE_LINES, SITE_SECONDS),
    ) -> None:
        self.lines = LineLimits(*table, *site)

    def refusal(self, which: str) -> ChatFloodError:
        """What a speaker over a limit (``"table"`` or ``"site"``) is told."""
        if which == "table":
            seconds = f"{self.lines.table_seconds:g}"
            most = self.lines.table_most
            return ChatFloodError(refusal("chat.table_lines", count=most, seconds=seconds))
        return ChatFloodError(refusal("chat.site_lines", count=self.lines.site_most))


def line_out(line: ChatLine) -> ChatLineOut:
    """A kept line as the protocol sends it (a phrase with its key, ``phrase``)."""
    text, key = shown(line.text)
    phrase = {} if key is None else {"phrase": key}  # a free line's message is as it was
    return ChatLineOut(id=line.id, name=line.name, seat=line.seat, text=text, at=line.at, **phrase)


class ChatRooms:
    """The chat of every table of one process: the rules above, on ``store``.

    Args:
        store: where lines and reports are kept.
        limits: the speakers' budgets (:class:`Limits`; the defaults above).
        clock: the wall clock the lines are stamped with (and the limits count with).
    """

    def __init__(
        self,
        store: ChatStore,
        *,
        limits: Limits | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.limits = limits or Limits()
        self.clock = clock

    async def join(self, live: LiveTable, watcher: Watcher) -> str:
        """The :class:`~fanfold.server.protocol.ChatRoom` message for a connection that
        takes part in the chat: its room, whether it may write there, and the last lines."""
        room = room_of(watcher)
        try:
            lines = await asyncio.to_thread(self.store.recent, live.id, room, RECENT)
        except Exception as error:
            raise _storage_failure("store.chat_read", error) from error
        writable = room == PLAYERS or watcher.account is not None
        return wire(
            ChatRoom(
                protocol=PROTOCOL,
                type="chat_room",
                room=room,
                writable=writable,
                presets_only=room == PLAYERS and presets_only(live),
                phrases=list(PHRASES.values()),
                phrase_keys=list(PHRASES),
                lines=[line_out(line) for line in lines],
            )
        )

    def check(self, live: LiveTable, watcher: Watcher, room: str, text: str) -> str:
        """The line ``watcher`` may say in ``room`` (cleaned).

        Raises:
            ChatError: not its room, or not a line it may say there now.
            ForbiddenError: a guest spectator (spectators write signed in).
        """
        line = clean(text)
        if room == PLAYERS:
            if watcher.spectating:
                raise ChatError(refusal("chat.spectators_read"))
            if presets_only(live) and line not in _KEYS:
                raise ChatError(refusal("chat.presets_only"))
        elif not watcher.spectating:
            raise ChatError(refusal("chat.spectators_own"))
        elif watcher.account is None:
            raise ForbiddenError(refusal("chat.sign_in"))
        return line

    async def say(self, live: LiveTable, watcher: Watcher, room: str, text: str) -> ChatLine:
        """Say a line: checked (:meth:`check`), counted, kept, and sent to every connection
        of ``room`` that takes part in the chat (droppable: see the module).

        Raises:
            ChatError, ForbiddenError: see :meth:`check`.
            ChatFloodError: over the speaker's limits.
            StorageError: the store failed (nothing was said).
        """
        line_text = self.check(live, watcher, room, text)
        seat: int | None = None
        name = watcher.account[1] if watcher.account is not None else "guest"
        if watcher.seats:
            seat = watcher.seat if watcher.seat in watcher.seats else min(watcher.seats)
            held = live.accounts[seat] if seat < len(live.accounts) else None
            if watcher.account is None or held != watcher.account[0]:
                name = live.table.seat_name(seat)
        account_id = None if watcher.account is None else watcher.account[0]
        keep = self.store.add_line
        speaker, limits = speaker_key(watcher), self.limits.lines
        try:
            line = await asyncio.to_thread(
                keep,
                live.id,
                room,
                account_id,
                name,
                seat,
                stored(line_text),
                self.clock(),
                speaker,
                limits,
            )
        except OverLimitError as over:
            raise self.limits.refusal(over.which) from None
        except Exception as error:
            raise _storage_failure("store.chat_keep", error) from error
        message = wire(Chat(protocol=PROTOCOL, type="chat", room=room, line=line_out(line)))
        for other in list(live.watchers):
            if other.chat and other.outbox is not None and room_of(other) == room:
                other.outbox.post(message, droppable=True)
        return line

    async def report(
        self,
        live: LiveTable,
        line_id: int,
        *,
        seat_token: str | None,
        account: tuple[int, str] | None,
        note: str,
    ) -> int:
        """Report a line of ``live``'s chat that the reporter may read (a seat's token for
        the players' room, a signed-in spectator for the spectators'); kept with the
        :data:`CONTEXT` lines on each side of it. The report's id.

        Raises:
            NotFoundError: no such line at this table.
            ForbiddenError: the reporter does not read the line's room.
            ChatError: reported already by this reporter.
            ChatFloodError: over :data:`REPORTS_AN_HOUR`.
        """
        try:
            line = await asyncio.to_thread(self.store.line, line_id)
        except Exception as error:
            raise _storage_failure("store.chat_line", error) from error
        if line is None or line.table_id != live.id:
            raise NotFoundError(refusal("chat.no_line"))
        seats = live.seats_of(seat_token) if seat_token else frozenset()
        if line.room == PLAYERS:
            if not seats:
                raise ForbiddenError(refusal("chat.players_room"))
            first = min(seats)
            reporter = account[1] if account is not None else f"{live.table.seat_name(first)}"
            reporter = f"{reporter} (seat {first + 1} at {live.id})"
        else:
            if account is None or seats:
                raise ForbiddenError(refusal("chat.report_sign_in"))
            reporter = account[1]
        note = clean(note) if note.strip() else ""
        try:
            return await asyncio.to_thread(
                self._keep_report, line, reporter, account, note[:REPORT_NOTE]
            )
        except OverLimitError:
            raise ChatFloodError(refusal("chat.reports_an_hour", count=REPORTS_AN_HOUR)) from None
        except ChatError:
            raise
        except Exception as error:
            raise _storage_failure("store.report", error) from error

    def _keep_report(
        self,
        line: ChatLine,
        reporter: str,
        account: tuple[int, str] | None,
        note: str,
    ) -> int:
        if self.store.reported(reporter, line.id):
            raise ChatError(refusal("chat.reported"))
        context = self.store.around(line, CONTEXT)
        account_id = None if account is None else account[0]
        return self.store.add_report(
            line, reporter, account_id, note, context, self.clock(), REPORTS_AN_HOUR
        )

    async def reports(self, limit: int = 100, *, settled: bool = True) -> list[ChatReport]:
        """The reports, newest first (the open ones only unless ``settled``)."""
        return await asyncio.to_thread(self.store.reports, limit, settled)


__all__ = [
    "CONTEXT",
    "MAX_TEXT",
    "PHRASES",
    "PHRASE_MARK",
    "RECENT",
    "REPORTS_AN_HOUR",
    "SITE_LINES",
    "SITE_SECONDS",
    "TABLE_LINES",
    "TABLE_SECONDS",
    "ChatError",
    "ChatFloodError",
    "ChatRooms",
    "Limits",
    "clean",
    "presets_only",
    "room_of",
    "shown",
    "stored",
]
