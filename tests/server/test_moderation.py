"""Moderation through the real application: a moderator granted by the command line sees the
page and the API, a player gets 403; reports kept with their context; closing an account ends
its sessions, refuses its sign-in and gives its opponents back exactly the points they lost to
it, once; the refund locks the ratings rows in rating's order (SQLite and PostgreSQL), and
games ending while accounts are closed lose no update; appeals; every action logged; the
migration from a 0005 store."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient
from playwright.sync_api import Browser, expect
from typer.testing import CliRunner

from fanfold.cli.app import app as cli
from fanfold.server import moderation
from fanfold.server.accounts import APPEAL_PAGE, CSRF_COOKIE, CSRF_HEADER, MODERATOR, PLAYER, WRONG
from fanfold.server.app import create_app
from fanfold.server.i18n import COOKIE, PSEUDO
from fanfold.server.moderation import Moderator, close_account, closed_account_keys, reopen_account
from fanfold.server.ratings import MU, RatedGame
from fanfold.server.static_files import static_url
from fanfold.server.store import (
    Store,
    accounts,
    make_engine,
    moderation_log,
    rating_changes,
    rating_refunds,
    ratings,
)
from fanfold.server.store.engine import MIGRATIONS
from tests.server.support import ROOMY, refused, schema_head, sqlite_url, uvicorn_thread
from tests.server.test_accounts import create, csrf, sign_in
from tests.server.test_browser import browser, shot  # noqa: F401 (a fixture, by name)
from tests.server.test_headers import COMPLAINT, WATCH, _check
from tests.server.test_i18n_browser import UNTRANSLATED
from tests.server.test_ratings import open_rated, second_browser
from tests.server.test_site_browser import serious_violations
from tests.server.test_store import (
    postgres_cluster,  # noqa: F401 (fixture)
    store_url,  # noqa: F401 (fixture)
)

JSON = dict[str, Any]
runner = CliRunner()


def moderate(*words: str) -> Any:
    """``fanfold moderate WORDS...``; the result (its exit code and output)."""
    return runner.invoke(cli, ["moderate", *words])


@dataclass
class Site:
    """The running site: its store's URL, alice and bob (players) and mona (a moderator granted
    on the command line), each in a browser of their own, and a guest's browser."""

    url: str
    alice: TestClient
    bob: TestClient
    mona: TestClient
    guest: TestClient

    @property
    def store(self) -> Store:
        found: Store = self.alice.app.state.hub.store  # type: ignore[attr-defined]
        return found

    def key(self, name: str) -> str:
        with self.store.engine.connect() as connection:
            number = connection.execute(
                sa.select(accounts.c.id).where(accounts.c.name_key == name.lower())
            ).scalar_one()
        return f"a:{number}"


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    url = sqlite_url(tmp_path)
    app = create_app(url, bot_seconds=0.5, limits=ROOMY)
    with TestClient(app) as alice:
        bob, mona, guest = (second_browser(alice) for _ in range(3))
        create(alice, "alice")
        create(bob, "bob")
        create(mona, "mona")
        granted = moderate("grant", "MONA", "--db", url, "--note", "a trusted player")
        assert granted.exit_code == 0, granted.output
        assert "mona is a moderator now" in granted.output
        yield Site(url, alice, bob, mona, guest)


def note(text: str = "seen the games") -> JSON:
    return {"note": text}


def log_of(site: Site) -> list[JSON]:
    answer = site.mona.get("/api/moderation/log")
    assert answer.status_code == 200, answer.text
    entries: list[JSON] = answer.json()["log"]
    return entries


# ------------------------------------------------------------- who may look


def test_a_moderator_sees_the_page_and_the_api_and_a_player_gets_403(site: Site) -> None:
    page = site.mona.get("/moderation")
    assert page.status_code == 200
    assert f'<script type="module" src="{static_url("moderation.js")}">' in page.text
    _check(page, "/moderation")  # the site's policy: nothing inline
    for path in ("reports", "flags", "appeals", "log", "accounts/alice"):
        answer = site.mona.get(f"/api/moderation/{path}")
        assert answer.status_code == 200, (path, answer.text)
    assert site.mona.get("/api/moderation/accounts/ALICE").json()["role"] == PLAYER

    for player in (site.alice, site.bob):
        page = player.get("/moderation")
        assert page.status_code == 403
        assert "Moderators only" in page.text
        _check(page, "403 /moderation")
        refused(player.get("/api/moderation/reports"), 403)
        refused(
            player.post("/api/moderation/accounts/bob/close", json=note(), headers=csrf(player)),
            403,
        )
    assert site.guest.get("/moderation").status_code == 403
    refused(site.guest.get("/api/moderation/log"), 401)
    refused(site.guest.post("/api/moderation/accounts/bob/close", json=note()), 401)
    # a state-changing request of a signed-in browser needs the page's CSRF token
    refused(site.mona.post("/api/moderation/accounts/bob/close", json=note()), 403)

    # a moderator closes neither their own account nor another moderator's (on the site)
    assert moderate("grant", "alice", "--db", site.url).exit_code == 0
    said = refused(
        site.mona.post(
            "/api/moderation/accounts/alice/close", json=note(), headers=csrf(site.mona)
        ),
        403,
    )
    assert "revoke the role first" in said["error"]
    refused(
        site.mona.post("/api/moderation/accounts/mona/close", json=note(), headers=csrf(site.mona)),
        403,
    )
    # a role revoked counts at once
    assert moderate("revoke", "mona", "--db", site.url, "--note", "stepped down").exit_code == 0
    assert site.mona.get("/moderation").status_code == 403
    refused(site.mona.get("/api/moderation/log"), 403)
    with site.store.engine.connect() as connection:
        rows = connection.execute(sa.select(moderation_log).order_by(moderation_log.c.id)).all()
    assert [(row.action, row.account, row.moderator_id) for row in rows] == [
        ("grant", "mona", None),
        ("grant", "alice", None),
        ("revoke", "mona", None),
    ]
    assert rows[0].note == "a trusted player"
    assert rows[0].moderator.startswith("command line (")


# ------------------------------------------------------------------ reports


def test_a_report_is_kept_with_its_context_and_read_by_moderators(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob = site.alice, site.bob
    table, players = open_rated(alice, bob, "morris", ["you", "friend"], rated=True)
    played = alice.post(
        f"/api/tables/{table}/act",
        json={"token": players[0][1], "action": "C1", "version": 0},
        headers=csrf(alice),
    )
    assert played.status_code == 200, played.text
    body = {"table": table, "seat": 0, "reason": "cheating", "note": "too quick, too good"}
    answer = bob.post("/api/reports", json=body, headers=csrf(bob))
    assert answer.status_code == 200, answer.text
    filed = answer.json()
    assert filed["table"] == table
    assert filed["game"].startswith("morris")
    assert (filed["seat"], filed["moves"], filed["rated"]) == (0, 1, True)
    assert filed["reported"]["name"] == "alice"
    assert filed["reporter"]["name"] == "bob"
    assert filed["resolved_at"] is None

    listed = site.mona.get("/api/moderation/reports").json()["reports"]
    assert [(r["id"], r["reason"], r["note"], r["moves"]) for r in listed] == [
        (filed["id"], "cheating", "too quick, too good", 1)
    ]
    assert site.mona.get("/api/moderation/accounts/alice").json()["open_reports"] == 1

    # what is refused
    said = refused(bob.post("/api/reports", json=body, headers=csrf(bob)), 400)
    assert "already" in said["error"]
    refused(bob.post("/api/reports", json={**body, "seat": 1}, headers=csrf(bob)), 400)  # own
    refused(bob.post("/api/reports", json={**body, "seat": 5}, headers=csrf(bob)), 400)
    refused(bob.post("/api/reports", json={**body, "reason": "rude"}, headers=csrf(bob)), 422)
    refused(bob.post("/api/reports", json={**body, "note": "x" * 501}, headers=csrf(bob)), 422)
    refused(bob.post("/api/reports", json={**body, "table": "nothing"}, headers=csrf(bob)), 404)
    refused(site.mona.post("/api/reports", json=body, headers=csrf(site.mona)), 403)  # not there
    refused(site.guest.post("/api/reports", json=body), 401)
    casual = alice.post(
        "/api/tables", json={"game": "morris", "seats": ["you", "random"]}, headers=csrf(alice)
    ).json()["table"]
    said = refused(
        alice.post("/api/reports", json={**body, "table": casual, "seat": 1}, headers=csrf(alice)),
        400,
    )
    assert "signed-in player" in said["error"]  # a bot's seat

    # a moderator settles it (logged); the limit of reports a day
    settled = site.mona.post(
        f"/api/moderation/reports/{filed['id']}/resolve",
        json=note("a strong player, no more"),
        headers=csrf(site.mona),
    )
    assert settled.status_code == 200, settled.text
    assert site.mona.get("/api/moderation/reports").json()["reports"] == []
    everything = site.mona.get("/api/moderation/reports?all=true").json()["reports"]
    assert everything[0]["resolution"] == "a strong player, no more"
    assert everything[0]["resolved_by"] == "mona"
    assert log_of(site)[0]["action"] == "resolve"
    assert log_of(site)[0]["account"] == "alice"
    monkeypatch.setattr(moderation, "REPORTS_A_DAY", 2)
    again = bob.post("/api/reports", json={**body, "reason": "abuse"}, headers=csrf(bob))
    assert again.status_code == 200, again.text  # the first is settled: a new one is taken
    said = refused(
        bob.post("/api/reports", json={**body, "reason": "other"}, headers=csrf(bob)), 429
    )
    assert "2 a day" in said["error"]


# ------------------------------------------------------ closing and refunds


def resign(client: TestClient, table: str, token: str) -> None:
    answer = client.post(
        f"/api/tables/{table}/end",
        json={"token": token, "ending": "resign"},
        headers=csrf(client),
    )
    assert answer.status_code == 200, answer.text


def signing_in(client: TestClient, password: str = "correct horse") -> Any:
    """bob signs in on a browser that keeps its ended session's cookies (and so sends the
    page's CSRF token, as the page does)."""
    return client.post(
        "/api/session", json={"name": "bob", "password": password}, headers=csrf(client)
    )


def rating(site: Site, key: str, family: str = "morris") -> float:
    with site.store.engine.connect() as connection:
        return float(
            connection.execute(
                sa.select(ratings.c.mu).where(ratings.c.player == key, ratings.c.family == family)
            ).scalar_one()
        )


def refund_rows(site: Site) -> list[Any]:
    with site.store.engine.connect() as connection:
        return list(
            connection.execute(
                sa.select(rating_refunds).order_by(
                    rating_refunds.c.rated_table, rating_refunds.c.player
                )
            ).all()
        )


def test_closing_ends_sessions_refuses_sign_in_and_refunds_once(site: Site) -> None:
    alice, bob, mona = site.alice, site.bob, site.mona
    alice_key, bob_key = site.key("alice"), site.key("bob")
    lost: list[str] = []  # alice resigns: bob wins
    for _ in range(2):
        table, players = open_rated(alice, bob, "morris", ["you", "friend"], rated=True)
        resign(alice, table, players[0][1])
        lost.append(table)
    table, players = open_rated(alice, bob, "morris", ["you", "friend"], rated=True)
    resign(bob, table, players[1][1])  # bob resigns: alice won that one
    won = table
    with site.store.engine.connect() as connection:
        changes = {
            row.rated_table: row
            for row in connection.execute(
                sa.select(rating_changes).where(rating_changes.c.player == alice_key)
            )
        }
    assert set(changes) == {*lost, won}
    owed = {t: changes[t].mu_before - changes[t].mu_after for t in lost}
    assert all(points > 0 for points in owed.values())
    before = rating(site, alice_key)
    bob_before = rating(site, bob_key)
    bob_other = second_browser(alice)  # bob signed in on a second device too
    assert sign_in(bob_other, "bob").status_code == 200

    closed = mona.post(
        "/api/moderation/accounts/BOB/close", json=note("engine"), headers=csrf(mona)
    )
    assert closed.status_code == 200, closed.text
    done = closed.json()
    assert (done["account"], done["closed"], done["was_closed"]) == ("bob", True, False)
    assert done["sessions_ended"] == 2
    assert done["refunded"] == pytest.approx(sum(owed.values()), abs=1e-9)
    assert {(r["table"], r["player"]) for r in done["refunds"]} == {(t, "alice") for t in lost}
    assert rating(site, alice_key) == pytest.approx(before + sum(owed.values()), abs=1e-9)
    assert rating(site, bob_key) == bob_before  # the closed account's own rating is left
    rows = refund_rows(site)
    assert [(row.rated_table, row.player) for row in rows] == sorted((t, alice_key) for t in lost)
    assert {row.rated_table: row.points for row in rows} == pytest.approx(owed)
    assert all(row.closed_accounts == bob_key for row in rows)
    with site.store.engine.connect() as connection:
        assert closed_account_keys(connection) == {bob_key}

    # its sessions ended at once, on every device; its sign-in is refused with how to appeal
    for device in (bob, bob_other):
        assert device.get("/api/account").json() == {"signed_in": False}
    said = refused(signing_in(bob), 403)
    assert said["kind"] == "ClosedError"
    assert "closed" in said["error"]
    assert APPEAL_PAGE in said["error"]
    assert refused(signing_in(bob, "wrong password"), 401)["error"] == WRONG

    # closing again, or reopening and closing, gives nothing more
    again = mona.post("/api/moderation/accounts/bob/close", json=note("again"), headers=csrf(mona))
    assert again.status_code == 200, again.text
    assert (again.json()["was_closed"], again.json()["refunded"], again.json()["refunds"]) == (
        True,
        0,
        [],
    )
    reopened = moderate("reopen", "bob", "--db", site.url, "--note", "appeal accepted")
    assert reopened.exit_code == 0, reopened.output
    assert signing_in(bob).status_code == 200  # reopening restores sign-in
    with site.store.engine.connect() as connection:
        assert closed_account_keys(connection) == set()
    assert rating(site, alice_key) == pytest.approx(before + sum(owed.values()), abs=1e-9)
    closed_again = moderate("close", "bob", "--db", site.url, "--note", "caught again")
    assert closed_again.exit_code == 0, closed_again.output
    assert "0.0 point(s) given back" in closed_again.output
    assert rating(site, alice_key) == pytest.approx(before + sum(owed.values()), abs=1e-9)
    assert [(row.rated_table, row.points) for row in refund_rows(site)] == [
        (row.rated_table, row.points) for row in rows
    ]
    assert bob.get("/api/account").json() == {"signed_in": False}

    # every action logged, readable by moderators
    entries = log_of(site)
    assert [(e["action"], e["account"], e["moderator"]) for e in entries[:4]] == [
        ("close", "bob", entries[0]["moderator"]),
        ("reopen", "bob", entries[1]["moderator"]),
        ("close", "bob", "mona"),
        ("close", "bob", "mona"),
    ]
    assert entries[0]["moderator"].startswith("command line")
    assert entries[3]["note"] == "engine"
    assert "2 session(s) ended" in entries[3]["detail"]
    assert entries[2]["detail"].startswith("closed already")
    assert entries[-1]["action"] == "grant"


def test_appeals_are_checked_by_password_kept_and_limited(site: Site) -> None:
    owner = site.guest  # a browser without a session: a closed account signs in nowhere
    body = {"name": "bob", "password": "correct horse", "note": "I play fair"}
    said = refused(owner.post("/api/appeals", json=body), 400)  # bob is not closed
    assert "not closed" in said["error"]
    assert close_account(site.store.engine, "bob", "engine", Moderator.console()).account.closed
    assert (
        refused(owner.post("/api/appeals", json={**body, "password": "nope nope"}), 401)["error"]
        == WRONG
    )
    refused(owner.post("/api/appeals", json={**body, "note": ""}), 422)
    sent = owner.post("/api/appeals", json=body)
    assert sent.status_code == 200, sent.text
    assert sent.json()["account"] == "bob"
    assert "fanfold_session" not in sent.headers.get("set-cookie", "")  # no session made
    assert "fanfold_session" not in owner.cookies
    assert owner.get("/api/account").json() == {"signed_in": False}
    listed = site.mona.get("/api/moderation/appeals").json()["appeals"]
    assert [(a["account"]["name"], a["account"]["closed"], a["note"]) for a in listed] == [
        ("bob", True, "I play fair")
    ]
    assert site.mona.get("/api/moderation/accounts/bob").json()["appeals"] == 1
    for _ in range(moderation.APPEALS_A_DAY - 1):
        assert owner.post("/api/appeals", json=body).status_code == 200
    refused(owner.post("/api/appeals", json=body), 429)
    page = site.guest.get(APPEAL_PAGE)
    assert page.status_code == 200
    _check(page, APPEAL_PAGE)
    assert 'id="appeal-form"' in page.text


# --------------------------------------------- refunds in the store, both backends


def _accounts(store: Store, count: int) -> None:
    with store.engine.begin() as connection:
        connection.execute(
            accounts.insert(),
            [
                {"id": n, "name": f"p{n}", "name_key": f"p{n}", "password_hash": "x", "created": 0}
                for n in range(1, count + 1)
            ],
        )


def _rate(store: Store, game: RatedGame) -> None:
    with store.engine.begin() as connection:
        assert game.apply(connection)


def _mu(store: Store, player: str, family: str) -> float:
    with store.engine.connect() as connection:
        return float(
            connection.execute(
                sa.select(ratings.c.mu).where(
                    ratings.c.player == player, ratings.c.family == family
                )
            ).scalar_one()
        )


def _change(store: Store, table: str, player: str) -> Any:
    with store.engine.connect() as connection:
        return connection.execute(
            sa.select(rating_changes).where(
                rating_changes.c.rated_table == table, rating_changes.c.player == player
            )
        ).one()


def test_a_refund_locks_the_ratings_rows_in_ratings_order_and_shares_a_game_of_three(
    store_url: str,  # noqa: F811 (the imported fixture, by name)
) -> None:
    store = Store(store_url)
    try:
        _accounts(store, 4)
        # a:1 wins a Fan Tan game of three (a:2 second, a:3 last) and a Morris game against
        # a:4; a:2 beats a:3 in Morris (nothing owed: a:1 did not play it)
        _rate(
            store,
            RatedGame(
                "f",
                "fantan",
                "fantan",
                ("a:3", "a:1", "a:2"),
                ((0,), (1,), (2,)),
                (-2.0, 3.0, -1.0),
            ),
        )
        _rate(store, RatedGame("m", "morris", "morris", ("a:4", "a:1"), ((0,), (1,)), (-1.0, 1.0)))
        _rate(store, RatedGame("n", "morris", "morris", ("a:2", "a:3"), ((0,), (1,)), (1.0, -1.0)))
        # a:2, second of three, gained points there: it lost nothing to give back
        assert _change(store, "f", "a:2").mu_after > _change(store, "f", "a:2").mu_before
        owed = {
            # a:3 ranked below two players, one of them closed: half its loss
            ("f", "a:3"): (
                _change(store, "f", "a:3").mu_before - _change(store, "f", "a:3").mu_after
            )
            / 2,
            ("m", "a:4"): _change(store, "m", "a:4").mu_before
            - _change(store, "m", "a:4").mu_after,
        }
        before = {
            (family, player): _mu(store, player, family)
            for family, player in (
                ("fantan", "a:2"),
                ("fantan", "a:3"),
                ("morris", "a:4"),
                ("morris", "a:3"),
            )
        }
        seen: list[str] = []

        def note_statement(*args: Any) -> None:
            seen.append(str(args[2]))

        sa.event.listen(store.engine, "before_cursor_execute", note_statement)
        try:
            closing = close_account(store.engine, "p1", "engine", Moderator.console())
        finally:
            sa.event.remove(store.engine, "before_cursor_execute", note_statement)
        given = {(r.table, r.player): r.points for r in closing.refunds}
        assert given == pytest.approx(owed)
        assert {r.name for r in closing.refunds} == {"p3", "p4"}
        assert _mu(store, "a:2", "fantan") == before[("fantan", "a:2")]
        assert _mu(store, "a:3", "fantan") == pytest.approx(
            before[("fantan", "a:3")] + owed[("f", "a:3")]
        )
        assert _mu(store, "a:4", "morris") == pytest.approx(
            before[("morris", "a:4")] + owed[("m", "a:4")]
        )
        assert _mu(store, "a:3", "morris") == before[("morris", "a:3")]  # lost to a:2 only
        locks = [s for s in seen if "FROM ratings" in s and "ORDER BY ratings.player" in s]
        assert len(locks) == 1, seen
        if store.engine.dialect.name == "postgresql":
            assert "FOR UPDATE" in locks[0]
        # the lock comes before the refunds are read or written
        first_refund = next(n for n, s in enumerate(seen) if "rating_refunds" in s)
        assert seen.index(locks[0]) < first_refund

        # a second closed account at the same table tops a:3 up to its whole loss, once
        reopen_account(store.engine, "p1", "appeal", Moderator.console())
        second = close_account(store.engine, "p2", "boosting", Moderator.console())
        lost_to_p2 = _change(store, "n", "a:3").mu_before - _change(store, "n", "a:3").mu_after
        assert {(r.table, r.player): r.points for r in second.refunds} == pytest.approx(
            {("f", "a:3"): owed[("f", "a:3")], ("n", "a:3"): lost_to_p2}
        )
        assert close_account(store.engine, "p1", "again", Moderator.console()).refunds == []
        assert close_account(store.engine, "p2", "again", Moderator.console()).refunds == []
        with store.engine.connect() as connection:
            rows = {
                (row.rated_table, row.player): row
                for row in connection.execute(sa.select(rating_refunds))
            }
            assert closed_account_keys(connection) == {"a:1", "a:2"}
        assert set(rows) == {("f", "a:3"), ("m", "a:4"), ("n", "a:3")}
        assert rows[("f", "a:3")].points == pytest.approx(2 * owed[("f", "a:3")])
        assert rows[("f", "a:3")].closed_accounts == "a:1 a:2"
    finally:
        store.close()


def test_games_ending_while_accounts_close_lose_no_update(
    store_url: str,  # noqa: F811 (the imported fixture, by name)
) -> None:
    """Two stores on one database: one rates games of a:1 against a:2 and a:3 (locking
    their rows in different orders of seats), the other closes and reopens a:1 over and
    over. No deadlock, and each rating is its first plus every recorded change plus every
    refund: nothing lost."""
    first, second = Store(store_url), Store(store_url)
    _accounts(first, 3)
    errors: list[BaseException] = []
    done = threading.Event()

    def play() -> None:
        try:
            for n in range(12):
                _rate(
                    first,
                    RatedGame(
                        f"x{n}", "morris", "morris", ("a:2", "a:1"), ((0,), (1,)), (-1.0, 1.0)
                    ),
                )
                _rate(
                    first,
                    RatedGame(
                        f"y{n}", "morris", "morris", ("a:1", "a:3"), ((0,), (1,)), (1.0, -1.0)
                    ),
                )
        except BaseException as error:
            errors.append(error)
        finally:
            done.set()

    def police() -> None:
        try:
            while not done.is_set():
                close_account(second.engine, "p1", "engine", Moderator.console())
                reopen_account(second.engine, "p1", "appeal", Moderator.console())
            close_account(second.engine, "p1", "engine", Moderator.console())
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=play), threading.Thread(target=police)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors
    with first.engine.connect() as connection:
        for player in ("a:2", "a:3"):
            moved = connection.execute(
                sa.select(
                    sa.func.sum(rating_changes.c.mu_after - rating_changes.c.mu_before)
                ).where(rating_changes.c.player == player)
            ).scalar_one()
            given = connection.execute(
                sa.select(sa.func.coalesce(sa.func.sum(rating_refunds.c.points), 0.0)).where(
                    rating_refunds.c.player == player
                )
            ).scalar_one()
            # the last close came after every game: every game's loss is given back
            assert given == pytest.approx(-moved, abs=1e-6)
            assert _mu(first, player, "morris") == pytest.approx(MU + moved + given, abs=1e-6)
            assert _mu(first, player, "morris") == pytest.approx(MU, abs=1e-6)
    first.close()
    second.close()


# ------------------------------------------------------------------ migration


def test_a_store_of_revision_0005_is_upgraded(
    store_url: str,  # noqa: F811 (the imported fixture, by name)
) -> None:
    engine = make_engine(store_url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0005")
        connection.execute(
            sa.text(
                "INSERT INTO accounts (name, name_key, password_hash, created) "
                "VALUES ('Old', 'old', 'x', 1.0)"
            )
        )
        connection.execute(
            sa.text(
                "INSERT INTO fairplay_flags (table_id, kind, first_account, second_account, at) "
                "VALUES ('t', 'same-device', 1, 1, 2.0)"
            )
        )
    engine.dispose()
    store = Store(store_url)
    try:
        with store.engine.connect() as connection:
            version = connection.execute(sa.text("SELECT version_num FROM alembic_version")).all()
            names = set(sa.inspect(connection).get_table_names())
            old = connection.execute(
                sa.select(accounts.c.role, accounts.c.closed).where(accounts.c.name_key == "old")
            ).one()
            assert closed_account_keys(connection) == set()
            assert moderation.list_flags(connection)[0]["first"]["name"] == "Old"
        assert [row[0] for row in version] == [schema_head()]
        assert {"reports", "appeals", "rating_refunds", "moderation_log"} <= names
        assert (old.role, old.closed) == (PLAYER, False)
        state = moderation.set_role(store.engine, "old", MODERATOR, Moderator.console())
        assert state.role == MODERATOR
        closed = close_account(store.engine, "OLD", "test", Moderator(None, "tester"))
        assert closed.account.closed
        assert closed.refunds == []
    finally:
        store.close()


def test_the_log_times_are_the_actions(site: Site) -> None:
    start = time.time()
    assert moderate("grant", "bob", "--db", site.url).exit_code == 0
    entry = log_of(site)[0]
    assert start - 1 <= entry["at"] <= time.time() + 1
    assert (entry["action"], entry["account"], entry["account_id"]) == (
        "grant",
        "bob",
        int(site.key("bob")[2:]),
    )


# ------------------------------------------------------------------ in the browser


def test_the_page_in_a_browser_closes_an_account_and_takes_an_appeal(
    browser: Browser,  # noqa: F811 (the imported fixture, by name)
    tmp_path: Path,
) -> None:
    """Chromium: mona, a moderator, reads bob's report on /moderation, chooses alice from it,
    closes her account with a note (the page tells what it did and the log shows it); alice,
    signed out by it, appeals on /appeal; mona sees the appeal. Nothing the site's policy
    refuses, no error in the page, and axe-core finds nothing serious."""
    url = sqlite_url(tmp_path)
    with uvicorn_thread(create_app(url, bot_seconds=0.2, limits=ROOMY)) as port:
        server = f"http://127.0.0.1:{port}"
        people: dict[str, httpx.Client] = {}
        for name in ("alice", "bob", "mona"):
            client = httpx.Client(base_url=server, timeout=30)
            made = client.post("/api/accounts", json={"name": name, "password": "correct horse"})
            assert made.status_code == 200, made.text
            people[name] = client
        assert moderate("grant", "mona", "--db", url).exit_code == 0
        alice, bob = people["alice"], people["bob"]

        def header(client: httpx.Client) -> dict[str, str]:
            return {CSRF_HEADER: str(client.cookies[CSRF_COOKIE])}

        opened = alice.post(
            "/api/tables",
            json={"game": "morris", "seats": ["you", "friend"], "rated": True},
            headers=header(alice),
        ).json()
        claimed = bob.post(
            f"/api/tables/{opened['table']}/claim",
            json={"invite": opened["invites"]["1"]},
            headers=header(bob),
        )
        assert claimed.status_code == 200, claimed.text
        reported = bob.post(
            "/api/reports",
            json={"table": opened["table"], "seat": 0, "reason": "abuse", "note": "rude"},
            headers=header(bob),
        )
        assert reported.status_code == 200, reported.text

        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        heard: list[str] = []
        page.add_init_script(WATCH)
        page.on("console", lambda message: heard.append(message.text))
        page.on("pageerror", lambda error: heard.append(str(error)))
        context.add_cookies(
            [
                {"name": cookie.name, "value": str(cookie.value), "url": server}
                for cookie in people["mona"].cookies.jar
            ]
        )
        page.goto(f"{server}/moderation")
        row = page.locator("#reports tbody tr")
        expect(row).to_have_count(1)
        expect(row).to_contain_text("rude")
        expect(row).to_contain_text("bob")
        expect(page.locator("#flags")).to_be_hidden()
        expect(page.locator("#no-flags")).to_be_visible()
        assert serious_violations(page) == []
        row.get_by_role("button", name="Choose alice").click()
        expect(page.locator("#account-name")).to_have_value("alice")
        expect(page.locator("#account-summary")).to_contain_text("open reports: 1")
        page.locator("#note").fill("abuse at the table")
        page.get_by_role("button", name=re.compile("Close the account")).click()
        expect(page.locator("#done")).to_contain_text("alice is closed")
        expect(page.locator("#no-reports")).to_be_visible()  # settled by the closing
        expect(page.locator("#log tbody tr").first).to_contain_text("abuse at the table")
        shot(page, "moderation")
        assert alice.get("/api/account").json() == {"signed_in": False}

        appeal = context.new_page()
        appeal.on("pageerror", lambda error: heard.append(str(error)))
        appeal.goto(f"{server}/appeal")
        expect(appeal.locator("#moderation")).to_be_hidden()
        form = appeal.locator("#appeal-form")
        form.get_by_label("Name").fill("alice")
        form.get_by_label("Password").fill("correct horse")
        form.get_by_label("Your appeal").fill("I was only joking")
        form.get_by_role("button").click()
        expect(appeal.locator("#done")).to_have_text(
            "Your appeal is sent; the moderators will read it."
        )
        assert serious_violations(appeal) == []
        page.reload()
        expect(page.locator("#appeals tbody tr")).to_contain_text("I was only joking")
        # the same page in the pseudo-language: every word of it is in the catalogues (the
        # names, notes and the log's record are data), and the longer words still fit
        context.add_cookies([{"name": COOKIE, "value": PSEUDO, "url": server}])
        page.reload()
        expect(page.locator("#appeals tbody tr")).to_contain_text("I was only joking")
        expect(page.locator("#log tbody tr").first).to_be_attached()
        seen = page.evaluate(UNTRANSLATED, "")
        assert seen["found"] == [], seen["found"]
        assert seen["pseudo"] >= 20
        assert serious_violations(page) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= 1280
        shot(page, "moderation-pseudo")
        context.close()
        for client in people.values():
            client.close()
    assert not [line for line in heard if COMPLAINT.search(line)], heard
    assert not [line for line in heard if "Error" in line], heard
