"""Ratings: the model checked against values worked out by hand, teams and draws, exactly once
(a second try, a failed end, a SIGKILL inside the end's transaction), two processes rating the
same players at once, and rated tables played to the end over HTTP."""

from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from fanfold.core.config import JSONObject
from fanfold.core.registry import get_game, set_up
from fanfold.server.app import create_app
from fanfold.server.ratings import MODEL, MU, SIGMA, RatedGame, family, first_rating, ranks, teams
from fanfold.server.store import (
    AppendRow,
    Store,
    actions,
    rated_games,
    rating_changes,
    ratings,
    tables,
)
from tests.server.support import ROOMY, look, refused, sqlite_url
from tests.server.test_accounts import create, csrf
from tests.server.test_store import (
    create_table,
    postgres_cluster,  # noqa: F401 (fixture)
    store_url,  # noqa: F401 (fixture)
)

pytestmark = pytest.mark.usefixtures("listed_at_once", "no_repeat_discount")

JSON = dict[str, Any]
BETA, TAU = SIGMA / 2, MU / 300


@pytest.fixture
def db_url(store_url: str) -> str:  # noqa: F811 (the imported fixture, by name)
    """An empty database, SQLite or PostgreSQL (the store tests' ``store_url``)."""
    return store_url


@pytest.fixture
def db(db_url: str) -> Iterator[Store]:
    opened = Store(db_url)
    yield opened
    opened.close()


def rating_of(db: Store, player: str, family_name: str = "morris") -> tuple[float, float, int]:
    with db.engine.connect() as connection:
        row = connection.execute(
            sa.select(ratings.c.mu, ratings.c.sigma, ratings.c.games).where(
                ratings.c.player == player, ratings.c.family == family_name
            )
        ).one()
    return float(row.mu), float(row.sigma), int(row.games)


def rate(db: Store, game: RatedGame) -> bool:
    with db.engine.begin() as connection:
        return game.apply(connection)


def two_players(table_id: str, returns: tuple[float, float], players: tuple[str, str]) -> RatedGame:
    return RatedGame(table_id, "morris", "morris", players, ((0,), (1,)), returns)


# ------------------------------------------------------------- the model


def test_a_first_game_between_two_new_players_by_hand(db: Store) -> None:
    """Plackett-Luce for two players of equal rating, worked out from Weng and Lin's
    formulas: each variance grows by tau squared first; c squared is the sum of the
    players' variances and beta squared; each wins with probability 1/2, so the winner gains
    sigma^2 / c * 1/2 and the loser loses as much, and each variance shrinks by the factor
    1 - (sigma / c) * (sigma^2 / c^2) * 1/4."""
    assert rate(db, two_players("g1", (1.0, -1.0), ("a:1", "a:2")))
    variance = SIGMA**2 + TAU**2
    c = math.sqrt(2 * (variance + BETA**2))
    step = variance / c * 0.5
    shrink = 1 - (math.sqrt(variance) / c) * (variance / c**2) * 0.25
    sigma_after = math.sqrt(variance * shrink)
    winner, loser = rating_of(db, "a:1"), rating_of(db, "a:2")
    assert winner[0] == pytest.approx(MU + step, abs=1e-6)  # about 1658.1
    assert loser[0] == pytest.approx(MU - step, abs=1e-6)
    assert winner[1] == loser[1] == pytest.approx(sigma_after, abs=1e-6)  # about 484.0
    assert winner[2] == loser[2] == 1
    assert round(winner[0]) == 1658
    assert round(sigma_after) == 484


def test_an_upset_moves_more_than_an_expected_win(db: Store) -> None:
    for n in range(3):  # a:1 beats a:2 three times
        rate(db, two_players(f"g{n}", (1.0, -1.0), ("a:1", "a:2")))
    strong, weak = rating_of(db, "a:1"), rating_of(db, "a:2")
    rate(db, two_players("expected", (1.0, -1.0), ("a:1", "a:3")))  # a:3 new, at 1500
    rate(db, two_players("upset", (-1.0, 1.0), ("a:1", "a:2")))
    assert rating_of(db, "a:2")[0] - weak[0] > rating_of(db, "a:3")[0] - MU + 150
    assert rating_of(db, "a:1")[0] < strong[0]


def test_a_draw_between_equals_moves_no_mean(db: Store) -> None:
    rate(db, two_players("d", (0.0, 0.0), ("a:1", "a:2")))
    for player in ("a:1", "a:2"):
        mu, sigma, games = rating_of(db, player)
        assert mu == pytest.approx(MU)
        assert sigma < SIGMA
        assert games == 1


def test_partners_move_together_in_a_trionfey_partnership_game(db: Store) -> None:
    game, config = set_up("fano", "trionfey", {}, 4)
    assert family(game, config) == "fano-trionfey"
    grouped = teams(game, config, 4)
    assert sorted(grouped) == [(0, 2), (1, 3)]
    # Seat 2 promoted for its partnership: the partners of seat 0 win together.
    rated = RatedGame(
        "t",
        "fano",
        "fano-trionfey",
        ("a:1", "a:2", "a:3", "a:4"),
        tuple(grouped),
        (-1.0, -1.0, 1.0, -1.0),
    )
    assert rate(db, rated)
    after = {p: rating_of(db, p, "fano-trionfey") for p in ("a:1", "a:2", "a:3", "a:4")}
    assert after["a:1"][0] == pytest.approx(after["a:3"][0])
    assert after["a:2"][0] == pytest.approx(after["a:4"][0])
    assert after["a:1"][0] > MU > after["a:2"][0]
    # Two against two of equal ratings: as the one-against-one case, with the teams' sums.
    variance = SIGMA**2 + TAU**2
    c = math.sqrt(2 * (2 * variance + BETA**2))
    assert after["a:1"][0] - MU == pytest.approx(variance / c * 0.5, abs=1e-6)
    changed = rating_changes_of(db, "t")
    assert {row["player"]: row["team"] for row in changed} == {
        "a:1": 0,
        "a:3": 0,
        "a:2": 1,
        "a:4": 1,
    }


def rating_changes_of(db: Store, table_id: str) -> list[JSON]:
    with db.engine.connect() as connection:
        return [
            dict(row._mapping)
            for row in connection.execute(
                sa.select(rating_changes).where(rating_changes.c.rated_table == table_id)
            )
        ]


def test_ranks_come_from_the_returns_and_ties_share_one() -> None:
    assert ranks((5.0, -2.0, -3.0), [(0,), (1,), (2,)]) == [1, 2, 3]
    assert ranks((1.0, -1.0, -1.0), [(0,), (1,), (2,)]) == [1, 2, 2]
    assert ranks((-1.0, 1.0, -1.0, -1.0), [(0, 2), (1, 3)]) == [2, 1]
    game = get_game("fantan")
    assert teams(game, game.config_from_json({"players": 3}), 3) == [(0,), (1,), (2,)]


def test_three_players_order_their_ratings_by_place(db: Store) -> None:
    rated = RatedGame(
        "f", "fantan", "fantan", ("a:1", "a:2", "a:3"), ((0,), (1,), (2,)), (3.0, -1.0, -2.0)
    )
    rate(db, rated)
    first, second, third = (rating_of(db, f"a:{n}", "fantan")[0] for n in (1, 2, 3))
    assert first > MU > third
    assert first > second > third
    expected = MODEL.rate([[MODEL.rating()] for _ in range(3)], ranks=[1.0, 2.0, 3.0])
    assert [first, second, third] == pytest.approx([team[0].mu for team in expected])


def test_a_bot_level_at_several_seats_is_not_moved_by_that_game(db: Store) -> None:
    rated = RatedGame(
        "b",
        "fantan",
        "fantan",
        ("a:1", "bot:fantan:easy", "bot:fantan:easy"),
        ((0,), (1,), (2,)),
        (3.0, -1.0, -2.0),
    )
    rate(db, rated)
    assert rating_of(db, "a:1", "fantan")[0] > MU
    # where it started: its measured rating (bot_anchors)
    assert rating_of(db, "bot:fantan:easy", "fantan") == (
        *first_rating("fantan", "bot:fantan:easy"),
        0,
    )


# ---------------------------------------------------------- exactly once


def test_a_game_is_rated_once(db: Store) -> None:
    game = two_players("once", (1.0, -1.0), ("a:1", "a:2"))
    assert rate(db, game)
    before = rating_of(db, "a:1")
    assert not rate(db, game)
    assert rating_of(db, "a:1") == before
    with db.engine.connect() as connection:
        assert connection.execute(sa.select(sa.func.count()).select_from(rated_games)).scalar() == 1


def _end_row(on_end: Any) -> AppendRow:
    outcome: JSONObject = {
        "reason": "won",
        "termination": "line",
        "returns": [1, -1],
        "winners": [0],
    }
    return AppendRow("t1", 1, 0, "C1", 1, outcome, on_end=on_end)


def test_an_end_whose_rating_fails_stores_nothing(db: Store) -> None:
    create_table(db)

    def broken(connection: sa.Connection) -> None:
        two_players("t1", (1.0, -1.0), ("a:1", "a:2")).apply(connection)
        raise RuntimeError("the disk is full")

    with pytest.raises(RuntimeError):
        db.append_many([_end_row(broken)])
    loaded = db.load("t1")
    assert loaded is not None
    assert loaded.actions == ()
    assert loaded.outcome is None
    with db.engine.connect() as connection:
        assert connection.execute(sa.select(sa.func.count()).select_from(ratings)).scalar() == 0
    game = two_players("t1", (1.0, -1.0), ("a:1", "a:2"))
    assert db.append_many([_end_row(game.apply)]) == set()
    assert rating_of(db, "a:1")[2] == 1


KILLED_CHILD = """
import sys, time
from pathlib import Path
from fanfold.server.ratings import RatedGame
from fanfold.server.store import AppendRow, Store

db = Store(sys.argv[1])
game = RatedGame("t1", "morris", "morris", ("a:1", "a:2"), ((0,), (1,)), (1.0, -1.0))

def end(connection):
    game.apply(connection)  # written, not committed
    Path(sys.argv[2]).write_text("inside")
    time.sleep(60)

outcome = {"reason": "won", "termination": "line", "returns": [1, -1], "winners": [0]}
db.append_many([AppendRow("t1", 1, 0, "C1", 1, outcome, on_end=end)])
"""


def test_a_sigkill_inside_the_end_rates_the_game_exactly_once_after(
    db_url: str, tmp_path: Path
) -> None:
    db = Store(db_url)
    create_table(db)
    flag = tmp_path / "inside"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    child = subprocess.Popen([sys.executable, "-c", KILLED_CHILD, db_url, str(flag)], env=env)
    deadline = time.monotonic() + 60
    while not flag.exists():
        assert child.poll() is None, "the child ended before the end's transaction"
        assert time.monotonic() < deadline
        time.sleep(0.05)
    os.kill(child.pid, signal.SIGKILL)
    child.wait(timeout=30)
    # After the kill: neither the end nor a rating.
    db.close()
    db = Store(db_url)  # the server starts again
    loaded = db.load("t1")
    assert loaded is not None
    assert loaded.outcome is None
    assert loaded.actions == ()
    with db.engine.connect() as connection:
        assert connection.execute(sa.select(sa.func.count()).select_from(rated_games)).scalar() == 0
    # The player's move is played again: the game ends and is rated, once.
    game = two_players("t1", (1.0, -1.0), ("a:1", "a:2"))
    assert db.append_many([_end_row(game.apply)]) == set()
    assert db.append_many([_end_row(game.apply)]) == {"t1"}  # stored already: refused
    assert rating_of(db, "a:1")[2] == 1
    assert rating_of(db, "a:2")[2] == 1
    with db.engine.connect() as connection:
        assert connection.execute(sa.select(sa.func.count()).select_from(actions)).scalar() == 1
        outcome = connection.execute(sa.select(tables.c.outcome)).scalar()
    assert outcome is not None
    db.close()


def test_two_processes_rating_the_same_players_at_once_lose_nothing(db_url: str) -> None:
    """Games of the same players ended at once by two processes (two stores on one
    database), each locking its players in a different order of seats: no deadlock, and every
    game counted."""
    first, second = Store(db_url), Store(db_url)
    errors: list[BaseException] = []

    def play(store_: Store, prefix: str, seats: tuple[str, str]) -> None:
        try:
            for n in range(15):
                rate(store_, two_players(f"{prefix}{n}", (1.0, -1.0), seats))
        except BaseException as error:
            errors.append(error)

    threads = [
        threading.Thread(target=play, args=(first, "x", ("a:1", "a:2"))),
        threading.Thread(target=play, args=(second, "y", ("a:2", "a:1"))),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors
    assert rating_of(first, "a:1")[2] == rating_of(first, "a:2")[2] == 30
    with first.engine.connect() as connection:
        assert (
            connection.execute(sa.select(sa.func.count()).select_from(rated_games)).scalar() == 30
        )
    first.close()
    second.close()


# ----------------------------------------------------- rated tables over HTTP


def second_browser(client: TestClient) -> TestClient:
    """Another browser (its own cookies) on the running server of ``client``: its requests
    run on the server's event loop, where the tables' bots play."""
    other = TestClient(client.app)
    other.portal = client.portal
    return other


@pytest.fixture
def browsers(tmp_path: Path) -> Iterator[tuple[TestClient, TestClient]]:
    app = create_app(sqlite_url(tmp_path), bot_seconds=0.5, limits=ROOMY)
    with TestClient(app) as alice:
        bob = second_browser(alice)
        create(alice, "alice")
        create(bob, "bob")
        yield alice, bob


def people(board: list[JSON]) -> list[JSON]:
    """A leaderboard's people (its bot levels are there from the start)."""
    return [line for line in board if not line["bot"]]


def play_out(players: dict[int, tuple[TestClient, str]], table: str) -> JSON:
    """Each person plays the first legal action when they decide, until the game ends. The
    table is looked at as the person last seen deciding (or, at first, the first person):
    one look an action while they go on deciding, two when the turn has moved to another."""
    seat = next(iter(players))
    # A guard against a game that never ends, not a timing: four seats of Trionfey take about
    # 30 s on a quiet machine and several times that beside other work.
    deadline = time.monotonic() + 600
    while True:
        client, token = players[seat]
        message = look(client, table, token, seat)
        if message["outcome"] is not None:
            return message
        assert time.monotonic() < deadline, "the game did not end"
        decider = message["decider"]
        if decider == seat and message["legal"]:
            answer = client.post(
                f"/api/tables/{table}/act",
                json={
                    "token": token,
                    "action": message["legal"][0],
                    "version": message["version"],
                    "seat": seat,
                },
                headers=csrf(client),
            )
            assert answer.status_code in (200, 409), answer.text
            continue
        if decider in players and decider != seat:
            seat = decider  # that person's own look, at once
            continue
        time.sleep(0.02)


def open_rated(
    alice: TestClient, bob: TestClient | list[TestClient], game: str, seats: list[str], **more: Any
) -> tuple[str, dict[int, tuple[TestClient, str]]]:
    """``alice`` opens the table; the friends' seats are claimed by ``bob`` (or by each
    browser of a list, in order)."""
    answer = alice.post(
        "/api/tables", json={"game": game, "seats": seats, **more}, headers=csrf(alice)
    )
    assert answer.status_code == 200, answer.text
    created = answer.json()
    table = created["table"]
    players = {seats.index("you"): (alice, created["token"])}
    friends = bob if isinstance(bob, list) else [bob]
    for (seat, invite), friend in zip(created["invites"].items(), friends, strict=True):
        claimed = friend.post(
            f"/api/tables/{table}/claim", json={"invite": invite}, headers=csrf(friend)
        )
        assert claimed.status_code == 200, claimed.text
        players[int(seat)] = (friend, claimed.json()["token"])
    return table, players


def test_a_rated_fantan_game_moves_its_players_and_its_bot(
    browsers: tuple[TestClient, TestClient],
) -> None:
    alice, bob = browsers
    table, players = open_rated(
        alice, bob, "fantan", ["you", "friend", "easy"], rated=True, players=3
    )
    state = look(alice, table, players[0][1])
    assert state["options"]["rated"] is True
    assert state["options"]["fair"] is True
    end = play_out(players, table)
    board = alice.get("/api/leaderboard/fantan").json()
    by_name = {line["name"]: line for line in board}
    # the levels that did not play are there from the start, at their measured ratings
    assert sorted(by_name) == ["Easy bot", "Hard bot", "Medium bot", "alice", "bob"]
    played = [by_name[name] for name in ("alice", "bob", "Easy bot")]
    assert all(line["games"] == 1 and line["provisional"] for line in played)
    assert not any(line["anchored"] for line in played)
    assert by_name["Hard bot"]["games"] == 0
    assert by_name["Hard bot"]["anchored"] is True
    returns = end["outcome"]["returns"]
    best = returns.index(max(returns))
    worst = returns.index(min(returns))
    names = ["alice", "bob", "Easy bot"]
    # each from where it started: people at 1500, the bot at its measured rating
    started = {"alice": MU, "bob": MU, "Easy bot": first_rating("fantan", "bot:fantan:easy")[0]}
    assert by_name[names[best]]["rating"] > round(started[names[best]])
    assert by_name[names[worst]]["rating"] < round(started[names[worst]])
    profile = alice.get("/api/players/ALICE").json()
    assert profile["name"] == "alice"
    assert profile["history"][0]["table"] == table
    assert profile["against_bots"][0]["bot"] == "Easy bot"
    page = alice.get("/players/alice")
    assert page.status_code == 200
    assert "<svg" in page.text
    assert f"/table/{table}?replay=1" in page.text
    board_page = alice.get("/leaderboard/fantan").text
    assert "Easy bot" in board_page
    for link in ('href="/daily"', 'href="/account"'):  # the site's links, as on the lobby
        assert link in board_page
        assert link in page.text
    # what the table did to ratings, as its end panel shows it
    moved = alice.get(f"/api/tables/{table}/ratings").json()
    assert (moved["table"], moved["family"], moved["rated"]) == (table, "fantan", True)
    assert [change["name"] for change in moved["changes"]] == names  # by seat
    for change in moved["changes"]:
        assert change["before"] == round(started[change["name"]])
        assert change["after"] == by_name[change["name"]]["rating"]
        assert change["uncertainty"] == by_name[change["name"]]["uncertainty"]
    assert moved["changes"][2]["page"] == "/bots/fantan/easy"
    assert moved["changes"][0]["page"] == "/players/alice"
    # who sits where, as the table page names them
    assert alice.get(f"/api/tables/{table}/players").json() == {
        "table": table,
        "seats": [
            {"seat": 0, "name": "alice", "page": "/players/alice"},
            {"seat": 1, "name": "bob", "page": "/players/bob"},
        ],
    }


def test_a_rated_fano_game_moves_its_players_as_worked_out_by_hand(
    browsers: tuple[TestClient, TestClient],
) -> None:
    alice, bob = browsers
    table, players = open_rated(alice, bob, "fano", ["you", "friend"], rated=True)
    end = play_out(players, table)
    board = {line["name"]: line for line in alice.get("/api/leaderboard/fano-classic").json()}
    winner = ["alice", "bob"][end["outcome"]["winners"][0]]
    loser = "bob" if winner == "alice" else "alice"
    # test_a_first_game_between_two_new_players_by_hand: 1500 + 158.1 and 1500 - 158.1.
    assert board[winner]["rating"] == 1658
    assert board[loser]["rating"] == 1342
    assert board[winner]["uncertainty"] == board[loser]["uncertainty"] == 968
    assert people(alice.get("/api/leaderboard/fano-trionfey").json()) == []


def test_a_rated_trionfey_partnership_game_moves_partners_together(
    browsers: tuple[TestClient, TestClient],
) -> None:
    alice, bob = browsers
    carol, dave = second_browser(alice), second_browser(alice)
    create(carol, "carol")
    create(dave, "dave")
    table, players = open_rated(
        alice,
        [bob, carol, dave],
        "fano",
        ["you", "friend", "friend", "friend"],
        rated=True,
        variant="trionfey",
        players=4,
    )
    end = play_out(players, table)
    board = {line["name"]: line for line in alice.get("/api/leaderboard/fano-trionfey").json()}
    assert set(board) == {"alice", "bob", "carol", "dave", "Easy bot", "Medium bot", "Hard bot"}
    names = ["alice", "bob", "carol", "dave"]  # seats 0 and 2 against seats 1 and 3
    assert board["alice"]["rating"] == board["carol"]["rating"]
    assert board["bob"]["rating"] == board["dave"]["rating"]
    returns = end["outcome"]["returns"]
    if max(returns[0], returns[2]) > max(returns[1], returns[3]):
        assert board["alice"]["rating"] > 1500 > board["bob"]["rating"]
    elif max(returns[0], returns[2]) < max(returns[1], returns[3]):
        assert board["alice"]["rating"] < 1500 < board["bob"]["rating"]
    else:
        assert all(board[name]["rating"] == 1500 for name in names)


def test_a_casual_table_moves_nothing(browsers: tuple[TestClient, TestClient]) -> None:
    alice, bob = browsers
    table, players = open_rated(alice, bob, "fantan", ["you", "friend", "easy"], players=3)
    assert "rated" not in look(alice, table, players[0][1])["options"]
    play_out(players, table)
    board = alice.get("/api/leaderboard/fantan").json()
    assert people(board) == []
    assert all(line["games"] == 0 and line["anchored"] for line in board)
    moved = alice.get(f"/api/tables/{table}/ratings").json()
    assert (moved["rated"], moved["family"], moved["changes"]) == (False, None, [])
    unknown = alice.get("/api/tables/no-such-table/ratings")
    assert "there is no table 'no-such-table'" in refused(unknown, 404)["error"]
    unknown = alice.get("/api/tables/no-such-table/players")
    assert "there is no table 'no-such-table'" in refused(unknown, 404)["error"]
    guest = second_browser(alice)
    made = guest.post("/api/tables", json={"game": "morris", "seats": ["you", "random"]}).json()
    assert guest.get(f"/api/tables/{made['table']}/players").json()["seats"] == []


def test_tables_that_cannot_be_rated_are_refused(
    browsers: tuple[TestClient, TestClient],
) -> None:
    alice, bob = browsers
    body: JSON = {"game": "morris", "seats": ["you", "friend"], "rated": True}
    cases: list[tuple[JSON, str]] = [
        ({"seed": "7"}, "drawn by the server"),
        ({"seats": ["you", "hotseat"]}, "no hot-seat"),
        ({"seats": ["you", "random"]}, "a level"),
        ({"game": "fan", "seats": ["you"]}, "not rated"),
        (
            {"game": "fantan", "players": 3, "seats": ["you", "friend", "easy"], "practice": True},
            "practice",
        ),
    ]
    for change, said in cases:
        answer = alice.post("/api/tables", json={**body, **change}, headers=csrf(alice))
        assert said in refused(answer, 400)["error"], change
    guest = second_browser(alice)
    assert refused(guest.post("/api/tables", json=body), 401)["error"] == (
        "sign in to open a rated table"
    )
    made = alice.post("/api/tables", json=body, headers=csrf(alice)).json()
    invite = made["invites"]["1"]
    taken = guest.post(f"/api/tables/{made['table']}/claim", json={"invite": invite})
    assert "signed-in players" in refused(taken, 401)["error"]
    again = alice.post(
        f"/api/tables/{made['table']}/claim", json={"invite": invite}, headers=csrf(alice)
    )
    assert "one seat each" in refused(again, 401)["error"]
    claimed = bob.post(
        f"/api/tables/{made['table']}/claim", json={"invite": invite}, headers=csrf(bob)
    )
    assert claimed.status_code == 200, claimed.text  # the invitation was not spent


def test_a_rated_tables_rematch_is_rated_with_the_same_accounts(
    browsers: tuple[TestClient, TestClient],
) -> None:
    alice, bob = browsers
    table, players = open_rated(
        alice, bob, "fantan", ["you", "friend", "easy"], rated=True, players=3
    )
    play_out(players, table)
    answer = alice.post(
        f"/api/tables/{table}/rematch", json={"token": players[0][1]}, headers=csrf(alice)
    )
    assert answer.status_code == 200, answer.text
    rematch = answer.json()["table"]
    again = {(seat + 1) % 3: held for seat, held in players.items()}  # one seat on, same links
    options = look(alice, rematch, again[1][1])["options"]
    assert options["rated"] is True
    assert options["fair"] is True
    assert options["levels"] == {"0": "easy"}  # the bot moved from seat 3 to seat 1
    play_out(again, rematch)
    board = {line["name"]: line for line in alice.get("/api/leaderboard/fantan").json()}
    assert board["alice"]["games"] == board["bob"]["games"] == board["Easy bot"]["games"] == 2


def test_a_casual_tables_rematch_stays_casual(browsers: tuple[TestClient, TestClient]) -> None:
    alice, bob = browsers
    table, players = open_rated(alice, bob, "fantan", ["you", "friend", "easy"], players=3)
    play_out(players, table)
    answer = alice.post(
        f"/api/tables/{table}/rematch", json={"token": players[0][1]}, headers=csrf(alice)
    )
    rematch = answer.json()["table"]
    options = look(alice, rematch, players[0][1])["options"]
    assert "rated" not in options
    play_out({(seat + 1) % 3: held for seat, held in players.items()}, rematch)
    assert people(alice.get("/api/leaderboard/fantan").json()) == []
