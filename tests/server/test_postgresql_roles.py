"""The PostgreSQL set-up ``docs/postgresql.md`` gives, run as it is written: its SQL block (by
``psql``, as the guide says) on a throw-away PostgreSQL 15 cluster makes the schema's owner and
the processes' role; the owner's first start creates the schema; ``fanfold serve`` then runs as
the processes' role (ready, a table opened and played, stored); that role may not create a
table; and a process started as it on a schema not yet made stops, saying so."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import httpx
import sqlalchemy as sa
from sqlalchemy.exc import ProgrammingError

from fanfold.server.store import Store
from tests.server.support import PG_BIN, ROOT, TOKEN, free_port, subprocess_environment
from tests.server.test_store import postgres_cluster  # noqa: F401 (fixture)

GUIDE = ROOT / "docs" / "postgresql.md"


def url_as(role: str, socket_folder: str, database: str = "fanfold") -> str:
    return f"postgresql+psycopg://{role}@/{database}?host={socket_folder}&port=5432"


def the_guides_sql() -> str:
    blocks = re.findall(r"```sql\n(.*?)```", GUIDE.read_text(), re.S)
    assert len(blocks) == 1, "docs/postgresql.md has one SQL block, the roles"
    return str(blocks[0])


def test_the_guides_roles_serve_a_game(postgres_cluster: str, tmp_path: Path) -> None:  # noqa: F811
    script = tmp_path / "roles.sql"
    script.write_text(the_guides_sql())
    ran = subprocess.run(
        [
            *(str(PG_BIN / "psql"), "-h", postgres_cluster, "-p", "5432", "-U", "postgres"),
            *("-d", "postgres", "-v", "ON_ERROR_STOP=1", "-f", str(script)),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    owner, app = url_as("fanfold_owner", postgres_cluster), url_as("fanfold_app", postgres_cluster)

    # Started as the processes' role on a schema not yet made, a process stops, saying so.
    refused = subprocess.run(
        [sys.executable, "-m", "fanfold", "serve", "--port", str(free_port()), "--db", app],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=subprocess_environment(),
        timeout=300,
    )
    assert refused.returncode != 0
    assert "permission denied" in refused.stdout + refused.stderr

    Store(owner).close()  # the owner's first start: the schema
    port, health = free_port(), free_port()
    log = tmp_path / "serve.log"
    with log.open("ab") as output:
        server = subprocess.Popen(
            [
                *(sys.executable, "-m", "fanfold", "serve", "--port", str(port), "--db", app),
                *("--health-port", str(health), "--server-name", "s1", "--bot-workers", "1"),
            ],
            stdout=output,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
            env=subprocess_environment(),
        )
    try:
        deadline = time.monotonic() + 300
        while True:
            assert server.poll() is None, log.read_text()[-3000:]
            assert time.monotonic() < deadline, log.read_text()[-3000:]
            try:
                if httpx.get(f"http://127.0.0.1:{health}/ready", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.2)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            opened = client.post("/api/tables", json={"game": "morris", "seats": ["you", "random"]})
            assert opened.status_code == 200, opened.text
            table, token = opened.json()["table"], opened.json()["token"]
            state = client.get(f"/api/tables/{table}", headers={TOKEN: token}).json()
            body = {"token": token, "version": state["version"], "action": state["legal"][0]}
            acted = client.post(f"/api/tables/{table}/act", json=body)
            assert acted.status_code == 200, acted.text
            account = client.post(
                "/api/accounts", json={"name": "Rolesplayer", "password": "correct horse"}
            )
            assert account.status_code == 200, account.text  # a row with a sequence's id
    finally:
        server.terminate()
        server.wait(timeout=60)
    assert "Traceback" not in log.read_text(), log.read_text()[-3000:]

    engine = sa.create_engine(app, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as connection:
            actions = connection.execute(
                sa.text("SELECT count(*) FROM actions WHERE table_id = :t"), {"t": table}
            ).scalar()
            assert actions is not None
            assert actions >= 1
            denied = False
            try:
                connection.execute(sa.text("CREATE TABLE intruder (x integer)"))
            except ProgrammingError as error:
                denied = "permission denied" in str(error)
            assert denied, "the processes' role may not change the schema"
    finally:
        engine.dispose()
