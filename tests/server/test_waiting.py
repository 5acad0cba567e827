"""The games waiting for a signed-in player's move (``GET /api/me/waiting``): a daily table
where it is the player's turn is listed with its time left, not when it is the opponent's
turn, not once the game is over, never another account's, and a guest has none."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from fanfold.core.registry import get_game
from fanfold.server.i18n import messages, refusal_codes
from fanfold.server.store import Store
from fanfold.server.store.plans import refresh_statistics
from fanfold.server.store.rating_store import SqlRatings
from tests.server.support import JSON
from tests.server.test_accounts import create, csrf
from tests.server.test_ratings import (  # noqa: F401 (a fixture, by name)
    browsers,
    open_rated,
    second_browser,
)
from tests.server.test_store import (  # noqa: F401 (fixtures, by name)
    create_table,
    postgres_cluster,
    store_url,
)


def waiting(client: TestClient) -> list[JSON]:
    answer = client.get("/api/me/waiting")
    assert answer.status_code == 200, answer.text
    found: list[JSON] = answer.json()
    return found


def test_a_daily_game_waits_for_the_player_to_move_and_only_them(
    browsers: tuple[TestClient, TestClient],  # noqa: F811 (the imported fixture, by name)
) -> None:
    alice, bob = browsers
    carol = second_browser(alice)
    create(carol, "carol")
    table, players = open_rated(alice, bob, "morris", ["you", "friend"], rated=True, speed="daily")

    # White (alice) moves first: her turn is listed, with the day the move has.
    [game] = waiting(alice)
    assert game["table"] == table
    assert game["game"] == get_game("morris").title
    assert game["seat"] == 0
    assert game["opponents"] == ["bob"]
    assert game["daily"] is True
    assert game["speed"] == "daily"
    assert 86000 < game["left"] <= 86400
    assert game["page"] == f"/table/{table}"
    assert set(game) == {
        "table",
        "game",
        "seat",
        "opponents",
        "since",
        "page",
        "daily",
        "speed",
        "left",
    }  # nothing of the position or the seats' tokens
    assert waiting(bob) == []  # not bob's turn
    assert waiting(carol) == []  # not carol's table

    played = alice.post(
        f"/api/tables/{table}/act",
        json={"token": players[0][1], "action": "C1", "version": 0},
        headers=csrf(alice),
    )
    assert played.status_code == 200, played.text
    assert waiting(alice) == []  # the opponent's turn now
    [game] = waiting(bob)
    assert (game["table"], game["seat"], game["opponents"]) == (table, 1, ["alice"])
    assert game["daily"] is True
    assert 86000 < game["left"] <= 86400
    assert waiting(carol) == []

    resigned = bob.post(
        f"/api/tables/{table}/end",
        json={"token": players[1][1], "ending": "resign"},
        headers=csrf(bob),
    )
    assert resigned.status_code == 200, resigned.text
    assert waiting(alice) == []
    assert waiting(bob) == []


def test_a_table_out_of_memory_is_read_from_the_store_and_any_speed_is_listed(
    browsers: tuple[TestClient, TestClient],  # noqa: F811 (the imported fixture, by name)
) -> None:
    alice, bob = browsers
    blitz, _ = open_rated(alice, bob, "morris", ["you", "friend"], rated=True, speed="blitz")
    hub = alice.app.state.hub  # type: ignore[attr-defined]
    hub.live.pop(blitz)  # as if let go from memory: replayed from the store
    [game] = waiting(alice)
    assert (game["table"], game["seat"], game["daily"], game["speed"]) == (blitz, 0, False, "blitz")
    assert "left" not in game  # the time left is told for daily games
    assert blitz not in hub.live  # read, not taken: nothing plays it on
    assert waiting(bob) == []


def test_a_guest_has_no_games_waiting(
    browsers: tuple[TestClient, TestClient],  # noqa: F811 (the imported fixture, by name)
) -> None:
    alice, bob = browsers
    open_rated(alice, bob, "morris", ["you", "friend"], rated=True, speed="daily")
    guest = second_browser(alice)
    assert waiting(guest) == []


def test_the_profile_lists_your_move_to_its_player_alone(
    browsers: tuple[TestClient, TestClient],  # noqa: F811 (the imported fixture, by name)
) -> None:
    alice, bob = browsers
    table, _ = open_rated(alice, bob, "morris", ["you", "friend"], rated=True, speed="daily")
    own = alice.get("/players/alice")
    assert own.status_code == 200
    assert "<h2>Your move</h2>" in own.text
    assert f'href="/table/{table}"' in own.text
    assert "against bob" in own.text
    assert re.search(r"daily: 2[34] h left", own.text)
    seen_by_bob = bob.get("/players/alice")
    assert seen_by_bob.status_code == 200
    assert "Your move" not in seen_by_bob.text  # another viewer sees none of it
    assert table not in seen_by_bob.text
    assert "Your move" not in bob.get("/players/bob").text  # not bob's turn


def test_a_casual_game_against_a_bot_is_listed_without_a_clock(
    browsers: tuple[TestClient, TestClient],  # noqa: F811 (the imported fixture, by name)
) -> None:
    alice, _ = browsers
    made = alice.post(
        "/api/tables", json={"game": "morris", "seats": ["you", "hard"]}, headers=csrf(alice)
    )
    assert made.status_code == 200, made.text
    [game] = waiting(alice)
    assert game["table"] == made.json()["table"]
    assert game["opponents"] == ["Hard bot"]  # the level, never the agent's settings
    # the level as words a page words in its language (an account's name is not: see above)
    assert game["opponents_said"] == [{"code": "player.hard_bot", "params": {}}]
    assert messages("fr").gettext(refusal_codes()["player.hard_bot"]) != "Hard bot"
    assert game["daily"] is False
    assert "speed" not in game
    assert "left" not in game


def test_the_store_reads_an_accounts_seats_at_unfinished_tables(
    store_url: str,  # noqa: F811 (the imported fixture, by name)
) -> None:
    store = Store(store_url)  # SQLite and PostgreSQL
    try:
        people = ["human", "human"]
        both = {"players": people, "token_hashes": [None, None]}
        create_table(store, "mine", account_ids=[7, 8], **both)
        create_table(store, "hotseat", account_ids=[7, 7], **both)
        create_table(store, "over", account_ids=[8, 7], outcome={"reason": "won"}, **both)
        create_table(store, "theirs", account_ids=[8, None], **both)
        data = SqlRatings(store.engine)
        with data.reading() as tx:
            found = data.unfinished_seats(tx, 7, 50)
            assert sorted(found) == [("hotseat", 0), ("hotseat", 1), ("mine", 0)]
            assert len(data.unfinished_seats(tx, 7, 2)) == 2  # at most the limit
            assert data.unfinished_seats(tx, 9, 50) == []
    finally:
        store.close()


def test_the_your_move_read_uses_the_index_on_the_seats_accounts(
    store_url: str,  # noqa: F811 (the imported fixture, by name)
) -> None:
    store = Store(store_url)  # SQLite and PostgreSQL
    try:
        people = {"players": ["human", "human"], "token_hashes": [None, None]}
        for number in range(600):  # enough seats that reading them all costs more
            create_table(store, f"t{number}", account_ids=[number, number + 1000], **people)
        refresh_statistics(store.engine)
        data = SqlRatings(store.engine)
        with data.reading() as tx:
            assert data.unfinished_seats(tx, 7, 50) == [("t7", 0)]
            plan = data.unfinished_seats_plan(tx, 7, 50)
        assert any("seats_account" in step for step in plan), plan
    finally:
        store.close()
