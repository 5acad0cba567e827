"""Rematch: a finished table opens one new table, with a new deal drawn by the server and
everyone one seat on; each seat there is held by the token that held the seat it comes from,
so nobody can take another person's seat."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient

from tests.server.support import JSON, act, friends_table, look, open_table, refused
from tests.server.test_accounts import csrf
from tests.server.test_ratings import browsers, open_rated  # noqa: F401 (a fixture, by name)


def play_out(client: TestClient, table: str, tokens: dict[int, str]) -> JSON:
    """Play the first legal action of whoever decides until the game is over."""
    for _ in range(2000):
        message = look(client, table, tokens[0])
        if message["outcome"] is not None:
            return message
        decider = message["decider"]
        if message["seats"][decider]["bot"]:
            time.sleep(0.01)
            continue
        seen = look(client, table, tokens[decider], seat=decider)
        answer = act(client, table, tokens[decider], seen["legal"][0], seen["version"], decider)
        assert answer.status_code == 200, answer.text
    raise AssertionError("the game did not end")


def rematch(client: TestClient, table: str, token: str | None) -> object:
    return client.post(f"/api/tables/{table}/rematch", json={"token": token or ""})


def test_a_rematch_seats_both_players_one_seat_on_with_their_own_links(
    client: TestClient,
) -> None:
    created = open_table(client, game="fantan", players=3, seats=["you", "friend", "random"])
    table, mine, friend = created["table"], created["token"], created["friends"]["1"]
    refused(rematch(client, table, mine), 400)  # not over yet: no rematch
    old_seed = client.app.state.hub.store.load(table).seed  # type: ignore[attr-defined]
    play_out(client, table, {0: mine, 1: friend, 2: mine})

    answer = rematch(client, table, friend)
    assert answer.status_code == 200, answer.text  # type: ignore[attr-defined]
    new = answer.json()  # type: ignore[attr-defined]
    assert new["seats"] == [2]  # the friend played seat 2: seat 3 now
    again = rematch(client, table, mine).json()  # type: ignore[attr-defined]
    assert again == {"table": new["table"], "seats": [1]}  # the same table, not a second one
    hub = client.app.state.hub  # type: ignore[attr-defined]
    assert set(hub.live) == {table, new["table"]}  # two tables in all

    # The old table tells each watcher the new table and only its own seat there.
    assert look(client, table, mine)["rematch"] == {"table": new["table"], "seats": [1]}
    assert look(client, table, friend)["rematch"] == {"table": new["table"], "seats": [2]}
    assert look(client, table)["rematch"] == {"table": new["table"], "seats": []}

    # On the new table each link holds its rotated seat, and only that one.
    there = new["table"]
    assert look(client, there, mine)["yours"] == [1]
    assert look(client, there, friend)["yours"] == [2]
    assert look(client, there)["seats"][0]["bot"]  # the bot moved on too
    message = look(client, there, mine)
    assert message["outcome"] is None
    assert all(entry["seat"] == 0 for entry in message["log"])  # at most the bot's lead
    assert message["options"]["rematch_of"] == table
    assert message["options"]["chosen_deal"] is False
    assert message["options"]["fair"] is True
    assert message["options"]["analysis"] is False  # two people: no analysis, no undo
    assert hub.store.load(there).seed != old_seed  # a new deal, drawn by the server
    refused(client.get(f"/api/tables/{there}", params={"seat": 1}), 403)
    refused(
        client.get(f"/api/tables/{there}", params={"seat": 1}, headers={"X-Fanfold-Token": friend}),
        403,
    )


def test_a_stranger_cannot_open_a_rematch_nor_take_a_seat_in_it(client: TestClient) -> None:
    created = open_table(client, game="fantan", players=3, seats=["you", "friend", "random"])
    table, mine, friend = created["table"], created["token"], created["friends"]["1"]
    play_out(client, table, {0: mine, 1: friend, 2: mine})
    for stranger in (None, "not-a-token", created["invites"]["1"]):
        refused(rematch(client, table, stranger), 403)
    assert look(client, table)["rematch"] is None
    new = rematch(client, table, mine).json()  # type: ignore[attr-defined]
    there = new["table"]
    assert look(client, there, "not-a-token")["yours"] == []
    # The new table has no invitation to claim: both seats are held already.
    for seat in (1, 2):
        assert not look(client, there)["seats"][seat]["open"]


def test_bots_stay_bots_in_their_rotated_seats_and_a_hot_seat_keeps_one_token(
    client: TestClient,
) -> None:
    created = open_table(client, game="fantan", players=3, seats=["you", "random", "hotseat"])
    table, mine = created["table"], created["token"]
    play_out(client, table, {0: mine, 1: mine, 2: mine})
    new = rematch(client, table, mine).json()  # type: ignore[attr-defined]
    assert new["seats"] == [0, 1]  # seats 1 and 3 move to 2 and 1
    seats = look(client, new["table"], mine)["seats"]
    assert [seat["bot"] for seat in seats] == [False, False, True]
    assert seats[2]["player"].startswith("random")
    message = look(client, new["table"], mine)
    assert message["options"]["hotseat"] is True


def _resigned_morris(client: TestClient) -> tuple[str, str, str]:
    """A Morris table between the creator (White) and a friend (Black) that White resigned."""
    table, white, black = friends_table(client)
    answer = client.post(f"/api/tables/{table}/end", json={"token": white, "ending": "resign"})
    assert answer.status_code == 200, answer.text
    return table, white, black


def test_two_players_rematch_with_colours_swapped_or_at_the_same_seats(
    client: TestClient,
) -> None:
    table, white, black = _resigned_morris(client)
    swapped = client.post(f"/api/tables/{table}/rematch", json={"token": black}).json()
    assert swapped["seats"] == [0]  # black plays white now, and moves first
    there = swapped["table"]
    assert look(client, there, black)["yours"] == [0]
    assert look(client, there, white)["yours"] == [1]
    assert look(client, there, white)["decider"] == 0
    assert "rematch_same_seats" not in look(client, table, white)["options"]

    table, white, black = _resigned_morris(client)
    same = client.post(
        f"/api/tables/{table}/rematch", json={"token": white, "seats": "same"}
    ).json()
    assert same["seats"] == [0]  # white stays white
    there = same["table"]
    assert look(client, there, white)["yours"] == [0]
    assert look(client, there, black)["yours"] == [1]
    # the first request decided: a later one for swapped seats finds the same table
    again = client.post(
        f"/api/tables/{table}/rematch", json={"token": black, "seats": "swapped"}
    ).json()
    assert again == {"table": there, "seats": [1]}
    assert look(client, table, black)["rematch"] == {"table": there, "seats": [1]}
    assert look(client, table, white)["options"]["rematch_same_seats"] is True


def test_a_rematch_at_the_same_seats_keeps_three_players_in_place(client: TestClient) -> None:
    created = open_table(client, game="fantan", players=3, seats=["you", "friend", "random"])
    table, mine, friend = created["table"], created["token"], created["friends"]["1"]
    play_out(client, table, {0: mine, 1: friend, 2: mine})
    answer = client.post(f"/api/tables/{table}/rematch", json={"token": mine, "seats": "same"})
    assert answer.json()["seats"] == [0]
    there = answer.json()["table"]
    assert look(client, there, mine)["yours"] == [0]
    assert look(client, there, friend)["yours"] == [1]
    assert look(client, there)["seats"][2]["bot"]


def test_a_rematch_asked_with_unknown_seats_is_refused_and_opens_nothing(
    client: TestClient,
) -> None:
    table, white, _ = _resigned_morris(client)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    before = set(hub.live)
    body = refused(
        client.post(f"/api/tables/{table}/rematch", json={"token": white, "seats": "sideways"}),
        (400, 422),
    )
    assert "seats" in body["error"]
    assert set(hub.live) == before
    assert look(client, table, white)["rematch"] is None


def test_a_rated_rematch_at_the_same_seats_keeps_the_bots_level_at_its_seat(
    browsers: tuple[TestClient, TestClient],  # noqa: F811 (the imported fixture, by name)
) -> None:
    alice, _ = browsers
    table, players = open_rated(alice, [], "morris", ["you", "easy"], rated=True)
    token = players[0][1]
    ended = alice.post(
        f"/api/tables/{table}/end", json={"token": token, "ending": "resign"}, headers=csrf(alice)
    )
    assert ended.status_code == 200, ended.text
    answer = alice.post(
        f"/api/tables/{table}/rematch",
        json={"token": token, "seats": "same"},
        headers=csrf(alice),
    )
    assert answer.json()["seats"] == [0]
    there = look(alice, answer.json()["table"], token)
    assert there["options"]["rated"] is True
    assert there["options"]["levels"] == {"1": "easy"}  # the bot stays at its seat
    assert there["seats"][1]["bot"]
