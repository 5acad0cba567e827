"""A record loaded as a new table (``POST /api/records``) is replayed in a thread, never in
the event loop: a long game's replay (up to a thousand actions, tens of milliseconds) held up
every table of the process, the reviews' readers' loads among them."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

import pytest

from fanfold.core.config import JSONValue
from fanfold.games.morris import GAME as MORRIS
from fanfold.play.setup import play_game
from fanfold.play.table import Table
from fanfold.server.hub import opening
from fanfold.server.hub import records as hub_records
from tests.server.support import serve


def test_a_loaded_records_replay_runs_outside_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    replays: list[bool] = []
    original = hub_records.replay

    def watched(table: Table, texts: Sequence[str], ruling: JSONValue = None) -> None:
        try:
            asyncio.get_running_loop()
            replays.append(True)  # in the event loop's thread
        except RuntimeError:
            replays.append(False)
        original(table, texts, ruling)

    monkeypatch.setattr(opening, "replay", watched)
    record = play_game(MORRIS, None, ["random", "random"], agent_seed=3).finish()
    with serve(tmp_path) as client:
        answer = client.post(
            "/api/records", json={"record": record.to_json(), "seats": ["random", "random"]}
        )
        assert answer.status_code == 200, answer.text
        table = answer.json()["table"]
        state = client.get(f"/api/tables/{table}").json()
        # A record that does not replay is refused, with its reason, from the thread too.
        broken = record.to_json()
        broken["actions"] = [*record.actions, *record.actions[:1]]  # an action after the end
        refused = client.post("/api/records", json={"record": broken, "seats": ["random"] * 2})
    assert replays == [False, False]
    assert state["version"] == len(record.actions)
    assert refused.status_code in (400, 409, 422), refused.text
    assert "end" in refused.json()["error"]
