"""Boosting checks: rated games between accounts that share an address (an IPv6 /64) or a
device are flagged, never blocked; repeated results between the same people within a day
weigh less, the weight kept with each rating change; seats' origins are kept as keyed hashes
and deleted after their days."""

from __future__ import annotations

import time

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from fanfold.server import ratings as ratings_module
from fanfold.server.fairplay import (
    DEVICE_COOKIE,
    ORIGIN_DAYS,
    address_key,
    delete_old_origins,
    keyed_hash,
)
from fanfold.server.moderation import Moderator, close_account
from fanfold.server.store import fairplay_flags, rating_changes, seat_origins
from tests.server.test_accounts import create, csrf
from tests.server.test_ratings import (  # noqa: F401 (a fixture, by name)
    browsers,
    open_rated,
    second_browser,
)


def test_an_address_is_known_by_its_network_and_kept_as_a_keyed_hash() -> None:
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:bbbb::9")
    assert address_key("2001:db8:1:2::1") != address_key("2001:db8:1:3::1")
    assert address_key("203.0.113.7") == "203.0.113.7"
    assert address_key("::ffff:203.0.113.7") == "203.0.113.7"
    assert address_key("testclient") == "testclient"
    one = keyed_hash("key one", "address", "203.0.113.7")
    assert one == keyed_hash("key one", "address", "203.0.113.7")
    assert one != keyed_hash("key two", "address", "203.0.113.7")
    assert "203.0.113.7" not in one


def _resign(client: TestClient, table: str, token: str) -> None:
    answer = client.post(
        f"/api/tables/{table}/end", json={"token": token, "ending": "resign"}, headers=csrf(client)
    )
    assert answer.status_code == 200, answer.text


def _first_move(client: TestClient, table: str, token: str) -> None:
    answer = client.post(
        f"/api/tables/{table}/act",
        json={"token": token, "action": "C1", "version": 0},
        headers=csrf(client),
    )
    assert answer.status_code == 200, answer.text


def test_accounts_sharing_an_address_are_flagged_and_repeats_weigh_less(
    browsers: tuple[TestClient, TestClient],  # noqa: F811 (the imported fixture, by name)
) -> None:
    alice, bob = browsers
    assert alice.cookies.get(DEVICE_COOKIE)  # given when the account was made
    assert alice.cookies.get(DEVICE_COOKIE) != bob.cookies.get(DEVICE_COOKIE)
    hub = alice.app.state.hub  # type: ignore[attr-defined]
    tables = []
    for _ in range(3):  # three rated games between the same two people in a day
        table, players = open_rated(alice, bob, "morris", ["you", "friend"], rated=True)
        _first_move(alice, table, players[0][1])
        _resign(bob, table, players[1][1])
        tables.append(table)
    with hub.store.engine.connect() as connection:
        origins = connection.execute(sa.select(seat_origins)).all()
        flags = connection.execute(sa.select(fairplay_flags)).all()
        changes = connection.execute(
            sa.select(rating_changes).order_by(rating_changes.c.at, rating_changes.c.seat)
        ).all()
    # Where each seat was taken from: hashes only, never the address itself.
    assert len(origins) == 6
    assert all(row.address_hash and "testclient" not in row.address_hash for row in origins)
    # Both browsers come from one address (the test client's): every game flagged, none blocked.
    assert [(row.table_id, row.kind) for row in flags] == [(t, "same-address") for t in tables]
    assert {(row.first_account, row.second_account) for row in flags} == {
        (origins[0].account_id, origins[1].account_id)
    }
    weights = [(row.rated_table, row.weight) for row in changes]
    assert weights == [
        (tables[0], 1.0),
        (tables[0], 1.0),
        (tables[1], 0.5),
        (tables[1], 0.5),
        (tables[2], 0.25),
        (tables[2], 0.25),
    ]
    third = [row for row in changes if row.rated_table == tables[2]]
    for row in third:  # a quarter of the model's change
        assert abs(row.mu_after - row.mu_before) < 0.3 * 250


def test_a_game_between_different_addresses_and_devices_is_not_flagged(
    browsers: tuple[TestClient, TestClient],  # noqa: F811 (the imported fixture, by name)
) -> None:
    alice, bob = browsers
    hub = alice.app.state.hub  # type: ignore[attr-defined]
    table, players = open_rated(alice, bob, "morris", ["you", "friend"], rated=True)
    with hub.store.engine.begin() as connection:  # as if bob sat down from elsewhere
        connection.execute(
            seat_origins.update()
            .where(seat_origins.c.table_id == table, seat_origins.c.seat == 1)
            .values(address_hash="elsewhere", device_hash="another")
        )
    _first_move(alice, table, players[0][1])
    _resign(bob, table, players[1][1])
    with hub.store.engine.connect() as connection:
        assert connection.execute(sa.select(fairplay_flags)).all() == []


def test_origins_are_deleted_after_their_days(
    browsers: tuple[TestClient, TestClient],  # noqa: F811 (the imported fixture, by name)
) -> None:
    alice, bob = browsers
    hub = alice.app.state.hub  # type: ignore[attr-defined]
    open_rated(alice, bob, "morris", ["you", "friend"], rated=True)
    store = hub.store
    assert delete_old_origins(store) == 0
    later = time.time() + ORIGIN_DAYS * 86400 + 1
    assert delete_old_origins(store, now=later) == 2
    with store.engine.connect() as connection:
        assert connection.execute(sa.select(seat_origins)).all() == []


def test_a_leaderboard_lists_people_with_enough_games_against_enough_opponents(
    browsers: tuple[TestClient, TestClient],  # noqa: F811 (the imported fixture, by name)
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert (ratings_module.LISTED_GAMES, ratings_module.LISTED_OPPONENTS) == (10, 5)
    monkeypatch.setattr(ratings_module, "LISTED_GAMES", 3)  # three games, two opponents
    monkeypatch.setattr(ratings_module, "LISTED_OPPONENTS", 2)
    alice, bob = browsers
    carol = second_browser(alice)
    create(carol, "carol")

    def board() -> list[str]:
        lines = alice.get("/api/leaderboard/morris").json()
        return sorted(line["name"] for line in lines if not line["bot"])

    def play(opponent: TestClient) -> None:
        table, players = open_rated(alice, opponent, "morris", ["you", "friend"], rated=True)
        _first_move(alice, table, players[0][1])
        _resign(opponent, table, players[1][1])

    page = alice.get("/leaderboard/morris").text
    assert "A player is listed after 3 rated games against 2 different opponents." in page
    play(bob)
    play(bob)
    play(bob)
    assert board() == []  # three games, one opponent: a friend farmed
    play(carol)
    assert board() == ["alice"]  # four games, two opponents; bob and carol have one each
    bots = [line for line in alice.get("/api/leaderboard/morris").json() if line["bot"]]
    assert bots  # the bot levels are listed from the start
    hub = alice.app.state.hub  # type: ignore[attr-defined]
    close_account(hub.store.engine, "alice", "played with a second account", Moderator.console())
    assert board() == []  # a closed account is off the boards
