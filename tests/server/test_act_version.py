"""An HTTP action or undo answers the version its own change produced, read under the table's
lock: never a later one (another action, a bot's) that it did not see."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx

from fanfold.server.app import create_app
from tests.server.support import ROOMY, TOKEN, sqlite_url


async def _two_quick_acts(tmp_path: Path) -> tuple[list[int], int]:
    app = create_app(sqlite_url(tmp_path), bot_seconds=None, limits=ROOMY)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://fanfold") as client:
            body = {"game": "morris", "seats": ["you", "hotseat"], "seed": 1}
            created = (await client.post("/api/tables", json=body)).json()
            table, token = created["table"], created["token"]
            # Both sent at once: the second waits for the first's lock and acts as soon as
            # the first lets it go, before the first has answered.
            answers = await asyncio.gather(
                client.post(f"/api/tables/{table}/act", json={"token": token, "action": "C1"}),
                client.post(f"/api/tables/{table}/act", json={"token": token, "action": "T2"}),
            )
            undone = await client.post(f"/api/tables/{table}/undo", json={"token": token})
            state = (await client.get(f"/api/tables/{table}", headers={TOKEN: token})).json()
            assert undone.status_code == 200, undone.text
            assert undone.json()["version"] == state["version"]
            assert all(answer.status_code == 200 for answer in answers), answers
            return [answer.json()["version"] for answer in answers], state["version"]


def test_two_quick_acts_each_answer_their_own_version(tmp_path: Path) -> None:
    versions, _ = asyncio.run(_two_quick_acts(tmp_path))
    assert sorted(versions) == [1, 2]
