"""Fair play at the server: seeds nobody can search, bots with streams of their own, join
links that seat one person once, creator-chosen deals told to all, undo only at practice
tables where cards are hidden, and only public tables listed."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fanfold.core.registry import AnyGame, get_game
from fanfold.play import setup
from fanfold.server import hub as hub_module
from tests.server.support import (
    JSON,
    TOKEN,
    act,
    claim,
    hello,
    look,
    open_table,
    refused,
    serve,
    wait_for,
)


def stored_seed(client: TestClient, table: str) -> int:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    stored = hub.store.load(table)
    assert stored is not None
    return int(stored.seed)


# ------------------------------------------------------------------- seeds


def test_a_new_deal_comes_from_the_systems_generator_with_128_bits(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[int] = []
    drawn = iter([2**127 + 12345, 2**126 + 99, 2**125 + 7])

    def randbits(bits: int) -> int:
        asked.append(bits)
        return next(drawn)

    monkeypatch.setattr("fanfold.play.setup.secrets.randbits", randbits)
    created = open_table(client, game="fantan", seats=["you", "random", "random", "random"])
    assert stored_seed(client, created["table"]) == 2**127 + 12345
    assert asked == [128, 128]  # the deal's seed, then the bots' own stream
    message = look(client, created["table"], created["token"])
    assert message["options"]["chosen_deal"] is False
    assert message["options"]["fair"] is True
    assert "seed" not in message["config"]


def test_seeds_are_large_and_differ_from_table_to_table(client: TestClient) -> None:
    seeds = {
        stored_seed(client, open_table(client, game="fano", seats=["you", "random"])["table"])
        for _ in range(3)
    }
    assert len(seeds) == 3
    assert max(seeds) > 2**64  # not a 20-bit (nor a 64-bit) number: too many to search


def test_a_seed_given_as_digits_is_kept_whole_and_told_to_everyone(client: TestClient) -> None:
    seed = 2**128 - 3
    created = open_table(client, game="fano", seats=["you", "friend"], seed=str(seed))
    table = created["table"]
    assert stored_seed(client, table) == seed
    for token in (created["token"], created["friends"]["1"]):
        message = look(client, table, token)
        assert message["options"]["chosen_deal"] is True
        assert message["options"]["fair"] is False
    for bad in ("12a", "-5", "1" * 61, 1.5):
        error = refused(
            client.post(
                "/api/tables", json={"game": "fano", "seats": ["you", "random"], "seed": bad}
            ),
            422,
        )
        assert "seed" in error["error"]


def test_the_bots_stream_is_drawn_apart_from_the_deal(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    streams: list[int] = []
    make_seats = setup.make_seats

    def spy(game: AnyGame, names: Sequence[str], agent_seed: int = 0) -> Any:
        streams.append(agent_seed)
        return make_seats(game, names, agent_seed)

    monkeypatch.setattr("fanfold.server.hub.basics.make_seats", spy)
    first = open_table(client, game="fano", seats=["you", "random"], seed=77)
    second = open_table(client, game="fano", seats=["you", "random"], seed=77)
    assert len(streams) == 2
    assert streams[0] != streams[1]  # the same deal, bots of different minds
    assert not {77, 78} & set(streams)  # nothing of the deal's seed
    assert all(stream > 2**64 for stream in streams)
    # A table rebuilt from the store (a restart) draws again: the stream is never stored.
    hub = client.app.state.hub  # type: ignore[attr-defined]
    for created in (first, second):
        hub.live.pop(created["table"]).evicted = True
        look(client, created["table"], created["token"])
    assert len(streams) == 4
    assert len(set(streams)) == 4


# ---------------------------------------------------------------- invitations


def test_an_invitation_seats_one_person_once(client: TestClient) -> None:
    answer = client.post(
        "/api/tables", json={"game": "morris", "seats": ["you", "friend"], "seed": 3}
    )
    created = answer.json()
    table, creator, invite = created["table"], created["token"], created["invites"]["1"]
    # The creator holds its own seat and nothing of the friend's.
    assert look(client, table, creator)["yours"] == [0]
    refused(act(client, table, invite, "C1", version=0), 403)  # an invitation holds no seat
    info = client.get(f"/api/tables/{table}/invitation", headers={"X-Fanfold-Invite": invite})
    assert info.status_code == 200, info.text
    assert (info.json()["seat"], info.json()["name"]) == (1, "Black")
    assert look(client, table, creator)["seats"][1]["open"] is True
    friend = claim(client, table, invite)
    assert friend != invite
    assert look(client, table, friend)["yours"] == [1]
    assert look(client, table, creator)["seats"][1]["open"] is False
    # The link again (a second person, or a link previewer after the friend): refused.
    again = refused(client.post(f"/api/tables/{table}/claim", json={"invite": invite}), 403)
    assert "used already" in again["error"]
    refused(
        client.get(f"/api/tables/{table}/invitation", headers={"X-Fanfold-Invite": invite}), 403
    )
    assert look(client, table, friend)["yours"] == [1]  # the seat stays with its claimant


def test_the_creator_reissues_a_link_only_while_nobody_holds_the_seat(
    client: TestClient,
) -> None:
    created = open_table(client, game="morris", seats=["you", "friend"], seed=3)
    table, creator = created["table"], created["token"]
    friend = created["friends"]["1"]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    live = hub.live[table]
    live.seen[1] = live.loaded  # the friend claimed the seat just now
    refused(client.post(f"/api/tables/{table}/invite", json={"token": friend, "seat": 1}), 403)
    refused(client.post(f"/api/tables/{table}/invite", json={"token": creator, "seat": 0}), 403)
    refused(client.post(f"/api/tables/{table}/invite", json={"token": creator, "seat": 5}), 400)
    here = refused(
        client.post(f"/api/tables/{table}/invite", json={"token": creator, "seat": 1}), 400
    )
    assert "still at the table" in here["error"]
    # The friend left long enough ago: the creator may give the seat to someone else.
    live.seen[1] = live.loaded - hub_module.GONE_SECONDS - 1
    answer = client.post(f"/api/tables/{table}/invite", json={"token": creator, "seat": 1})
    assert answer.status_code == 200, answer.text
    newcomer = claim(client, table, answer.json()["invite"])
    assert look(client, table, newcomer)["yours"] == [1]
    refused(act(client, table, friend, "C1", version=0, seat=1), 403)  # the old token is out


def test_an_unclaimed_seat_gets_a_new_link_and_the_old_one_stops(client: TestClient) -> None:
    answer = client.post("/api/tables", json={"game": "morris", "seats": ["you", "friend"]})
    created = answer.json()
    table, creator, old = created["table"], created["token"], created["invites"]["1"]
    made = client.post(f"/api/tables/{table}/invite", json={"token": creator, "seat": 1})
    assert made.status_code == 200, made.text
    refused(client.post(f"/api/tables/{table}/claim", json={"invite": old}), 403)
    assert look(client, table, claim(client, table, made.json()["invite"]))["yours"] == [1]


def test_the_creator_of_a_table_of_friends_watches_it_as_a_spectator(
    client: TestClient,
) -> None:
    answer = client.post(
        "/api/tables", json={"game": "fano", "seats": ["friend", "friend"], "seed": 4}
    )
    created = answer.json()
    with client.websocket_connect(f"/ws/tables/{created['table']}") as socket:
        first = hello(socket, created["token"])
        assert first["type"] == "state"
        assert first["seat"] is None
        assert first["yours"] == []
        assert [seat["open"] for seat in first["seats"]] == [True, True]


def test_invitations_and_claims_survive_a_restart(tmp_path: Path) -> None:
    with serve(tmp_path) as first:
        answer = first.post(
            "/api/tables",
            json={
                "game": "morris",
                "seats": [
                    "you",
                    "friend",
                ],
                "seed": 3,
            },
        )
        created = answer.json()
    with serve(tmp_path) as second:
        friend = claim(second, created["table"], created["invites"]["1"])
        assert look(second, created["table"], friend)["yours"] == [1]
    with serve(tmp_path) as third:
        refused(
            third.post(
                f"/api/tables/{created['table']}/claim", json={"invite": created["invites"]["1"]}
            ),
            403,
        )
        assert look(third, created["table"], friend)["yours"] == [1]
        assert look(third, created["table"], created["token"])["yours"] == [0]


# ---------------------------------------------------------------- undo, listing


def _draw_and_undo(client: TestClient, created: JSON) -> JSON:
    table, token = created["table"], created["token"]
    message = wait_for(client, table, token, lambda m: m["decider"] == 0 and bool(m["legal"]))
    legal = message["legal"]
    answer = act(client, table, token, legal[-1], version=message["version"])
    assert answer.status_code == 200, answer.text
    return look(client, table, token)


def test_no_undo_at_a_table_with_hidden_cards_unless_it_is_for_practice(
    client: TestClient,
) -> None:
    created = open_table(client, game="fano", seats=["you", "random"])
    after = _draw_and_undo(client, created)
    assert after["can_undo"] is False
    before = look(client, created["table"], created["token"])
    undone = client.post(
        f"/api/tables/{created['table']}/undo",
        json={"token": created["token"], "version": before["version"]},
    )
    assert undone.status_code == 200, undone.text
    assert undone.json()["ok"] is False  # nothing taken back: no card drawn again
    assert look(client, created["table"], created["token"])["version"] == before["version"]

    practice = open_table(client, game="fano", seats=["you", "random"], practice=True)
    message = _draw_and_undo(client, practice)
    assert message["options"]["practice"] is True
    assert message["options"]["fair"] is False
    assert message["can_undo"] is True


def test_undo_stays_where_nothing_is_hidden(client: TestClient) -> None:
    created = open_table(client, game="fan", seats=["you"], deal=5)
    message = _draw_and_undo(client, created)
    assert message["can_undo"] is True
    assert message["options"]["practice"] is False  # only hidden-card games have practice


def test_only_tables_opened_to_the_public_are_listed(client: TestClient) -> None:
    open_table(client, game="morris", seats=["you", "friend"])
    listed = open_table(client, game="morris", seats=["you", "random"], public=True)
    rows = client.get("/api/tables").json()
    assert [row["table"] for row in rows] == [listed["table"]]


def test_a_record_with_a_128_bit_seed_loads_from_its_text(client: TestClient) -> None:
    seed = 2**128 - 7
    config = json.dumps(get_game("fantan").default_config().to_json())
    text = (
        f'{{"format": "fanfold.record/1", "game": "fantan.v1", "config": {config}, '
        f'"seed": {seed}, "actions": []}}'
    )
    answer = client.post("/api/records", json={"text": text})
    assert answer.status_code == 200, answer.text
    created = answer.json()
    assert stored_seed(client, created["table"]) == seed
    message = look(client, created["table"], created["token"])
    assert message["options"]["fair"] is False  # a loaded record is never a fair game
    assert message["options"]["chosen_deal"] is True
    headers = {TOKEN: created["token"]}
    assert client.get(f"/api/tables/{created['table']}", headers=headers).status_code == 200
