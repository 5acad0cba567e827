"""A player's profile: per game and speed (a row live, a row daily) the rated games won, lost
and drawn with the rating now, best wins, most-met opponents and recent finished games (replay
and review links), each number equal to what the games played here through the API produced;
guests named only as ``a guest``, closed accounts only as ``a closed account``, running games
never listed, a hostile name escaped."""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from fanfold.play.review import REVIEW_VERSION
from fanfold.server.leaderboards import FAMILIES
from fanfold.server.profiles import CLOSED, verdict
from fanfold.server.store.moderation_store import SqlModeration
from fanfold.server.store.rating_store import SqlRatings
from fanfold.server.store.review_memory import review_store
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
            "game": FAMILIES["morris"],
            "speed": "live",
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
        "game": FAMILIES["morris"],
        "speed": "live",
        "games": 3,
        "won": 1,
        "lost": 1,
        "drawn": 1,
        "rating": None,
    }
    assert [win["table"] for win in theirs["best_wins"]] == [lost]
    assert theirs["best_wins"][0]["rating"] == ratings_at(bob, lost)["alice"]["before"]

    # a done review is linked; one still being computed is not (held for an hour here, so that
    # the server's sweep of the reviews nobody holds leaves it alone)
    hub = alice.app.state.hub  # type: ignore[attr-defined]
    reviews = review_store(hub.store)  # on SQLite, the reviews' own file
    for table in (won, lost):
        reviews.open(table, REVIEW_VERSION, game="morris.v1", moves=1, seed="1", budget=None, now=1)
    assert reviews.claim(won, REVIEW_VERSION, "test", now=2.0, lease=60.0) is not None
    assert reviews.finish(won, REVIEW_VERSION, "test", {"name": "e"}, ["fine"], None, now=3.0)
    assert reviews.claim(lost, REVIEW_VERSION, "test", now=time.time(), lease=3600.0)
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


def test_live_and_daily_are_rows_apart_and_a_closed_account_is_not_named(
    browsers: tuple[TestClient, TestClient],  # noqa: F811 (the imported fixture, by name)
) -> None:
    """alice beats bob in a rated Morris game at a live speed and in one at the daily speed:
    her profile has a row for each speed of Morris, the live one first. Once the moderators
    close bob's account, alice's best wins, most met and recent games call him only "a closed
    account", with no link to his page, on the API and on the page."""
    alice, bob = browsers
    tables = []
    for speed in ("daily", "rapid"):
        table, players = open_rated(
            alice, bob, "morris", ["you", "friend"], rated=True, speed=speed
        )
        end(bob, table, players[1][1], "resign")
        tables.append(table)
    record = alice.get("/api/players/alice/record").json()
    assert [(row["family"], row["game"], row["speed"]) for row in record["families"]] == [
        ("morris", FAMILIES["morris"], "live"),
        ("morris-daily", FAMILIES["morris"], "daily"),
    ]
    assert [(row["games"], row["won"]) for row in record["families"]] == [(1, 1), (1, 1)]
    assert record["families"][1]["title"] == FAMILIES["morris-daily"]
    page = alice.get("/players/alice").text
    assert '<span class="speed">live</span>' in page
    assert '<span class="speed">daily</span>' in page
    assert page.index('href="/leaderboard/morris"') < page.index('href="/leaderboard/morris-daily"')
    bobs = [win["opponent"]["name"] for win in record["best_wins"]]
    assert bobs == ["bob", "bob"]

    hub = alice.app.state.hub  # type: ignore[attr-defined]
    ratings = SqlRatings(hub.store.engine)
    moderation = SqlModeration(hub.store.engine)
    with ratings.begin() as tx:
        found = ratings.account_named(tx, "bob")
        assert found is not None
        moderation.set_closed(tx, found[0], True)
    record = alice.get("/api/players/alice/record").json()
    unnamed = {"name": CLOSED, "page": None, "bot": False}
    assert [win["opponent"] for win in record["best_wins"]] == [unnamed, unnamed]
    assert [met["opponent"] for met in record["opponents"]] == [unnamed]
    assert record["opponents"][0]["games"] == 2  # his results are still counted
    assert [game["opponents"] for game in record["recent"]] == [[unnamed], [unnamed]]
    assert "bob" not in str(record)
    page = alice.get("/players/alice").text
    assert "a closed account" in page
    assert "/players/bob" not in page
    assert ">bob<" not in page
    french = alice.get("/players/alice", headers={"accept-language": "fr"}).text
    assert "un compte fermé" in french
    assert "en direct" in french
    # The rating families' names are the page's language too (its rating section, its best win).
    assert "<h2>Fano330-R-Morris, un coup par jour</h2>" in french
    assert ">Fano330-R-Morris, un coup par jour</a>" in french
    assert "Morris, daily" not in french
