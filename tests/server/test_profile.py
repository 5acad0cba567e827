"""A player's profile: per game and speed the rated games won, lost and drawn with the rating
now, best wins, most-met opponents and recent finished games (replay and review links), each
number equal to what the games played here through the API produced; guests named only as
``a guest``, running games never listed, a hostile name escaped."""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from fanfold.play.review import REVIEW_VERSION
from fanfold.server.leaderboards import FAMILIES
from fanfold.server.profiles import verdict
from fanfold.server.store.review_store import SqlReviews
from tests.server.test_accounts import csrf
from tests.server.test_ratings import (  # noqa: F401 (a fixture, by name)
    browsers,
    open_rated,
    second_browser,
)

pytestmark = pytest.mark.usefixtures("listed_at_once", "no_repeat_discount")

JSON = dict[str, Any]


def end(client: TestClient, table: str, token: str, ending: str) -> None:
    answer = client.post(
        f"/api/tables/{table}/end",
        json={"token": token, "ending": ending},
        headers=csrf(client) if "fanfold_csrf" in client.cookies else {},
    )
    assert answer.status_code == 200, answer.text


def ratings_at(client: TestClient, table: str) -> dict[str, JSON]:
    """What a table did to ratings, by name."""
    moved = client.get(f"/api/tables/{table}/ratings").json()
    return {change["name"]: change for change in moved["changes"]}


def played(alice: TestClient, bob: TestClient) -> list[str]:
    """Five finished games of alice, oldest first, and one still running:

    1. rated Morris against bob: alice resigns (lost);
    2. rated Morris against bob: bob resigns (won);
    3. rated Morris against bob: a draw agreed (drawn);
    4. rated Morris against the easy bot: alice resigns (lost);
    5. a casual Morris game against a guest: the guest resigns (won, not rated);
    and a rated game against bob that is still being played.
    """
    tables = []
    for loser in ("alice", "bob", None):
        table, players = open_rated(alice, bob, "morris", ["you", "friend"], rated=True)
        if loser == "alice":
            end(alice, table, players[0][1], "resign")
        elif loser == "bob":
            end(bob, table, players[1][1], "resign")
        else:
            answer = alice.post(
                f"/api/tables/{table}/end",
                json={"token": players[0][1], "ending": "draw"},
                headers=csrf(alice),
            )
            assert answer.json()["ok"] is False  # offered
            end(bob, table, players[1][1], "draw")
        tables.append(table)
        time.sleep(0.01)  # each ends after the one before
    table, players = open_rated(alice, [], "morris", ["you", "easy"], rated=True)
    end(alice, table, players[0][1], "resign")
    tables.append(table)
    time.sleep(0.01)
    guest = second_browser(alice)  # signed out: a guest
    answer = alice.post(
        "/api/tables", json={"game": "morris", "seats": ["you", "friend"]}, headers=csrf(alice)
    )
    created = answer.json()
    claimed = guest.post(
        f"/api/tables/{created['table']}/claim", json={"invite": created["invites"]["1"]}
    )
    assert claimed.status_code == 200, claimed.text
    end(guest, created["table"], claimed.json()["token"], "resign")
    tables.append(created["table"])
    open_rated(alice, bob, "morris", ["you", "friend"], rated=True)  # running: never listed
    return tables


def test_a_profile_shows_what_the_games_produced(
    browsers: tuple[TestClient, TestClient],  # noqa: F811 (the imported fixture, by name)
) -> None:
    alice, bob = browsers
    lost, won, drawn, to_bot, casual = played(alice, bob)

    record = alice.get("/api/players/ALICE/record").json()
    assert record["name"] == "alice"
    rating = alice.get("/api/players/alice").json()["ratings"][0]
    assert record["families"] == [
        {
            "family": "morris",
            "title": FAMILIES["morris"],
            "games": 4,
            "won": 1,
            "lost": 2,
            "drawn": 1,
            "rating": rating["rating"],
        }
    ]
    bob_before = ratings_at(alice, won)["bob"]["before"]
    assert record["best_wins"] == [
        {
            "table": won,
            "family": "morris",
            "opponent": {"name": "bob", "page": "/players/bob", "bot": False},
            "rating": bob_before,
            "at": record["best_wins"][0]["at"],
        }
    ]
    assert record["opponents"] == [
        {
            "opponent": {"name": "bob", "page": "/players/bob", "bot": False},
            "games": 3,
            "won": 1,
            "lost": 1,
            "drawn": 1,
        },
        {
            "opponent": {"name": "Easy bot", "page": "/bots/morris/easy", "bot": True},
            "games": 1,
            "won": 0,
            "lost": 1,
            "drawn": 0,
        },
    ]
    recent = record["recent"]
    assert [game["table"] for game in recent] == [casual, to_bot, drawn, won, lost]
    assert [game["result"] for game in recent] == ["won", "lost", "drawn", "won", "lost"]
    assert [game["rated"] for game in recent] == [False, True, True, True, True]
    assert [[who["name"] for who in game["opponents"]] for game in recent] == [
        ["a guest"],
        ["Easy bot"],
        ["bob"],
        ["bob"],
        ["bob"],
    ]
    assert recent[0]["opponents"] == [{"name": "a guest", "page": None, "bot": False}]
    assert all(game["replay"] == f"/table/{game['table']}?replay=1" for game in recent)
    assert all(game["review"] is None for game in recent)  # none reviewed yet

    # bob's side of the same games
    theirs = bob.get("/api/players/bob/record").json()
    assert theirs["families"][0] | {"rating": None} == {
        "family": "morris",
        "title": FAMILIES["morris"],
        "games": 3,
        "won": 1,
        "lost": 1,
        "drawn": 1,
        "rating": None,
    }
    assert [win["table"] for win in theirs["best_wins"]] == [lost]
    assert theirs["best_wins"][0]["rating"] == ratings_at(bob, lost)["alice"]["before"]

    # a done review is linked; one only opened is not
    hub = alice.app.state.hub  # type: ignore[attr-defined]
    reviews = SqlReviews(hub.store.engine)
    for table in (won, lost):
        reviews.open(table, REVIEW_VERSION, game="morris.v1", moves=1, seed="1", budget=None, now=1)
    assert reviews.claim(won, REVIEW_VERSION, "test", now=2.0, lease=60.0) is not None
    assert reviews.finish(won, REVIEW_VERSION, "test", {"name": "e"}, ["fine"], None, now=3.0)
    recent = alice.get("/api/players/alice/record").json()["recent"]
    assert {game["table"]: game["review"] for game in recent}[won] == f"/table/{won}/review"
    assert {game["table"]: game["review"] for game in recent}[lost] is None

    page = alice.get("/players/alice")
    assert page.status_code == 200
    text = page.text
    for shown in ("Rated games", "Best wins", "Most met", "Recent games", "a guest"):
        assert shown in text
    assert f'href="/table/{won}/review"' in text
    assert f'href="/table/{casual}?replay=1"' in text
    assert 'href="/bots/morris/easy"' in text
    assert "<svg" in text  # the rating's history


def test_a_hostile_name_is_escaped_and_an_unknown_one_refused(
    browsers: tuple[TestClient, TestClient],  # noqa: F811 (the imported fixture, by name)
) -> None:
    alice, _ = browsers
    hostile = '"><img src=x onerror=alert(1)>'
    page = alice.get(f"/players/{quote(hostile, safe='')}")
    assert page.status_code == 404
    assert "<img" not in page.text
    assert "&lt;img src=x onerror=alert(1)&gt;" in page.text
    answer = alice.get(f"/api/players/{quote(hostile, safe='')}/record")
    assert answer.status_code == 404
    assert "no player called" in answer.json()["error"]
    empty = alice.get("/api/players/alice/record").json()
    assert empty == {
        "name": "alice",
        "families": [],
        "best_wins": [],
        "opponents": [],
        "recent": [],
    }
    assert "No games yet." in alice.get("/players/alice").text


def test_a_result_is_read_from_the_returns_for_a_seat_a_team_or_a_solitaire() -> None:
    one_each = [(0,), (1,)]
    assert verdict([1.0, -1.0], one_each, 0) == "won"
    assert verdict([1.0, -1.0], one_each, 1) == "lost"
    assert verdict([0.0, 0.0], one_each, 1) == "drawn"
    three = [(0,), (1,), (2,)]
    assert verdict([3.0, 3.0, -6.0], three, 1) == "won"  # first, with another, above someone
    assert verdict([3.0, 1.0, -4.0], three, 1) == "lost"  # second of three
    partners = [(0, 2), (1, 3)]
    assert verdict([1.0, -1.0, 0.0, -1.0], partners, 2) == "won"  # the partner's win
    assert verdict([1.0, -1.0, 0.0, -1.0], partners, 3) == "lost"
    assert verdict([5.0], [(0,)], 0) == "won"  # a solitaire
    assert verdict([0.0], [(0,)], 0) == "lost"


def test_a_table_where_one_account_held_both_seats_is_listed_once(
    browsers: tuple[TestClient, TestClient],  # noqa: F811 (the imported fixture, by name)
) -> None:
    alice, _ = browsers
    answer = alice.post(
        "/api/tables", json={"game": "morris", "seats": ["you", "hotseat"]}, headers=csrf(alice)
    )
    created = answer.json()
    end(alice, created["table"], created["token"], "resign")
    hub = alice.app.state.hub  # type: ignore[attr-defined]
    seats = hub.store.load(created["table"]).seats
    assert [seat.account_id for seat in seats] == [seats[0].account_id] * 2  # alice at both
    recent = alice.get("/api/players/alice/record").json()["recent"]
    assert [game["table"] for game in recent] == [created["table"]]
    assert recent[0]["opponents"] == []  # not alice against herself
    assert recent[0]["result"] == "lost"  # White resigned
    answer = alice.post(
        "/api/tables", json={"game": "morris", "seats": ["you", "hotseat"]}, headers=csrf(alice)
    )
    end(alice, answer.json()["table"], answer.json()["token"], "abort")
    recent = alice.get("/api/players/alice/record").json()["recent"]
    assert [game["result"] for game in recent] == ["called off", "lost"]
