"""Chat at a table (:mod:`fanfold.server.chat`): the text of a line, the limits, the rooms and
who may write in them, the preset phrases of a rated table of three or more, the refusals, the
reports and what the moderators see, and the outbox that drops old lines rather than a slow
reader."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from fanfold.core.config import JSONObject
from fanfold.server.accounts import Accounts
from fanfold.server.app import create_app
from fanfold.server.chat import (
    MAX_TEXT,
    PHRASE_MARK,
    PHRASES,
    SITE_LINES,
    TABLE_LINES,
    ChatError,
    ChatFloodError,
    Limits,
    clean,
    line_out,
    shown,
    stored,
)
from fanfold.server.outbox import BEHIND, CHAT_QUEUED, Outbox
from fanfold.server.store import SeatPlan, Store, TablePlan
from fanfold.server.store.chat_records import PLAYERS, OverLimitError
from fanfold.server.store.chat_store import SqlChat
from fanfold.server.store.memory_chat import MemoryChat
from tests.server.support import (
    JSON,
    ROOMY,
    TOKEN,
    friends_table,
    receive,
    silent,
    sqlite_url,
)
from tests.server.test_accounts import create, csrf
from tests.server.test_moderation import moderate
from tests.server.test_ratings import open_rated, second_browser

# ------------------------------------------------------------------ the text


def test_a_line_loses_its_control_characters_and_keeps_its_words() -> None:
    assert clean("  hello\x00 there\x07  ") == "hello there"
    assert clean("one\ntwo\tthree\r") == "one two three"
    assert clean("a\u202eb\u2066c") == "abc"  # no reordering of the text on screen
    assert clean("<script>alert(1)</script>") == "<script>alert(1)</script>"  # text, as is
    assert clean("x" * MAX_TEXT) == "x" * MAX_TEXT


@pytest.mark.parametrize("text", ["", "   ", "\x00\x01", "\n\t"])
def test_an_empty_line_is_refused(text: str) -> None:
    with pytest.raises(ChatError, match="empty"):
        clean(text)


def test_a_long_line_is_refused_with_its_length() -> None:
    with pytest.raises(ChatError, match=f"at most {MAX_TEXT} characters .this one has 301"):
        clean("x" * (MAX_TEXT + 1))


def test_a_phrase_is_kept_as_its_key_and_a_line_kept_before_the_keys_as_it_was() -> None:
    chats = MemoryChat()
    said = chats.add_line("t1", PLAYERS, None, "White", 0, stored("Well played"), 1.0)
    assert said.text == "\x1fwell_played"  # in no language
    assert shown(said.text) == ("Well played", "well_played")
    out = line_out(said).model_dump(exclude_unset=True)
    assert (out["text"], out["phrase"]) == ("Well played", "well_played")
    # a line kept before the keys, and a free line that only looks like a key
    for text, kept_as in [("Well played", "Well played"), ("well_played", stored("well_played"))]:
        kept = chats.add_line("t1", PLAYERS, None, "White", 0, kept_as, 2.0)
        assert kept.text == text
        assert "phrase" not in line_out(kept).model_dump(exclude_unset=True)
    # every phrase's words make its key again, and no cleaned line holds the mark
    assert all(shown(stored(words)) == (words, key) for key, words in PHRASES.items())
    assert PHRASE_MARK not in clean(f"{PHRASE_MARK}thanks")


# ------------------------------------------------------------------ the limits


def test_a_speaker_says_five_lines_in_ten_seconds_at_a_table() -> None:
    limits, chats = Limits(), MemoryChat()

    def take(table: str, speaker: str, at: float) -> None:
        try:
            chats.add_line(table, PLAYERS, None, "White", 0, "hi", at, speaker, limits.lines)
        except OverLimitError as over:
            raise limits.refusal(over.which) from None

    for second in range(TABLE_LINES):
        take("t1", "a:1", float(second))
    with pytest.raises(ChatFloodError, match="at most 5 lines every 10 seconds"):
        take("t1", "a:1", 5.0)
    take("t2", "a:1", 5.0)  # another table has its own budget
    take("t1", "a:2", 5.0)  # and another speaker
    take("t1", "a:1", 10.5)  # the first line is out of the window now
    for number in range(SITE_LINES - 7):
        take(f"t{number + 3}", "a:1", 11.0 + number / 10)
    with pytest.raises(ChatFloodError, match="20 lines a minute on the whole site"):
        take("t99", "a:1", 30.0)


# ------------------------------------------------------------------ the outbox


def test_a_slow_reader_loses_old_chat_lines_never_its_connection_nor_a_state() -> None:
    async def scenario() -> tuple[list[str], list[int], int]:
        gate = asyncio.Event()
        written: list[str] = []
        closed: list[int] = []

        async def write(text: str) -> None:
            await gate.wait()
            written.append(text)

        async def close(code: int, reason: str) -> None:
            del reason
            closed.append(code)

        box = Outbox(write, close, size=4)
        box.post("state 0")
        await asyncio.sleep(0)  # the writer takes it, and waits on the socket
        for number in range(CHAT_QUEUED + 10):
            assert box.post(f"line {number}", droppable=True)
        assert box.post("state 1")
        assert not box.closed  # many lines behind: still connected
        gate.set()
        for _ in range(100):
            await asyncio.sleep(0)
        dropped = box.dropped_lines
        for number in range(4):  # states behind: dropped as before
            box.post(f"state {number + 2}")
        gate.clear()
        await asyncio.sleep(0)
        for number in range(6):
            box.post(f"state {number + 6}")
        await asyncio.sleep(0.01)
        return written, closed, dropped

    written, closed, dropped = asyncio.run(scenario())
    assert dropped == 10
    lines = [text for text in written if text.startswith("line")]
    assert lines == [f"line {number}" for number in range(10, CHAT_QUEUED + 10)]  # the newest
    assert "state 0" in written
    assert "state 1" in written
    assert closed == [BEHIND]  # states, not lines, drop a reader that stopped reading


# ------------------------------------------------------------------ sockets


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(sqlite_url(tmp_path), bot_seconds=0.5, limits=ROOMY)
    with TestClient(app) as found:
        yield found


def join(socket: WebSocketTestSession, token: str | None = None) -> tuple[JSON, JSON]:
    """Say hello with chat; the state and the chat room."""
    message: JSON = {"type": "hello", "chat": True}
    if token is not None:
        message["token"] = token
    socket.send_json(message)
    first, second = receive(socket), receive(socket)
    return (first, second) if first["type"] == "state" else (second, first)


def say(socket: WebSocketTestSession, text: str, room: str = "players") -> None:
    socket.send_json({"type": "chat", "room": room, "text": text})


def test_the_players_chat_and_the_spectators_never_hear_them(client: TestClient) -> None:
    table, white, black = friends_table(client)
    path = f"/ws/tables/{table}"
    with (
        client.websocket_connect(path) as one,
        client.websocket_connect(path) as two,
        client.websocket_connect(path) as watcher,
    ):
        state, room = join(one, white)
        assert (room["room"], room["writable"], room["presets_only"]) == ("players", True, False)
        assert room["lines"] == []
        assert room["phrases"] == list(PHRASES.values())
        assert room["phrase_keys"] == list(PHRASES)
        join(two, black)
        _, watching = join(watcher)
        assert (watching["room"], watching["writable"]) == ("spectators", False)
        say(one, "  <script>alert(1)</script>\x00 good luck ")
        heard = [receive(one), receive(two)]
        for message in heard:
            assert message["type"] == "chat"
            assert message["room"] == "players"
            line = message["line"]
            assert line["text"] == "<script>alert(1)</script> good luck"
            assert (line["name"], line["seat"]) == ("White", 0)
        assert silent(watcher)  # a players' line never reaches a spectator
        assert silent(one, 0.1)
        assert silent(two, 0.1)
        # A guest spectator writes nowhere; a seat does not write in the spectators' room.
        say(watcher, "hi players")
        assert "spectators do not write" in receive(watcher)["error"]
        say(watcher, "hi", room="spectators")
        refusal = receive(watcher)
        assert "sign in to write" in refusal["error"]
        assert refusal["kind"] == "ForbiddenError"
        say(two, "psst", room="spectators")
        assert "spectators' own" in receive(two)["error"]
        say(two, "\x01 \x02")
        assert "empty line" in receive(two)["error"]
        say(two, "y" * (MAX_TEXT + 1))
        assert "at most 300 characters" in receive(two)["error"]
        two.send_json({"type": "chat", "room": "kitchen", "text": "hi"})
        assert receive(two)["kind"] == "MalformedRequest"
        assert silent(one)  # none of the refusals reached anyone else
        assert state["version"] == 2
    # A reload shows the room's last lines; the spectator's room has none.
    with client.websocket_connect(path) as again, client.websocket_connect(path) as other:
        _, room = join(again, black)
        assert [line["text"] for line in room["lines"]] == ["<script>alert(1)</script> good luck"]
        _, watching = join(other)
        assert watching["lines"] == []
    record = client.get(f"/api/tables/{table}/record", headers={TOKEN: white})
    assert "good luck" not in record.text  # a record never holds chat


def test_sockets_of_one_player_share_the_budget_and_chat_needs_a_hello_with_it(
    client: TestClient,
) -> None:
    table, white, _ = friends_table(client)
    path = f"/ws/tables/{table}"
    with (
        client.websocket_connect(path) as one,
        client.websocket_connect(path) as two,
        client.websocket_connect(path) as plain,
    ):
        join(one, white)
        join(two, white)
        plain.send_json({"type": "hello", "token": white})
        receive(plain)
        for number in range(TABLE_LINES):
            say(one if number % 2 else two, f"line {number}")
        for _ in range(TABLE_LINES):
            assert receive(one)["type"] == "chat"
        say(one, "one too many")
        refusal = receive(one)
        assert refusal["kind"] == "ChatFloodError"
        assert "at most 5 lines" in refusal["error"]
        say(plain, "hello")  # no chat in its hello: it neither hears nor says lines
        assert "chat: true" in receive(plain)["error"]
        # Said on two sockets at once, the lines come in either order.
        assert sorted(receive(two)["line"]["text"] for _ in range(TABLE_LINES)) == [
            f"line {number}" for number in range(TABLE_LINES)
        ]
        assert silent(two)
        assert silent(plain, 0.1)


def test_signed_in_spectators_have_a_room_the_seats_never_see(client: TestClient) -> None:
    table, white, _ = friends_table(client)
    path = f"/ws/tables/{table}"
    carol = second_browser(client)
    create(carol, "carol")
    with (
        client.websocket_connect(path) as seat,
        carol.websocket_connect(path) as signed,
        client.websocket_connect(path) as guest,
    ):
        join(seat, white)
        _, room = join(signed)
        assert (room["room"], room["writable"]) == ("spectators", True)
        join(guest)
        say(signed, "who wins?", room="spectators")
        for socket in (signed, guest):
            message = receive(socket)
            assert message["room"] == "spectators"
            assert (message["line"]["name"], message["line"]["seat"]) == ("carol", None)
        assert silent(seat)


# --------------------------------------------------- rated tables of three or more


@pytest.fixture
def browsers(tmp_path: Path) -> Iterator[tuple[TestClient, TestClient, TestClient]]:
    url = sqlite_url(tmp_path)
    app = create_app(url, bot_seconds=0.5, limits=ROOMY)
    with TestClient(app) as alice:
        bob, mona = second_browser(alice), second_browser(alice)
        create(alice, "alice")
        create(bob, "bob")
        create(mona, "mona")
        granted = moderate("grant", "MONA", "--db", url, "--note", "reads chat reports")
        assert granted.exit_code == 0, granted.output
        yield alice, bob, mona


def test_a_rated_table_of_three_takes_only_the_preset_phrases(
    browsers: tuple[TestClient, TestClient, TestClient],
) -> None:
    alice, bob, _ = browsers
    table, players = open_rated(
        alice, bob, "fantan", ["you", "friend", "easy"], rated=True, players=3
    )
    path = f"/ws/tables/{table}"
    with alice.websocket_connect(path) as one, bob.websocket_connect(path) as two:
        _, room = join(one, players[0][1])
        assert room["presets_only"] is True
        join(two, players[1][1])
        say(one, "I hold the seven of hearts")
        refusal = receive(one)
        while refusal["type"] != "error":  # a state of the game may come first
            refusal = receive(one)
        assert "only the preset phrases" in refusal["error"]
        say(one, "Good luck")
        heard = receive(two)
        while heard["type"] != "chat":
            heard = receive(two)
        assert (heard["line"]["text"], heard["line"]["name"]) == ("Good luck", "alice")
        assert heard["line"]["phrase"] == "good_luck"  # the page words it in its language


def test_a_rated_table_of_two_takes_free_text(
    browsers: tuple[TestClient, TestClient, TestClient],
) -> None:
    alice, bob, _ = browsers
    table, players = open_rated(alice, bob, "morris", ["you", "friend"], rated=True)
    with alice.websocket_connect(f"/ws/tables/{table}") as one:
        _, room = join(one, players[0][1])
        assert room["presets_only"] is False
        say(one, "my own words")
        assert receive(one)["line"]["text"] == "my own words"


# ------------------------------------------------------------------ reports


def test_a_reported_line_is_kept_with_its_context_for_the_moderators(
    browsers: tuple[TestClient, TestClient, TestClient],
) -> None:
    alice, bob, mona = browsers
    table, players = open_rated(alice, bob, "morris", ["you", "friend"], rated=True)
    path = f"/ws/tables/{table}"
    with alice.websocket_connect(path) as one, bob.websocket_connect(path) as two:
        join(one, players[0][1])
        join(two, players[1][1])
        texts = ["hi", "Good luck", "you are terrible", "sorry", "gg"]
        ids = []
        for number, text in enumerate(texts):
            say(one if number % 2 == 0 else two, text)
            ids.append(receive(one)["line"]["id"])
            receive(two)
    bad = ids[2]
    route = f"/api/tables/{table}/chat/{bad}/report"
    headers = {TOKEN: players[1][1], **csrf(bob)}
    answer = bob.post(route, json={"note": "rude"}, headers=headers)
    assert answer.status_code == 200, answer.text
    again = bob.post(route, json={"note": "rude"}, headers=headers)
    assert again.status_code == 400
    assert "reported this line already" in again.json()["error"]
    # A spectator does not read the players' room, so does not report it; nor a forged line.
    assert mona.post(route, json={}, headers=csrf(mona)).status_code == 403
    missing = bob.post(f"/api/tables/{table}/chat/999/report", json={}, headers=headers)
    assert missing.status_code == 404
    assert bob.get("/api/moderation/chat-reports").status_code == 403
    found = mona.get("/api/moderation/chat-reports")
    assert found.status_code == 200, found.text
    (report,) = found.json()["reports"]
    assert (report["table"], report["message"], report["note"]) == (table, bad, "rude")
    assert report["reporter"].startswith("bob (seat 2")
    assert [line["text"] for line in report["lines"]] == texts
    # the phrase (its exact words) is kept as its key; "sorry" is a player's own word
    assert [line["phrase"] for line in report["lines"]] == [None, "good_luck", None, None, None]
    assert [line["name"] for line in report["lines"]] == ["alice", "bob"] * 2 + ["alice"]


def test_a_moderator_settles_a_chat_report_and_closing_an_account_settles_its_lines_reports(
    browsers: tuple[TestClient, TestClient, TestClient],
) -> None:
    alice, bob, mona = browsers
    table, players = open_rated(alice, bob, "morris", ["you", "friend"], rated=True)
    path = f"/ws/tables/{table}"
    with alice.websocket_connect(path) as one, bob.websocket_connect(path) as two:
        join(one, players[0][1])
        join(two, players[1][1])
        ids = []
        for number, text in enumerate(["rude one", "rude back", "rude again"]):
            say(one if number % 2 == 0 else two, text)
            ids.append(receive(one)["line"]["id"])
            receive(two)
    reports = {}
    for line, (reporter, seat) in zip(ids, [(bob, 1), (alice, 0), (bob, 1)], strict=True):
        headers = {TOKEN: players[seat][1], **csrf(reporter)}
        answer = reporter.post(f"/api/tables/{table}/chat/{line}/report", json={}, headers=headers)
        assert answer.status_code == 200, answer.text
        reports[line] = answer.json()["report"]
    first = reports[ids[0]]
    route = f"/api/moderation/chat-reports/{first}/settle"
    looked = {"note": "looked at: a joke between friends"}
    assert bob.post(route, json=looked, headers=csrf(bob)).status_code == 403  # no moderator
    assert mona.post(route, json={"note": ""}, headers=csrf(mona)).status_code == 422
    missing = mona.post("/api/moderation/chat-reports/999/settle", json=looked, headers=csrf(mona))
    assert missing.status_code == 404
    settled = mona.post(route, json=looked, headers=csrf(mona))
    assert settled.status_code == 200, settled.text
    assert settled.json()["resolved_by"] == "mona"
    again = mona.post(route, json=looked, headers=csrf(mona))
    assert again.status_code == 400
    assert "settled already" in again.json()["error"]
    still_open = mona.get("/api/moderation/chat-reports").json()["reports"]
    assert sorted(report["id"] for report in still_open) == sorted(
        [reports[ids[1]], reports[ids[2]]]
    )
    every = {
        r["id"]: r for r in mona.get("/api/moderation/chat-reports?all=true").json()["reports"]
    }
    assert every[first]["resolution"] == looked["note"]
    assert every[reports[ids[1]]]["resolved_at"] is None
    log = mona.get("/api/moderation/log").json()["log"]
    assert (log[0]["action"], log[0]["detail"], log[0]["note"]) == (
        "resolve",
        f"chat report {first} ({table})",
        looked["note"],
    )
    assert log[0]["account"] == "alice"  # who said the line
    # Closing alice settles the open report of her line, not bob's.
    closed = mona.post(
        "/api/moderation/accounts/alice/close", json={"note": "abuse"}, headers=csrf(mona)
    )
    assert closed.status_code == 200, closed.text
    assert closed.json()["reports_settled"] == 1
    (left,) = mona.get("/api/moderation/chat-reports").json()["reports"]
    assert left["id"] == reports[ids[1]]
    every = {
        r["id"]: r for r in mona.get("/api/moderation/chat-reports?all=true").json()["reports"]
    }
    assert every[reports[ids[2]]]["resolution"] == "account closed: abuse"
    assert every[first]["resolution"] == looked["note"]  # settled before: left as it was


def test_an_expired_table_takes_its_chat_with_it_and_a_report_stays(tmp_path: Path) -> None:
    store = Store(sqlite_url(tmp_path))
    try:
        for table_id in ("old", "kept"):
            seats = (SeatPlan("human"), SeatPlan("human"))
            config: JSONObject = {"adjacency": "geometric"}
            plan = TablePlan("morris.v1", config, 1, None, seats, allow_undo=False)
            store.create(table_id, plan, {})
        chats = SqlChat(store.engine)
        said = chats.add_line("old", "players", None, "White", 0, "bye", 1.0)
        kept = chats.add_line("kept", "players", None, "White", 0, "still here", 1.0)
        chats.add_report(said, "Black (seat 2)", None, "", [said], 2.0)
        assert store.expire(time.time() + 10, keep=["kept"]) == ["old"]
        assert chats.recent("old", "players", 50) == []
        assert chats.line(said.id) is None
        assert chats.recent("kept", "players", 50) == [kept]
        (report,) = chats.reports(10)
        assert report.context == (said,)  # the moderators still read what was said
    finally:
        store.close()


def test_a_store_that_fails_while_joining_the_chat_changes_nothing(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    table, _, _ = friends_table(client)
    carol = second_browser(client)
    create(carol, "carol")

    def broken(self: Accounts, token: str | None) -> None:
        raise RuntimeError("the database is gone")

    with carol.websocket_connect(f"/ws/tables/{table}") as socket:
        with monkeypatch.context() as patch:
            patch.setattr(Accounts, "account_of", broken)
            socket.send_json({"type": "hello", "chat": True})
            refusal = receive(socket)
        assert refusal["kind"] == "StorageError"
        assert refusal["error"].startswith("the chat could not be joined: the store failed")
        assert "database is gone" not in refusal["error"]
        _, room = join(socket)  # still a first hello: it may be said again
        assert (room["room"], room["writable"]) == ("spectators", True)
