"""Accounts: create, sign in and out, sign out everywhere, the reserved names, the limits on
wrong passwords (never locking the owner out), the same answer for an unknown name and a wrong
password, the shared cookie key, CSRF and the Origin checks."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import pytest
from argon2 import PasswordHasher, Type, extract_parameters
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from fanfold.server.accounts import (
    CSRF_COOKIE,
    CSRF_HEADER,
    FREE_FAILURES,
    SESSION_COOKIE,
    TOO_MANY,
    WRONG,
    Accounts,
    SignInError,
)
from fanfold.server.app import create_app
from fanfold.server.store import Store
from fanfold.server.store import accounts as accounts_table
from tests.server.support import ROOMY, refused, sqlite_url

JSON = dict[str, Any]


@pytest.fixture
def app_client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(sqlite_url(tmp_path), bot_seconds=0.5, limits=ROOMY)
    with TestClient(app) as client:
        yield client


def csrf(client: TestClient) -> dict[str, str]:
    """The header a signed-in page sends with every state-changing request."""
    return {CSRF_HEADER: client.cookies[CSRF_COOKIE]}


def create(client: TestClient, name: str, password: str = "correct horse") -> JSON:
    answer = client.post("/api/accounts", json={"name": name, "password": password})
    assert answer.status_code == 200, answer.text
    body: JSON = answer.json()
    return body


def sign_in(client: TestClient, name: str, password: str = "correct horse") -> Any:
    return client.post("/api/session", json={"name": name, "password": password})


def test_an_account_is_created_signed_in_and_out(app_client: TestClient) -> None:
    client = app_client
    assert client.get("/api/account").json() == {"signed_in": False}
    made = create(client, "Alice")
    assert made["signed_in"] is True
    assert made["name"] == "Alice"
    assert client.get("/api/account").json()["name"] == "Alice"
    # The session cookie is HttpOnly and SameSite; the CSRF cookie is readable by the page.
    cookies = client.post(
        "/api/session", json={"name": "alice", "password": "correct horse"}, headers=csrf(client)
    )
    assert cookies.status_code == 200, cookies.text
    set_cookie = ";".join(cookies.headers.get_list("set-cookie")).lower()
    assert f"{SESSION_COOKIE}=" in set_cookie
    assert "httponly" in set_cookie
    assert "samesite=lax" in set_cookie
    out = client.delete("/api/session", headers=csrf(client))
    assert out.status_code == 200, out.text
    assert client.get("/api/account").json() == {"signed_in": False}
    # Names are one name whatever their case.
    again = client.post("/api/accounts", json={"name": "ALICE", "password": "another one"})
    assert "taken" in refused(again, 400)["error"]
    assert sign_in(client, "ALICE").json()["name"] == "Alice"


@pytest.mark.parametrize(
    ("name", "password", "said"),
    [
        ("al", "long enough", "3 to 20"),
        ("-alice", "long enough", "3 to 20"),
        ("a" * 21, "long enough", "3 to 20"),
        ("bob", "short", "8 to 200"),
    ],
)
def test_bad_names_and_passwords_are_refused(
    app_client: TestClient, name: str, password: str, said: str
) -> None:
    answer = app_client.post("/api/accounts", json={"name": name, "password": password})
    assert said in refused(answer, 400)["error"]
    assert sign_in(app_client, name, password).status_code == 401  # nothing was made


def test_unknown_name_and_wrong_password_get_the_same_answer(app_client: TestClient) -> None:
    client = app_client
    create(client, "carol")
    client.delete("/api/session", headers=csrf(client))
    wrong = sign_in(client, "carol", "not the password")
    unknown = sign_in(client, "nobody-here", "not the password")
    assert wrong.status_code == unknown.status_code == 401
    same = {"error": WRONG, "kind": "SignInError", "code": "account.wrong", "params": {}}
    assert wrong.json() == unknown.json() == same
    assert client.get("/api/account").json() == {"signed_in": False}


class CountingHasher(PasswordHasher):
    """Argon2 that notes each hash it checks against."""

    checked: list[str]

    def verify(self, hash: str | bytes, password: str | bytes) -> Literal[True]:
        type(self).checked.append(str(hash))
        return super().verify(hash, password)


def test_an_unknown_name_is_checked_against_a_dummy_hash(tmp_path: Path) -> None:
    store = Store(sqlite_url(tmp_path))
    CountingHasher.checked = []
    accounts = Accounts(store, hasher=CountingHasher())

    async def attempts() -> None:
        await accounts.create("dave", "password one")
        for name in ("dave", "nobody"):
            with pytest.raises(SignInError, match=WRONG):
                await accounts.sign_in(name, "password two", "client")

    asyncio.run(attempts())
    assert len(CountingHasher.checked) == 2  # the unknown name did the same Argon2 work
    assert CountingHasher.checked[1] == accounts.dummy
    assert CountingHasher.checked[0] != accounts.dummy
    store.close()


def test_wrong_passwords_slow_their_address_for_known_and_unknown_names(
    app_client: TestClient,
) -> None:
    client = app_client
    create(client, "erin")
    client.delete("/api/session", headers=csrf(client))
    for name in ("erin", "nobody"):
        for _ in range(FREE_FAILURES):
            assert sign_in(client, name, "wrong password").status_code == 401
        over = sign_in(client, name, "correct horse")  # even the right password, too early
        assert refused(over, 429)["error"].startswith(f"{TOO_MANY} for this name")
    assert client.get("/api/account").json() == {"signed_in": False}


def test_an_attacker_never_locks_the_owner_out(app_client: TestClient) -> None:
    attacker = TestClient(app_client.app, client=("10.6.6.6", 50000))
    owner = TestClient(app_client.app, client=("10.0.0.2", 50000))
    create(owner, "erin")
    owner.delete("/api/session", headers=csrf(owner))
    for _ in range(FREE_FAILURES):
        assert sign_in(attacker, "erin", "wrong password").status_code == 401
    for _ in range(10):
        assert "wait" in refused(sign_in(attacker, "erin", "guess"), 429)["error"]
    answer = sign_in(owner, "erin")
    assert answer.status_code == 200, answer.text
    assert owner.get("/api/account").json()["name"] == "erin"


@pytest.mark.parametrize(
    "name",
    [
        "hard",
        "Hard-bot",
        "h4rd",
        "HARD_2",
        "medium",
        "Medium.AI",
        "easy",
        "3asy",
        "random",
        "r4nd0m",
        "mcts-strong",
        "perfect",
        "solver",
        "admin",
        "ADMIN",
        "adm1n",
        "moderator",
        "m0derat0r",
        "system",
        "fanfold",
        "fanfo1d",
        "bot",
        "b0t-1",
        "you",
        "human",
    ],
)
def test_reserved_names_and_their_look_alikes_are_refused(
    app_client: TestClient, name: str
) -> None:
    answer = app_client.post("/api/accounts", json={"name": name, "password": "long enough"})
    assert f"the name {name} is reserved" in refused(answer, 400)["error"]


@pytest.mark.parametrize("name", ["hardy", "badminton", "kai", "easygoing", "Robotics", "Sam_3"])
def test_names_near_reserved_ones_are_not_refused(app_client: TestClient, name: str) -> None:
    create(app_client, name)


def test_an_existing_account_with_a_reserved_name_still_signs_in(tmp_path: Path) -> None:
    store = Store(sqlite_url(tmp_path))
    accounts = Accounts(store, hasher=PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
    with store.engine.begin() as connection:  # made before the names were reserved
        connection.execute(
            accounts_table.insert().values(
                name="Hard",
                name_key="hard",
                password_hash=accounts.hasher.hash("password one"),
                created=time.time(),
            )
        )
    account, _ = asyncio.run(accounts.sign_in("hard", "password one", "10.0.0.1"))
    assert account.name == "Hard"
    store.close()


def test_sign_out_everywhere_ends_every_device(app_client: TestClient) -> None:
    phone = app_client
    laptop = TestClient(phone.app)  # a second browser on the same server
    create(phone, "frank")
    assert sign_in(laptop, "frank").status_code == 200
    assert laptop.get("/api/account").json()["signed_in"] is True
    answer = phone.delete("/api/sessions", headers=csrf(phone))
    assert answer.status_code == 200, answer.text
    assert answer.json()["sessions_ended"] == 2
    assert phone.get("/api/account").json() == {"signed_in": False}
    assert laptop.get("/api/account").json() == {"signed_in": False}  # its cookie is dead
    assert refused(laptop.delete("/api/sessions"), (401, 403))


def test_state_changing_requests_need_the_csrf_token(app_client: TestClient) -> None:
    client = app_client
    create(client, "grace")
    body = {"game": "morris", "seats": ["you", "random"]}
    missing = client.post("/api/tables", json=body)
    assert refused(missing, 403)["kind"] == "CSRF"
    forged = client.post("/api/tables", json=body, headers={CSRF_HEADER: "0" * 64})
    assert refused(forged, 403)["kind"] == "CSRF"
    assert refused(client.delete("/api/sessions"), 403)["kind"] == "CSRF"
    assert client.get("/api/account").json()["signed_in"] is True  # nothing changed
    ok = client.post("/api/tables", json=body, headers=csrf(client))
    assert ok.status_code == 200, ok.text


def test_another_sites_requests_and_sockets_are_refused(app_client: TestClient) -> None:
    client = app_client
    body = {"game": "morris", "seats": ["you", "random"]}
    evil = {"Origin": "https://evil.example"}
    assert refused(client.post("/api/tables", json=body, headers=evil), 403)["kind"] == "CrossSite"
    assert refused(
        client.post("/api/accounts", json={"name": "mallory", "password": "x" * 9}, headers=evil),
        403,
    )
    assert sign_in(client, "mallory", "x" * 9).status_code == 401  # no account was made
    same = client.post("/api/tables", json=body, headers={"Origin": "http://testserver"})
    assert same.status_code == 200, same.text
    table = same.json()["table"]
    with (
        pytest.raises(WebSocketDisconnect),
        client.websocket_connect(f"/ws/tables/{table}", headers=evil) as socket,
    ):
        socket.receive_json()
    with client.websocket_connect(
        f"/ws/tables/{table}", headers={"Origin": "http://testserver"}
    ) as socket:
        socket.send_json({"type": "hello"})
        assert socket.receive_json()["type"] == "state"


def test_the_signing_key_is_shared_and_kept(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    first = Store(url)
    one = Accounts(first)
    token = asyncio.run(one.create("heidi", "password one"))[1]
    cookie = one.cookie_value(token)
    second = Store(url)  # another process, or the same server after a restart
    other = Accounts(second)
    assert other.key == one.key
    assert other.token_of(cookie) == token
    account = other.account_of(other.token_of(cookie))
    assert account is not None
    assert account.name == "heidi"
    assert other.token_of(cookie[:-2] + "xx") is None  # a forged signature holds nothing
    first.close()
    second.close()


class SlowHasher(PasswordHasher):
    """Argon2 that notes how many hashes run at once, and in which threads."""

    lock = threading.Lock()
    running = peak = 0
    threads: list[int]

    def hash(self, password: str | bytes, *, salt: bytes | None = None) -> str:
        cls = type(self)
        cls.threads.append(threading.get_ident())
        with cls.lock:
            cls.running += 1
            cls.peak = max(cls.peak, cls.running)
        time.sleep(0.1)
        with cls.lock:
            cls.running -= 1
        return super().hash(password, salt=salt)


def test_password_hashing_runs_off_the_loop_a_few_at_a_time(tmp_path: Path) -> None:
    store = Store(sqlite_url(tmp_path))
    SlowHasher.threads = []
    accounts = Accounts(store, hasher=SlowHasher(), sign_up_at_once=2, sign_up_waiting=4)
    SlowHasher.threads, SlowHasher.peak = [], 0  # the dummy hash made at start-up aside
    loop_thread: list[int] = []

    async def crowd() -> None:
        loop_thread.append(threading.get_ident())
        await asyncio.gather(
            *(accounts.create(f"user{n}", "password one", f"10.0.0.{n}") for n in range(6))
        )

    asyncio.run(crowd())
    assert SlowHasher.peak == 2
    assert len(SlowHasher.threads) == 6
    assert loop_thread[0] not in SlowHasher.threads
    store.close()


@pytest.mark.argon2_defaults
def test_a_server_s_passwords_are_hashed_with_argon2_cffi_s_defaults(
    app_client: TestClient,
) -> None:
    """The server's own hasher (the other server tests hash at the smallest cost:
    ``tests/server/conftest.py``): Argon2id at argon2-cffi's default cost, for a new account's
    password and the dummy hash an unknown name is checked against."""
    create(app_client, "erin", "a long password")
    accounts: Accounts = app_client.app.state.accounts  # type: ignore[attr-defined]
    store: Store = accounts.store
    with store.engine.connect() as connection:
        stored = connection.execute(
            accounts_table.select().where(accounts_table.c.name == "erin")
        ).one()
    default = PasswordHasher()
    for hashed in (str(stored.password_hash), accounts.dummy):
        used = extract_parameters(hashed)
        assert used.type is Type.ID, hashed
        assert (used.time_cost, used.memory_cost, used.parallelism) == (
            default.time_cost,
            default.memory_cost,
            default.parallelism,
        ), hashed
