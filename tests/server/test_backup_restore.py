"""Backups as docs/backup.md tells an operator to take them, restored and played on: a site on
PostgreSQL dumped with ``pg_dump --format=custom`` while ``fanfold serve`` runs, restored with
``pg_restore`` into a new cluster; a site on SQLite copied with SQLite's online backup while it
runs. On the copy every table goes on at the same action with the same state for each seat,
accounts sign in and ratings are those of the original. The dump's and the restore's times are
printed (``-s`` shows them)."""

from __future__ import annotations

import itertools
import sqlite3
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from fanfold.server.accounts import CSRF_COOKIE, CSRF_HEADER
from tests.server.support import JSON, PG_BIN, TOKEN, start_cluster
from tests.server.test_restart import server
from tests.server.test_store import (
    _postgres_url,
    postgres_cluster,  # noqa: F401 (fixture)
)

PASSWORD = "correct horse"
#: What a seat's message must keep across a backup and its restore.
KEPT = ("options", "version", "log", "view", "decider", "legal", "outcome", "yours", "seats")
#: A sanity bound on a dump or a restore of a few tables, not a measurement: a busy machine.
SANE_SECONDS = 120.0


# ------------------------------------------------------------------ the site


#: The server trusts the test as its proxy: each browser comes from an address of its own, so
#: that the limits per address (600 requests a minute) are each browser's.
PROXY = ("--trusted-proxy", "127.0.0.1")
_addresses = itertools.count(1)


def browser(address: str) -> httpx.Client:
    """A browser of its own (its address, its cookies) on the server at ``address``."""
    forwarded = {"X-Forwarded-For": f"10.0.0.{next(_addresses)}"}
    return httpx.Client(base_url=address, timeout=30, headers=forwarded)


def header(client: httpx.Client) -> dict[str, str]:
    """The CSRF header a signed-in page sends with every state-changing request."""
    return {CSRF_HEADER: str(client.cookies[CSRF_COOKIE])}


def person(address: str, name: str) -> httpx.Client:
    """A browser of its own with a new account ``name``, signed in."""
    client = browser(address)
    made = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert made.status_code == 200, made.text
    return client


def at(client: httpx.Client, address: str) -> httpx.Client:
    """This browser (its cookies) on the server at ``address``."""
    return httpx.Client(
        base_url=address, timeout=30, cookies=client.cookies, headers=client.headers
    )


def message(client: httpx.Client, table: str, token: str | None, seat: int | None = None) -> JSON:
    answer = client.get(
        f"/api/tables/{table}",
        params={} if seat is None else {"seat": seat},
        headers={} if token is None else {TOKEN: token},
    )
    assert answer.status_code == 200, answer.text
    seen: JSON = answer.json()
    return seen


def settled(client: httpx.Client, table: str, token: str) -> JSON:
    """The table once a person decides (or the game is over): the bots have stopped. Asked
    again at growing intervals (0.05 s to 1 s), so that slow bots on a loaded machine keep the
    browser well under the site's 600 requests a minute."""
    deadline = time.monotonic() + 60
    pause = 0.05
    while True:
        seen = message(client, table, token)
        if seen["outcome"] is not None or (
            seen["decider"] is not None and not seen["seats"][seen["decider"]]["bot"]
        ):
            return seen
        assert time.monotonic() < deadline, seen
        time.sleep(pause)
        pause = min(1.0, pause * 2)


def kept(full: JSON) -> JSON:
    """What of a table's message a backup keeps: all but which process holds its clock."""
    seen: JSON = {key: full[key] for key in KEPT}
    options: JSON = full["options"]
    seen["options"] = {key: value for key, value in options.items() if key != "clock_holder"}
    return seen


class Table:
    """A table opened by ``opener``, its friends' seats claimed by ``friends`` in order."""

    def __init__(self, opener: httpx.Client, friends: list[httpx.Client], **body: Any) -> None:
        answer = opener.post("/api/tables", json=body, headers=header(opener))
        assert answer.status_code == 200, answer.text
        created: JSON = answer.json()
        self.id: str = created["table"]
        you = body["seats"].index("you")
        self.seats: dict[int, tuple[httpx.Client, str]] = {you: (opener, created["token"])}
        for (seat, invite), friend in zip(created["invites"].items(), friends, strict=True):
            claimed = friend.post(
                f"/api/tables/{self.id}/claim", json={"invite": invite}, headers=header(friend)
            )
            assert claimed.status_code == 200, claimed.text
            self.seats[int(seat)] = (friend, claimed.json()["token"])

    def play(self, moves: int | None) -> JSON:
        """The people's first legal action, ``moves`` times (to the end for None). Few
        requests: the server allows 600 a minute from one address."""
        played = 0
        client, token = next(iter(self.seats.values()))
        seen = settled(client, self.id, token)
        while seen["outcome"] is None and (moves is None or played < moves):
            decider = seen["decider"]
            client, token = self.seats[decider]
            if decider not in seen["yours"]:
                seen = message(client, self.id, token, decider)
            answer = client.post(
                f"/api/tables/{self.id}/act",
                json={
                    "token": token,
                    "action": seen["legal"][0],
                    "version": seen["version"],
                    "seat": decider,
                },
                headers=header(client),
            )
            assert answer.status_code == 200, answer.text
            played += 1
            seen = settled(client, self.id, token)
        return seen

    def views(self, address: str) -> dict[int | None, JSON]:
        """What each seat sees (the seat's own browser) and what a spectator sees (None)."""
        seen: dict[int | None, JSON] = {}
        with browser(address) as stranger:
            seen[None] = kept(message(stranger, self.id, None))
        for seat, (client, token) in self.seats.items():
            seen[seat] = kept(message(at(client, address), self.id, token, seat))
        return seen


class Site:
    """What a test plays before the backup, and what it must find after the restore."""

    def __init__(self, address: str) -> None:
        self.alice = person(address, "alice")
        self.bob = person(address, "bob")
        rated = Table(self.alice, [self.bob], game="fano", seats=["you", "friend"], rated=True)
        end = rated.play(None)
        assert end["outcome"] is not None
        assert end["options"]["rated"] is True
        moved = self.alice.get(f"/api/tables/{rated.id}/ratings").json()
        assert [change["name"] for change in moved["changes"]] == ["alice", "bob"], moved
        morris = Table(self.alice, [self.bob], game="morris", seats=["you", "friend"], seed=3)
        morris.play(5)
        fano = Table(self.bob, [self.alice], game="fano", seats=["you", "friend"], seed=7)
        fano.play(4)
        cards = Table(
            self.alice, [], game="fantan", seats=["you", "random", "random", "random"], seed=4
        )
        cards.play(3)
        self.tables = [rated, morris, fano, cards]
        self.before = {table.id: table.views(address) for table in self.tables}
        self.ratings_before = self.ratings(address)
        assert self.ratings_before["/api/players/alice"]["history"][0]["table"] == rated.id
        for table in self.tables[1:]:
            assert self.before[table.id][None]["outcome"] is None  # unfinished
            assert self.before[table.id][None]["version"] > 0

    def ratings(self, address: str) -> JSON:
        """What the rated table did to ratings, and alice's and bob's profiles."""
        with browser(address) as stranger:
            answers = [
                stranger.get(path)
                for path in (
                    f"/api/tables/{self.tables[0].id}/ratings",
                    "/api/players/alice",
                    "/api/players/bob",
                )
            ]
        assert all(answer.status_code == 200 for answer in answers), answers
        return {str(answer.url.path): answer.json() for answer in answers}

    def check(self, address: str) -> None:
        """On the restored site: the same tables, seats, accounts and ratings, and play on."""
        for table in self.tables:
            after = table.views(address)
            for seat, seen in after.items():
                before = self.before[table.id][seat]
                changed = {
                    key: (before[key], seen[key]) for key in KEPT if before[key] != seen[key]
                }
                assert not changed, (table.id, seat, changed)
        assert self.ratings(address) == self.ratings_before
        with browser(address) as fresh:
            signed = fresh.post("/api/session", json={"name": "alice", "password": PASSWORD})
            assert signed.status_code == 200, signed.text
            assert fresh.get("/api/account").json()["name"] == "alice"
            wrong = fresh.post("/api/session", json={"name": "bob", "password": "wrong horse"})
            assert wrong.status_code in (401, 403), wrong.text
        # bob's browser kept its session: it is still signed in on the copy
        assert at(self.bob, address).get("/api/account").json()["name"] == "bob"
        for table in self.tables[1:]:  # every unfinished game goes on from where it was
            table.seats = {
                seat: (at(held, address), token) for seat, (held, token) in table.seats.items()
            }
            played = table.play(1)
            assert len(played["log"]) > len(self.before[table.id][None]["log"])


# ---------------------------------------------------------------- PostgreSQL


def libpq_url(socket_folder: str, port: int, database: str) -> str:
    """The URL PostgreSQL's own tools take."""
    return f"postgresql://postgres@/{database}?host={socket_folder}&port={port}"


@contextmanager
def new_cluster(port: int) -> Iterator[str]:
    """A NEW PostgreSQL 15 cluster (initdb in a temporary folder) on a Unix socket only;
    yields the socket's folder. Stopped and removed at the end."""
    folder = Path(f"/tmp/fanfold-restore-{uuid.uuid4().hex[:8]}")
    folder.mkdir()
    with start_cluster(folder, port, fsync=True) as socket_folder:
        yield socket_folder


def timed(command: list[str]) -> float:
    """Run a PostgreSQL tool; its wall time in seconds."""
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    took = time.perf_counter() - started
    assert done.returncode == 0, done.stderr
    return took


@pytest.mark.postgres
def test_a_pg_dump_restored_into_a_new_cluster_resumes_every_game(
    postgres_cluster: str,  # noqa: F811 (the imported fixture, by name)
    tmp_path: Path,
) -> None:
    name = f"site_{uuid.uuid4().hex[:12]}"
    subprocess.run(
        [str(PG_BIN / "createdb"), "-h", postgres_cluster, "-p", "5432", "-U", "postgres", name],
        check=True,
        capture_output=True,
        timeout=60,
    )
    dump = tmp_path / "fanfold.dump"
    log = tmp_path / "server.log"
    with server(_postgres_url(postgres_cluster, name), log, 0.0, *PROXY) as (process, address):
        site = Site(address)
        dumped = timed(  # while the server runs, as docs/backup.md says
            [
                str(PG_BIN / "pg_dump"),
                "--format=custom",
                f"--file={dump}",
                libpq_url(postgres_cluster, 5432, name),
            ]
        )
        process.terminate()
        process.wait(timeout=60)
    assert dump.stat().st_size > 0
    with new_cluster(5433) as restored:
        subprocess.run(
            [str(PG_BIN / "createdb"), "-h", restored, "-p", "5433", "-U", "postgres", "fanfold"],
            check=True,
            capture_output=True,
            timeout=60,
        )
        restoring = timed(
            [
                str(PG_BIN / "pg_restore"),
                "--exit-on-error",
                f"--dbname={libpq_url(restored, 5433, 'fanfold')}",
                str(dump),
            ]
        )
        print(
            f"\npg_dump --format=custom: {dumped:.2f} s, {dump.stat().st_size} bytes; "
            f"pg_restore into a new cluster: {restoring:.2f} s"
        )
        assert dumped < SANE_SECONDS
        assert restoring < SANE_SECONDS
        url = f"postgresql+psycopg://postgres@/fanfold?host={restored}&port=5433"
        with server(url, log, 0.0, *PROXY) as (process, address):
            site.check(address)
            process.terminate()
            process.wait(timeout=60)


# -------------------------------------------------------------------- SQLite


def online_copy(source: Path, target: Path) -> float:
    """SQLite's online backup of ``source`` into ``target`` (the API ``sqlite3 .backup``
    uses); its wall time in seconds."""
    started = time.perf_counter()
    with sqlite3.connect(source) as original, sqlite3.connect(target) as copy:
        original.backup(copy)
    original.close()
    copy.close()
    return time.perf_counter() - started


def judged_review(client: httpx.Client, table: str, least: int) -> JSON:
    """The table's review (opened by the first request) once it has ``least`` judged moves
    stored, or is over."""
    deadline = time.monotonic() + SANE_SECONDS
    while True:
        answer = client.get(f"/api/tables/{table}/review")
        assert answer.status_code == 200, answer.text
        found: JSON = answer.json()
        if found["judged"] >= least or found["state"] in ("done", "failed"):
            return found
        assert time.monotonic() < deadline, found
        time.sleep(0.1)


@pytest.mark.parametrize("copier", ["sqlite3 .backup", "python"])
def test_an_online_sqlite_copy_resumes_every_game(tmp_path: Path, copier: str) -> None:
    """Both files copied while the server runs, the reviews' file first
    (:mod:`fanfold.server.store.review_file`); the copy's review goes on from its moves."""
    database = tmp_path / "fanfold.db"
    copy = tmp_path / "copy" / "fanfold.db"
    copy.parent.mkdir()
    reviews, reviews_copy = (
        folder / "fanfold-reviews.sqlite3" for folder in (tmp_path, copy.parent)
    )
    log = tmp_path / "server.log"
    copying: Callable[[Path, Path], float] = online_copy
    if copier == "sqlite3 .backup":

        def copying(source: Path, target: Path) -> float:
            return timed(["sqlite3", str(source), f".backup {target}"])

    with server(f"sqlite:///{database}", log, 0.0, *PROXY) as (process, address):
        site = Site(address)
        rated = site.tables[0].id
        before = judged_review(site.alice, rated, 1)
        took = copying(reviews, reviews_copy)  # while the server runs: the reviews first
        took += copying(database, copy)
        process.terminate()
        process.wait(timeout=60)
    print(f"\nSQLite online copy ({copier}): {took:.2f} s, {copy.stat().st_size} bytes")
    database.unlink()  # the original is gone: only the copy is served
    reviews.unlink()
    with server(f"sqlite:///{copy}", log, 0.0, *PROXY) as (process, address):
        site.check(address)
        with at(site.alice, address) as alice:
            after = alice.get(f"/api/tables/{rated}/review").json()
        assert after["seed"] == before["seed"]
        assert after["judged"] >= before["judged"], (before, after)  # its moves were copied
        process.terminate()
        process.wait(timeout=60)
